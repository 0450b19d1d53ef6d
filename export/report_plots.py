"""The report's plots: top concepts per label, a Method × Task heat map, communities, trends.

Each function draws one PNG from rows of :mod:`paperkg.graph.analytics` and
writes it atomically. Names are drawn as text, never as math: a concept called
``$x$`` (LaTeX left in an abstract) is shown as typed.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from matplotlib.ticker import MaxNLocator

from ..atomic import atomic_open
from ..graph.analytics import CentralConcept, Community, CooccurrenceTable, Trend
from ..graph.schema import CONCEPT_LABELS
from .graphml import xml_text
from .styles import STYLES

__all__ = ["plot_communities", "plot_heat_map", "plot_text", "plot_top_concepts", "plot_trends"]

DPI = 110


@contextmanager
def _figure(path: Path, *, width: float, height: float):
    """A matplotlib figure that is saved to ``path`` as PNG and closed, text without math."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context({"text.parse_math": False, "font.size": 9}):
        fig = plt.figure(figsize=(width, height))
        try:
            yield fig
            fig.tight_layout()
            with atomic_open(path, "wb") as out:
                fig.savefig(out, format="png", dpi=DPI)
        finally:
            plt.close(fig)


def plot_text(text: str, width: int = 38) -> str:
    """``text`` on one line, at most ``width`` characters, control characters made visible."""
    text = xml_text(" ".join(str(text).split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def plot_top_concepts(rows: list[CentralConcept], path: Path, *, per_label: int = 12) -> Path:
    """One bar chart per label: its most mentioned concepts by number of papers."""
    labels = [label for label in CONCEPT_LABELS if any(r.label == label for r in rows)]
    with _figure(path, width=11, height=2.2 + 1.9 * max(1, (len(labels) + 1) // 2)) as fig:
        for i, label in enumerate(labels or ["Method"]):
            ax = fig.add_subplot(max(1, (len(labels) + 1) // 2), 2, i + 1)
            mine = [r for r in rows if r.label == label][:per_label]
            ax.barh(
                [plot_text(r.name, 30) for r in mine][::-1],
                [r.papers for r in mine][::-1],
                color=STYLES.get(label, STYLES["Method"])["color"],
            )
            ax.set_title(f"{label}s", loc="left", fontweight="bold")
            ax.set_xlabel("papers")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.tick_params(axis="y", labelsize=8)
    return path


def plot_heat_map(table: CooccurrenceTable, path: Path) -> Path:
    """The ``row_label`` × ``column_label`` table as a heat map, counts in the cells."""
    n_rows, n_cols = max(len(table.rows), 1), max(len(table.columns), 1)
    with _figure(path, width=3.5 + 0.55 * n_cols, height=2.0 + 0.38 * n_rows) as fig:
        ax = fig.add_subplot(1, 1, 1)
        counts = table.counts or [[0]]
        image = ax.imshow(counts, cmap="Blues", aspect="auto")
        ax.set_xticks(range(len(table.columns)))
        ax.set_xticklabels([plot_text(c, 28) for c in table.column_names], rotation=45, ha="right")
        ax.set_yticks(range(len(table.rows)))
        ax.set_yticklabels([plot_text(r, 32) for r in table.row_names])
        top = max((max(row) for row in counts), default=0) or 1
        for i, row in enumerate(table.counts):
            for j, value in enumerate(row):
                if value:
                    color = "white" if value > top / 2 else "#1f2933"
                    ax.text(j, i, str(value), ha="center", va="center", fontsize=7, color=color)
        ax.set_xlabel(f"{table.column_label}s")
        ax.set_ylabel(f"{table.row_label}s")
        fig.colorbar(image, ax=ax, label="papers mentioning both", shrink=0.8)
    return path


def plot_communities(communities: list[Community], path: Path, *, n: int = 15) -> Path:
    """The largest communities by number of papers, each bar labelled with its name."""
    shown = sorted(communities, key=lambda c: (-len(c.papers), c.number))[:n]
    with _figure(path, width=10, height=1.2 + 0.38 * max(len(shown), 1)) as fig:
        ax = fig.add_subplot(1, 1, 1)
        ax.barh(
            [f"{c.number}: {plot_text(c.name, 60)}" for c in shown][::-1],
            [len(c.papers) for c in shown][::-1],
            color="#4e79a7",
        )
        ax.set_xlabel("papers")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title("Communities of concepts (Louvain), largest first", loc="left")
    return path


def plot_trends(
    trends: list[Trend], per_year: dict[int, list[float]], years: list[int], path: Path, n: int = 6
) -> Path:
    """Share of each year's papers for the ``n`` most rising and ``n`` most falling concepts.

    ``per_year`` maps a concept to its share (percent) in each of ``years``.
    """
    rising = [t for t in trends if t.slope > 0][:n]
    falling = [t for t in reversed(trends) if t.slope < 0][:n]
    with _figure(path, width=11, height=4.2) as fig:
        for i, (title, rows) in enumerate((("Rising", rising), ("Falling", falling))):
            ax = fig.add_subplot(1, 2, i + 1)
            for t in rows:
                ax.plot(years, per_year[t.concept], marker="o", label=plot_text(t.name, 30))
            ax.set_title(f"{title} concepts", loc="left", fontweight="bold")
            ax.set_xlabel("year")
            ax.set_ylabel("share of the year's papers (%)")
            ax.set_xticks(years)
            ax.set_xticklabels([str(y) for y in years], rotation=45 if len(years) > 8 else 0)
            if rows:
                ax.legend(fontsize=7, loc="best")
    return path
