"""Reports for the report-writer and web tests: a small hand-made one and the demo sample's."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from citeproof.model import (
    Citation,
    Claim,
    Evidence,
    Finding,
    Passage,
    Reference,
    Report,
    Source,
    Tag,
    TagEvidence,
    Tier,
    UnitKind,
    Verdict,
)

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "examples" / "manubot"
DEMO_DOC = DEMO / "citing" / "meta-review.md"
DEMO_BIB = DEMO / "meta-review.bib"


def small_report(tmp: Path) -> Report:
    """Four findings: contradicted (tagged), unknown citekey, unverifiable, supported.

    The source PDF path is ``tmp/cited/a b.pdf`` (a space, to test URL quoting);
    the document is ``tmp/draft.md``.
    """
    pdf = tmp / "cited" / "a b.pdf"
    pdf.parent.mkdir(parents=True, exist_ok=True)
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    doc = str(tmp / "draft.md")
    src = Source(citekey="smith", path=str(pdf), sha256="0" * 64, media_type="application/pdf", origin="bib file field", pages=9)
    passage = Passage(id="p0001", text="Mortality fell by 68.9% in the treated group, a difficult result.", page=7, char_start=0, char_end=60)
    src.passages = [passage]
    ref = Reference(citekey="smith", title="A trial", authors=("Smith, Ann", "Jones, Bo"), year="2020")

    def claim(i: int, text: str, key: str, line: int) -> tuple[Claim, Citation]:
        cite = Citation(citekey=key, line=line, column=12, raw=f"[@{key}]")
        return Claim(id=f"c{i:04d}", text=text, raw=text + f" [@{key}]", citations=(cite,), document=doc, line=line, kind=UnitKind.SENTENCE), cite

    c1, k1 = claim(1, "Mortality fell by 75% <script>alert(1)</script>.", "smith", 3)
    c2, k2 = claim(2, "A claim citing a key nobody defined.", "ghost", 5)
    c3, k3 = claim(3, "A claim whose source is missing.", "nofile", 8)
    c4, k4 = claim(4, "Mortality fell in the treated group.", "smith", 10)
    ev = Evidence(passage=passage, source=src, scores={"lexical": 0.6}, matched_terms=("mortal", "fell", "treat", "group"))
    return Report(
        document=doc,
        findings=[
            Finding(c2, k2, Verdict.UNVERIFIABLE, tier=Tier.NONE, reasons=["citekey 'ghost' is not in the bibliography"], flags=["unknown_citekey"]),
            Finding(
                c1, k1, Verdict.CONTRADICTED, score=0.4, confidence=0.8, tier=Tier.LEXICAL, evidence=ev,
                reasons=["the numbers differ"], tags=[Tag("number_drift", "75% in the claim, 68.9% in the source", 0.9, (TagEvidence("75%", "68.9%"),))],
                reference=ref, source=src,
            ),
            Finding(c3, k3, Verdict.UNVERIFIABLE, tier=Tier.NONE, reasons=["no local source"], flags=["no_source"], reference=Reference(citekey="nofile"), source=Source(citekey="nofile", error="no local source")),
            Finding(c4, k4, Verdict.SUPPORTED, score=0.6, confidence=0.7, tier=Tier.LEXICAL, evidence=ev, reasons=["60% of the words"], reference=ref, source=src),
        ],
        metadata={"citeproof_version": "0.1.0", "tiers": ["lexical"], "created": "2026-01-01T00:00:00Z"},
    )


def demo_zip_bytes() -> bytes:
    """The demo sample as the web page takes it: citing/meta-review.md, meta-review.bib, cited/."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(DEMO_DOC, "citing/meta-review.md")
        zf.write(DEMO_BIB, "meta-review.bib")
        for p in sorted((DEMO / "cited").iterdir()):
            zf.write(p, f"cited/{p.name}")
    return buf.getvalue()


_CACHE: list[Path] = []


def shared_cache() -> Path:
    """One parse cache for the whole test session (content-keyed, so sharing is safe): the demo's PDFs are parsed once."""
    if not _CACHE:
        import atexit
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="citeproof-test-cache-"))
        atexit.register(shutil.rmtree, folder, True)
        _CACHE.append(folder)
    return _CACHE[0]
