"""numba kernels of the decision after an exchange, as the strategy derivation weighs it:
what betting gains over folding on the final hands an exchange makes (every card the
player has seen dead, his discards too), and what a rule strategy decides there."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._exact import after_draw_ev_jit, unseen_jit
from ._strategy import decide_jit
from .codes import Action, Point


@njit(cache=True, parallel=True)
def draw_gains_jit(v, lists, hands, upcards, kept, order, finals, seen, gains):
    """For each exchange (five increasing cards, upcard, ``kept``: the positions kept) and
    each of its draws: the final hand (``finals[s, j]``, increasing), the discards as a
    52-bit mask (``seen[s]``) and what betting the final hand returns more than folding
    it (``gains[s, j]``, in antes), the dealer's cards avoiding every card seen. Draw
    ``j`` brings the first unseen cards (increasing order) of ``order[s, j]``'s indices."""
    for s in prange(hands.shape[0]):
        hand, upcard = hands[s], upcards[s]
        unseen = unseen_jit(hand, upcard)
        held, discards = 0, np.int64(0)
        final = np.empty(5, dtype=np.int64)
        for i in range(5):
            if (kept[s] >> i) & 1:
                final[held] = hand[i]
                held += 1
            else:
                discards |= np.int64(1) << hand[i]
        seen[s] = discards
        thrown = 5 - held
        dead = np.empty(5 + thrown, dtype=np.int64)
        dead[:5] = hand
        for j in range(order.shape[1]):
            for i in range(thrown):
                final[held + i] = unseen[order[s, j, i]]
                dead[5 + i] = final[held + i]
            finals[s, j] = np.sort(final)
            ev = after_draw_ev_jit(v, lists, finals[s, j], upcard, np.sort(dead), 5 + thrown, True)
            gains[s, j] = ev + 1.0


@njit(cache=True)
def bets_jit(rules, hands, upcards, seen):
    """Per final hand, whether the rules bet it after an exchange (``seen``: the cards the
    player has seen besides it and the upcard, a 52-bit mask)."""
    bets = np.empty(hands.shape[0], dtype=np.bool_)
    for s in range(hands.shape[0]):
        bets[s] = decide_jit(rules, Point.AFTER_DRAW, hands[s], upcards[s], seen[s])[0] == (
            Action.PLAY
        )
    return bets
