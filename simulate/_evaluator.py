"""numba kernels of the hand evaluator.

Scalar functions with a ``_jit`` suffix can be called from other kernels;
the batch kernels fill an ``out`` array. Tables are module constants, so
numba compiles them into the machine code it caches.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from ._tables import HASH_SHIFT, load_tables
from .codes import CATEGORIES, Category

# C(n, k) for n < 53, k < 6, for colex ranks of card sets
BINOMIAL = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)

_TABLES = load_tables()
FLUSH = _TABLES["flush"]
RANKS5 = _TABLES["ranks5"]
RANKS6 = _TABLES["ranks6"]
OFFSETS5 = _TABLES["rank_offsets5"]
OFFSETS6 = _TABLES["rank_offsets6"]
SHIFT5 = HASH_SHIFT[5]
SHIFT6 = HASH_SHIFT[6]
WEIGHT5 = _TABLES["card_weights5"]
WEIGHT6 = _TABLES["card_weights6"]
CATEGORY = _TABLES["category"]
ACE_KING_MIN = int(_TABLES["ace_king_min"][0])


@njit(cache=True)
def value5_jit(c0, c1, c2, c3, c4):
    """Value (1..7462, higher is better) of five distinct cards."""
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        return FLUSH[
            (1 << (c0 >> 2))
            | (1 << (c1 >> 2))
            | (1 << (c2 >> 2))
            | (1 << (c3 >> 2))
            | (1 << (c4 >> 2))
        ]
    key = WEIGHT5[c0] + WEIGHT5[c1] + WEIGHT5[c2] + WEIGHT5[c3] + WEIGHT5[c4]
    return RANKS5[key + OFFSETS5[key >> SHIFT5]]


@njit(cache=True)
def value6_jit(c0, c1, c2, c3, c4, c5):
    """Value of the best five of six distinct cards."""
    suit_counts = (
        (1 << ((c0 & 3) << 2))
        + (1 << ((c1 & 3) << 2))
        + (1 << ((c2 & 3) << 2))
        + (1 << ((c3 & 3) << 2))
        + (1 << ((c4 & 3) << 2))
        + (1 << ((c5 & 3) << 2))
    )
    five_of_a_suit = (suit_counts + 0x3333) & 0x8888  # a nibble of 5 or 6 reaches its top bit
    if five_of_a_suit:
        suit = 0
        while not (five_of_a_suit >> (4 * suit + 3)) & 1:
            suit += 1
        mask = 0
        for card in (c0, c1, c2, c3, c4, c5):
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        return FLUSH[mask]  # with five of a suit, nothing unsuited beats the flush
    key = WEIGHT6[c0] + WEIGHT6[c1] + WEIGHT6[c2] + WEIGHT6[c3] + WEIGHT6[c4] + WEIGHT6[c5]
    return RANKS6[key + OFFSETS6[key >> SHIFT6]]


@njit(cache=True)
def hand_value_jit(hand):
    """Value of a 5- or 6-card hand held in a 1-D array."""
    if hand.shape[0] == 5:
        return value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
    return value6_jit(hand[0], hand[1], hand[2], hand[3], hand[4], hand[5])


@njit(cache=True)
def category_jit(value, ace_king):
    """Category code of a value; ``ace_king`` ranks A-K high as its own category."""
    category = CATEGORY[value]
    if ace_king and category == Category.HIGH_CARD and value >= ACE_KING_MIN:
        return np.int64(Category.ACE_KING)
    return np.int64(category)


@njit(cache=True, parallel=True)
def _values(hands, out):
    if hands.shape[1] == 5:
        for i in prange(hands.shape[0]):
            out[i] = value5_jit(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    else:
        for i in prange(hands.shape[0]):
            out[i] = value6_jit(
                hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5]
            )


@njit(cache=True)
def _first_invalid_row(hands):
    """Index of the first row with a card outside 0..51 or a repeated card, else -1."""
    for i in range(hands.shape[0]):
        seen = np.int64(0)
        for j in range(hands.shape[1]):
            card = np.int64(hands[i, j])
            if card < 0 or card > 51 or (seen >> card) & 1:
                return i
            seen |= np.int64(1) << card
    return -1


@njit(cache=True)
def next_combination_jit(hand, n):
    """Advance ``hand`` (increasing cards) to the next combination of range(n) in
    lexicographic order; False when it was the last."""
    size = hand.shape[0]
    i = size - 1
    while i >= 0 and hand[i] == n - size + i:
        i -= 1
    if i < 0:
        return False
    hand[i] += 1
    for j in range(i + 1, size):
        hand[j] = hand[j - 1] + 1
    return True


@njit(cache=True)
def _count_all_hands(size, ace_king):
    """Count every ``size``-card hand (5 or 6) by category."""
    counts = np.zeros(CATEGORIES, dtype=np.int64)
    hand = np.arange(size)
    while True:
        counts[category_jit(hand_value_jit(hand), ace_king)] += 1
        if not next_combination_jit(hand, 52):
            return counts


@njit(cache=True)
def set_rank_jit(cards, size):
    """Colex rank of ``size`` distinct cards given in increasing order."""
    rank = 0
    for i in range(size):
        rank += BINOMIAL[cards[i], i + 1]
    return rank
