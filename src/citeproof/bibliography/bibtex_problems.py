"""What is wrong with a BibTeX entry bibtexparser could not read, or read wrongly.

bibtexparser 2 reports an unparseable block as a ``ParsingFailedBlock`` whose
``error`` is a ``BlockAbortedException`` (``abort_reason``); it does not notice a
missing comma between two fields, and stores the next field inside the first
one's value (``title = {A}\\n author = {B}`` becomes one ``title``). BibTeX itself
stops on both ("I was expecting a `,' or a `}'"), so both are ``error``
diagnostics here; :func:`comma_repairs` finds where the comma belongs so the
entry can be read as its author meant it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MissingComma", "comma_repairs", "failed_block_key", "failed_block_reason"]

_KEY = re.compile(r"@\s*[A-Za-z]+\s*[{(]\s*([^\s,{}()=\"#%'~]+)\s*,")
_NEXT_FIELD = re.compile(r"\s*([A-Za-z][\w:.+-]*)\s*=")


def failed_block_key(raw: str) -> str | None:
    """The citekey of an unparseable entry (``@article{key, ...``), or None when it has none."""
    m = _KEY.match(raw.lstrip())
    return m.group(1) if m else None


def failed_block_reason(raw: str, error: object) -> str:
    """Why bibtexparser gave up on a block, in words.

    Unbalanced braces are named with their counts (the commonest cause, and
    bibtexparser's own reason then is only "Unexpectedly reached end of
    file."); otherwise bibtexparser's ``abort_reason`` or its error's text.
    """
    opened, closed = raw.count("{"), raw.count("}")  # BibTeX counts braces whatever precedes them
    if opened != closed:
        return f"its braces do not balance: {opened} '{{' and {closed} '}}'"
    why = str(getattr(error, "abort_reason", "") or error or "").strip().splitlines()
    first = why[0] if why else ""
    # bibtexparser's own messages name its internals ("available as `failed_block.ignore_error_block`"): keep the words only
    sentences = [x for x in re.split(r"(?<=\.)\s+", first) if x and not re.search(r"failed_block|middleware|`|Block\b|Exception", x, re.I)]
    return " ".join(sentences).strip().rstrip(".") or "syntax error"


def _token_end(value: str, i: int) -> int:
    """End (exclusive) of the BibTeX value token starting at ``value[i]`` ({...}, "..." or a bare word)."""
    if i >= len(value):
        return i
    if value[i] in "{\"":
        close = "}" if value[i] == "{" else '"'
        depth = 1 if close == "}" else 0
        j = i + 1
        while j < len(value):
            ch = value[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if close == "}" and depth == 0:
                    return j + 1
            elif ch == '"' and close == '"' and depth == 0:
                return j + 1
            j += 1
        return len(value)
    m = re.compile(r"[^\s#,]+").match(value, i)
    return m.end() if m else i


def _value_end(value: str) -> int:
    """End of a field's value proper: tokens joined by ``#`` (string concatenation)."""
    i = len(value) - len(value.lstrip())
    end = _token_end(value, i)
    while True:
        rest = value[end:]
        m = re.match(r"\s*#\s*", rest)
        if not m:
            return end
        end = _token_end(value, end + m.end())


@dataclass(frozen=True)
class MissingComma:
    """A comma missing after a field.

    Attributes:
        field: the field the next one was read into (``title``).
        next_field: the field that was swallowed (``author``).
        line: line (from 1) in the file where the comma belongs.
        offset: character offset in the file's text where the comma belongs.
    """

    field: str
    next_field: str
    line: int
    offset: int


def comma_repairs(text: str, entries: list) -> list[MissingComma]:
    """Where commas are missing between the fields of parsed entries.

    Args:
        text: the whole .bib text bibtexparser parsed.
        entries: its ``library.entries`` (bibtexparser ``Entry`` objects,
            with ``raw``, ``start_line`` from 0 and ``fields``).

    Returns:
        One :class:`MissingComma` per field whose value runs on into
        ``name =`` after its own closing brace or quote, in file order.
        Inserting ``,`` at each ``offset`` (from the last) and parsing again
        reads the entries as meant.
    """
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    found: list[MissingComma] = []
    for entry in entries:
        start = line_starts[min(entry.start_line or 0, len(line_starts) - 1)]
        at = text.find(entry.raw, start)
        if at < 0:
            continue
        pos = 0
        for fld in entry.fields:
            value = fld.value if isinstance(fld.value, str) else ""
            vpos = entry.raw.find(value, pos) if value else -1
            if vpos < 0:
                continue
            pos = vpos + len(value)
            end = _value_end(value)
            m = _NEXT_FIELD.match(value, end)
            if end >= len(value) or not m:
                continue
            offset = at + vpos + end
            line = text.count("\n", 0, offset) + 1
            found.append(MissingComma(fld.key, m.group(1), line, offset))
    return found
