"""Build the paperkg graph from resolved mentions."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

import networkx as nx

from ..records import Paper, PaperMentions, Resolution
from .hierarchy import ancestors, broader_concepts
from .schema import (
    CO_OCCURS,
    EDGE_TYPE_FOR_LABEL,
    IS_A,
    PAPER,
    PROPOSES,
    paper_node_id,
)

#: words of the abstract used as a paper's name when it has no title and proposes nothing
LABEL_WORDS = 8


def build_knowledge_graph(
    results: list[PaperMentions],
    resolution: Resolution,
    *,
    min_cooccurrence: int = 1,
) -> nx.MultiDiGraph:
    """A MultiDiGraph of papers and the concepts they propose or use.

    Parameters
    ----------
    results : list of PaperMentions
        What extraction found, one entry per paper.
    resolution : Resolution
        The concept of every mention, aligned with ``results``.
    min_cooccurrence : int
        Concept pairs mentioned together by fewer papers than this get no
        co-occurrence edge.

    Examples
    --------
    >>> from paperkg.records import Paper, PaperMentions, Resolution
    >>> G = build_knowledge_graph([], Resolution())
    >>> G.number_of_nodes()
    0
    """
    graph = nx.MultiDiGraph()
    broader = broader_concepts(resolution.concepts)
    concept_papers: dict[str, set[str]] = defaultdict(set)
    concept_mentions: Counter[str] = Counter()
    paper_concepts: list[set[str]] = []

    for result, concept_ids in zip(results, resolution.concept_of, strict=True):
        pid = paper_node_id(result.paper.id)
        edges, proposed_names = _paper_edges(result, concept_ids, resolution, concept_mentions)
        _add_broader_edges(edges, broader, resolution)
        graph.add_node(pid, **_paper_attributes(result.paper, proposed_names))
        for (cid, etype), attrs in edges.items():
            attrs["weight"] = attrs["count"]
            if not attrs.get("corpus_match"):
                attrs.pop("corpus_match", None)  # marked only where every mention is one
            graph.add_edge(pid, cid, key=etype, **attrs)
            concept_papers[cid].add(pid)
        paper_concepts.append({cid for cid, _ in edges})

    _add_concept_nodes(graph, resolution, concept_papers, concept_mentions)
    _add_cooccurrence_edges(graph, paper_concepts, broader, min_cooccurrence)
    _add_is_a_edges(graph, broader, concept_papers, resolution)
    return graph


def _paper_edges(
    result: PaperMentions,
    concept_ids: list,
    resolution: Resolution,
    concept_mentions: Counter[str],
) -> tuple[dict[tuple[str, str], dict], list[str]]:
    """One paper's edges ``(concept, type) -> attributes``, and the names it proposes.

    The type comes from the concept's label, which the corpus decided, not from
    this mention's; the evidence is the first sentence, the NER's own one
    preferred to a corpus term's; a paper that proposes a concept does not also
    merely use it. Counts the mentions of each concept into ``concept_mentions``.
    """
    edges: dict[tuple[str, str], dict] = {}
    proposed_names = []
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
        concept_mentions[cid] += 1
    proposed = {cid for cid, etype in edges if etype == PROPOSES}
    for (cid, etype), attrs in edges.items():
        if etype != PROPOSES and cid in proposed:
            edges[(cid, PROPOSES)]["count"] += attrs["count"]
    edges = {k: v for k, v in edges.items() if k[1] == PROPOSES or k[0] not in proposed}
    return edges, proposed_names


def _add_concept_nodes(
    graph: nx.MultiDiGraph,
    resolution: Resolution,
    concept_papers: dict[str, set[str]],
    concept_mentions: Counter[str],
) -> None:
    """A node for every concept some paper links to, aliases most used first."""
    for cid, papers in concept_papers.items():
        concept = resolution.concepts[cid]
        aliases = sorted(concept.aliases, key=lambda a: (-concept.aliases[a], a))
        graph.add_node(
            cid,
            label=concept.label,
            name=concept.name,
            key=concept.key,
            aliases=aliases,
            alias_counts=dict(concept.aliases),
            merge_reasons=dict(concept.merge_reasons),
            paper_count=len(papers),
            mention_count=concept_mentions[cid],
        )


def _add_cooccurrence_edges(
    graph: nx.MultiDiGraph,
    paper_concepts: list[set[str]],
    broader: dict[str, str],
    min_cooccurrence: int,
) -> None:
    """CO_OCCURS_WITH between concepts of one paper, unless one is a kind of the other."""
    pair_weights: Counter[tuple[str, str]] = Counter()
    for concepts in paper_concepts:
        pair_weights.update(combinations(sorted(concepts), 2))
    for (a, b), weight in pair_weights.items():
        related = b in ancestors(a, broader) or a in ancestors(b, broader)
        if weight >= min_cooccurrence and not related:
            graph.add_edge(a, b, key=CO_OCCURS, type=CO_OCCURS, weight=weight)


def _add_is_a_edges(
    graph: nx.MultiDiGraph,
    broader: dict[str, str],
    concept_papers: dict[str, set[str]],
    resolution: Resolution,
) -> None:
    """IS_A from a concept to its broader one by head phrase, when both are in the graph."""
    for narrow, broad in sorted(broader.items()):
        if narrow in concept_papers and broad in concept_papers:
            graph.add_edge(
                narrow,
                broad,
                key=IS_A,
                type=IS_A,
                reason=f"head phrase: {resolution.concepts[broad].key!r}",
                weight=len(concept_papers[narrow]),
            )


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
        "authors": list(paper.authors),
        "keywords": list(paper.keywords),
        "doi": paper.doi,
        "code_url": paper.code_urls[0] if paper.code_urls else None,
        "source": paper.source,
    }
    return {k: v for k, v in attrs.items() if v is not None}
