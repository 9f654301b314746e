"""Cards as integers 0..51, and their text form.

A card is ``4 * rank + suit``: rank 0..12 for deuce..ace, suit 0..3 for
clubs, diamonds, hearts, spades. So ``2c`` is 0, ``2d`` 1, ``As`` 51, and
``card >> 2`` is the rank, ``card & 3`` the suit.

>>> parse_cards("As Kd 10h")
array([51, 45, 34], dtype=int8)
>>> format_cards([51, 45, 34])
'As Kd Th'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

__all__ = [
    "RANKS",
    "SUITS",
    "CardError",
    "card_of",
    "format_card",
    "format_cards",
    "parse_cards",
    "random_hands",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"

_SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
_CARD = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE)
_SEPARATOR = re.compile(r"[\s,;/|+-]+")


class CardError(ValueError):
    """A card string that is malformed, or a hand with a repeated card."""


def card_of(rank: int, suit: int) -> int:
    """The card of a rank (0 = deuce .. 12 = ace) and a suit (0..3 = c, d, h, s)."""
    return 4 * rank + suit


def format_card(card: int) -> str:
    """``51`` -> ``'As'``."""
    card = int(card)
    if not 0 <= card < 52:
        raise CardError(f"card number {card} is outside 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def format_cards(cards: Iterable[int]) -> str:
    """Cards as a space-separated string."""
    return " ".join(format_card(card) for card in cards)


def parse_cards(text: str | Iterable[str], *, unique: bool = True) -> np.ndarray:
    """Parse cards such as ``"As Kd 10h"``, ``"asKD7H"`` or ``"A♠ K♦"``.

    Ranks 2-9, T or 10, J, Q, K, A; suits c, d, h, s (or their symbols);
    any case; separators (spaces, commas, dashes) optional. A list of strings
    is parsed as one hand. Raises :class:`CardError` naming the offending
    text, or the repeated card when ``unique`` is set.
    """
    if not isinstance(text, str):
        text = " ".join(text)
    source = text
    for symbol, letter in _SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    cards: list[int] = []
    position = 0
    while position < len(text):
        gap = _SEPARATOR.match(text, position)
        if gap:
            position = gap.end()
            continue
        match = _CARD.match(text, position)
        if not match:
            bad = _SEPARATOR.split(text[position:], maxsplit=1)[0]
            raise CardError(
                f"{bad!r} is not a card (in {source!r}); write cards like As, Td, 10d, 7h"
            )
        rank = "T" if match[1] == "10" else match[1].upper()
        cards.append(card_of(RANKS.index(rank), SUITS.index(match[2].lower())))
        position = match.end()
    if not cards:
        raise CardError(f"no cards in {source!r}")
    if unique:
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"{format_card(card)} appears twice in {source!r}")
            seen.add(card)
    return np.array(cards, dtype=np.int8)


def random_hands(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` uniformly random hands of ``size`` distinct cards, an (n, size) int8 array."""
    hands = rng.integers(0, 52, size=(n, size), dtype=np.int8)
    while True:
        ordered = np.sort(hands, axis=1)
        repeated = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not repeated.any():
            return hands
        hands[repeated] = rng.integers(0, 52, size=(int(repeated.sum()), size), dtype=np.int8)
