"""Settling a box from the cards and the decisions taken.

>>> oasis = load_variant("oasis")
>>> result = settle(oasis, "6c 6d 6h Ks Kd", dealer="Ac Kc 9d 5s 2h")
>>> result.outcome.label, result.net * 10   # the seed's example: ante 10 wins 150
('win', 150.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _settlement as kernels
from .cards import CardError, format_card, parse_cards
from .codes import Outcome
from .evaluator import hand_value
from .variant import Account, Variant, load_variant

__all__ = [
    "BoxResult",
    "Outcome",
    "bet_multiple",
    "bonus_multiple",
    "capped_net",
    "dealer_discard",
    "settle",
]


@dataclass(frozen=True)
class BoxResult:
    """A settled box, in antes."""

    won: float
    lost: float
    outcome: Outcome

    @property
    def net(self) -> float:
        return self.won - self.lost


def _cards(cards, sizes: tuple[int, ...], what: str) -> np.ndarray:
    hand = parse_cards(cards) if isinstance(cards, str) else np.asarray(cards, dtype=np.int8)
    if hand.ndim != 1 or hand.size not in sizes:
        raise CardError(f"{what} must be {' or '.join(map(str, sizes))} cards, got {hand.size}")
    hand_value(hand)  # checks the cards
    return hand.astype(np.int8)


def settle(
    variant: Variant | str,
    cards,
    dealer,
    *,
    folded: bool = False,
    fees: float = 0.0,
    bought_game: bool = False,
    dealer_after=None,
) -> BoxResult:
    """Settle one box: the player's final cards against the dealer's five.

    ``fees``: what the player paid to buy or exchange cards, in antes.
    ``bought_game``: he bought the non-qualifying dealer an exchange, after
    which the dealer holds ``dealer_after``.
    """
    variant = load_variant(variant)
    player = _cards(cards, (5, 6), "the player's hand")
    dealt = _cards(dealer, (5,), "the dealer's hand")
    if set(player.tolist()) & set(dealt.tolist()):
        raise CardError("the player and the dealer share a card")
    dealer_value = hand_value(dealt)
    after_value = dealer_value
    if bought_game:
        if variant.buy_game is None:
            raise ValueError(f"{variant.name}: buying the dealer a game is not offered")
        if dealer_value >= variant.qualifier_value:
            raise ValueError("a game is bought only when the dealer does not qualify")
        if dealer_after is None:
            raise ValueError("a bought game needs the dealer's hand after his exchange")
        after = _cards(dealer_after, (5,), "the dealer's hand after his exchange")
        if len(set(after.tolist()) - set(dealt.tolist())) != 1:
            raise CardError("the dealer exchanges exactly one card")
        after_value = hand_value(after)
    arrays, value = variant.arrays(), hand_value(player)
    multiple = kernels.bet_multiple_jit(arrays, player, value)
    won, lost, outcome = kernels.settle_jit(
        arrays, value, multiple, folded, float(fees), dealer_value, bought_game, after_value
    )
    return BoxResult(won, lost, Outcome(outcome))


def bet_multiple(variant: Variant | str, cards) -> float:
    """What the BET pays, N to 1, when these cards beat a qualifying dealer."""
    hand = _cards(cards, (5, 6), "the hand")
    return float(kernels.bet_multiple_jit(load_variant(variant).arrays(), hand, hand_value(hand)))


def bonus_multiple(variant: Variant | str, first_five) -> float:
    """The bonus bet's net result, in bonus bets, on the first five cards."""
    variant = load_variant(variant)
    if variant.bonus_pays is None:
        raise ValueError(f"{variant.name} has no bonus bet")
    return float(
        kernels.bonus_multiple_jit(variant.arrays(), _cards(first_five, (5,), "the hand"))
    )


def dealer_discard(variant: Variant | str, dealer) -> str:
    """The card the dealer exchanges when the player buys him a game."""
    variant = load_variant(variant)
    if variant.buy_game is None:
        raise ValueError(f"{variant.name}: buying the dealer a game is not offered")
    hand = _cards(dealer, (5,), "the dealer's hand")
    return format_card(hand[kernels.dealer_discard_jit(variant.arrays(), hand)])


def capped_net(
    variant: Variant | str,
    result: BoxResult,
    *,
    account: str | Account,
    ante: float,
    bonus_bet: float = 0.0,
    bonus: float = -1.0,
) -> float:
    """A box's net result in currency for an ante, under an account's maximum payout.

    ``bonus`` is the bonus bet's result in bonus bets (see :func:`bonus_multiple`).
    """
    variant = load_variant(variant)
    if isinstance(account, str):
        if account not in variant.accounts:
            known = ", ".join(variant.accounts) or "none"
            raise ValueError(f"{variant.name} has no account {account!r} (known: {known})")
        account = variant.accounts[account]
    low, high = account.ante
    if not low <= ante <= high:
        raise ValueError(f"ante {ante:g} is outside {account.name}'s limits {low:g}..{high:g}")
    if bonus_bet and (
        account.bonus is None or not account.bonus[0] <= bonus_bet <= account.bonus[1]
    ):
        raise ValueError(f"bonus bet {bonus_bet:g} is outside {account.name}'s limits")
    cap = np.inf if account.max_payout is None else account.max_payout
    return float(
        kernels.capped_net_jit(
            result.won,
            result.lost,
            bonus if bonus_bet else 0.0,
            ante,
            bonus_bet,
            cap,
            variant.payout_cap == "bet",
        )
    )
