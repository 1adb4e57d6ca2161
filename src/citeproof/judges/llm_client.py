"""The LLM tier's HTTP client: OpenAI-compatible chat completions with retries, a response cache and a budget.

Posts ``/chat/completions`` over httpx with ``response_format``
``{"type": "json_object"}`` where the server accepts it (a 400/422 naming
``response_format`` turns it off for the run); retries a 429, a 5xx, a timeout
or a dropped connection with exponential back-off (``Retry-After`` honoured,
30 s cap); caches raw completions in SQLite (``llm.sqlite`` in the cache
folder) by (model, SHA-256 of the request body) so a re-run costs nothing;
counts tokens and cost, and checks a budget before each call.

Environment: ``CITEPROOF_LLM_API_KEY`` (bearer key; optional for local servers).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

__all__ = ["LLMConfig", "LLMClient", "LLMError", "BudgetExceeded", "ChatResult", "Accounting", "CHARS_PER_TOKEN"]

CHARS_PER_TOKEN = 4
"""Rough characters per token, for budget estimates before the first call (OpenAI's rule of thumb)."""


class LLMError(RuntimeError):
    """The endpoint failed after its retries, or never answered with valid JSON."""


class BudgetExceeded(LLMError):
    """A call would spend more than ``--llm-max-cost``; it was not made."""


@dataclass
class LLMConfig:
    """How to reach the model and what to spend.

    Attributes:
        url: base URL of an OpenAI-compatible API, up to and including ``/v1``.
        model: model name as the server knows it.
        second_model: model for the second opinion (None: ``model`` with the whole source).
        api_key: bearer key (default: ``$CITEPROOF_LLM_API_KEY``); None for local servers.
        max_cost: budget in the currency of the prices (None: unlimited).
        price_prompt, price_completion: price per million prompt / completion
            tokens (None: cost not computed; ``max_cost`` then counts nothing).
        timeout_s: seconds per HTTP request.
        retries: extra attempts after a 429, a 5xx or a timeout.
        concurrency: requests in flight at once, at most.
        max_tokens: completion tokens asked for per call.
        context_chars: characters of source text the second opinion sends at most.
        cache_dir: folder of the response cache (``llm.sqlite``); None: no cache.
        backoff_s: first back-off delay; doubles per retry, capped at 30 s.
    """

    url: str
    model: str
    second_model: str | None = None
    api_key: str | None = field(default_factory=lambda: os.environ.get("CITEPROOF_LLM_API_KEY") or None)
    max_cost: float | None = None
    price_prompt: float | None = None
    price_completion: float | None = None
    timeout_s: float = 120.0
    retries: int = 3
    concurrency: int = 4
    max_tokens: int = 400
    context_chars: int = 12000
    cache_dir: Path | None = None
    backoff_s: float = 1.0


@dataclass
class ChatResult:
    """One chat completion: the text and what it cost (0 tokens when ``cached``)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    model: str = ""


@dataclass
class Accounting:
    """Tokens and cost spent by one client (cache hits spend nothing)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    calls: int = 0
    cached_calls: int = 0
    budget_stopped: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (``cost`` rounded to 6 decimals)."""
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens, "cost": round(self.cost, 6),
                "calls": self.calls, "cached_calls": self.cached_calls, "budget_stopped": self.budget_stopped}


class _ResponseCache:
    """SQLite table of raw completions keyed by (model, SHA-256 of the request body)."""

    def __init__(self, folder: Path | None) -> None:
        self.db: sqlite3.Connection | None = None
        self.lock = threading.Lock()
        if folder is None:
            return
        folder.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(folder / "llm.sqlite"), check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS llm (model TEXT, key TEXT, text TEXT, prompt_tokens INT, completion_tokens INT, PRIMARY KEY (model, key))")
        self.db.commit()

    def get(self, model: str, key: str) -> ChatResult | None:
        if self.db is None:
            return None
        with self.lock:
            row = self.db.execute("SELECT text FROM llm WHERE model=? AND key=?", (model, key)).fetchone()
        # A cache hit spends nothing: its tokens count 0 (the stored counts stay in the table).
        return ChatResult(row[0], 0, 0, cached=True, model=model) if row else None

    def put(self, model: str, key: str, r: ChatResult) -> None:
        if self.db is None:
            return
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO llm VALUES (?,?,?,?,?)", (model, key, r.text, r.prompt_tokens, r.completion_tokens))
            self.db.commit()


class LLMClient:
    """OpenAI-compatible chat completions with retries, a response cache and a budget.

    Args:
        config: see :class:`LLMConfig`.
        transport: an httpx transport (tests); None: the network.
    """

    def __init__(self, config: LLMConfig, transport: httpx.BaseTransport | None = None) -> None:
        self.config = config
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        self.http = httpx.Client(base_url=config.url.rstrip("/") + "/", headers=headers, timeout=config.timeout_s, transport=transport)
        self.cache = _ResponseCache(config.cache_dir)
        self.account = Accounting()
        self.json_mode = "schema"  # "schema" -> "object" -> "none" as the server rejects each response_format
        self._slots = threading.BoundedSemaphore(max(1, config.concurrency))
        self._lock = threading.Lock()
        self._in_flight = 0.0  # worst-case cost reserved by calls not yet counted (see _reserve)
        self._calibrating = threading.Lock()  # under a budget, the first call goes alone (see chat)
        self._seen_chars = 0
        self.unreachable: str | None = None  # set when the endpoint cannot be reached after the retries
        self._seen_tokens = 0

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.http.close()

    def cost_of(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Cost of a call at the configured prices (0 when none are configured)."""
        c = self.config
        return (prompt_tokens * (c.price_prompt or 0.0) + completion_tokens * (c.price_completion or 0.0)) / 1e6

    def _reserve(self, messages: list[dict]) -> float:
        """Reserve the call's worst-case cost; raise :class:`BudgetExceeded` when it would pass the budget.

        Calls in flight hold their reservation until they are counted, so
        ``concurrency`` requests at once cannot together pass the budget.
        Returns the amount reserved (release it with the call's real cost).

        The worst case is the prompt's estimated tokens plus ``max_tokens``
        of completion. Prompt tokens are estimated from characters at the
        highest tokens-per-character the server has reported so far in this
        run (at least 1 per :data:`CHARS_PER_TOKEN` characters), so after the
        first call the estimate follows the model's own tokenizer.
        """
        if self.config.max_cost is None:
            return 0.0
        chars = sum(len(m["content"]) for m in messages)
        per_char = max(1.0 / CHARS_PER_TOKEN, self._seen_tokens / self._seen_chars if self._seen_chars else 0.0)
        est_prompt = int(chars * per_char) + 16
        worst = self.cost_of(est_prompt, self.config.max_tokens)
        if self.account.cost + self._in_flight + worst > self.config.max_cost:
            self.account.budget_stopped = True
            raise BudgetExceeded(
                f"the LLM budget --llm-max-cost {self.config.max_cost:g} would be passed by the next call "
                f"(spent {self.account.cost:.4f}, next call up to {self.cost_of(est_prompt, self.config.max_tokens):.4f}); stopped before it"
            )
        self._in_flight += worst
        return worst

    def _note_tokens(self, messages: list[dict], r: ChatResult | None) -> None:
        """Keep the highest prompt tokens per character the server has reported (for :meth:`_reserve`); hold ``_lock``."""
        chars = sum(len(m["content"]) for m in messages)
        if r is not None and r.prompt_tokens and chars and r.prompt_tokens / chars > (self._seen_tokens / self._seen_chars if self._seen_chars else 0.0):
            self._seen_chars, self._seen_tokens = chars, r.prompt_tokens

    def chat(self, messages: list[dict], model: str | None = None, schema: dict | None = None) -> ChatResult:
        """One chat completion.

        Args:
            messages: OpenAI-style ``[{"role", "content"}]``.
            model: the model (default: ``config.model``).
            schema: JSON Schema of the reply, sent as ``response_format``
                ``{"type": "json_schema", ...}`` (llama.cpp and vLLM then
                constrain decoding to it); a server that rejects it is asked
                with ``{"type": "json_object"}``, then with no
                ``response_format`` (the caller's strict parse remains).

        Returns:
            The :class:`ChatResult` (from the cache when this exact request was made before).

        Raises:
            BudgetExceeded: the call could pass ``max_cost``; nothing was sent.
            LLMError: the server kept failing (429/5xx/timeouts past ``retries``) or answered 4xx.
        """
        model = model or self.config.model
        body: dict[str, Any] = {"model": model, "messages": messages, "temperature": 0, "max_tokens": self.config.max_tokens}
        key = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        hit = self.cache.get(model, key)
        if hit is not None:
            with self._lock:
                self.account.cached_calls += 1
            return hit
        if self.unreachable:
            raise LLMError(self.unreachable)
        # Under a budget, the first call goes alone: until the server has reported tokens, prompt
        # tokens are estimated from characters, and several underestimated calls at once could pass it.
        calibrating = self._calibrating if self.config.max_cost is not None and not self._seen_chars else nullcontext()
        with calibrating:
            with self._lock:
                reserved = self._reserve(messages)
            r: ChatResult | None = None
            try:
                with self._slots:
                    r = self._post(body, schema)
            finally:
                with self._lock:
                    self._in_flight -= reserved
                    self._note_tokens(messages, r)
        with self._lock:
            self.account.calls += 1
            self.account.prompt_tokens += r.prompt_tokens
            self.account.completion_tokens += r.completion_tokens
            self.account.cost += self.cost_of(r.prompt_tokens, r.completion_tokens)
        self.cache.put(model, key, r)
        return r

    def ask_json(self, messages: list[dict], model: str | None, parse, schema: dict | None = None) -> tuple[Any, int, int, bool, str]:
        """A chat call whose reply must pass ``parse``; one repair retry on a malformed reply.

        Args:
            messages: the chat messages.
            model: the model (None: ``config.model``).
            parse: ``text -> value``, raising ValueError with a message the model can act on.
            schema: JSON Schema of the reply (see :meth:`chat`).

        Returns:
            ``(value or None, prompt_tokens, completion_tokens, cached, error)``;
            ``error`` is '' when a value came back.

        Raises:
            BudgetExceeded: the budget stops a call.
        """
        pt = ct = 0
        cached = False
        for _attempt in range(2):
            try:
                r = self.chat(messages, model, schema)
            except BudgetExceeded:
                raise
            except LLMError as exc:
                return None, pt, ct, cached, str(exc)
            pt, ct, cached = pt + r.prompt_tokens, ct + r.completion_tokens, r.cached
            try:
                return parse(r.text), pt, ct, cached, ""
            except ValueError as exc:
                err = f"reply not valid for the contract: {exc}"
                messages = messages + [
                    {"role": "assistant", "content": r.text[:2000]},
                    {"role": "user", "content": f"That reply is not valid: {exc}. Answer again with only the JSON object the instructions describe."},
                ]
        return None, pt, ct, cached, err + " (also after one repair request)"

    def _response_format(self, schema: dict | None) -> dict | None:
        if self.json_mode == "schema" and schema is not None:
            return {"type": "json_schema", "json_schema": {"name": "answer", "strict": True, "schema": schema}}
        if self.json_mode in ("schema", "object"):
            return {"type": "json_object"}
        return None

    def _post(self, body: dict[str, Any], schema: dict | None = None) -> ChatResult:
        attempt, delay = 0, self.config.backoff_s
        while True:
            fmt = self._response_format(schema)
            send = dict(body, response_format=fmt) if fmt else body
            try:
                resp = self.http.post("chat/completions", json=send)
            except httpx.TimeoutException as exc:
                if attempt >= self.config.retries:
                    raise LLMError(f"{self.config.url}: no answer within {self.config.timeout_s:g} s after {attempt + 1} attempts") from exc
            except httpx.TransportError as exc:
                if attempt >= self.config.retries:
                    # An endpoint that cannot be reached at all stays so for this run: later calls fail at once.
                    self.unreachable = f"{self.config.url}: cannot reach the LLM endpoint ({type(exc).__name__}: {exc}); is the server running?"
                    raise LLMError(self.unreachable) from exc
            else:
                if resp.status_code == 200:
                    return self._result(resp, body["model"])
                if resp.status_code in (400, 422) and fmt and ("response_format" in resp.text or "json_schema" in resp.text):
                    # a server without this JSON mode: try the next one down; at the end, strict parse + repair
                    self.json_mode = "object" if fmt["type"] == "json_schema" else "none"
                    continue
                if resp.status_code != 429 and resp.status_code < 500:
                    raise LLMError(f"{self.config.url}: HTTP {resp.status_code}: {resp.text[:300]}")
                if attempt >= self.config.retries:
                    raise LLMError(f"{self.config.url}: HTTP {resp.status_code} after {attempt + 1} attempts: {resp.text[:200]}")
                ra = resp.headers.get("retry-after", "")
                if ra.replace(".", "", 1).isdigit():
                    delay = max(delay, min(float(ra), 30.0))
            time.sleep(delay)
            attempt += 1
            delay = min(delay * 2, 30.0)

    def _result(self, resp: httpx.Response, model: str) -> ChatResult:
        try:
            data = resp.json()
            text = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"{self.config.url}: not an OpenAI chat-completions response: {resp.text[:200]}") from exc
        usage = data.get("usage") or {}
        return ChatResult(text, int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0), False, model)
