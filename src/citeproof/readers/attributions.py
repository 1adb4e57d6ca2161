"""Generated documents with attributions (issue 14, part 3): JSON whose units cite source documents.

Two shapes, both JSON (``citeproof check answer.json``; the schema is ``schemas/attributions.schema.json``):

- **nodes**: ``{"nodes": [{"id", "type", "text", "attributions": [{"source_id", "section_id" | "span"}]}],
  "sources": [{"id", "path" | "text", "title"?}]}``. Each node with attributions is one claim (its text whole,
  as the generator attributed it); each attribution is one citation of ``source_id``, with the section id or the
  span (``{"start", "end"}`` characters, or a string) as its locator. ``type`` maps to the unit kind (``heading``,
  ``list_item``, ``table_cell`` as a table row, anything else a sentence).
- **answer**: ``{"answer": "text with cite tags", "sources": [...]}``: an LLM answer whose sentences carry tags
  ``[1]``, ``[1, 3]``, ``[source_id]`` or ``【3†source】``; a bracket counts as a tag only when every id in it is a
  listed source. The answer is cut into sentences as a Markdown draft is.

A source is a file (``path``, relative to the JSON file) or inline ``text``. ``line`` of a claim is the node's
position from 1 (nodes) or the answer's line (answer).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from citeproof.bibliography import Bibliography
from citeproof.errors import InputError
from citeproof.model import Citation, Claim, Diagnostic, Locator, Reference, UnitKind

__all__ = ["AttributionReader", "AttributedDocument", "read_attributions"]

_KINDS = {"heading": UnitKind.HEADING, "title": UnitKind.HEADING, "list_item": UnitKind.LIST_ITEM, "listitem": UnitKind.LIST_ITEM,
          "table_cell": UnitKind.TABLE_ROW, "table_row": UnitKind.TABLE_ROW, "caption": UnitKind.CAPTION, "footnote": UnitKind.FOOTNOTE}
_FANCY_TAG = re.compile(r"【(\d+)(?:[:：]\d+)?†[^】]*】")
_BRACKET_TAG = re.compile(r"\[([^\[\]@\n]{1,200})\]")


@dataclass
class AttributedDocument:
    """Claims and the sources they cite (as a bibliography whose entries carry a file or inline text)."""

    claims: list[Claim] = field(default_factory=list)
    references: dict[str, Reference] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    path: str = ""

    def bibliography(self) -> Bibliography:
        """The ``sources`` list as a :class:`Bibliography`."""
        return Bibliography(entries=dict(self.references), diagnostics=list(self.diagnostics), description=f"the sources listed in {self.path}")


def _bad(path: Path, where: str, what: str) -> InputError:
    return InputError(f"{path}: {where}: {what}; see the attributions schema (docs/inputs.md: 'Generated documents with attributions')")


def _sources(path: Path, data: dict) -> dict[str, Reference]:
    srcs = data.get("sources")
    if not isinstance(srcs, list):
        raise _bad(path, "sources", "expected a list of {id, path | text}")
    out: dict[str, Reference] = {}
    for i, s in enumerate(srcs):
        where = f"sources[{i}]"
        if not isinstance(s, dict):
            raise _bad(path, where, "expected an object")
        sid = s.get("id")
        if not isinstance(sid, (str, int)) or isinstance(sid, bool) or str(sid) == "":
            raise _bad(path, f"{where}.id", "expected a non-empty string or number")
        has_path, has_text = isinstance(s.get("path"), str) and s["path"], isinstance(s.get("text"), str) and s["text"]
        if not has_path and not has_text:
            raise _bad(path, where, "needs 'path' (a file) or 'text' (the source's text)")
        title = s.get("title") if isinstance(s.get("title"), str) else ""
        out[str(sid)] = Reference(citekey=str(sid), title=title, url=s.get("url") if isinstance(s.get("url"), str) else "",
                                  files=(s["path"],) if has_path else (), text=s["text"] if has_text and not has_path else "",
                                  origin=f"{path}:{where}")
    return out


def _locator(path: Path, where: str, a: dict) -> Locator | None:
    if "section_id" in a:
        if not isinstance(a["section_id"], (str, int)):
            raise _bad(path, f"{where}.section_id", "expected a string")
        return Locator("section", str(a["section_id"]), f"section {a['section_id']}")
    span = a.get("span")
    if span is None:
        return None
    if isinstance(span, str):
        return Locator("span", span, span)
    if isinstance(span, dict) and all(isinstance(span.get(k), int) for k in ("start", "end")):
        return Locator("span", f"{span['start']}-{span['end']}", f"characters {span['start']}-{span['end']}")
    raise _bad(path, f"{where}.span", "expected {\"start\": int, \"end\": int} or a string")


def _nodes(path: Path, data: dict, refs: dict[str, Reference]) -> list[Claim]:
    nodes = data.get("nodes")
    if not isinstance(nodes, list):
        raise _bad(path, "nodes", "expected a list")
    claims = []
    for i, n in enumerate(nodes):
        where = f"nodes[{i}]"
        if not isinstance(n, dict):
            raise _bad(path, where, "expected an object")
        if not isinstance(n.get("text"), str):
            raise _bad(path, f"{where}.text", "expected a string")
        atts = n.get("attributions", [])
        if not isinstance(atts, list):
            raise _bad(path, f"{where}.attributions", "expected a list")
        cites = []
        for j, a in enumerate(atts):
            aw = f"{where}.attributions[{j}]"
            if not isinstance(a, dict) or not isinstance(a.get("source_id"), (str, int)):
                raise _bad(path, aw, "expected {\"source_id\", \"section_id\" | \"span\"}")
            sid = str(a["source_id"])
            if sid not in refs:
                raise _bad(path, f"{aw}.source_id", f"'{sid}' is not in sources")
            cites.append(Citation(citekey=sid, locator=_locator(path, aw, a), raw=json.dumps(a, ensure_ascii=False)[:300],
                                  line=i + 1, group_index=j, group_size=len(atts)))
        if not cites or not n["text"].strip():
            continue
        kind = _KINDS.get(str(n.get("type", "")).lower(), UnitKind.SENTENCE)
        nid = str(n.get("id", i + 1))
        claims.append(Claim(id=f"n{nid}"[:40], text=n["text"].strip(), raw=n["text"], citations=tuple(cites), document=str(path),
                            line=i + 1, kind=kind, context=nodes[i - 1].get("text", "")[-300:] if i and isinstance(nodes[i - 1], dict) else ""))
    return claims


def _answer(path: Path, data: dict, refs: dict[str, Reference]) -> list[Claim]:
    """Cut an LLM answer with cite tags into claims through the Markdown reader (tags become pandoc citations)."""
    from citeproof.readers.markdown import MarkdownReader

    text = data.get("answer")
    if not isinstance(text, str):
        raise _bad(path, "answer", "expected a string")
    text = text.replace("@", "\\@")
    text = _FANCY_TAG.sub(lambda m: f"[@{{{m.group(1)}}}]" if m.group(1) in refs else m.group(0), text)

    def bracket(m: re.Match[str]) -> str:
        ids = [x.strip() for x in re.split(r"[,;]", m.group(1))]
        if ids and all(x in refs for x in ids):
            return "[" + "; ".join(f"@{{{x}}}" for x in ids) + "]"
        return m.group(0)

    text = _BRACKET_TAG.sub(bracket, text)
    return MarkdownReader().read_string(text, str(path))


def read_attributions(path: str | Path) -> AttributedDocument:
    """Read a JSON attributions document (module docstring).

    Raises:
        InputError: the file is missing, not JSON, or does not fit the schema; the message names the file and the
            first offending path (``nodes[3].attributions``).
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file; check the path of the citing document") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}); save the JSON as UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise InputError(f"{path}: the JSON is nested too deeply to read") from None
    if not isinstance(data, dict) or ("nodes" not in data and "answer" not in data):
        raise _bad(path, "(top level)", "expected an object with 'nodes' or 'answer', and 'sources' (a bibliography belongs in --bib)")
    refs = _sources(path, data)
    claims = _nodes(path, data, refs) if "nodes" in data else _answer(path, data, refs)
    doc = AttributedDocument(claims=claims, references=refs, path=str(path))
    if not claims:
        doc.diagnostics.append(Diagnostic("attributions-none", "warning", f"{path}: no unit carries an attribution; nothing to check", str(path)))
    return doc


class AttributionReader:
    """``.json`` citing documents: nodes with attributions, or an LLM answer with cite tags."""

    suffixes = (".json",)

    def read_document(self, path: str | Path) -> AttributedDocument:
        """See :func:`read_attributions`."""
        return read_attributions(path)

    def read(self, path: str | Path) -> list[Claim]:
        """The claims only."""
        return read_attributions(path).claims
