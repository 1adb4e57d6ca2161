"""Talks, podcasts and videos: subtitle and transcript files -> passages located by time.

Read (issue 26, part 6):

* SubRip ``.srt``: numbered cues, ``00:01:02,500 --> 00:01:05,000``, text
  lines; ``<i>``/``<font>`` tags and ``{\\an8}`` codes dropped;
* WebVTT ``.vtt`` (W3C WebVTT): the ``WEBVTT`` header, ``NOTE``, ``STYLE``
  and ``REGION`` blocks skipped, cue identifiers and settings ignored,
  ``<v Speaker>`` voice spans, ``<c>`` classes and karaoke timestamps
  dropped; YouTube's rolling captions (each cue repeating the line before)
  are read once;
* a transcript ``.txt`` whose lines carry times: ``[00:12:34] text``,
  ``12:34 text``, ``(1:02:03) Speaker: text``, a time alone on a line with
  the text below it (YouTube's "Show transcript" copied out), or a speaker
  header with a time (``Jane Doe (00:05:10):``, Rev/Otter exports). It is
  taken as a transcript when at least :data:`MIN_TIMED_LINES` lines, and at
  least a quarter of its non-blank lines, start with (or are) a time, in
  non-decreasing order; otherwise it is plain text.

Consecutive cues are joined into passages of about a sentence or more: a
passage closes once it holds :data:`MIN_CHARS` characters and ends a
sentence, at :data:`MAX_CHARS`, at a change of speaker, or at a pause over
:data:`MAX_GAP_S` seconds. Each passage carries ``time_start``/``time_end``
(seconds from the recording's start: its first cue's start, its last cue's
end; a transcript line ends where the next begins) and ``line``, the line
(from 1) of its first cue in the file. There are no pages.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from citeproof.model import Passage
from citeproof.sources.parsed import ParsedSource
from citeproof.sources.text import line_runs

__all__ = ["TRANSCRIPT_PARSER_VERSION", "TRANSCRIPT_TYPES", "Cue", "parse_srt", "parse_vtt", "parse_timed_text",
           "looks_like_transcript", "cues_to_passages", "parse_transcript", "passages_at", "TIME_BEFORE_S", "TIME_AFTER_S", "MIN_CHARS", "MAX_CHARS", "MAX_GAP_S", "MIN_TIMED_LINES"]

TRANSCRIPT_PARSER_VERSION = "transcript-1"
"""Bumped whenever passages would come out differently; part of the cache key."""

TRANSCRIPT_TYPES = {".srt": "application/x-subrip", ".vtt": "text/vtt"}
"""Subtitle suffix -> media type. A timed ``.txt`` becomes ``text/x-transcript`` when :func:`looks_like_transcript`."""

MIN_CHARS = 150
"""A passage closes at the first sentence end after this many characters."""

MAX_CHARS = 600
"""A passage closes at this many characters even without a sentence end (auto-captions have no punctuation)."""

MAX_GAP_S = 10.0
"""A pause between cues longer than this (seconds) closes the passage."""

MIN_TIMED_LINES = 3
"""A ``.txt`` needs at least this many timed lines to be read as a transcript."""

TIME_BEFORE_S = 5.0
"""A time locator also takes in speech starting this many seconds before it (a cue may begin just before the cited moment)."""

TIME_AFTER_S = 60.0
"""A single time (``12:34``) names the statement spoken from then on: passages starting within this many seconds after it."""


@dataclass(frozen=True)
class Cue:
    """One timed piece of speech: ``start``/``end`` in seconds, its text, the file line (from 1), the speaker or ''."""

    start: float
    end: float
    text: str
    line: int
    speaker: str = ""


_STAMP = r"(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?"
_TIMING = re.compile(r"^\s*(" + _STAMP + r")\s*-->\s*(" + _STAMP + r")")
_TAG = re.compile(r"<[^>]*>|\{\\[^}]*\}")
_VOICE = re.compile(r"<v(?:\.[\w.-]+)?\s+([^>]+)>")


def _seconds(h: str | None, m: str, s: str, frac: str | None) -> float:
    return int(h or 0) * 3600 + int(m) * 60 + int(s) + (int(frac.ljust(3, "0")[:3]) / 1000 if frac else 0.0)


def _clean(line: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(_TAG.sub("", line))).strip()


def _blocks(text: str, vtt: bool = False) -> list[tuple[int, list[str]]]:
    """``(first line from 1, lines)`` for each run of non-blank lines (WebVTT: non-empty lines; a line of spaces,
    which YouTube's captions hold, is part of its cue)."""
    return line_runs(text.splitlines(), empty_only=vtt)


def _timed_blocks(text: str, vtt: bool) -> list[Cue]:
    cues: list[Cue] = []
    last_line = ""
    for first, lines in _blocks(text, vtt):
        at = next((k for k, ln in enumerate(lines) if _TIMING.match(ln)), None)
        if at is None or (vtt and lines[0].strip().split(" ", 1)[0] in ("WEBVTT", "NOTE", "STYLE", "REGION") and at == 0 and "-->" not in lines[0]):
            continue
        m = _TIMING.match(lines[at])
        g = m.groups()
        start, end = _seconds(g[1], g[2], g[3], g[4]), _seconds(g[6], g[7], g[8], g[9])
        speaker = ""
        words: list[str] = []
        for raw in lines[at + 1:]:
            v = _VOICE.search(raw)
            if v:
                speaker = v.group(1).strip()
            ln = _clean(raw)
            if not ln or ln == last_line:  # rolling captions repeat the line before
                continue
            words.append(ln)
            last_line = ln
        if words:
            cues.append(Cue(start, max(end, start), " ".join(words), first + at + 1, speaker))
    return cues


def parse_srt(text: str) -> list[Cue]:
    """The cues of a SubRip file, in file order (blocks without a timing line are skipped)."""
    return _timed_blocks(text, vtt=False)


def parse_vtt(text: str) -> list[Cue]:
    """The cues of a WebVTT file, in file order (header, ``NOTE``, ``STYLE`` and ``REGION`` blocks skipped)."""
    return _timed_blocks(text, vtt=True)


_LEAD = re.compile(r"^\s*[\[(]?\s*(" + _STAMP + r")\s*[\])]?(?:\s*[-–—:|]\s*|\s+|$)(.*)$")
_HEADER = re.compile(r"^\s*([^\d\[\]()\n]{1,40}?)\s*[\[(]?\s*(" + _STAMP + r")\s*[\])]?\s*:?\s*$")
_SPEAKER = re.compile(r"^([A-Z][\w.'-]+(?: [A-Z][\w.'-]*){1,3}|[A-Z]{2,}(?: [A-Z]{2,}){0,3}|SPEAKER \d+|Speaker \d+):\s+(.*)$")


def _timed_lines(text: str) -> list[tuple[int, float, str, str]]:
    """``(line from 1, seconds, text after the time, speaker)`` for each line that starts with, or is, a time."""
    out = []
    for i, ln in enumerate(text.splitlines(), start=1):
        m = _LEAD.match(ln)
        if m and m.group(2) is None and int(m.group(3)) > 59:
            m = None  # "120:30" is not a minutes:seconds time of a talk here unless hours are given
        if m:
            g = m.groups()
            rest = m.group(6).strip()
            sp = _SPEAKER.match(rest)
            out.append((i, _seconds(g[1], g[2], g[3], g[4]), sp.group(2) if sp else rest, sp.group(1) if sp else ""))
            continue
        h = _HEADER.match(ln)
        if h and h.group(1).strip():
            g = h.groups()
            out.append((i, _seconds(g[2], g[3], g[4], g[5]), "", g[0].strip().rstrip(":")))
    return out


def looks_like_transcript(text: str) -> bool:
    """True when a plain-text file is a timed transcript (module docstring: how many lines, in what order)."""
    timed = _timed_lines(text[:200_000])
    if len(timed) < MIN_TIMED_LINES:
        return False
    body = sum(1 for ln in text[:200_000].splitlines() if ln.strip())
    ordered = sum(1 for a, b in zip(timed, timed[1:]) if b[1] >= a[1])
    return len(timed) * 4 >= body and ordered >= 0.8 * (len(timed) - 1)


def parse_timed_text(text: str) -> list[Cue]:
    """The cues of a timed transcript: each time starts a cue running to the next time (the last one has no end: its start).

    Text lines below a time (or a speaker header) until the next time belong to its cue.
    """
    timed = _timed_lines(text)
    lines = text.splitlines()
    cues: list[Cue] = []
    for k, (line, t, rest, speaker) in enumerate(timed):
        stop = timed[k + 1][0] if k + 1 < len(timed) else len(lines) + 1
        body = [rest] + [_clean(x) for x in lines[line: stop - 1]]
        words = " ".join(b for b in body if b).strip()
        sp = _SPEAKER.match(words) if not speaker else None
        if sp:
            speaker, words = sp.group(1), sp.group(2)
        if words:
            end = timed[k + 1][1] if k + 1 < len(timed) else t
            cues.append(Cue(t, max(t, end), words, line, speaker))
    return cues


def cues_to_passages(cues: list[Cue]) -> tuple[list[Passage], str]:
    """Join consecutive cues into passages (module docstring: where a passage closes).

    Returns:
        ``(passages, full text)``: ids ``t00001``...; each passage's
        ``time_start``/``time_end`` in seconds, ``line`` its first cue's line,
        ``section`` the speaker when the file names one.
    """
    groups: list[list[Cue]] = []
    for c in cues:
        cur = groups[-1] if groups else None
        if cur is not None:
            size = sum(len(x.text) + 1 for x in cur)
            ends = re.search(r"[.!?…。！？][\"'”’)\]]*$", cur[-1].text) is not None
            closed = (size >= MIN_CHARS and ends) or size >= MAX_CHARS or (c.speaker and c.speaker != cur[-1].speaker) or c.start - cur[-1].end > MAX_GAP_S
            if not closed:
                cur.append(c)
                continue
        groups.append([c])
    passages: list[Passage] = []
    parts: list[str] = []
    pos = 0
    for g in groups:
        txt = " ".join(c.text for c in g)
        passages.append(Passage(id=f"t{len(passages) + 1:05d}", text=txt, line=g[0].line, char_start=pos, char_end=pos + len(txt),
                                section=g[0].speaker, time_start=g[0].start, time_end=max(c.end for c in g)))
        parts.append(txt)
        pos += len(txt) + 2
    return passages, "\n\n".join(parts)


def parse_transcript(data: bytes, suffix: str) -> ParsedSource:
    """Read a subtitle or transcript file.

    Args:
        data: the file's bytes (UTF-8, a BOM allowed; bad bytes replaced).
        suffix: ``.srt``, ``.vtt``, else read as a timed transcript.

    Returns:
        A :class:`ParsedSource` (no pages); ``error`` says why no passage
        could be read.
    """
    text = data.decode("utf-8-sig", errors="replace")
    suffix = suffix.lower()
    cues = parse_srt(text) if suffix == ".srt" else parse_vtt(text) if suffix == ".vtt" else parse_timed_text(text)
    if not cues:
        what = {".srt": "SubRip cue ('00:01:02,500 --> 00:01:05,000')", ".vtt": "WebVTT cue ('00:01:02.500 --> 00:01:05.000')"}.get(suffix, "timed line")
        return ParsedSource(error=f"the file holds no {what} with text; export the subtitles or transcript again")
    passages, full = cues_to_passages(cues)
    return ParsedSource(passages=passages, text=full, title=passages[0].text[:200])


def passages_at(passages: list[Passage], spans: list[tuple[float, float]]) -> list[Passage]:
    """The timed passages a time locator points at, in order.

    Args:
        passages: a source's passages (those without ``time_start`` are never taken).
        spans: ``(start, end)`` seconds from :meth:`citeproof.model.Locator.times`; a single time has ``start == end``.

    Returns:
        Passages overlapping ``[start - TIME_BEFORE_S, end + TIME_BEFORE_S]``
        for a range, ``[t - TIME_BEFORE_S, t + TIME_AFTER_S]`` for a single
        time ``t``; ``[]`` when none does (the time lies past the recording).
    """
    out: list[Passage] = []
    for p in passages:
        if p.time_start is None:
            continue
        end = p.time_end if p.time_end is not None else p.time_start
        for a, b in spans:
            lo, hi = a - TIME_BEFORE_S, (b + TIME_BEFORE_S) if b > a else a + TIME_AFTER_S
            if p.time_start <= hi and end >= lo:
                out.append(p)
                break
    return out
