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
"""

from __future__ import annotations

from collections.abc import Iterable

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


def broader_concepts(concept_ids: Iterable[str]) -> dict[str, str]:
    """For each concept id, the id of its nearest broader concept, when there is one.

    Concept ids are ``"<Label>:<key>"``; a broader concept has the same label
    and a key that is a head phrase of the narrower key. Single-word heads in
    :data:`VAGUE_HEADS` ("learning", "model") are never a broader concept:
    every method is some kind of model, and such a hub says nothing.

    >>> broader_concepts(["Method:latent diffusion model", "Method:diffusion model",
    ...                   "Task:diffusion model", "Method:learning", "Method:deep learning"])
    {'Method:latent diffusion model': 'Method:diffusion model'}
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
    return broader


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
