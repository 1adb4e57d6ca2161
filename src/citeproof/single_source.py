"""One source named on the command line (``citeproof ask``, ``citeproof locate``): found, read and parsed.

Moved out of :mod:`citeproof.pipeline` (issue 29): no stage order here, one source and, for ``ask``, one
question to the LLM tier.
"""

from __future__ import annotations

from pathlib import Path

from citeproof.bibliography import Bibliography, load_bibliographies
from citeproof.errors import InputError
from citeproof.model import Reference, Source
from citeproof.retrieval.lexical import LexicalRetriever
from citeproof.sources import SourceResolver
from citeproof.sources.cache import Cache, default_cache_dir

__all__ = ["ask_source", "open_source"]


def ask_source(spec: str, question: str, llm: object, bib_paths: list[Path] | None = None, source_dirs: list[Path] | None = None,
               cache_dir: Path | None = None, use_cache: bool = True, top: int = 6) -> dict:
    """``citeproof ask``: one question to one source, answered by the LLM tier with grounded quotes.

    Args:
        spec: a file (PDF, Markdown, text, HTML), or a citekey of ``bib_paths`` / ``source_dirs``.
        question: the question.
        llm: a :class:`citeproof.judges.llm.LLMConfig`.
        bib_paths, source_dirs, cache_dir, use_cache: as for :func:`check`.
        top: passages the retrieval sends with the question.

    Returns:
        :func:`citeproof.judges.llm.ask`'s dict plus ``source`` (the path) and ``citekey``.

    Raises:
        InputError: ``spec`` is neither a readable file nor a citekey with a readable source.
        BudgetExceeded: the budget stops the call.
    """
    from citeproof.judges.llm import LLMClient, ask

    source = open_source(spec, bib_paths, source_dirs, cache_dir, use_cache, "ask")
    passages = [e.passage for e in LexicalRetriever().retrieve(question, source, top=top)] or source.passages[:top]
    client = LLMClient(llm)  # type: ignore[arg-type]
    try:
        res = ask(client, question, source, passages)
    finally:
        client.close()
    res.update({"source": source.path, "citekey": source.citekey})
    return res


def open_source(spec: str, bib_paths: list[Path] | None = None, source_dirs: list[Path] | None = None,
                cache_dir: Path | None = None, use_cache: bool = True, origin: str = "ask") -> Source:
    """One source named on the command line (``citeproof ask``, ``citeproof locate``), read and parsed.

    Args:
        spec: a file (PDF, Markdown, text, HTML), or a citekey of ``bib_paths`` / ``source_dirs``.
        bib_paths, source_dirs, cache_dir, use_cache: as for :func:`check`.
        origin: how the source was named (kept as :attr:`Source.origin`).

    Returns:
        The :class:`Source`, with passages.

    Raises:
        InputError: ``spec`` is neither a readable file nor a citekey with a readable source.
    """
    cache = Cache((cache_dir or default_cache_dir()) if use_cache else None)
    path = Path(spec)
    if path.is_file():
        from citeproof.sources import load_source

        source = load_source(path.stem, path, origin, cache)
    else:
        bib = load_bibliographies([Path(p) for p in bib_paths]) if bib_paths else Bibliography()
        ref = bib.get(spec) or (Reference(citekey=spec) if source_dirs else None)
        if ref is None:
            where = "not a citekey of the bibliography" if bib_paths else "not a citekey either (no --bib was given)"
            raise InputError(f"{spec}: not a file, and {where}; give a source file, or a citekey with --bib refs.bib")
        source = SourceResolver([p.parent for p in bib.files], list(source_dirs or []), cache).resolve(spec, ref)
    if not source.usable:
        raise InputError(f"{spec}: the source cannot be read: {source.error or 'it holds no text'}")
    return source
