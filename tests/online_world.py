"""Recorded-shape responses for the loopback services (see ``online_server``).

The works are real (their metadata as the services publish it), the
responses written by hand in each API's documented shape; PDFs are made
here with PyMuPDF. ``install(web)`` puts them on the routes.
"""

from __future__ import annotations

import json

import pytest

from online_server import FakeWeb, bytes_reply, json_reply

MANUBOT_DOI = "10.1371/journal.pcbi.1007128"
WAKEFIELD_DOI = "10.1016/s0140-6736(97)11096-0"
CORRECTED_DOI = "10.1038/nature12373"
WRONG_YEAR_DOI = "10.7554/elife.32822"
CHECKCOVID_PMID = "33186535"

MANUBOT_TEXT = [
    "Open collaborative writing with Manubot",
    "Manubot is a system for writing scholarly manuscripts via GitHub. Manubot automates citations and references, "
    "versions manuscripts using git, and enables collaborative writing via GitHub.",
    "Continuous integration rebuilds the manuscript on every change, and Manubot cites persistent identifiers such as DOIs.",
]
ATTENTION_TEXT = [
    "Attention Is All You Need",
    "We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, "
    "dispensing with recurrence and convolutions entirely.",
    "The Transformer achieves 28.4 BLEU on the WMT 2014 English-to-German translation task.",
]


def make_pdf(paragraphs: list[str]) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for i, p in enumerate(paragraphs):
        rect = pymupdf.Rect(72, y, 520, y + 140)
        page.insert_textbox(rect, p, fontsize=16 if i == 0 else 10)
        y += 150
    return doc.tobytes()


def crossref_work(doi, title, authors, year, venue, *, abstract="", updated_by=(), work_type="journal-article"):
    msg = {
        "indexed": {"date-parts": [[2025, 1, 2]]}, "DOI": doi, "type": work_type, "title": [title],
        "author": [{"given": g, "family": f, "sequence": "first" if i == 0 else "additional", "affiliation": []} for i, (g, f) in enumerate(authors)],
        "container-title": [venue], "issued": {"date-parts": [[year, 6, 1]]}, "URL": f"https://doi.org/{doi}",
        "is-referenced-by-count": 10, "publisher": "Example", "member": "340",
    }
    if abstract:
        msg["abstract"] = f"<jats:p>{abstract}</jats:p>"
    if updated_by:
        msg["updated-by"] = list(updated_by)
    return {"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": msg}


def openalex_work(doi, title, authors, year, venue, *, pdf_url=None, oa_status="closed", abstract="", retracted=False, pmid="", pmcid=""):
    words = abstract.split()
    inv: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        inv.setdefault(w, []).append(i)
    ids = {"openalex": "https://openalex.org/W1", "doi": f"https://doi.org/{doi}" if doi else None}
    if pmid:
        ids["pmid"] = f"https://pubmed.ncbi.nlm.nih.gov/{pmid}"
    if pmcid:
        ids["pmcid"] = f"https://www.ncbi.nlm.nih.gov/pmc/articles/{pmcid}"
    best = {"is_oa": True, "landing_page_url": f"https://doi.org/{doi}", "pdf_url": pdf_url, "source": {"display_name": venue}} if pdf_url else None
    return {
        "id": "https://openalex.org/W1", "doi": f"https://doi.org/{doi}" if doi else None, "title": title, "display_name": title,
        "publication_year": year, "type": "article", "ids": ids,
        "authorships": [{"author_position": "first" if i == 0 else "middle", "author": {"id": "https://openalex.org/A1", "display_name": a}} for i, a in enumerate(authors)],
        "primary_location": {"is_oa": bool(pdf_url), "source": {"display_name": venue}},
        "best_oa_location": best, "open_access": {"is_oa": bool(pdf_url), "oa_status": oa_status, "oa_url": pdf_url},
        "abstract_inverted_index": inv or None, "is_retracted": retracted,
    }


def atom_feed(entries: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">'
        '<title type="html">ArXiv Query</title><opensearch:totalResults>1</opensearch:totalResults>' + entries + "</feed>"
    ).encode()


def atom_entry(abs_id, title, authors, published, summary, pdf_href, doi=""):
    auth = "".join(f"<author><name>{a}</name></author>" for a in authors)
    return (
        f"<entry><id>http://arxiv.org/abs/{abs_id}</id><updated>{published}</updated><published>{published}</published>"
        f"<title>{title}</title><summary>  {summary}\n</summary>{auth}"
        + (f"<arxiv:doi>{doi}</arxiv:doi>" if doi else "")
        + f'<link href="http://arxiv.org/abs/{abs_id}" rel="alternate" type="text/html"/>'
        f'<link title="pdf" href="{pdf_href}" rel="related" type="application/pdf"/>'
        '<arxiv:primary_category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/></entry>'
    )


JATS = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">
<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
<front><journal-meta><journal-title-group><journal-title>Example Journal</journal-title></journal-title-group></journal-meta>
<article-meta><article-id pub-id-type="pmcid">PMC7654321</article-id><article-id pub-id-type="pmid">33186535</article-id>
<title-group><article-title>Masks and hand hygiene in household transmission of influenza</article-title></title-group>
<abstract><p>We studied household transmission of influenza in 259 households.</p></abstract></article-meta></front>
<body>
<sec id="s1"><title>Introduction</title><p>Influenza spreads readily within households.</p></sec>
<sec id="s2"><title>Methods</title><p>We randomised 259 households to masks, masks with hand hygiene, or control.</p>
<sec><title>Statistics</title><p>Secondary attack rates were compared with logistic regression.</p></sec></sec>
<sec id="s3"><title>Results</title><p>Face masks and hand hygiene within 36 hours of symptom onset reduced household transmission of influenza by 70 percent.</p>
<fig id="f1"><label>Figure 1</label><caption><p>Secondary attack rate by study arm.</p></caption></fig></sec>
</body>
<back><ref-list><ref id="r1"><mixed-citation>Smith J. Influenza. 2001.</mixed-citation></ref></ref-list></back>
</article>"""


def europepmc_hit(pmid, pmcid, doi, title, authors, year, journal, abstract):
    return {
        "version": "6.9", "hitCount": 1, "request": {"queryString": f"EXT_ID:{pmid}", "resultType": "core"},
        "resultList": {"result": [{
            "id": pmid, "source": "MED", "pmid": pmid, "pmcid": pmcid, "doi": doi, "title": title + ".",
            "authorString": ", ".join(authors) + ".", "authorList": {"author": [{"fullName": a, "lastName": a.split()[0]} for a in authors]},
            "pubYear": str(year), "journalInfo": {"journal": {"title": journal}}, "abstractText": abstract,
            "isOpenAccess": "Y", "inEPMC": "Y", "inPMC": "Y", "hasPDF": "Y",
        }]},
    }


BIB = r"""
@article{manubot, title = {Open collaborative writing with {Manubot}}, author = {Himmelstein, Daniel S. and Rubinetti, Vincent},
  journal = {PLOS Computational Biology}, year = {2019}, doi = {10.1371/journal.pcbi.1007128}}
@article{wakefield, title = {Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children},
  author = {Wakefield, A. J. and Murch, S. H.}, journal = {The Lancet}, year = {1998}, doi = {10.1016/S0140-6736(97)11096-0}}
@article{attention, title = {Attention Is All You Need}, author = {Vaswani, Ashish and Shazeer, Noam}, year = {2017},
  eprint = {1706.03762v5}, archivePrefix = {arXiv}}
@article{maldacena, title = {The Large N Limit of Superconformal Field Theories and Supergravity}, author = {Maldacena, Juan},
  year = {1997}, eprint = {hep-th/9711200}, archivePrefix = {arXiv}}
@article{masks, title = {Masks and hand hygiene in household transmission of influenza}, author = {Cowling, Benjamin J.},
  year = {2009}, pmid = {33186535}}
@article{titleonly, title = {Sci-Hub provides access to nearly all scholarly literature}, author = {Himmelstein, Daniel S.}, year = {2018}}
@article{fabricated, title = {Quantum entanglement of household cats predicts citation counts}, author = {Nobody, Anne}, year = {2021}}
@article{wrongyear, title = {Sci-Hub provides access to nearly all scholarly literature}, author = {Himmelstein, Daniel S.}, year = {2016},
  journal = {eLife}, doi = {10.7554/eLife.32822}}
@article{corrected, title = {Nanometre-scale thermometry in a living cell}, author = {Kucsko, G.}, year = {2013}, journal = {Nature},
  doi = {10.1038/nature12373}}
"""

DRAFT = """# Draft

Manubot automates citations and references and versions manuscripts using git [@manubot].

The MMR vaccine causes autism in children, a secret finding of my unpublished cohort [@wakefield].

The Transformer dispenses with recurrence and convolutions entirely [@attention].

Large N gauge theories are dual to supergravity on anti-de Sitter space [@maldacena].

Face masks and hand hygiene reduced household transmission of influenza by 70 percent [@masks].

Sci-Hub's coverage of paywalled articles is nearly complete [@titleonly].

Cats predict citations [@fabricated].

Sci-Hub covers most scholarly literature [@wrongyear].

Diamond nitrogen-vacancy centres measure temperature inside living cells [@corrected].
"""

SECRET_WORDS = ("secret", "unpublished", "cohort", "autism", "Draft")
"""Words only the draft holds: none may appear in any request."""


def install(web: FakeWeb) -> None:
    files = web["files"]
    manubot_pdf, attention_pdf = make_pdf(MANUBOT_TEXT), make_pdf(ATTENTION_TEXT)
    files.routes["/pdf/manubot.pdf"] = bytes_reply(manubot_pdf, "application/pdf")
    files.routes["/pdf/1706.03762v5"] = bytes_reply(attention_pdf, "application/pdf")
    files.routes["/login"] = bytes_reply(b"<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>Log in to read</form></body></html>", "text/html")
    cr, oa, up, ax, ep = web["crossref"], web["openalex"], web["unpaywall"], web["arxiv"], web["europepmc"]

    cr.routes[f"/works/{MANUBOT_DOI}"] = json_reply(crossref_work(MANUBOT_DOI, "Open collaborative writing with Manubot",
                                                                 [("Daniel S.", "Himmelstein"), ("Vincent", "Rubinetti")], 2019, "PLOS Computational Biology"))
    oa.routes[f"/works/doi:{MANUBOT_DOI}"] = json_reply(openalex_work(MANUBOT_DOI, "Open collaborative writing with Manubot",
                                                                     ["Daniel S. Himmelstein", "Vincent Rubinetti"], 2019, "PLOS Computational Biology",
                                                                     pdf_url=files.url + "/pdf/manubot.pdf", oa_status="gold"))
    up.routes[f"/v2/{MANUBOT_DOI}"] = json_reply({
        "doi": MANUBOT_DOI, "is_oa": True, "oa_status": "gold", "title": "Open collaborative writing with Manubot", "year": 2019,
        "best_oa_location": {"url_for_pdf": files.url + "/login", "url": "https://doi.org/" + MANUBOT_DOI, "host_type": "publisher", "license": "cc-by"},
        "oa_locations": [{"url_for_pdf": files.url + "/login", "host_type": "publisher"}, {"url_for_pdf": files.url + "/pdf/manubot.pdf", "host_type": "repository"}],
    })

    notice = {"updated": {"date-parts": [[2010, 2, 6]]}, "DOI": "10.1016/s0140-6736(10)60175-4", "type": "retraction", "source": "retraction-watch", "label": "Retraction", "record-id": 1234}
    wk_title = "RETRACTED: Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children"
    cr.routes[f"/works/{WAKEFIELD_DOI}"] = json_reply(crossref_work(WAKEFIELD_DOI, wk_title, [("A.J", "Wakefield"), ("S.H", "Murch")], 1998, "The Lancet", updated_by=[notice]))
    oa.routes[f"/works/doi:{WAKEFIELD_DOI}"] = json_reply(openalex_work(
        WAKEFIELD_DOI, wk_title, ["A.J. Wakefield", "S.H. Murch"], 1998, "The Lancet", retracted=True,
        abstract="We investigated a consecutive series of children with chronic enterocolitis and regressive developmental disorder."))
    up.routes[f"/v2/{WAKEFIELD_DOI}"] = json_reply({"doi": WAKEFIELD_DOI, "is_oa": False, "oa_status": "closed", "best_oa_location": None, "oa_locations": []})

    ax.routes["/api/query?id_list=1706.03762v5"] = bytes_reply(atom_feed(atom_entry(
        "1706.03762v5", "Attention Is All\n  You Need", ["Ashish Vaswani", "Noam Shazeer"], "2017-06-12T17:57:34Z",
        "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks.", files.url + "/pdf/1706.03762v5")), "application/atom+xml")
    ax.routes["/api/query?id_list=hep-th/9711200"] = bytes_reply(atom_feed(atom_entry(
        "hep-th/9711200v3", "The Large N Limit of Superconformal Field Theories and Supergravity", ["Juan M. Maldacena"], "1997-11-27T19:07:47Z",
        "We show that the large N limit of certain conformal field theories can be described in terms of supergravity on anti-de Sitter space.",
        files.url + "/pdf/hep-th/9711200v3", doi="10.1023/A:1026654312961")), "application/atom+xml")
    files.routes["/pdf/hep-th/9711200v3"] = bytes_reply(make_pdf(["x"])[: 400], "application/pdf")  # truncated PDF

    ep.routes["/europepmc/webservices/rest/search?query=EXT_ID:33186535"] = json_reply(europepmc_hit(
        CHECKCOVID_PMID, "PMC7654321", "10.7326/m09-1110", "Masks and hand hygiene in household transmission of influenza", ["Cowling BJ", "Chan KH"],
        2009, "Annals of Internal Medicine", "We studied household transmission of influenza in 259 households."))
    ep.routes["/europepmc/webservices/rest/PMC7654321/fullTextXML"] = bytes_reply(JATS, "application/xml")

    scihub = {"title": "Sci-Hub provides access to nearly all scholarly literature", "authors": ["Daniel S Himmelstein", "Ariel Rodriguez Romero"], "year": 2018}
    distractor = openalex_work("10.1038/d41586-018-01234-5", "Sci-Hub: the pirate site in numbers", ["John Bohannon"], 2016, "Science")
    oa.routes["/works?search=Sci-Hub provides access"] = json_reply({"meta": {"count": 2}, "results": [
        distractor, openalex_work(WRONG_YEAR_DOI, scihub["title"], scihub["authors"], 2018, "eLife", abstract="The website Sci-Hub enables users to download PDF versions of scholarly articles, including many articles that are paywalled at their journal's site.")]})
    cr.routes[f"/works/{WRONG_YEAR_DOI}"] = json_reply(crossref_work(WRONG_YEAR_DOI, scihub["title"], [("Daniel S", "Himmelstein"), ("Ariel Rodriguez", "Romero")], 2018, "eLife"))
    oa.routes[f"/works/doi:{WRONG_YEAR_DOI}"] = json_reply(openalex_work(WRONG_YEAR_DOI, scihub["title"], scihub["authors"], 2018, "eLife"))

    unrelated = openalex_work("10.1000/cats", "Household cats and quantum biology: a review", ["Mary Major"], 2019, "Cat Journal")
    oa.routes["/works?search=Quantum entanglement"] = json_reply({"meta": {"count": 1}, "results": [unrelated]})
    cr.routes["/works?query.bibliographic=Quantum entanglement"] = json_reply({"status": "ok", "message-type": "work-list", "message": {
        "total-results": 1, "items": [crossref_work("10.1000/cats", "Household cats and quantum biology: a review", [("Mary", "Major")], 2019, "Cat Journal")["message"]]}})

    corr = {"updated": {"date-parts": [[2014, 1, 8]]}, "DOI": "10.1038/nature12930", "type": "correction", "source": "publisher", "label": "Correction"}
    cr.routes[f"/works/{CORRECTED_DOI}"] = json_reply(crossref_work(CORRECTED_DOI, "Nanometre-scale thermometry in a living cell", [("G.", "Kucsko")], 2013, "Nature", updated_by=[corr]))


def write_inputs(folder) -> tuple:
    draft, bib = folder / "draft.md", folder / "refs.bib"
    draft.write_text(DRAFT)
    bib.write_text(BIB)
    return draft, bib


def dump(obj) -> str:
    return json.dumps(obj, indent=1)


@pytest.fixture(scope="module")
def web():
    """The fake services (:class:`FakeWeb` on loopback) with this world's works installed, for one test module."""
    w = FakeWeb()
    install(w)
    yield w
    w.stop()
