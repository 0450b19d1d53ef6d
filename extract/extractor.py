"""Run the pipeline over papers and turn spaCy entities into plain Mention records."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from spacy.language import Language
from spacy.tokens import Doc

from ..records import ENTITY_LABELS, Mention, Paper, PaperMentions

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
    for ent in doc.ents:
        if ent.label_ not in ENTITY_LABELS or len(ent) > MAX_MENTION_TOKENS:
            continue
        text = ent.text.strip()
        if not any(c.isalpha() for c in text) or _starts_with_a_quantity(ent):
            continue
        mentions.append(
            Mention(
                text=text,
                label=ent.label_,
                start=ent.start_char,
                end=ent.end_char,
                sentence=ent.sent.text.strip(),
                proposed=bool(ent._.proposed) if ent.has_extension("proposed") else False,
                long_form=acronyms.get(text),
            )
        )
    return mentions, acronyms


def extract_mentions(
    nlp: Language,
    papers: Iterable[Paper],
    *,
    batch_size: int = 32,
    on_paper: Callable[[Paper], None] | None = None,
) -> list[PaperMentions]:
    """Mentions of every paper, in input order.

    ``on_paper`` is called after each paper, e.g. to advance a progress bar.
    """
    papers = list(papers)
    results = []
    docs = nlp.pipe((p.text for p in papers), batch_size=batch_size)
    for paper, doc in zip(papers, docs, strict=True):
        mentions, acronyms = mentions_from_doc(doc)
        results.append(PaperMentions(paper=paper, mentions=mentions, acronyms=acronyms))
        if on_paper is not None:
            on_paper(paper)
    return results
