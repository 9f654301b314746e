"""numba kernels that play rounds and add up their results.

Randomness is counter-based: round ``i`` draws its cards from a SplitMix64
stream started at ``mix(key, i)``, so a round's cards depend only on the
seed and its index, never on threads or chunks. Rounds are grouped in
blocks of ``BLOCK`` rounds; a block's sums are added in one fixed order,
and blocks are added in block order, so every total is the same bit for
bit however the blocks are shared out.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit, prange, uint64

from ._decisions import after_buy_choice_jit, after_draw_choice_jit, cards_in_jit
from ._evaluator import (
    FLUSH,
    OFFSETS5,
    RANKS5,
    SHIFT5,
    WEIGHT5,
    category_jit,
    hand_value_jit,
    value5_jit,
)
from ._exact import thrown_count_jit
from ._exact_play import (
    best_option_seeing_jit,
    lists_of_jit,
    memo_choice_jit,
    situation_key_jit,
    situation_tables_of_jit,
    table_after_buy_jit,
    table_bet_jit,
)
from ._settlement import (
    bet_multiple_jit,
    capped_net_jit,
    dealer_discard_jit,
    settle_jit,
)
from ._situation import after_buy_jit, play_after_draw_jit
from ._strategy import UNDECIDED, decide, first_action_jit
from .codes import CATEGORIES, DECISIONS, OUTCOMES, Action, Decision, Fee, GameMode, Outcome, Point
from .codes import StakeSlot as Stake

BLOCK = 4096
GAME_FORESEEN = len(GameMode)
"""A game mode beyond ``GameMode``'s (game protection, not a strategy's choice): the
game bought exactly, the card the dealer's exchange brings seen before deciding."""
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


class Whole(IntEnum):
    """Sums of a block of the round as a whole (floats): its net (the boxes' nets times
    their antes), its capped net in currency, how many rounds won."""

    NET = 0
    NET2 = 1
    CAPPED = 2
    CAPPED2 = 3
    HITS = 4


WHOLE = len(Whole)


# a box's result in a round (float slots, in antes): its net is WON - LOST; BONUS_NET in
# bonus bets; MULTIPLE: what its BET pays on a win (0: not yet known)
WON, LOST, BONUS_NET, WAGERED, FEES, MULTIPLE = range(6)
BOX_FLOATS = 6
# (integer slots): CARDS in the final hand (5 or 6); BOUGHT the dealer's game; VALUE of the
# final hand
OUTCOME, CATEGORY, CARDS, FOLDED, BOUGHT, VALUE = range(6)
BOX_INTS = 6

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
def game_gains_jit(v, value, multiple, dealer, discard, used):
    """(expected gain, in antes, of buying the dealer a game over declining it; the same
    when the player sees the new card before deciding: each new card's gain where
    positive, he buys, else 0), for a final hand of ``value`` whose BET pays
    ``multiple`` (the fees paid before are the same either way).

    The player sees the dealer's hand and the card he discards; the new card is any
    card the player has not seen (not in ``used``). The dealer's value after it
    depends on the new card's rank alone (``value5_jit``'s rank sums), but for a card
    making a flush of his four kept cards, so each rank is weighed once, and each way
    the game can end (no qualifier, win, push, loss) is settled once."""
    key, suit, ranks = 0, dealer[(discard + 1) % 5] & 3, 0
    for i in range(5):
        if i != discard:
            key += WEIGHT5[dealer[i]]
            ranks |= 1 << (dealer[i] >> 2)
            if dealer[i] & 3 != suit:
                suit = -1
    ways = (0, 0, 0, 0)  # new cards ending it each way: no qualifier, win, push, loss
    for rank in range(13):
        cards = (~used >> (4 * rank)) & 15  # of this rank, not seen
        if suit >= 0 and (cards >> suit) & 1:
            cards &= ~(1 << suit)
            ways = _tally(v, value, FLUSH[ranks | (1 << rank)], 1, ways)
        if cards:
            k = key + WEIGHT5[4 * rank]
            ways = _tally(v, value, RANKS5[k + OFFSETS5[k >> SHIFT5]], _BITS[cards], ways)
    against = (np.int64(0), np.int64(v.qualifier), np.int64(value), np.int64(7462))
    total, foreseen, declined = 0.0, 0.0, v.ante_pays_no_qualify
    for k in range(4):
        if ways[k]:  # each way settled once, against a dealer ending it so
            net = _bought_net(v, value, multiple, against[k])
            total += ways[k] * net
            if net > declined:
                foreseen += ways[k] * (net - declined)
    n = ways[0] + ways[1] + ways[2] + ways[3]
    return total / n - declined, foreseen / n


@njit(cache=True)
def exact_game_gain_jit(v, value, multiple, dealer, discard, used):
    """The expected gain of buying the dealer a game, the new card unknown
    (``game_gains_jit``)."""
    return game_gains_jit(v, value, multiple, dealer, discard, used)[0]


_BITS = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)


@njit(cache=True, inline="always")
def _tally(v, value, after, count, ways):
    """``ways`` (see ``exact_game_gain_jit``) with ``count`` more new cards after which
    the dealer's value is ``after``."""
    none, win, push, loss = ways
    if after < v.qualifier:
        return none + count, win, push, loss
    if value > after:
        return none, win + count, push, loss
    if value == after:
        return none, win, push + count, loss
    return none, win, push, loss + count


@njit(cache=True, inline="always")
def _bought_net(v, value, multiple, after):
    """The player's net, in antes and fees aside, of a bought game against a dealer of
    value ``after``."""
    won, lost, _ = settle_jit(v, value, multiple, False, 0.0, 0, True, after)
    return won - lost


@njit(cache=True, inline="always")
def deal_jit(state, used, hands, dealer):
    """Deal five cards to each box (the rows of ``hands``, in order), then the dealer's
    five into ``dealer`` (his upcard last)."""
    used[0] = 0
    for box in range(hands.shape[0]):
        for i in range(5):
            hands[box, i] = draw_card_jit(state, used)
    for i in range(5):
        dealer[i] = draw_card_jit(state, used)


@njit(cache=True, inline="always")
def cards_mask_jit(cards):
    """The cards as a 52-bit mask."""
    mask = np.int64(0)
    for card in cards:
        mask |= np.int64(1) << card
    return mask


@njit(cache=True)
def _exact_after_draw(v, exact, final, upcard, seen):
    """PLAY or FOLD, exactly, every card seen dead: through the situation kernels' tables
    where the strategy has them."""
    if exact.grid.shape[0]:
        tables = situation_tables_of_jit(exact)
        return play_after_draw_jit(v, tables, lists_of_jit(exact), final, upcard, seen)
    return after_draw_choice_jit(v, lists_of_jit(exact), final, upcard, seen)


@njit(cache=True)
def _exact_after_buy(v, exact, six, upcard, replace_fee, seen):
    """(action, cards kept) after a buy, exactly, every card of ``seen`` dead: where only
    the six are seen, from the table of choices after a buy, else through the situation
    kernels' tables where the strategy has them."""
    if seen == cards_mask_jit(six):
        if exact.buy_keys.shape[0]:
            action, kept = table_after_buy_jit(exact, six, upcard)
            if action >= 0:
                return action, kept
        if exact.grid.shape[0]:
            tables = situation_tables_of_jit(exact)
            return after_buy_jit(v, tables, lists_of_jit(exact), six, upcard, replace_fee)
    dead = np.empty(52, dtype=np.int64)
    n = cards_in_jit(seen, dead)
    return after_buy_choice_jit(v, lists_of_jit(exact), six, upcard, dead[:n], replace_fee)


@njit(cache=True)
def situation_keys_jit(key, start, stop, boxes, open_boxes, class_of, perm_of, perms):
    """The situation key (see ``_exact_play``) of each open box of each round of
    ``start .. stop`` (rounds of ``boxes`` boxes)."""
    keys = np.empty((stop - start) * open_boxes, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    used = np.zeros(1, dtype=np.int64)
    hands = np.empty((boxes, 6), dtype=np.int64)
    dealer = np.empty(5, dtype=np.int64)
    for index in range(start, stop):
        state[0] = round_state_jit(key, index)
        deal_jit(state, used, hands, dealer)
        for box in range(open_boxes):
            keys[(index - start) * open_boxes + box] = situation_key_jit(
                class_of, perm_of, perms, hands[box, :5], dealer[4]
            )[0]
    return keys


@njit(cache=True, inline="always")
def _first_decision(v, strategy, exact, options, draw_fees, forced, hand, value, upcard, seen):
    """(action, cards kept) on the five dealt cards, of ``value`` (see ``play_box_jit``)."""
    if options is not None:
        if seen != cards_mask_jit(hand):  # other boxes' cards seen
            return best_option_seeing_jit(v, options, hand, upcard, seen, draw_fees, forced)
        return memo_choice_jit(options, hand, upcard)
    if exact.plays.shape[0]:
        return (Action.PLAY if table_bet_jit(exact, hand, upcard) else Action.FOLD), 0
    if exact.first_actions.shape[0]:  # a rule strategy's decision by value and upcard
        action = first_action_jit(exact.first_actions, value, upcard)
        if action != UNDECIDED:
            return action, 0
    return decide(strategy, Point.FIRST, hand, upcard, seen)


@njit(cache=True, inline="always")
def _play_or_fold(v, strategy, options, cards, upcard, seen):
    """PLAY or FOLD on the final ``cards`` (see ``play_box_jit``)."""
    if options is not None:
        return _exact_after_draw(v, options, cards, upcard, seen)
    return decide(strategy, Point.AFTER_DRAW, cards, upcard, seen)[0]


@njit(cache=True, inline="always")
def play_box_jit(
    v, strategy, exact, options, draw_fees, forced, state, used, seen, decisions, hand, value,
    upcard, ante, money,
):  # fmt: skip
    """Decide an open box and draw its cards: returns (cards in the final hand, fees, folded).

    ``options``: ExactDecisions with first options, or None (then the exact decisions are
    not compiled); with them, every decision is exact with the cards of ``seen[0]``
    dead (the box's own, and those of earlier boxes where shared; its draws are added),
    the first one from the situation's memo where only the box's own cards are seen.
    Else the first decision is ``exact``'s fold-or-bet table's, or its rule strategy's by
    value and upcard, and otherwise ``strategy``'s (a rule array or a numba-compiled
    function: ``_strategy.decide``), as is every later one. ``draw_fees``: slots
    ``codes.Fee`` (NaN: not offered); ``forced``: exchanging i cards forces the BET;
    ``decisions`` counts the decisions taken; ``hand`` holds six cards, the dealt five
    first, whose value is ``value``. The bankroll rule: ``money[0]`` is what the player
    can still pay, in currency (the box's ante is ``ante``); a buy or exchange after
    which he could not pay the box's BET is refused (he plays or folds the cards he
    has), a BET he cannot pay is a fold; what the box pays is taken off it.
    """
    action, kept = _first_decision(
        v, strategy, exact, options, draw_fees, forced, hand[:5], value, upcard, seen[0]
    )
    bet = v.bet * ante
    if action == Action.BUY or action == Action.EXCHANGE:
        fee = draw_fees[Fee.BUY] if action == Action.BUY else draw_fees[thrown_count_jit(kept)]
        if money[0] - fee * ante < bet:
            decisions[Decision.REFUSED] += 1
            action = _play_or_fold(v, strategy, options, hand[:5], upcard, seen[0])
    dealt = used[0]
    cards, fees, folded = 5, 0.0, False
    if action == Action.FOLD:
        decisions[Decision.FOLD] += 1
        folded = True
    elif action == Action.BUY:
        decisions[Decision.BUY] += 1
        fees, cards = draw_fees[Fee.BUY], 6
        hand[5] = draw_card_jit(state, used)
        seen[0] |= used[0] & ~dealt
        if options is not None:
            action, kept = _exact_after_buy(
                v, options, hand, upcard, draw_fees[Fee.REPLACE], seen[0]
            )
        else:
            action, kept = decide(strategy, Point.AFTER_BUY, hand, upcard, seen[0])
        if action == Action.REPLACE and money[0] - (fees + draw_fees[Fee.REPLACE]) * ante < bet:
            decisions[Decision.REFUSED] += 1
            action = _play_or_fold(v, strategy, options, hand, upcard, seen[0])
        if action == Action.REPLACE:
            decisions[Decision.REPLACE] += 1
            fees += draw_fees[Fee.REPLACE]
            _exchange(hand, 6, kept, state, used)
            seen[0] |= used[0] & ~dealt
            action = _play_or_fold(v, strategy, options, hand, upcard, seen[0])
        folded = action == Action.FOLD
        decisions[Decision.FOLD_AFTER_DRAW if folded else Decision.PLAY_AFTER_DRAW] += 1
    elif action == Action.EXCHANGE:
        thrown = _exchange(hand, 5, kept, state, used)
        seen[0] |= used[0] & ~dealt
        decisions[Decision.EXCHANGE_1 + thrown - 1] += 1
        fees = draw_fees[thrown]  # slot k: exchanging k cards
        if forced[thrown]:
            decisions[Decision.FORCED_PLAY] += 1
        else:
            folded = _play_or_fold(v, strategy, options, hand[:5], upcard, seen[0]) == Action.FOLD
            decisions[Decision.FOLD_AFTER_DRAW if folded else Decision.PLAY_AFTER_DRAW] += 1
    else:
        decisions[Decision.PLAY] += 1
    money[0] -= fees * ante
    if not folded and money[0] < bet:
        decisions[Decision.BET_UNPAID] += 1
        folded = True
    if not folded:
        money[0] -= bet
    return cards, fees, folded


@njit(cache=True, inline="always")
def _buy_games(
    v, strategy, game_mode, share_seen, state, hands, dealer, used, known, decisions, box_f,
    box_i, antes, money,
):  # fmt: skip
    """Each box still in play decides whether to buy the non-qualifying dealer a game
    (``box_i[b, BOUGHT]``; refused when ``money[0]`` cannot pay its fee); one exchange
    serves every box that bought it (under ``GAME_FORESEEN`` the player sees the
    card it brings before deciding). Returns the dealer's value after it (as dealt when
    no box bought)."""
    discard = dealer_discard_jit(v, dealer)
    dealer_mask = cards_mask_jit(dealer)
    new_card, foreseen = -1, 0
    if game_mode == GAME_FORESEEN:  # the card the exchange brings, seen before deciding
        new_card = draw_card_jit(state, used)
        kept, dealer[discard] = dealer[discard], new_card
        foreseen = value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
        dealer[discard] = kept
    bought_any = False
    for box in range(hands.shape[0]):
        if box_i[box, FOLDED]:
            continue
        final = hands[box, : box_i[box, CARDS]]
        dead = used[0] if share_seen else known[box] | dealer_mask  # every card seen
        bought = False
        if game_mode == GameMode.EXACT:
            multiple = bet_multiple_jit(v, final, box_i[box, VALUE])
            box_f[box, MULTIPLE] = multiple
            gain = exact_game_gain_jit(v, box_i[box, VALUE], multiple, dealer, discard, dead)
            bought = gain > 0
        elif game_mode == GAME_FORESEEN:
            multiple = bet_multiple_jit(v, final, box_i[box, VALUE])
            box_f[box, MULTIPLE] = multiple
            net = _bought_net(v, box_i[box, VALUE], multiple, foreseen)
            bought = net > v.ante_pays_no_qualify
        elif game_mode == GameMode.RULES:
            bought = (
                decide(strategy, Point.BUY_GAME, final, dealer[4], dead)[0] == Action.BUY_THE_GAME
            )
        if bought and not v.game_fee_is_ante:
            if money[0] < v.game_fee * antes[box]:
                decisions[box, Decision.REFUSED] += 1
                bought = False
            else:
                money[0] -= v.game_fee * antes[box]
        decisions[box, Decision.GAME_BOUGHT if bought else Decision.GAME_DECLINED] += 1
        box_i[box, BOUGHT] = bought
        bought_any |= bought
    if bought_any:
        dealer[discard] = new_card if new_card >= 0 else draw_card_jit(state, used)
    return value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])


@njit(cache=True, inline="always")
def play_round_jit(
    v,
    strategy,
    game_mode,
    exact,
    options,
    draw_fees,
    forced,
    open_boxes,
    share_seen,
    state,
    decisions,
    hands,
    dealer,
    used,
    known,
    box_f,
    box_i,
    antes,
    money,
):
    """Play one round: every box of ``hands`` (rows of six cards) against one dealer.

    The first ``open_boxes`` boxes are decided in order (``play_box_jit``), each
    seeing the cards of the boxes before it when ``share_seen``; the rest are blind
    (ante and BET placed, no decision). Then each box still in play may buy the
    non-qualifying dealer a game (``_buy_games``), and every box is settled. Box
    ``b``'s results go to ``box_f[b]`` (slots WON ..) and ``box_i[b]``
    (OUTCOME ..); ``decisions[b]`` counts its decisions; ``known[b]`` is the mask of
    the cards it decided with.
    """
    boxes = hands.shape[0]
    deal_jit(state, used, hands, dealer)
    upcard = dealer[4]
    shared = np.int64(0)
    playing = False
    for box in range(boxes):
        hand = hands[box]
        own = cards_mask_jit(hand[:5])
        dealt_value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        bonus = v.bonus_pays[category_jit(dealt_value, v.ace_king)] if v.has_bonus else 0.0
        box_f[box, BONUS_NET] = bonus  # as settlement's bonus_multiple_jit, from the value
        known[box] = (shared | own) if share_seen else own
        if box < open_boxes:
            cards, fees, folded = play_box_jit(
                v, strategy, exact, options, draw_fees, forced, state, used, known[box:],
                decisions[box], hand, dealt_value, upcard, antes[box], money,
            )  # fmt: skip
        else:
            cards, fees, folded = 5, 0.0, False
            decisions[box, Decision.BLIND_PLAY] += 1
        shared |= known[box]
        unchanged = cards == 5 and cards_mask_jit(hand[:5]) == own  # no card drawn
        value = dealt_value if unchanged else hand_value_jit(hand[:cards])
        box_i[box, CARDS], box_i[box, FOLDED], box_i[box, BOUGHT] = cards, folded, False
        box_i[box, VALUE] = value
        box_i[box, CATEGORY] = category_jit(value, v.ace_king)
        box_f[box, FEES], box_f[box, MULTIPLE] = fees, 0.0
        box_f[box, WAGERED] = 1.0 + fees + (0.0 if folded else v.bet)
        playing |= not folded
    dealer_value = after = 0
    if playing:
        dealer_value = after = value5_jit(dealer[0], dealer[1], dealer[2], dealer[3], dealer[4])
        if dealer_value < v.qualifier and not np.isnan(v.game_fee):
            after = _buy_games(
                v, strategy, game_mode, share_seen, state, hands, dealer, used, known,
                decisions, box_f, box_i, antes, money,
            )  # fmt: skip
    for box in range(boxes):
        fees = box_f[box, FEES]
        if box_i[box, FOLDED]:
            box_f[box, WON], box_f[box, LOST] = 0.0, fees + 1.0
            box_i[box, OUTCOME] = Outcome.FOLD
            continue
        value, bought = box_i[box, VALUE], box_i[box, BOUGHT] > 0
        against = after if bought else dealer_value
        multiple = box_f[box, MULTIPLE]
        if value > against and multiple == 0.0:
            multiple = bet_multiple_jit(v, hands[box, : box_i[box, CARDS]], value)
        won, lost, outcome = settle_jit(
            v, value, multiple, False, fees, dealer_value, bought, against
        )
        box_f[box, WON], box_f[box, LOST], box_i[box, OUTCOME] = won, lost, outcome
        if bought and not v.game_fee_is_ante:
            box_f[box, WAGERED] += v.game_fee


@njit(cache=True, inline="always")
def round_scratch_jit(boxes):
    """The scratch arrays of ``play_round_jit`` for rounds of ``boxes`` boxes: (stream
    state, decision counts, hands, dealer, used cards, known cards, box floats, box ints)."""
    return (
        np.zeros(1, dtype=np.uint64),
        np.zeros((boxes, DECISIONS), dtype=np.int64),
        np.empty((boxes, 6), dtype=np.int64),
        np.empty(5, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(boxes, dtype=np.int64),
        np.zeros((boxes, BOX_FLOATS)),
        np.zeros((boxes, BOX_INTS), dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _add_box(won, lost, bonus, wager, outcome, category, stakes, box, out_f, out_i):
    """Add box ``box``'s result to its sums (row ``box`` of ``out_f``, ``out_i``); returns
    (net, capped net)."""
    net = won - lost
    out_f[box, NET] += net
    out_f[box, NET2] += net * net
    out_f[box, WAGER] += wager
    out_f[box, BONUS] += bonus
    out_f[box, BONUS2] += bonus * bonus
    capped = 0.0
    if stakes[box, Stake.ANTE] > 0:
        capped = capped_net_jit(
            won,
            lost,
            bonus,
            stakes[box, Stake.ANTE],
            stakes[box, Stake.BONUS_BET],
            stakes[box, Stake.MAXIMUM_PAYOUT],
            stakes[box, Stake.CAP_PER_BET] > 0,
        )
        out_f[box, CAPPED] += capped
        out_f[box, CAPPED2] += capped * capped
    cell = outcome * CATEGORIES + category
    out_f[box, CELL_NET + cell] += net
    out_i[box, CELL_COUNT + cell] += 1
    if net > 0:
        out_i[box, HITS] += 1
    half_antes = round((min(max(net, NET_LOW), NET_HIGH) - NET_LOW) * 2.0)
    out_i[box, NET_COUNT + int(half_antes)] += 1
    return net, capped


@njit(cache=True, parallel=True)
def play_blocks_jit(
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
    first_block,
    stakes,
    antes,
    floats,
    ints,
    cross,
    whole,
    largest,
):
    """Play the rounds of blocks ``first_block ..`` (one row of the outputs each), each
    round of ``stakes.shape[0]`` boxes (see ``play_round_jit``).

    Per box b: ``floats[row, b]`` and ``ints[row, b]`` (slots above), ``cross[row, b, c]``
    (c <= b) the sum of the products of the nets of boxes b and c, ``largest[row, b]``
    the largest net. The round as a whole, its net being the boxes' nets times their
    ``antes`` (in any unit): ``whole[row]`` (slots ``Whole``) and ``largest[row, -1]``.
    ``stakes[b]``: slots ``codes.StakeSlot``, in currency; ante 0 means no stake (nothing
    capped).
    """
    boxes = stakes.shape[0]
    staked = 0.0
    for box in range(boxes):
        staked += stakes[box, Stake.ANTE] + stakes[box, Stake.BONUS_BET]
    for row in prange(floats.shape[0]):
        start = (first_block + row) * BLOCK
        stop = min(start + BLOCK, rounds)
        state, decisions, hands, dealer, used, known, box_f, box_i = round_scratch_jit(boxes)
        nets = np.empty(boxes)
        best = np.full(boxes + 1, -np.inf)
        sums_f = np.zeros((boxes, FLOATS))  # this block's sums, on this thread
        sums_i = np.zeros((boxes, INTS), dtype=np.int64)
        products = np.zeros((boxes, boxes))
        sums_whole = np.zeros(WHOLE)
        ones, money = np.ones(boxes), np.empty(1)
        for index in range(start, stop):
            state[0] = round_state_jit(key, index)
            money[0] = np.inf  # no bankroll rule
            play_round_jit(
                v, strategy, game_mode, exact, options, draw_fees, forced, open_boxes,
                share_seen, state, decisions, hands, dealer, used, known, box_f, box_i, ones,
                money,
            )  # fmt: skip
            round_net, round_capped = 0.0, 0.0
            for box in range(boxes):
                net, capped = _add_box(
                    box_f[box, WON], box_f[box, LOST], box_f[box, BONUS_NET],
                    box_f[box, WAGERED], box_i[box, OUTCOME], box_i[box, CATEGORY],
                    stakes, box, sums_f, sums_i,
                )  # fmt: skip
                nets[box] = net
                best[box] = max(best[box], net)
                round_net += antes[box] * net
                round_capped += capped
                for other in range(box + 1):
                    products[box, other] += net * nets[other]
            sums_whole[Whole.NET] += round_net
            sums_whole[Whole.NET2] += round_net * round_net
            if staked > 0:
                sums_whole[Whole.CAPPED] += round_capped
                sums_whole[Whole.CAPPED2] += round_capped * round_capped
            if round_net > 0:
                sums_whole[Whole.HITS] += 1.0
            best[boxes] = max(best[boxes], round_net)
        sums_i[:, DECISION_COUNT : DECISION_COUNT + DECISIONS] += decisions
        floats[row] = sums_f
        ints[row] = sums_i
        cross[row] = products
        whole[row] = sums_whole
        largest[row] = best


@njit(cache=True)
def add_rows_in_order_jit(total, rows):
    """``total += rows[0]; total += rows[1]; ...``: one fixed order of additions."""
    for row in rows:
        for j in range(total.shape[0]):
            total[j] += row[j]
