"""Poker hand values, best five of six, and categories.

>>> hand_value("As Ks Qs Js Ts")
7462
>>> hand_category("Ah Kd 9c 7s 2h", ace_king=True).label
'ace-king'
>>> format_cards(best_five("2c 2d 3h 4s 9d 9c"))
'9c 9d 2c 2d 4s'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from contextlib import contextmanager

import numba
import numpy as np

from . import _evaluator as kernels
from .cards import CardError, format_cards, parse_cards
from .codes import Category

__all__ = [
    "HAND_CLASSES",
    "best_five",
    "categories",
    "count_categories",
    "evaluate",
    "format_cards",
    "hand_category",
    "hand_value",
    "threshold_value",
]

HAND_CLASSES = 7462
Cards = str | Sequence[int] | np.ndarray


def _describe(hand: np.ndarray) -> str:
    try:
        return format_cards(hand.ravel())
    except CardError:
        return str(hand.tolist())


def _as_hand(cards: Cards) -> np.ndarray:
    hand = parse_cards(cards) if isinstance(cards, str) else np.asarray(cards, dtype=np.int64)
    if hand.ndim != 1 or hand.shape[0] not in (5, 6):
        raise CardError(f"a hand has 5 or 6 cards, got {hand.size}: {_describe(hand)}")
    if kernels._first_invalid_row(hand[None, :]) >= 0:
        raise CardError(f"{_describe(hand)} is not a hand of distinct cards 0..51")
    return hand.astype(np.int8)


def hand_value(cards: Cards) -> int:
    """Value of a 5- or 6-card hand (best five of six): 1..7462, higher is better."""
    return int(kernels.hand_value_jit(_as_hand(cards)))


def hand_category(cards: Cards, *, ace_king: bool = False) -> Category:
    """Category of a hand; with ``ace_king``, A-K high is :attr:`Category.ACE_KING`."""
    return Category(int(kernels.category_jit(hand_value(cards), ace_king)))


def threshold_value(text: str) -> int:
    """The value a rule or a qualifier names: the lowest hand of a category
    (``'pair'``, ``'ace-king'``) or five cards (``'Ad Kc 8h 4s 2c'``). Raises
    ``ValueError`` naming what was expected."""
    try:
        category = Category.from_key(text)
    except KeyError:
        try:
            return hand_value(parse_cards(text))
        except CardError as error:
            raise ValueError(f"neither a category nor five cards: {error}") from None
    if category == Category.HIGH_CARD:
        return 1
    if category == Category.ACE_KING:
        return kernels.ACE_KING_MIN
    return int(np.flatnonzero(category == kernels.CATEGORY)[0])


def best_five(cards: Cards) -> np.ndarray:
    """The five cards that make the hand's value, strongest group first."""
    hand = _as_hand(cards)
    five = max(itertools.combinations(hand.tolist(), 5), key=lambda c: kernels.value5_jit(*c))
    counts = {rank: sum(card >> 2 == rank for card in five) for rank in {c >> 2 for c in five}}
    return np.array(sorted(five, key=lambda c: (-counts[c >> 2], -(c >> 2), c)), dtype=np.int8)


@contextmanager
def _thread_count(threads: int | None):
    if threads is None:
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


def evaluate(hands: np.ndarray, *, threads: int | None = 1, check: bool = True) -> np.ndarray:
    """Values of many hands: an ``(N, 5)`` or ``(N, 6)`` integer array.

    ``threads`` is the number of numba threads (``None``: all of them);
    ``check`` rejects cards outside 0..51 and repeated cards.
    """
    hands = np.asarray(hands)
    if hands.ndim != 2 or hands.shape[1] not in (5, 6):
        raise CardError(f"hands must be an (N, 5) or (N, 6) array, got shape {hands.shape}")
    if not np.issubdtype(hands.dtype, np.integer):
        raise CardError(f"hands must hold integer cards, got dtype {hands.dtype}")
    if hands.dtype != np.int8:
        if hands.size and (hands.min() < 0 or hands.max() > 51):
            raise CardError("cards must be integers 0..51")
        hands = hands.astype(np.int8)
    if check and (row := kernels._first_invalid_row(hands)) >= 0:
        raise CardError(f"row {row} is not a hand of distinct cards 0..51: {hands[row].tolist()}")
    out = np.empty(hands.shape[0], dtype=np.uint16)
    with _thread_count(threads):
        kernels._values(hands, out)
    return out


def categories(values: np.ndarray, *, ace_king: bool = False) -> np.ndarray:
    """Category codes (see :class:`Category`) of an array of values."""
    values = np.asarray(values)
    codes = kernels.CATEGORY[values]
    if ace_king:
        codes = np.where(
            (codes == Category.HIGH_CARD) & (values >= kernels.ACE_KING_MIN),
            np.uint8(Category.ACE_KING),
            codes,
        )
    return codes


def count_categories(size: int, *, ace_king: bool = False) -> dict[Category, int]:
    """Number of hands of each category among all C(52, size) hands, size 5 or 6."""
    if size not in (5, 6):
        raise ValueError(f"size must be 5 or 6, got {size}")
    counts = kernels._count_all_hands(size, ace_king)
    return {category: int(counts[category]) for category in Category if counts[category]}
