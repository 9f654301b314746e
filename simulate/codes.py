"""The codes shared by the numba kernels and the Python API.

Every kernel reads its codes and array indices from here, and numba reads
an ``IntEnum`` member as an integer constant, so a code is declared once:
hand categories, outcomes, the decisions counted, strategy points and
actions, how a strategy buys the dealer a game, and the slots of the fee
and stake arrays passed to the kernels.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "Action",
    "Category",
    "DealerDiscard",
    "Decision",
    "DrawSlot",
    "Fee",
    "GameMode",
    "Outcome",
    "Point",
    "StakeSlot",
]


def _words(name: str) -> str:
    return name.lower().replace("_", " ")


class Category(IntEnum):
    """Hand categories, the same codes in every variant. ``ACE_KING`` (an ace and a
    king, no pair or better) exists only where a variant ranks it between high card
    and one pair; elsewhere such a hand is a ``HIGH_CARD``."""

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
        return "ace-king" if self is Category.ACE_KING else _words(self.name)

    @property
    def key(self) -> str:
        """The name used in variant and strategy files: ``'full-house'``."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def from_key(cls, key: str) -> Category:
        """Inverse of :attr:`key`; accepts underscores and spaces too."""
        return cls[key.strip().upper().replace("-", "_").replace(" ", "_")]


CATEGORIES = len(Category)


class Outcome(IntEnum):
    """How a box ends. The first five are the outcomes of a game whose dealer's
    game is never bought (the exact tables count those); ``BOUGHT_*`` follow a
    bought game."""

    FOLD = 0
    NO_QUALIFY = 1
    WIN = 2
    PUSH = 3
    LOSS = 4
    BOUGHT_NO_QUALIFY = 5
    BOUGHT_WIN = 6
    BOUGHT_PUSH = 7
    BOUGHT_LOSS = 8

    @property
    def label(self) -> str:
        """``'win'``, ``'bought game: dealer does not qualify'``..."""
        plain = self.name.removeprefix("BOUGHT_")
        text = "dealer does not qualify" if plain == "NO_QUALIFY" else _words(plain)
        return f"bought game: {text}" if plain != self.name else text


OUTCOMES = len(Outcome)
PLAIN_OUTCOMES = Outcome.BOUGHT_NO_QUALIFY  # outcomes without a bought game: codes below it


class Decision(IntEnum):
    """The decisions the simulator counts (one round may take several). The first
    decision of a box is one of ``FOLD`` to ``REPLACE``; the exact tables of optimal
    play count those (``EXCHANGE_k`` = ``EXCHANGE_1 + k - 1``)."""

    FOLD = 0
    PLAY = 1
    BUY = 2
    EXCHANGE_1 = 3
    EXCHANGE_2 = 4
    EXCHANGE_3 = 5
    EXCHANGE_4 = 6
    EXCHANGE_5 = 7
    REPLACE = 8
    FOLD_AFTER_DRAW = 9
    PLAY_AFTER_DRAW = 10
    FORCED_PLAY = 11
    GAME_BOUGHT = 12
    GAME_DECLINED = 13
    BLIND_PLAY = 14
    REFUSED = 15  # a buy, exchange or game the bankroll could not pay
    BET_UNPAID = 16  # a fold: the bankroll could not pay the BET

    @property
    def label(self) -> str:
        """``'exchange 2'``, ``'buy the dealer a game'``..."""
        return _DECISION_LABELS.get(self.name, _words(self.name))


_DECISION_LABELS = {
    "BUY": "buy a sixth card",
    "REPLACE": "replace a card",
    "FOLD_AFTER_DRAW": "fold after a draw",
    "PLAY_AFTER_DRAW": "play after a draw",
    "FORCED_PLAY": "play forced by the exchange",
    "GAME_BOUGHT": "buy the dealer a game",
    "GAME_DECLINED": "decline to buy the dealer a game",
    "BLIND_PLAY": "play a blind box",
    "REFUSED": "draw or game refused: the bankroll could not pay it",
    "BET_UNPAID": "fold: the bankroll could not pay the BET",
}
DECISIONS = len(Decision)
FIRST_DECISIONS = Decision.REPLACE + 1  # first decisions: codes below it


class Point(IntEnum):
    """Where a strategy decides."""

    FIRST = 0
    AFTER_BUY = 1
    AFTER_DRAW = 2
    BUY_GAME = 3


class Action(IntEnum):
    """What a strategy's rule does."""

    FOLD = 0
    PLAY = 1
    BUY = 2
    EXCHANGE = 3
    REPLACE = 4
    BUY_THE_GAME = 5
    DECLINE = 6


class GameMode(IntEnum):
    """How a strategy decides to buy the dealer a game."""

    NEVER = 0
    RULES = 1
    EXACT = 2

    @property
    def key(self) -> str:
        """The name in strategy files: ``'never'``, ``'rules'``, ``'exact'``."""
        return self.name.lower()


class Fee(IntEnum):
    """Slots of the draw-fee array: buying a sixth card, exchanging k cards (slot k,
    so kernels index it by the count thrown), replacing a card after a buy. A draw
    not offered has fee NaN."""

    BUY = 0
    EXCHANGE_1 = 1
    EXCHANGE_2 = 2
    EXCHANGE_3 = 3
    EXCHANGE_4 = 4
    EXCHANGE_5 = 5
    REPLACE = 6


FEES = len(Fee)


class DrawSlot(IntEnum):
    """Slots of the arrays kept per kind of first option by the cards it draws: none
    (fold or play), exchanging k cards (slot k), buying a sixth card."""

    NONE = 0
    EXCHANGE_1 = 1
    EXCHANGE_2 = 2
    EXCHANGE_3 = 3
    EXCHANGE_4 = 4
    EXCHANGE_5 = 5
    BUY = 6


DRAW_SLOTS = len(DrawSlot)


class StakeSlot(IntEnum):
    """Slots of the stake array, in currency: ante 0 means no stake (nothing capped)."""

    ANTE = 0
    BONUS_BET = 1
    MAXIMUM_PAYOUT = 2
    CAP_PER_BET = 3  # 1: the cap applies to each bet; 0: to the box


STAKE_SLOTS = len(StakeSlot)


class DealerDiscard(IntEnum):
    """Which card the dealer exchanges when a player buys him a game."""

    MOST_OUTS = 0  # the card whose exchange gives him most qualifying hands
    HIGHEST = 1

    @property
    def key(self) -> str:
        """The name in variant files: ``'most-outs'``, ``'highest'``."""
        return self.name.lower().replace("_", "-")
