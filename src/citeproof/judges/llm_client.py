"""The LLM tier's HTTP client: OpenAI-compatible chat completions with retries, a response cache and a budget.

Posts ``/chat/completions`` over httpx with ``response_format``
``{"type": "json_object"}`` where the server accepts it (a 400/422 naming
``response_format`` turns it off for the run); retries a 429, a 5xx, a timeout
or a dropped connection with exponential back-off (``Retry-After`` honoured,
30 s cap); caches raw completions in SQLite (``llm.sqlite`` in the cache
folder) by (model, SHA-256 of the request body) so a re-run costs nothing;
counts tokens and cost, and checks a budget before each call.

An answer is untrusted input (issue 31): a reply body over
:data:`MAX_REPLY_BYTES` or nested deeper than :data:`MAX_JSON_DEPTH` is
refused (:class:`ReplyRefused`) before it is parsed; a reply whose ``usage``
is missing, negative or not a number is counted as the worst case (the
prompt's estimated tokens plus ``max_tokens``) against the budget; each
request has ``timeout_s`` from when it is sent, and the tier as a whole has
``deadline_s`` after which no request is sent (:class:`DeadlineExceeded`).

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

__all__ = ["LLMConfig", "LLMClient", "LLMError", "BudgetExceeded", "DeadlineExceeded", "ReplyRefused", "ChatResult", "Accounting",
           "CHARS_PER_TOKEN", "MAX_REPLY_BYTES", "MAX_JSON_DEPTH", "DEFAULT_TIMEOUT_S", "DEFAULT_DEADLINE_S", "json_depth"]

CHARS_PER_TOKEN = 4
"""Rough characters per token, for budget estimates before the first call (OpenAI's rule of thumb)."""

MAX_REPLY_BYTES = 64 * 1024
"""Largest reply body read from the endpoint (bytes). A verdict object with a quote capped at
:data:`citeproof.judges.llm.QUOTE_MAX_CHARS` characters is under 4 KB; 64 KB leaves room for any
server's envelope (logprobs off) and stops a hostile or runaway reply before it is parsed."""

MAX_JSON_DEPTH = 32
"""Deepest JSON nesting accepted in a reply (the OpenAI envelope is 4 deep, the verdict object 1).
Python's ``json`` raises RecursionError, not ValueError, past about 1,000 levels; the check runs first."""

DEFAULT_TIMEOUT_S = 120.0
"""Seconds one request may take from when it is sent (``--llm-timeout``, ``$CITEPROOF_LLM_TIMEOUT``)."""

DEFAULT_DEADLINE_S = 3600.0
"""Seconds the whole LLM tier may run in one check (``--llm-deadline``): past it no request is sent and the
offline verdicts stand (flag ``llm_deadline``). One hour: a 100-citation draft at two calls a citation and
18 s a call (a 7-8B model on a laptop GPU, or the issue's 10-50 s on 2 CPU cores at concurrency 1 for about
40 citations)."""


class LLMError(RuntimeError):
    """The endpoint failed after its retries, or never answered with valid JSON."""


class BudgetExceeded(LLMError):
    """A call would spend more than ``--llm-max-cost``; it was not made."""


class DeadlineExceeded(BudgetExceeded):
    """The tier's overall deadline (``--llm-deadline``) has passed; no more requests are sent.

    A kind of :class:`BudgetExceeded` (a budget of time): callers that stop on the budget stop on it too."""


class ReplyRefused(LLMError):
    """The endpoint's reply broke a limit on untrusted input (size, JSON depth); it was not parsed."""


def json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> int:
    """Deepest bracket nesting (``[`` / ``{``) of ``text`` outside JSON strings, counted up to ``limit + 1``.

    Linear in ``len(text)`` and never recursive, so it is safe on any input (``"[" * 100_000`` gives ``limit + 1``).
    """
    depth = most = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > most:
                most = depth
                if most > limit:
                    return most
        elif ch in "]}":
            depth = max(0, depth - 1)
    return most


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
        timeout_s: seconds one HTTP request may take, counted from when it is sent (waiting for a free
            slot of ``concurrency`` does not count; a server that queues requests does).
        deadline_s: seconds the tier may run in all, from the client's creation; None: no deadline.
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
    timeout_s: float = DEFAULT_TIMEOUT_S
    deadline_s: float | None = DEFAULT_DEADLINE_S
    retries: int = 3
    concurrency: int = 4
    max_tokens: int = 400
    context_chars: int = 12000
    cache_dir: Path | None = None
    backoff_s: float = 1.0


@dataclass
class ChatResult:
    """One chat completion: the text and what it cost (0 tokens when ``cached``).

    ``usage_estimated`` is True when the server's ``usage`` was missing or not a count of 0 or more:
    the tokens are then the worst case (estimated prompt tokens, ``max_tokens`` of completion)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    model: str = ""
    usage_estimated: bool = False


@dataclass
class Accounting:
    """Tokens and cost spent by one client (cache hits spend nothing)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    calls: int = 0
    cached_calls: int = 0
    budget_stopped: bool = False
    deadline_stopped: bool = False
    usage_estimated: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (``cost`` rounded to 6 decimals); ``usage_estimated`` counts calls whose usage was counted as the worst case."""
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens, "cost": round(self.cost, 6),
                "calls": self.calls, "cached_calls": self.cached_calls, "budget_stopped": self.budget_stopped,
                "deadline_stopped": self.deadline_stopped, "usage_estimated": self.usage_estimated}


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
        # pool=None: waiting for a pooled connection is no part of a request's time (timeout_s counts from sending)
        timeout = httpx.Timeout(config.timeout_s, pool=None)
        self.http = httpx.Client(base_url=config.url.rstrip("/") + "/", headers=headers, timeout=timeout, transport=transport)
        self._started = time.monotonic()
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
        est_prompt = self.estimate_prompt_tokens(messages)
        worst = self.cost_of(est_prompt, self.config.max_tokens)
        if self.account.cost + self._in_flight + worst > self.config.max_cost:
            self.account.budget_stopped = True
            raise BudgetExceeded(
                f"the LLM budget --llm-max-cost {self.config.max_cost:g} would be passed by the next call "
                f"(spent {self.account.cost:.4f}, next call up to {self.cost_of(est_prompt, self.config.max_tokens):.4f}); stopped before it"
            )
        self._in_flight += worst
        return worst

    def estimate_prompt_tokens(self, messages: list[dict]) -> int:
        """The prompt's tokens, estimated from its characters at the highest tokens per character seen so far
        (at least 1 per :data:`CHARS_PER_TOKEN`), plus 16 for the chat template."""
        chars = sum(len(m["content"]) for m in messages)
        per_char = max(1.0 / CHARS_PER_TOKEN, self._seen_tokens / self._seen_chars if self._seen_chars else 0.0)
        return int(chars * per_char) + 16

    def remaining_s(self) -> float | None:
        """Seconds left before the tier's deadline (None: no deadline; 0 or less: passed)."""
        if self.config.deadline_s is None:
            return None
        return self.config.deadline_s - (time.monotonic() - self._started)

    def _check_deadline(self) -> None:
        left = self.remaining_s()
        if left is not None and left <= 0:
            self.account.deadline_stopped = True
            raise DeadlineExceeded(f"the LLM tier's deadline --llm-deadline {self.config.deadline_s:g} s has passed; no more requests are sent")

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
        self._check_deadline()
        # Under a budget, the first call goes alone: until the server has reported tokens, prompt
        # tokens are estimated from characters, and several underestimated calls at once could pass it.
        calibrating = self._calibrating if self.config.max_cost is not None and not self._seen_chars else nullcontext()
        with calibrating:
            with self._lock:
                reserved = self._reserve(messages)
            r: ChatResult | None = None
            try:
                with self._slots:
                    self._check_deadline()  # the wait for a slot may have used it up
                    r = self._post(body, schema, messages)
            finally:
                with self._lock:
                    self._in_flight -= reserved
                    self._note_tokens(messages, r if r is not None and not r.usage_estimated else None)
        with self._lock:
            self.account.calls += 1
            self.account.prompt_tokens += r.prompt_tokens
            self.account.completion_tokens += r.completion_tokens
            self.account.cost += self.cost_of(r.prompt_tokens, r.completion_tokens)
            self.account.usage_estimated += int(r.usage_estimated)
        self.cache.put(model, key, r)
        return r

    def ask_json(self, messages: list[dict], model: str | None, parse, schema: dict | None = None, repair_note: str = "",
                 repair_parse=None, repair_schema: dict | None = None) -> tuple[Any, int, int, bool, str]:
        """A chat call whose reply must pass ``parse``; one repair retry on a malformed reply.

        Args:
            messages: the chat messages.
            model: the model (None: ``config.model``).
            parse: ``text -> value``, raising ValueError with a message the model can act on.
            schema: JSON Schema of the reply (see :meth:`chat`).
            repair_note: added to the repair request (e.g. the claim the answer must restate).
            repair_parse, repair_schema: what the repaired reply must pass instead (default: ``parse``, ``schema``).

        Returns:
            ``(value or None, prompt_tokens, completion_tokens, cached, error)``;
            ``error`` is '' when a value came back.

        Raises:
            BudgetExceeded: the budget (or the deadline) stops a call.
            ReplyRefused: a reply broke the size or depth limit (no repair is asked).
        """
        pt = ct = 0
        cached = False
        err = ""
        for attempt in range(2):
            try:
                r = self.chat(messages, model, schema if attempt == 0 else (repair_schema or schema))
            except (BudgetExceeded, ReplyRefused):
                raise
            except LLMError as exc:
                return None, pt, ct, cached, str(exc)
            pt, ct, cached = pt + r.prompt_tokens, ct + r.completion_tokens, r.cached
            try:
                return (parse if attempt == 0 else (repair_parse or parse))(r.text), pt, ct, cached, ""
            except ValueError as exc:
                err = f"reply not valid for the contract: {exc}"
                messages = messages + [
                    {"role": "assistant", "content": r.text[:2000]},
                    {"role": "user", "content": f"That reply is not valid: {exc}. Answer again with only the JSON object the instructions describe"
                                                + (f". {repair_note}" if repair_note else ".")},
                ]
        return None, pt, ct, cached, err + " (also after one repair request)"

    def _response_format(self, schema: dict | None) -> dict | None:
        if self.json_mode == "schema" and schema is not None:
            return {"type": "json_schema", "json_schema": {"name": "answer", "strict": True, "schema": schema}}
        if self.json_mode in ("schema", "object"):
            return {"type": "json_object"}
        return None

    def _timeout_message(self, attempts: int) -> str:
        c = self.config
        return (f"{c.url}: no answer within {c.timeout_s:g} s of sending the request, after {attempts} attempts; a server with fewer "
                f"parallel slots than --llm-concurrency {c.concurrency} (llama-server -np, Ollama OLLAMA_NUM_PARALLEL) queues the rest "
                f"and they time out waiting: lower --llm-concurrency to its slot count, or raise --llm-timeout (now {c.timeout_s:g} s)")

    def _send(self, send: dict[str, Any]) -> tuple[int, bytes, httpx.Headers]:
        """POST ``send``; ``(status, body, headers)`` with the body read up to :data:`MAX_REPLY_BYTES`.

        The request's time counts from here: ``timeout_s`` (or what is left of the deadline, if less)
        between bytes, and in all while the body streams in.

        Raises:
            ReplyRefused: the body passed :data:`MAX_REPLY_BYTES`.
            httpx.TimeoutException, httpx.TransportError: as httpx raises them.
        """
        limit = self.config.timeout_s
        left = self.remaining_s()
        if left is not None:
            limit = max(0.001, min(limit, left))
        t0 = time.monotonic()
        with self.http.stream("POST", "chat/completions", json=send, timeout=httpx.Timeout(limit, pool=None)) as resp:
            chunks: list[bytes] = []
            size = 0
            for chunk in resp.iter_bytes():
                size += len(chunk)
                if size > MAX_REPLY_BYTES:
                    raise ReplyRefused(f"{self.config.url}: the reply is larger than {MAX_REPLY_BYTES // 1024} KB; refused unread")
                chunks.append(chunk)
                if time.monotonic() - t0 > limit:  # a server trickling bytes cannot hold the request past its time
                    raise httpx.ReadTimeout(f"reply not complete within {limit:g} s")
            return resp.status_code, b"".join(chunks), resp.headers

    def _post(self, body: dict[str, Any], schema: dict | None = None, messages: list[dict] | None = None) -> ChatResult:
        attempt, delay = 0, self.config.backoff_s
        while True:
            fmt = self._response_format(schema)
            send = dict(body, response_format=fmt) if fmt else body
            try:
                status, raw, headers = self._send(send)
            except httpx.TimeoutException as exc:
                if self.remaining_s() is not None and self.remaining_s() <= 0:  # type: ignore[operator]
                    self.account.deadline_stopped = True
                    raise DeadlineExceeded(f"the LLM tier's deadline --llm-deadline {self.config.deadline_s:g} s passed during a request; "
                                           "no more requests are sent") from exc
                if attempt >= self.config.retries:
                    raise LLMError(self._timeout_message(attempt + 1)) from exc
            except httpx.TransportError as exc:
                if attempt >= self.config.retries:
                    # An endpoint that cannot be reached at all stays so for this run: later calls fail at once.
                    self.unreachable = f"{self.config.url}: cannot reach the LLM endpoint ({type(exc).__name__}: {exc}); is the server running?"
                    raise LLMError(self.unreachable) from exc
            else:
                text = raw.decode("utf-8", "replace")
                if status == 200:
                    return self._result(text, body["model"], messages or body["messages"])
                if status in (400, 422) and fmt and ("response_format" in text or "json_schema" in text):
                    # a server without this JSON mode: try the next one down; at the end, strict parse + repair
                    self.json_mode = "object" if fmt["type"] == "json_schema" else "none"
                    continue
                if status != 429 and status < 500:
                    raise LLMError(f"{self.config.url}: HTTP {status}: {text[:300]}")
                if attempt >= self.config.retries:
                    raise LLMError(f"{self.config.url}: HTTP {status} after {attempt + 1} attempts: {text[:200]}")
                ra = headers.get("retry-after", "")
                if ra.replace(".", "", 1).isdigit():
                    delay = max(delay, min(float(ra), 30.0))
            left = self.remaining_s()
            if left is not None and left <= delay:
                self.account.deadline_stopped = True
                raise DeadlineExceeded(f"the LLM tier's deadline --llm-deadline {self.config.deadline_s:g} s leaves no time for a retry; no more requests are sent")
            time.sleep(delay)
            attempt += 1
            delay = min(delay * 2, 30.0)

    def _result(self, text: str, model: str, messages: list[dict]) -> ChatResult:
        """The chat-completions envelope ``text`` read; usage that is missing, negative or no number counts as the worst case.

        Raises:
            ReplyRefused: nested deeper than :data:`MAX_JSON_DEPTH`.
            LLMError: not an OpenAI chat-completions response.
        """
        if json_depth(text) > MAX_JSON_DEPTH:
            raise ReplyRefused(f"{self.config.url}: the reply nests JSON deeper than {MAX_JSON_DEPTH} levels; refused unparsed")
        try:
            data = json.loads(text)
            content = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"{self.config.url}: not an OpenAI chat-completions response: {text[:200]}") from exc
        if not isinstance(content, str):
            raise LLMError(f"{self.config.url}: the reply's message content is not text: {text[:200]}")
        if json_depth(content) > MAX_JSON_DEPTH:
            raise ReplyRefused(f"{self.config.url}: the answer nests JSON deeper than {MAX_JSON_DEPTH} levels; refused unparsed")
        usage = data.get("usage") if isinstance(data, dict) else None
        usage = usage if isinstance(usage, dict) else {}

        def count(key: str) -> int | None:
            v = usage.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v < 0 or v == float("inf"):
                return None
            return int(v)

        pt, ct = count("prompt_tokens"), count("completion_tokens")
        estimated = pt is None or ct is None
        if estimated:  # one count that cannot be trusted makes neither trusted
            pt, ct = self.estimate_prompt_tokens(messages), self.config.max_tokens
        return ChatResult(content, pt, ct, False, model, usage_estimated=estimated)
