"""Zotero's own database read directly (issue 14, part 2).

The fixture is a Zotero data folder made here the way Zotero 7 lays it out: ``zotero.sqlite`` with the tables of
Zotero's ``userdata`` schema (version 107 and later, as ``resource/schema/userdata.sql`` of zotero/zotero creates
them; item types and field ids as ``system.sql`` numbers them), ``storage/<attachment key>/`` holding a stored PDF and
an HTML snapshot, and Better BibTeX's ``better-bibtex.sqlite`` beside it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from citeproof.bibliography import load_bibliographies
from citeproof.bibliography.zotero import read_zotero
from citeproof.cli import app
from citeproof.errors import BibliographyError

runner = CliRunner()

SCHEMA = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL, filesEditable INT NOT NULL,
    version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, charsetID INT, path TEXT,
    syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT, lastProcessedModificationTime INT);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL, parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID));
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""
# ids as Zotero's system.sql numbers them
ITEM_TYPES = {1: "note", 2: "book", 4: "journalArticle", 14: "attachment", 33: "conferencePaper"}
FIELDS = {1: "url", 8: "publisher", 10: "pages", 12: "publicationTitle", 14: "date", 22: "extra", 26: "DOI", 110: "title", 114: "proceedingsTitle"}
CREATOR_TYPES = {1: "author", 2: "contributor", 3: "editor"}
TITLE = "Sleep deprivation impairs spatial memory in adult zebrafish"


class _Library:
    """Writes items into a zotero.sqlite the way Zotero stores them."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self.next_id = 1

    def item(self, type_name: str, key: str, fields: dict[str, str], creators: list[tuple[str, str, int, str]] = (), parent: int | None = None) -> int:
        type_id = next(k for k, v in ITEM_TYPES.items() if v == type_name)
        item_id = self.next_id
        self.next_id += 1
        self.con.execute("INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)", (item_id, type_id, key))
        for name, value in fields.items():
            field_id = next(k for k, v in FIELDS.items() if v == name)
            row = self.con.execute("SELECT valueID FROM itemDataValues WHERE value = ?", (value,)).fetchone()
            value_id = row[0] if row else self.con.execute("INSERT INTO itemDataValues (value) VALUES (?)", (value,)).lastrowid
            self.con.execute("INSERT INTO itemData VALUES (?, ?, ?)", (item_id, field_id, value_id))
        for n, (first, last, mode, kind) in enumerate(creators):
            row = self.con.execute("SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND fieldMode = ?", (first, last, mode)).fetchone()
            cid = row[0] if row else self.con.execute("INSERT INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)", (first, last, mode)).lastrowid
            kind_id = next(k for k, v in CREATOR_TYPES.items() if v == kind)
            self.con.execute("INSERT INTO itemCreators VALUES (?, ?, ?, ?)", (item_id, cid, kind_id, n))
        return item_id

    def attachment(self, parent: int, key: str, title: str, link_mode: int, content_type: str, path: str) -> int:
        item_id = self.item("attachment", key, {"title": title})
        self.con.execute("INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES (?, ?, ?, ?, ?)",
                         (item_id, parent, link_mode, content_type, path))
        return item_id


def _pdf(path: Path, title: str, body: str) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(72, 72, 523, 132), title, fontsize=18, fontname="helv")
    page.insert_textbox(pymupdf.Rect(72, 140, 523, 160), "Ana Martínez, Tomás Dvořák", fontsize=11, fontname="helv")
    page.insert_textbox(pymupdf.Rect(72, 180, 523, 300), body, fontsize=10, fontname="helv")
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)


@pytest.fixture
def zotero_dir(tmp_path) -> Path:
    """~/Zotero: three references (one with a PDF and a snapshot), a note, an item in the trash, two collections."""
    folder = tmp_path / "Zotero"
    folder.mkdir()
    con = sqlite3.connect(folder / "zotero.sqlite")
    con.executescript(SCHEMA)
    con.execute("INSERT INTO version VALUES ('userdata', 120)")
    con.execute("INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (1, 'user', 1, 1)")
    con.executemany("INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)", ITEM_TYPES.items())
    con.executemany("INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)", FIELDS.items())
    con.executemany("INSERT INTO creatorTypes VALUES (?, ?)", CREATOR_TYPES.items())
    lib = _Library(con)
    zebra = lib.item("journalArticle", "ZB7KQ2PA", {"title": TITLE, "publicationTitle": "Journal of Fish Biology", "date": "2019-03-00 March 2019",
                                                   "DOI": "10.1111/JFB.13912", "pages": "612-620", "url": "https://doi.org/10.1111/jfb.13912"},
                     [("Ana", "Martínez", 0, "author"), ("Tomás", "Dvořák", 0, "author")])
    lib.attachment(zebra, "SNAP0001", "ScienceDirect Snapshot", 1, "text/html", "storage:landing.html")
    lib.attachment(zebra, "PDF00001", "Full Text PDF", 0, "application/pdf", "storage:Martinez - 2019 - Sleep deprivation.pdf")
    lib.attachment(zebra, "LINK0001", "Publisher page", 3, "", "https://onlinelibrary.wiley.com/doi/10.1111/jfb.13912")
    _pdf(folder / "storage" / "PDF00001" / "Martinez - 2019 - Sleep deprivation.pdf", TITLE,
         "Sleep-deprived fish made 42% more errors than rested controls in a plus-maze spatial task, while swimming speed was unchanged.")
    (folder / "storage" / "SNAP0001").mkdir(parents=True)
    (folder / "storage" / "SNAP0001" / "landing.html").write_text("<html><body><h1>Recommended articles</h1></body></html>")
    who = lib.item("book", "WHO00001", {"title": "Global report on falls prevention in older age", "publisher": "World Health Organization",
                                        "date": "2007", "extra": "Citation Key: who2007falls\nPMID: 12345678"},
                   [("", "World Health Organization", 1, "author"), ("Carol", "Editor", 0, "editor")])
    lib.attachment(who, "LINKFILE", "Linked report", 2, "application/pdf", str(tmp_path / "elsewhere" / "who.pdf"))
    lib.attachment(who, "BASEFILE", "Base-dir file", 2, "application/pdf", "attachments:reports/who.pdf")
    conf = lib.item("conferencePaper", "CONF0001", {"title": "Balance training in care homes", "proceedingsTitle": "Proc. Falls 2021", "date": "2021-06-14"},
                    [("Dana", "Lee", 0, "author")])
    lib.item("note", "NOTE0001", {})
    trashed = lib.item("journalArticle", "TRASH001", {"title": "A retracted paper I deleted", "date": "2015"}, [("Eve", "Gone", 0, "author")])
    con.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (trashed,))
    con.execute("INSERT INTO collections (collectionID, collectionName, libraryID, key) VALUES (1, 'Thesis', 1, 'COLL0001')")
    con.execute("INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID, key) VALUES (2, 'Chapter 2', 1, 1, 'COLL0002')")
    con.execute("INSERT INTO collections (collectionID, collectionName, libraryID, key) VALUES (3, 'Teaching', 1, 'COLL0003')")
    con.executemany("INSERT INTO collectionItems (collectionID, itemID) VALUES (?, ?)", [(1, who), (2, zebra), (3, conf)])
    con.commit()
    con.close()
    bbt = sqlite3.connect(folder / "better-bibtex.sqlite")
    bbt.execute("CREATE TABLE citationkey (itemID NOT NULL, itemKey NOT NULL, libraryID NOT NULL, citationKey NOT NULL, pinned, lastPinned)")
    bbt.execute("INSERT INTO citationkey VALUES (?, 'ZB7KQ2PA', 1, 'martinez2019sleep', 0, NULL)", (zebra,))
    bbt.commit()
    bbt.close()
    return folder


def test_items_become_references_with_their_stored_files(zotero_dir):
    refs, diags, db = read_zotero(zotero_dir)
    by_key = {r.citekey: r for r in refs}
    assert ["martinez2019sleep", "who2007falls", "lee2021"] == [r.citekey for r in refs]  # BBT key, Extra's key, a made one; no note, no trash
    z = by_key["martinez2019sleep"]
    assert (TITLE, ("Martínez, Ana", "Dvořák, Tomás"), "2019", "Journal of Fish Biology", "10.1111/jfb.13912", "612-620", "article-journal") == (
        z.title, z.authors, z.year, z.container, z.doi, z.pages, z.entry_type)
    assert [(str(zotero_dir / "storage" / "SNAP0001" / "landing.html"), "ScienceDirect Snapshot", "text/html"),
            (str(zotero_dir / "storage" / "PDF00001" / "Martinez - 2019 - Sleep deprivation.pdf"), "Full Text PDF", "application/pdf")] == [
        (a.path, a.description, a.mime) for a in z.attachments]  # the web link (linkMode 3) is not a file
    w = by_key["who2007falls"]
    assert (("World Health Organization",), "12345678", "World Health Organization", "book") == (w.authors, w.pmid, w.container, w.entry_type)
    assert [str(zotero_dir.parent / "elsewhere" / "who.pdf")] == list(w.files)
    assert ("Proc. Falls 2021", "2021") == (by_key["lee2021"].container, by_key["lee2021"].year)
    assert db == zotero_dir / "zotero.sqlite" and by_key["lee2021"].origin == f"{db}:item CONF0001"
    assert ["zotero-base-dir"] == [d.code for d in diags] and "1 linked file" in diags[0].message


def test_collection_takes_its_sub_collections_and_unknown_names_are_listed(zotero_dir):
    refs, _, _ = read_zotero(zotero_dir, "thesis")
    assert {"martinez2019sleep", "who2007falls"} == {r.citekey for r in refs}
    with pytest.raises(BibliographyError, match=r"zotero\.sqlite: no Zotero collection named 'Thesys'; the collections are: Chapter 2, Teaching, Thesis"):
        read_zotero(zotero_dir, "Thesys")
    doc = zotero_dir.parent / "draft.md"
    doc.write_text("Fish need sleep [@martinez2019sleep].\n")
    r = runner.invoke(app, ["audit", str(doc), "--zotero", str(zotero_dir), "--collection", "Thesys", "--no-cache"])
    assert 2 == r.exit_code and "no Zotero collection named 'Thesys'" in r.output


def test_read_while_zotero_holds_its_lock_and_never_written(zotero_dir):
    db = zotero_dir / "zotero.sqlite"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    zotero = sqlite3.connect(db)  # Zotero running: an exclusive lock taken by a write transaction it keeps open
    zotero.execute("PRAGMA locking_mode=EXCLUSIVE")
    zotero.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            sqlite3.connect(db, timeout=0).execute("SELECT count(*) FROM items").fetchone()  # what opening the live file meets
        refs, _, _ = read_zotero(zotero_dir)
    finally:
        zotero.rollback()
        zotero.close()
    assert 3 == len(refs)
    assert before == hashlib.sha256(db.read_bytes()).hexdigest()


@pytest.mark.parametrize("content", [b"SQLite format 3\x00" + b"\x00" * 50, b"this is not a database at all, just text" * 40])
def test_corrupt_database_names_the_file_and_exits_2(tmp_path, content):
    folder = tmp_path / "Zotero"
    folder.mkdir()
    (folder / "zotero.sqlite").write_bytes(content)
    with pytest.raises(BibliographyError, match=r"Zotero[/\\]zotero\.sqlite: not a readable Zotero database .*zotero\.sqlite\.bak"):
        read_zotero(folder)
    doc = tmp_path / "draft.md"
    doc.write_text("Fish need sleep [@martinez2019sleep].\n")
    r = runner.invoke(app, ["check", str(doc), "--zotero", str(folder), "--no-cache", "--quiet"])
    assert 2 == r.exit_code and "zotero.sqlite" in r.output


def test_not_a_zotero_folder_and_collection_without_zotero(tmp_path):
    doc = tmp_path / "draft.md"
    doc.write_text("Fish need sleep [@martinez2019sleep].\n")
    empty = tmp_path / "NotZotero"
    empty.mkdir()
    r = runner.invoke(app, ["check", str(doc), "--zotero", str(empty), "--no-cache", "--quiet"])
    assert 2 == r.exit_code and "NotZotero" in r.output and "Data Directory Location" in r.output
    r = runner.invoke(app, ["gate", str(doc), "--bib", str(doc), "--collection", "Thesis"])
    assert 2 == r.exit_code and "--zotero" in r.output


def test_check_reads_the_stored_pdf_over_the_snapshot(zotero_dir, tmp_path):
    doc = tmp_path / "draft.md"
    doc.write_text("# Results\n\nSleep-deprived zebrafish made 42% more errors in a spatial task while swimming speed was unchanged "
                   "[@martinez2019sleep].\n\nFalls are common in older age [@who2007falls].\n\nBalance training helps [@lee2021].\n")
    r = runner.invoke(app, ["check", str(doc), "--zotero", str(zotero_dir), "--collection", "Thesis", "--out", str(tmp_path / "out"),
                            "--format", "json", "--tier", "lexical", "--no-cache", "--quiet"])
    assert r.exit_code == 0, r.output
    report = json.loads((tmp_path / "out" / "draft.citeproof.json").read_text())
    by_key = {f["citekey"]: f for f in report["findings"]}
    z = by_key["martinez2019sleep"]
    assert "supported" == z["verdict"] and z["source"].endswith("Martinez - 2019 - Sleep deprivation.pdf")
    considered = {Path(c["path"]).name: c["chosen"] for c in report["works"][z["work"]]["sources_considered"]}
    assert {"Martinez - 2019 - Sleep deprivation.pdf": True, "landing.html": False} == considered  # the PDF over the snapshot
    assert "unknown_citekey" in by_key["lee2021"]["flags"]  # not in the Thesis collection
    gate = runner.invoke(app, ["gate", str(doc), "--zotero", str(zotero_dir)])
    assert 0 == gate.exit_code, gate.output
    assert 1 == runner.invoke(app, ["gate", str(doc), "--zotero", str(zotero_dir), "--collection", "Teaching"]).exit_code


def test_a_data_folder_is_a_bibliography_like_any_other(zotero_dir, tmp_path):
    bib = tmp_path / "extra.bib"
    bib.write_text("@article{lee2021,\n  title = {Another balance paper},\n  year = {2020}\n}\n")
    lib = load_bibliographies([bib, zotero_dir])
    assert ("Another balance paper", TITLE) == (lib.get("lee2021").title, lib.get("martinez2019sleep").title)
    assert ["bib-duplicate-key"] == [d.code for d in lib.diagnostics if d.code != "zotero-base-dir"]


def test_zotero_7_citation_key_field_and_combined_tables(zotero_dir):
    """Zotero 7 keeps a citationKey field and reads field names through fieldsCombined; both are honoured."""
    con = sqlite3.connect(zotero_dir / "zotero.sqlite")
    con.execute("INSERT INTO fields (fieldID, fieldName) VALUES (124, 'citationKey')")
    con.execute("CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID))")
    con.execute("INSERT INTO fieldsCombined SELECT fieldID, fieldName, NULL, fieldFormatID, 0 FROM fields")
    value = con.execute("INSERT INTO itemDataValues (value) VALUES ('lee2021balance')").lastrowid
    item = con.execute("SELECT itemID FROM items WHERE key = 'CONF0001'").fetchone()[0]
    con.execute("INSERT INTO itemData VALUES (?, 124, ?)", (item, value))
    con.commit()
    con.close()
    refs, _, _ = read_zotero(zotero_dir)
    assert ["martinez2019sleep", "who2007falls", "lee2021balance"] == [r.citekey for r in refs]


def test_word_fields_take_their_files_from_the_zotero_library(zotero_dir, tmp_path):
    """A .docx whose Zotero fields cite a library item: --zotero lends the item its stored PDF (matched by DOI)."""
    from test_docx import _docx, _field, _p, _run, _zotero

    item = {"id": 4012, "type": "article-journal", "title": TITLE, "author": [{"family": "Martínez", "given": "Ana"}],
            "issued": {"date-parts": [[2019, 3]]}, "DOI": "10.1111/jfb.13912"}
    doc = _docx(tmp_path / "paper.docx", _p(_run("Sleep-deprived zebrafish made 42% more errors in a spatial task while swimming speed was unchanged "),
                                            _field(_zotero([(item, {})]), "(Martínez, 2019)"), _run(".")))
    r = runner.invoke(app, ["check", str(doc), "--zotero", str(zotero_dir), "--out", str(tmp_path / "out"), "--format", "json",
                            "--tier", "lexical", "--no-cache", "--quiet"])
    assert 0 == r.exit_code, r.output
    (f,) = json.loads((tmp_path / "out" / "paper.citeproof.json").read_text())["findings"]
    assert ("martinez2019", "supported") == (f["citekey"], f["verdict"]) and f["source"].endswith("Martinez - 2019 - Sleep deprivation.pdf")
    audit = runner.invoke(app, ["audit", str(doc), "--zotero", str(zotero_dir), "--no-cache", "--quiet"])
    assert 0 == audit.exit_code, audit.output
