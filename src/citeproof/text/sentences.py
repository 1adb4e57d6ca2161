"""The one sentence splitter: prose -> sentence spans with character offsets.

Every part of citeproof that cuts text into sentences (the citing-document
readers cutting claims, the entailment judge cutting source passages) uses
this module, so a claim and the evidence it is set against are cut the same
way.

Method: syntok's segmenter (segtok v2; Leitner, `syntok`), which keeps
character offsets and already keeps *e.g.*, *i.e.*, initials and most
abbreviations inside their sentence (measured in ``DESIGN.md`` against
pysbd and blingfire). Two repairs on top of it:

* a span that ends in a reference abbreviation (*et al.*, *Fig.*, *Sec.*,
  *Eq.*, *ref.*, *Tab.*, *No.*, *Vol.*...; :data:`ABBREVIATIONS`) is joined to
  the next one: syntok ends a sentence at "Lee et al. (Fig. 2)" and at
  "Sec. 3", which are never sentence ends in scientific prose;
* a span made only of closing punctuation (``)``, ``].``) joins the span
  before it (syntok emits these after long parentheses).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

import syntok.segmenter as _segmenter

__all__ = ["ABBREVIATIONS", "enumerated_items", "sentence_spans", "sentence_runs", "split_sentences"]

ABBREVIATIONS = frozenset(
    """e.g i.e etc vs cf fig figs eq eqs ref refs no nos vol vols approx ca resp dr mr mrs ms prof st sec secs
    sect tab tabs suppl min max ch chap p pp para app appx thm lem prop def cor alg""".split()
) | {"et al"}
"""Words (lower case, final period removed) after which a period never ends a sentence."""

_LAST_WORD = re.compile(r"(?:^|[^\w.])((?:\w+\.)*\w+(?: al)?)\.[\"')\]”’]*$")
_CLOSERS = re.compile(r"^[\s)\]}\"'”’.,;:]*$")
_FINAL = re.compile(r"[.!?…][\"')\]”’]*$")
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]”’]*\s+(?=[\"'(\[“‘]?[A-Z0-9])")
_GENE_START = re.compile(r"(?<=[\w)\]][.!?])[\"')\]”’]*\s+(?=[a-z]{1,3}-?[A-Z0-9][\w-]*\s+[a-z]"
                         r"|(?:alpha|beta|gamma|delta|kappa|omega)-[A-Za-z0-9][\w-]*\s+[a-z]|[\u03b1-\u03c9]-?[A-Za-z0-9][\w-]*[\s,(])")
"""A sentence that opens with a name written lower-case first (*miR-192*, *mRNA*, *p53*, *cAMP*, *eIF4E*), then a
word: syntok waits for a capital ("... highly expressed in the kidney. miR-192 levels also were increased ..." was
one sentence, found by a twentieth new user's trial), or with a Greek letter spelt out (*gamma-Tocopherol is well
absorbed*, a 68th) or written as the letter itself (*α-Tocopherol, the main form of vitamin E, ...*, *β-catenin
levels rose*: a 76th trial's two claims had been one, judged twice), with a hyphen after the lower-case part
(*c-Myc deletion*, *beta-catenin loss*: a 119th trial's pairs of lines were one claim each)."""
_LABEL_START = re.compile(r"(?<=[a-z0-9)\]])[ \t]*\n?\s*(?=(?:BACKGROUND|OBJECTIVES?|AIMS?|PURPOSE|INTRODUCTION|CONTEXT|"
                          r"IMPORTANCE|(?:RESEARCH DESIGN AND |MATERIALS AND )?METHODS?|DESIGN|SETTING|PARTICIPANTS|"
                          r"INTERVENTIONS?|MEASUREMENTS|MAIN OUTCOME MEASURES?|RESULTS|FINDINGS|CONCLUSIONS?|"
                          r"INTERPRETATION)\s+(?:[A-Z][a-z]|\())")
"""Before a structured abstract's label in capitals that follows a line with no full stop (a title): "... in
high-fat diet fed mice OBJECTIVE The proinflammatory cytokine ..." had been one sentence (a 31st trial). Not inside a
heading in capitals ("RESEARCH DESIGN AND METHODS": a lower-case letter or digit before, a word in lower case after)."""
_LABEL_GLUED = re.compile(r"(?<=[a-z0-9)\]%]\.)(?=(?i:background|objectives?|aims?|purpose|introduction|context|importance|"
                          r"methods?|design|setting|participants|interventions?|measurements|main outcome measures?|"
                          r"results|findings|conclusions?|interpretation)\s*:)")
_LABEL_AFTER_TITLE = re.compile(r"(?<=[a-z0-9)\]])\s+(?=(?:Background|Objectives?|Aims?|Purpose|Introduction|Context|"
                                r"Importance|Methods?|Design|Setting|Participants|Results|Findings|Conclusions?)"
                                r":\S)")
"""Before a capitalised label with its colon glued to the next word, after a title with no full stop: "... for
adolescents in Europe Objective:To describe ..." (the same 163rd trial's source)."""
"""After a full stop glued to a structured abstract's next label: "... by a dietician (interview).Methods:Two hundred
and thirty-six adolescents ...Results:A small ..." (the labels' spaces lost in extraction; a 163rd trial's source
was one sentence of 700 characters, and each claim was judged against all of it)."""
_NOTE_AFTER_STOP = re.compile(r"(?<=[a-z]{2}[.!?])\d{1,3}(?:[,\u2013-]\d{1,3})*\s+(?=[A-Z][a-z])")
"""Reference numbers set after a sentence's full stop, as superscripts lose their raise in extraction: "...
atherosclerotic arterial disease.5,6 The e4 allele ..." (a 166th trial's source: three sentences read as one, and a
*may* of the last hedged a claim restating the first)."""
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_CJK_END = re.compile(r"[。！？｡]+[」』”’）)\]】〕]*\s*")
"""A Chinese or Japanese full stop, exclamation or question mark (full width) ends a sentence, with no space after it."""


_NAMING_LETTER = re.compile(r"\b[a-z]{3,}\s+[A-Z]\.$")
_OPENER = re.compile(r"(?:We|The|This|These|Those|Here|In|Our|It|Its|Thus|However|Furthermore|Moreover|Finally|Together|"
                     r"Taken|Using|Both|Such|Therefore|Although|While|When|After|To|A|An)\b")


def _ends_in_abbreviation(head: str, following: str = "", following_word: str = "") -> bool:
    """True when ``head`` ends in a period that belongs to an abbreviation or an initial.

    ``following`` is the first character after the break: a lone lower-case
    letter before a number ("c. 5261", "p. 4") is an abbreviation, before a
    capital ("after 25 y. Importantly") a unit ending the sentence; ``following_word`` the text after the break.
    """
    m = _LAST_WORD.search(head[-40:])
    if not m:
        return False
    word = m.group(1)
    if len(word) == 1 and word.isalpha() and following.isdigit():
        return True
    if len(word) == 1 and word.isalpha() and word.isupper():
        # an initial: "J. R. Tolkien"; not a letter naming a thing ("vitamin C", "hepatitis B", "type A") before a
        # sentence's usual opening word ("... downstream of vitamin C. We first observed ...": a 173rd trial's source)
        return not (_NAMING_LETTER.search(head[-40:]) and _OPENER.match(following_word))
    if "." in word and all(len(w) <= 2 and w.isalpha() for w in word.split(".")):
        return True  # "U.S", "e.g", "i.e"
    return word.lower() in ABBREVIATIONS


def _close_or_blank_brackets(text: str) -> str:
    """``text`` with every unmatched ``(`` or ``[`` replaced by a space (same length).

    syntok looks for the closing bracket of each opening one from scratch:
    ``"(" * N`` took O(N^2) time. One stack pass finds the unmatched ones.
    """
    stack: list[int] = []
    unmatched: list[int] = []
    for k, c in enumerate(text):
        if c in "([":
            stack.append(k)
        elif c in ")]":
            want = "(" if c == ")" else "["
            while stack and text[stack[-1]] != want:
                unmatched.append(stack.pop())
            if stack:
                stack.pop()
    unmatched += stack
    if not unmatched:
        return text
    chars = list(text)
    for k in unmatched:
        chars[k] = " "
    return "".join(chars)


_BRACKET = re.compile(r"[()\[\]]")


def _inside_brackets(balanced: str, cuts: list[int]) -> set[int]:
    """The ``cuts`` (sorted offsets) that fall inside a short matched pair of brackets of ``balanced`` (unmatched ones
    blanked, :func:`_close_or_blank_brackets`): "[... Murakami, Chan & Routtenberg (1986) J. Biol. Chem. 261,
    15424-15429]" holds no sentence end (a 110th trial's faithful claim was judged against "261, 15424-15429], studies
    using H-7 ..."). A pair of :data:`BRACKET_SENTENCE_CHARS` or more may hold sentences, and so does a figure's caption
    in Markdown's ``![...](...)`` (the demo's claims on lines 445-449 had become one unit). One pass over the
    brackets."""
    pairs, stack = [], []
    for m in _BRACKET.finditer(balanced):
        if m.group(0) in "([":
            stack.append(m.start())
        elif stack:
            a = stack.pop()
            if m.start() - a < BRACKET_SENTENCE_CHARS and not balanced[max(0, a - 1):a] == "!":
                pairs.append((a, m.start()))
    out: set[int] = set()
    if not pairs:
        return out
    pairs.sort()
    k, reach = 0, -1
    for c in cuts:
        while k < len(pairs) and pairs[k][0] < c:
            reach = max(reach, pairs[k][1])
            k += 1
        if c <= reach:
            out.add(c)
    return out


BRACKET_SENTENCE_CHARS = 400
"""Brackets holding this many characters or more may hold whole sentences (a caption, an aside)."""


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence spans of ``text`` as ``(start, end)`` character offsets.

    A sentence ends only at ``.``, ``!``, ``?`` or ``…`` (closing quotes and
    brackets included), at the full-width ``。``, ``！``, ``？`` of Chinese
    and Japanese (no space needed after them), or at a blank line. Boundaries are syntok's, plus the
    ones syntok misses after a number or a closing parenthesis ("PM2.5-10.
    Residential", "(P<.001). Death", found on SciFact abstracts) and before a name written lower-case first
    ("kidney. miR-192 levels") and before a structured abstract's label after a title with no full stop
    ("... fed mice OBJECTIVE The ...") or glued to the full stop before it ("(interview).Methods:Two"), less those
    after an abbreviation or an initial and those syntok places at ``;`` or
    inside a parenthesis, and any inside brackets (a reference "[... J. Biol. Chem. 261, ...]").

    Args:
        text: prose, possibly spanning several lines or paragraphs.

    Returns:
        Spans in order, end exclusive, each from a sentence's first to its
        last non-blank character; whitespace between sentences belongs to
        no span. Blank text gives ``[]``. Time and memory are linear in
        ``len(text)``.
    """
    if not text.strip():
        return []
    cuts: set[int] = set()
    hard: set[int] = set()
    prev_end = None
    balanced = _close_or_blank_brackets(text)
    for paragraph in _segmenter.analyze(balanced):
        for sentence in paragraph:
            tokens = list(sentence)
            if not tokens:
                continue
            start = tokens[0].offset
            if prev_end is not None:
                if _BLANK_LINE.search(text, prev_end, start):
                    hard.add(start)
                elif text[start - 1: start].isspace() and _FINAL.search(text[max(prev_end - 8, 0): prev_end]):
                    cuts.add(start)
            prev_end = tokens[-1].offset + len(tokens[-1].value)
    cuts.update(m.end() for m in _BOUNDARY.finditer(text))
    cuts.update(m.end() for m in _GENE_START.finditer(text))
    cuts.update(m.end() for m in _LABEL_START.finditer(text) if m.start() > 0)
    cuts.update(m.end() for m in _LABEL_GLUED.finditer(text))
    cuts.update(m.end() for m in _NOTE_AFTER_STOP.finditer(text)
                if re.search(r"(\w+)[.!?]$", text[max(0, m.start() - 20):m.start()]).group(1).lower() not in ABBREVIATIONS)
    cuts.update(m.end() for m in _LABEL_AFTER_TITLE.finditer(text))
    cuts.update(m.end() for m in _CJK_END.finditer(text) if m.end() < len(text))
    spans: list[tuple[int, int]] = []
    s = len(text) - len(text.lstrip())
    inside = _inside_brackets(balanced, sorted(cuts - hard))
    for c in sorted(cuts | hard):
        head = text[s:c].rstrip()
        if not head or (c not in hard and (c in inside or _ends_in_abbreviation(head[-40:], text[c: c + 1],
                                                                                  text[c: c + 12]))):
            continue
        spans.append((s, s + len(head)))
        s = c
    tail = text[s:].rstrip()
    if tail:
        spans.append((s, s + len(tail)))
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and _CLOSERS.match(text[a:b]):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


SPLIT_CACHE_CHARS = 8_000_000
"""Most characters of text whose sentences :func:`split_sentences` keeps (least recently used dropped first).

The detectors and the judge split the same whole-source texts once per claim: on the scale job (100 claims,
1,188 pages) syntok ran 33,000 times, 24 of 135 profiled seconds (issue 27). syntok is deterministic, so a kept
answer is the answer; 8 M characters (about 3,000 PDF pages, some 30 MiB) bound the memory."""

_split_cache: OrderedDict[tuple[str, int], tuple[str, ...]] = OrderedDict()
_split_chars = 0
_split_lock = threading.Lock()


def split_sentences(text: str, min_chars: int = 0) -> list[str]:
    """The sentences of ``text`` as strings, whitespace-normalised.

    Args:
        text: a passage; runs of whitespace (newlines included) count as one space.
        min_chars: a sentence shorter than this (characters) is glued to the
            one before it.

    Returns:
        The sentences in order (a new list, the caller's to change); ``[]`` for blank text. Answers are kept
        for texts of 200 characters or more, up to :data:`SPLIT_CACHE_CHARS` in all.
    """
    global _split_chars
    if len(text) < 200:
        return list(_split(text, min_chars))
    key = (text, min_chars)
    with _split_lock:
        hit = _split_cache.get(key)
        if hit is not None:
            _split_cache.move_to_end(key)
            return list(hit)
    out = _split(text, min_chars)
    with _split_lock:
        if key not in _split_cache and len(text) <= SPLIT_CACHE_CHARS:
            _split_cache[key] = out
            _split_chars += len(text)
            while _split_chars > SPLIT_CACHE_CHARS:
                (old_text, _m), _v = _split_cache.popitem(last=False)
                _split_chars -= len(old_text)
    return list(out)


_RUN_BREAK = re.compile(r"\n[ \t]*\n")
_RUN_END = re.compile(r"[.!?…。！？｡][\"')\]”’」』）】〕]*$")


def sentence_runs(text: str) -> list[str]:
    """``text`` cut at every blank line that follows a sentence's end: pieces no sentence runs across.

    A whole source is its passages joined by blank lines (``"\\n\\n"``, :mod:`citeproof.sources`); a passage
    that ends in ``.``, ``!``, ``?``, ``…`` or a full-width stop (closing quotes and brackets allowed) ends its
    sentence there, and one that does not (a heading, a caption cut short) runs on into the next. Splitting run
    by run is what :func:`split_sentences` does, so a caller that needs the sentences of only a few runs (the
    detectors, :func:`citeproof.text.stems.relevant_sentences`) splits only those. On the scale job's 12 PDFs
    (issue 27) 1,461 runs stand for 4,650 passages; against one syntok pass over the flattened whole text
    (this function's predecessor) 217 of 7,477 sentences differ, each a passage end syntok ran past
    ("... protocols, etc." + heading "Version your code").

    Args:
        text: any text; a text without blank lines is one run.

    Returns:
        The runs in order, each with its blank lines inside kept; ``"".join`` of them is not ``text``
        (the breaks between runs are dropped). ``[]`` for blank text.
    """
    if "\n" not in text:  # one line, one run (most passages): no search
        return [text] if text.strip() else []
    out: list[str] = []
    start = 0
    for m in _RUN_BREAK.finditer(text):
        if _RUN_END.search(text[max(start, m.start() - 12): m.start()].rstrip()):
            piece = text[start:m.start()]
            if piece.strip():
                out.append(piece)
            start = m.end()
    tail = text[start:]
    if tail.strip():
        out.append(tail)
    return out


def _split(text: str, min_chars: int) -> tuple[str, ...]:
    runs = sentence_runs(text)
    if len(runs) > 1:
        sents = [s for run in runs for s in split_sentences(run)]
    else:
        flat = " ".join(text.split())
        sents = [flat[s:e] for s, e in sentence_spans(flat)]
    out: list[str] = []
    for sent in sents:
        if out and len(sent) < min_chars:
            out[-1] = out[-1] + " " + sent
        else:
            out.append(sent)
    return tuple(out)


_ITEM_MARK = re.compile(r"(?:^|(?<=[\s,;:]))\((?:\d{1,2}|[a-h]|[ivx]{1,4})\)\s+")
_ITEM_TAIL = re.compile(r"[\s,;]+(?:and|or)?\s*$")


def enumerated_items(sentence: str) -> list[str]:
    """The items of a sentence that enumerates with ``(1)``, ``(2)`` ... (or ``(a)``, ``(i)``), each without its mark
    and the ``, and`` before the next; ``[]`` when it marks fewer than two.

    "This study reveals (1) a greater diversity ..., (4) regulators of the SAGA pathway located largely distal to the
    core promoter and regulators of the TFIID pathway located proximally, and (5) ..." holds five findings in one
    sentence; compared whole with a claim restating the fourth, the other four hide it (a 166th trial's exchanged
    *distal* and *proximal*: *partial*).

    Args:
        sentence: one sentence.

    Returns:
        The items in order, stripped (characters as written).
    """
    marks = list(_ITEM_MARK.finditer(sentence))
    if len(marks) < 2:
        return []
    ends = [m.start() for m in marks[1:]] + [len(sentence)]
    items = [_ITEM_TAIL.sub("", sentence[m.end():e]).strip() for m, e in zip(marks, ends)]
    return [i.rstrip(".") for i in items if i]
