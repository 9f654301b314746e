"""numba kernels of the hand evaluator.

Scalar functions with a ``_jit`` suffix can be called from other kernels;
the batch kernels fill an ``out`` array. Tables are module constants, so
numba compiles them into the machine code it caches.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._tables import load_tables

_TABLES = load_tables()
FLUSH = _TABLES["flush"]
MULTISET5 = _TABLES["multiset5"]
MULTISET6 = _TABLES["multiset6"]
CATEGORY = _TABLES["category"]
ACE_KING_MIN = int(_TABLES["ace_king_min"][0])
# P<i>[r] = C(r + i, i + 1): the multiset index term of rank r at sorted position i.
P0, P1, P2, P3, P4, P5 = (
    np.array([_TABLES["comb"][i, r + i] for r in range(13)], dtype=np.int32) for i in range(6)
)
ACE_KING = 1
HIGH_CARD = 0


@njit(cache=True, inline="always")
def _ordered(a, b):
    return min(a, b), max(a, b)


@njit(cache=True)
def value5_jit(c0, c1, c2, c3, c4):
    """Value (1..7462, higher is better) of five distinct cards."""
    c0, c1, c2, c3, c4 = np.int32(c0), np.int32(c1), np.int32(c2), np.int32(c3), np.int32(c4)
    r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        return FLUSH[(1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)]
    r0, r1 = _ordered(r0, r1)
    r3, r4 = _ordered(r3, r4)
    r2, r4 = _ordered(r2, r4)
    r2, r3 = _ordered(r2, r3)
    r0, r3 = _ordered(r0, r3)
    r0, r2 = _ordered(r0, r2)
    r1, r4 = _ordered(r1, r4)
    r1, r3 = _ordered(r1, r3)
    r1, r2 = _ordered(r1, r2)
    return MULTISET5[P0[r0] + P1[r1] + P2[r2] + P3[r3] + P4[r4]]


@njit(cache=True)
def value6_jit(c0, c1, c2, c3, c4, c5):
    """Value of the best five of six distinct cards."""
    c0, c1, c2, c3, c4 = np.int32(c0), np.int32(c1), np.int32(c2), np.int32(c3), np.int32(c4)
    c5 = np.int32(c5)
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
    r0, r1, r2, r3, r4, r5 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2, c5 >> 2
    r1, r2 = _ordered(r1, r2)
    r0, r2 = _ordered(r0, r2)
    r0, r1 = _ordered(r0, r1)
    r4, r5 = _ordered(r4, r5)
    r3, r5 = _ordered(r3, r5)
    r3, r4 = _ordered(r3, r4)
    r0, r3 = _ordered(r0, r3)
    r1, r4 = _ordered(r1, r4)
    r2, r5 = _ordered(r2, r5)
    r2, r4 = _ordered(r2, r4)
    r1, r3 = _ordered(r1, r3)
    r2, r3 = _ordered(r2, r3)
    return MULTISET6[P0[r0] + P1[r1] + P2[r2] + P3[r3] + P4[r4] + P5[r5]]


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
    if ace_king and category == HIGH_CARD and value >= ACE_KING_MIN:
        return ACE_KING
    return category


@njit(cache=True)
def _values_serial(hands, out):
    if hands.shape[1] == 5:
        for i in range(hands.shape[0]):
            out[i] = value5_jit(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    else:
        for i in range(hands.shape[0]):
            out[i] = value6_jit(
                hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5]
            )


@njit(cache=True, parallel=True)
def _values_parallel(hands, out):
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
def _count_all_hands(size, ace_king):
    """Count every ``size``-card hand (5 or 6) by category."""
    counts = np.zeros(11, dtype=np.int64)
    hand = np.zeros(size, dtype=np.int64)
    for i in range(size):
        hand[i] = i
    while True:
        counts[category_jit(hand_value_jit(hand), ace_king)] += 1
        i = size - 1  # next combination in lexicographic order
        while i >= 0 and hand[i] == 52 - size + i:
            i -= 1
        if i < 0:
            return counts
        hand[i] += 1
        for j in range(i + 1, size):
            hand[j] = hand[j - 1] + 1
