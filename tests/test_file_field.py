"""The BibTeX file field as Zotero, Better BibTeX, Mendeley, JabRef and Paperpile write it (own fixtures)."""

from __future__ import annotations

import pytest

from citeproof.bibliography.file_field import parse_file_field


@pytest.mark.parametrize(
    "value,path,mendeley",
    [
        ("Full Text PDF:files/743/Yu et al. - 2015.pdf:application/pdf", "files/743/Yu et al. - 2015.pdf", False),
        (r"C:\Users\x\Zotero\storage\384HWI5I\Chen et al. - 2025.pdf", r"C:\Users\x\Zotero\storage\384HWI5I\Chen et al. - 2025.pdf", False),
        (r":home/x/Mendeley Desktop/Downloaded/a{\_}b.pdf:pdf", "home/x/Mendeley Desktop/Downloaded/a_b.pdf", True),
        (r":C$\backslash$:/Users/x/a.pdf:pdf", "C:/Users/x/a.pdf", False),
        (r":C\:/Users/x/a.pdf:pdf", "C:/Users/x/a.pdf", False),
        (":home/x/pdf/07452560.pdf:PDF", "home/x/pdf/07452560.pdf", True),
        ("All Papers/S/Szott et al. 2022 - Wi-Fi Meets ML.pdf", "All Papers/S/Szott et al. 2022 - Wi-Fi Meets ML.pdf", False),
        ("Full Text PDF:/Users/x/Zotero/storage/ABCD1234/a.pdf:application/pdf", "/Users/x/Zotero/storage/ABCD1234/a.pdf", False),
        (r"Full Text PDF:C:\Users\x\a.pdf:application/pdf", r"C:\Users\x\a.pdf", False),
        (r"PDF:files/a\;b.pdf:application/pdf:https\://example.org/a", "files/a;b.pdf", False),
    ],
)
def test_forms(value, path, mendeley):
    att = parse_file_field(value)[0]
    assert (path, mendeley) == (att.path, att.mendeley_relative)


def test_several_attachments_and_url():
    atts = parse_file_field("Full Text PDF:files/1/a.pdf:application/pdf;Snapshot:files/2/b.html:text/html")
    assert [("files/1/a.pdf", "Full Text PDF"), ("files/2/b.html", "Snapshot")] == [(a.path, a.description) for a in atts]
    url = parse_file_field(r":https\://host/a.pdf:PDF")[0]
    assert ("https://host/a.pdf", True) == (url.path, url.is_url)
