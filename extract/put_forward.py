"""Where an abstract says what the paper puts forward: "we propose X", "this paper
introduces X", "which we term X".

Two stages read it: the reading of a paper's own short names
(:func:`paperkg.extract.resolve.acronym_votes.paper_long_forms`: a coined name the
paper puts forward may abbreviate a name of its title) and the decision of what a
paper proposes (:mod:`paperkg.extract.corpus.contributions`, one of its signs).

>>> text = "Title.\\n\\nWe propose LADS for skills. LADS uses transformers."
>>> [text[a:b] for a, b in put_forward_windows(text)]
[' LADS ']
>>> text = "We study offline models, and implement a practical algorithm, GALILEO, for AWRM."
>>> [text[a:b] for a, b in put_forward_windows(text)]
[' a practical algorithm, GALILEO, ']
"""

from __future__ import annotations

import re

__all__ = ["put_forward_windows"]

_TRIGGER = re.compile(
    r"\b(?:we|this (?:paper|work|study|article)|our (?:paper|work|study))\b[^.;:]{0,120}?"
    r"\b(?:propos|introduc|present|develop|design|devis|build|creat|curat|releas|offer|"
    r"formulat|implement|establish|term|call|dub|coin|name)\w*",
    re.IGNORECASE,
)
#: words after which a put-forward clause speaks of what the proposal is for or built from
_PURPOSE = re.compile(
    r"\b(?:for|to|on|in|of|which|that|where|whose|than|over|by|using|based|with|from|via|"
    r"upon|while|whereas)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?]*(?:[.!?]+|$)")


def put_forward_windows(document: str, start: int = 0) -> list[tuple[int, int]]:
    """The stretches of ``document`` (from ``start``) that name what the paper puts
    forward: from a "we propose"-like verb to the clause's first word of purpose
    ("for", "to", "using" …) or the sentence's end."""
    windows = []
    for sentence in _SENTENCE.finditer(document, start):
        text = sentence.group(0)
        if not text:
            continue
        for trigger in _TRIGGER.finditer(text):
            after = text[trigger.end() :]
            purpose = _PURPOSE.search(after)
            end = trigger.end() + (purpose.start() if purpose else len(after))
            windows.append((sentence.start() + trigger.end(), sentence.start() + end))
    return windows
