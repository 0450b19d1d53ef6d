"""Find, in every abstract, the terms the extractor recognised in other abstracts.

The NER decides each abstract on its own, so a field's own vocabulary is found
in some papers and missed in others: "differential privacy" is tagged in 28 of
the 52 NeurIPS 2023 abstracts that say it. Once a corpus has shown that a phrase
is a term (tagged in several papers, and in a fair share of the papers that use
it), its other occurrences are mentions too: the corpus acts as its own
gazetteer. This is the corpus-level form of the "one sense per discourse"
heuristic that ``paperkg_repeats`` applies within one abstract.

What stops a common word from spreading: a term must be tagged in at least
``min_papers`` papers *and* in at least ``min_share`` of the papers whose text
says it outside a longer mention (one-word terms need ``min_share_one_word``), so
"attention" (tagged in under a third of the papers that use the word) stays where
the NER put it;
an occurrence that overlaps a mention the extractor found is left alone; and
names with capitals inside ("SAM", "ImageNet") match only with those capitals.
Mentions found this way have ``corpus_match`` set.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ...records import Mention, PaperMentions
from ..resolve.memo import name_memo
from .record_blocks import ChangedRecords

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
#: longest term, in words, that is looked for
MAX_WORDS = 6


@dataclass(frozen=True)
class CorpusTerm:
    """A phrase the corpus shows to be a term: its words, label and evidence."""

    words: tuple[str, ...]
    label: str
    tagged_papers: int
    containing_papers: int
    case_sensitive: bool


@dataclass
class Occurrences:
    """Where the candidate phrases occur in each abstract, as :func:`find_corpus_terms`
    finds them, for :func:`with_corpus_terms` to place the terms among them.

    Why kept: both steps look for phrases word by word through every abstract, and
    the second look was a fifth of the corpus steps of a rebuild (0.85 s at 3,218
    papers); what the first finds is small (44 occurrences a paper, three ints each).
    ``spans[i]``: ``start, end, key id`` for each occurrence in ``results[i]``'s
    document, key ids indexing ``keys``.
    """

    keys: list[tuple[str, ...]] = field(default_factory=list)
    spans: list[array] = field(default_factory=list)


@name_memo
def _fold_word(word: str) -> str:
    """A last word without its plural ending: "networks" -> "network", "studies" -> "study"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _words(text: str) -> list[re.Match]:
    return list(_WORD.finditer(text))


def _key(words: list[str]) -> tuple[str, ...]:
    """Lower case, the last word singular: how a term is looked up."""
    folded = [w.lower() for w in words]
    folded[-1] = _fold_word(folded[-1])
    return tuple(folded)


def _has_inner_capital(text: str) -> bool:
    return any(map(str.isupper, text[1:]))


def _mention_key(text: str) -> tuple[tuple[str, ...], bool] | None:
    """The key a mention's text is counted under, and whether it has capitals inside;
    None for a text too short or too long to be looked for."""
    words = [w.group() for w in _words(text)]
    if not words or len(words) > MAX_WORDS or len(text) < 3:
        return None
    return _key(words), _has_inner_capital(text)


def find_corpus_terms(
    results: list[PaperMentions],
    *,
    min_papers: int = 3,
    min_share: float = 0.3,
    min_share_one_word: float = 0.5,
    occurrences: Occurrences | None = None,
) -> list[CorpusTerm]:
    """The phrases tagged often and consistently enough across ``results`` to be terms.

    Three passes: count what the extractor tagged (:class:`_TaggedCounts`), keep
    the phrases tagged in ``min_papers`` papers or more as candidates, look for the
    candidates in every abstract to count the papers that say one without tagging
    it (:func:`_untagged_papers`), and keep the candidates tagged in a large
    enough share of the papers that say them (:func:`_terms`).

    ``occurrences``, when given, is filled with where the phrases that could be
    terms occur in each paper (see :class:`Occurrences`).
    """
    tagged = _TaggedCounts.of(results)
    candidates = {k for k, kid in tagged.ids.items() if tagged.stats[kid][0] >= min_papers}
    if occurrences is not None:
        occurrences.keys, occurrences.spans = list(tagged.ids), []
    if not candidates:
        return []
    untagged = _untagged_papers(results, tagged, _Lookup(candidates), occurrences)
    return _terms(
        candidates, tagged, untagged, min_share=min_share, min_share_one_word=min_share_one_word
    )


@dataclass
class _TaggedCounts:
    """What the extractor tagged across a corpus, counted per key (see :func:`_key`).

    Counts are kept compact, as a corpus of 100,000 papers has hundreds of
    thousands of distinct mention texts: per key a short list, and per paper the
    ids of the keys it tags, not a set of papers and two Counters per key.
    """

    #: each key's id, in the order keys were first tagged
    ids: dict[tuple[str, ...], int]
    #: per key id: papers tagging it, the last of them, mentions with and without
    #: inner capitals, then label and count pairs in the order labels first came
    stats: list[list]
    #: per paper: the ids of the keys it tags
    paper_keys: list[array]

    @classmethod
    def of(cls, results: list[PaperMentions]) -> _TaggedCounts:
        """Count every mention of ``results``, paper by paper, each text keyed once."""
        counts = cls(ids={}, stats=[], paper_keys=[])
        # mention text -> its key id * 2 + 1 if it has capitals inside; -1: not counted
        read: dict[str, int] = {}
        for index, result in enumerate(results):
            own = array("I")
            for m in result.mentions:
                code = read.get(m.text)
                if code is None:
                    code = counts._code(m.text)
                    read[m.text] = code
                if code >= 0:
                    counts._add(index, own, code >> 1, code & 1, m.label)
            counts.paper_keys.append(own)
        return counts

    def _code(self, text: str) -> int:
        """A mention text's key id * 2, plus 1 if it has capitals inside; -1 if the text
        is too short or too long to be looked for."""
        found = _mention_key(text)
        if found is None:
            return -1
        return 2 * self.ids.setdefault(found[0], len(self.ids)) + found[1]

    def _add(self, index: int, own: array, kid: int, capitals: int, label: str) -> None:
        """Count one mention of key ``kid`` with ``label`` in paper ``index``."""
        if kid == len(self.stats):
            self.stats.append([0, -1, 0, 0])
        entry = self.stats[kid]
        if entry[1] != index:
            entry[0] += 1
            entry[1] = index
            own.append(kid)
        entry[2 if capitals else 3] += 1
        try:  # labels sit at 4, 6, ...; their counts after them
            entry[entry.index(label, 4) + 1] += 1
        except ValueError:
            entry += [label, 1]


def _untagged_papers(
    results: list[PaperMentions],
    tagged: _TaggedCounts,
    lookup: _Lookup,
    occurrences: Occurrences | None,
) -> Counter[int]:
    """Per candidate key id, the papers whose text says it outside a mention and that do
    not tag it; ``occurrences`` (if given) gets where each paper says a candidate."""
    untagged: Counter[int] = Counter()
    for result, own in zip(results, tagged.paper_keys, strict=True):
        where, counted = _scan(result, set(own), tagged.ids, lookup)
        untagged.update(counted)
        if occurrences is not None:
            occurrences.spans.append(where)
    return untagged


def _scan(
    result: PaperMentions, own: set[int], ids: dict[tuple[str, ...], int], lookup: _Lookup
) -> tuple[array, set[int]]:
    """Where the candidates occur in one paper (start, end and key id), and the ids of
    those it says outside its mentions and does not tag (``own``: the ids it tags)."""
    spans = [(m.start, m.end) for m in result.mentions]
    counted: set[int] = set()
    where = array("I")
    for key, start, end in _ngrams(result.paper.document, lookup):
        kid = ids[key]
        where.extend((start, end, kid))
        if kid in own or kid in counted:
            continue
        if not any(s < end and start < e for s, e in spans):
            counted.add(kid)
    return where, counted


def _terms(
    candidates: set[tuple[str, ...]],
    tagged: _TaggedCounts,
    untagged: Counter[int],
    *,
    min_share: float,
    min_share_one_word: float,
) -> list[CorpusTerm]:
    """The candidates tagged in at least their share of the papers that say them, each
    with its most frequent label, in key order."""
    terms = []
    for key in sorted(candidates):
        kid = tagged.ids[key]
        n_tagged, _, with_capitals, without_capitals, *label_counts = tagged.stats[kid]
        n_containing = n_tagged + untagged[kid]
        share = min_share if len(key) > 1 else min_share_one_word
        if n_tagged / n_containing < share:
            continue
        # the most frequent label; of equals, the first seen (as Counter.most_common)
        pairs = list(zip(label_counts[::2], label_counts[1::2], strict=True))
        label = max(pairs, key=lambda pair: pair[1])[0]
        terms.append(
            CorpusTerm(
                words=key,
                label=label,
                tagged_papers=n_tagged,
                containing_papers=n_containing,
                case_sensitive=with_capitals > without_capitals,
            )
        )
    return terms


def _folded_words(matches: list[re.Match]) -> tuple[list[str], list[str]]:
    """Each word lower-cased, and lower-cased with a plural ending dropped."""
    lower = [m.group().lower() for m in matches]
    return lower, [_fold_word(w) for w in lower]


class _Lookup:
    """Keys to look for word by word, with what lets :func:`_ngrams` stop early:
    the words a key may start with (``firsts``, and their singulars) and the
    word sequences a longer key starts with (``prefixes``)."""

    def __init__(self, keys: set[tuple[str, ...]]) -> None:
        self.keys = keys
        self.firsts = {k[0] for k in keys} | {_fold_word(k[0]) for k in keys}
        self.prefixes = {k[:n] for k in keys for n in range(1, len(k))}


def _ngrams(text: str, lookup: _Lookup):
    """(key, start, end) for each occurrence in ``text`` of a case-folded key of ``lookup``."""
    keys, firsts, prefixes = lookup.keys, lookup.firsts, lookup.prefixes
    matches = _words(text)
    lower, folded = _folded_words(matches)
    for i in range(len(lower)):
        if lower[i] not in firsts and folded[i] not in firsts:
            continue
        for n in range(1, min(MAX_WORDS, len(lower) - i) + 1):
            key = (*lower[i : i + n - 1], folded[i + n - 1])  # == _key(words[i : i + n])
            if key in keys:
                yield key, matches[i].start(), matches[i + n - 1].end()
            if tuple(lower[i : i + n]) not in prefixes:
                break  # no longer key starts with these words


def with_corpus_terms(
    results: Sequence[PaperMentions],
    terms: list[CorpusTerm],
    occurrences: Occurrences | None = None,
) -> Sequence[PaperMentions]:
    """``results`` with a mention added at each free occurrence of a corpus term, each
    paper's made when it is read (:class:`~.record_blocks.ChangedRecords`).

    Longest terms win; an occurrence that overlaps a mention already there (or
    one added before it) is skipped. ``occurrences``: what :func:`find_corpus_terms`
    filled in for these results, so the abstracts need not be read again.
    """
    by_key = {t.words: t for t in terms}
    if not by_key:
        return results
    lookup = None if occurrences is not None else _Lookup(set(by_key))

    def add(index: int, result: PaperMentions) -> PaperMentions:
        text = result.paper.document
        if occurrences is None:
            found = [(s, e, by_key[key]) for key, s, e in _ngrams(text, lookup)]
        else:
            spans, keys = occurrences.spans[index], occurrences.keys
            found = [
                (spans[j], spans[j + 1], by_key[keys[spans[j + 2]]])
                for j in range(0, len(spans), 3)
                if keys[spans[j + 2]] in by_key
            ]
        added = _placed(text, found, [(m.start, m.end) for m in result.mentions])
        if not added:
            return result
        mentions = sorted([*result.mentions, *added], key=lambda m: (m.start, m.end))
        return replace(result, mentions=mentions)

    return ChangedRecords(results, add)


def _placed(
    text: str, found: list[tuple[int, int, CorpusTerm]], taken: list[tuple[int, int]]
) -> list[Mention]:
    """A mention for each occurrence in ``found`` that is free, word by word through
    ``text``: at each word the longest term that passes, then on after its last word."""
    added: list[Mention] = []
    free_from = 0  # the end of the last term placed: no term starts inside it
    for start, end, term in sorted(found, key=lambda f: (f[0], -f[1])):
        if start < free_from:
            continue
        if term.case_sensitive and not _has_inner_capital(
            " ".join(_WORD.findall(text, start, end))
        ):
            continue
        if (
            _glued(text, start, end)
            or _inside_name(text, start)
            or any(s < end and start < e for s, e in taken)
        ):
            continue
        taken.append((start, end))
        added.append(
            Mention(
                text[start:end],
                term.label,
                start,
                end,
                _sentence(text, start, end),
                corpus_match=True,
            )
        )
        free_from = end
    return added


def _glued(text: str, start: int, end: int) -> bool:
    """Part of a longer token: "-" or "/" joins it to a neighbour ("pre-[training]")."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before in "-/_" or after in "-/_" or before.isalnum() or after.isalnum()


def _inside_name(text: str, start: int) -> bool:
    """A capitalised occurrence right after a capitalised word mid-sentence is part of a
    name: "Distillation" in "Graph Dataset Distillation (SGDD)"."""
    if not text[start : start + 1].isupper():
        return False
    previous = _word_before(text, start)
    if previous is None:
        return False
    between = text[previous.end() : start]
    sentence_start = previous.start() == 0 or text[: previous.start()].rstrip()[-1:] in ".!?"
    return previous.group()[:1].isupper() and not sentence_start and between.strip() in {"", "-"}


def _word_before(text: str, start: int) -> re.Match | None:
    """The last word of ``text`` before ``start``, as :func:`_words` finds it.

    Read back from ``start`` one space at a time, not from the start of the text: no
    word has a space inside, so words found from just after a space are the words
    :func:`_words` finds there.
    """
    end = start
    while True:
        cut = text.rfind(" ", 0, end)
        last = None
        for last in _WORD.finditer(text, cut + 1, start):  # noqa: B007 (the last one)
            pass
        if last is not None or cut < 0:
            return last
        end = cut


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around ``start:end``, for the edge's evidence."""
    bounds = [0] + [m.end() for m in _SENTENCE_END.finditer(text)] + [len(text)]
    first = max(b for b in bounds if b <= start)
    last = min((b for b in bounds if b >= end), default=len(text))
    return text[first:last].strip()
