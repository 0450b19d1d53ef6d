"""Build the paperkg graph from resolved mentions.

The graph is a ``networkx.DiGraph``, the edge type an attribute, because the data
never gives a pair of nodes two edges:

* paper -> concept: a concept has one label, so one type of mention
  (:data:`~paperkg.graph.schema.EDGE_TYPE_FOR_LABEL`), and a paper that proposes
  a concept does not also merely use it (its other mentions are counted in the
  ``PROPOSES`` edge); a paper is linked to a broader concept by inference only
  when it does not mention it itself;
* concept -> concept: ``CO_OCCURS_WITH`` once per pair, from the smaller id to
  the larger, and never between a concept and one of its broader concepts,
  which is the only pair ``IS_A`` links.

A second edge for a pair would mean one of these broke (or that a co-occurrence
table lists a pair twice).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

import networkx as nx
import numpy as np
import pandas as pd

from ..errors import GraphError
from ..records import Concept, Paper, PaperMentions, Resolution
from .hierarchy import ancestors, broader_concepts_of
from .incidence import count_cooccurrences
from .schema import (
    CO_OCCURS,
    EDGE_TYPE_FOR_LABEL,
    IS_A,
    PAPER,
    PROPOSES,
    paper_node_id,
)

__all__ = ["build_knowledge_graph", "paper_concepts", "paper_display_name"]

#: words of the abstract used as a paper's name when it has no title and proposes nothing
LABEL_WORDS = 8


def build_knowledge_graph(
    results: Iterable[PaperMentions],
    resolution: Resolution,
    *,
    min_cooccurrence: int = 1,
    cooccurrences: pd.DataFrame | None = None,
    broader: dict[str, str] | None = None,
) -> nx.DiGraph:
    """A DiGraph of papers and the concepts they propose or use, the edge type an attribute.

    One edge per pair of nodes, as the module docstring says why; a second raises
    :class:`~paperkg.errors.GraphError` rather than overwrite the first.

    Parameters
    ----------
    results : iterable of PaperMentions
        What extraction found, one entry per paper (paper ids unique, as the
        readers make them), in order. A paper node's ``authors`` and
        ``keywords`` are its ``Paper``'s own lists, not copies.
    resolution : Resolution
        The concept of every mention, aligned with ``results``. Concept nodes
        take its concepts' ``aliases`` and ``merge_reasons`` dicts as their
        ``alias_counts`` and ``merge_reasons``, not copies.
    min_cooccurrence : int
        Concept pairs mentioned together by fewer papers than this get no
        co-occurrence edge.
    cooccurrences : DataFrame, optional
        The pairs of concepts and the papers that name both, as
        :func:`~paperkg.graph.incidence.count_cooccurrences` counts them from
        :func:`paper_concepts` (the build counts them from its table of
        mentions, on a Dask cluster with ``--dask``); counted here from
        ``results`` and ``resolution`` when not given.
    broader : dict, optional
        :func:`~paperkg.graph.hierarchy.broader_concepts_of` the resolution,
        made here when not given (the build makes it once, for this
        and :func:`paper_concepts`).

    Examples
    --------
    >>> from paperkg.records import Paper, PaperMentions, Resolution
    >>> G = build_knowledge_graph([], Resolution())
    >>> G.number_of_nodes()
    0
    """
    if not isinstance(results, Sequence):  # read twice; a Sequence as it is
        results = list(results)
    graph = nx.DiGraph()
    if broader is None:
        broader = broader_concepts_of(resolution)
    if cooccurrences is None:
        papers = np.repeat(np.arange(len(results)), [len(r.mentions) for r in results])
        incidence = paper_concepts(papers, resolution, broader)
        cooccurrences = count_cooccurrences(incidence, min_papers=min_cooccurrence)

    for result, concept_ids in zip(results, resolution.concept_of, strict=True):
        pid = paper_node_id(result.paper.id)
        edges, proposed_names, mentions_of = _paper_edges(result, concept_ids, resolution)
        _add_broader_edges(edges, broader, resolution)
        graph.add_node(pid, **_paper_attributes(result.paper, proposed_names))
        for (cid, _), attrs in edges.items():
            if cid not in graph:  # a concept's node when a paper first links to it
                graph.add_node(cid, **_concept_attributes(resolution.concepts[cid]))
            attrs["weight"] = attrs["count"]
            if not attrs.get("corpus_match"):
                attrs.pop("corpus_match", None)  # marked only where every mention is one
            _add_edge(graph, pid, cid, attrs)
        for cid in dict.fromkeys(cid for cid, _ in edges):  # in edge order: node order
            node = graph.nodes[cid]
            if node["label"] == PAPER:
                raise ValueError(f"{cid!r} is both a concept and a paper node id")
            node["paper_count"] += 1
            node["mention_count"] += mentions_of.get(cid, 0)

    _add_cooccurrence_edges(graph, cooccurrences, broader, min_cooccurrence)
    _add_is_a_edges(graph, broader)
    return graph


def _add_edge(graph: nx.DiGraph, u: str, v: str, attrs: dict) -> None:
    """Add the one edge ``u -> v``; refuse a second one (see :func:`build_knowledge_graph`)."""
    if graph.has_edge(u, v):
        raise GraphError(
            f"a second edge {u!r} -> {v!r} ({attrs['type']}) beside its "
            f"{graph.edges[u, v]['type']}: a paperkg graph has one edge per pair of nodes "
            "(a co-occurrence table listing a pair twice does this)"
        )
    graph.add_edge(u, v, **attrs)


def _paper_edges(
    result: PaperMentions,
    concept_ids: list,
    resolution: Resolution,
) -> tuple[dict[tuple[str, str], dict], list[str], dict[str, int]]:
    """One paper's edges ``(concept, type) -> attributes``, the names it proposes and
    its mentions of each concept.

    The type comes from the concept's label, which the corpus decided, not from
    this mention's; the evidence is the first sentence, the NER's own one
    preferred to a corpus term's; a paper that proposes a concept does not also
    merely use it.
    """
    edges: dict[tuple[str, str], dict] = {}
    proposed_names = []
    concept_mentions: dict[str, int] = {}
    for mention, cid in zip(result.mentions, concept_ids, strict=True):
        if cid is None:
            continue
        label = resolution.concepts[cid].label
        etype = PROPOSES if mention.proposed else EDGE_TYPE_FOR_LABEL[label]
        if mention.proposed:
            proposed_names.append(mention.text)
        edge = edges.setdefault(
            (cid, etype),
            {"type": etype, "evidence": mention.sentence, "count": 0, "corpus_match": True},
        )
        edge["count"] += 1
        if not mention.corpus_match:
            if edge["corpus_match"] and edge["count"] > 1:
                edge["evidence"] = mention.sentence  # the NER's own sentence is better
            edge["corpus_match"] = False
        concept_mentions[cid] = concept_mentions.get(cid, 0) + 1
    proposed = {cid for cid, etype in edges if etype == PROPOSES}
    for (cid, etype), attrs in edges.items():
        if etype != PROPOSES and cid in proposed:
            edges[(cid, PROPOSES)]["count"] += attrs["count"]
    edges = {k: v for k, v in edges.items() if k[1] == PROPOSES or k[0] not in proposed}
    return edges, proposed_names, concept_mentions


def _concept_attributes(concept: Concept) -> dict:
    """A concept node's attributes, aliases most used first; its counts start at 0
    and grow as papers link to it."""
    aliases = sorted(concept.aliases, key=lambda a: (-concept.aliases[a], a))
    return dict(
        label=concept.label,
        name=concept.name,
        key=concept.key,
        aliases=aliases,
        alias_counts=concept.aliases,
        merge_reasons=concept.merge_reasons,
        paper_count=0,
        mention_count=0,
    )


def _add_cooccurrence_edges(
    graph: nx.DiGraph,
    cooccurrences: pd.DataFrame,
    broader: dict[str, str],
    min_cooccurrence: int,
) -> None:
    """CO_OCCURS_WITH between concepts of one paper, unless one is a kind of the other.

    Edges go in the order their pair first occurs (paper by paper, pairs in
    sorted order), so the graph and its files are the same run after run.
    """
    shared = cooccurrences[cooccurrences["papers"] >= min_cooccurrence]
    for a, b, weight in zip(shared["a"], shared["b"], shared["papers"], strict=True):
        related = b in ancestors(a, broader) or a in ancestors(b, broader)
        if not related:
            _add_edge(graph, a, b, {"type": CO_OCCURS, "weight": int(weight)})


def paper_concepts(
    papers: Sequence[int] | np.ndarray | pd.Series,
    resolution: Resolution,
    broader: dict[str, str] | None = None,
) -> pd.DataFrame:
    """The concepts each paper links to in the graph: a row per ``paper, concept``.

    A paper links to the concepts of its mentions and to their broader concepts
    (:func:`~paperkg.graph.hierarchy.ancestors`). ``papers`` gives the paper of
    each mention, in the order of ``resolution.concept_of`` flattened (the
    ``paper`` column of :func:`~paperkg.extract.corpus.mention_table.mention_table`);
    ``broader`` is :func:`~paperkg.graph.hierarchy.broader_concepts_of` the
    resolution, made when not given. ``concept`` is a categorical of
    the concept ids, sorted.

    >>> from paperkg.records import Resolution
    >>> resolution = Resolution(concept_of=[["Method:bert", None, "Method:bert"], ["Task:qa"]])
    >>> paper_concepts([0, 0, 0, 1], resolution).values.tolist()
    [[0, 'Method:bert'], [1, 'Task:qa']]
    """
    if broader is None:
        broader = broader_concepts_of(resolution)
    concept = list(chain.from_iterable(resolution.concept_of))
    if len(concept) != len(papers):
        raise ValueError(
            f"{len(papers)} mentions' papers for {len(concept)} mentions' concepts: "
            "the papers must be those of the mentions that were resolved"
        )
    concepts = pd.Series(concept, dtype=object)  # None where a mention has no concept
    direct = pd.DataFrame({"paper": np.asarray(papers), "concept": concepts}).dropna()
    direct = direct.drop_duplicates()
    up = pd.DataFrame(
        [(cid, broad) for cid in direct["concept"].unique() for broad in ancestors(cid, broader)],
        columns=["concept", "broader"],
    )
    inferred = direct.merge(up, on="concept")[["paper", "broader"]]
    rows = pd.concat([direct, inferred.rename(columns={"broader": "concept"})]).drop_duplicates()
    ids = sorted(set(rows["concept"]))
    return pd.DataFrame(
        {
            "paper": rows["paper"].to_numpy(),
            "concept": pd.Categorical(rows["concept"], categories=pd.Index(ids, dtype=object)),
        }
    )


def _add_is_a_edges(graph: nx.DiGraph, broader: dict[str, str]) -> None:
    """IS_A from a concept to its broader one by head phrase, when both are in the graph."""
    nodes = graph.nodes

    def linked(cid: str) -> bool:  # a concept some paper links to
        return cid in nodes and nodes[cid]["label"] != PAPER

    for narrow, broad in sorted(broader.items()):
        if linked(narrow) and linked(broad):
            reason = f"head phrase: {nodes[broad]['key']!r}"
            weight = nodes[narrow]["paper_count"]
            _add_edge(graph, narrow, broad, {"type": IS_A, "reason": reason, "weight": weight})


def _add_broader_edges(
    edges: dict[tuple[str, str], dict], broader: dict[str, str], resolution: Resolution
) -> None:
    """Link a paper to the broader concepts of what it mentions, unless it mentions them.

    The edge type is the one the broader concept's label gives a mention
    (proposing *latent diffusion models* is using diffusion models); ``via``
    lists the narrower concepts it was inferred from and ``evidence`` is their
    sentence.
    """
    direct = {cid for cid, _ in edges}
    inferred: dict[tuple[str, str], dict] = {}
    for (cid, _), attrs in sorted(edges.items()):
        for broad in ancestors(cid, broader):
            if broad in direct:
                continue
            etype = EDGE_TYPE_FOR_LABEL[resolution.concepts[broad].label]
            edge = inferred.setdefault(
                (broad, etype),
                {"type": etype, "evidence": attrs["evidence"], "count": 0, "via": []},
            )
            edge["count"] += attrs["count"]
            if cid not in edge["via"]:
                edge["via"].append(cid)
    edges.update(inferred)


def paper_display_name(paper: Paper, proposed_names: list[str]) -> str:
    """A readable name for a paper: its title, else what it proposes, else its first words.

    >>> from paperkg.records import Paper
    >>> p = Paper(id="x", abstract="", text="We study the cost of streaming algorithms today.", source="")
    >>> paper_display_name(p, ["LADS"])
    'LADS'
    >>> paper_display_name(p, [])
    'We study the cost of streaming algorithms today.'
    """
    if paper.title:
        return paper.title
    if proposed_names:
        names = list(dict.fromkeys(proposed_names))
        short = sorted(names[:3], key=lambda n: (not any(c.isupper() for c in n[1:]), len(n)))
        return short[0]
    words = paper.text.split()
    text = " ".join(words[:LABEL_WORDS])
    return text + ("…" if len(words) > LABEL_WORDS else "")


def _paper_attributes(paper: Paper, proposed_names: list[str]) -> dict:
    attrs = {
        "label": PAPER,
        "name": paper_display_name(paper, proposed_names),
        "paper_id": paper.id,
        "title": paper.title,
        "abstract": paper.abstract,
        "year": paper.year,
        "venue": paper.venue,
        "authors": paper.authors,
        "keywords": paper.keywords,
        "doi": paper.doi,
        "code_url": paper.code_urls[0] if paper.code_urls else None,
        "source": paper.source,
    }
    return {k: v for k, v in attrs.items() if v is not None}
