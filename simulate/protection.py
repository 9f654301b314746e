"""Game protection: what the player gains when he also sees some of the dealer's hidden
cards (a flashed or marked hole card, a dealer's hand seen whole) or other players'
hands (shared across seats: dead for the dealer's hidden cards).

In games decided by folding or betting on the dealt cards (Caribbean Stud), the player
bets exactly when it is worth more than folding, given every card he sees: his hand,
the upcard and ``hole`` of the dealer's four hidden cards. The RTP is enumerated where
that is quick (no hole card, one, all four: every situation weighed); with two or
three it is the exact optimal RTP plus the mean gain of seeing the cards over sampled
situations, each weighed exactly, with its standard error.

In games with draws of one or two cards (Oasis's exchanges; Six-Card's sixth card
bought, then one replaced), every first option and every choice after the draw is
decided seeing the cards (the dealer's game never bought, as in the optimal RTP); the
RTP is the exact optimal RTP plus the mean gain over sampled situations. A situation's
gain is its best EV seeing the cards less the EV, with them, of the blind
player's choices (his first option, each draw bet or folded as he would): never below
0, and over the cards seen the blind player's EV is his EV without them, which each
row also checks (``blind_difference``).

In games exchanging up to five cards (Russian, 1-2-5, oasis-classic), whose optimal
RTP is itself sampled, the blind player's choices are exact on each sampled situation
(``_protection_long``) and weighed with several sets of cards seen; the RTP is the
sampled optimal RTP plus the mean gain, the standard errors of both combined. The next
card of the deck seen is weighed there on the same situations, over every card it can
be, from the EVs the blind options sum draw by draw.

Where the dealer's game is sold (Six-Card, Russian, 1-2-5), the player who sees the
card the dealer's exchange brings buys the game exactly when that card makes it pay:
measured on paired deals where the whole game's optimal play is simulated, on the
sampled situations where it is sampled (``exchange_card_rtp``).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from . import _engine as engine
from . import _protection as kernels
from . import _protection_draws as draw_kernels
from . import _protection_long as long_kernels
from ._io import read_keyed_npz, write_npz
from ._tables import source_hash
from .catalog import load_strategy
from .codes import GameMode
from .compare import paired_difference
from .exact import first_options, hand_classes, needs_pair_tables, value_lists
from .game_buy import shifted_progress
from .game_sampled import foreseen_card_gain
from .optimal import optimal_strategy
from .optimal_game import (
    DECISION_SOURCES,
    sampled_optimum,
    situation_tables,
    supports_exact_draws,
)
from .optimum import optimal_rtp
from .simulation import DEFAULT_SEED, Z95, Z_999, _key, run
from .strategy import Strategy
from .variant import Variant, load_variant

__all__ = [
    "COLUMNS",
    "COVERED",
    "HOLE_CARDS",
    "METHODS",
    "TABLES",
    "covers",
    "exchange_card_rtp",
    "flashed_card_rtp",
    "hole_card_rtp",
    "methods",
    "played_with_hole_cards",
    "protection_tables",
    "shared_hands_rtp",
    "shown",
    "weighs",
]

HOLE_CARDS = 4
"""The dealer's hidden cards."""
DEFAULT_SAMPLES = 1_000_000
DEFAULT_SHARED_SAMPLES = 200_000
DEFAULT_DRAW_SAMPLES = 100_000
DEFAULT_DRAW_SHARED_SAMPLES = 20_000
"""Situations sampled per figure in games with draws (each weighed in 1 to 41 ms)."""
DEFAULT_LONG_SAMPLES = 1_000
"""Situations sampled where exchanges reach five cards (each 5 to 20 s on one core)."""
LONG_SETS = 2
"""Sets of cards seen per such situation: its blind choices, the dearer part, serve all."""
LONG_ROWS = [(hole, 0, 0) for hole in range(1, 5)] + [(0, hands, 0) for hands in range(1, 5)]
"""The rows (hole cards, other hands, next cards seen) ``protection_tables`` weighs there
in one pass, with the next card seen."""
EXCHANGE_ROUNDS = 2**24
"""Paired rounds of the dealer's exchange card seen (16.8 million a side)."""
MAX_SHARED_HANDS = 4
SAMPLE_BLOCK = 65_536
DRAW_SAMPLE_BLOCK = 2_048
"""Sampled situations are weighed in blocks, so Ctrl-C and progress come often."""
ENUMERATED = (0, 1, HOLE_CARDS)
METHODS = {
    "enumerated": "every situation (hand, upcard, cards seen) weighed exactly",
    "sampled": "the exact optimal RTP plus the mean gain of seeing the cards over sampled "
    "situations, each weighed exactly; interval by the normal approximation",
}
SAMPLED_PLAY_METHODS = {
    "sampled optimum": "optimal play's RTP measured on sampled situations (studsim exact "
    "VARIANT -s optimal), its standard error from its 99.9% interval",
    "sampled": "the sampled optimal RTP plus the mean gain of seeing the cards over other "
    f"sampled situations, each weighed exactly with {LONG_SETS} sets of cards seen (the "
    "blind player's choices exact); the standard error combines both, the gain's over "
    "situations; interval by the normal approximation",
    "sampled, every next card": "the sampled optimal RTP plus the mean gain of seeing the "
    "next card of the deck over the same sampled situations, each weighed exactly over "
    "every card it can be; the standard error as above",
}
"""``METHODS`` where exchanges reach five cards."""
FLASHED_METHOD = {"method": "sampled, every next card"}

COVERED = (
    "games decided by folding or betting on the dealt cards (caribbean) or with draws "
    "(no card replaced after a buy where exchanges reach five cards)"
)
"""The games the protection figures weigh (``covers``), as errors name them."""
EXCHANGE_METHODS = {
    "paired": "the dealer's game bought exactly (his hand and his discard seen), and bought "
    "seeing the card his exchange brings, played on the same deals; the gain is the paired "
    "difference (standard error by batch means); the first row under optimal play is the "
    "exact optimal RTP with the game's measured gain, else the strategy's simulated RTP",
    "sampled situations": "the sampled situations of optimal play, each played again on "
    "the rounds that measured the game's gain: each round's gain of seeing the card his "
    "exchange brings (its expectation over the new cards) against the same gain had the "
    "player bet or folded his five cards, whose mean over the whole game is simulated on "
    "paired deals; the first row is the sampled optimal RTP with the game's measured gain",
}
"""How the card the dealer's exchange brings, seen, is measured (``exchange_card_rtp``)."""
NEVER_BOUGHT = "never bought, as in the optimal RTP"
"""The dealer's game in the figures, where the rules sell it."""
COLUMNS = ["rtp", "house_edge", "gain_over_optimal", "standard_error", "method"]
"""The figures of a row shown in tables, after what is seen."""
TABLES = {
    "hole_cards": ("hole_cards_known", "the dealer's hole cards seen"),
    "shared_hands": ("other_hands_seen", "other players' hands seen"),
    "next_card": ("next_cards_seen", "the next card of the deck seen before the draw"),
    "dealer_exchange": (
        "exchange_cards_seen",
        "the card the dealer's exchange brings seen before buying his game",
    ),
}
"""The protection tables: their names, the column of what is seen, their titles."""
_SHOWN = {"dealer_exchange": ["strategy", "rtp", "house_edge", "gain", "standard_error", "method"]}


def shown(name: str, table: pd.DataFrame) -> pd.DataFrame:
    """The columns of protection table ``name`` shown in tables: what is seen, then
    ``COLUMNS`` (the dealer's exchange: the strategy and the gain over not seeing it)."""
    return table[[TABLES[name][0], *_SHOWN.get(name, COLUMNS)]]


@functools.cache
def _every_value() -> np.ndarray:
    return kernels.every_value_jit()


def _optimal_rtp(variant: Variant) -> float:
    """The exact RTP of optimal play, seeing no hidden card."""
    return optimal_rtp(variant)["rtp"]


def methods(variant: Variant) -> dict[str, str]:
    """``METHODS`` of the tables ``protection_tables`` gives for ``variant``: where the
    dealer's game can be bought, that the others never buy it, and how his exchange
    card seen is measured."""
    sampled = sampled_optimum(variant)
    seeing = SAMPLED_PLAY_METHODS if sampled else METHODS
    if variant.buy_game is None:
        return seeing
    method = "sampled situations" if sampled else "paired"
    exchange = {method: EXCHANGE_METHODS[method]}
    return seeing | {"dealer's game": NEVER_BOUGHT} | exchange if covers(variant) else exchange


def covers(variant: Variant) -> bool:
    """Whether the protection figures weigh ``variant``: decided by folding or betting
    (without the dealer's game), or with draws (the game never bought; where exchanges
    reach five cards, no card replaced after a buy)."""
    if variant.has_draws:
        return supports_exact_draws(variant) or variant.replace_fee is None
    return variant.buy_game is None


def weighs(variant: Variant) -> bool:
    """Whether ``protection_tables`` has a table of ``variant``: ``covers`` it, or it
    sells the dealer's game (``exchange_card_rtp``)."""
    return covers(variant) or variant.buy_game is not None


def _check(variant: Variant, seen: int, most: int, what: str) -> None:
    if not covers(variant):
        raise ValueError(
            f"{variant.name}: the protection figures cover {COVERED}; this variant is "
            "not weighed with more cards seen yet"
        )
    if not 0 <= seen <= most:
        raise ValueError(f"{what} must be 0 to {most}, got {seen}")


def hole_card_rtp(
    variant: Variant | str,
    hole: int,
    *,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The RTP under optimal play when the player also sees ``hole`` of the dealer's hidden
    cards: enumerated for 0, 1 and 4 (unless ``samples`` is given), else from
    ``samples`` situations (default 1,000,000; in games with draws 100,000, where
    exchanges reach five cards 1,000; 0 hole cards is the optimal RTP) drawn from
    ``seed``; ``progress`` is called with the work done and its total."""
    variant = load_variant(variant)
    _check(variant, hole, HOLE_CARDS, "hole cards known")
    start = time.perf_counter()
    row = {"hole_cards_known": hole}
    if variant.has_draws:
        samples = samples or _draw_samples(variant, DEFAULT_DRAW_SAMPLES)
        row |= _draws_row(variant, (hole, 0, 0), samples, seed, progress)
    elif samples is None and hole in ENUMERATED:
        rtp = _optimal_rtp(variant) if hole == 0 else _enumerated(variant, hole, progress)
        row |= {"rtp": rtp, "method": "enumerated", "standard_error": 0.0}
    else:
        v, lists, every, key = variant.arrays(), value_lists(), _every_value(), _key(seed)

        def weigh(first: int, out: np.ndarray) -> None:
            kernels.sampled_gains_jit(v, lists, every, key, first, hole, out)

        gains = _sampled_gains(weigh, samples or DEFAULT_SAMPLES, progress)
        row |= _sampled_row(variant, gains, seed)
    return row | _edges(variant, row["rtp"], start)


def shared_hands_rtp(
    variant: Variant | str,
    hands: int,
    *,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The RTP under optimal play when the player also sees ``hands`` other players' hands
    (1 to 4, five cards each: dead for the dealer's hidden cards), from ``samples``
    situations (default 200,000; in games with draws 20,000, where exchanges reach five
    cards 1,000) drawn from ``seed``."""
    variant = load_variant(variant)
    _check(variant, hands, MAX_SHARED_HANDS, "other hands seen")
    start = time.perf_counter()
    row = {"other_hands_seen": hands}
    if variant.has_draws:
        samples = samples or _draw_samples(variant, DEFAULT_DRAW_SHARED_SAMPLES)
        row |= _draws_row(variant, (0, hands, 0), samples, seed, progress)
    elif hands == 0:
        row |= {"rtp": _optimal_rtp(variant), "method": "enumerated", "standard_error": 0.0}
    else:
        v, lists, key = variant.arrays(), value_lists(), _key(seed)

        def weigh(first: int, out: np.ndarray) -> None:
            kernels.shared_hands_gains_jit(v, lists, key, first, hands, out)

        gains = _sampled_gains(weigh, samples or DEFAULT_SHARED_SAMPLES, progress)
        row |= _sampled_row(variant, gains, seed)
    return row | _edges(variant, row["rtp"], start)


def flashed_card_rtp(
    variant: Variant | str,
    flashed: int,
    *,
    samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """In a game with draws, the RTP under optimal play when the player also sees the
    next card of the deck before he decides (``flashed`` 1; 0: the optimal RTP): the
    first card a draw takes, and dead for the dealer's hand; from ``samples``
    situations (default 100,000) drawn from ``seed``."""
    variant = load_variant(variant)
    _check(variant, flashed, 1, "next cards seen")
    if not variant.has_draws:
        raise ValueError(f"{variant.name}: no card is drawn, so none can be flashed")
    start = time.perf_counter()
    row = {"next_cards_seen": flashed}
    samples = samples or _draw_samples(variant, DEFAULT_DRAW_SAMPLES)
    row |= _draws_row(variant, (0, 0, flashed), samples, seed, progress)
    return row | _edges(variant, row["rtp"], start)


def _draw_samples(variant: Variant, default: int) -> int:
    """The situations sampled by default: ``default``, or where exchanges reach five
    cards ``DEFAULT_LONG_SAMPLES``."""
    return DEFAULT_LONG_SAMPLES if sampled_optimum(variant) else default


def _draws_row(variant: Variant, seen: tuple, samples: int, seed: int, progress):
    """The figures of a game with draws, the player seeing ``seen`` = (hole cards,
    other hands, next cards of the deck): the optimal RTP where nothing more is seen,
    else sampled."""
    if sampled_optimum(variant):
        return _long_rows(variant, [seen], samples, seed, progress)[0]
    optimal = _optimal_rtp(variant)
    if optimal is None:
        raise ValueError(
            f"{variant.name}: its optimal RTP is not weighed yet (studsim exact "
            f"{variant.name} -s optimal)"
        )
    if not any(seen):
        return {"rtp": optimal, "method": "enumerated", "standard_error": 0.0}
    v, lists = variant.arrays(), value_lists()
    tables, options = situation_tables(lists, v), first_options(variant)[0]
    fees, forced = variant.draw_arrays()
    figures = np.empty((samples, 3))

    holes, hands, flashed = seen

    def weigh(first: int, out: np.ndarray) -> None:
        rows, key = figures[first : first + len(out)], _key(seed)
        if flashed:
            draw_kernels.flashed_gains_jit(
                v, tables, lists, key, first, options, fees, forced, rows
            )
        else:
            draw_kernels.sampled_gains_jit(
                v, tables, lists, key, first, holes, hands, options, fees, forced, rows
            )
        out[:] = rows[:, 0]

    gains = _sampled_gains(weigh, samples, progress, DRAW_SAMPLE_BLOCK)
    blind = figures[:, 1] - figures[:, 2]
    row = _sampled_row(variant, gains, seed)
    row["blind_difference"] = {"mean": float(blind.mean()), "standard_error": _se(blind)}
    if variant.buy_game is not None:
        row["dealer_game"] = NEVER_BOUGHT
    return row


def _long_rows(
    variant: Variant,
    seen: list[tuple[int, int, int]],
    samples: int,
    seed: int,
    progress,
    path: Path | None = None,
) -> list[dict]:
    """The figures of a game exchanging up to five cards for each (hole cards, other
    hands, next cards of the deck) of ``seen``, one of them seen, all from the same
    ``samples`` situations (hole cards and hands: ``LONG_SETS`` sets of cards each): the
    sampled optimal RTP plus the mean gain. With ``path``, the situations weighed are
    written there block by block, and those there reused."""
    optimal = optimal_rtp(variant)
    if optimal["rtp"] is None:
        raise ValueError(f"{variant.name}: its optimal RTP is {optimal['method']}")
    optimal_se = _se_of(optimal["interval"])
    rows = [row[:2] for row in seen if any(row[:2])]
    if any(map(any, seen)):
        figures, blind, flashed = _weighed_situations(variant, rows, samples, seed, progress, path)
    game = {"dealer_game": NEVER_BOUGHT} if variant.buy_game is not None else {}

    def row_of(what: tuple[int, int, int]) -> dict:
        if any(what[:2]):
            weighed = figures[:, :, rows.index(what[:2])]
            return _long_row(optimal["rtp"], optimal_se, weighed, blind, seed) | game
        if what[2]:
            return _gain_row(optimal["rtp"], optimal_se, flashed, seed) | FLASHED_METHOD | game
        return {"rtp": optimal["rtp"], "method": "sampled optimum", "standard_error": optimal_se}

    return [row_of(what) for what in seen]


def _weighed_situations(variant, rows, samples, seed, progress, path) -> tuple:
    """(``figures[i, r, q]``: situation i's gain and blind EV weighed with its set r of
    cards seen as row q takes them, ``blind[i]``: its blind EV, ``flashed[i]``: its gain
    of seeing the next card), kept to float32 so that a run resumed from ``path`` gives
    the same figures as one run."""
    if samples < 2:
        raise ValueError(f"samples must be at least 2, got {samples}")
    key = f"{_long_key(variant)}-{seed}-{LONG_SETS}-{rows}"
    saved = read_keyed_npz(path, key) if path else None
    done = min(samples, len(saved["blind"])) if saved else 0
    figures = np.zeros((samples, LONG_SETS, len(rows), 2))
    blind, flashed = np.zeros(samples), np.zeros(samples)
    if saved:
        for weighed, name in ((figures, "figures"), (blind, "blind"), (flashed, "flashed")):
            weighed[:done] = saved[name][:done]
    v, lists, options = variant.arrays(), value_lists(), first_options(variant)[0]
    fees, forced = variant.draw_arrays()
    keys = np.array([_key(seed), _sets_key(seed)], dtype=np.uint64)
    wanted, pairs = np.array(rows, dtype=np.int64).reshape(-1, 2), needs_pair_tables(variant)
    step = 4 * numba.get_num_threads()
    for first in range(done, samples, step):
        part = slice(first, min(first + step, samples))
        weighed = figures[part], blind[part], flashed[part]
        long_kernels.sampled_gains_jit(
            v, lists, pairs, keys, first, wanted, options, fees, forced, *weighed
        )
        for each in weighed:
            each[...] = each.astype(np.float32)
        if path:
            kept = {
                name: each[: part.stop].astype(np.float32)
                for name, each in (("figures", figures), ("blind", blind), ("flashed", flashed))
            }
            write_npz(path, key=np.array(key), **kept)
        if progress:
            progress(part.stop, samples)
    return figures, blind, flashed


def _long_key(variant: Variant) -> str:
    """What keys the situations weighed where exchanges reach five cards: the rules and
    the code deciding them."""
    sources = (*DECISION_SOURCES, "_protection.py", "_protection_draws.py", "_protection_long.py")
    return f"{variant.rules_hash[:16]}-{source_hash(*sources)}"


def _sets_key(seed: int) -> np.uint64:
    """The key of the sets of cards seen on the situations of ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(1,)).generate_state(1, dtype=np.uint64)[0]


def _gain_row(optimal: float, optimal_se: float, gains: np.ndarray, seed: int) -> dict:
    """A row's figures from each sampled situation's gain (``gains``)."""
    gain_se = _se(gains)
    se = math.hypot(optimal_se, gain_se)
    rtp = optimal + float(gains.mean())
    return {
        "rtp": rtp,
        "method": "sampled",
        "standard_error": se,
        "gain_standard_error": gain_se,
        "rtp_ci999": [rtp - Z_999 * se, rtp + Z_999 * se],
        "samples": len(gains),
        "seed": seed,
    }


def _long_row(optimal: float, optimal_se: float, figures: np.ndarray, blind, seed) -> dict:
    """A row's figures from its gains and blind EVs weighed (``figures[i, r]``: situation
    i, set r) and the blind EVs (``blind``)."""
    gains = figures[:, :, 0].mean(axis=1)  # situations are independent, their sets not
    weighed = figures[:, :, 1].mean(axis=1) - blind
    return _gain_row(optimal, optimal_se, gains, seed) | {
        "sets_per_situation": figures.shape[1],
        "situations_changing_decision": float((figures[:, :, 0] > 0).mean()),
        "blind_difference": {"mean": float(weighed.mean()), "standard_error": _se(weighed)},
    }


def exchange_card_rtp(
    variant: Variant | str,
    strategy: Strategy | str | None = None,
    rounds: int = EXCHANGE_ROUNDS,
    *,
    seed: int = DEFAULT_SEED,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict]:
    """Where the dealer's game can be bought: the RTP when the player buys it exactly
    (seeing the dealer's hand and the card he discards) and when he also sees the card
    the exchange will bring. Under optimal play (``strategy`` None) where the table of
    the whole game is shipped (Six-Card), and under any other ``strategy``, from
    ``rounds`` rounds played both ways on the same deals (the paired difference's
    standard error by batch means); where optimal play is sampled (Russian, 1-2-5), on
    its sampled situations (``game_sampled.foreseen_card_gain``, the control over
    ``rounds`` paired deals). The first row is the optimal RTP with the game's measured
    gain, or the strategy's simulated RTP."""
    variant = load_variant(variant)
    if variant.buy_game is None:
        raise ValueError(f"{variant.name}: the dealer's game cannot be bought")
    if strategy is None and sampled_optimum(variant):
        return _sampled_exchange_rows(variant, rounds, progress)
    plan = optimal_strategy(variant) if strategy is None else load_strategy(strategy, variant)
    if plan.game_mode != GameMode.EXACT:
        raise ValueError(f"{plan.name}: does not buy the dealer's game exactly")
    foreseen = dataclasses.replace(plan, game_mode=engine.GAME_FORESEEN)
    results = []
    for side, played in enumerate((plan, foreseen)):
        shifted = progress and shifted_progress(progress, side * rounds, 2 * rounds)
        results.append(run(variant, played, rounds, seed=seed, threads=threads, progress=shifted))
    if any(result.interrupted for result in results):
        raise KeyboardInterrupt
    gain, gain_se = paired_difference(results[1], results[0])
    if math.isnan(gain_se):
        raise ValueError(f"the paired rounds need at least two blocks, got {rounds:,}")
    with_game = optimal_rtp(variant).get("with_game") if strategy is None else None
    if with_game is not None:
        bought = (with_game["rtp"], _se_of(with_game["rtp_interval_999"]), "exact + game gain")
    else:
        summary = results[0].summary
        bought = (summary["rtp"], summary["standard_error"], "simulated")
    common = {"strategy": plan.name, "rounds": rounds, "seed": seed}
    return _exchange_rows(bought, (gain, gain_se, "paired"), common)


def _sampled_exchange_rows(variant: Variant, rounds: int, progress) -> list[dict]:
    measured = foreseen_card_gain(variant, control_rounds=rounds, progress=progress)
    with_game = optimal_rtp(variant)["with_game"]  # measured on the same situations
    bought = (with_game["rtp"], _se_of(with_game["rtp_interval_999"]), "sampled + game gain")
    gain = (measured.pop("gain"), measured.pop("standard_error"), "sampled situations")
    return _exchange_rows(bought, gain, {"strategy": "optimal"} | measured)


def _exchange_rows(bought: tuple, gain: tuple, common: dict) -> list[dict]:
    """The rows of the dealer's exchange card unseen and seen: ``bought`` the (RTP,
    standard error, method) of the game bought exactly, ``gain`` what seeing the card
    adds."""
    (rtp, se, bought_method), (added, added_se, method) = bought, gain
    rows = [
        {"exchange_cards_seen": 0, "rtp": rtp, "standard_error": se, "method": bought_method,
         "gain": 0.0, "gain_standard_error": 0.0},
        {"exchange_cards_seen": 1, "rtp": rtp + added, "standard_error": math.hypot(se, added_se),
         "method": method, "gain": added, "gain_standard_error": added_se},
    ]  # fmt: skip
    return [row | common | {"house_edge": 1 - row["rtp"]} for row in rows]


def _se_of(interval: list[float]) -> float:
    """The standard error of a 99.9% normal interval."""
    low, high = interval
    return (high - low) / (2 * Z_999)


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / math.sqrt(len(values)))


def _sampled_row(variant: Variant, gains: np.ndarray, seed: int) -> dict:
    """The figures of sampled gains over optimal play."""
    se = _se(gains)
    rtp = _optimal_rtp(variant) + float(gains.mean())
    return {
        "rtp": rtp,
        "method": "sampled",
        "standard_error": se,
        "rtp_ci999": [rtp - Z_999 * se, rtp + Z_999 * se],
        "samples": len(gains),
        "seed": seed,
        "situations_changing_decision": float((gains > 0).mean()),
    }


def _edges(variant: Variant, rtp: float, start: float) -> dict:
    return {
        "house_edge": 1 - rtp,
        "gain_over_optimal": rtp - _optimal_rtp(variant),
        "seconds": time.perf_counter() - start,
    }


def _enumerated(variant: Variant, hole: int, progress) -> float:
    reps, weights = hand_classes()
    v, lists, every = variant.arrays(), value_lists(), _every_value()
    sums = np.empty(len(reps))
    if hole == HOLE_CARDS:
        kernels.whole_hand_jit(v, lists, every, reps, sums)
        per_class = math.comb(47, 5)
    else:
        step = 2048
        for first in range(0, len(reps), step):
            part = slice(first, first + step)
            kernels.upcard_and_holes_jit(v, lists, every, reps[part], hole, sums[part])
            if progress:
                progress(min(first + step, len(reps)), len(reps))
        per_class = 47 * (46 if hole else 1)
    return 1 + float(weights @ sums) / (int(weights.sum()) * per_class)


def _sampled_gains(
    weigh: Callable, samples: int, progress, block_size: int = SAMPLE_BLOCK
) -> np.ndarray:
    """The gains of ``samples`` situations, ``weigh(first, out)`` filling a block's."""
    if samples < 2:
        raise ValueError(f"samples must be at least 2, got {samples}")
    gains = np.empty(samples)
    for first in range(0, samples, block_size):
        block = gains[first : first + block_size]
        weigh(first, block)
        if progress:
            progress(first + len(block), samples)
    return gains


def _long_tables(variant: Variant, samples: int | None, seed: int, progress, folder) -> dict:
    """``protection_tables``' hole cards, other hands and the next card seen where
    exchanges reach five cards: every row from the same situations (``LONG_ROWS``), kept
    in ``folder``."""
    start = time.perf_counter()
    seen = [(0, 0, 0), *LONG_ROWS, (0, 0, 1)]
    path = None
    if folder is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        path = Path(folder) / f"protection-samples-seed{seed}.npz"
    samples = samples or DEFAULT_LONG_SAMPLES
    rows = _long_rows(variant, seen, samples, seed, progress, path)
    seconds = (time.perf_counter() - start) / len(seen)  # shared: each row its share
    tables = {}
    for column, name in enumerate(("hole_cards", "shared_hands", "next_card")):
        chosen = [
            {TABLES[name][0]: what[column]}
            | row
            | _edges(variant, row["rtp"], start)
            | {"seconds": seconds}
            for what, row in zip(seen, rows, strict=True)
            if not any(what[:column] + what[column + 1 :])
        ]
        tables[name] = pd.DataFrame(chosen)
    return tables


def played_with_hole_cards(
    variant: Variant | str, hole: int, rounds: int, seed: int = DEFAULT_SEED, flashed: int = 0
) -> dict:
    """Rounds played by a player who sees ``hole`` of the dealer's hidden cards and takes
    the option worth most (after an exchange, bets when that is worth more than
    folding), settled against the dealer's whole hand: the RTP and its standard error
    (a check of ``hole_card_rtp`` by another path). In a game with draws he may also
    see the next card of the deck (``flashed`` 1: ``flashed_card_rtp``'s check)."""
    variant = load_variant(variant)
    _check(variant, hole, HOLE_CARDS, "hole cards known")
    nets = np.empty(rounds)
    if variant.has_draws:
        v, lists, (fees, forced) = variant.arrays(), value_lists(), variant.draw_arrays()
        tables, options = situation_tables(lists, v), first_options(variant)[0]
        draw_kernels.played_rounds_jit(
            v, tables, lists, _key(seed), 0, (hole, flashed), options, fees, forced, nets
        )
    else:
        kernels.played_rounds_jit(
            variant.arrays(), _key(seed), 0, hole, value_lists(), _every_value(), nets
        )
    se = _se(nets)
    rtp = 1 + float(nets.mean())
    return {"rtp": rtp, "standard_error": se, "rtp_ci95": [rtp - Z95 * se, rtp + Z95 * se]}


def protection_tables(
    variant: Variant | str,
    *,
    samples: int | None = None,
    shared_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str, int, int], None] | None = None,
    enumerated: tuple[int, ...] = ENUMERATED,
    exchange_rounds: int = EXCHANGE_ROUNDS,
    folder: str | Path | None = None,
) -> dict[str, pd.DataFrame]:
    """The tables of ``TABLES`` that weigh ``variant``: where ``covers`` it,
    ``hole_card_rtp`` for 0 to 4 hole cards seen (enumerated where in ``enumerated``,
    else from ``samples``; games with draws sample all but none), ``shared_hands_rtp``
    for 0 to 4 other hands seen (from ``shared_samples``) and, in games with draws,
    ``flashed_card_rtp`` (from ``samples``); where the dealer's game is sold,
    ``exchange_card_rtp`` (from ``exchange_rounds``). Where exchanges reach five cards,
    the situations weighed are kept in ``folder`` as they finish (those there reused, so
    a longer run extends them)."""
    variant = load_variant(variant)

    def stage(name: str):
        return progress and (lambda done, total: progress(name, done, total))

    exchange = {}
    if variant.buy_game is not None:
        rows = exchange_card_rtp(
            variant, rounds=exchange_rounds, seed=seed, progress=stage("exchange card seen")
        )
        exchange["dealer_exchange"] = pd.DataFrame(rows)
        if not covers(variant):
            return exchange
    _check(variant, 0, 0, "")
    if sampled_optimum(variant):
        return _long_tables(variant, samples, seed, stage("cards seen"), folder) | exchange
    holes = [
        hole_card_rtp(
            variant,
            hole,
            samples=samples if variant.has_draws or hole not in enumerated else None,
            seed=seed,
            progress=stage(f"{hole} hole cards seen"),
        )
        for hole in range(HOLE_CARDS + 1)
    ]
    shared = [
        shared_hands_rtp(
            variant,
            hands,
            samples=shared_samples,
            seed=seed,
            progress=stage(f"{hands} hands seen"),
        )
        for hands in range(MAX_SHARED_HANDS + 1)
    ]
    tables = {"hole_cards": pd.DataFrame(holes), "shared_hands": pd.DataFrame(shared)}
    if variant.has_draws:
        flashed = [
            flashed_card_rtp(
                variant,
                seen,
                samples=samples,
                seed=seed,
                progress=stage("next card seen"),
            )
            for seen in (0, 1)
        ]
        tables["next_card"] = pd.DataFrame(flashed)
    return tables | exchange
