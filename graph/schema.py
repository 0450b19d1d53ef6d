"""The shape of a paperkg graph: node labels, edge types and their attributes.

A paperkg graph is a ``networkx.DiGraph``: one edge per pair of nodes, its type
the ``type`` attribute (why one edge is enough:
:func:`~paperkg.graph.builder.build_knowledge_graph`). graph.json format 1 was a
``MultiDiGraph`` whose edge key repeated the type; :func:`~paperkg.graph.load_graph`
still reads it.

Nodes
-----
Every node has ``label`` (one of :data:`NODE_LABELS`) and ``name``.

* Paper nodes, id ``"paper:<paper id>"``: ``title``, ``abstract`` (original
  text), ``year`` (int or None), ``venue``, ``authors`` (list[str]),
  ``keywords`` (list[str]; built by paperkg, these two are the lists of the
  ``Paper`` read, not copies), ``doi``, ``code_url`` (first code link or None),
  ``source`` (``"file#record"``).
* Concept nodes (Method, Dataset, Task, Metric), id ``"<Label>:<key>"``:
  ``key`` (canonical key), ``aliases`` (list[str], every surface form seen),
  ``alias_counts`` (dict surface form -> mentions), ``merge_reasons``
  (dict alias -> why it was merged), ``paper_count`` (int),
  ``mention_count`` (int).

Edges (``type`` is the edge type)
---------------------------------
* Paper -> concept, ``type`` in :data:`PAPER_EDGE_TYPES`: ``evidence``
  (the first sentence that supports it), ``count`` (mentions behind it),
  ``weight`` (= count); ``corpus_match`` True when every mention behind it
  was found as a corpus term rather than by the NER
  (:mod:`paperkg.extract.corpus.corpus_terms`).
  A paper is also linked to every broader concept of a concept it mentions
  (see :data:`IS_A`); such an edge has ``via`` (list of the narrower concept
  ids it was inferred from) and the type the broader concept's label gives
  (a paper that proposes *latent diffusion models* uses diffusion models).
* Concept -> concept co-occurrence, ``type`` = :data:`CO_OCCURS`, stored once
  per pair from the smaller to the larger node id: ``weight`` (number of
  papers mentioning both). Pairs of a concept and its own broader concept
  get none.
* Concept -> broader concept, ``type`` = :data:`IS_A`: the narrower concept's
  key ends with the broader one's ("latent diffusion model" IS_A "diffusion
  model", same label, and papers name the broader one on its own at least a
  quarter as often as its narrower concepts; :mod:`paperkg.graph.hierarchy`):
  ``reason``, ``weight`` (papers mentioning the narrower concept).

``None`` values are dropped from node attributes before export so GraphML and
Neo4j never see them.
"""

# the labels and node ids are defined with the records every stage shares
from ..records import (  # noqa: F401 (re-exported: the graph's vocabulary in one place)
    CONCEPT_LABELS,
    NODE_LABELS,
    PAPER,
    concept_node_id,
    paper_node_id,
)

PROPOSES = "PROPOSES"
USES = "USES"
EVALUATES_ON = "EVALUATES_ON"
ADDRESSES = "ADDRESSES"
CO_OCCURS = "CO_OCCURS_WITH"
IS_A = "IS_A"
PAPER_EDGE_TYPES = (PROPOSES, USES, EVALUATES_ON, ADDRESSES)
EDGE_TYPES = (*PAPER_EDGE_TYPES, CO_OCCURS, IS_A)

#: the edge type a paper gets to a concept it mentions without proposing it
EDGE_TYPE_FOR_LABEL = {
    "Method": USES,
    "Dataset": EVALUATES_ON,
    "Task": ADDRESSES,
    "Metric": USES,
}
