"""Broader concepts by head phrase: "latent diffusion model" IS_A "diffusion model".

An English noun compound names a kind of its head: a *latent diffusion model*
is a diffusion model, *few-shot node classification* is node classification.
When the trailing words of a concept's canonical key are themselves a concept of
the same label that the corpus mentions on its own, the longer concept is a
narrower kind of the shorter one. Merging the two would be wrong (they are not
the same thing, and a reader of "latent diffusion model" wants that node), but
leaving them unrelated hides that twenty papers on kinds of diffusion models
are diffusion-model papers. So the graph keeps both and links them with an
``IS_A`` edge, and a paper that uses the narrower concept is also linked to the
broader one (an edge marked ``via`` the narrower concept), so "which papers use
diffusion models?" is one hop in Cypher and in networkx.

Only the nearest broader concept is linked (the longest head phrase that is a
concept); chains such as *sparse latent diffusion model* -> *latent diffusion
model* -> *diffusion model* follow from it.

A head phrase the corpus names on its own far less often than the longer name is
a piece of that name, not a broader concept the field uses: "language processing"
of *natural language processing*, "tangent kernel" of *neural tangent kernel*.
Linking every paper of the name to the piece would make the piece a hub of the
top lists and the map, so a head phrase is a broader concept only when at least
:data:`OWN_PAPERS_SHARE` as many papers name it directly as name its narrower
concepts (counted with repeats: a paper naming two of them counts twice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

#: how many papers must name a head phrase directly, as a share of those naming the
#: longer concept, for the head phrase to be its broader concept
OWN_PAPERS_SHARE = 0.25

#: single-word heads too vague to be a useful broader concept on their own
VAGUE_HEADS = frozenset(
    {
        "algorithm",
        "analysis",
        "application",
        "approach",
        "architecture",
        "component",
        "data",
        "design",
        "efficiency",
        "evaluation",
        "framework",
        "function",
        "information",
        "interaction",
        "layer",
        "learning",
        "loss",
        "mechanism",
        "method",
        "model",
        "modeling",
        "module",
        "network",
        "performance",
        "problem",
        "procedure",
        "process",
        "processing",
        "representation",
        "setting",
        "strategy",
        "system",
        "task",
        "technique",
        "tool",
        "training",
        "understanding",
        "vision",
    }
)


def head_phrases(key: str) -> list[str]:
    """The proper trailing word sequences of a canonical key, longest first.

    >>> head_phrases("sparse latent diffusion model")
    ['latent diffusion model', 'diffusion model', 'model']
    >>> head_phrases("transformer")
    []
    """
    words = key.split()
    return [" ".join(words[i:]) for i in range(1, len(words))]


def broader_concepts(
    concept_ids: Iterable[str], papers: Mapping[str, int] | None = None
) -> dict[str, str]:
    """For each concept id, the id of its nearest broader concept, when there is one.

    Concept ids are ``"<Label>:<key>"``; a broader concept has the same label
    and a key that is a head phrase of the narrower key. Single-word heads in
    :data:`VAGUE_HEADS` ("learning", "model") are never a broader concept:
    every method is some kind of model, and such a hub says nothing. ``papers``
    counts the papers naming each concept directly (:func:`papers_naming`); with
    it, a head phrase named in fewer than :data:`OWN_PAPERS_SHARE` as many papers
    as its narrower concepts together is a piece of their names, not a broader
    concept.

    >>> broader_concepts(["Method:latent diffusion model", "Method:diffusion model",
    ...                   "Task:diffusion model", "Method:learning", "Method:deep learning"])
    {'Method:latent diffusion model': 'Method:diffusion model'}
    >>> broader_concepts(["Task:natural language processing", "Task:language processing"],
    ...                  {"Task:natural language processing": 58, "Task:language processing": 1})
    {}
    """
    ids = set(concept_ids)
    broader: dict[str, str] = {}
    for cid in sorted(ids):
        label, _, key = cid.partition(":")
        for head in head_phrases(key):
            if head in VAGUE_HEADS:
                continue
            candidate = f"{label}:{head}"
            if candidate in ids:
                broader[cid] = candidate
                break
    if papers is None:
        return broader
    narrower_papers: Counter = Counter()
    for narrow, broad in broader.items():
        narrower_papers[broad] += papers.get(narrow, 0)
    return {
        narrow: broad
        for narrow, broad in broader.items()
        if papers.get(broad, 0) >= OWN_PAPERS_SHARE * narrower_papers[broad]
    }


def broader_concepts_of(resolution) -> dict[str, str]:
    """:func:`broader_concepts` of a :class:`~paperkg.records.Resolution`'s concepts, a
    head phrase counted against the papers naming it (:func:`papers_naming`)."""
    return broader_concepts(resolution.concepts, papers_naming(resolution.concept_of))


def papers_naming(concept_of: Iterable[Iterable[str | None]]) -> Counter:
    """How many papers name each concept directly: ``concept_of`` holds each paper's
    mentions' concept ids (``None`` for a mention with none).

    >>> papers_naming([["Method:bert", "Method:bert", None], ["Method:bert"]])
    Counter({'Method:bert': 2})
    """
    return Counter(cid for cids in concept_of for cid in set(cids) if cid is not None)


def ancestors(cid: str, broader: dict[str, str]) -> list[str]:
    """Every broader concept of ``cid``, nearest first (the chain of :func:`broader_concepts`).

    >>> ancestors("M:a b c", {"M:a b c": "M:b c", "M:b c": "M:c"})
    ['M:b c', 'M:c']
    """
    chain = []
    while cid in broader and broader[cid] not in chain:
        cid = broader[cid]
        chain.append(cid)
    return chain
