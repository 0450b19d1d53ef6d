"""Tell what a paper proposes from what it merely uses.

"we introduce LADS, a hierarchical approach", "we propose a lightweight predictor
(Light-DDG)", "which we term selective KD (SelKD)", "we present a simple yet
effective IMVC approach, SIIHPC": the names these sentences put forward are marked
proposed; every other mention is a use.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from ...names import looks_like_name
from .dataset_cues import name_spans
from .lexicon import DATASET_HEADS, METHOD_GENERIC_HEADS, TASK_WORDS
from .spans import add_entities

if not Span.has_extension("proposed"):
    Span.set_extension("proposed", default=False)

#: verbs whose object a paper puts forward when "we" (or "this paper") is the subject
PROPOSAL_VERBS = frozenset(
    "propose introduce present develop design devise build release curate collect".split()
)
#: verbs that name something new whoever the subject is ("termed X", "which we call X")
NAMING_VERBS = frozenset("term call name dub coin".split())
SELF_SUBJECTS = frozenset({"we", "i"})
#: "this paper proposes", "our work introduces" (but not "prior work proposed")
SELF_NOUNS = frozenset("paper work study article thesis".split())
SELF_DETERMINERS = frozenset({"this", "our", "present"})

#: tokens that end the stretch of a sentence that says what is proposed
_WINDOW_STOPS = frozenset(
    "which that where whose ; : based using use uses with by via from than over upon "
    "leveraging built inspired while whereas following to for of on in designed aimed "
    "capable able".split()
)
_WINDOW_LENGTH = 16
_TYPE_HEADS = METHOD_GENERIC_HEADS | DATASET_HEADS | TASK_WORDS


def _is_trigger(token) -> bool:
    lemma = token.lemma_.lower()
    if lemma in NAMING_VERBS and token.pos_ in {"VERB", "AUX"}:
        return True
    if lemma not in PROPOSAL_VERBS or token.pos_ != "VERB":
        return False
    doc = token.doc
    first = max(token.sent.start, token.i - 4)
    for t in doc[first : token.i]:
        if t.lower_ in SELF_SUBJECTS:
            return True
        if t.lower_ in SELF_NOUNS and t.i > first and doc[t.i - 1].lower_ in SELF_DETERMINERS:
            return True
    return False


def _window(token) -> Span:
    doc = token.doc
    start = token.i + 1
    if start < token.sent.end and doc[start].lower_ == "to":  # "we propose to use X"
        return doc[start:start]
    end = start
    limit = min(token.sent.end, start + _WINDOW_LENGTH)
    while end < limit and not _stops(doc, end):
        end += 1
    return doc[start:end]


def _stops(doc: Doc, i: int) -> bool:
    """Whether token ``i`` ends a proposal window; not inside a hyphenated word
    ("modification-based")."""
    glued = i > 0 and doc[i - 1].text == "-" and not doc[i - 1].whitespace_
    return doc[i].lower_ in _WINDOW_STOPS and not glued


#: words after a proposal verb that say what the proposal is for or built from
_PURPOSE_WORDS = frozenset(
    "for to on which that where whose than over by using based with from via upon".split()
)
#: how far after the verb a definition still names what is proposed
_DEFINITION_REACH = 20


def _defined_after(trigger, long: Span) -> bool:
    """An acronym's long form that follows the proposal verb before any word of purpose:
    "we propose a novel solution, bootstrapped training of score-conditioned generator
    (BootGen)"; not "a new method for reinforcement learning (RL)"."""
    doc = trigger.doc
    if not (trigger.i < long.start <= trigger.i + _DEFINITION_REACH):
        return False
    if long.start >= trigger.sent.end:
        return False
    return not any(doc[k].lower_ in _PURPOSE_WORDS for k in range(trigger.i + 1, long.start))


def _named_after_colon(window: Span) -> Span | None:
    """The stretch after a colon that ends ``window``, when it holds a name.

    "we propose a novel model modification-based transfer attack: Blurred-Dilated
    method (BD)": the description comes first, the name after the colon.
    """
    doc = window.doc
    colon = window.end
    if colon >= window.sent.end or doc[colon].text != ":":
        return None
    end = colon + 1
    limit = min(window.sent.end, end + _WINDOW_LENGTH)
    while end < limit and not _stops(doc, end):
        end += 1
    after = doc[colon + 1 : end]
    return after if any(True for _ in name_spans(after)) else None


def _is_type_modifier(run: Span) -> bool:
    """A name that only says what kind of thing follows: "an *IMVC* approach, SIIHPC"."""
    doc = run.doc
    return run.end < len(doc) and doc[run.end].lower_ in _TYPE_HEADS


def _label_from_context(window: Span) -> str:
    words = {t.lower_ for t in window}
    if words & DATASET_HEADS:
        return "DATASET"
    if words & TASK_WORDS:
        return "TASK"
    return "METHOD"


#: quotes that open and close a coined name: "termed “Composition through Decomposition”"
_QUOTES = {'"': '"', "“": "”", "‘": "’", "'": "'", "``": "''", "`": "'"}
#: the longest name in quotes read as one
_QUOTED_LENGTH = 8


def quoted_name(token) -> Span | None:
    """The words in quotes just after a naming verb, read as one name whatever the NER
    cut: "our method, termed “Composition through Decomposition”, involves", "we call
    this approach “look-alike clustering”"."""
    doc = token.doc
    if token.lemma_.lower() not in NAMING_VERBS:
        return None
    start = token.i + 1
    while start < min(token.sent.end, token.i + 4) and not doc[start].is_punct:
        start += 1  # "as", or what is named: "it", "this approach"
    if start >= token.sent.end or doc[start].text not in _QUOTES:
        return None
    close = _QUOTES[doc[start].text]
    for end in range(start + 1, min(token.sent.end, start + 2 + _QUOTED_LENGTH)):
        if doc[end].text == close or (close == "'" and doc[end].text == "''"):
            return doc[start + 1 : end] if end > start + 1 else None
    return None


def find_proposed_spans(doc: Doc) -> list[Span]:
    """Spans of ``doc`` that the paper itself puts forward (unlabelled spans)."""
    acronym_pairs = doc._.acronyms if doc.has_extension("acronyms") else []
    proposed: list[Span] = []
    for token in doc:
        if not _is_trigger(token):
            continue
        quoted = quoted_name(token)
        if quoted is not None:
            proposed.append(quoted)
            continue
        window = _window(token)
        if len(window) == 0:
            continue
        named = _named_after_colon(window)
        if named is not None:  # "we propose a novel attack: Blurred-Dilated method (BD)"
            window = named
        found: list[Span] = []
        for long, short in acronym_pairs:
            if window.start <= short.start < window.end + 2 or _defined_after(token, long):
                found.extend([long, short])
        found.extend(
            run
            for run in name_spans(window)
            if not any(f.start <= run.start and run.end <= f.end for f in found)
            and not _is_type_modifier(run)
        )
        if not found:
            found.extend(e for e in doc.ents if window.start <= e.start < window.end)
            found = found[:1]
        proposed.extend(found)
    return proposed


@Language.factory("paperkg_proposals", default_config={})
def make_proposal_detector(nlp: Language, name: str) -> ProposalDetector:
    return ProposalDetector()


class ProposalDetector:
    """Marks the entities a paper proposes, adding proposed names NER missed.

    Run after the NER and ``paperkg_acronyms``.

    Sets:
        ``Span._.proposed`` (bool) on the spans in ``Doc.ents``: True when the
        paper introduces the thing, False when it merely uses it.
    """

    def __call__(self, doc: Doc) -> Doc:
        spans = find_proposed_spans(doc)
        new = []
        for span in spans:
            if _is_quoted(span):  # a quoted name is one name: it replaces the cuts inside it
                inside = [e for e in doc.ents if span.start <= e.start and e.end <= span.end]
                overlap = [e for e in doc.ents if e.start < span.end and span.start < e.end]
                if inside and len(inside) == len(overlap):
                    whole = Span(doc, span.start, span.end, label=inside[0].label_)
                    doc.ents = [e for e in doc.ents if e not in inside] + [whole]
                    continue
            if not any(e.start <= span.start < e.end for e in doc.ents):
                window = doc[span.start : min(span.sent.end, span.end + 6)]
                new.append(Span(doc, span.start, span.end, label=_label_from_context(window)))
        add_entities(doc, new)
        for ent in doc.ents:
            ent._.proposed = any(_covers(ent, s) for s in spans) and not _names_a_finding(ent)
        return doc


#: heads of what a paper finds or argues, not of a thing it builds: "a global
#: convergence theory", "a new perspective", "tight regret bounds"
FINDING_HEADS = frozenset(
    """
    theory theories analysis analyses study studies perspective perspectives understanding
    bound bounds result results insight insights investigation view views characterization
    characterisation explanation explanations proof proofs guarantee guarantees observation
    observations finding findings lens interpretation phenomenon conjecture hypothesis
    theorem lemma
    """.split()
)


def _names_a_finding(ent: Span) -> bool:
    """ "a global convergence theory of shallow Transformers": a finding, not a contribution
    one can use by name (a name of its own, "NTK theory", still counts)."""
    head = next((t for t in reversed(ent) if not t.is_punct), None)
    if head is None or head.lower_ not in FINDING_HEADS:
        return False
    return not any(looks_like_name(t.text) for t in ent)


def _is_quoted(span: Span) -> bool:
    doc = span.doc
    return 0 < span.start and span.end < len(doc) and doc[span.start - 1].text in _QUOTES


def _covers(ent: Span, proposed: Span) -> bool:
    """Whether entity ``ent`` stands for the proposed span: it contains it, or is
    most of it ("ΔΔG predictor" for "lightweight ΔΔG predictor", not "KD" for
    "selective KD")."""
    if ent.start <= proposed.start and proposed.end <= ent.end:
        return True
    inside = proposed.start <= ent.start and ent.end <= proposed.end
    return inside and 2 * len(ent) > len(proposed)
