"""numba kernels that play a round's first parts only, to time where its time goes
(``bench simulate``): dealing, then evaluating the hands, then the whole round without
adding up its results. Each plays the rounds of ``blocks`` blocks of the seed ``key``
as ``_engine.play_blocks_jit`` does, and writes a sum per block so nothing is skipped."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._engine import BLOCK, LOST, WON, deal_jit, play_round_jit, round_scratch_jit, round_state_jit
from ._evaluator import value5_jit


@njit(cache=True, parallel=True)
def deal_blocks_jit(evaluate, key, blocks, out):
    """Deal the rounds (one box); where ``evaluate``, evaluate the player's and the
    dealer's hands too."""
    for row in prange(blocks):
        state, _, hands, dealer, used, _, _, _ = round_scratch_jit(1)
        total = 0
        for index in range(row * BLOCK, (row + 1) * BLOCK):
            state[0] = round_state_jit(key, index)
            deal_jit(state, used, hands, dealer)
            if evaluate:
                hand = hands[0]
                player = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
                total += player > value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
            else:
                total += hands[0, 0] + dealer[4]
        out[row] = total


@njit(cache=True, parallel=True)
def round_blocks_jit(v, strategy, game_mode, exact, options, draw_fees, forced, key, blocks, out):
    """Play the rounds (one open box; arguments as ``play_blocks_jit``'s) without adding
    up their results."""
    for row in prange(blocks):
        state, decisions, hands, dealer, used, known, box_f, box_i = round_scratch_jit(1)
        ones, money = np.ones(1), np.empty(1)
        total = 0.0
        for index in range(row * BLOCK, (row + 1) * BLOCK):
            state[0] = round_state_jit(key, index)
            money[0] = np.inf
            play_round_jit(
                v, strategy, game_mode, exact, options, draw_fees, forced, 1, True, state,
                decisions, hands, dealer, used, known, box_f, box_i, ones, money,
            )  # fmt: skip
            total += box_f[0, WON] - box_f[0, LOST]
        out[row] = total
