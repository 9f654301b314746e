"""Lookup tables of the hand evaluator, built once and cached on disk.

A hand's value is its place, 1..7462, in the order of all distinct poker
hands (higher is better). Two tables give it:

- ``flush``: by the 13-bit mask of the ranks of the flush suit (5 to 7
  bits set), the value of the best flush or straight flush in it;
- ``multiset5``, ``multiset6``: by the index of the sorted ranks in the
  combinatorial number system for multisets, the value of the best hand
  that is not a flush.

The multiset index of sorted ranks ``r0 <= r1 <= ... <= r(n-1)`` is
``sum(C(r_i + i, i + 1))``: the ranks shifted by their position are strictly
increasing, and such sets have a dense index from 0 to ``C(12 + n, n) - 1``.
"""

from __future__ import annotations

import itertools
import math
import os
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from .categories import Category

TABLE_VERSION = 1
HAND_CLASSES = 7462
MAX_CARDS = 7


def multiset_index(sorted_ranks) -> int:
    """Index of ranks sorted ascending among multisets of their size."""
    return sum(math.comb(rank + i, i + 1) for i, rank in enumerate(sorted_ranks))


def _straight_top(ranks: list[int]) -> int | None:
    """The top rank of five distinct ranks that form a straight, else None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [0, 1, 2, 3, 12]:  # the wheel, 5-4-3-2-A
        return 3
    return None


def hand_key(ranks: list[int], flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of five cards: compares like the hands."""
    top = _straight_top(ranks)
    if top is not None:
        if flush:
            return (Category.ROYAL_FLUSH if top == 12 else Category.STRAIGHT_FLUSH), (top,)
        return Category.STRAIGHT, (top,)
    if flush:
        return Category.FLUSH, tuple(sorted(ranks, reverse=True))
    counts = Counter(ranks)
    order = tuple(sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    category = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.PAIR,
        (1, 1, 1, 1, 1): Category.HIGH_CARD,
    }[tuple(shape)]
    return category, order


def _valid_multisets(size: int):
    for ranks in itertools.combinations_with_replacement(range(13), size):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def build_tables() -> dict[str, np.ndarray]:
    """Compute every table from the rules of poker (about a second)."""
    flush_sets = list(itertools.combinations(range(13), 5))
    keys = {("flush", ranks): hand_key(list(ranks), True) for ranks in flush_sets}
    keys |= {("plain", ranks): hand_key(list(ranks), False) for ranks in _valid_multisets(5)}
    order = sorted(set(keys.values()))
    assert len(order) == HAND_CLASSES
    value_of_key = {key: value for value, key in enumerate(order, start=1)}
    value = {hand: value_of_key[key] for hand, key in keys.items()}

    flush = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        ranks = [rank for rank in range(13) if mask >> rank & 1]
        if len(ranks) >= 5:
            flush[mask] = max(value["flush", five] for five in itertools.combinations(ranks, 5))

    tables = {"flush": flush}
    for size in (5, 6):
        table = np.zeros(math.comb(12 + size, size), dtype=np.uint16)
        for ranks in _valid_multisets(size):
            table[multiset_index(ranks)] = max(
                value["plain", five] for five in itertools.combinations(ranks, 5)
            )
        tables[f"multiset{size}"] = table

    category = np.zeros(HAND_CLASSES + 1, dtype=np.uint8)
    for key, hand_value in value_of_key.items():
        category[hand_value] = key[0]
    tables["category"] = category
    ace_king = [
        hand_value
        for (kind, ranks), hand_value in value.items()
        if kind == "plain"
        and keys[kind, ranks][0] == Category.HIGH_CARD
        and ranks[-2:] == (11, 12)
    ]
    tables["ace_king_min"] = np.array([min(ace_king)], dtype=np.uint16)
    tables["comb"] = np.array(
        [[math.comb(n, k + 1) for n in range(13 + MAX_CARDS)] for k in range(MAX_CARDS)],
        dtype=np.int32,
    )
    return tables


def cache_dir() -> Path:
    """Where studsim keeps files it can rebuild: ``$STUDSIM_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/studsim``, else ``~/.cache/studsim``."""
    if path := os.environ.get("STUDSIM_CACHE_DIR"):
        return Path(path)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "studsim"


def load_tables() -> dict[str, np.ndarray]:
    """The tables from the disk cache, built and saved on first use."""
    path = cache_dir() / f"hand-tables-v{TABLE_VERSION}.npz"
    try:
        with np.load(path) as saved:
            return {name: saved[name] for name in saved.files}
    except (OSError, ValueError, KeyError):
        pass
    tables = build_tables()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as tmp:
            np.savez(tmp, **tables)
        os.replace(tmp.name, path)
    except OSError:
        pass  # a read-only home still evaluates, only without the cache
    return tables
