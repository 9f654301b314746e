"""numba kernel that plays sessions: rounds one after another on a bankroll.

Session ``s`` plays rounds ``s * R .. s * R + R - 1`` of the seed's streams (R rounds
per session), so its cards depend only on the seed and its index, never on threads
or chunks; a session that stops early leaves its other rounds unplayed.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._engine import BONUS_NET, LOST, WON, play_round_jit, round_scratch_jit, round_state_jit
from ._settlement import capped_net_jit
from .codes import StakeSlot as Stake

# what ended a session (the ``ended`` output)
PLAYED_OUT, RUINED, STOP_LOSS, STOP_WIN = range(4)


@njit(cache=True)
def up_front_jit(v, stakes, open_boxes):
    """What a round takes before any card is seen, in currency: every ante and bonus bet,
    and the BET of every blind box."""
    total = 0.0
    for box in range(stakes.shape[0]):
        total += stakes[box, Stake.ANTE] + stakes[box, Stake.BONUS_BET]
        if box >= open_boxes:
            total += v.bet * stakes[box, Stake.ANTE]
    return total


@njit(cache=True, parallel=True)
def play_sessions_jit(
    v,
    strategy,
    game_mode,
    exact,
    options,
    draw_fees,
    forced,
    open_boxes,
    share_seen,
    key,
    rounds,
    first_session,
    bankroll,
    floor,
    target,
    stakes,
    final,
    played,
    ended,
    drawdown,
    paths,
):
    """Play sessions ``first_session ..`` (one row of the outputs each): from ``bankroll``,
    rounds of the boxes of ``stakes`` (slots ``codes.StakeSlot``, in currency; each box's
    net capped by its maximum payout) until ``rounds`` are played, the bankroll cannot pay
    a round's stakes (ruin), falls to ``floor`` (stop-loss) or reaches ``target``
    (stop-win). Outputs: the final bankroll, rounds played, what ended the session, the
    largest drawdown (fall from a running peak) and, for the first ``paths.shape[0]``
    sessions, the bankroll after each round (NaN after the end).
    """
    boxes = stakes.shape[0]
    up_front = up_front_jit(v, stakes, open_boxes)
    antes = stakes[:, Stake.ANTE].copy()
    for row in prange(final.shape[0]):
        session = first_session + row
        state, decisions, hands, dealer, used, known, box_f, box_i = round_scratch_jit(boxes)
        money = np.empty(1)
        balance, peak, fall = bankroll, bankroll, 0.0
        end, count = PLAYED_OUT, 0
        for r in range(rounds):
            if balance <= floor:
                end = STOP_LOSS
                break
            if balance >= target:
                end = STOP_WIN
                break
            if balance < up_front:
                end = RUINED
                break
            state[0] = round_state_jit(key, session * rounds + r)
            money[0] = balance - up_front
            play_round_jit(
                v, strategy, game_mode, exact, options, draw_fees, forced, open_boxes,
                share_seen, state, decisions, hands, dealer, used, known, box_f, box_i, antes,
                money,
            )  # fmt: skip
            for box in range(boxes):
                balance += capped_net_jit(
                    box_f[box, WON],
                    box_f[box, LOST],
                    box_f[box, BONUS_NET],
                    stakes[box, Stake.ANTE],
                    stakes[box, Stake.BONUS_BET],
                    stakes[box, Stake.MAXIMUM_PAYOUT],
                    stakes[box, Stake.CAP_PER_BET] > 0,
                )
            count += 1
            peak = max(peak, balance)
            fall = max(fall, peak - balance)
            if row < paths.shape[0]:
                paths[row, r] = balance
        if end == PLAYED_OUT:  # the last round may have ended it too
            if balance <= floor:
                end = STOP_LOSS
            elif balance >= target:
                end = STOP_WIN
            elif balance < up_front:
                end = RUINED
        final[row], played[row], ended[row], drawdown[row] = balance, count, end, fall
