"""How each node label looks in every picture paperkg draws, and how long its text may be.

The paper view (:mod:`.html`), the concept map (:mod:`.html_map`) and the
report's plots (:mod:`.report_plots`) colour a label the same way, so a reader
who learnt the colours in one of them can read the others: colour-blind safe
(Okabe-Ito) colours, and one shape per label for the views.

Examples
--------
>>> STYLES["Method"]["shape"]
'dot'
>>> STYLES.get("Unknown", OTHER_STYLE)["color"]
'#bbbbbb'
"""

from __future__ import annotations

from ..graph.schema import PAPER

__all__ = ["OTHER_STYLE", "STYLES", "short"]

#: how each label looks: colour-blind safe (Okabe-Ito) colours, one shape per label
STYLES: dict[str, dict[str, str]] = {
    PAPER: {"color": "#9aa5b1", "border": "#52606d", "shape": "square"},
    "Method": {"color": "#0072b2", "border": "#004c78", "shape": "dot"},
    "Dataset": {"color": "#e69f00", "border": "#9c6b00", "shape": "diamond"},
    "Task": {"color": "#009e73", "border": "#006b4e", "shape": "triangle"},
    "Metric": {"color": "#cc79a7", "border": "#8f4f73", "shape": "star"},
}
#: how a node of a label outside the schema looks (a graph made by another tool)
OTHER_STYLE: dict[str, str] = {"color": "#bbbbbb", "border": "#777777", "shape": "dot"}


def short(text: str, limit: int) -> str:
    """``text`` on one line, cut to at most ``limit`` characters with an ellipsis.

    >>> short("a  very   long name", 9)
    'a very l…'
    """
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
