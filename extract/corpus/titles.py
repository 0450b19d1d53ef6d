"""What a paper's title says it proposes.

Authors name their contribution in the title more reliably than in any sentence
of the abstract: "CLaM-TTS: Improving Neural Codec Language Model for Zero-Shot
Text-to-Speech", "ToolBench: …", "Blurred-Dilated Method for Adversarial
Attacks". The abstract then often says "our method" or "we develop an approach"
and the name appears later, as a use. :func:`with_title_proposals` marks as
proposed, in each paper:

- the name before a title's colon ("Cal-QL: Calibrated Offline RL …", "The Graph
  Pencil Method: …"), unless it is a topic or a description (:func:`title_name`);
- a name the abstract defines with an acronym ("free data selection (FreeSel)")
  when the title holds the long form or the acronym and a sentence in which the
  paper puts something forward ("we propose", "which we call") names it, unless
  the acronym is common in the corpus (defined by :data:`COMMON_ACRONYM_PAPERS`
  papers or more: "large language models (LLMs)" is nobody's contribution).

Every mention of such a name in the paper becomes proposed; a name the NER
missed in the abstract is added as a mention.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ...records import Mention, PaperMentions
from ..names import looks_like_name
from ..nlp.components.lexicon import DATASET_HEADS
from ..resolve.acronym_votes import paper_long_forms
from ..resolve.keys import clean_surface
from .record_blocks import ChangedRecords

__all__ = ["COMMON_ACRONYM_PAPERS", "title_name", "with_title_proposals"]


#: an acronym that this many papers of a corpus define is established, not proposed
COMMON_ACRONYM_PAPERS = 3
#: words a title's leading name has at most ("Neural Codec Language Model: …" is a phrase)
_MAX_NAME_WORDS = 4
_SENTENCE = re.compile(r"[^.!?]*(?:[.!?]+|$)")


def _fold(text: str) -> str:
    return re.sub(r"[\s\-‐–_]+", " ", clean_surface(text).lower()).strip()


#: first words of a title phrase that names a topic, not a thing ("Learning to Reason",
#: "Towards Robust X", "On the Convergence of Y")
_TOPIC_STARTS = frozenset(
    "on towards toward beyond revisiting rethinking when why how what is are do does can "
    "understanding learning improving".split()
)
#: words that make a title phrase a description ("Tester-Learners for Halfspaces")
_DESCRIPTION_WORDS = frozenset("for of with via in on to from by and or".split())
#: words that make a title phrase a clause, a slogan rather than a name ("Winner Takes
#: It All", "Align Your Prompts", "Every Parameter Matters"): pronouns, determiners
#: and quantifiers, auxiliaries, negation, and the particles of phrasal verbs ("Break
#: It Down"). A name is a noun phrase and has none of them.
_CLAUSE_WORDS = frozenset(
    """
    i me my you your yours yourself yourselves we us our it its itself they them their
    he him his she her this these those what which who whom whose whatever
    all every each any some no none nothing everything something anything
    not also is are was were be been am do does did can could will would shall should
    may might must as up down out off
    """.split()
)


def title_name(title: str, abstract: str | None = None) -> str | None:
    """The name before a title's colon, when there is one.

    It is a name when a word of it is written as one ("Cal-QL", "DIFFER") or
    when it is a short Title-Case phrase ("The Graph Pencil Method", "Amortized
    Reparametrization"), and not a topic ("Learning to Reason"), a
    description ("Tester-Learners for Halfspaces") or a clause ("Winner Takes It
    All", "Train Faster, Perform Better"). A clause is a name only when the
    ``abstract`` uses it as one.

    >>> title_name("Cal-QL: Calibrated Offline RL Pre-Training for Efficient Online Fine-Tuning")
    'Cal-QL'
    >>> title_name("DIFFER:Decomposing Individual Reward for Fair Experience Replay")
    'DIFFER'
    >>> title_name("The Graph Pencil Method: Mapping Subgraph Densities to Block Models")
    'Graph Pencil Method'
    >>> title_name("Learning to Reason: A Survey") is None
    True
    >>> title_name("Bandits with Knapsacks: Adversarial Rewards") is None
    True
    >>> title_name("Tester-Learners for Halfspaces: Universal Algorithms") is None
    True
    >>> title_name("Winner Takes It All: Training RL Populations") is None  # a slogan
    True
    >>> title_name("Train Faster, Perform Better: Modular Adaptive Training") is None
    True
    >>> title_name("You Only Condense Once: Two Rules", "We propose You Only Condense Once (YOCO).")
    'You Only Condense Once'
    """
    head, colon, _ = title.partition(":")
    words = head.split()
    if words and words[0].lower() in {"the", "a", "an"}:
        words = words[1:]
    if not colon or not words or len(words) > _MAX_NAME_WORDS:
        return None
    lowered = [w.lower() for w in words]
    if _DESCRIPTION_WORDS & set(lowered):
        return None
    if "," in head or _CLAUSE_WORDS & set(lowered):  # "No Change, No Gain"
        # a name only if the abstract calls the thing so ("You Only Condense Once (YOCO)")
        phrase = " ".join(words)
        if abstract is None or _in_text(phrase, abstract, ignore_case=True) is None:
            return None
        return phrase
    if any(looks_like_name(w.strip("()")) for w in words):
        return " ".join(words)
    if lowered[0] in _TOPIC_STARTS:
        return None
    return " ".join(words) if all(w[:1].isupper() for w in words) else None


#: "we propose", "this paper introduces", "which we call": the paper puts a thing forward
_PUT_FORWARD = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:paper|work))\b[^.;]{0,80}?"
    r"\b(?:propos|introduc|present|develop|design|devis|term|call|nam|dub|coin)\w*",
    re.IGNORECASE,
)


#: words after which a sentence speaks of what the proposal is for, not of what it is
_PURPOSE = re.compile(r"\b(?:for|to|on|in|of|which|that|where|than|over)\b", re.IGNORECASE)


def _put_forward(names: list[str], text: str) -> bool:
    """Whether a sentence in which the paper puts something forward names one of ``names``
    as what it puts forward (before any "for", "to", "on": not the problem it is for).

    A title names what a paper studies as often as what it proposes ("Revisiting
    Adversarial Robustness Distillation"); an acronym counts only when the
    paper says it is its own ("we propose Synthetic Experience Replay (SynthER)").

    >>> _put_forward(["SynthER"], "We propose Synthetic Experience Replay (SynthER). It helps.")
    True
    >>> _put_forward(["K-FAC"], "K-FAC is popular. We extend it to transformers.")
    False
    >>> _put_forward(["VRP"], "We propose a new method for the vehicle routing problem (VRP).")
    False
    """
    for sentence in _SENTENCE.finditer(text):
        trigger = _PUT_FORWARD.search(sentence.group(0))
        if not trigger:
            continue
        after = sentence.group(0)[trigger.end() :]
        purpose = _PURPOSE.search(after)
        first = min(
            (where[0] for name in names if (where := _in_text(name, after)) is not None),
            default=None,
        )
        if first is not None and (purpose is None or first < purpose.start()):
            return True
    return False


def _in_text(name: str, text: str, *, ignore_case: bool = False) -> tuple[int, int] | None:
    """Where ``name`` first stands in ``text`` as words of its own (no letter, digit,
    "_" or "-" joined to it)."""
    if ignore_case or not name:
        flags = re.IGNORECASE if ignore_case else 0
        match = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, flags)
        return (match.start(), match.end()) if match else None
    # str.find, not a regular expression per name: thousands of names overflow re's
    # cache of compiled patterns, and compiling them was a third of the titles step
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        if not (_joins(text[start - 1 : start]) or _joins(text[end : end + 1])):
            return start, end
        start = text.find(name, start + 1)
    return None


def _joins(char: str) -> bool:
    """Whether ``char`` would join a name to its neighbour (``[\\w-]`` of re)."""
    return bool(char) and (char.isalnum() or char in "_-")


def _sentence_at(text: str, start: int) -> str:
    for match in _SENTENCE.finditer(text):
        if match.start() <= start < max(match.end(), match.start() + 1):
            return match.group(0).strip()
    return text[:300]


def with_title_proposals(results: Sequence[PaperMentions]) -> Sequence[PaperMentions]:
    """``results`` with what each title names marked proposed, each paper's made when it
    is read (:class:`~.record_blocks.ChangedRecords`), once the papers that define
    each acronym are counted: an acronym that many papers define (a common one) is
    no paper's own."""
    defined_by: Counter[str] = Counter()
    for result in results:
        defined_by.update({_fold(short) for short in paper_long_forms(result)})
    return ChangedRecords(results, lambda _, result: _title_proposals(result, defined_by))


def _title_proposals(result: PaperMentions, defined_by: Counter[str]) -> PaperMentions:
    """``result`` with what its title names marked proposed (and, when its title's
    leading name is no mention, that name added as one)."""
    forms = paper_long_forms(result)
    title = result.paper.title or ""
    names: set[str] = set()
    leading = title_name(title, result.paper.text)
    if leading:
        names.add(_fold(leading))
    folded_title = f" {_fold(title)} "
    title_words = set(re.findall(r"[\w-]+", title))
    for short, longs in forms.items():
        if defined_by[_fold(short)] >= COMMON_ACRONYM_PAPERS:
            continue
        in_title = short in title_words or any(f" {_fold(lf)} " in folded_title for lf in longs)
        if in_title and _put_forward([*longs, short], result.paper.text):
            names.add(_fold(short))
            names.update(_fold(lf) for lf in longs)
    if not names:
        return result
    mentions = []
    hit = False
    for mention in result.mentions:
        own = {_fold(mention.text)}
        if mention.long_form:
            own.add(_fold(mention.long_form))
        if own & names:
            hit = True
            if not mention.proposed:
                mention = replace(mention, proposed=True)
        mentions.append(mention)
    if not hit and leading and _fold(leading) in names:
        document = result.paper.document
        where = _in_text(leading, document, ignore_case=True)
        if where is not None:
            label = "DATASET" if set(_fold(title).split()) & DATASET_HEADS else "METHOD"
            mentions.append(
                Mention(
                    text=document[where[0] : where[1]],
                    label=label,
                    start=where[0],
                    end=where[1],
                    sentence=_sentence_at(document, where[0]),
                    proposed=True,
                )
            )
            mentions.sort(key=lambda m: (m.start, m.end))
            hit = True
    return replace(result, mentions=mentions) if hit else result
