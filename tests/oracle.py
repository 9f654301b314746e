"""A plain-Python referee, sharing no code with the package: it ranks hands, settles
a box and makes the dealer's exchange from the variant file as written (its TOML)
and ``../shared/RULES.md``, so that it can catch what the kernels get wrong.

Cards are strings ("As", "Td"); amounts are in antes.
"""

from __future__ import annotations

import functools
import itertools
import json
import tomllib
from collections import Counter
from importlib import resources

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
CATEGORIES = [  # lowest first
    "high-card",
    "ace-king",
    "pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
    "royal-flush",
]
# how many cards form a combination of each category (the second combination's rule)
FORMING = {
    "ace-king": 2,
    "pair": 2,
    "two-pair": 4,
    "three-of-a-kind": 3,
    "four-of-a-kind": 4,
    "straight": 5,
    "flush": 5,
    "full-house": 5,
    "straight-flush": 5,
    "royal-flush": 5,
}


def rules(name: str) -> dict:
    """The variant file as written."""
    text = (resources.files("simulate") / "variants" / f"{name}.toml").read_text()
    return tomllib.loads(text)


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def rank_five(cards, ace_king: bool) -> tuple:
    """A key that orders five-card hands: (category index, tie-break ranks)."""
    ranks = sorted((_rank(c) for c in cards), reverse=True)
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    straight_top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:  # 5-4-3-2-A
            straight_top = 3
    if straight_top is not None and flush:
        category = "royal-flush" if straight_top == 12 else "straight-flush"
    elif shape == [4, 1]:
        category = "four-of-a-kind"
    elif shape == [3, 2]:
        category = "full-house"
    elif flush:
        category = "flush"
    elif straight_top is not None:
        category = "straight"
    elif shape == [3, 1, 1]:
        category = "three-of-a-kind"
    elif shape == [2, 2, 1]:
        category = "two-pair"
    elif shape[0] == 2:
        category = "pair"
    elif ace_king and ranks[0] == 12 and ranks[1] == 11:
        category = "ace-king"
    else:
        category = "high-card"
    tie = (straight_top,) if straight_top is not None else tuple(by_count)
    return CATEGORIES.index(category), tie


def rank_hand(cards, ace_king: bool) -> tuple:
    """The key of the best five of the cards."""
    return _rank_hand(tuple(sorted(cards)), ace_king)


@functools.lru_cache(maxsize=1 << 16)
def _rank_hand(cards: tuple, ace_king: bool) -> tuple:
    return max(rank_five(five, ace_king) for five in itertools.combinations(cards, 5))


def category(cards, ace_king: bool) -> str:
    return CATEGORIES[rank_hand(cards, ace_king)[0]]


def qualifies(game: dict, dealer) -> bool:
    ace_king = game["hands"]["ace_king"]
    qualifier = game["hands"]["dealer_qualifies"]
    if qualifier in CATEGORIES:
        return rank_hand(dealer, ace_king)[0] >= CATEGORIES.index(qualifier)
    return rank_hand(dealer, ace_king) >= rank_hand(qualifier.split(), ace_king)


def _combination(cards, ace_king: bool) -> str | None:
    """The category a set of cards forms exactly (all of them needed), or None."""
    ranks = Counter(_rank(c) for c in cards)
    n = len(cards)
    if n == 2:
        if len(ranks) == 1:
            return "pair"
        return "ace-king" if ace_king and set(ranks) == {11, 12} else None
    if n == 3:
        return "three-of-a-kind" if len(ranks) == 1 else None
    if n == 4:
        if len(ranks) == 1:
            return "four-of-a-kind"
        return "two-pair" if sorted(ranks.values()) == [2, 2] else None
    if n == 5:
        name = CATEGORIES[rank_five(cards, False)[0]]
        return name if FORMING.get(name) == 5 else None
    return None


def bet_multiple(game: dict, cards) -> float:
    """What the BET pays, N to 1, for the winning final cards."""
    return _bet_multiple(json.dumps(game, sort_keys=True), tuple(sorted(cards)))


@functools.lru_cache(maxsize=1 << 12)
def _bet_multiple(game_text: str, cards: tuple) -> float:
    game = json.loads(game_text)
    ace_king = game["hands"]["ace_king"]
    pays = game["bet_pays"]
    best = rank_hand(cards, ace_king)
    first = CATEGORIES[best[0]]
    if not game["wagers"].get("second_combination"):
        return pays[first]
    total = pays.get(first, 0)
    subsets = [
        (set(s), _combination(s, ace_king))
        for size in (2, 3, 4, 5)
        for s in itertools.combinations(cards, size)
    ]
    best_fives = [
        set(f) for f in itertools.combinations(cards, 5) if rank_five(f, ace_king) == best
    ]
    for forming, name in subsets:
        if name != first or not any(forming <= five for five in best_fives):
            continue
        seconds = [pays.get(n, 0) for s, n in subsets if n and s - forming]
        total = max(total, pays[first] + max(seconds, default=0))
    return total


def settle(
    game: dict,
    cards,
    dealer,
    *,
    folded=False,
    fees=0.0,
    bought=False,
    dealer_after=None,
) -> tuple[float, str]:
    """(net, outcome) of a box: RULES.md's settlement, read from the variant file. The
    outcome is ``FOLD``, ``NO_QUALIFY``, ``WIN``, ``LOSS`` or ``PUSH``, prefixed with
    ``BOUGHT_`` after a bought game."""
    wagers, ace_king = game["wagers"], game["hands"]["ace_king"]
    bet = wagers["bet"]
    if folded:
        return -1.0 - fees, "FOLD"
    showdown_dealer, ante_on_table, extra, prefix = dealer, True, 0.0, ""
    if not qualifies(game, dealer):
        if not bought:
            return wagers["ante_pays_no_qualify"] - fees, "NO_QUALIFY"
        fee_is_ante = game["buy_game"].get("fee_is_ante", False)
        extra, prefix = game_fee(game), "BOUGHT_"
        if not qualifies(game, dealer_after):
            return -fees - extra, "BOUGHT_NO_QUALIFY"
        showdown_dealer, ante_on_table = dealer_after, not fee_is_ante
    player, opponent = rank_hand(cards, ace_king), rank_hand(showdown_dealer, ace_king)
    if player > opponent:
        won = wagers["ante_pays"] + bet * bet_multiple(game, cards)
        return won - fees - extra, prefix + "WIN"
    if player < opponent:
        return -bet - (1.0 if ante_on_table else 0.0) - fees - extra, prefix + "LOSS"
    return -fees - extra, prefix + "PUSH"


def game_fee(game: dict) -> float:
    """What buying the dealer a game costs (the ante itself where it is the fee)."""
    buy_game = game["buy_game"]
    return 1.0 if buy_game.get("fee_is_ante", False) else buy_game["fee"]


def bonus(game: dict, first_five) -> float:
    """The bonus bet's net, in bonus bets, on the first five cards."""
    pays = game["bonus"]["pays"]
    return pays.get(category(first_five, game["hands"]["ace_king"]), -1.0)


def dealer_discard(game: dict, dealer) -> str:
    """The card the dealer exchanges when a game is bought."""
    by_rank = sorted(dealer, key=lambda c: (_rank(c), SUITS.index(c[1])))
    if game["buy_game"]["dealer_discards"] == "highest":
        return by_rank[-1]
    unseen = [c for c in DECK if c not in dealer]

    def outs(card):
        rest = [c for c in dealer if c != card]
        return sum(qualifies(game, [*rest, new]) for new in unseen)

    return max(by_rank, key=lambda c: (outs(c), -by_rank.index(c)))


def fee(game: dict, action: str, thrown: int = 0) -> float:
    """What a draw costs: ``buy``, ``replace`` or ``exchange`` of ``thrown`` cards."""
    decisions = game["decisions"]
    if action == "buy":
        return decisions["buy"]
    if action == "replace":
        return decisions["replace_after_buy"]
    return decisions["exchange"][str(thrown)]


def forces_bet(game: dict, thrown: int) -> bool:
    return thrown in game["decisions"].get("exchange_forces_bet", [])
