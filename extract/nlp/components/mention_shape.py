"""Give every mention the shape of a name: whole words, no filler, one thing each.

A NER tags word pieces of meaning, not names, and its errors have a few recurring
shapes that no reader would accept as a concept:

- a piece of a word: "pre" of *pre-training*, "open" of *open-vocabulary*;
- a run-on into an unclosed bracket: "in-distribution (ID";
- a lone adjective: "heavy", "single", "generative";
- filler in front of the name: "prevalent text-to-text instruction tuning",
  "big Transformer-based model";
- two things in one: "rematerialization and offloading", "truncation and saliency
  method", "unimodal and multimodal models";
- an idiom read as a term: "gained attention", "at scale";
- a citation: "Smith et al.", "(Vaswani et al., NeurIPS 2017)";
- a kind word run on after the name: "scaled symmetric sampling method",
  "integer programming problems", "GCN layer", "UNet training" (the span keeps
  it, as SciERC marks "parsing algorithm"; the mention's name drops it);
- a name inside a word group: "GNN-based methods", "RLHF-like", "ZOO-based VFL"
  (two names).

:class:`MentionShape` runs last in the pipeline and reshapes ``doc.ents``
accordingly. Each rule is a switch of the component's config, so each can be
measured on its own (``bench/extraction.py``).
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from ...names import looks_like_name, proper_name_token, title_cased
from .lexicon import FILLER_ADJECTIVES, METHOD_GENERIC_HEADS

if not Span.has_extension("proposed"):
    Span.set_extension("proposed", default=False)
if not Span.has_extension("surface"):
    # the mention's text when it is not the span's own: the shared head restored
    # to a conjunct ("unimodal" in "unimodal and multimodal models" -> "unimodal models"),
    # a kind word dropped ("integer programming problems" -> "integer programming")
    Span.set_extension("surface", default=None)

#: characters that join the parts of one word ("pre-training", "encoder/decoder")
_JOINERS = frozenset({"-", "/", "_", "–", "‐"})
#: POS of a token a name can end on; a gerund ("learning", "pruning") too
_NAME_END_POS = frozenset({"NOUN", "PROPN", "NUM", "X", "SYM"})
# not filler, as they start established names: "large language model", "small
# language model", "naive Bayes", "robust PCA", "deep learning"
#: verbs whose object is an idiom, not a term: "gained attention", "drew interest"
LIGHT_VERBS = frozenset("gain draw attract receive garner pay capture get".split())
#: a bare noun after these is an adverbial idiom: "at scale", "by design", "in practice"
_IDIOM_PREPOSITIONS = frozenset({"at", "by", "in"})
_YEAR = re.compile(r"^(19|20)\d\d[a-z]?$")


def _is_name_like(token) -> bool:
    text = token.text
    if looks_like_name(text):
        return True
    capital = text[:1].isupper() and not token.is_sent_start
    return capital and not title_cased(token.sent.text)


def whole_words(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` to whole words: tokens glued by a hyphen or slash.

    "pre" in "pre-training" -> "pre-training"; "Õ(n" is not glued by a joiner
    and stays, nor is "He" in "He/LeCun" (two names).
    """

    def joiner(i: int) -> bool:
        return doc[i].text in _JOINERS and not _name_slash(doc[i])

    while start > 0 and (
        (joiner(start - 1) and not doc[start - 1].whitespace_)
        or (joiner(start) and not doc[start - 1].whitespace_)
    ):
        if joiner(start - 1) and start - 2 >= 0 and not doc[start - 2].whitespace_:
            start -= 2
        elif joiner(start):
            start -= 1
        else:
            break
    while end < len(doc) and not doc[end - 1].whitespace_ and (joiner(end) or joiner(end - 1)):
        if joiner(end) and end + 1 < len(doc) and not doc[end].whitespace_:
            end += 2
        elif joiner(end - 1):
            end += 1
        else:
            break
    return start, end


def one_line(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """No whitespace at the edges, and no line break inside: the title and the
    abstract's first sentence are apart ("\n\nKnowledge-based VQA" -> "Knowledge-based VQA")."""
    while start < end and doc[start].is_space:
        start += 1
    while end > start and doc[end - 1].is_space:
        end -= 1
    breaks = [i for i in range(start, end) if doc[i].is_space and "\n" in doc[i].text]
    if breaks:  # keep the longer side of the first break
        cut = breaks[0]
        start, end = (start, cut) if cut - start >= end - cut - 1 else (cut + 1, end)
    return start, end


def balanced(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Cut an unclosed bracket and what follows it, or an unopened one and what precedes;
    drop a bracketed remark in front of the name ("(SOTA) DC" -> "DC")."""
    if doc[start].text in "([":
        closing = next((k for k in range(start, end) if doc[k].text in ")]"), None)
        if closing is not None and closing + 1 < end:
            start = closing + 1
    depth_open = []
    for i in range(start, end):
        if doc[i].text in "([":
            depth_open.append(i)
        elif doc[i].text in ")]":
            if depth_open:
                depth_open.pop()
            else:
                start = i + 1
    if depth_open:
        end = depth_open[0]
    while end > start and (doc[end - 1].is_punct and doc[end - 1].text not in ")]"):
        end -= 1
    while start < end and doc[start].is_punct and doc[start].text not in "([":
        start += 1
    return start, end


#: verbs that introduce a name and are no part of it: "named Subtree Attention (STA)"
NAMING_VERBS = frozenset(
    "named called termed dubbed coined proposed introduced presented denoted".split()
)

#: the verbs of a title's rhetoric: "Recasting Continual Learning as …". Only
#: capitalised in a title: in running text "improving translation quality" or
#: "understanding images" may be the very task a corpus annotates.
TITLE_VERBS = frozenset(
    """
    recasting rethinking revisiting deconstructing unifying bridging understanding
    improving enhancing exploring investigating analyzing analysing characterizing
    demystifying unveiling unlocking leveraging harnessing mitigating addressing
    tackling overcoming accelerating tailoring towards toward
    """.split()
)


def _title_rhetoric(token) -> bool:
    """A title verb opening a title or its part after the colon, or inside a Title-Case title."""
    if token.lower_ not in TITLE_VERBS or not token.text[:1].isupper():
        return False
    after_colon = token.i > token.sent.start and token.doc[token.i - 1].text == ":"
    return token.is_sent_start or after_colon or title_cased(token.sent.text)


def without_filler(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Drop rating and sizing adjectives, naming verbs and a title's rhetoric in
    front of a name ("big Transformer-based model", "named Subtree Attention",
    "Recasting Continual Learning")."""
    while end - start > 1 and (
        (doc[start].lower_ in FILLER_ADJECTIVES | NAMING_VERBS and doc[start].is_lower)
        or _title_rhetoric(doc[start])
    ):
        nxt = doc[start + 1]
        if nxt.text in _JOINERS and not doc[start].whitespace_:
            break  # "large-scale" is one word; whole_words keeps it
        start += 1
    return start, end


#: last words that say what kind of thing a name is, not which one: dropped after any
#: name ("scaled symmetric sampling method" -> "scaled symmetric sampling"). In our
#: annotated abstracts these words follow a name two to five times as often as they
#: end one; "process", "model" and "training" end names too often to be here.
KIND_TAILS = frozenset(
    """
    method methods approach approaches technique techniques framework frameworks
    scheme schemes strategy strategies paradigm paradigms problem problems setting
    settings principle principles formulation formulations algorithm algorithms
    guarantee guarantees scenario scenarios
    """.split()
)
#: kind words dropped only after a proper name: "GCN layer" -> "GCN", "UNet training"
#: -> "UNet", "BERT model" -> "BERT" (but "diffusion model", "adversarial training")
NAME_KIND_TAILS = frozenset(
    """
    model models training layer layers module modules architecture architectures
    agent agents classifier classifiers learner learners branch branches variant variants
    """.split()
)


def without_kind_tail(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Drop a lower-case kind word after the name it follows (:data:`KIND_TAILS`,
    :data:`NAME_KIND_TAILS`): "integer programming problems" -> "integer programming".

    The rest must still name a thing on its own, so "our method", "gradient-based
    method" and a Title-Case name ("Guided Imagination Framework") stay whole.
    """
    if end - start < 2:
        return start, end
    last, before = doc[end - 1], doc[end - 2]
    if not last.is_lower or before.text in _JOINERS or not before.whitespace_:
        return start, end
    if last.lower_ in KIND_TAILS:
        rest = doc[start : end - 1]
        one_capitalised_word = len(rest) == 1 and before.is_title and not before.is_sent_start
        if (
            names_a_thing(rest)
            and (before.pos_ != "ADJ" or proper_name_token(before.text))
            and not one_capitalised_word  # "Pizza algorithm", "Janus problem": the name
        ):
            return start, end - 1
    elif last.lower_ in NAME_KIND_TAILS and proper_name_token(before.text):
        return start, end - 1
    return start, end


#: second halves of a hyphenated word that make a name into a modifier: "GNN-based"
NAME_SUFFIXES = frozenset(
    """
    based like guided driven powered assisted augmented inspired style synthesized
    generated enhanced equipped empowered
    """.split()
)
#: a head that says only what kind of thing is built on the name ("GNN-based methods")
_KIND_HEADS = KIND_TAILS | NAME_KIND_TAILS | METHOD_GENERIC_HEADS


def name_and_head(doc: Doc, start: int, end: int) -> list[tuple[int, int, bool]]:
    """The parts of a span that holds a name in a word group, ``(start, end, is_head)``:
    "GNN-based methods" -> "GNN"; "ZOO-based VFL" -> "ZOO" and "VFL";
    "Transformer-based architecture" -> "Transformer"; "RLHF-like" -> "RLHF".

    Only a proper name before the suffix is cut out: common words ("model-based
    reinforcement learning", "score-based diffusion models", "Gaussian Process-based
    optimization") stay whole, so do a Title-Case coined name and a defined acronym's
    long form ("Semantic-assisted Object Cluster (SOC)").
    """
    whole = [(start, end, True)]
    cut = next(
        (
            k
            for k in range(start + 1, end - 1)
            if doc[k].text in _JOINERS
            and doc[k + 1].lower_ in NAME_SUFFIXES
            and not doc[k - 1].whitespace_
            and not doc[k].whitespace_
        ),
        None,
    )
    if cut is None or any(t.text in "()" for t in doc[start:end]):
        return whole
    if doc[cut + 1].text[:1].isupper() or any(t.is_title for t in doc[cut + 2 : end]):
        return whole  # Title Case: a coined name, or a title ("Language-based Colorization")
    name = doc[start:cut]
    one_name = len(name) == 1 and _is_name_like(name[0]) and not name[0].is_sent_start
    if not (one_name or any(proper_name_token(t.text) for t in name)):
        return whole
    parts = [(start, cut, False)]
    head = doc[cut + 2 : end]
    # the head is a second name unless it is one word saying only what kind of thing
    one_kind_word = len(head) == 1 and (head[0].lower_ in _KIND_HEADS or not _is_name_like(head[0]))
    if len(head) and not one_kind_word:
        parts.append((head.start, head.end, True))
    return parts


def names_a_thing(span: Span) -> bool:
    """Whether a span can name a concept: it ends on a noun, a gerund or a name.

    "heavy", "generate adversarial", "diffusion perturbed" cannot, nor a single
    letter, nor a formula cut inside a token ("Õ(n").
    """
    text = span.text
    if len(text) < 2 or text.count("(") != text.count(")"):
        return False  # "S", "Õ(n": a letter, or a formula cut inside a token
    last = span[-1]
    if last.text in ")]" and len(span) > 1:
        last = span[-2]
    if last.pos_ in _NAME_END_POS or last.tag_ == "VBG" or _is_name_like(last):
        return True
    return any(_is_name_like(t) for t in span) and last.pos_ != "VERB"


def is_idiom(span: Span) -> bool:
    """A lone common noun used in an idiom: "gained (much) attention", "at scale"."""
    if len(span) != 1 or not span[0].is_lower:
        return False
    doc = span.doc
    i = span.start
    k = i - 1
    while k >= max(0, i - 3) and doc[k].pos_ in {"ADJ", "ADV", "DET"}:
        k -= 1
    if k >= 0 and doc[k].lemma_.lower() in LIGHT_VERBS and doc[k].pos_ in {"VERB", "AUX"}:
        return True
    nxt = doc[i + 1] if i + 1 < len(doc) else None
    bare_after_preposition = i > 0 and doc[i - 1].lower_ in _IDIOM_PREPOSITIONS
    return bare_after_preposition and (nxt is None or nxt.pos_ not in {"NOUN", "PROPN", "ADJ"})


def in_citation(span: Span) -> bool:
    """A mention that is a cited author or venue: "Smith et al.", "(Vaswani et al., 2017)"."""
    doc = span.doc
    after = doc[span.end : span.end + 2].text.lower()
    if after.startswith("et al"):
        return True
    sent = span.sent
    # inside brackets that hold a year and "et al." (a citation), or a year alone
    opening = next(
        (k for k in range(span.start - 1, sent.start - 1, -1) if doc[k].text in "()[]"), None
    )
    if opening is None or doc[opening].text not in "([":
        return False
    closing = next((k for k in range(span.end, sent.end) if doc[k].text in ")]"), None)
    if closing is None:
        return False
    inside = doc[opening + 1 : closing]
    has_year = any(_YEAR.match(t.text) for t in inside)
    return has_year and ("et al" in inside.text.lower() or len(inside) <= 6)


def _name_slash(token) -> bool:
    """A slash between two capitalised names: "He/LeCun initialization" is two things."""
    doc = token.doc
    if token.text != "/" or token.i == 0 or token.i + 1 >= len(doc):
        return False
    return doc[token.i - 1].text[:1].isupper() and doc[token.i + 1].text[:1].isupper()


def conjuncts(span: Span) -> list[tuple[int, int, str | None]]:
    """The parts of a coordination: ``(start, end, surface)``; ``[]`` if it is one name.

    "rematerialization and offloading" -> both words; "truncation and saliency
    method" and "unimodal and multimodal models" -> each conjunct with the shared
    head ("truncation method", "saliency method"). A capitalised name with "and"
    ("Pick and Place") stays whole, so do spans with brackets.
    """
    doc = span.doc
    separators = [t.i for t in span if t.lower_ in {"and", "or"} or t.text == "," or _name_slash(t)]
    if not separators or any(t.text in "()[]" for t in span):
        return []
    words = [t for t in span if t.i not in separators]
    if all(t.text[:1].isupper() for t in words) or separators[0] == span.start:
        return []
    if separators[-1] == span.end - 1:
        return []
    parts, begin = [], span.start
    for sep in [*separators, span.end]:
        if sep > begin:
            parts.append((begin, sep))
        begin = sep + 1
    if len(parts) < 2:
        return []
    last_start, last_end = parts[-1]
    head = doc[last_end - 1].text
    out: list[tuple[int, int, str | None]] = []
    for s, e in parts[:-1]:
        shares_head = e - s == 1 and last_end - last_start > 1
        out.append((s, e, f"{doc[s].text} {head}" if shares_head else None))
    out.append((last_start, last_end, None))
    return out


@Language.factory(
    "paperkg_mention_shape",
    default_config={
        "whole_words": True,
        "balanced": True,
        "filler": True,
        "needs_noun": True,
        "idioms": True,
        "citations": True,
        "coordination": True,
        "kind_tails": True,
        "name_in_word_group": True,
    },
)
def make_mention_shape(
    nlp: Language,
    name: str,
    whole_words: bool,
    balanced: bool,
    filler: bool,
    needs_noun: bool,
    idioms: bool,
    citations: bool,
    coordination: bool,
    kind_tails: bool,
    name_in_word_group: bool,
) -> MentionShape:
    return MentionShape(
        whole_words=whole_words,
        balanced=balanced,
        filler=filler,
        needs_noun=needs_noun,
        idioms=idioms,
        citations=citations,
        coordination=coordination,
        kind_tails=kind_tails,
        name_in_word_group=name_in_word_group,
    )


class MentionShape:
    """Reshapes the entities of ``doc.ents`` into names (see the module docstring).

    Run last, after the NER and the other rule components. Each constructor
    flag turns one rule on or off.

    Sets:
        ``Span._.surface`` (str or None) when the mention's name is not the span's
        text: a conjunct that borrows the coordination's shared head ("unimodal
        models"), or a name without the kind word after it ("integer programming"
        for "integer programming problems").
        ``Span._.proposed`` (bool) is carried from an entity to its reshaped parts
        (of a word group such as "ZOO-based VFL", to its head only).
    """

    def __init__(self, **rules: bool) -> None:
        self.rules = rules

    def __call__(self, doc: Doc) -> Doc:
        rules = self.rules
        shaped: list[Span] = []
        for ent in doc.ents:
            if rules.get("citations") and in_citation(ent):
                continue
            pieces = conjuncts(ent) if rules.get("coordination") else []
            if not pieces:
                pieces = [(ent.start, ent.end, None)]
            # conjuncts sharing a head keep it: "truncation and saliency method"
            shared_head = any(surface for _, _, surface in pieces)
            for start, end, surface in pieces:
                start, end = one_line(doc, start, end)
                if end <= start:
                    continue
                if rules.get("whole_words"):
                    start, end = whole_words(doc, start, end)
                if rules.get("balanced"):
                    start, end = balanced(doc, start, end)
                parts = [(start, end, True)]
                if rules.get("name_in_word_group") and end > start and not surface:
                    parts = name_and_head(doc, start, end)
                for start, end, is_head in parts:
                    span = self._shaped(doc, ent, start, end, surface, shared_head)
                    if span is not None:
                        span._.proposed = ent._.proposed and is_head
                        shaped.append(span)
        kept = filter_spans(shaped)
        extras = {(s.start, s.end): (s._.proposed, s._.surface) for s in kept}
        doc.ents = kept
        for ent in doc.ents:  # doc.ents makes new Span objects: carry the attributes over
            ent._.proposed, ent._.surface = extras[(ent.start, ent.end)]
        return doc

    def _shaped(
        self, doc: Doc, ent: Span, start: int, end: int, surface: str | None, shared_head: bool
    ) -> Span | None:
        """One part of ``ent`` cut to a name, or None if no name is left."""
        rules = self.rules
        if rules.get("filler") and end > start and not surface:
            start, end = without_filler(doc, start, end)
        if end <= start:
            return None
        span = Span(doc, start, end, label=ent.label_)
        if rules.get("needs_noun") and not surface and not names_a_thing(span):
            return None
        if rules.get("idioms") and is_idiom(span):
            return None
        if rules.get("kind_tails") and not shared_head:
            # the span keeps its kind word (SciERC marks "parsing algorithm"); the name not
            _, name_end = without_kind_tail(doc, start, end)
            if name_end < end:
                surface = doc[start:name_end].text
        if surface:
            span._.surface = surface
        return span
