"""Analytics on a paperkg graph: what a field turns around, its sub-fields, its trends.

Every function takes the graph first and returns plain rows (tuples or
NamedTuples, ready for ``csv.writer`` or a DataFrame) or ``{node: value}``
dicts, networkx-style. They accept the ``networkx.DiGraph`` paperkg builds
(``paperkg.load_graph("out/graph.json")``), refuse other graph kinds with a
:class:`~paperkg.errors.GraphError`, and answer an empty graph with empty rows.

==============================  ===========================================
question                        function
==============================  ===========================================
what is central, per label      :func:`centrality_table`, :func:`central_concepts`
the sub-fields                  :func:`named_communities`, :func:`concept_communities`
papers like this one, and why   :func:`similar_papers_explained`, :func:`similar_papers`
what goes with what             :func:`label_cooccurrence`, :func:`cooccurring_concepts`
what rises, what falls          :func:`concept_trends`, :func:`trends_by_year`
what the corpus proposes        :func:`proposals_per_task`
narrower kinds of a concept     :func:`kinds_of`
==============================  ===========================================

``paperkg analyze graph.json -o report/`` writes them all as CSV tables, PNG
plots and one HTML page (:mod:`paperkg.export.report`).
"""

from .base import paper_concepts
from .centrality import (
    BETWEENNESS_SAMPLES,
    CentralConcept,
    betweenness,
    central_concepts,
    centrality_table,
    pagerank,
)
from .communities import Community, concept_communities, named_communities
from .cooccurrence import (
    CooccurrenceTable,
    PairRow,
    cooccurrence_graph,
    cooccurring_concepts,
    label_cooccurrence,
)
from .kinds import kinds_of
from .proposals import Proposal, proposals_per_task
from .similarity import SimilarPaper, concept_rarity, similar_papers, similar_papers_explained
from .trends import Trend, concept_trends, trends_by_year, years

__all__ = [
    "BETWEENNESS_SAMPLES",
    "CentralConcept",
    "Community",
    "CooccurrenceTable",
    "PairRow",
    "Proposal",
    "SimilarPaper",
    "Trend",
    "betweenness",
    "central_concepts",
    "centrality_table",
    "concept_communities",
    "concept_rarity",
    "concept_trends",
    "cooccurrence_graph",
    "cooccurring_concepts",
    "kinds_of",
    "label_cooccurrence",
    "named_communities",
    "pagerank",
    "paper_concepts",
    "proposals_per_task",
    "similar_papers",
    "similar_papers_explained",
    "trends_by_year",
    "years",
]
