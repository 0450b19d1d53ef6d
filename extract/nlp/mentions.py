"""What one process extracts: spaCy entities of each abstract turned into plain Mention records.

:mod:`.extractor` runs this here or in worker processes (:mod:`.workers`), which
import it without importing the executors.
"""

from __future__ import annotations

from collections.abc import Callable

from spacy.language import Language
from spacy.tokens import Doc

from ...records import ENTITY_LABELS, Mention, Paper, PaperMentions

__all__ = ["MAX_MENTION_TOKENS", "extract_here", "mentions_from_doc"]

#: mentions longer than this many tokens are phrases, not names of concepts
MAX_MENTION_TOKENS = 10


def _starts_with_a_quantity(ent) -> bool:
    """ "300 datasets", "89.7× inference acceleration": a count or a result, not a name."""
    first = ent[0]
    return first.like_num or first.text.rstrip("×x%").replace(".", "", 1).isdigit()


def mentions_from_doc(doc: Doc) -> tuple[list[Mention], dict[str, str]]:
    """The mentions and acronym definitions of one processed abstract."""
    acronyms = {short.text: long.text for long, short in getattr(doc._, "acronyms", [])}
    mentions = []
    sentences: dict[str, str] = {}  # one string per sentence, shared by its mentions
    for ent in doc.ents:
        if ent.label_ not in ENTITY_LABELS or len(ent) > MAX_MENTION_TOKENS:
            continue
        # a conjunct that shares the coordination's head has it restored ("unimodal models")
        surface = ent._.surface if ent.has_extension("surface") else None
        text = (surface or ent.text).strip()
        if not any(c.isalpha() for c in text) or _starts_with_a_quantity(ent):
            continue
        mentions.append(
            Mention(
                text=text,
                label=ent.label_,
                start=ent.start_char,
                end=ent.end_char,
                sentence=sentences.setdefault(sentence := ent.sent.text.strip(), sentence),
                proposed=bool(ent._.proposed) if ent.has_extension("proposed") else False,
                long_form=acronyms.get(text),
            )
        )
    return mentions, acronyms


def extract_here(
    nlp: Language,
    papers: list[Paper],
    *,
    batch_size: int = 32,
    on_paper: Callable[[Paper], None] | None = None,
) -> list[PaperMentions]:
    """The mentions of ``papers``, in order, with ``nlp`` in this process."""
    results = []
    docs = nlp.pipe((p.document for p in papers), batch_size=batch_size)
    for paper, doc in zip(papers, docs, strict=True):
        mentions, acronyms = mentions_from_doc(doc)
        results.append(PaperMentions(paper=paper, mentions=mentions, acronyms=acronyms))
        if on_paper is not None:
            on_paper(paper)
    return results
