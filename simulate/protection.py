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
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from . import _protection as kernels
from . import _protection_draws as draw_kernels
from ._exact import canonical_hands_jit
from .exact import first_options, value_lists
from .optimal_game import situation_tables, supports_exact_draws
from .optimum import optimal_rtp
from .simulation import DEFAULT_SEED, Z95, Z_999, _key
from .variant import Variant, load_variant

__all__ = [
    "COLUMNS",
    "COVERED",
    "HOLE_CARDS",
    "METHODS",
    "TABLES",
    "covers",
    "flashed_card_rtp",
    "hole_card_rtp",
    "methods",
    "played_with_hole_cards",
    "protection_tables",
    "shared_hands_rtp",
]

HOLE_CARDS = 4
"""The dealer's hidden cards."""
DEFAULT_SAMPLES = 1_000_000
DEFAULT_SHARED_SAMPLES = 200_000
DEFAULT_DRAW_SAMPLES = 100_000
DEFAULT_DRAW_SHARED_SAMPLES = 20_000
"""Situations sampled per figure in games with draws (each weighed in 1 to 41 ms)."""
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

COVERED = (
    "games decided by folding or betting on the dealt cards (caribbean) or with draws of "
    "one or two cards (oasis, six-card)"
)
"""The games the protection figures weigh (``covers``), as errors name them."""
NEVER_BOUGHT = "never bought, as in the optimal RTP"
"""The dealer's game in the figures, where the rules sell it."""
COLUMNS = ["rtp", "house_edge", "gain_over_optimal", "standard_error", "method"]
"""The figures of a row shown in tables, after what is seen."""
TABLES = {
    "hole_cards": ("hole_cards_known", "the dealer's hole cards seen"),
    "shared_hands": ("other_hands_seen", "other players' hands seen"),
    "next_card": ("next_cards_seen", "the next card of the deck seen before the draw"),
}
"""The protection tables: their names, the column of what is seen, their titles."""


@functools.cache
def _every_value() -> np.ndarray:
    return kernels.every_value_jit()


def _optimal_rtp(variant: Variant) -> float:
    """The exact RTP of optimal play, seeing no hidden card."""
    return optimal_rtp(variant)["rtp"]


def methods(variant: Variant) -> dict[str, str]:
    """``METHODS``, and where the dealer's game can be bought, that it never is."""
    if variant.buy_game is None:
        return METHODS
    return METHODS | {"dealer's game": NEVER_BOUGHT}


def covers(variant: Variant) -> bool:
    """Whether the protection figures weigh ``variant``: decided by folding or betting
    (without the dealer's game), or with draws of one or two cards too (the game never
    bought)."""
    if variant.has_draws:
        return supports_exact_draws(variant)
    return variant.buy_game is None


def _check(variant: Variant, seen: int, most: int, what: str) -> None:
    if not covers(variant):
        raise ValueError(
            f"{variant.name}: the protection figures cover {COVERED}; longer exchanges "
            "are not weighed with more cards seen yet"
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
    ``samples`` situations (default 1,000,000; in games with draws 100,000, and 0
    hole cards is the optimal RTP) drawn from ``seed``; ``progress`` is called with the
    work done and its total."""
    variant = load_variant(variant)
    _check(variant, hole, HOLE_CARDS, "hole cards known")
    start = time.perf_counter()
    row = {"hole_cards_known": hole}
    if variant.has_draws:
        row |= _draws_row(variant, (hole, 0, 0), samples or DEFAULT_DRAW_SAMPLES, seed, progress)
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
    situations (default 200,000; in games with draws 20,000) drawn from ``seed``."""
    variant = load_variant(variant)
    _check(variant, hands, MAX_SHARED_HANDS, "other hands seen")
    start = time.perf_counter()
    row = {"other_hands_seen": hands}
    if variant.has_draws:
        samples = samples or DEFAULT_DRAW_SHARED_SAMPLES
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
    row |= _draws_row(variant, (0, 0, flashed), samples or DEFAULT_DRAW_SAMPLES, seed, progress)
    return row | _edges(variant, row["rtp"], start)


def _draws_row(variant: Variant, seen: tuple, samples: int, seed: int, progress):
    """The figures of a game with draws, the player seeing ``seen`` = (hole cards,
    other hands, next cards of the deck): the optimal RTP where nothing more is seen,
    else sampled."""
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
    reps, weights = canonical_hands_jit()
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
) -> dict[str, pd.DataFrame]:
    """The tables of ``TABLES``: ``hole_card_rtp`` for 0 to 4 hole cards seen (enumerated
    where in ``enumerated``, else from ``samples``; games with draws sample all but
    none), ``shared_hands_rtp`` for 0 to 4 other hands seen (from ``shared_samples``)
    and, in games with draws, ``flashed_card_rtp`` (from ``samples``)."""
    variant = load_variant(variant)

    def stage(name: str):
        return progress and (lambda done, total: progress(name, done, total))

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
    return tables
