"""Lookup tables of the hand evaluator, built once and cached on disk.

A hand's value is its place, 1..7462, in the order of all distinct poker
hands (higher is better). Two kinds of table give it:

- ``flush``: by the 13-bit mask of the ranks of the flush suit (5 to 7
  bits set), the value of the best flush or straight flush in it;
- ``ranks5``, ``ranks6``: by the perfect hash of the ranks of the cards,
  the value of the best hand that is not a flush.

The hash of a hand's ranks is two steps. The sum of the rank weights
(``RANK_WEIGHTS``) is a key that no two multisets of ranks of a size (at most
four of a rank) share; the weights were found by a greedy search, each rank
taking the smallest weight above the last that keeps every multiset of up to
5 (or 6) ranks apart. The keys are sparse (up to 2.6 million for six
cards), so a displacement table compresses them: ``index = key +
offsets[key >> shift]``, the offsets chosen row by row so that no two keys
meet. A hand costs five or six card-weight reads, one offset read and one
table read, all in tables of a few tens of kilobytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import numpy as np

from ._io import write_npz
from .codes import Category

TABLE_VERSION = 2
HAND_CLASSES = 7462
RANK_WEIGHTS = {
    5: (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415),
    6: (0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437),
}
HASH_SHIFT = {5: 8, 6: 9}


def rank_key(ranks, size: int) -> int:
    """The perfect key of ``size`` ranks: the sum of their weights."""
    return sum(RANK_WEIGHTS[size][rank] for rank in ranks)


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


def valid_rank_multisets(size: int):
    """Every multiset of ``size`` ranks with at most four of a rank, sorted."""
    for ranks in itertools.combinations_with_replacement(range(13), size):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def displacement_offsets(keys: np.ndarray, shift: int, window: int = 1024) -> np.ndarray:
    """Offsets that send distinct ``keys`` to distinct ``key + offsets[key >> shift] >= 0``.

    Rows (keys sharing ``key >> shift``) are placed largest first, each at the
    lowest offset where all its keys land on free slots.
    """
    keys = np.asarray(keys, dtype=np.int64)
    rows = keys >> shift
    counts = np.bincount(rows)
    offsets = np.zeros(len(counts), dtype=np.int64)
    free = np.ones(4 * len(keys) + (2 << shift) + window, dtype=bool)
    first_free = 0
    for row in np.argsort(-counts, kind="stable")[: np.count_nonzero(counts)]:
        members = keys[rows == row]
        start = first_free - members.min()
        while True:
            fits = np.logical_and.reduce([free[k + start : k + start + window] for k in members])
            if fits.any():
                break
            start += window
        offsets[row] = start + fits.argmax()
        free[members + offsets[row]] = False
        first_free = int(free.argmax())
    return offsets


def _five_card_values() -> dict[tuple[str, tuple[int, ...]], int]:
    """Value of every ("flush" | "plain", ranks) five-card hand, ranks ascending."""
    keys = {("flush", r): hand_key(list(r), True) for r in itertools.combinations(range(13), 5)}
    keys |= {("plain", r): hand_key(list(r), False) for r in valid_rank_multisets(5)}
    order = {key: value for value, key in enumerate(sorted(set(keys.values())), start=1)}
    assert len(order) == HAND_CLASSES
    return {hand: order[key] for hand, key in keys.items()}


def build_tables() -> dict[str, np.ndarray]:
    """Compute every table from the rules of poker (about a second)."""
    value = _five_card_values()
    category = np.zeros(HAND_CLASSES + 1, dtype=np.uint8)
    for (kind, ranks), hand_value in value.items():
        category[hand_value] = hand_key(list(ranks), kind == "flush")[0]
    tables = {
        "category": category,
        "ace_king_min": np.array([value["plain", (0, 1, 2, 11, 12)]], dtype=np.uint16),  # AK432
    }

    flush = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        ranks = [rank for rank in range(13) if mask >> rank & 1]
        if len(ranks) >= 5:
            flush[mask] = max(value["flush", five] for five in itertools.combinations(ranks, 5))
    tables["flush"] = flush

    for size in (5, 6):
        best = {
            rank_key(ranks, size): max(value["plain", f] for f in itertools.combinations(ranks, 5))
            for ranks in valid_rank_multisets(size)
        }
        keys = np.array(list(best), dtype=np.int64)
        offsets = displacement_offsets(keys, HASH_SHIFT[size])
        index = keys + offsets[keys >> HASH_SHIFT[size]]
        table = np.zeros(index.max() + 1, dtype=np.uint16)
        table[index] = list(best.values())
        tables[f"ranks{size}"] = table
        tables[f"rank_offsets{size}"] = offsets.astype(np.int32)
        tables[f"card_weights{size}"] = np.array(RANK_WEIGHTS[size], dtype=np.int32)[
            np.arange(52) >> 2
        ]
    return tables


def cache_dir() -> Path:
    """Where studsim keeps files it can rebuild: ``$STUDSIM_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/studsim``, else ``~/.cache/studsim``."""
    if path := os.environ.get("STUDSIM_CACHE_DIR"):
        return Path(path)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "studsim"


def source_hash(*sources: str) -> str:
    """A hash of the package's source files ``sources`` (``"_exact.py"``...): what keys
    tables and checkpoints to the code that made them."""
    digest = hashlib.sha256()
    folder = resources.files("simulate")
    for name in sources:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:16]


def cached_arrays(
    name: str, build: Callable[[], dict[str, np.ndarray]], sources: tuple[str, ...] = ()
) -> dict[str, np.ndarray]:
    """Arrays kept in the cache folder as ``name``.npz, keyed by the source files
    ``sources`` that build them: loaded when there, else built and saved atomically (a
    read-only home still works, only without the cache)."""
    path = cache_dir() / f"{name}-{source_hash(*sources)}.npz"
    try:
        with np.load(path) as saved:
            return {key: saved[key] for key in saved.files}
    except (OSError, ValueError, KeyError):
        pass
    arrays = build()
    with contextlib.suppress(OSError):
        write_npz(path, compress=False, **arrays)
    return arrays


def load_tables() -> dict[str, np.ndarray]:
    """The tables from the disk cache, built and saved on first use."""
    return cached_arrays(f"hand-tables-v{TABLE_VERSION}", build_tables, ("_tables.py", "codes.py"))
