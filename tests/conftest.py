"""Shared paths and fixtures.

``SAMPLE`` is the bundled demo sample (always present). ``DATA`` is
``../shared/data`` beside the repository; tests that need it skip with a
reason when it is absent. ``FIXTURES`` holds small inputs written for the
tests (``tests/data``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "manubot"
DATA = ROOT.parent / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "data"


def need_data(sub: str) -> Path:
    """``DATA / sub``, or skip the test with the reason."""
    p = DATA / sub
    if not p.exists():
        pytest.skip(f"{p} is absent (shared data not available here)")
    return p


def training_module(name: str):
    """``training/<name>.py`` imported (the folder is not a package: it joins ``sys.path`` for the import only)."""
    import importlib
    import sys

    sys.path.insert(0, str(ROOT / "training"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "training"))


def need(path: Path) -> Path:
    """``path`` if it exists, else skip the test saying what is missing."""
    if not path.exists():
        pytest.skip(f"{path} is absent (shared data not available here)")
    return path


@pytest.fixture(scope="session")
def sample_report(tmp_path_factory):
    """The demo sample checked once per session (lexical tier, fresh cache)."""
    from citeproof.pipeline import CheckOptions, check

    cache = tmp_path_factory.mktemp("cache")
    return check(SAMPLE / "citing" / "meta-review.md", [SAMPLE / "meta-review.bib"], CheckOptions(cache_dir=cache))


# --- model jitter: find tests that sit on a decision boundary ------------------------------------
# The int8 ONNX models give slightly different numbers on different CPUs and onnxruntime versions
# (the 2026-11 strict xfail flipped from P(contradicts) 0.445 < P(entails) 0.498 on one machine to
# 0.488 > 0.452 on another). ``pytest --model-jitter 0.2`` perturbs every entailment logit by up to
# +-0.2 and every embedding by a random vector of that relative size, deterministically per input
# text and ``--model-jitter-seed``; a test that fails under jitter asserts a borderline model output.
# ``make test-jitter`` runs the model-dependent tests this way (CI runs it).


def pytest_addoption(parser):
    parser.addoption("--model-jitter", type=float, default=0.0,
                     help="perturb model logits/embeddings by up to this much (finds borderline tests)")
    parser.addoption("--model-jitter-seed", type=int, default=1, help="seed of --model-jitter")
    parser.addoption("--model-jitter-report", default="", help="write the ids of the tests that called a model to this file")


_MODEL_USERS: set[str] = set()
_CURRENT_TEST: dict[str, str] = {}


@pytest.fixture(autouse=True)
def _which_test(request):
    _CURRENT_TEST["id"] = request.node.nodeid
    yield


def pytest_sessionfinish(session):
    path = session.config.getoption("--model-jitter-report", default="")
    if path:
        Path(path).write_text("".join(f"{t}\n" for t in sorted(_MODEL_USERS)))


def _text_rng(seed: int, *texts: str):
    import hashlib

    import numpy as np

    h = hashlib.sha256(("\x1f".join(texts) + f"\x1e{seed}").encode("utf-8", "surrogatepass")).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


@pytest.fixture(scope="session", autouse=True)
def _model_jitter(request, tmp_path_factory):
    """Apply ``--model-jitter`` to the entailment model and the embedder for the whole session.

    The default cache folder moves to a temporary one meanwhile: jittered vectors and judgements
    must never be found by a later run (the judgement cache's key holds the models, not the jitter).
    """
    amount = request.config.getoption("--model-jitter")
    if not amount:
        yield
        return
    import numpy as np

    from citeproof.judges import entailment
    from citeproof.retrieval import dense

    seed = request.config.getoption("--model-jitter-seed")
    mp = pytest.MonkeyPatch()
    orig_pairs = entailment.EntailmentModel.predict_pairs
    orig_embed = dense.Embedder.embed

    def predict_pairs(self, pairs):
        _MODEL_USERS.add(_CURRENT_TEST.get("id", "?"))
        p = orig_pairs(self, pairs)
        for i, (a, b) in enumerate(pairs):
            z = np.log(np.clip(p[i], 1e-9, None)) + _text_rng(seed, a, b).uniform(-amount, amount, 3)
            e = np.exp(z - z.max())
            p[i] = e / e.sum()
        return p

    def embed(self, texts):
        _MODEL_USERS.add(_CURRENT_TEST.get("id", "?"))
        v = orig_embed(self, texts)
        for i, t in enumerate(texts):
            if not v[i].any():
                continue
            n = _text_rng(seed, t).normal(size=v.shape[1]).astype(v.dtype)
            w = v[i] + amount * n / np.linalg.norm(n)
            v[i] = w / np.linalg.norm(w)
        return v

    mp.setattr(entailment.EntailmentModel, "predict_pairs", predict_pairs)
    mp.setattr(dense.Embedder, "embed", embed)
    mp.setenv("CITEPROOF_CACHE_DIR", str(tmp_path_factory.mktemp("jittered-cache")))
    yield
    mp.undo()
