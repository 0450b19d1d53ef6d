"""Which part of a gold corpus is trained on, which selects checkpoints, which is held out.

Why in one place: training (:mod:`paperkg.extract.training`), ``paperkg eval
--heldout`` and the extraction benchmark must cut every corpus the same way, or
a score would be measured on papers the model was trained or tuned on. Each cut
is a contiguous block of whole papers, so no paper sits on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence

from .gold import GoldDoc

__all__ = ["SELECTION_SHARE", "TDMSCI_HELDOUT_SHARE", "split_for_selection", "split_tdmsci"]

#: Share of TDMSci train (its last sentences) held out from training for evaluation.
TDMSCI_HELDOUT_SHARE = 0.2

#: Share of each training corpus kept back to choose checkpoints and rules on
#: (never trained on): the dev sets then measure what was not tuned on.
SELECTION_SHARE = {"scierc": 50 / 350, "scier": 12 / 80, "tdmsci": 0.1 / 0.8, "scirex": 0.1}


def split_tdmsci(docs: Sequence[GoldDoc]) -> tuple[list[GoldDoc], list[GoldDoc]]:
    """Split TDMSci train into (training part, held-out part): the last 20% is held out.

    The held-out block is contiguous, so sentences of one paper rarely sit on
    both sides.

    >>> train, heldout = split_tdmsci([GoldDoc(f"s{i}", "x") for i in range(10)])
    >>> len(train), [d.id for d in heldout]
    (8, ['s8', 's9'])
    """
    cut = len(docs) - round(len(docs) * TDMSCI_HELDOUT_SHARE)
    return list(docs[:cut]), list(docs[cut:])


def split_for_selection(docs: Sequence[GoldDoc], fmt: str) -> tuple[list[GoldDoc], list[GoldDoc]]:
    """Split a training corpus into (what to train on, what to select on).

    Why: checkpoints and rule switches chosen on a dev set fit that dev set
    (the CNN scored 73.3 on SciER dev, 65.2 on its test). The selection part
    is the last block of whole papers (SciERC's last 50 abstracts, SciER's last
    12 of 80 papers, TDMSci's last eighth of its training part, i.e. 10% of the
    file before the 20% held out), so no paper sits on both sides.

    >>> docs = [GoldDoc(f"p{i // 2}#{i}", "x") for i in range(40)]
    >>> train, select = split_for_selection(docs, "scier")
    >>> len(train), len(select), select[0].id
    (34, 6, 'p17#34')
    """
    papers: list[str] = []
    for d in docs:
        paper = d.id.split("#")[0] if fmt == "scier" else d.id
        if not papers or papers[-1] != paper:
            papers.append(paper)
    n_select = round(len(papers) * SELECTION_SHARE.get(fmt, 0.1))
    if n_select == 0 or n_select >= len(papers):  # too small to keep a part back
        return list(docs), []
    if fmt == "tdmsci":  # sentences of consecutive papers: a contiguous block
        cut = len(docs) - n_select
        return list(docs[:cut]), list(docs[cut:])
    selected = set(papers[-n_select:])
    key = (lambda d: d.id.split("#")[0]) if fmt == "scier" else (lambda d: d.id)
    return [d for d in docs if key(d) not in selected], [d for d in docs if key(d) in selected]
