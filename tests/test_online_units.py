"""Pieces of the online sources: identifiers, record parsing, JATS, matching and its calibration."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from online_world import JATS  # noqa: E402

from citeproof.model import Reference  # noqa: E402
from citeproof.sources.online import crossref, openalex  # noqa: E402
from citeproof.sources.online.arxiv import normalise_arxiv  # noqa: E402
from citeproof.sources.online.calibration import calibrate  # noqa: E402
from citeproof.sources.online.http import PoliteHTTP  # noqa: E402
from citeproof.sources.jats import parse_jats  # noqa: E402
from citeproof.sources.online.record import MATCH_MIN, WorkRecord, match_score, mismatches  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "raw, want",
    [
        ("1706.03762", "1706.03762"),
        ("arXiv:1706.03762v5", "1706.03762v5"),
        ("https://arxiv.org/abs/2101.00001v2", "2101.00001v2"),
        ("https://arxiv.org/pdf/2101.00001.pdf", "2101.00001"),
        ("hep-th/9711200", "hep-th/9711200"),
        ("arXiv:math.GT/0309136v1", "math.GT/0309136v1"),
        ("0704.0001", "0704.0001"),
        ("not an id", ""),
    ],
)
def test_arxiv_ids_old_and_new_style_with_versions(raw, want):
    assert normalise_arxiv(raw) == want


def test_openalex_abstract_from_inverted_index():
    assert openalex.abstract_from_index({"Despite": [0], "growing": [1], "interest": [2], "in": [3, 7], "Open": [4], "Access": [5], "and": [6]}) == \
        "Despite growing interest in Open Access and in"
    assert openalex.abstract_from_index(None) == ""


def test_crossref_record_reads_updates_and_jats_abstract():
    rec = crossref.to_record({
        "DOI": "10.1/X", "title": ["A title"], "author": [{"given": "Ann", "family": "Lee"}, {"name": "The Consortium"}],
        "issued": {"date-parts": [[2020, 3]]}, "container-title": ["J"], "abstract": "<jats:title>Abstract</jats:title><jats:p>We did <jats:italic>this</jats:italic>.</jats:p>",
        "updated-by": [{"type": "expression-of-concern", "DOI": "10.1/EOC", "source": "publisher", "updated": {"date-parts": [[2021, 5, 4]]}}],
    })
    assert (rec.doi, rec.authors, rec.year, rec.abstract) == ("10.1/x", ["Lee, Ann", "The Consortium"], "2020", "We did this .")
    assert [(u.kind, u.doi, u.date) for u in rec.updates] == [("expression_of_concern", "10.1/eoc", "2021-05-04")]
    assert rec.retracted is False


def test_jats_passages_carry_section_labels_and_skip_references():
    passages, text, title, err = parse_jats(JATS)
    assert err is None and title == "Masks and hand hygiene in household transmission of influenza"
    assert [(p.section, p.text[:20]) for p in passages] == [
        ("abstract", "We studied household"), ("introduction", "Influenza spreads re"), ("methods", "We randomised 259 ho"),
        ("methods", "Secondary attack rat"), ("results", "Face masks and hand "), ("caption", "Figure 1. Secondary "),
    ]
    assert "Smith J." not in text
    p = passages[4]
    assert text[p.char_start:p.char_end] == p.text


def test_jats_errors_are_reasons():
    assert parse_jats(b"<article><body>")[3].startswith("malformed JATS XML")
    assert parse_jats(b"<html><body><p>x</p></body></html>")[3] == "the XML holds no JATS <article>"


def ref(title, authors=("Himmelstein, Daniel S.",), year="2018", **kw):
    return Reference(citekey="k", title=title, authors=tuple(authors), year=year, **kw)


def test_match_score_separates_the_same_work_from_a_neighbour():
    r = ref("Sci-Hub provides access to nearly all scholarly literature")
    same = WorkRecord("openalex", title="Sci-Hub provides access to nearly all scholarly literature", authors=["Daniel S Himmelstein", "Ariel Romero"], year="2018")
    other = WorkRecord("openalex", title="Sci-Hub: the pirate site in numbers", authors=["John Bohannon"], year="2016")
    part2 = WorkRecord("openalex", title="China's Quest for Eco-industrial Parks, Part II", authors=["Yong Geng"], year="2012")
    notice = WorkRecord("crossref", title="Correction: Sci-Hub provides access to nearly all scholarly literature", authors=["Daniel S Himmelstein"], year="2018")
    assert match_score(r, same) == 100.0
    assert match_score(r, other) < 60
    assert match_score(ref("China's Quest for Eco-industrial Parks, Part I", ["Geng, Yong"], "2012"), part2) < MATCH_MIN - 5
    assert match_score(r, notice) < 75


def test_mismatch_names_each_field():
    r = ref("Sci-Hub provides access to nearly all scholarly literature", ["Smith, Jo"], "2016", container="Nature", doi="10.9/wrong")
    rec = WorkRecord("crossref", title="Sci-Hub provides access to nearly all scholarly literature", authors=["Himmelstein, Daniel S"], year="2018", venue="eLife", doi="10.7554/elife.32822")
    got = mismatches(r, rec)
    assert [m.split(":")[0] for m in got] == ["authors", "year", "venue", "DOI"]
    assert mismatches(ref("Open collaborative writing with Manubot", year="2019"),
                      WorkRecord("crossref", title="Open collaborative writing with Manubot", authors=["Daniel S. Himmelstein"], year="2019")) == []


def test_calibration_on_the_demo_bibliography():
    """The line holds on the demo's 101 real entries (the full calibration adds ../shared/data; see bench/online_calibration.py)."""
    from citeproof.bibliography import load_bibliographies

    lib = list(load_bibliographies([ROOT / "examples" / "manubot" / "meta-review.bib"]).entries.values())
    res = calibrate([lib])
    assert res["entries"] == 89 and res["positives"] == 712
    assert res["false_accepts"] == 0
    assert res["false_refusals"] <= 0.02 * res["positives"]
    assert res["max_negative"] < MATCH_MIN <= res["by_label"]["as is"][1]


def test_offline_http_layer_never_opens_a_socket(tmp_path, monkeypatch):
    from citeproof.sources.online.http import OnlineSettings

    def refuse(*a, **k):
        raise AssertionError("a socket was opened in offline mode")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    f = PoliteHTTP(OnlineSettings(offline=True), tmp_path).get("https://api.crossref.org/works/10.1/x", {"mailto": "a@b.c"})
    assert not f.ok and f.error.endswith("not in the cache, and --offline forbids the request")
