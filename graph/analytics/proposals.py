"""What the corpus brings: the methods and datasets its papers propose, per task.

A paper that proposes a method and addresses a task proposes that method *for*
that task; counting those pairs over the corpus says, task by task, what is new.
"""

from __future__ import annotations

from typing import NamedTuple

import networkx as nx

from ..schema import ADDRESSES, PROPOSES
from .base import check_graph, display_name, papers

__all__ = ["Proposal", "proposals_per_task"]


class Proposal(NamedTuple):
    """A concept proposed for a task (:func:`proposals_per_task`)."""

    task: str
    task_name: str
    concept: str
    name: str
    label: str
    #: the papers that propose ``concept`` and address ``task``
    papers: list[str]


def proposals_per_task(
    graph: nx.DiGraph, *, labels: tuple[str, ...] = ("Method", "Dataset")
) -> list[Proposal]:
    """The concepts papers propose, paired with the tasks those papers address.

    Parameters
    ----------
    graph : networkx.DiGraph
    labels : tuple of str
        The labels of proposed concepts to count.

    Returns
    -------
    list of Proposal
        Tasks with most proposing papers (each counted once) first; within a task, the concepts
        proposed by most papers first. A paper that proposes without naming a
        task adds nothing here.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_node("paper:1", label="Paper"); G.add_node("Task:qa", label="Task", name="QA")
    >>> G.add_node("Method:rag", label="Method", name="RAG")
    >>> G.add_edge("paper:1", "Task:qa", type="ADDRESSES")
    >>> G.add_edge("paper:1", "Method:rag", type="PROPOSES")
    >>> [(p.task_name, p.name, p.papers) for p in proposals_per_task(G)]
    [('QA', 'RAG', ['paper:1'])]
    >>> proposals_per_task(nx.DiGraph())
    []
    """
    check_graph(graph)
    pairs: dict[tuple[str, str], list[str]] = {}
    for paper in papers(graph):
        proposed, tasks = [], []
        for _, concept, kind in graph.out_edges(paper, data="type"):
            label = graph.nodes[concept].get("label")
            if kind == PROPOSES and label in labels:
                proposed.append(concept)
            elif kind in (ADDRESSES, PROPOSES) and label == "Task":
                tasks.append(concept)
        for task in tasks:
            for concept in proposed:
                pairs.setdefault((task, concept), []).append(paper)
    per_task: dict[str, set[str]] = {}
    for (task, _), ps in pairs.items():
        per_task.setdefault(task, set()).update(ps)
    rows = [
        Proposal(
            task,
            display_name(graph, task),
            concept,
            display_name(graph, concept),
            graph.nodes[concept].get("label", ""),
            sorted(ps),
        )
        for (task, concept), ps in pairs.items()
    ]
    return sorted(rows, key=lambda r: (-len(per_task[r.task]), r.task, -len(r.papers), r.concept))
