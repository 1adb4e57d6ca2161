"""The entailment tier: a cross-encoder citeproof trains and ships, run on onnxruntime.

Model: ``models/entailment-minilm-l6-int8.onnx`` beside this module, a
MiniLM-L6 (all-MiniLM-L6-v2 backbone) cross-encoder with a 3-way head
(mean-pooled last layer -> linear), trained by ``training/train_judge.py``
(general NLI + Check-COVID + generated hard cases, then SciFact training
claims at sentence level), exported to ONNX and quantised to int8 with
``onnxruntime.quantization.quantize_dynamic``. ``models/MODEL_CARD.md`` gives
data, licences and cross-validated figures. Run time needs only onnxruntime,
tokenizers and numpy; torch is never imported.

Input order is NLI's: the *premise* is the source text, the *hypothesis* is the
claim. Output columns are :data:`LABELS`: P(entails), P(neutral), P(contradicts).

Verdicts: every candidate passage is cut into sentences; each sentence (a
"window"; adjacent pairs can be added) is scored; the maxima over windows give a small feature vector (see
:func:`features`) that a multinomial logistic regression, fitted on SciFact
out-of-fold predictions (``models/entailment.json``), maps to supported /
contradicted / unsupported. A supported verdict whose probability is below
``partial_below`` becomes ``partial``. A citation signal that marks indirect
support (``see``, ``cf.``, ``e.g.``, ``see also``, ``see generally``) relaxes
the decision by adding :data:`SIGNAL_BONUS` to the supported log-odds; ``but
see``/``contra`` expect the source to disagree: the verdict policy
(:func:`citeproof.judges.policy.apply_contrary_signal`) maps the judgement of
the claim as written.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from citeproof.judges.base import Judgement
from citeproof.model import Claim, Evidence, Tier, Verdict
from citeproof.onnx_session import ROWS_PER_CALL
from citeproof.text.sentences import split_sentences as _split_sentences

LABELS = ("entails", "neutral", "contradicts")
"""Column order of every probability array this module returns."""

MODELS_DIR = Path(__file__).parent / "models"
MODEL_PATH = MODELS_DIR / "entailment-minilm-l6-int8.onnx"
CONFIG_PATH = MODELS_DIR / "entailment.json"
TOKENIZER_PATH = Path(__file__).parents[1] / "retrieval" / "models" / "tokenizer.json"

RELAXING_SIGNALS = frozenset({"see", "cf.", "cf", "e.g.", "eg", "see also", "see generally", "see, e.g.", "see e.g.", "compare"})
CONTRARY_SIGNALS = frozenset({"but see", "contra", "but cf.", "but cf"})
SIGNAL_BONUS = 1.0
"""Added to the supported log-odds under a relaxing signal (about x2.7 odds)."""

SENTENCE_BUDGET = 16
"""Most sentences of one claim's candidates the cross-encoder reads (issue 17).

The decision layer was fitted on the 6 best-retrieved sentences of a SciFact
abstract (``eval/scifact.py``, ``TOP_K``); the five candidate passages of a
full-text source hold about 50. The budget keeps each candidate's two
sentences that share most of the claim's content words, then the best of the
rest by that share (:func:`bound_sentences`): the most-covering sentence,
which the features read, is always kept."""

PAIR_MEMO = 20_000
"""(premise, claim) pairs whose probabilities :meth:`EntailmentModel.predict_pairs` keeps (least recently stored dropped first; about 12 bytes and two strings a pair)."""

PER_CANDIDATE = 2
"""Sentences every candidate passage keeps under :data:`SENTENCE_BUDGET`."""

FEATURE_NAMES = (
    "max_entails", "max_contradicts", "entails_at_best", "contradicts_at_best",
    "mean_top2_entails", "mean_top2_contradicts", "coverage", "logit_max_entails", "logit_max_contradicts",
    "max_coverage", "numbers_missing", "negation_mismatch",
)

__all__ = [
    "LABELS",
    "EntailmentJudge",
    "EntailmentModel",
    "SentenceScores",
    "abstract_first",
    "available",
    "bound_sentences",
    "features",
    "relevant",
    "split_sentences",
    "unavailable_reason",
]


def unavailable_reason() -> str | None:
    """Why the entailment tier cannot run here, or None when it can."""
    for mod, pkg in (("onnxruntime", "onnxruntime"), ("tokenizers", "tokenizers")):
        try:
            __import__(mod)
        except ImportError:
            return f"the entailment tier needs the Python package {pkg!r} (pip install {pkg})"
    for p in (MODEL_PATH, CONFIG_PATH, TOKENIZER_PATH):
        if not p.is_file():
            return f"the entailment model file {p} is missing from the installation"
    return None


def available() -> bool:
    """True when :class:`EntailmentModel` can be loaded."""
    return unavailable_reason() is None


def split_sentences(text: str, min_chars: int = 12) -> list[str]:
    """Cut a passage into sentences with the project's one splitter.

    :func:`citeproof.text.sentences.split_sentences` (syntok, abbreviation
    aware: *e.g.*, *et al.*, *Fig.*, initials), with fragments under
    ``min_chars`` characters glued to the sentence before, as the judge was
    calibrated (98.4% of SciFact training abstracts cut exactly as by the
    judge's former splitter; ``bench/sentence_splits.py``).

    Args:
        text: a passage.
        min_chars: fragments shorter than this are glued to the previous sentence.

    Returns:
        the sentences in order, whitespace-normalised; ``[]`` for blank text.
    """
    return _split_sentences(text, min_chars)


_WORD = re.compile(r"[a-z0-9]+(?:[.-][a-z0-9]+)*")
_STOP = frozenset(
    "a an the of in on at to for from by with and or but not no is are was were be been being this that these those it its "
    "as which who whom whose than then there their they we our us can may might will would should could has have had do does "
    "did into over under between among about also such more most less least very".split()
)


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def coverage(claim: str, text: str) -> float:
    """Share of the claim's content words (lower-cased, stop words removed) found in ``text``; in [0, 1]."""
    cw = _content_words(claim)
    if not cw:
        return 0.0
    return len(cw & _content_words(text)) / len(cw)


def bound_sentences(claim: str, groups: Sequence[Sequence[str]], budget: int = SENTENCE_BUDGET,
                    per_candidate: int = PER_CANDIDATE) -> list[list[str]]:
    """The sentences the judge reads when a claim's candidates hold more than ``budget``.

    Each sentence is ranked by :func:`coverage` of the claim (ties: the better
    candidate, then the earlier sentence). Every group first keeps its
    ``per_candidate`` best, then the best of the rest fill the budget.

    Args:
        claim: the claim text.
        groups: one list of sentences per candidate passage, best candidate first.
        budget: most sentences kept in all (>= 1).
        per_candidate: sentences each group keeps before the budget is shared.

    Returns:
        the groups, same length and order, each holding its kept sentences in
        their original order (unchanged when the total fits the budget).
    """
    flat = [(j, i, s) for j, g in enumerate(groups) for i, s in enumerate(g) if s.strip()]
    if len(flat) <= budget:
        return [[s for s in g if s.strip()] for g in groups]
    cw = _content_words(claim)

    def rank(item: tuple[int, int, str]) -> tuple[float, int, int]:
        j, i, s = item
        share = len(cw & _content_words(s)) / len(cw) if cw else 0.0
        return (-share, j, i)

    ranked = sorted(flat, key=rank)
    keep: set[tuple[int, int]] = set()
    taken = [0] * len(groups)
    for j, i, _s in ranked:
        if taken[j] < per_candidate and len(keep) < budget:
            keep.add((j, i))
            taken[j] += 1
    for j, i, _s in ranked:
        if len(keep) >= budget:
            break
        keep.add((j, i))
    return [[s for i, s in enumerate(g) if (j, i) in keep] for j, g in enumerate(groups)]


def pad_encodings(encs: Sequence) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Right-pad tokenizer encodings into model inputs.

    Args:
        encs: ``tokenizers`` encodings (``.ids``, ``.type_ids``) of one batch.

    Returns:
        ``(input_ids, attention_mask, token_type_ids)``, int64 arrays of shape
        ``(len(encs), longest)``; padding is 0. Shared by run time and training.
    """
    n = max(len(e.ids) for e in encs)
    ids = np.zeros((len(encs), n), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for r, e in enumerate(encs):
        k = len(e.ids)
        ids[r, :k] = e.ids
        mask[r, :k] = 1
        types[r, :k] = e.type_ids
    return ids, mask, types


class EntailmentModel:
    """The shipped cross-encoder on onnxruntime.

    Args:
        model_path: the ONNX file (default: the shipped int8 model).
        threads: onnxruntime intra-op threads (None: :func:`citeproof.onnx_session.default_threads`, 2 unless
            ``CITEPROOF_THREADS`` says otherwise).
        max_tokens: longest (premise, hypothesis) input in word pieces; the
            longer side is truncated first.
        batch_size: most pairs per inference call (also bounded by
            :data:`citeproof.onnx_session.MAX_BATCH_TOKENS` word pieces); one by default
            (:data:`citeproof.onnx_session.ROWS_PER_CALL`: a pair's answer does not depend on the others).

    Raises:
        RuntimeError: if the tier is not :func:`available`.
    """

    def __init__(self, model_path: Path | None = None, threads: int | None = None, max_tokens: int = 256, batch_size: int = ROWS_PER_CALL) -> None:
        why = unavailable_reason() if model_path is None else None
        if why:
            raise RuntimeError(why)
        from tokenizers import Tokenizer

        from citeproof.onnx_session import open_session

        self.model_path = Path(model_path or MODEL_PATH)
        self._session = open_session(self.model_path, threads)
        self._tok = Tokenizer.from_file(str(TOKENIZER_PATH))
        self._tok.enable_truncation(max_tokens)
        self._tok.no_padding()
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._memo: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()

    def predict_pairs(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Class probabilities for (premise, hypothesis) pairs.

        A pair scored before by this model (in this process, the last :data:`PAIR_MEMO` pairs) is not run again:
        on the scale job 207 of 2,363 pairs were asked twice (the claim's parts, the library search, issue 27).

        Args:
            pairs: ``(source text, claim text)`` tuples.

        Returns:
            float32 array of shape ``(len(pairs), 3)``; columns are
            :data:`LABELS` (entails, neutral, contradicts); rows sum to 1.
        """
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        if not pairs:
            return out
        from citeproof.onnx_session import token_batches

        keys = [(a or " ", b or " ") for a, b in pairs]
        todo: dict[tuple[str, str], list[int]] = {}
        with self._lock:
            for i, k in enumerate(keys):
                hit = self._memo.get(k)
                if hit is not None:
                    out[i] = hit
                else:
                    todo.setdefault(k, []).append(i)
        if not todo:
            return out
        new = list(todo)
        encs = self._tok.encode_batch(new)
        for idx in token_batches([len(e.ids) for e in encs], self.batch_size):
            ids, mask, types = pad_encodings([encs[i] for i in idx])
            with self._lock:
                (logits,) = self._session.run(["logits"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})
            z = logits - logits.max(1, keepdims=True)
            p = np.exp(z)
            p = p / p.sum(1, keepdims=True)
            with self._lock:
                for r, i in enumerate(idx):
                    out[todo[new[i]]] = p[r]
                    self._memo[new[i]] = p[r].copy()
                while len(self._memo) > PAIR_MEMO:
                    self._memo.popitem(last=False)
        return out


@dataclass
class SentenceScores:
    """Window-level scores of one claim against one source.

    Attributes:
        windows: the scored texts (sentences and adjacent-sentence pairs).
        candidate: for each window, the index of the candidate it came from.
        probs: ``(len(windows), 3)`` probabilities, columns :data:`LABELS`.
    """

    windows: list[str]
    candidate: list[int]
    probs: np.ndarray


def windows_of(text: str, pairs: bool = False, max_sentences: int = 40) -> list[str]:
    """Sentences of a passage plus, if ``pairs``, each two adjacent sentences joined."""
    sents = split_sentences(text)[:max_sentences] or ([text.strip()] if text.strip() else [])
    out = list(sents)
    if pairs:
        out += [sents[i] + " " + sents[i + 1] for i in range(len(sents) - 1)]
    return out


_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?")
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|without|cannot|lack|lacks|lacking|absence|fail|fails|failed)\b|n't\b", re.I)


def numbers_missing(claim: str, text: str) -> float:
    """Share of the numbers written in the claim that ``text`` does not contain; 0 when the claim has none."""
    nums = set(_NUMBER.findall(claim))
    if not nums:
        return 0.0
    have = set(_NUMBER.findall(text))
    return len(nums - have) / len(nums)


def negation_mismatch(claim: str, text: str) -> float:
    """1.0 when exactly one of claim and text contains a negation word (not, no, never, lack...), else 0.0."""
    return float(bool(_NEGATION.search(claim)) != bool(_NEGATION.search(text)))


def relevant(claim_text: str, windows: Sequence[str], relevant_at: float) -> np.ndarray:
    """Boolean mask of shape ``(len(windows),)``: the windows whose lexical coverage of the claim (:func:`coverage`)
    is at least ``relevant_at`` times the best window's (all True when ``relevant_at`` is 0)."""
    if relevant_at <= 0 or not len(windows):
        return np.ones(len(windows), dtype=bool)
    cov = np.array([coverage(claim_text, w) for w in windows])
    return cov >= relevant_at * cov.max() - 1e-9


def features(claim_text: str, scores: SentenceScores, relevant_at: float = 0.0) -> np.ndarray:
    """The stacking features of one claim x source, in :data:`FEATURE_NAMES` order.

    Args:
        claim_text: the claim.
        scores: window scores (may be empty).
        relevant_at: a window's P(contradicts) counts only when its lexical coverage of the claim is at least this
            share of the best window's coverage (0: every window counts). A sentence about something else that the
            network reads as contradicting ("... were not affected by cirrhosis" against a claim about 30 paired
            specimens) then cannot make a faithful claim *partial* (the calibration's ``relevant_at``).

    Returns:
        float64 array of shape ``(12,)``: max P(entails), max P(contradicts),
        P(entails) and P(contradicts) of the window with the highest
        ``max(P(entails), P(contradicts))`` (the *best* window), mean of the top
        two P(entails) and P(contradicts), lexical coverage of the claim by the
        best window, the logits of the two maxima, the highest coverage of any
        window, the share of claim numbers missing from the best window, and
        whether exactly one of claim and best window is negated.
    """
    p = scores.probs
    if len(p) == 0:
        return np.array([0, 0, 0, 0, 0, 0, 0, -9.0, -9.0, 0, 1.0, 0])
    e, c = p[:, 0], p[:, 2]
    c = np.where(relevant(claim_text, scores.windows, relevant_at), c, 0.0)
    best = int(np.argmax(np.maximum(e, c)))
    te = np.sort(e)[::-1][:2].mean()
    tc = np.sort(c)[::-1][:2].mean()

    def logit(x: float) -> float:
        x = min(max(x, 1e-4), 1 - 1e-4)
        return float(np.log(x / (1 - x)))

    bw = scores.windows[best]
    return np.array([e.max(), c.max(), e[best], c[best], te, tc, coverage(claim_text, bw),
                     logit(float(e.max())), logit(float(c.max())),
                     max(coverage(claim_text, w) for w in scores.windows),
                     numbers_missing(claim_text, bw), negation_mismatch(claim_text, bw)], dtype=np.float64)


def load_config(path: Path = CONFIG_PATH) -> dict:
    """The judge's calibration (``entailment.json``): classes, LR coefficients, ``partial_below``."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def decide(feats: np.ndarray, config: dict, signal: str | None = None) -> tuple[str, np.ndarray]:
    """Map features to a verdict with the calibrated multinomial LR.

    Args:
        feats: ``(12,)`` features from :func:`features`.
        config: from :func:`load_config`: ``classes`` (order of LR rows),
            ``mean``/``scale`` (standardisation), ``coef`` ``(3, 12)``,
            ``intercept`` ``(3,)``, ``partial_below``.
        signal: the citation's normalised signal, or None.

    Returns:
        ``(verdict value, class probabilities in config["classes"] order)``;
        the verdict is ``supported``, ``partial``, ``contradicted`` or ``unsupported``.
    """
    classes = list(config["classes"])
    x = (feats - np.asarray(config["mean"])) / np.asarray(config["scale"])
    z = np.asarray(config["coef"]) @ x + np.asarray(config["intercept"])
    sig = (signal or "").strip().lower()
    if sig in RELAXING_SIGNALS:
        z[classes.index("supported")] += SIGNAL_BONUS
    z = z - z.max()
    p = np.exp(z) / np.exp(z).sum()
    k = classes[int(np.argmax(p))]
    if k == "supported" and p[classes.index("supported")] < float(config.get("partial_below", 0.0)):
        k = "partial"
    return k, p


def abstract_first(claim_text: str, sc: SentenceScores, cands: Sequence[Evidence], best: int, verdict: str,
                   config: dict, signal: str | None = None) -> int:
    """The window to show as evidence: an abstract sentence that earns the same verdict alone, else ``best``.

    An abstract states a work's main findings, which is what a citation of the whole work vouches for (the
    premise of SciFact's abstract-level task, Wadden et al. 2020), so the abstract sentence that carries the
    claim is shown before a mid-paper passage with the same verdict (issue 28). Each abstract window, most
    entailing first, is judged alone (:func:`features` of that window, :func:`decide`); the first whose
    verdict equals ``verdict`` is taken. A locator's pages already keep other pages out of ``cands``.

    Args:
        claim_text: the claim.
        sc: the window scores of the claim's candidates.
        cands: the candidates ``sc.candidate`` indexes.
        best: the window the verdict rests on.
        verdict: that verdict (``supported`` or ``partial``).
        config: the decision layer (:func:`load_config`).
        signal: the citation's signal.

    Returns:
        An index into ``sc.windows``.
    """
    if cands[sc.candidate[best]].passage.section == "abstract":
        return best
    abstract = [k for k in range(len(sc.windows)) if cands[sc.candidate[k]].passage.section == "abstract"]
    for k in sorted(abstract, key=lambda k: -float(sc.probs[k, 0])):
        alone = SentenceScores([sc.windows[k]], [0], sc.probs[k:k + 1])
        if decide(features(claim_text, alone, config.get("relevant_at", 0.0)), config, signal)[0] == verdict:
            return k
    return best


class EntailmentJudge:
    """The entailment tier (``Tier.ENTAILMENT``), following :class:`citeproof.judges.base.Judge`.

    Args:
        model: a loaded :class:`EntailmentModel` to share (loaded if None).
        top_k: how many candidates (best first, as retrieval ordered them) are scored.
        config: calibration dict (default :func:`load_config`).

    Raises:
        RuntimeError: if the tier is not :func:`available`.
    """

    tier = Tier.ENTAILMENT

    def __init__(self, model: EntailmentModel | None = None, top_k: int = 5, config: dict | None = None) -> None:
        self.model = model or EntailmentModel()
        self.top_k = top_k
        self.config = config if config is not None else load_config()

    def predict_pairs(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """``(premise, claim)`` pairs -> ``(n, 3)`` probabilities (see :meth:`EntailmentModel.predict_pairs`)."""
        return self.model.predict_pairs(pairs)

    def score(self, claim_text: str, texts: Sequence[str]) -> SentenceScores:
        """Score a claim against the sentence windows of each text.

        Args:
            claim_text: the claim.
            texts: passages; each is cut by :func:`split_sentences`.

        Returns:
            :class:`SentenceScores` whose ``candidate`` indexes ``texts``.
        """
        return self.score_sentences(claim_text, [split_sentences(t) or [t] for t in texts])

    def score_sentences(self, claim_text: str, groups: Sequence[Sequence[str]], pairs: bool = False) -> SentenceScores:
        """Score a claim against already-split sentences.

        Args:
            claim_text: the claim.
            groups: one list of consecutive sentences per candidate.
            pairs: also score each two adjacent sentences of a group joined (off by
                default: it doubles the cost for no measured gain on SciFact).

        Returns:
            :class:`SentenceScores`: first every single sentence (group by
            group, in order), then the adjacent pairs; ``candidate`` holds the group index.
        """
        wins: list[str] = []
        cand: list[int] = []
        for j, sents in enumerate(groups):
            sents = [s for s in sents if s.strip()][:60]
            wins += sents
            cand += [j] * len(sents)
        if pairs:
            for j, sents in enumerate(groups):
                sents = [s for s in sents if s.strip()][:60]
                wins += [sents[i] + " " + sents[i + 1] for i in range(len(sents) - 1)]
                cand += [j] * max(0, len(sents) - 1)
        probs = self.model.predict_pairs([(w, claim_text) for w in wins])
        return SentenceScores(wins, cand, probs)

    def judge(self, claim: Claim, candidates: Sequence[Evidence], signal: str | None = None) -> Judgement:
        """Judge one claim against the top candidates from one source.

        Args:
            claim: the claim unit (``claim.text`` is scored).
            candidates: evidence from retrieval, best first, one source; may be empty.
            signal: the citation's signal (``see``, ``cf.``...), or None.

        Returns:
            a :class:`Judgement` with ``tier=Tier.ENTAILMENT``; ``score`` is
            P(entails) (or P(contradicts) for a contradiction) of the deciding
            window; ``evidence`` is the candidate holding that window, with
            ``scores["entails"]``, ``scores["contradicts"]`` and
            ``scores["neutral"]`` added; ``confidence`` is the calibrated
            probability of the verdict.
        """
        cands = list(candidates)[: self.top_k]
        if not cands:
            return Judgement(Verdict.UNSUPPORTED, 0.0, 0.5, None, Tier.ENTAILMENT,
                             ["No passage of the source was retrieved for this claim."])
        groups = bound_sentences(claim.text, [split_sentences(c.passage.text) or [c.passage.text] for c in cands])
        sc = self.score_sentences(claim.text, groups)
        if len(sc.probs) == 0:
            return Judgement(Verdict.UNSUPPORTED, 0.0, 0.5, None, Tier.ENTAILMENT, ["The retrieved passages are empty."])
        f = features(claim.text, sc, self.config.get("relevant_at", 0.0))
        verdict, p = decide(f, self.config, signal)
        classes = list(self.config["classes"])
        col = 2 if verdict == "contradicted" else 0
        gated = sc.probs[:, col] * relevant(claim.text, sc.windows, self.config.get("relevant_at", 0.0) if col == 2 else 0.0)
        best = int(np.argmax(gated)) if verdict in ("supported", "partial", "contradicted") else int(
            np.argmax(np.maximum(sc.probs[:, 0], sc.probs[:, 2])))
        if verdict in ("supported", "partial"):
            best = abstract_first(claim.text, sc, cands, best, verdict, self.config, signal)
        ev = cands[sc.candidate[best]]
        pe, pn, pc = (float(v) for v in sc.probs[best])
        ev.scores.update({"entails": round(pe, 4), "neutral": round(pn, 4), "contradicts": round(pc, 4)})
        ev.sentence = sc.windows[best]
        conf = float(p[classes.index("supported" if verdict == "partial" else verdict)])
        if verdict == "partial":
            conf = 1.0 - conf
        score = pc if verdict == "contradicted" else pe
        quote = sc.windows[best]
        if len(quote) > 300:
            quote = quote[:297] + "..."
        reason = {
            "supported": f"The source entails the claim (P(entails) {pe:.2f}): \u201c{quote}\u201d",
            "partial": f"The source supports the claim only in part (P(entails) {pe:.2f}): \u201c{quote}\u201d",
            "contradicted": f"The source contradicts the claim (P(contradicts) {pc:.2f}): \u201c{quote}\u201d",
            "unsupported": f"No retrieved sentence entails or contradicts the claim (best P(entails) {float(f[0]):.2f}, "
                           f"P(contradicts) {float(f[1]):.2f}).",
        }[verdict]
        if signal and (signal.strip().lower() in RELAXING_SIGNALS | CONTRARY_SIGNALS):
            reason += f" The signal \u201c{signal}\u201d was taken into account."
        # For ``unsupported`` the evidence is the closest window's passage, shown for review.
        cov = [coverage(claim.text, w) for w in sc.windows]
        r = int(np.argmax(cov))  # the window restating the claim best: the policy reads a contradiction elsewhere
        restating = (sc.windows[r], round(float(sc.probs[r, 0]), 4), round(float(sc.probs[r, 2]), 4), round(cov[r], 4))
        return Judgement(Verdict(verdict), float(score), min(max(conf, 0.0), 1.0), ev, Tier.ENTAILMENT, [reason],
                         restating=restating)
