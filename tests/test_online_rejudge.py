"""Issue 12 part 7: after a full text is added for a work the online run found no full text for, a re-run
re-judges only that work's citations (the judgement cache keys on the source's content)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from online_world import make_pdf, web, write_inputs  # noqa: E402,F401 (web: the shared fixture)

from citeproof.pipeline import CheckOptions, check  # noqa: E402


@pytest.fixture(autouse=True)
def _point_at_loopback(web, monkeypatch):
    for k, v in web.env.items():
        monkeypatch.setenv(k, v)


def test_an_added_full_text_rejudges_only_its_citations(web, tmp_path):
    draft, bib = write_inputs(tmp_path)
    opts = {"cache_dir": tmp_path / "cache", "tiers": ["lexical"], "online": True, "email": "me@uni.edu"}
    first = check(draft, [bib], CheckOptions(**opts))
    readable = {f.citation.citekey for f in first.findings if f.source is not None and f.source.usable}
    wakefield = next(f for f in first.findings if f.citation.citekey == "wakefield")
    assert "wakefield" in readable and wakefield.source.origin.startswith("online: abstract only")
    assert {"enabled": True, "reused": 0, "judged": len(readable)} == first.metadata["judgement_cache"]

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "wakefield.pdf").write_bytes(make_pdf([
        "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children",
        "We investigated a consecutive series of twelve children with chronic enterocolitis and regressive developmental disorder.",
        "We did not prove an association between measles, mumps, and rubella vaccine and the syndrome described.",
    ]))
    before = len(web.all_requests())
    second = check(draft, [bib], CheckOptions(source_dirs=[pdfs], **opts))
    assert len(web.all_requests()) == before  # the rest came from the online cache
    now = next(f for f in second.findings if f.citation.citekey == "wakefield")
    assert now.source.path == str(pdfs / "wakefield.pdf") and now.source.origin.startswith("--sources")
    assert {"enabled": True, "reused": len(readable) - 1, "judged": 1} == second.metadata["judgement_cache"]
    unchanged = {f.citation.citekey: (f.verdict, f.reasons) for f in first.findings if f.citation.citekey in readable - {"wakefield"}}
    assert unchanged == {f.citation.citekey: (f.verdict, f.reasons) for f in second.findings if f.citation.citekey in readable - {"wakefield"}}
