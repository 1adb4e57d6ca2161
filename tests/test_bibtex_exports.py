"""BibTeX and biblatex as reference managers export them (issue 26, part 3).

The entries are shaped as the managers write them: a Better BibTeX export of an item with a ZotFile-renamed copy
(two ``file`` fields), a JabRef/biblatex file using ``crossref`` and ``xdata``, a BibDesk file with ``bdsk-file-N``
(base64 of a binary property list with ``relativePath``, both the plain-dictionary and the older
NSKeyedArchiver form) and ``Local-Zo-Url-N``, and a hand-kept file holding a ``%``-commented copy of an entry.
"""

from __future__ import annotations

import base64
import plistlib
import textwrap
from pathlib import Path

import pytest

from citeproof.bibliography import read_bibtex_keyed
from citeproof.sources.online.record import family_name


def _bib(tmp_path: Path, text: str, name: str = "refs.bib") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return p


def _refs(path: Path):
    refs, diags, broken = read_bibtex_keyed(path)
    return {r.citekey: r for r in refs}, diags, broken


CROSSREF = r"""
@inproceedings{lee2019falls,
  author    = {Lee, Chang and Okafor, Ngozi},
  title     = {Falls in Care Homes: a Cohort Study},
  pages     = {12--19},
  crossref  = {chi2019},
}

@incollection{okafor2021,
  author   = {Okafor, Ngozi},
  title    = {Balance Training},
  xdata    = {acm},
  crossref = {handbook},
}

@proceedings{chi2019,
  title     = {Proceedings of the 2019 {CHI} Conference on Human Factors in Computing Systems},
  editor    = {Brewster, Stephen and Fitzpatrick, Geraldine},
  year      = {2019},
  publisher = {ACM},
  doi       = {10.1145/3290605},
}

@collection{handbook,
  editor = {Smith, Anna and Jones, Bea},
  title  = {Handbook of Geriatric Care},
  date   = {2021-05},
}

@xdata{acm,
  publisher = {Association for Computing Machinery},
  location  = {New York},
}
"""


def test_crossref_and_xdata_children_inherit_year_container_and_editors(tmp_path):
    refs, diags, _ = _refs(_bib(tmp_path, CROSSREF))
    child = refs["lee2019falls"]
    assert child.year == "2019"
    assert child.container == "Proceedings of the 2019 CHI Conference on Human Factors in Computing Systems"
    assert child.title == "Falls in Care Homes: a Cohort Study"  # its own title, never the parent's
    assert child.authors == ("Lee, Chang", "Okafor, Ngozi")
    assert child.doi == ""  # the proceedings' DOI is not the paper's
    coll = refs["okafor2021"]
    assert (coll.year, coll.container) == ("2021", "Handbook of Geriatric Care")
    assert "acm" not in refs  # an @xdata entry is data, not a citable work
    assert not [d for d in diags if d.severity == "error"]


def test_editor_only_entries_keep_their_editors_as_names(tmp_path):
    refs, _, _ = _refs(_bib(tmp_path, CROSSREF))
    assert refs["chi2019"].authors == ("Brewster, Stephen", "Fitzpatrick, Geraldine")
    assert refs["handbook"].authors == ("Smith, Anna", "Jones, Bea")


def test_a_missing_crossref_parent_is_said_with_its_line(tmp_path):
    path = _bib(tmp_path, """
        @inproceedings{k, author = {Lee, C.}, title = {Falls}, crossref = {nowhere}}
    """)
    refs, diags, _ = _refs(path)
    assert "k" in refs
    msg = [d for d in diags if d.code == "bib-crossref-missing"]
    assert len(msg) == 1 and f"{path}:1:" in msg[0].message and "'nowhere'" in msg[0].message


def test_a_crossref_parent_in_another_bibliography_is_inherited(tmp_path):
    """biber reads a document's data sources as one: a child in papers.bib, its proceedings in venues.bib."""
    from citeproof.bibliography import load_bibliographies

    (tmp_path / "papers.bib").write_text("@inproceedings{lee2019,\n  author = {Lee, C.},\n  title = {Falls in older adults},\n"
                                         "  crossref = {chi2019}\n}\n", encoding="utf-8")
    (tmp_path / "venues.bib").write_text("@proceedings{chi2019,\n  title = {Proceedings of CHI 2019},\n  year = {2019},\n"
                                         "  editor = {Brewster, Stephen}\n}\n", encoding="utf-8")
    bib = load_bibliographies([tmp_path / "papers.bib", tmp_path / "venues.bib"])
    ref = bib.entries["lee2019"]
    assert (ref.year, ref.container, ref.authors, ref.origin) == ("2019", "Proceedings of CHI 2019", ("Lee, C.",), f"{tmp_path / 'papers.bib'}:1")
    assert not [d for d in bib.diagnostics if d.code == "bib-crossref-missing"]
    # alone, papers.bib says the parent is in none of the bibliographies given
    alone = load_bibliographies([tmp_path / "papers.bib"])
    (d,) = [d for d in alone.diagnostics if d.code == "bib-crossref-missing"]
    assert "'chi2019'" in d.message and "none of the bibliographies given" in d.message and alone.entries["lee2019"].year == ""


def test_name_particles_follow_useprefix(tmp_path):
    refs, _, _ = _refs(_bib(tmp_path, r"""
        @article{vn1945, author = {von Neumann, John and Ludwig van Beethoven and Smith, Jr., John}, title = {First Draft}, year = {1945}}
        @article{vn1945b, author = {von Neumann, John and de la Fontaine, Jean}, title = {First Draft}, year = {1945}, options = {useprefix=true}}
    """))
    assert refs["vn1945"].authors == ("Neumann, John von", "Beethoven, Ludwig van", "Smith, Jr., John")
    assert family_name(refs["vn1945"].authors[0]) == "neumann"
    assert refs["vn1945b"].authors == ("von Neumann, John", "de la Fontaine, Jean")
    assert family_name(refs["vn1945b"].authors[0]) == "von neumann"


def test_repeated_file_and_keywords_fields_keep_the_entry_and_warn_once(tmp_path):
    path = _bib(tmp_path, r"""
        @article{smithVitaminDHip2020,
          title = {Vitamin {D} and Hip Fractures in Older Women},
          author = {Smith, Anna and Jones, Bea},
          date = {2020-03},
          journaltitle = {BMJ},
          doi = {10.1136/bmj.m1234},
          file = {Full Text PDF:files/12/Smith - 2020 - Vitamin D.pdf:application/pdf},
          file = {/home/anna/zotfile/Smith_2020_Vitamin D.pdf},
          keywords = {falls},
          keywords = {vitamin D},
        }
    """)
    refs, diags, _ = _refs(path)
    ref = refs["smithVitaminDHip2020"]
    assert ref.files == ("files/12/Smith - 2020 - Vitamin D.pdf", "/home/anna/zotfile/Smith_2020_Vitamin D.pdf")
    assert (ref.title, ref.year, ref.doi) == ("Vitamin D and Hip Fractures in Older Women", "2020", "10.1136/bmj.m1234")
    dup = [d for d in diags if d.code == "bib-duplicate-field"]
    assert len(dup) == 1 and dup[0].line == 1 and f"{path}:1:" in dup[0].message
    assert "'file', 'keywords'" in dup[0].message or "'keywords', 'file'" in dup[0].message
    assert "failed_block" not in dup[0].message and "`" not in dup[0].message


@pytest.mark.parametrize(("title", "want"), [
    (r"The {\TeX book}", "The TeXbook"),
    (r"The {\LaTeX} Companion", "The LaTeX Companion"),
    (r"{\LaTeX}: A Document Preparation System", "LaTeX: A Document Preparation System"),
    (r"Tame the {\BibTeX} beast", "Tame the BibTeX beast"),
])
def test_tex_logos_are_kept_in_titles(tmp_path, title, want):
    refs, _, _ = _refs(_bib(tmp_path, f"@book{{k, title = {{{title}}}, author = {{Knuth, Donald E.}}, year = {{1984}}}}\n"))
    assert refs["k"].title == want


def test_a_commented_copy_does_not_shadow_the_real_entry(tmp_path):
    path = _bib(tmp_path, """
        % old version, kept for reference:
        % @article{smith2020,
        %   title = {Vitamin D: a draft title},
        %   year = {1999}
        % }
        @article{smith2020,
          title = {Vitamin D and Hip Fractures},
          author = {Smith, Anna},
          year = {2020},
        }
    """)
    refs, diags, _ = _refs(path)
    assert (refs["smith2020"].title, refs["smith2020"].year) == ("Vitamin D and Hip Fractures", "2020")
    assert refs["smith2020"].origin == f"{path}:6"
    assert not [d for d in diags if d.code == "bib-duplicate-key"]


def test_bibdesk_and_local_zo_url_attachments_are_read(tmp_path):
    plain = base64.b64encode(plistlib.dumps({"relativePath": "pdfs/Smith 2020.pdf", "aliasData": b"\x00\x00book"}, fmt=plistlib.FMT_BINARY)).decode()
    keyed = plistlib.dumps({"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": plistlib.UID(1)},
                            "$objects": ["$null", {"$class": plistlib.UID(3), "relativePath": plistlib.UID(2), "aliasData": plistlib.UID(4)},
                                         "supplement/Smith 2020 S1.pdf", {"$classname": "NSDictionary"}, b"\x00alias"]}, fmt=plistlib.FMT_BINARY)
    keyed64 = "\n".join(textwrap.wrap(base64.b64encode(keyed).decode(), 64))
    path = _bib(tmp_path, "@article{smith2020,\n  author = {Smith, Anna},\n  title = {Vitamin D},\n  year = {2020},\n"
                f"  bdsk-file-1 = {{{plain}}},\n  bdsk-file-2 = {{{keyed64}}},\n"
                "  Local-Zo-Url-0 = {file:///home/anna/Papers/Smith%202020%20notes.pdf},\n"
                "  Local-Zo-Url-1 = {https://example.org/landing}\n}\n")
    refs, _, _ = _refs(path)
    assert refs["smith2020"].files == ("pdfs/Smith 2020.pdf", "supplement/Smith 2020 S1.pdf", "/home/anna/Papers/Smith 2020 notes.pdf")


def test_error_messages_name_the_line_and_what_to_do(tmp_path):
    path = _bib(tmp_path, """
        @article{good, title = {Fine}, author = {A, B}, year = {2020}}

        @article{bad, title = {Unclosed, author = {A, B}, year = {2020}
    """)
    refs, diags, broken = _refs(path)
    assert "good" in refs
    err = [d for d in diags if d.code == "bib-parse"]
    assert len(err) == 1 and err[0].message.startswith(f"{path}:3: entry 'bad'") and "fix the entry" in err[0].message
    assert "failed_block" not in err[0].message and "Block" not in err[0].message
    assert "bad" in broken


def test_an_entry_that_crossrefs_itself_inherits_nothing(tmp_path):
    refs, diags, _ = _refs(_bib(tmp_path, "@article{a, crossref = {a}, title = {Self}, author = {Lee, C.}, year = {2020}}\n"))
    assert (refs["a"].title, refs["a"].container) == ("Self", "")
    assert not [d for d in diags if d.code == "bib-crossref-missing"]
