"""Acronym definitions: "graph neural network (GNN)" makes GNN stand for its long form.

The matching follows Schwartz & Hearst (2003), "A simple algorithm for identifying
abbreviation definitions in biomedical text": the short form sits in parentheses, and
its characters are found right to left in the words before it, the first character
at the start of a word.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...acronym_match import long_form_start
from ...names import is_coined_model_token, looks_like_name
from .lexicon import (
    DATASET_HEADS,
    GENERIC_MODIFIERS,
    GENERIC_NOUN_MODIFIERS,
    METHOD_GENERIC_HEADS,
    METHOD_SPECIFIC_HEADS,
    METRIC_HEADS,
    METRIC_MODIFIED_HEADS,
    STANDALONE_METHOD_HEADS,
    STANDALONE_TASK_HEADS,
    TASK_HEADS,
    TASK_WORDS,
)
from .spans import add_entities, trim

if not Doc.has_extension("acronyms"):
    Doc.set_extension("acronyms", default=[])


def _is_short_form(span: Span) -> bool:
    text = span.text
    if not 2 <= len(text) <= 12 or len(span) > 3:
        return False
    if not any(c.isupper() for c in text) or not text[0].isalnum():
        return False
    letters = sum(c.isalpha() for c in text)
    return letters >= 2 and len(text.split()) <= 2


_STOP_BEFORE_LONG_FORM = frozenset(
    "we our the a an this that which is are was were of for to in on with by and or as".split()
)


def _short_then_long(doc: Doc, open_i: int) -> tuple[Span, Span] | None:
    """The other order, "ULMFiT (Universal Language Model Fine-tuning)": the word before
    the parenthesis is the short form and the whole parenthesis its long form."""
    close = next((t.i for t in doc[open_i + 1 : open_i + 12] if t.text == ")"), None)
    if close is None or close - open_i - 1 < 2:
        return None
    short = doc[open_i - 1 : open_i]
    long = doc[open_i + 1 : close]
    if not _is_short_form(short) or any(t.is_punct and t.text not in {"-", "/"} for t in long):
        return None
    if long_form_start(short.text, [t.text for t in long]) != 0:
        return None
    return long, short


#: words that say a parenthesis gives a short name: "(or BiDock for short)"
_SHORT_SAYING_TAILS = (("for", "short"), ("in", "short"))


def _end_before_short_saying_tail(doc: Doc, start: int, end: int) -> int:
    """Where ``doc[start:end]`` ends without a closing "for short" or ", in short"
    (``end`` when it has none)."""
    if end - start > 2 and tuple(t.lower_ for t in doc[end - 2 : end]) in _SHORT_SAYING_TAILS:
        end -= 2
        if doc[end - 1].text == ",":
            end -= 1
    return end


def _named_for_short(doc: Doc, open_i: int) -> Span | None:
    """The short form of a parenthesis that says it gives one, else ``None``:
    "(SIGNET for short)", "(or BiDock for short)", "(ViT, in short)", "(or MoE)"."""
    close = next((t.i for t in doc[open_i + 1 : open_i + 8] if t.text in {"(", ")"}), None)
    if close is None or doc[close].text != ")":
        return None
    first = open_i + 1
    end = _end_before_short_saying_tail(doc, first, close)
    said_short = end < close
    said_or = end - first > 1 and doc[first].lower_ == "or"  # "(OR for short)" is an acronym
    first += said_or
    if not (said_or or said_short) or end <= first:
        return None
    return doc[first:end]


def find_acronym_definitions(doc: Doc) -> list[tuple[Span, Span]]:
    """Pairs ``(long form, short form)`` defined as "long form (SHORT)" in ``doc``.

    >>> import spacy
    >>> nlp = spacy.blank("en")
    >>> doc = nlp("We train a graph neural network (GNN) on it.")
    >>> [(lf.text, sf.text) for lf, sf in find_acronym_definitions(doc)]
    [('graph neural network', 'GNN')]
    """
    pairs: list[tuple[Span, Span]] = []
    for open_tok in doc:
        if open_tok.text != "(" or open_tok.i == 0:
            continue
        close = next(
            (t.i for t in doc[open_tok.i + 1 : open_tok.i + 5] if t.text in {")", ";", ","}),
            None,
        )
        short = _named_for_short(doc, open_tok.i)
        if (
            short is None
            and close is not None
            and doc[close].text == ")"
            and close > open_tok.i + 1
        ):
            short = doc[open_tok.i + 1 : close]
        if short is None or not _is_short_form(short):
            pair = _short_then_long(doc, open_tok.i)
            if pair is not None:
                pairs.append(pair)
            continue
        n_chars = sum(c.isalnum() for c in short.text)
        window_start = max(0, open_tok.i - min(n_chars + 5, n_chars * 2))
        # the long form never crosses a sentence start or punctuation
        for t in reversed(doc[window_start : open_tok.i]):
            if t.is_punct and t.text not in {"-", "/"} or t.is_sent_start:
                window_start = t.i + (0 if t.is_sent_start and not t.is_punct else 1)
                break
        words = [t.text for t in doc[window_start : open_tok.i]]
        first = long_form_start(short.text, words)
        if first is None:
            continue
        start = window_start + first
        # a long form starts at a whitespace boundary: "Semi-Supervised", not "Supervised"
        while start > window_start and doc[start - 1].whitespace_ == "":
            start -= 1
        while (
            start < open_tok.i - 1
            and doc[start].lower_ in _STOP_BEFORE_LONG_FORM
            and doc[start].whitespace_  # "in-context" keeps its "in"
        ):
            start += 1
        long = doc[start : open_tok.i]
        if len(long) == 0 or long.text == short.text:
            continue
        pairs.append((long, short))
    return pairs


@Language.factory("paperkg_acronyms", default_config={"share_labels": True})
def make_acronym_detector(nlp: Language, name: str, share_labels: bool) -> AcronymDetector:
    return AcronymDetector(share_labels=share_labels)


class AcronymDetector:
    """Finds acronym definitions in each abstract.

    With ``share_labels``, a long form and its short form that an earlier component
    labelled only one of get the same label: if "knowledge distillation" is a METHOD,
    so is "KD" in "knowledge distillation (KD)", and every later bare "KD" too. And
    one name means one thing within an abstract: when the NER gives the mentions of
    a name (with its acronym) different labels, the majority label wins.

    Before that, a mention the tagger ran on into "for short" ("BiDock for
    short") ends before those words, and a mention cut inside a defined long form
    starts where the long form does.

    Sets:
        ``Doc._.acronyms`` (list[tuple[Span, Span]]): ``(long form, short form)`` pairs,
        e.g. ``(graph neural network, GNN)``.
    """

    def __init__(self, share_labels: bool = True):
        self.share_labels = share_labels

    def __call__(self, doc: Doc) -> Doc:
        _cut_short_saying_tails(doc)
        pairs = find_acronym_definitions(doc)
        doc._.acronyms = pairs
        if pairs:
            _complete_long_forms(doc, pairs)
        if self.share_labels:
            if pairs:
                _share_labels(doc, pairs)
            _vote_labels(doc, pairs)
        return doc


def _cut_short_saying_tails(doc: Doc) -> None:
    """End a mention before the words that say it is a short name: the tagger reads
    "(or BiDock for short)" as the name "BiDock for short"."""
    ents = []
    for ent in doc.ents:
        end = _end_before_short_saying_tail(doc, ent.start, ent.end)
        if end == ent.end:
            ents.append(ent)
        elif end > ent.start:
            ents.append(Span(doc, ent.start, end, label=ent.label_))
    if ents != list(doc.ents):  # only when changed: an untagged doc keeps its tokens unset
        doc.ents = ents


def _complete_long_forms(doc: Doc, pairs: list[tuple[Span, Span]]) -> None:
    """Start a mention that begins inside a defined long form where the long form does.

    A tagger can drop the first words of a definition: "which we term selective
    KD (SelKD)" tagged "KD (SelKD)". The definition says where the name
    starts, so the mention is widened to "selective KD (SelKD)" (and a bare
    "KD" ending the long form to "selective KD"). A modifier tagged on its own
    inside the long form before it is a fragment of the same name ("a
    lightweight ΔΔG predictor (Light-DDG)" tagged "lightweight" and "ΔΔG
    predictor (Light-DDG)") and is absorbed. A mention with a noun of its own
    ("Domain Reweighting" in "Domain Reweighting with Minimax Optimization
    (DoReMi)") is a name in its own right, and one reaching out of the long
    form is not part of it: either leaves the mention as it is.
    """
    starts = {long.end - 1: long.start for long, _ in pairs}
    ents = list(doc.ents)
    dropped: set[int] = set()
    for k, ent in enumerate(ents):
        for last, start in starts.items():
            if start < ent.start <= last < ent.end:
                before = [
                    j
                    for j, o in enumerate(ents)
                    if j != k and j not in dropped and o.start < ent.start and o.end > start
                ]
                if all(ents[j].start >= start and not _has_noun(ents[j]) for j in before):
                    ents[k] = Span(doc, start, ent.end, label=ent.label_)
                    dropped.update(before)
                break
    if ents != list(doc.ents):
        doc.ents = [e for j, e in enumerate(ents) if j not in dropped]


def _has_noun(span: Span) -> bool:
    return any(t.pos_ in ("NOUN", "PROPN") for t in span)


def label_for_phrase(span: Span) -> str | None:
    """The label a long form with no entity on it deserves by its head word, or None
    if it is generic ("graph neural network" METHOD, "our method" None).

    A generic head ("method", "approach") needs a noun or name beside it; a specific
    head ("distillation", "classification") stands on its own.
    """
    if len(span) == 0:
        return None
    head = span[-1]
    head_word = head.lower_
    content = [t for t in span[:-1] if t.lower_ not in GENERIC_MODIFIERS and not t.is_punct]
    has_noun_modifier = any(
        (t.pos_ in {"NOUN", "PROPN", "X"} and t.lower_ not in GENERIC_NOUN_MODIFIERS)
        or looks_like_name(t.text)
        for t in content
    )
    if head_word in DATASET_HEADS:
        # "the Penn Treebank corpus", "MS-COCO dataset"; not "real-world datasets"
        named = any(t.pos_ == "PROPN" or looks_like_name(t.text) for t in content)
        return "DATASET" if named else None
    if head_word in METRIC_HEADS:
        return "METRIC"
    if head_word in METRIC_MODIFIED_HEADS:
        return "METRIC" if content else None
    if head_word in TASK_WORDS:
        return "TASK" if has_noun_modifier else None
    if head_word in TASK_HEADS or head.lemma_.lower() in TASK_HEADS:
        return "TASK" if content or head_word in STANDALONE_TASK_HEADS else None
    if head_word in METHOD_SPECIFIC_HEADS or head.lemma_.lower() in METHOD_SPECIFIC_HEADS:
        return "METHOD" if content or head_word in STANDALONE_METHOD_HEADS else None
    if head_word in METHOD_GENERIC_HEADS:
        return "METHOD" if has_noun_modifier else None
    if len(span) == 1 and is_coined_model_token(head.text):
        return "METHOD"  # "LLaMA", "GPT-4": a name the NER did not know
    return None


def _share_labels(doc: Doc, pairs: list[tuple[Span, Span]]) -> None:
    by_token = {i: e for e in doc.ents for i in range(e.start, e.end)}
    new: list[Span] = []
    labels: dict[str, str] = {}
    for long, short in pairs:
        long_ent = by_token.get(long.end - 1)
        short_ent = by_token.get(short.start)
        label = (long_ent or short_ent).label_ if (long_ent or short_ent) else None
        if label is None:
            label = label_for_phrase(trim(long))
        if label is None:
            continue
        labels[short.text] = label
        if long_ent is None:
            new.append(Span(doc, long.start, long.end, label=label))
        if short_ent is None:
            new.append(Span(doc, short.start, short.end, label=label))
    for token in doc:  # later bare uses of a defined short form
        if token.text in labels and token.i not in by_token:
            new.append(Span(doc, token.i, token.i + 1, label=labels[token.text]))
    add_entities(doc, new)


def _vote_labels(doc: Doc, pairs: list[tuple[Span, Span]]) -> None:
    """Give every mention of a name (and of its acronym) its majority label."""
    alias = {short.text: long.text.lower() for long, short in pairs}

    def name_of(ent: Span) -> str:
        return alias.get(ent.text, ent.text.lower())

    votes: dict[str, list[str]] = {}
    for ent in doc.ents:
        votes.setdefault(name_of(ent), []).append(ent.label_)
    winner = {}
    for name, labels in votes.items():
        if len(set(labels)) > 1:
            counts = {label: labels.count(label) for label in labels}
            best = max(counts.values())
            winner[name] = next(label for label in labels if counts[label] == best)
    if not winner:
        return
    ents = []
    for ent in doc.ents:
        label = winner.get(name_of(ent), ent.label_)
        ents.append(ent if label == ent.label_ else Span(doc, ent.start, ent.end, label=label))
    doc.ents = ents
