"""A Zotero library read directly from its data folder (``zotero.sqlite`` + ``storage/``), issue 14 part 2.

Zotero keeps its library in ``zotero.sqlite`` inside the data folder (``~/Zotero`` by default) and the files it
stores in ``storage/<attachment key>/``. While Zotero runs it holds the database locked, so citeproof never opens
the live file: it copies ``zotero.sqlite`` (and its ``-wal`` file, when there is one) into a private temporary
folder and reads the copy; the library itself is never written to.

Schema: Zotero 5, 6 and 7 (``userdata`` schema 107 and later, ``resource/schema/userdata.sql`` of zotero/zotero):
``items``/``itemTypes`` (``itemTypesCombined`` when present), ``itemData``/``itemDataValues``/``fields``
(``fieldsCombined`` when present), ``creators`` (``firstName``, ``lastName``, ``fieldMode``)/``itemCreators``/
``creatorTypes``, ``itemAttachments`` (``parentItemID``, ``linkMode``, ``contentType``, ``path``), ``collections``/
``collectionItems``, ``deletedItems`` (the trash, left out), ``libraries``.

Each regular item (not a note, attachment or annotation; not in the trash) becomes a
:class:`~citeproof.model.Reference`. Its citekey, in order of preference:

1. Better BibTeX's, when its database ``better-bibtex.sqlite`` lies beside (table ``citationkey``:
   ``itemID``, ``libraryID``, ``itemKey``, ``citationKey``);
2. Zotero 7's own ``citationKey`` field, or a ``Citation Key: ...`` line of the ``Extra`` field (the convention
   Zotero and Better BibTeX share);
3. one made from the first author's family name and the year (``smith2020``, ``smith2020a``), as for Word fields.

Its attachments are the child attachment items with files: stored ones (``storage:name.pdf`` ->
``storage/<key>/name.pdf``) and linked ones (an absolute path); the evidence rules of
:mod:`citeproof.sources.attachments` then pick the work itself (a PDF over a snapshot). Linked files relative to
Zotero's "base directory" (``attachments:...``) cannot be located from the data folder alone; a diagnostic counts
them.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections import defaultdict
from pathlib import Path

from citeproof.bibliography.doi import normalise_doi
from citeproof.bibliography.keys import CitekeyMaker
from citeproof.errors import BibliographyError
from citeproof.model import Attachment, Diagnostic, Reference

__all__ = ["is_zotero_library", "read_zotero", "zotero_database"]

_NOT_REFERENCES = ("note", "attachment", "annotation")
_CONTAINER_FIELDS = ("publicationTitle", "bookTitle", "proceedingsTitle", "websiteTitle", "blogTitle", "forumTitle",
                     "encyclopediaTitle", "dictionaryTitle", "programTitle", "seriesTitle")
_TITLE_FIELDS = ("title", "caseName", "nameOfAct", "subject")
_CSL_TYPES = {"journalArticle": "article-journal", "magazineArticle": "article-magazine", "newspaperArticle": "article-newspaper",
              "bookSection": "chapter", "conferencePaper": "paper-conference", "thesis": "thesis", "report": "report", "book": "book",
              "webpage": "webpage", "preprint": "article", "manuscript": "manuscript", "dataset": "dataset"}
_EXTRA_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*(\S.*?)\s*$", re.M)


def is_zotero_library(path: Path) -> bool:
    """True when ``path`` is a Zotero data folder (it holds ``zotero.sqlite``) or a ``.sqlite`` file."""
    path = Path(path).expanduser()
    return (path.is_dir() and (path / "zotero.sqlite").is_file()) or path.suffix.lower() == ".sqlite"


def zotero_database(path: Path) -> Path:
    """The ``zotero.sqlite`` that ``path`` (a data folder or the file itself) names.

    Raises:
        BibliographyError: there is none (the message says where Zotero keeps it).
    """
    path = Path(path).expanduser()
    db = path / "zotero.sqlite" if path.is_dir() else path
    if not db.is_file():
        raise BibliographyError(f"{db}: no Zotero database here; give Zotero's data folder (Zotero > Settings > Advanced > "
                                "Files and Folders > Data Directory Location, ~/Zotero by default)")
    return db


def _copy(db: Path, into: Path) -> Path:
    """Copy ``db`` (and its ``-wal`` journal) into ``into``: Zotero locks the live file while it runs.

    Raises:
        BibliographyError: the file cannot be read (permissions), naming it.
    """
    target = into / "zotero.sqlite"
    try:
        shutil.copyfile(db, target)
        wal = db.with_name(db.name + "-wal")
        if wal.is_file():
            shutil.copyfile(wal, into / "zotero.sqlite-wal")
    except OSError as exc:
        raise BibliographyError(f"{db}: cannot read the Zotero database ({exc.strerror}); check its permissions") from None
    return target


def _table(con: sqlite3.Connection, *names: str) -> str:
    """The first of ``names`` that is a table or view of the database, or ''."""
    for name in names:
        if con.execute("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?", (name,)).fetchone():
            return name
    return ""


def _year(date: str) -> str:
    """The year of a Zotero date (stored ``2020-03-00 March 2020``: SQL form, then as typed)."""
    m = re.search(r"(?<!\d)(\d{4})(?!\d)", date)
    return m.group(1) if m else ""


def _extra(extra: str) -> dict[str, str]:
    """``Key: value`` lines of the Extra field, keys lower-cased (``citation key``, ``pmid``, ``doi``...)."""
    return {m.group(1).strip().lower(): m.group(2) for m in _EXTRA_LINE.finditer(extra or "")}


def _bbt_keys(folder: Path, into: Path) -> dict[tuple[int, int], str]:
    """Better BibTeX's citekeys by ``(libraryID, itemID)``, from ``better-bibtex.sqlite`` beside the library ({} when absent or unreadable)."""
    bbt = folder / "better-bibtex.sqlite"
    if not bbt.is_file():
        return {}
    try:
        shutil.copyfile(bbt, into / "better-bibtex.sqlite")
        con = sqlite3.connect(into / "better-bibtex.sqlite")
        try:
            rows = con.execute("SELECT libraryID, itemID, citationKey FROM citationkey").fetchall()
        finally:
            con.close()
    except (OSError, sqlite3.Error):
        return {}
    return {(int(lib or 1), int(item)): str(key) for lib, item, key in rows if key}


def read_zotero(path: Path, collection: str | None = None) -> tuple[list[Reference], list[Diagnostic], Path]:
    """Read a Zotero library's items as references with their attachments.

    Args:
        path: Zotero's data folder (holding ``zotero.sqlite`` and ``storage/``) or the ``zotero.sqlite`` file.
        collection: only the items of the collection of this name (case-insensitive) and its sub-collections.

    Returns:
        ``(references in item order, diagnostics, the database path)``.

    Raises:
        BibliographyError: no database there, a file that is not an SQLite database or is corrupt, a database
            without Zotero's tables (older than Zotero 5), or no collection of that name (the message lists the
            collections there). Each message names the file and what to do.
    """
    db = zotero_database(path)
    folder = db.parent
    with tempfile.TemporaryDirectory(prefix="citeproof-zotero-") as tmp:
        copy = _copy(db, Path(tmp))
        try:
            con = sqlite3.connect(copy)  # the private copy: the live library is never opened
            try:
                refs, diags = _read(con, db, folder, collection, _bbt_keys(folder, Path(tmp)))
            finally:
                con.close()
        except sqlite3.DatabaseError as exc:
            raise BibliographyError(f"{db}: not a readable Zotero database ({exc}); if Zotero reports it as damaged, restore "
                                    "zotero.sqlite.bak from the same folder (Zotero's own backup)") from None
    return refs, diags, db


def _read(con: sqlite3.Connection, db: Path, folder: Path, collection: str | None,
          bbt: dict[tuple[int, int], str]) -> tuple[list[Reference], list[Diagnostic]]:
    """The references of the open database (see :func:`read_zotero`)."""
    types = _table(con, "itemTypesCombined", "itemTypes")
    fields = _table(con, "fieldsCombined", "fields")
    missing = [t for t, have in (("items", _table(con, "items")), ("itemTypes", types), ("fields", fields), ("itemData", _table(con, "itemData")),
                                 ("itemDataValues", _table(con, "itemDataValues"))) if not have]
    if missing:
        raise BibliographyError(f"{db}: not a Zotero 5+ database (no table {', '.join(missing)}); give the data folder of Zotero 5 or later")
    deleted = "AND i.itemID NOT IN (SELECT itemID FROM deletedItems)" if _table(con, "deletedItems") else ""
    wanted: set[int] | None = None
    if collection is not None:
        wanted = _collection_items(con, db, collection)
    rows = con.execute(f"SELECT i.itemID, i.libraryID, i.key, t.typeName FROM items i JOIN {types} t ON t.itemTypeID = i.itemTypeID "
                       f"WHERE t.typeName NOT IN ({', '.join('?' * len(_NOT_REFERENCES))}) {deleted} ORDER BY i.itemID", _NOT_REFERENCES).fetchall()
    data: dict[int, dict[str, str]] = defaultdict(dict)
    for item, name, value in con.execute(f"SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN {fields} f ON f.fieldID = d.fieldID "
                                         "JOIN itemDataValues v ON v.valueID = d.valueID"):
        data[item][name] = "" if value is None else str(value)
    authors = _creators(con)
    attachments, unplaced = _attachments(con, folder, data, deleted)
    rows = [r for r in rows if wanted is None or r[0] in wanted]
    own_keys = {item: bbt.get((int(library or 1), item)) or data.get(item, {}).get("citationKey", "").strip()
                or _extra(data.get(item, {}).get("extra", "")).get("citation key", "").strip() for item, library, _, _ in rows}
    keys = CitekeyMaker()
    for own in own_keys.values():
        if own:
            keys.reserve(own)
    refs: list[Reference] = []
    for item, library, key, type_name in rows:
        d = data.get(item, {})
        extra = _extra(d.get("extra", ""))
        own = own_keys[item]
        url = d.get("url", "")
        arxiv = extra.get("arxiv", "")
        m = re.search(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:v\d+)?(?:\.pdf)?$", url)
        atts = tuple(attachments.get(item, ()))
        ref = Reference(
            citekey=own,
            entry_type=_CSL_TYPES.get(type_name, type_name),
            title=next((d[f] for f in _TITLE_FIELDS if d.get(f)), ""),
            authors=authors.get(item, ()),
            year=_year(d.get("date", "")),
            container=next((d[f] for f in _CONTAINER_FIELDS if d.get(f)), "") or d.get("publisher", ""),
            doi=normalise_doi(d.get("DOI", "") or extra.get("doi", "")),
            arxiv=arxiv or (m.group(1) if m else ""),
            url=url,
            pmid=extra.get("pmid", ""),
            pmcid=extra.get("pmcid", ""),
            files=tuple(a.path for a in atts),
            origin=f"{db}:item {key}",
            attachments=atts,
            pages=d.get("pages", ""),
        )
        refs.append(ref if own else keys.make(f"{library}/{key}", ref))
    diags: list[Diagnostic] = []
    if unplaced:
        diags.append(Diagnostic("zotero-base-dir", "info", f"{db}: {unplaced} linked file(s) are relative to Zotero's base directory "
                                "(attachments:...), which the data folder does not record; give the folder with --sources to use them", str(db)))
    if not refs:
        where = f" in collection '{collection}'" if collection is not None else ""
        diags.append(Diagnostic("bib-empty", "warning", f"{db}: the Zotero library holds no item{where}, so every citekey will be unknown", str(db)))
    return refs, diags


def _creators(con: sqlite3.Connection) -> dict[int, tuple[str, ...]]:
    """``itemID -> ("Family, Given", ...)``: the authors in order, else every creator (an edited book)."""
    if not _table(con, "itemCreators") or not _table(con, "creators"):
        return {}
    has_types = bool(_table(con, "creatorTypes"))
    sql = ("SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, " + ("ct.creatorType" if has_types else "'author'")
           + " FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID "
           + ("LEFT JOIN creatorTypes ct ON ct.creatorTypeID = ic.creatorTypeID " if has_types else "")
           + "ORDER BY ic.itemID, ic.orderIndex")
    everyone: dict[int, list[str]] = defaultdict(list)
    authors: dict[int, list[str]] = defaultdict(list)
    for item, first, last, mode, kind in con.execute(sql):
        name = (last or "") if mode == 1 or not first else f"{last or ''}, {first}".strip(", ")
        if name:
            everyone[item].append(name)
            if kind in (None, "author"):
                authors[item].append(name)
    return {item: tuple(authors.get(item) or names) for item, names in everyone.items()}


def _attachments(con: sqlite3.Connection, folder: Path, data: dict[int, dict[str, str]], deleted: str) -> tuple[dict[int, list[Attachment]], int]:
    """``parent itemID -> attachments`` (stored and linked files) and how many linked files could not be placed.

    ``linkMode`` (Zotero's ``Zotero.Attachments.LINK_MODE_*``): 0 imported file, 1 imported URL (a snapshot),
    2 linked file, 3 linked URL (a web link, left out: the item's URL says the same), 4 embedded image.
    """
    if not _table(con, "itemAttachments"):
        return {}, 0
    out: dict[int, list[Attachment]] = defaultdict(list)
    unplaced = 0
    rows = con.execute("SELECT a.itemID, a.parentItemID, a.linkMode, a.contentType, a.path, i.key FROM itemAttachments a "
                       f"JOIN items i ON i.itemID = a.itemID WHERE a.parentItemID IS NOT NULL {deleted} ORDER BY a.itemID")
    for item, parent, mode, mime, stored, key in rows:
        stored = stored or ""
        if mode == 3 or not stored:
            continue
        if stored.startswith("storage:"):
            path = str(folder / "storage" / key / stored[len("storage:"):])
        elif stored.startswith("attachments:"):
            unplaced += 1
            continue
        else:
            path = stored
        out[parent].append(Attachment(path, description=data.get(item, {}).get("title", ""), mime=mime or ""))
    return out, unplaced


def _collection_items(con: sqlite3.Connection, db: Path, name: str) -> set[int]:
    """The itemIDs of the collection(s) named ``name`` (case-insensitive) and their sub-collections.

    Raises:
        BibliographyError: no collection of that name (the message lists those there).
    """
    if not _table(con, "collections"):
        raise BibliographyError(f"{db}: this Zotero database has no collections; leave out --collection")
    rows = con.execute("SELECT collectionID, collectionName, parentCollectionID FROM collections").fetchall()
    todo = [cid for cid, cname, _ in rows if cname.casefold() == name.casefold()]
    if not todo:
        names = sorted({cname for _, cname, _ in rows})
        raise BibliographyError(f"{db}: no Zotero collection named '{name}'; the collections are: {', '.join(names) or 'none'}")
    children: dict[int, list[int]] = defaultdict(list)
    for cid, _, parent in rows:
        if parent is not None:
            children[parent].append(cid)
    seen: set[int] = set()
    while todo:
        cid = todo.pop()
        if cid not in seen:
            seen.add(cid)
            todo.extend(children.get(cid, ()))
    marks = ", ".join("?" * len(seen))
    return {r[0] for r in con.execute(f"SELECT itemID FROM collectionItems WHERE collectionID IN ({marks})", tuple(seen))}
