"""Charts of simulations (matplotlib, Agg backend: no display needed).

- :func:`plot_summary`: win rate per side with its 95% interval, and rounds to finish.
- :func:`plot_line`: a win rate against one varied value, with its interval band.
- :func:`plot_heatmap`: a win rate over two varied values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from fracas.lab.results import write_atomically


def _save(fig: Any, path: Path) -> None:
    import io

    buffer = io.BytesIO()
    # No timestamps or software tags in the file: the same results, the same bytes.
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    write_atomically(path, buffer.getvalue())


def plot_summary(summary: Mapping[str, Any], rounds: Sequence[int], path: Path, title: str) -> None:
    """Win rates with Wilson intervals beside a histogram of rounds to finish."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    sides = list(summary["sides"])
    rates = [summary["sides"][s]["win_rate"] or 0.0 for s in sides]
    lows = [r - summary["sides"][s]["ci95"][0] for s, r in zip(sides, rates, strict=True)]
    highs = [summary["sides"][s]["ci95"][1] - r for s, r in zip(sides, rates, strict=True)]
    left.bar(sides, rates, yerr=[lows, highs], capsize=6, color="#4a7ab5")
    left.set_ylim(0, 1)
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_title(f"{summary['runs']} runs, {summary['draws']} draws, {summary['capped']} capped")
    if rounds:
        right.hist(rounds, bins=range(min(rounds), max(rounds) + 2), color="#b5874a", align="left")
    right.set_xlabel("rounds to finish")
    right.set_ylabel("runs")
    fig.suptitle(title)
    fig.tight_layout()
    _save(fig, path)


def plot_line(
    xs: Sequence[float],
    rates: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    path: Path,
    xlabel: str,
    ylabel: str,
    title: str,
) -> None:
    """A win rate against one varied value, its 95% interval shaded."""
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(xs, lows, highs, alpha=0.25, color="#4a7ab5", label="95% interval")
    ax.plot(xs, rates, marker="o", color="#4a7ab5", label=ylabel)
    ax.set_ylim(0, 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    fig.tight_layout()
    _save(fig, path)


def plot_heatmap(
    xs: Sequence[float],
    ys: Sequence[float],
    grid: Sequence[Sequence[float]],
    path: Path,
    xlabel: str,
    ylabel: str,
    title: str,
) -> None:
    """``grid[j][i]``: the win rate at ``xs[i]``, ``ys[j]``, each cell labelled."""
    fig, ax = plt.subplots(figsize=(1.0 + 0.8 * len(xs), 1.2 + 0.6 * len(ys)))
    image = ax.imshow(grid, origin="lower", cmap="RdYlBu", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(xs)), [f"{x:g}" for x in xs])
    ax.set_yticks(range(len(ys)), [f"{y:g}" for y in ys])
    for j, row in enumerate(grid):
        for i, value in enumerate(row):
            ax.text(i, j, f"{value:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="win rate")
    fig.tight_layout()
    _save(fig, path)


__all__ = ["plot_heatmap", "plot_line", "plot_summary"]
