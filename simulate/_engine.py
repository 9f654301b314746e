"""numba kernels that play rounds and add up their results.

Randomness is counter-based: round ``i`` draws its cards from a SplitMix64
stream started at ``mix(key, i)``, so a round's cards depend only on the
seed and its index, never on threads or chunks. Rounds are grouped in
blocks of ``BLOCK`` rounds; a block's sums are added in one fixed order,
and blocks are added in block order, so every total is the same bit for
bit however the blocks are shared out.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint64

from ._decisions import (
    after_buy_choice_jit,
    after_draw_choice_jit,
    lists_of_jit,
    memo_choice_jit,
    situation_key_jit,
    situation_tables_of_jit,
    table_bet_jit,
)
from ._evaluator import category_jit, hand_value_jit, value5_jit
from ._settlement import (
    bet_multiple_jit,
    bonus_multiple_jit,
    capped_net_jit,
    dealer_discard_jit,
    settle_jit,
)
from ._situation import after_buy_jit, play_after_draw_jit
from ._strategy import decide
from .codes import CATEGORIES, DECISIONS, OUTCOMES, Action, Decision, Fee, GameMode, Outcome, Point
from .codes import StakeSlot as Stake

BLOCK = 4096
CELLS = OUTCOMES * CATEGORIES
# float sums of a block
NET, NET2, WAGER, BONUS, BONUS2, CAPPED, CAPPED2 = range(7)
CELL_NET = 7  # then the net of each outcome x category cell
FLOATS = CELL_NET + CELLS
# integer counts of a block
HITS = 0
CELL_COUNT = 1
DECISION_COUNT = CELL_COUNT + CELLS
# the round results, in half antes from NET_LOW to NET_HIGH (beyond: the end bins)
NET_LOW, NET_HIGH = -16.0, 512.0
NET_BINS = int((NET_HIGH - NET_LOW) * 2) + 1
NET_COUNT = DECISION_COUNT + DECISIONS
INTS = NET_COUNT + NET_BINS

_GOLDEN = uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True)
def round_state_jit(key, round_index):
    """The start of round ``round_index``'s random stream."""
    return _mix(key ^ _mix(uint64(round_index) * _GOLDEN + _GOLDEN))


@njit(cache=True)
def _next(state):
    state[0] += _GOLDEN
    return _mix(state[0])


@njit(cache=True)
def draw_card_jit(state, used):
    """A card uniformly among those not in ``used[0]`` (a 52-bit mask), marked used."""
    while True:
        x = _next(state) >> uint64(32)  # 32 random bits
        product = x * uint64(52)
        if (product & uint64(0xFFFFFFFF)) < uint64(16):  # 2**32 % 52: reject to stay uniform
            continue
        card = np.int64(product >> uint64(32))
        if not (used[0] >> card) & 1:
            used[0] |= np.int64(1) << card
            return card


@njit(cache=True)
def _exchange(hand, n, kept, state, used):
    """Replace the cards outside ``kept`` (a mask of positions); returns how many."""
    thrown = 0
    for i in range(n):
        if not (kept >> i) & 1:
            hand[i] = draw_card_jit(state, used)
            thrown += 1
    return thrown


@njit(cache=True)
def exact_game_gain_jit(v, value, multiple, dealer, discard, used, fees):
    """Expected gain, in antes, of buying the dealer a game over declining it.

    The player sees the dealer's hand and the card he discards; the new card
    is any card the player has not seen.
    """
    declined_won, declined_lost, _ = settle_jit(v, value, multiple, False, fees, 0, False, 0)
    trial = dealer.copy()
    total, count = 0.0, 0
    for card in range(52):
        if not (used >> card) & 1:
            trial[discard] = card
            after = value5_jit(trial[0], trial[1], trial[2], trial[3], trial[4])
            won, lost, _ = settle_jit(v, value, multiple, False, fees, 0, True, after)
            total += won - lost
            count += 1
    return total / count - (declined_won - declined_lost)


@njit(cache=True)
def deal_jit(state, used, hand, dealer):
    """Deal the player's five cards into ``hand`` and the dealer's five into ``dealer``
    (his upcard last)."""
    used[0] = 0
    for i in range(5):
        hand[i] = draw_card_jit(state, used)
    for i in range(5):
        dealer[i] = draw_card_jit(state, used)


@njit(cache=True)
def _seen_by_player(used, dealer):
    """The player's cards, discards and draws as a 52-bit mask: every card dealt but the
    dealer's five (the exact counts take his upcard on its own)."""
    seen = used[0]
    for card in dealer:
        seen &= ~(np.int64(1) << card)
    return seen


@njit(cache=True)
def _exact_after_draw(v, exact, final, upcard, seen):
    """PLAY or FOLD, exactly, every card seen dead: through the situation kernels' tables
    where the strategy has them."""
    if exact.grid.shape[0]:
        tables = situation_tables_of_jit(exact)
        return play_after_draw_jit(v, tables, lists_of_jit(exact), final, upcard, seen)
    return after_draw_choice_jit(v, lists_of_jit(exact), final, upcard, seen)


@njit(cache=True)
def _exact_after_buy(v, exact, six, upcard, replace_fee):
    """(action, cards kept) after a buy, exactly: through the situation kernels' tables
    where the strategy has them."""
    if exact.grid.shape[0]:
        tables = situation_tables_of_jit(exact)
        return after_buy_jit(v, tables, lists_of_jit(exact), six, upcard, replace_fee)
    return after_buy_choice_jit(v, lists_of_jit(exact), six, upcard, replace_fee)


@njit(cache=True)
def situation_keys_jit(key, start, stop, class_of, perm_of, perms):
    """The situation key (see ``_decisions``) of each round of ``start .. stop``."""
    keys = np.empty(stop - start, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    used = np.zeros(1, dtype=np.int64)
    hand = np.empty(6, dtype=np.int64)
    dealer = np.empty(5, dtype=np.int64)
    for index in range(start, stop):
        state[0] = round_state_jit(key, index)
        deal_jit(state, used, hand, dealer)
        keys[index - start] = situation_key_jit(class_of, perm_of, perms, hand[:5], dealer[4])[0]
    return keys


@njit(cache=True)
def play_round_jit(
    v, strategy, game_mode, exact, draw_fees, forced, state, decisions, hand, dealer, used
):
    """Play one box of one round; returns (won, lost, outcome, category, bonus, wager).

    ``exact``: ExactDecisions; with options, the first decision is the situation's
    best option from its memo and the later ones are exact; else with a fold-or-bet
    table, the first decision is the table's; else ``strategy`` decides (a rule array or
    a numba-compiled function: ``_strategy.decide``).
    ``draw_fees``: slots ``codes.Fee`` (NaN: not offered);
    ``forced``: exchanging i cards forces the BET; ``decisions`` counts the
    decisions taken; ``hand`` (6), ``dealer`` (5) and ``used`` (1) are scratch space.
    """
    deal_jit(state, used, hand, dealer)
    upcard = dealer[4]
    bonus = bonus_multiple_jit(v, hand[:5]) if v.has_bonus else 0.0
    exactly = exact.options.shape[0] > 0
    if exactly:
        action, kept = memo_choice_jit(exact, hand[:5], upcard)
    elif exact.plays.shape[0]:
        action, kept = (Action.PLAY if table_bet_jit(exact, hand[:5], upcard) else Action.FOLD), 0
    else:
        action, kept = decide(strategy, Point.FIRST, hand[:5], upcard)
    n = 5
    fees = 0.0
    folded = False
    if action == Action.FOLD:
        folded = True
        decisions[Decision.FOLD] += 1
    elif action == Action.BUY:
        decisions[Decision.BUY] += 1
        fees += draw_fees[Fee.BUY]
        hand[5] = draw_card_jit(state, used)
        n = 6
        if exactly:
            action, kept = _exact_after_buy(v, exact, hand, upcard, draw_fees[Fee.REPLACE])
        else:
            action, kept = decide(strategy, Point.AFTER_BUY, hand, upcard)
        if action == Action.REPLACE:
            decisions[Decision.REPLACE] += 1
            fees += draw_fees[Fee.REPLACE]
            _exchange(hand, 6, kept, state, used)
            if exactly:
                action = _exact_after_draw(v, exact, hand, upcard, _seen_by_player(used, dealer))
            else:
                action = decide(strategy, Point.AFTER_DRAW, hand, upcard)[0]
        folded = action == Action.FOLD
        decisions[Decision.FOLD_AFTER_DRAW if folded else Decision.PLAY_AFTER_DRAW] += 1
    elif action == Action.EXCHANGE:
        thrown = _exchange(hand, 5, kept, state, used)
        decisions[Decision.EXCHANGE_1 + thrown - 1] += 1
        fees += draw_fees[thrown]  # slot k: exchanging k cards
        if forced[thrown]:
            decisions[Decision.FORCED_PLAY] += 1
        else:
            if exactly:
                seen = _seen_by_player(used, dealer)
                action = _exact_after_draw(v, exact, hand[:5], upcard, seen)
            else:
                action = decide(strategy, Point.AFTER_DRAW, hand[:5], upcard)[0]
            folded = action == Action.FOLD
            decisions[Decision.FOLD_AFTER_DRAW if folded else Decision.PLAY_AFTER_DRAW] += 1
    else:
        decisions[Decision.PLAY] += 1
    final = hand[:n]
    value = hand_value_jit(final)
    category = category_jit(value, v.ace_king)
    wager = 1.0 + fees + (0.0 if folded else v.bet)
    if folded:
        return 0.0, fees + 1.0, Outcome.FOLD, category, bonus, wager
    dealer_value = value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
    bought = False
    after = dealer_value
    multiple = 0.0
    if dealer_value < v.qualifier and not np.isnan(v.game_fee):
        if game_mode == GameMode.EXACT:
            discard = dealer_discard_jit(v, dealer)
            multiple = bet_multiple_jit(v, final, value)
            bought = exact_game_gain_jit(v, value, multiple, dealer, discard, used[0], fees) > 0
        elif game_mode == GameMode.RULES:
            bought = decide(strategy, Point.BUY_GAME, final, upcard)[0] == Action.BUY_THE_GAME
        decisions[Decision.GAME_BOUGHT if bought else Decision.GAME_DECLINED] += 1
        if bought:
            if game_mode != GameMode.EXACT:
                discard = dealer_discard_jit(v, dealer)
            dealer[discard] = draw_card_jit(state, used)
            after = value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
    if value > after and multiple == 0.0:
        multiple = bet_multiple_jit(v, final, value)
    won, lost, outcome = settle_jit(v, value, multiple, False, fees, dealer_value, bought, after)
    if bought and not v.game_fee_is_ante:
        wager += v.game_fee
    return won, lost, outcome, category, bonus, wager


@njit(cache=True, parallel=True)
def play_blocks_jit(
    v,
    strategy,
    game_mode,
    exact,
    draw_fees,
    forced,
    key,
    rounds,
    first_block,
    stake,
    floats,
    ints,
    largest,
):
    """Play the rounds of blocks ``first_block ..`` (one row of the outputs each).

    ``stake``: slots ``codes.StakeSlot``, in currency; ante 0 means no stake
    (nothing capped).
    """
    for row in prange(floats.shape[0]):
        start = (first_block + row) * BLOCK
        stop = min(start + BLOCK, rounds)
        state = np.zeros(1, dtype=np.uint64)
        decisions = np.zeros(DECISIONS, dtype=np.int64)
        hand = np.empty(6, dtype=np.int64)
        dealer = np.empty(5, dtype=np.int64)
        used = np.zeros(1, dtype=np.int64)
        out_f = floats[row]
        out_i = ints[row]
        best = -np.inf
        for index in range(start, stop):
            state[0] = round_state_jit(key, index)
            won, lost, outcome, category, bonus, wager = play_round_jit(
                v,
                strategy,
                game_mode,
                exact,
                draw_fees,
                forced,
                state,
                decisions,
                hand,
                dealer,
                used,
            )
            net = won - lost
            out_f[NET] += net
            out_f[NET2] += net * net
            out_f[WAGER] += wager
            out_f[BONUS] += bonus
            out_f[BONUS2] += bonus * bonus
            if stake[Stake.ANTE] > 0:
                capped = capped_net_jit(
                    won,
                    lost,
                    bonus,
                    stake[Stake.ANTE],
                    stake[Stake.BONUS_BET],
                    stake[Stake.MAXIMUM_PAYOUT],
                    stake[Stake.CAP_PER_BET] > 0,
                )
                out_f[CAPPED] += capped
                out_f[CAPPED2] += capped * capped
            cell = outcome * CATEGORIES + category
            out_f[CELL_NET + cell] += net
            out_i[CELL_COUNT + cell] += 1
            if net > 0:
                out_i[HITS] += 1
            best = max(best, net)
            half_antes = round((min(max(net, NET_LOW), NET_HIGH) - NET_LOW) * 2.0)
            out_i[NET_COUNT + int(half_antes)] += 1
        out_i[DECISION_COUNT : DECISION_COUNT + DECISIONS] += decisions
        largest[row] = best


@njit(cache=True)
def add_rows_in_order_jit(total, rows):
    """``total += rows[0]; total += rows[1]; ...``: one fixed order of additions."""
    for row in rows:
        for j in range(total.shape[0]):
            total[j] += row[j]
