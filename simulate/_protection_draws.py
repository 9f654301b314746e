"""numba kernels of the protection figures in games with draws (exchanges of one or two
cards, a sixth card bought then one replaced): the exact EV of every first option when
the player also knows some of the dealer's hidden cards.

The dealer holds the cards the player knows (his upcard, the hole cards seen) and
``m`` more from the cards the player does not see (``unseen``), none of them drawn by
the player. Per situation the values of the dealer's possible hands are tabulated,
sorted: all of them (``base``) and, for every set T of up to ``deepest`` unseen cards,
those holding T (``rows[|T| - 1][rank of T]``). The hands avoiding the drawn cards D are
then counted below a threshold by inclusion-exclusion over the subsets of D.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ._evaluator import BINOMIAL, next_combination_jit, value5_jit, value6_jit
from ._exact import count_below_jit, ev_from_counts_jit, thrown_positions_jit
from ._protection import _dealt
from ._settlement import bet_multiple_jit, settle_jit
from ._situation import (
    _drawn_ev,
    _exact_counts,
    _replace_exact,
    _work,
    comb_jit,
    situation_jit,
)
from ._strategy import _popcount
from .codes import Action, Fee

FOLD_NET = -1.0


@njit(cache=True)
def _rank_of(positions, mask, k):
    """Colex rank of the positions ``positions[b]`` for the bits b of ``mask``."""
    rank, i = 0, 0
    for b in range(k):
        if (mask >> b) & 1:
            i += 1
            rank += BINOMIAL[positions[b], i]
    return rank


@njit(cache=True)
def dealer_tables_jit(known, unseen, deepest):
    """(base, rows): the sorted values of the dealer's hands, ``known`` and ``5 -
    len(known)`` of ``unseen``; ``rows[s - 1][r]``: those holding the s-set of unseen
    positions of colex rank r, for s up to ``deepest``."""
    n, m = unseen.shape[0], 5 - known.shape[0]
    cards = np.empty(5, dtype=np.int64)
    cards[: known.shape[0]] = known
    base = np.empty(comb_jit(n, m), dtype=np.int64)
    rows = []
    cursors = []
    for s in range(1, 5):
        size = (comb_jit(n, s), comb_jit(n - s, m - s)) if s <= min(m, deepest) else (0, 0)
        rows.append(np.empty(size, dtype=np.int64))
        cursors.append(np.zeros(size[0], dtype=np.int64))
    chosen = np.arange(m)
    for index in range(base.shape[0]):
        for j in range(m):
            cards[known.shape[0] + j] = unseen[chosen[j]]
        value = value5_jit(cards[0], cards[1], cards[2], cards[3], cards[4])
        base[index] = value
        for mask in range(1, 1 << m):
            s = _popcount(mask)
            if s > deepest:
                continue
            rank = _rank_of(chosen, mask, m)
            rows[s - 1][rank, cursors[s - 1][rank]] = value
            cursors[s - 1][rank] += 1
        if m:
            next_combination_jit(chosen, n)
    base.sort()
    for s in range(min(m, deepest)):
        for r in range(rows[s].shape[0]):
            rows[s][r].sort()
    return base, (rows[0], rows[1], rows[2], rows[3])


@njit(cache=True)
def counts_avoiding_jit(base, rows, n_unseen, m, drawn, k, thresholds, out):
    """``out[t]``: the dealer's hands (``m`` of the ``n_unseen`` cards unknown) below
    ``thresholds[t]`` holding none of the unseen positions ``drawn[:k]`` (increasing);
    ``out[-1]``: all of them."""
    n = thresholds.shape[0]
    for t in range(n):
        out[t] = count_below_jit(base, thresholds[t])
    for mask in range(1, 1 << k):
        s = _popcount(mask)
        if s > m:
            continue
        row = rows[s - 1][_rank_of(drawn, mask, k)]
        sign = -1 if s & 1 else 1
        for t in range(n):
            out[t] += sign * count_below_jit(row, thresholds[t])
    out[n] = comb_jit(n_unseen - k, m)


@njit(cache=True)
def _value(final):
    """The value of five or six cards (the best five)."""
    if final.shape[0] == 6:
        return value6_jit(final[0], final[1], final[2], final[3], final[4], final[5])
    return value5_jit(final[0], final[1], final[2], final[3], final[4])


@njit(cache=True)
def _play_ev(v, base, rows, n_unseen, m, final, drawn, k, forced, counts):
    """The EV of betting ``final`` (or folding, when worth more and not ``forced``)."""
    value = _value(final)
    thresholds = np.empty(3, dtype=np.int64)
    thresholds[0], thresholds[1], thresholds[2] = v.qualifier, value, value + 1
    counts_avoiding_jit(base, rows, n_unseen, m, drawn, k, thresholds, counts)
    multiple = bet_multiple_jit(v, final, value)
    ev = ev_from_counts_jit(v, value, multiple, counts[0], counts[1], counts[2], counts[3])[0]
    return ev if forced else max(FOLD_NET, ev)


@njit(cache=True)
def _exchange_ev(v, dealer, unseen, hand, keep, forced, sit):
    """The EV of the exchange ``keep`` (fee excluded) with the dealer's known cards
    counted (``dealer``: ``dealer_tables_jit``'s and his unknown cards' count), each
    draw of ``unseen`` bet or folded seeing the cards, or (given ``sit``, the situation
    engine's tables of the hand and upcard alone) as the blind player does."""
    base, rows, m = dealer
    thrown, k = thrown_positions_jit(keep)
    final = hand.copy()
    chosen = np.arange(k)
    counts = np.empty(4, dtype=np.int64)
    n = unseen.shape[0]
    total, draws = 0.0, 0
    while True:
        for j in range(k):
            final[thrown[j]] = unseen[chosen[j]]
        if sit is None:
            total += _play_ev(v, base, rows, n, m, final, chosen, k, forced, counts)
        else:
            blind_unseen = sit[10]
            i = np.searchsorted(blind_unseen, final[thrown[0]])
            j = np.searchsorted(blind_unseen, final[thrown[1]]) if k == 2 else -1
            value = value5_jit(final[0], final[1], final[2], final[3], final[4])
            if forced or _drawn_ev(v, sit, i, j, final, value, False, counts) > FOLD_NET:
                total += _play_ev(v, base, rows, n, m, final, chosen, k, True, counts)
            else:
                total += FOLD_NET
        draws += 1
        if not next_combination_jit(chosen, n):
            break
    return total / draws


@njit(cache=True)
def _blind_play_ev(v, base, rows, n, m, final, drawn, k, sit, i, j, counts):
    """The EV, with the dealer's known cards counted, of betting ``final`` (drawn to
    from ``unseen[drawn[:k]]``) if the blind player would (his unseen[i], unseen[j]),
    else folding."""
    if _drawn_ev(v, sit, i, j, final, _value(final), False, counts) > FOLD_NET:
        return _play_ev(v, base, rows, n, m, final, drawn, k, True, counts)
    return FOLD_NET


@njit(cache=True)
def _replace_ev(v, dealer, unseen, six, s, position, sit):
    """The EV (fee aside) of replacing ``six[position]`` after buying ``unseen[s]``, with
    the dealer's known cards counted; each card drawn bet or folded seeing them or
    (given ``sit``) as the blind player does."""
    base, rows, m = dealer
    n = unseen.shape[0]
    final = six.copy()
    drawn = np.empty(2, dtype=np.int64)
    counts = np.empty(4, dtype=np.int64)
    total = 0.0
    for r in range(n):
        if r == s:
            continue
        final[position] = unseen[r]
        drawn[0], drawn[1] = min(s, r), max(s, r)
        if sit is None:
            total += _play_ev(v, base, rows, n, m, final, drawn, 2, False, counts)
        else:
            blind = np.searchsorted(sit[10], unseen[s]), np.searchsorted(sit[10], unseen[r])
            i, j = min(blind), max(blind)
            total += _blind_play_ev(v, base, rows, n, m, final, drawn, 2, sit, i, j, counts)
    return total / (n - 1)


@njit(cache=True)
def _buy_ev(v, dealer, unseen, hand, fees, sit, after_buy):
    """The EV of buying a sixth card (fees included), with the dealer's known cards
    counted: after each card bought, bet, fold or replace a card (then bet or fold),
    whichever is worth most seeing them; or (given ``sit``) as the blind player does,
    ``after_buy`` his choices per card of ``sit[10]`` (a position replaced, or -1)."""
    base, rows, m = dealer
    n = unseen.shape[0]
    replace_fee = fees[Fee.REPLACE]
    six = np.empty(6, dtype=np.int64)
    six[:5] = hand
    drawn = np.empty(1, dtype=np.int64)
    counts = np.empty(4, dtype=np.int64)
    total = 0.0
    for s in range(n):
        six[5], drawn[0] = unseen[s], s
        if sit is None:
            best = _after_buy_seeing(v, dealer, unseen, six, s, fees)[0]
        else:
            bought = np.searchsorted(sit[10], unseen[s])
            choice = after_buy[bought]
            if choice < 0:
                best = _blind_play_ev(v, base, rows, n, m, six, drawn, 1, sit, bought, -1, counts)
            else:
                best = _replace_ev(v, dealer, unseen, six, s, choice, sit) - replace_fee
        total += best
    return total / n - fees[Fee.BUY]


@njit(cache=True)
def _after_buy_seeing(v, dealer, unseen, six, s, fees):
    """The best choice after buying ``six[5]`` = ``unseen[s]``, seeing the dealer's known
    cards: (its EV, fee aside, the position replaced or -1)."""
    base, rows, m = dealer
    counts = np.empty(4, dtype=np.int64)
    bought = np.full(1, s)
    best = _play_ev(v, base, rows, unseen.shape[0], m, six, bought, 1, False, counts)
    choice = -1
    if not np.isnan(fees[Fee.REPLACE]):
        for position in range(6):
            ev = _replace_ev(v, dealer, unseen, six, s, position, None) - fees[Fee.REPLACE]
            if ev > best:
                best, choice = ev, position
    return best, choice


@njit(cache=True)
def _after_buy(v, sit, s, fees):
    """The blind engine's best choice after buying ``sit[10][s]`` when both players know
    the same cards: (its EV, fee aside, the position replaced or -1)."""
    hand = sit[8]
    six = np.empty(6, dtype=np.int64)
    six[:5], six[5] = hand, sit[10][s]
    counts = np.empty(4, dtype=np.int64)
    best, choice = _drawn_ev(v, sit, s, -1, six, _value(six), False, counts), -1
    if not np.isnan(fees[Fee.REPLACE]):
        for position in range(6):
            ev = _replace_exact(v, sit, s, position) - fees[Fee.REPLACE]
            if ev > best:
                best, choice = ev, position
    return best, choice


@njit(cache=True)
def dealer_of_jit(known, unseen, options):
    """``dealer_tables_jit``'s tables deep enough for every draw of ``options``, and
    the dealer's unknown cards' count: what ``_exchange_ev`` and ``_buy_ev`` take."""
    deepest = 0
    for o in range(options.shape[0]):
        if options[o, 0] == Action.EXCHANGE:
            deepest = max(deepest, thrown_positions_jit(options[o, 1])[1])
        elif options[o, 0] == Action.BUY:
            deepest = max(deepest, 2)
    base, rows = dealer_tables_jit(known, unseen, deepest)
    return base, rows, 5 - known.shape[0]


@njit(cache=True)
def seeing_evs_jit(v, hand, dealer, unseen, options, fees, forced, out):
    """``out[o]``: the exact EV of each first option (fold, play, a buy, an exchange) of
    five cards ``hand`` when the dealer holds the known cards and the rest from
    ``unseen`` (``dealer``: ``dealer_of_jit``'s); after a draw every choice is made
    knowing the dealer's known cards."""
    base, rows, m = dealer
    counts = np.empty(4, dtype=np.int64)
    for o in range(options.shape[0]):
        kind = options[o, 0]
        if kind == Action.FOLD:
            out[o] = FOLD_NET
        elif kind == Action.PLAY:
            out[o] = _play_ev(v, base, rows, unseen.shape[0], m, hand, hand[:0], 0, True, counts)
        elif kind == Action.BUY:
            out[o] = _buy_ev(v, dealer, unseen, hand, fees, None, hand[:0])
        else:
            k = thrown_positions_jit(options[o, 1])[1]
            ev = _exchange_ev(v, dealer, unseen, hand, options[o, 1], forced[k], None)
            out[o] = ev - fees[k]


@njit(cache=True)
def flashed_evs_jit(v, sit, flashed, options, fees, forced, out):
    """``out[o]``: the exact EV of each first option when the player also sees the next
    card of the deck, ``sit[10][flashed]`` (dead for the dealer's hand, the first card a
    draw takes); ``sit``: the situation engine's tables of the hand and upcard.
    After the draw he knows what the blind player knows: the engine's decisions."""
    hand, unseen = sit[8], sit[10]
    counts = np.empty(4, dtype=np.int64)
    final = hand.copy()
    for o in range(options.shape[0]):
        kind = options[o, 0]
        if kind == Action.FOLD:
            out[o] = FOLD_NET
            continue
        if kind == Action.PLAY:
            value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
            _exact_counts(v, sit, flashed, -1, value, counts)
            multiple = bet_multiple_jit(v, hand, value)
            out[o] = ev_from_counts_jit(
                v, value, multiple, counts[0], counts[1], counts[2], counts[3]
            )[0]
            continue
        if kind == Action.BUY:
            out[o] = _after_buy(v, sit, flashed, fees)[0] - fees[Fee.BUY]
            continue
        thrown, k = thrown_positions_jit(options[o, 1])
        final[:] = hand
        final[thrown[0]] = unseen[flashed]
        total, draws = 0.0, 0
        for j in range(unseen.shape[0]) if k == 2 else range(-1, 0):
            if j == flashed:
                continue
            if k == 2:
                final[thrown[1]] = unseen[j]
            value = value5_jit(final[0], final[1], final[2], final[3], final[4])
            total += _drawn_ev(v, sit, flashed, j, final, value, forced[k], counts)
            draws += 1
        out[o] = total / draws - fees[k]


@njit(cache=True)
def _situation(hand, known, others):
    """The five cards sorted, and the cards the player does not see, increasing."""
    seen = np.zeros(52, dtype=np.bool_)
    for card in hand:
        seen[card] = True
    for card in known:
        seen[card] = True
    for card in others:
        seen[card] = True
    return np.sort(hand), np.flatnonzero(~seen)


@njit(cache=True, parallel=True)
def sampled_gains_jit(v, tables, lists, key, start, holes, hands_seen, options, fees, forced, out):
    """For situations ``start ..`` (one per row of ``out``, dealt from the seed ``key`` and
    its index: the player's five cards, the upcard, ``holes`` hole cards, then
    ``hands_seen`` other players' hands of five, dead for the dealer's): what seeing
    those cards adds to optimal play (``out[i, 0]``, at least 0: the best option seeing
    them less the blind player's choices, each draw bet or folded blind, weighed with
    them), and the blind player's EV with them (``out[i, 1]``) and without
    (``out[i, 2]``): over the cards seen these two agree."""
    n_grid = tables[4].shape[0]
    for i in prange(out.shape[0]):
        cards = _dealt(key, start + i, 6 + holes + 5 * hands_seen)
        known = cards[5 : 6 + holes]
        hand, unseen = _situation(cards[:5], known, cards[6 + holes :])
        work = _work(options.shape[0], n_grid)
        blind_evs = np.empty(options.shape[0])
        o = situation_jit(
            v, tables, lists, hand, known[0], options, fees, forced, True, blind_evs, work
        )
        evs = np.empty(options.shape[0])
        dealer = dealer_of_jit(known, unseen, options)
        seeing_evs_jit(v, hand, dealer, unseen, options, fees, forced, evs)
        kind, keep = options[o, 0], options[o, 1]
        sit = (*work[1:7], tables, lists, hand, known[0], work[0])
        if kind == Action.EXCHANGE:
            k = thrown_positions_jit(keep)[1]
            blind = _exchange_ev(v, dealer, unseen, hand, keep, forced[k], sit) - fees[k]
        elif kind == Action.BUY:
            blind = _buy_ev(v, dealer, unseen, hand, fees, sit, work[9])
        else:
            blind = evs[o]
        out[i, 0], out[i, 1], out[i, 2] = evs.max() - blind, blind, blind_evs[o]


@njit(cache=True, parallel=True)
def flashed_gains_jit(v, tables, lists, key, start, options, fees, forced, out):
    """``sampled_gains_jit`` for the next card of the deck seen (the seventh card dealt):
    the blind player's choice weighed with it is that option's EV seeing it, since
    after the draw both know the same cards."""
    n_grid = tables[4].shape[0]
    for i in prange(out.shape[0]):
        cards = _dealt(key, start + i, 7)
        hand = np.sort(cards[:5])
        work = _work(options.shape[0], n_grid)
        blind_evs = np.empty(options.shape[0])
        o = situation_jit(
            v, tables, lists, hand, cards[5], options, fees, forced, True, blind_evs, work
        )
        sit = (*work[1:7], tables, lists, hand, cards[5], work[0])
        evs = np.empty(options.shape[0])
        flashed_evs_jit(v, sit, np.searchsorted(work[0], cards[6]), options, fees, forced, evs)
        out[i, 0], out[i, 1], out[i, 2] = evs.max() - evs[o], evs[o], blind_evs[o]


@njit(cache=True)
def _bought_seeing(v, dealer, unseen, hand, drawn, fees):
    """A sixth card bought in a played round (``drawn``: the next two cards of the deck),
    then the best choice seeing the dealer's known cards: (the final cards, the fees,
    whether he folds)."""
    base, rows, m = dealer
    n = unseen.shape[0]
    six = np.empty(6, dtype=np.int64)
    six[:5], six[5] = hand, drawn[0]
    bought = np.searchsorted(unseen, drawn[0])
    best, choice = _after_buy_seeing(v, dealer, unseen, six, bought, fees)
    if choice < 0:
        return six, fees[Fee.BUY], best <= FOLD_NET
    six[choice] = drawn[1]
    other = np.searchsorted(unseen, drawn[1])
    pair = np.array([min(bought, other), max(bought, other)])
    ev = _play_ev(v, base, rows, n, m, six, pair, 2, False, np.empty(4, dtype=np.int64))
    return six, fees[Fee.BUY] + fees[Fee.REPLACE], ev <= FOLD_NET


@njit(cache=True)
def _bought_blind(v, sit, drawn, fees):
    """``_bought_seeing`` for a player who knows what the blind player knows after the
    buy (he saw the next card of the deck): the engine's choices."""
    six = np.empty(6, dtype=np.int64)
    six[:5], six[5] = sit[8], drawn[0]
    bought = np.searchsorted(sit[10], drawn[0])
    best, choice = _after_buy(v, sit, bought, fees)
    if choice < 0:
        return six, fees[Fee.BUY], best <= FOLD_NET
    six[choice] = drawn[1]
    other = np.searchsorted(sit[10], drawn[1])
    counts = np.empty(4, dtype=np.int64)
    i, j = min(bought, other), max(bought, other)
    ev = _drawn_ev(v, sit, i, j, six, _value(six), False, counts)
    return six, fees[Fee.BUY] + fees[Fee.REPLACE], ev <= FOLD_NET


@njit(cache=True, parallel=True)
def played_rounds_jit(v, tables, lists, key, start, seen, options, fees, forced, out):
    """Rounds ``start ..`` (one per entry of ``out``): the player sees his hand, the upcard
    and, ``seen`` = (known_count, flash), that many of the dealer's hidden cards or the
    next card of the deck, takes the best first option, draws the next cards of the
    deck, bets or folds by their exact EV, and is settled against the dealer's whole
    hand; ``out``: each round's net, in antes, fees included."""
    known_count, flash = seen
    n_grid = tables[4].shape[0]
    for i in prange(out.shape[0]):
        cards = _dealt(key, start + i, 15)
        dealer = cards[5:10]
        known = dealer[: 1 + known_count]
        hand, unseen = _situation(cards[:5], known, cards[:0])
        evs = np.empty(options.shape[0])
        work = _work(options.shape[0], n_grid)
        sit = (*work[1:7], tables, lists, hand, known[0], work[0])
        if flash:
            situation_jit(v, tables, lists, hand, known[0], options, fees, forced, True, evs, work)
            flashed_evs_jit(
                v, sit, np.searchsorted(work[0], cards[10]), options, fees, forced, evs
            )
        else:
            holding = dealer_of_jit(known, unseen, options)
            seeing_evs_jit(v, hand, holding, unseen, options, fees, forced, evs)
        o = np.argmax(evs)
        kind = options[o, 0]
        dealt = value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
        final, fee, folded = hand.copy(), 0.0, kind == Action.FOLD
        if kind == Action.BUY:
            if flash:
                final, fee, folded = _bought_blind(v, sit, cards[10:12], fees)
            else:
                final, fee, folded = _bought_seeing(v, holding, unseen, hand, cards[10:12], fees)
        elif kind == Action.EXCHANGE:
            thrown, k = thrown_positions_jit(options[o, 1])
            fee = fees[k]
            for j in range(k):
                final[thrown[j]] = cards[10 + j]
            counts = np.empty(4, dtype=np.int64)
            if flash:  # the engine's decision: what the blind player knows after the draw
                value = value5_jit(final[0], final[1], final[2], final[3], final[4])
                blind = np.searchsorted(work[0], cards[10 : 10 + k])
                j = blind[1] if k == 2 else -1
                ev = _drawn_ev(v, sit, blind[0], j, final, value, forced[k], counts)
            else:
                base, rows, m = holding
                drawn = np.sort(np.searchsorted(unseen, cards[10 : 10 + k]))
                n = unseen.shape[0]
                ev = _play_ev(v, base, rows, n, m, final, drawn, k, forced[k], counts)
            folded = ev <= FOLD_NET and not forced[k]
        value = _value(final)
        multiple = bet_multiple_jit(v, final, value)
        won, lost, _ = settle_jit(v, value, multiple, folded, fee, dealt, False, 0)
        out[i] = won - lost
