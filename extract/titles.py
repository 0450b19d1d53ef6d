"""What a paper's title says it proposes.

Authors name their contribution in the title more reliably than in any sentence
of the abstract: "CLaM-TTS: Improving Neural Codec Language Model for Zero-Shot
Text-to-Speech", "ToolBench: …", "Blurred-Dilated Method for Adversarial
Attacks". The abstract then often says "our method" or "we develop an approach"
and the name appears later, as a use. :func:`mark_title_proposals` marks as
proposed, in each paper:

- the name before a title's colon ("Cal-QL: Calibrated Offline RL …") when it is
  written as a name or the abstract mentions it;
- a name the abstract defines with an acronym ("free data selection (FreeSel)")
  when the title holds the long form or the acronym and a sentence in which the
  paper puts something forward ("we propose", "which we call") names it, unless
  the acronym is common in the corpus (defined by :data:`COMMON_ACRONYM_PAPERS`
  papers or more: "large language models (LLMs)" is nobody's contribution).

Every mention of such a name in the paper becomes proposed; a name the NER
missed in the abstract is added as a mention.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import replace

from ..records import Mention, PaperMentions
from .acronyms_corpus import paper_long_forms
from .components.lexicon import DATASET_HEADS, looks_like_name
from .keys import clean_surface

__all__ = ["COMMON_ACRONYM_PAPERS", "mark_title_proposals", "title_name"]

logger = logging.getLogger(__name__)

#: an acronym that this many papers of a corpus define is established, not proposed
COMMON_ACRONYM_PAPERS = 3
#: words a title's leading name has at most ("Neural Codec Language Model: …" is a phrase)
_MAX_NAME_WORDS = 4
_SENTENCE = re.compile(r"[^.!?]*(?:[.!?]+|$)")


def _fold(text: str) -> str:
    return re.sub(r"[\s\-‐–_]+", " ", clean_surface(text).lower()).strip()


def title_name(title: str) -> str | None:
    """The name before a title's colon, when there is one.

    >>> title_name("Cal-QL: Calibrated Offline RL Pre-Training for Efficient Online Fine-Tuning")
    'Cal-QL'
    >>> title_name("DIFFER:Decomposing Individual Reward for Fair Experience Replay")
    'DIFFER'
    >>> title_name("Learning to Reason: A Survey") is None
    True
    """
    head, colon, _ = title.partition(":")
    head = head.strip()
    if not colon or not head or len(head.split()) > _MAX_NAME_WORDS:
        return None
    if any(looks_like_name(w.strip("()")) for w in head.split()):
        return head
    return head if len(head.split()) <= 2 and head[:1].isupper() and "-" in head else None


#: "we propose", "this paper introduces", "which we call": the paper puts a thing forward
_PUT_FORWARD = re.compile(
    r"\b(?:we|this (?:paper|work|study)|our (?:paper|work))\b[^.;]{0,80}?"
    r"\b(?:propos|introduc|present|develop|design|devis|term|call|nam|dub|coin)\w*",
    re.IGNORECASE,
)


def _put_forward(short: str, text: str) -> bool:
    """Whether a sentence in which the paper puts something forward names ``short``.

    A title names what the paper studies as often as what it proposes ("Revisiting
    Adversarial Robustness Distillation"); the acronym counts only when the paper
    says it is its own ("we propose Synthetic Experience Replay (SynthER)").

    >>> _put_forward("SynthER", "We propose Synthetic Experience Replay (SynthER). It helps.")
    True
    >>> _put_forward("K-FAC", "K-FAC is popular. We extend it to transformers.")
    False
    """
    for sentence in _SENTENCE.finditer(text):
        trigger = _PUT_FORWARD.search(sentence.group(0))
        if trigger and _in_text(short, sentence.group(0)[trigger.start() :]):
            return True
    return False


def _in_text(name: str, text: str) -> tuple[int, int] | None:
    match = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
    return (match.start(), match.end()) if match else None


def _sentence_at(text: str, start: int) -> str:
    for match in _SENTENCE.finditer(text):
        if match.start() <= start < max(match.end(), match.start() + 1):
            return match.group(0).strip()
    return text[:300]


def mark_title_proposals(results: list[PaperMentions]) -> tuple[list[PaperMentions], int]:
    """Mark what each title names as proposed; return the results and how many papers
    gained a proposal from their title."""
    defined_by: Counter[str] = Counter()
    long_forms = [paper_long_forms(r) for r in results]
    for forms in long_forms:
        defined_by.update({_fold(short) for short in forms})
    out, gained = [], 0
    for result, forms in zip(results, long_forms, strict=True):
        title = result.paper.title or ""
        names: set[str] = set()
        leading = title_name(title)
        if leading and (
            any(looks_like_name(w) for w in leading.split()) or _in_text(leading, result.paper.text)
        ):
            names.add(_fold(leading))
        folded_title = f" {_fold(title)} "
        title_words = set(re.findall(r"[\w-]+", title))
        for short, longs in forms.items():
            if defined_by[_fold(short)] >= COMMON_ACRONYM_PAPERS:
                continue
            in_title = short in title_words or any(f" {_fold(lf)} " in folded_title for lf in longs)
            if in_title and _put_forward(short, result.paper.text):
                names.add(_fold(short))
                names.update(_fold(lf) for lf in longs)
        if not names:
            out.append(result)
            continue
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
            where = _in_text(leading, result.paper.text)
            if where is not None:
                label = "DATASET" if set(_fold(title).split()) & DATASET_HEADS else "METHOD"
                mentions.append(
                    Mention(
                        text=leading,
                        label=label,
                        start=where[0],
                        end=where[1],
                        sentence=_sentence_at(result.paper.text, where[0]),
                        proposed=True,
                    )
                )
                mentions.sort(key=lambda m: (m.start, m.end))
                hit = True
        if hit and not any(m.proposed for m in result.mentions):
            gained += 1
        out.append(replace(result, mentions=mentions) if hit else result)
    logger.info("titles: %d papers gained what they propose from their title", gained)
    return out, gained
