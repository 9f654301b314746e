"""Hand categories, from high card to royal flush.

The codes are the same in every variant. ``ACE_KING`` (an ace and a king,
no pair or better) exists only in variants that rank it between high card
and one pair; elsewhere such a hand is a ``HIGH_CARD``.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Category"]


class Category(IntEnum):
    HIGH_CARD = 0
    ACE_KING = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    @property
    def label(self) -> str:
        """``'full house'``, ``'ace-king'``..."""
        return "ace-king" if self is Category.ACE_KING else self.name.lower().replace("_", " ")

    @property
    def key(self) -> str:
        """The name used in variant and strategy files: ``'full-house'``."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def from_key(cls, key: str) -> Category:
        """Inverse of :attr:`key`; accepts underscores and spaces too."""
        return cls[key.strip().upper().replace("-", "_").replace(" ", "_")]
