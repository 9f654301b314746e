"""Exact expected values by full enumeration with card removal.

``advise`` gives the EV of every option of one situation; ``exact_game``
weighs every deal of a variant (player hand, upcard, dealer hand) when the
player folds or bets on his five cards, with integer counts per outcome.
The dealer's hands are counted by inclusion-exclusion over the player's
cards (see ``_exact``); player hands by suit-symmetry classes. The
dealer's game is never bought in these figures.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction

import numpy as np
import pandas as pd

from . import _exact as kernels
from . import _strategy as rules_kernels
from ._decisions import option_evs_jit
from ._engine import exact_game_gain_jit
from ._evaluator import category_jit
from ._game_value import (
    bet_gain_jit,
    no_dealers,
    nonqualifying_dealers_jit,
    option_gain_jit,
    six_card_choices_jit,
)
from ._settlement import bet_multiple_jit, dealer_discard_jit
from ._tables import cached_arrays
from .cards import RANKS, CardError, format_card, format_cards, parse_cards
from .codes import CATEGORIES, PLAIN_OUTCOMES, Action, Category, Outcome, Point
from .evaluator import hand_value
from .provenance import software
from .strategy import Strategy, StrategyKind, load_rule_strategy
from .variant import Variant, load_variant

__all__ = ["ExactResult", "advise", "exact_covers", "exact_game", "first_options", "no_draw_plays"]

DEALS = math.comb(52, 5) * 47 * math.comb(46, 4)
NO_DRAWS = "optimal-no-draws"
_LISTS = None


def value_lists():
    global _LISTS
    if _LISTS is None:
        _LISTS = kernels.load_value_lists()
    return _LISTS


def _distinct(cards: np.ndarray, what: str) -> None:
    if len(set(cards.tolist())) != len(cards):
        raise CardError(f"{what} repeat a card: {format_cards(cards)}")


def advise(
    variant: Variant | str,
    hand: str,
    upcard: str,
    dealer: str | None = None,
    seen: str | None = None,
    game: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """The exact EV, in antes per initial ante, of every option of a situation.

    ``hand``: the player's 5 cards (or 6 after a buy); ``upcard``: the dealer's
    upcard; ``seen``: other cards the player has seen (his other boxes, his discards),
    dead for his draws and for the dealer. With ``dealer`` (his five cards, not
    qualifying) the options are buying him a game or not, for the player's final
    ``hand``. Where the variant lets the player buy the dealer a game, each option's
    EV counts it, bought exactly when worth it on his whole hand (column ``game``: what
    it adds), unless ``game`` is False; ``progress`` is then called with the final
    hands weighed so far and their number.
    """
    variant = load_variant(variant)
    cards = parse_cards(hand).astype(np.int64)
    up = parse_cards(upcard).astype(np.int64)
    others = parse_cards(seen).astype(np.int64) if seen else np.zeros(0, dtype=np.int64)
    if len(up) != 1:
        raise CardError(f"the upcard is one card, got {upcard!r}")
    if len(cards) not in (5, 6):
        raise CardError(f"the player's hand is 5 or 6 cards, got {len(cards)}")
    if len(cards) == 6 and variant.buy_fee is None:
        raise ValueError(f"{variant.name} has no sixth card")
    _distinct(np.concatenate([cards, up, others]), "the hand, the upcard and the seen cards")
    if len(others) > 52 - 5 - 1 - 4 - 5:
        raise CardError(f"{len(others)} seen cards leave the draws and the dealer too few")
    if dealer is not None:
        return _advise_game(variant, cards, up[0], dealer, others)
    v, lists, u = variant.arrays(), value_lists(), int(up[0])
    dead = np.sort(np.concatenate([cards, others]))
    unseen = np.array([c for c in range(52) if c != u and c not in dead.tolist()])
    pairs = needs_pair_tables(variant) and len(cards) == 5
    tables = kernels.situation_tables_jit(lists, u, dead, unseen, pairs)
    dealers = nonqualifying_dealers(variant, u, unseen) if game else None
    if len(cards) == 6:
        return _advise_six(variant, cards, u, unseen, tables, dealers)
    options, labels = first_options(variant)
    evs, gains = np.zeros(len(options)), np.zeros(len(options))
    fees, forced = variant.draw_arrays()
    option_evs_jit(v, tables, lists, cards, u, unseen, options, fees, forced, evs)
    if dealers is not None:
        weights = _final_hands(variant, options, len(unseen))
        for i, (kind, keep) in enumerate(options.tolist()):
            gains[i] = option_gain_jit(
                v, tables, lists, dealers, cards, u, unseen, kind, keep, fees, forced
            )
            if progress:
                progress(int(weights[: i + 1].sum()), int(weights.sum()))
    rows = [
        {
            "option": label,
            "cards thrown": format_cards(cards[[i for i in range(5) if not keep >> i & 1]]),
            "ev": ev + gain,
            "game": gain,
        }
        for (label, (_, keep), ev, gain) in zip(
            labels, options.tolist(), evs.tolist(), gains.tolist(), strict=True
        )
    ]
    return _mark_best(rows, dealers is not None)


def _final_hands(variant: Variant, options: np.ndarray, unseen: int) -> np.ndarray:
    """How many final hands each first option leads to: what weighing the game costs."""
    after_buy = 1 + (6 * (unseen - 1) if variant.replace_fee is not None else 0)
    return np.array(
        [
            {Action.FOLD: 0, Action.PLAY: 1, Action.BUY: unseen * after_buy}.get(
                kind, math.comb(unseen, 5 - bin(keep).count("1"))
            )
            for kind, keep in options.tolist()
        ]
    )


def nonqualifying_dealers(variant: Variant, upcard: int, unseen: np.ndarray) -> tuple | None:
    """The dealer's non-qualifying hands of a situation, tabulated for counting the game
    he may be bought (None where the variant has none)."""
    if variant.buy_game is None:
        return None
    most_drawn = max(variant.exchange_fees, default=0)
    if variant.buy_fee is not None:
        most_drawn = max(most_drawn, 1 if variant.replace_fee is None else 2)
    return nonqualifying_dealers_jit(variant.arrays(), upcard, unseen, max(most_drawn, 1))


def _advise_six(
    variant: Variant,
    six: np.ndarray,
    upcard: int,
    unseen: np.ndarray,
    tables: tuple,
    dealers: tuple | None,
) -> pd.DataFrame:
    """The options on six cards after a buy: fold, play, replace one (fee included)."""
    v, lists = variant.arrays(), value_lists()
    counted = dealers if dealers is not None else no_dealers()
    play, play_gain = bet_gain_jit(v, tables, lists, counted, six, upcard, unseen)
    rows = [
        {"option": "fold", "cards thrown": "", "ev": -1.0, "game": 0.0},
        {"option": "play", "cards thrown": "", "ev": play + play_gain, "game": play_gain},
    ]
    if variant.replace_fee is not None:
        evs = np.empty((7, 3))
        no_picks = np.empty(0, dtype=np.int64)
        six_card_choices_jit(v, tables, lists, counted, six, upcard, unseen, no_picks, 0, evs)
        rows += [
            {
                "option": "replace",
                "cards thrown": format_card(card),
                "ev": ev - variant.replace_fee,
                "game": ev - without,
            }
            for card, (without, ev, _) in zip(six, evs[1:], strict=True)
        ]
    return _mark_best(rows, dealers is not None)


def first_options(variant: Variant) -> tuple[np.ndarray, list[str]]:
    """The options on the five dealt cards, in a fixed order: rows of (kind, mask of the
    cards kept), and their names."""
    options, labels = [(Action.FOLD, 31), (Action.PLAY, 31)], ["fold", "play"]
    if variant.buy_fee is not None:
        options.append((Action.BUY, 31))
        labels.append("buy a sixth card")
    for count in sorted(variant.exchange_fees):
        for thrown in itertools.combinations(range(5), count):
            options.append((Action.EXCHANGE, sum(1 << i for i in range(5) if i not in thrown)))
            labels.append(f"exchange {count}")
    return np.array(options, dtype=np.int64), labels


def needs_pair_tables(variant: Variant) -> bool:
    """Whether tabulating the dealer's hands per pair of drawn cards pays: when three or
    more cards may be exchanged (each draw then holds many pairs)."""
    return max(variant.exchange_fees, default=0) >= 3


def _mark_best(rows: list[dict], game: bool = False) -> pd.DataFrame:
    frame = pd.DataFrame(rows)
    if not game:
        frame = frame.drop(columns="game", errors="ignore")
    frame["ev lost"] = frame["ev"].max() - frame["ev"]
    frame["best"] = frame["ev lost"] == 0
    return frame


def _advise_game(
    variant: Variant, cards: np.ndarray, upcard: int, dealer: str, seen: np.ndarray
) -> pd.DataFrame:
    if variant.buy_game is None:
        raise ValueError(f"{variant.name}: buying the dealer a game is not offered")
    dealt = parse_cards(dealer).astype(np.int64)
    if len(dealt) != 5 or upcard not in dealt.tolist():
        raise CardError("--dealer must be the dealer's five cards, the upcard among them")
    _distinct(np.concatenate([cards, dealt, seen]), "the hand, the dealer's and the seen cards")
    dealer_value = hand_value(dealt)
    if dealer_value >= variant.qualifier_value:
        raise ValueError("the dealer qualifies: there is no game to buy")
    v = variant.arrays()
    value = hand_value(cards)
    multiple = bet_multiple_jit(v, cards, value)
    discard = int(dealer_discard_jit(v, dealt))
    used = 0
    for card in np.concatenate([cards, dealt, seen]).tolist():
        used |= 1 << card
    gain = exact_game_gain_jit(v, value, multiple, dealt, discard, used)
    decline = variant.ante_pays_no_qualify
    return _mark_best(
        [
            {"option": "decline", "dealer discards": "", "ev": decline},
            {
                "option": "buy the dealer a game",
                "dealer discards": format_card(dealt[discard]),
                "ev": decline + gain,
            },
        ]
    )


@dataclass
class ExactResult:
    """Every deal of a variant weighed: integer counts per outcome and the figures."""

    variant: Variant
    strategy: str
    table: pd.DataFrame
    summary: dict
    strategy_chart: pd.DataFrame | None
    seconds: float
    method: str = (
        "every deal (player hand, upcard, dealer hand) enumerated: player hands by "
        "suit-symmetry class, dealer hands by inclusion-exclusion over the player's cards; "
        "no draws, the dealer's game never bought"
    )

    def to_json(self) -> dict:
        return {
            "software": software(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "variant": self.variant.record(),
            "strategy": self.strategy,
            "method": self.method,
            "summary": self.summary,
            "table": self.table.to_dict(orient="records"),
            "seconds": self.seconds,
        }


def exact_game(
    variant: Variant | str, strategy: Strategy | str = "optimal", *, cached: bool = True
) -> ExactResult:
    """Weigh every deal: the player folds or bets on his five cards, by ``strategy`` (a
    strategy without draws) or, for ``"optimal"`` (in a variant without draws) and
    ``"optimal-no-draws"``, exactly when betting is worth more. The weighed deals are
    kept in the cache per rule set and strategy (``cached``: read them from there if
    they are; its ``seconds`` are those of weighing)."""
    variant = load_variant(variant)
    name = strategy if isinstance(strategy, str) else strategy.name
    optimal = name in ("optimal", NO_DRAWS)
    if name == "optimal" and variant.has_draws:
        raise ValueError(
            f"{variant.name}: optimal play with draws is weighed by `studsim exact` "
            f"(simulate.optimal_game) where it can be enumerated; {NO_DRAWS!r} weighs the "
            "best play without draws"
        )
    rules = None
    if not optimal:
        plan = (
            strategy if isinstance(strategy, Strategy) else load_rule_strategy(strategy, variant)
        )
        if plan.kind is not StrategyKind.RULES:
            raise ValueError(
                f"strategy {plan.name!r} is not a list of rules; the exact full-game "
                "analysis weighs rule strategies and optimal play"
            )
        if not _folds_or_bets(plan.rules) or plan.game_mode:
            raise ValueError(
                f"strategy {plan.name!r} draws or buys games; the exact full-game "
                "analysis covers folding and betting on the dealt cards"
            )
        rules, name = plan.rules, plan.name
    reps, weights = hand_classes()
    weighed = _weighed_deals(variant, rules, cached)
    totals = weighed["totals"]
    win_total = _exact_sum(weighed["win_net"], weights)
    win_total2 = _exact_sum(weighed["win_net2"], weights)
    table = _table(variant, totals, win_total)
    summary = _summary(variant, totals, win_total, win_total2)
    chart = _chart(variant, reps, weights, weighed["plays"]) if optimal else None
    return ExactResult(variant, name, table, summary, chart, float(weighed["seconds"]))


GAME_SOURCES = (
    "exact.py", "_exact.py", "_strategy.py", "_evaluator.py", "_settlement.py", "_tables.py",
    "codes.py",
)  # fmt: skip
"""The sources that weigh every deal of a game without draws."""


def _weighed_deals(variant: Variant, rules: np.ndarray | None, cached: bool) -> dict:
    """``weigh_every_deal`` as ``exact_game`` reads it: the counts' totals, the win nets
    per class and their squares, for optimal play (``rules`` None) the bets, and the
    seconds it took; kept in the cache per rule set and strategy."""

    def weigh() -> dict:
        start = time.perf_counter()
        _, weights, counts, win_net, win_net2, plays = weigh_every_deal(variant, rules)
        return {
            "totals": (counts * weights[:, None]).sum(axis=0),
            "win_net": win_net,
            "win_net2": win_net2,
            "plays": plays if rules is None else np.zeros((0, 52), dtype=bool),
            "seconds": np.array(time.perf_counter() - start),
        }

    if not cached:
        return weigh()
    strategy = "optimal" if rules is None else _rules_key(rules)
    return cached_arrays(f"exact-game-{variant.rules_hash[:16]}-{strategy}", weigh, GAME_SOURCES)


def no_draw_plays(variant: Variant) -> np.ndarray:
    """Whether the best play without draws bets, by class of five cards and upcard
    (relabelled with it): betting is worth more than folding, every deal counted, the
    dealer's game never bought (the cached weighing of ``exact_game``'s optimal play)."""
    return _weighed_deals(variant, None, cached=True)["plays"]


def _rules_key(rules: np.ndarray) -> str:
    digest = hashlib.sha256(str((rules.shape, rules.dtype.str)).encode())
    digest.update(np.ascontiguousarray(rules).tobytes())
    return digest.hexdigest()[:16]


def exact_covers(variant: Variant, strategy: Strategy) -> bool:
    """Whether ``exact_game`` weighs ``strategy`` as the simulator plays it: no draws,
    and no game of the dealer's bought."""
    if strategy.game_mode and variant.buy_game is not None:
        return False
    if strategy.kind is StrategyKind.TABLE:
        return not strategy.exact_play.draws
    return strategy.kind is StrategyKind.RULES and _folds_or_bets(strategy.rules)


def _folds_or_bets(rules: np.ndarray) -> bool:
    """Whether the rules' first decision only ever folds or bets (no draws)."""
    first = {int(a) for p, a in rules[:, :2] if p == Point.FIRST}
    return first <= {Action.FOLD, Action.PLAY}


@functools.cache
def hand_classes() -> tuple[np.ndarray, np.ndarray]:
    """One hand of each class of five-card hands, and each class's size: computed once
    per process (about a second)."""
    return kernels.canonical_hands_jit()


def weigh_every_deal(variant: Variant, rules: np.ndarray | None):
    """Run the full-game kernel over every class of hands: optimal play when ``rules``
    is None. Returns (classes, their sizes, counts, win nets, their squares, bets)."""
    reps, weights = hand_classes()
    counts = np.zeros((len(reps), PLAIN_OUTCOMES * CATEGORIES), dtype=np.int64)
    win_net, win_net2 = np.zeros(len(reps)), np.zeros(len(reps))
    plays = np.zeros((len(reps), 52), dtype=np.bool_)
    optimal = rules is None
    if optimal:
        rules = np.zeros((0, rules_kernels.RULE_COLUMNS), dtype=np.int64)
    kernels.full_game_jit(
        variant.arrays(), value_lists(), reps, rules, optimal, counts, win_net, win_net2, plays
    )
    return reps, weights, counts, win_net, win_net2, plays


def _exact_sum(per_row: np.ndarray, weights: np.ndarray) -> Fraction:
    """Sum of per-row amounts times weights, exactly (amounts are sums of small binary
    fractions, exact in floating point: scaled by a power of two they are integers)."""
    scale = 1
    while np.any(np.mod(per_row * scale, 1)):
        scale *= 2
        if scale > 2**30:
            raise ValueError("amounts are not small binary fractions")
    numerators = (per_row * scale).astype(np.int64).astype(object)
    return Fraction(int((numerators * weights.astype(object)).sum()), scale)


def _table(variant: Variant, totals: np.ndarray, win_total: Fraction) -> pd.DataFrame:
    nets = {
        Outcome.FOLD: -1,
        Outcome.NO_QUALIFY: variant.ante_pays_no_qualify,
        Outcome.PUSH: 0,
        Outcome.LOSS: -(1 + variant.bet),
    }
    rows = []
    for outcome in list(Outcome)[:PLAIN_OUTCOMES]:
        for category in Category:
            count = int(totals[outcome * CATEGORIES + category])
            if not count:
                continue
            if outcome == Outcome.WIN:
                net = (
                    None
                    if variant.second_combination
                    else (variant.ante_pays + variant.bet * variant.bet_pays.get(category, 0))
                )
            else:
                net = nets[outcome]
            rows.append(
                {
                    "outcome": outcome.label,
                    "category": category.label,
                    "combinations": count,
                    "probability": count / DEALS,
                    "net": net,
                    "contribution": None if net is None else count * net / DEALS,
                }
            )
    frame = pd.DataFrame(rows)
    if variant.second_combination:  # win nets vary with the second combination
        wins = frame["outcome"] == "win"
        frame.loc[wins, "contribution"] = float(win_total / DEALS) * (
            frame.loc[wins, "combinations"] / frame.loc[wins, "combinations"].sum()
        )
    return frame


def _summary(
    variant: Variant, totals: np.ndarray, win_total: Fraction, win_total2: Fraction
) -> dict:
    by_outcome = totals.reshape(PLAIN_OUTCOMES, CATEGORIES).sum(axis=1)
    fold, no_qualify, _, _, loss = (int(x) for x in by_outcome)
    assert int(totals.sum()) == DEALS
    a_nq, lose = Fraction(variant.ante_pays_no_qualify), Fraction(1 + variant.bet)
    net = -fold + no_qualify * a_nq + win_total - loss * lose
    net2 = fold + no_qualify * a_nq**2 + win_total2 + loss * lose**2
    mean = net / DEALS
    played = DEALS - fold
    average_bet = 1 + Fraction(variant.bet) * played / DEALS
    variance = net2 / DEALS - mean**2
    return {
        "deals": DEALS,
        "rtp": float(1 + mean),
        "house_edge": float(-mean),
        "house_edge_fraction": f"{-net.numerator}/{net.denominator * DEALS}"
        if net.denominator != 1
        else f"{-net}/{DEALS}",
        "element_of_risk": float(-mean / average_bet),
        "average_total_bet": float(average_bet),
        "standard_deviation": math.sqrt(float(variance)),
        "play_probability": played / DEALS,
        "hit_frequency": float(Fraction(no_qualify + int(by_outcome[2]), DEALS)),
    }


def _chart(
    variant: Variant, reps: np.ndarray, weights: np.ndarray, plays: np.ndarray
) -> pd.DataFrame:
    """The optimal decisions summed up: for each category, and for high-card hands by
    their top ranks, the share of deals on which betting is right, by the upcard's rank."""
    labels, strength = [], {}
    for hand in reps:
        category = Category(int(category_jit(hand_value(hand), variant.ace_king)))
        label = category.label
        top = []
        if category <= Category.ACE_KING:
            top = sorted((RANKS[c >> 2] for c in hand.tolist()), key=RANKS.index, reverse=True)
            top = top[:3] if top[:2] == ["A", "K"] else top[:2]
            label += " " + "".join(top)
        labels.append(label)
        strength[label] = (int(category), [RANKS.index(r) for r in top])
    in_hand = np.zeros((len(reps), 52), dtype=bool)
    np.put_along_axis(in_hand, reps, True, axis=1)
    deals = (weights[:, None] * ~in_hand).reshape(-1, 13, 4).sum(axis=2)
    bets = (weights[:, None] * (plays & ~in_hand)).reshape(-1, 13, 4).sum(axis=2)
    columns = list(RANKS)
    deals = pd.DataFrame(deals, columns=columns).groupby(labels).sum()
    bets = pd.DataFrame(bets, columns=columns).groupby(labels).sum()
    chart = (bets / deals).loc[sorted(set(labels), key=strength.get, reverse=True)]
    chart.index.name, chart.columns.name = "hand", "upcard"
    return chart
