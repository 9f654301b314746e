"""A fold-or-bet strategy as a chart a person can print: hand groups by upcard rank.

Rows are the hand groups a player tells apart at the table (each category from a pair
up, hands without A-K, A-K high by its third card); a cell says what the strategy does
with the group against that upcard: ``bet``, ``fold``, or the lowest hand it bets,
where it bets the group's better hands and folds the rest (``8 3``: A K Q 8 3 or
better in the row ``A K Q``), else ``mixed``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ._evaluator import category_jit
from ._io import write_figure
from .cards import RANKS
from .codes import Action, Category
from .evaluator import best_five
from .strategy import Strategy, StrategyKind, hands_by_value

__all__ = ["chart_figure", "fold_or_bet_chart", "write_chart"]

BELOW_ACE_KING = "no A-K"


@functools.cache
def _groups() -> tuple[list[str], np.ndarray, list[str]]:
    """Per hand value (index 0 unused): its group's label and the ranks that follow the
    group's own in its best five (what a cell names); the labels strongest first."""
    hands = hands_by_value()[0]
    labels, rest = [""], [""]
    for value in range(1, len(hands)):
        category = Category(int(category_jit(value, True)))
        ranks = [RANKS[card >> 2] for card in best_five(hands[value]).tolist()]
        if category == Category.HIGH_CARD:
            labels.append(BELOW_ACE_KING)
            rest.append("")
        elif category == Category.ACE_KING:
            labels.append(" ".join(ranks[:3]))
            rest.append(" ".join(ranks[3:]))
        else:
            labels.append(category.label)
            rest.append("")
    order = list(dict.fromkeys(reversed(labels[1:])))
    return labels, np.array(rest, dtype=object), order


def _cell(bets: np.ndarray, rest: np.ndarray) -> str:
    """What a group's hands (increasing values) against one upcard rank are told."""
    if not len(bets):
        return ""
    if bets.all():
        return "bet"
    if not bets.any():
        return "fold"
    lowest = int(np.argmax(bets))
    return rest[lowest] if bets[lowest:].all() else "mixed"


def fold_or_bet_chart(strategy: Strategy) -> pd.DataFrame:
    """The first decision of a rule strategy that folds or bets, by hand group (rows,
    strongest first; A-K high split by whether the upcard's rank is among the player's)
    and upcard rank (columns)."""
    if strategy.kind is not StrategyKind.RULES:
        raise ValueError(f"strategy {strategy.name!r} is not a list of rules")
    table = strategy.first_actions
    if not np.isin(table[1:], (Action.FOLD, Action.PLAY)).all():
        raise ValueError(
            f"strategy {strategy.name!r} draws or reads more than the hand's value and the "
            "upcard's rank: its chart is its rules in words (--explain)"
        )
    labels, rest, order = _groups()
    masks = hands_by_value()[1]
    values = np.arange(len(labels))
    cells = {}
    for label in order:
        group = values[[lab == label for lab in labels]]  # increasing values
        split = label.startswith("A K ")
        for matched in (False, True) if split else (None,):
            row = label + (" + upcard's rank" if matched else "")
            cells[row] = {}
            for rank in range(13):
                held = (masks[group] >> rank) & 1
                chosen = group if matched is None else group[held == matched]
                bets = table[chosen, rank] == Action.PLAY
                cells[row][RANKS[rank]] = _cell(bets, rest[chosen])
    chart = pd.DataFrame.from_dict(cells, orient="index")
    chart.index.name, chart.columns.name = "hand", "upcard"
    return chart


def chart_figure(chart: pd.DataFrame, title: str) -> plt.Figure:
    """The chart as a printable table: bet cells green, fold cells grey, the lowest hand
    bet yellow."""
    colours = {"bet": "#b7e1b0", "fold": "#e4e4e4", "": "white"}
    figure, axes = plt.subplots(figsize=(2.0 + 0.55 * chart.shape[1], 0.6 + 0.22 * len(chart)))
    axes.axis("off")
    cell_colours = [[colours.get(cell, "#fff2b3") for cell in row] for row in chart.values]
    table = axes.table(
        cellText=chart.values,
        cellColours=cell_colours,
        rowLabels=list(chart.index),
        colLabels=[f"up {rank}" for rank in chart.columns],
        cellLoc="center",
        bbox=(0.0, 0.0, 1.0, 1.0),
    )
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    axes.set_title(title, fontsize=9)
    figure.tight_layout()
    return figure


def write_chart(strategy: Strategy, path: str | Path, title: str) -> Path:
    """Write the strategy's chart as an image (PNG, PDF or SVG, by the suffix)."""
    figure = chart_figure(fold_or_bet_chart(strategy), title)
    write_figure(path, figure, dpi=150)
    plt.close(figure)
    return Path(path)
