"""numba kernels that apply a compiled strategy to the cards a player sees.

A strategy is an int64 array of rules, one row each, read in order; the
first rule of a decision point whose conditions hold, and whose cards to
keep are there, decides. Columns are named by the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ._evaluator import category_jit, hand_value_jit, next_combination_jit, value5_jit
from ._settlement import FIVE_CARD_VALUES
from .codes import Action, Category, Point

# draws (bits of the DRAWS column: any of them)
FOUR_FLUSH, FOUR_STRAIGHT, OPEN_STRAIGHT, INSIDE_STRAIGHT, FOUR_STRAIGHT_FLUSH = 1, 2, 4, 8, 16
THREE_FLUSH, SUITED_HIGH, THREE_STRAIGHT_FLUSH, HIGH_THREE_STRAIGHT_FLUSH = 32, 64, 128, 256
# cards to keep
KEEP_NONE, KEEP_MADE, KEEP_PAIR, KEEP_TWO_PAIR, KEEP_TRIPS = 0, 1, 2, 3, 4
KEEP_FOUR_FLUSH, KEEP_FOUR_STRAIGHT, KEEP_FOUR_STRAIGHT_FLUSH, KEEP_ACE_KING = 5, 6, 7, 8
KEEP_HIGHEST, KEEP_BEST_FIVE, KEEP_OPEN_STRAIGHT = 9, 10, 11
KEEP_THREE_FLUSH, KEEP_SUITED_HIGH, KEEP_THREE_STRAIGHT_FLUSH = 12, 13, 14
KEEP_HIGH_THREE_STRAIGHT_FLUSH = 15
_HIGH_RANKS = 0b1111100000000  # ten to ace
# columns of a rule
(
    POINT,
    ACTION,
    VALUE_MIN,
    VALUE_MAX,
    CATEGORIES,
    DRAWS,
    HOLDS_ALL,
    HOLDS_ANY,
    UPCARD,
    UPCARD_MATCHES,
    KEEP,
    KEEP_COUNT,
    THROW,
    SEEN_UPCARD_RANK,
    UPCARD_BELOW,
    KEEP_ALSO,
) = range(16)
RULE_COLUMNS = 16
ANY_COUNT = 15  # SEEN_UPCARD_RANK of a rule without the condition: counts 0 to 3

_ANY_CATEGORY = (1 << len(Category)) - 1
_ALL_RANKS = (1 << 13) - 1


@njit(cache=True)
def _rank_mask(cards):
    mask = 0
    for card in cards:
        mask |= 1 << (card >> 2)
    return mask


@njit(cache=True)
def _suit_rank_mask(cards, suit):
    """The ranks held in one suit, as a 13-bit mask."""
    mask = 0
    for card in cards:
        if card & 3 == suit:
            mask |= 1 << (card >> 2)
    return mask


@njit(cache=True)
def _extended(rank_mask):
    """Ranks as bits 1..13 (deuce..ace), the ace also as bit 0 (below the deuce)."""
    return (rank_mask << 1) | ((rank_mask >> 12) & 1)


@njit(cache=True, inline="always")
def _in_window(rank_mask, low):
    """How many ranks of ``rank_mask`` the window of five ranks from ``low`` holds (0 =
    the wheel A-5 .. 9 = T-A)."""
    return _popcount((_extended(rank_mask) >> low) & 31)


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _window_has(window_low, rank):
    """Does the straight window starting at extended rank ``window_low`` hold ``rank``?"""
    extended = rank + 1
    if window_low <= extended <= window_low + 4:
        return True
    return rank == 12 and window_low == 0


@njit(cache=True)
def draws_jit(cards):
    """Bits of the draws the cards hold (see FOUR_FLUSH...); none once made."""
    category = category_jit(hand_value_jit(cards), False)
    if category >= Category.STRAIGHT_FLUSH:
        return 0
    ranks, suited = 0, 0  # suited: the ranks held in suit s at bits 16 s ..
    for card in cards:
        ranks |= 1 << (card >> 2)
        suited |= 1 << (16 * (card & 3) + (card >> 2))
    bits, most_suited, suited_high, three_straight_flush, high_three = 0, 0, False, False, False
    for suit in range(4):
        suit_ranks = (suited >> (16 * suit)) & _ALL_RANKS
        count = _popcount(suit_ranks)
        most_suited = max(most_suited, count)
        suited_high |= _popcount(suit_ranks & _HIGH_RANKS) >= 2
        if count >= 4 and _most_in_a_window(suit_ranks) >= 4:
            bits |= FOUR_STRAIGHT_FLUSH
        if count == 3 and _most_in_a_window(suit_ranks) == 3:
            three_straight_flush = True
            high_three = _popcount(suit_ranks & _HIGH_RANKS) >= 2
    if category < Category.FLUSH and most_suited >= 4:
        bits |= FOUR_FLUSH
    if category < Category.STRAIGHT:
        extended = _extended(ranks)
        for low in range(10):
            if _in_window(ranks, low) == 4:
                bits |= FOUR_STRAIGHT
        for low in range(1, 10):  # four in a row with a rank free at both ends
            if (extended >> low) & 15 == 15:
                bits |= OPEN_STRAIGHT
        if bits & FOUR_STRAIGHT and not bits & OPEN_STRAIGHT:
            bits |= INSIDE_STRAIGHT
        if most_suited == 3:
            bits |= THREE_FLUSH
        if suited_high:
            bits |= SUITED_HIGH
        if three_straight_flush:
            bits |= THREE_STRAIGHT_FLUSH
        if high_three:
            bits |= HIGH_THREE_STRAIGHT_FLUSH
    return bits


@njit(cache=True)
def _most_in_a_window(rank_mask):
    """The most ranks of ``rank_mask`` within one window of five (a straight's)."""
    most = 0
    for low in range(10):
        most = max(most, _in_window(rank_mask, low))
    return most


@njit(cache=True)
def _suited_high(cards):
    """Positions of the two highest cards of ten or higher of one suit (of the suit
    whose two are highest), else -1."""
    best, best_ranks = -1, -1
    for suit in range(4):
        mask = _highest(cards, 2, ~_keep_suited(cards, suit, _HIGH_RANKS))
        if _popcount(mask) == 2:
            ranks = 0
            for i in range(cards.shape[0]):
                if (mask >> i) & 1:
                    ranks |= 1 << (cards[i] >> 2)
            if ranks > best_ranks:
                best, best_ranks = mask, ranks
    return best


@njit(cache=True)
def _keep_rank_group(cards, size, skip_rank):
    """Mask (over positions) of the highest rank held exactly ``size`` times, else 0."""
    for rank in range(12, -1, -1):
        mask = 0
        for i in range(cards.shape[0]):
            if cards[i] >> 2 == rank:
                mask |= 1 << i
        if _popcount(mask) == size and rank != skip_rank:
            return mask, rank
    return 0, -1


@njit(cache=True)
def _keep_suited(cards, suit, rank_filter):
    mask = 0
    for i in range(cards.shape[0]):
        if cards[i] & 3 == suit and (rank_filter >> (cards[i] >> 2)) & 1:
            mask |= 1 << i
    return mask


@njit(cache=True)
def _keep_in_window(cards, low, suit):
    """Positions of one card per rank of the straight window (of a suit, or any if -1)."""
    mask = 0
    taken = 0
    for i in range(cards.shape[0]):
        rank = cards[i] >> 2
        if (
            (suit < 0 or cards[i] & 3 == suit)
            and _window_has(low, rank)
            and not (taken >> rank) & 1
        ):
            taken |= 1 << rank
            mask |= 1 << i
    return mask


@njit(cache=True)
def _highest(cards, count, exclude):
    """Positions of the ``count`` highest cards outside ``exclude``."""
    mask = 0
    for _ in range(count):
        best = -1
        for i in range(cards.shape[0]):
            if not ((exclude | mask) >> i) & 1 and (best < 0 or cards[i] > cards[best]):
                best = i
        if best >= 0:
            mask |= 1 << best
    return mask


@njit(cache=True)
def keep_mask_jit(cards, keep, keep_count):
    """Positions of the cards a keep pattern holds on to; -1 when the pattern is not there."""
    n = cards.shape[0]
    if keep == KEEP_MADE:  # the cards that make the hand's category
        category = category_jit(hand_value_jit(cards), True)
        if category == Category.HIGH_CARD:
            return -1
        if category == Category.ACE_KING:
            keep = KEEP_ACE_KING
        elif category == Category.PAIR:
            keep = KEEP_PAIR
        elif category == Category.TWO_PAIR:
            keep = KEEP_TWO_PAIR
        elif category == Category.THREE_OF_A_KIND:
            keep = KEEP_TRIPS
        else:
            keep = KEEP_BEST_FIVE
    if keep == KEEP_NONE:
        return 0
    if keep == KEEP_HIGHEST:
        return _highest(cards, keep_count, 0)
    if keep == KEEP_BEST_FIVE:
        best = hand_value_jit(cards)
        if n == 5:
            return 31
        for drop in range(n):
            five = np.empty(5, dtype=cards.dtype)
            k = 0
            for i in range(n):
                if i != drop:
                    five[k] = cards[i]
                    k += 1
            if hand_value_jit(five) == best:
                return ((1 << n) - 1) & ~(1 << drop)
        return -1
    if keep == KEEP_PAIR:
        mask, _ = _keep_rank_group(cards, 2, -1)
        return mask if mask else -1
    if keep == KEEP_TRIPS:
        mask, _ = _keep_rank_group(cards, 3, -1)
        return mask if mask else -1
    if keep == KEEP_TWO_PAIR:
        first, rank = _keep_rank_group(cards, 2, -1)
        second, _ = _keep_rank_group(cards, 2, rank)
        return first | second if first and second else -1
    if keep == KEEP_ACE_KING:
        ace = king = -1
        for i in range(n):
            if cards[i] >> 2 == 12 and ace < 0:
                ace = i
            if cards[i] >> 2 == 11 and king < 0:
                king = i
        return (1 << ace) | (1 << king) if ace >= 0 and king >= 0 else -1
    if keep == KEEP_FOUR_FLUSH:
        for suit in range(3, -1, -1):
            if _popcount(_suit_rank_mask(cards, suit)) == 4:
                return _keep_suited(cards, suit, _ALL_RANKS)
        return -1
    if keep == KEEP_THREE_FLUSH:  # three cards of a suit (its highest three)
        for suit in range(4):
            if _popcount(_suit_rank_mask(cards, suit)) >= 3:
                return _highest(cards, 3, ~_keep_suited(cards, suit, _ALL_RANKS))
        return -1
    if keep == KEEP_SUITED_HIGH:
        return _suited_high(cards)
    if keep == KEEP_FOUR_STRAIGHT:
        ranks = _rank_mask(cards)
        for low in range(9, -1, -1):
            if _in_window(ranks, low) == 4:
                return _keep_in_window(cards, low, -1)
        return -1
    if keep == KEEP_OPEN_STRAIGHT:  # four in a row, a rank free at both ends: the highest
        if category_jit(hand_value_jit(cards), False) >= Category.STRAIGHT:
            return -1
        extended = _extended(_rank_mask(cards))
        for low in range(9, 0, -1):
            if (extended >> low) & 15 == 15:
                mask = _keep_in_window(cards, low, -1)
                for i in range(n):  # the fifth rank of the window is not kept
                    if cards[i] >> 2 == low + 3:
                        mask &= ~(1 << i)
                return mask
        return -1
    if keep == KEEP_FOUR_STRAIGHT_FLUSH:
        for low in range(9, -1, -1):
            for suit in range(4):
                suited = _suit_rank_mask(cards, suit)
                if _popcount(suited) >= 4 and _in_window(suited, low) >= 4:
                    return _keep_in_window(cards, low, suit)
        return -1
    if keep in (KEEP_THREE_STRAIGHT_FLUSH, KEEP_HIGH_THREE_STRAIGHT_FLUSH):
        fewest_high = 2 if keep == KEEP_HIGH_THREE_STRAIGHT_FLUSH else 0
        for low in range(9, -1, -1):  # three of a suit in a straight's window: the highest
            for suit in range(4):
                if _in_window(_suit_rank_mask(cards, suit), low) >= 3:
                    three = _highest(cards, 3, ~_keep_in_window(cards, low, suit))
                    if _popcount(_keep_suited(cards, suit, _HIGH_RANKS) & three) >= fewest_high:
                        return three
        return -1
    return -1


@njit(cache=True)
def seen_of_rank_jit(seen, cards, rank):
    """How many cards of ``rank`` the 52-bit mask ``seen`` holds outside ``cards``."""
    held = 0
    for card in cards:
        if card >> 2 == rank:
            held |= np.int64(1) << card
    outside = (seen & ~held) >> (4 * rank)
    return (outside & 1) + ((outside >> 1) & 1) + ((outside >> 2) & 1) + ((outside >> 3) & 1)


@njit(cache=True)
def decide_jit(rules, point, cards, upcard, seen):
    """(action, keep mask) of the first matching rule of a decision point.

    ``seen``: the cards the player has seen besides ``cards`` and the upcard (his other
    boxes, his discards), a 52-bit mask. The keep mask holds the positions of the
    cards kept (for an exchange or a replacement). Strategies end each point with a
    rule without conditions, so one always matches.
    """
    value = hand_value_jit(cards)
    category = category_jit(value, True)
    ranks = _rank_mask(cards)
    draws = -1  # computed when a rule asks
    up_rank = upcard >> 2
    up_rank_seen = -1  # computed when a rule asks
    for r in range(rules.shape[0]):
        rule = rules[r]
        if rule[POINT] != point or not _holds(rule, cards, value, category, ranks, up_rank):
            continue
        if rule[SEEN_UPCARD_RANK] != ANY_COUNT:
            if up_rank_seen < 0:
                up_rank_seen = seen_of_rank_jit(seen & ~(np.int64(1) << upcard), cards, up_rank)
            if not (rule[SEEN_UPCARD_RANK] >> up_rank_seen) & 1:
                continue
        if rule[DRAWS]:
            if draws < 0:
                draws = draws_jit(cards)
            if not draws & rule[DRAWS]:
                continue
        action = rule[ACTION]
        if action != Action.EXCHANGE and action != Action.REPLACE:
            return action, 0
        kept = keep_mask_jit(cards, rule[KEEP], rule[KEEP_COUNT])
        if rule[KEEP_ALSO] != KEEP_NONE and kept >= 0:  # and the cards of a second pattern
            also = keep_mask_jit(cards, rule[KEEP_ALSO], 0)
            kept = kept | also if also >= 0 else -1
        if kept < 0:
            continue
        target = cards.shape[0] - (1 if action == Action.REPLACE else rule[THROW])
        if action == Action.REPLACE or rule[THROW] > 0:
            if _popcount(kept) > target:
                continue
            kept |= _highest(cards, target - _popcount(kept), kept)
        return action, kept
    return Action.FOLD, 0


UNDECIDED = -1
"""A first-action table's entry where the rules need more than the hand's value and the
upcard's rank (a draw, the cards seen, the positions of the cards to keep)."""


@njit(cache=True)
def hand_per_value_jit() -> np.ndarray:
    """A five-card hand of every value (row ``value``; row 0 unused): every hand of a
    value holds the same ranks, and is a flush or not alike."""
    hands = np.zeros((FIVE_CARD_VALUES + 1, 5), dtype=np.int64)
    found = np.zeros(FIVE_CARD_VALUES + 1, dtype=np.bool_)
    hand = np.arange(5)
    while True:
        value = value5_jit(hand[0], hand[1], hand[2], hand[3], hand[4])
        if not found[value]:
            found[value] = True
            hands[value] = hand
        if not next_combination_jit(hand, 52):
            return hands


@njit(cache=True)
def first_actions_jit(rules, hands):
    """The first decision's action by the value of the five cards and the upcard's rank
    (``table[value, rank]``), ``UNDECIDED`` where the rules read more of the cards (then
    ``decide_jit`` decides); ``hands``: ``hand_per_value_jit()``."""
    table = np.full((FIVE_CARD_VALUES + 1, 13), UNDECIDED, dtype=np.int8)
    for value in range(1, FIVE_CARD_VALUES + 1):
        cards = hands[value]
        category = category_jit(value, True)
        ranks = _rank_mask(cards)
        for up_rank in range(13):
            for r in range(rules.shape[0]):
                rule = rules[r]
                if rule[POINT] != Point.FIRST or not _holds(
                    rule, cards, value, category, ranks, up_rank
                ):
                    continue
                if rule[SEEN_UPCARD_RANK] != ANY_COUNT or rule[DRAWS]:
                    break  # the cards seen or the suits decide
                if rule[ACTION] != Action.EXCHANGE and rule[ACTION] != Action.REPLACE:
                    table[value, up_rank] = rule[ACTION]
                break  # else the positions of the cards to keep decide
    return table


@njit(cache=True, inline="always")
def first_action_jit(first_actions, value, upcard):
    """The first decision's action on five cards of ``value`` from ``first_actions_jit``'s
    table, or ``UNDECIDED``."""
    return first_actions[value, upcard >> 2]


@njit(cache=True)
def nth_highest_rank_jit(cards, n):
    """The rank of the ``n``-th highest of the cards (1: the highest; pairs count twice)."""
    counted = 0
    for rank in range(12, -1, -1):
        for card in cards:
            counted += card >> 2 == rank
        if counted >= n:
            return rank
    return -1


@njit(cache=True, inline="always")
def _holds(rule, cards, value, category, ranks, up_rank) -> bool:
    """Whether the rule's conditions on the hand's value and ranks and the upcard's rank
    hold."""
    if value < rule[VALUE_MIN] or value > rule[VALUE_MAX]:
        return False
    if not (rule[CATEGORIES] >> category) & 1:
        return False
    if ranks & rule[HOLDS_ALL] != rule[HOLDS_ALL]:
        return False
    if rule[HOLDS_ANY] and not ranks & rule[HOLDS_ANY]:
        return False
    if not (rule[UPCARD] >> up_rank) & 1:
        return False
    if rule[UPCARD_MATCHES] >= 0 and ((ranks >> up_rank) & 1) != rule[UPCARD_MATCHES]:
        return False
    return not (rule[UPCARD_BELOW] and up_rank >= nth_highest_rank_jit(cards, rule[UPCARD_BELOW]))


def decide(strategy, point, cards, upcard, seen):
    """(action, keep mask) of a strategy: ``decide_jit`` for a rule array, else the
    call of a compiled decider (``DECIDER``: a Python strategy's function wrapped by
    ``simulate.python_strategy``) on a copy of the cards. The kernels are compiled
    once for rule arrays and once for every decider, and cached."""
    raise NotImplementedError("called from numba kernels only")


DECIDER = types.int64(
    types.int64, types.CPointer(types.int64), types.int64, types.int64, types.int64
)
"""A compiled decider: ``(point, cards, number of cards, upcard, seen) -> code``, the
code packing the action and the keep mask (``decision_code``)."""


@njit(cache=True)
def decision_code(action, kept):
    """One int64 holding an action and a keep mask (any int32 each)."""
    return (np.int64(action) << 32) + (np.int64(kept) & 0xFFFFFFFF)


@njit(cache=True)
def decoded_decision(code):
    """(action, keep mask) of a ``decision_code``."""
    kept = code & 0xFFFFFFFF
    kept -= (kept & 0x80000000) << 1
    return (code - kept) >> 32, kept


@overload(decide, jit_options={"cache": True})
def _decide(strategy, point, cards, upcard, seen):
    if isinstance(strategy, types.Array):
        return lambda strategy, point, cards, upcard, seen: decide_jit(
            strategy, point, cards, upcard, seen
        )
    if isinstance(strategy, types.FunctionType):

        def call(strategy, point, cards, upcard, seen):
            copy = cards.astype(np.int64)
            code = strategy(
                np.int64(point), copy.ctypes, copy.shape[0], np.int64(upcard), np.int64(seen)
            )
            return decoded_decision(code)

        return call
    return None
