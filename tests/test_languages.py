"""Languages of claims and sources: a cross-language citation is said, never scored as 0% (issue 19, part 4).

The sources are written here: a Chinese report (its text as a Chinese agency would write it), a German
article, an English one; claims in English and in Chinese.
"""

from __future__ import annotations

from citeproof.model import Verdict
from citeproof.pipeline import CheckOptions, check
from citeproof.text.language import cross_language, language_of, script_of

ZH_SOURCE = ("研究人员在二零一八年至二零二零年间对二十四处沿海盐沼进行了取样。\n\n"
             "盐沼每年每平方米埋藏二百一十八克碳，高于大多数森林。\n\n"
             "这些碳在积水的土壤中可以保存数百年。")
DE_SOURCE = ("Die Salzwiesen an der Küste speichern jedes Jahr 218 Gramm Kohlenstoff pro Quadratmeter. "
             "Der Kohlenstoff wird in den nassen Böden über Jahrhunderte gespeichert, und die Wiesen sind damit "
             "wirksamer als die meisten Wälder.")
EN_CLAIM = "It is known that the salt marshes of the coast bury more carbon in their soils than most of the forests [@m]."


def _run(tmp_path, source_text: str, suffix: str, claim: str):
    (tmp_path / f"m{suffix}").write_text(source_text, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(f"@article{{m, title={{Salt marsh carbon}}, author={{Wang, Li}}, year={{2020}}, file={{m{suffix}}}}}\n")
    (tmp_path / "d.md").write_text(claim + "\n", encoding="utf-8")
    return check(tmp_path / "d.md", [tmp_path / "refs.bib"], CheckOptions(use_cache=False, tiers=["lexical"])).findings[0]


def test_scripts_and_languages():
    assert ("Han", "zh") == (script_of(ZH_SOURCE), language_of(ZH_SOURCE))
    assert "Japanese" == script_of("塩性湿地は毎年炭素を蓄積している。これは森林よりも多い。")
    assert ("Latin", "de") == (script_of(DE_SOURCE), language_of(DE_SOURCE))
    assert "en" == language_of(EN_CLAIM)
    assert "" == language_of("Marshes bury carbon [@m].")  # too short to say
    assert "" == language_of("Tidal marshes bury 218 grams of carbon per square metre each year.")  # one function word: not said
    assert ("en", "zh") == cross_language(EN_CLAIM, ZH_SOURCE)
    assert cross_language("盐沼每年每平方米埋藏二百一十八克碳。", ZH_SOURCE) is None


def test_english_claim_against_a_chinese_source_is_cross_language_not_unsupported(tmp_path):
    f = _run(tmp_path, ZH_SOURCE, ".txt", EN_CLAIM)
    assert Verdict.UNVERIFIABLE == f.verdict and "cross_language" in f.flags
    assert f.reasons[0] == "not judged: the claim is in English and the source in Chinese; read the source, or run the LLM tier (--tier llm)"
    assert any(r.startswith("cross-language: the claim is in English, the source in Chinese; the lexical, dense, entailment tiers") for r in f.reasons)


def test_english_claim_against_a_german_source(tmp_path):
    f = _run(tmp_path, DE_SOURCE, ".txt", EN_CLAIM)
    assert Verdict.UNVERIFIABLE == f.verdict and "cross_language" in f.flags and "source in German" in f.reasons[0]


def test_chinese_claim_against_its_chinese_source_is_judged(tmp_path):
    f = _run(tmp_path, ZH_SOURCE, ".txt", "盐沼每年每平方米埋藏二百一十八克碳，高于大多数森林 [@m]。")
    assert "cross_language" not in f.flags and Verdict.SUPPORTED == f.verdict, f.reasons
    assert "盐沼每年每平方米埋藏二百一十八克碳" in f.evidence.passage.text


def test_same_language_is_not_flagged(tmp_path):
    f = _run(tmp_path, DE_SOURCE.replace("Die Salzwiesen", "Salt marshes on the coast bury 218 grams of carbon in their soils each year, more than most of the forests. Die Salzwiesen"),
             ".txt", "Die Salzwiesen an der Küste speichern jedes Jahr 218 Gramm Kohlenstoff pro Quadratmeter in den Böden [@m].")
    assert "cross_language" not in f.flags


def test_an_acronym_is_no_function_word():
    """Trial 24's bug: "1-MET" (a metabolic equivalent) and "in" named an English claim Dutch, and its
    number_drift finding became *unverifiable* ("the claim is in Dutch").  Capitals are acronyms; three hits needed."""
    claim = "Each 1-MET increase in exercise capacity conferred a 20% survival benefit."
    assert language_of(claim) == ""
    assert cross_language(claim, "Each 1-MET increase in exercise capacity conferred a 10% survival benefit. " * 3) is None
    assert language_of("Het vaccin is niet effectief bij ouderen.") == "nl"
    assert language_of("Patients who die in hospital are older than those at home.") == ""
