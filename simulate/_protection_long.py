"""numba kernels of the protection figures in games exchanging up to five cards: a
situation's gain of seeing some of the dealer's hidden cards, other players' hands, or
the next card of the deck.

The seeing player's EVs are ``_protection_draws.seeing_evs_jit``'s (the dealer's
hands counted by inclusion-exclusion over the drawn cards). The blind player's first
option and his choices after the draw are exact (each draw's EV by ``_exact``'s
kernel, as the sampled optimum weighs it) and do not depend on what is seen, so they
are computed once per situation (his choices after the draw as a table by the cards
drawn) and weighed with every set of cards seen: over the cards seen his EV is his
EV without them.

The next card of the deck seen is the first card any draw takes and is dead for the
dealer's hand; after the draw the player knows what the blind player knows. So each
option's EV given that card is the mean of the blind EVs of the draws holding it,
summed while the blind options are computed: every next card is weighed exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._engine import draw_card_jit, round_state_jit
from ._evaluator import BINOMIAL, next_combination_jit, set_rank_jit
from ._exact import _drawn_ev as blind_drawn_ev_jit
from ._exact import situation_tables_serial_jit, thrown_positions_jit, unseen_jit
from ._protection import _dealt
from ._protection_draws import FOLD_NET, _play_ev, _situation, dealer_of_jit, seeing_evs_jit
from .codes import Action, Fee

SET_CARDS = 4 + 5 * 4
"""The cards of a set seen: four hole cards, then four other hands."""


@njit(cache=True)
def _draw_slots(hand, keep):
    """(the final cards, the positions a draw fills, how many): the cards outside the
    mask ``keep`` exchanged, or (``keep`` -1) a sixth card bought."""
    if keep < 0:
        six = np.empty(6, dtype=np.int64)
        six[:5], six[5] = hand, -1
        return six, np.full(5, 5, dtype=np.int64), 1
    thrown, k = thrown_positions_jit(keep)
    return hand.copy(), thrown, k


@njit(cache=True)
def option_card_evs_jit(
    v, tables, lists, hand, upcard, unseen, kind, keep, fees, forced, out, bets
):
    """``out[c]``: the EV of the first option (kind, keep), fees included, when the next
    card of the deck is ``unseen[c]`` (the first card its draw takes, dead for the
    dealer's hand); after a draw (an exchange, a sixth card bought) the blind player's
    bet or fold, written to ``bets`` by the draw's colex rank. Over the next card the
    EV is the option's EV (``_decisions.option_ev_jit``'s). No card replaced after a buy."""
    n = unseen.shape[0]
    scratch = np.empty((4, 5), dtype=np.int64)
    if kind == Action.FOLD:
        out[:] = FOLD_NET
        return
    if kind == Action.PLAY:
        flashed = np.empty(1, dtype=np.int64)
        for c in range(n):
            flashed[0] = c
            out[c] = blind_drawn_ev_jit(v, tables, lists, hand, upcard, unseen, flashed, 1, True,
                                        scratch)  # fmt: skip
        return
    if kind == Action.BUY:
        keep, fee, must_bet = -1, fees[Fee.BUY], False
    else:
        k = thrown_positions_jit(keep)[1]
        fee, must_bet = fees[k], forced[k]
    final, slots, k = _draw_slots(hand, keep)
    sums = np.zeros(n)
    chosen = np.arange(k)
    while True:
        for j in range(k):
            final[slots[j]] = unseen[chosen[j]]
        ev = blind_drawn_ev_jit(v, tables, lists, final, upcard, unseen, chosen, k, must_bet,
                                scratch)  # fmt: skip
        bets[set_rank_jit(chosen, k)] = must_bet or ev > FOLD_NET
        for j in range(k):
            sums[chosen[j]] += ev
        if not next_combination_jit(chosen, n):
            break
    out[:] = sums / BINOMIAL[n - 1, k - 1] - fee


@njit(cache=True)
def weighed_draw_ev_jit(v, dealer, unseen, hand, keep, bets, where):
    """The EV (fees aside), the dealer's known cards counted (``dealer``: ``dealer_of_jit``'s),
    of the draw ``keep`` (as ``option_card_evs_jit``) from ``unseen``, each draw bet or folded
    as ``bets`` says (``where``: each card's position among the blind player's unseen)."""
    base, rows, m = dealer
    final, slots, k = _draw_slots(hand, keep)
    chosen = np.arange(k)
    picks = np.empty(k, dtype=np.int64)
    counts = np.empty(4, dtype=np.int64)
    n = unseen.shape[0]
    total, draws = 0.0, 0
    while True:
        for j in range(k):
            final[slots[j]] = unseen[chosen[j]]
            picks[j] = where[chosen[j]]
        if bets[set_rank_jit(picks, k)]:
            total += _play_ev(v, base, rows, n, m, final, chosen, k, True, counts)
        else:
            total += FOLD_NET
        draws += 1
        if not next_combination_jit(chosen, n):
            return total / draws


@njit(cache=True)
def _dealt_after(key, index, dealt, count):
    """``count`` cards from the stream of ``key`` and ``index``, avoiding ``dealt``."""
    state = np.zeros(1, dtype=np.uint64)
    used = np.zeros(1, dtype=np.int64)
    state[0] = round_state_jit(key, index)
    for card in dealt:
        used[0] |= np.int64(1) << card
    cards = np.empty(count, dtype=np.int64)
    for j in range(count):
        cards[j] = draw_card_jit(state, used)
    return cards


@njit(cache=True)
def situation_gains_jit(v, lists, pairs, cards, seen_sets, rows, options, fees, forced, out):
    """For the situation ``cards`` (five, then the upcard) and each set of cards seen
    (``seen_sets[r]``: four hole cards, then other hands of five) as each row of
    ``rows`` (hole cards seen, other hands seen) takes from it: what seeing them adds
    to optimal play (``out[r, q, 0]``: the best option seeing them less the blind
    player's choices weighed with them) and the blind player's EV weighed with them
    (``out[r, q, 1]``). Returns (the blind player's EV, the gain of seeing the next card
    of the deck, its mean over every card). No card replaced after a buy."""
    hand, upcard = np.sort(cards[:5].astype(np.int64)), np.int64(cards[5])
    blind_unseen = unseen_jit(hand, upcard)
    n = blind_unseen.shape[0]
    tables = situation_tables_serial_jit(lists, upcard, hand, blind_unseen, pairs)
    card_evs = np.empty((options.shape[0], n))
    bets = np.empty(BINOMIAL[n, 5], dtype=np.bool_)
    spare = np.empty_like(bets)
    best, o = -np.inf, 0
    for j in range(options.shape[0]):
        kind, keep = options[j, 0], options[j, 1]
        option_card_evs_jit(v, tables, lists, hand, upcard, blind_unseen, kind, keep, fees, forced,
                            card_evs[j], spare)  # fmt: skip
        ev = card_evs[j].mean()
        if ev > best:  # the first of the highest EV, its draws' bets kept
            best, o = ev, j
            spare, bets = bets, spare
    flashed = 0.0
    for c in range(n):
        flashed += card_evs[:, c].max() - card_evs[o, c]
    kind, keep, fee = options[o, 0], options[o, 1], 0.0
    if kind == Action.EXCHANGE:
        fee = fees[thrown_positions_jit(keep)[1]]
    elif kind == Action.BUY:
        keep, fee = -1, fees[Fee.BUY]
    evs = np.empty(options.shape[0])
    known = np.empty(5, dtype=np.int64)
    known[0] = upcard
    for r in range(seen_sets.shape[0]):
        for q in range(rows.shape[0]):
            holes, hands_seen = rows[q, 0], rows[q, 1]
            known[1 : 1 + holes] = seen_sets[r, :holes]
            others = seen_sets[r, holes : holes + 5 * hands_seen]
            unseen = _situation(hand, known[: 1 + holes], others)[1]
            dealer = dealer_of_jit(known[: 1 + holes], unseen, options)
            seeing_evs_jit(v, hand, dealer, unseen, options, fees, forced, evs)
            if kind == Action.EXCHANGE or kind == Action.BUY:
                where = np.searchsorted(blind_unseen, unseen)
                weighed = weighed_draw_ev_jit(v, dealer, unseen, hand, keep, bets, where) - fee
            else:
                weighed = evs[o]
            out[r, q, 0], out[r, q, 1] = evs.max() - weighed, weighed
    return best, flashed / n


@njit(cache=True, parallel=True)
def sampled_gains_jit(v, lists, pairs, keys, start, rows, options, fees, forced, out, blind,
                      flashed):  # fmt: skip
    """``situation_gains_jit`` for situations ``start ..`` (one per ``out[i]``, its sets
    seen ``out.shape[1]``): situation i dealt from ``keys[0]`` and its index as
    ``_protection_draws.sampled_gains_jit`` deals it (the player's five cards, the
    upcard), its set r from ``keys[1]`` and index ``i * sets + r``; ``blind[i]``: the
    blind player's EV, ``flashed[i]``: the gain of seeing the next card of the deck."""
    sets = out.shape[1]
    for i in prange(out.shape[0]):
        cards = _dealt(keys[0], start + i, 6)
        seen_sets = np.empty((sets, SET_CARDS), dtype=np.int64)
        for r in range(sets):
            seen_sets[r] = _dealt_after(keys[1], (start + i) * sets + r, cards, SET_CARDS)
        blind[i], flashed[i] = situation_gains_jit(
            v, lists, pairs, cards, seen_sets, rows, options, fees, forced, out[i]
        )
