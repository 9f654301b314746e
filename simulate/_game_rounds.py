"""numba kernel: what buying the dealer a game adds to a situation played exactly.

Rounds are dealt for one situation (the player's five cards and the upcard fixed),
the player's first option read from the memo of ``ExactDecisions``, every decision
after it exact; where the player bets and the dealer does not qualify, the game is
bought exactly when worth more than declining, as the engine buys it
(``_engine._buy_games``). Round ``r`` of situation ``j`` draws its cards from the
stream ``round_state_jit(round_state_jit(key, j), r)``: a situation's figures depend
on the seed, its index and the number of rounds alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._engine import (
    cards_mask_jit,
    draw_card_jit,
    game_gains_jit,
    play_box_jit,
    round_state_jit,
)
from ._evaluator import hand_value_jit, value5_jit
from ._settlement import bet_multiple_jit, dealer_discard_jit
from .codes import DECISIONS


@njit(cache=True, parallel=True)
def situation_game_gains_jit(
    v, strategy, exact, draw_fees, forced, hands, upcards, bets_five, first, key, rounds,
    gains, controls, bought, foreseen, foreseen_controls,
):  # fmt: skip
    """For situation ``j`` (``hands[j]``, ``upcards[j]``; its index ``first + j``):
    ``gains[j]`` the mean, over ``rounds`` rounds, of what buying the game exactly
    adds (in antes; zero where the dealer qualifies or the player folds),
    ``bought[j]`` the share of rounds in which it is bought, and ``controls[j]`` the
    same gain on the same dealer hands had the player bet his five cards where
    ``bets_five[j]`` (and folded elsewhere), as the best play without draws does;
    ``foreseen[j]`` and ``foreseen_controls[j]`` what seeing the card the dealer's
    exchange brings adds to buying the game exactly, in the play and in the control
    (each round's expectation over the new cards)."""
    for j in prange(hands.shape[0]):
        stream = round_state_jit(key, first + j)
        state = np.zeros(1, dtype=np.uint64)
        used, seen = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
        money = np.full(1, np.inf)  # no bankroll rule
        decisions = np.zeros(DECISIONS, dtype=np.int64)
        hand, dealer = np.empty(6, dtype=np.int64), np.empty(5, dtype=np.int64)
        upcard = upcards[j]
        five_mask = cards_mask_jit(hands[j])
        dealt = five_mask | (np.int64(1) << upcard)
        five_value = hand_value_jit(hands[j])
        five_multiple = bet_multiple_jit(v, hands[j], five_value)
        total, control, count, seen_total, seen_control = 0.0, 0.0, 0, 0.0, 0.0
        for r in range(rounds):
            state[0] = round_state_jit(stream, r)
            used[0] = dealt
            for i in range(4):
                dealer[i] = draw_card_jit(state, used)
            dealer[4] = upcard
            if value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4]) >= v.qualifier:
                continue  # the game is not for sale
            discard = dealer_discard_jit(v, dealer)
            dealer_mask = cards_mask_jit(dealer)
            if bets_five[j]:
                dead = five_mask | dealer_mask
                gain, seeing = game_gains_jit(v, five_value, five_multiple, dealer, discard, dead)
                control += max(0.0, gain)
                seen_control += seeing - max(0.0, gain)
            hand[:5] = hands[j]
            seen[0] = five_mask
            cards, _, folded = play_box_jit(
                v, strategy, exact, exact, draw_fees, forced, state, used, seen, decisions,
                hand, five_value, upcard, 1.0, money,
            )  # fmt: skip
            if folded:
                continue
            value, multiple = five_value, five_multiple
            if seen[0] != five_mask:  # cards drawn
                value = hand_value_jit(hand[:cards])
                multiple = bet_multiple_jit(v, hand[:cards], value)
            dead = seen[0] | dealer_mask
            gain, seeing = game_gains_jit(v, value, multiple, dealer, discard, dead)
            if gain > 0:
                total += gain
                count += 1
            seen_total += seeing
            seen_total -= max(gain, 0.0)
        gains[j] = total / rounds
        controls[j] = control / rounds
        bought[j] = count / rounds
        foreseen[j] = seen_total / rounds
        foreseen_controls[j] = seen_control / rounds
