"""What buying the dealer a game adds to optimal play, measured on paired deals.

The exact engines weigh every deal with the dealer's game never bought. Played
twice on the same deals, once never buying it and once buying it exactly when it
is worth more than declining (the player sees the dealer's whole hand and the card
he will replace), the optimal strategy differs only where the dealer does not
qualify, so the paired difference has a small spread and tens of millions of
rounds know its mean closely. Added to the exact RTP it gives the RTP of the
optimal first decisions with the game bought exactly: a lower bound of the
optimal RTP with the game (the first decisions are not weighed again for it).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._exact import situation_tables_jit
from ._game_value import bet_gain_jit, buy_evs_jit
from .codes import GameMode
from .compare import paired_difference
from .exact import nonqualifying_dealers, value_lists
from .game_strata import StratifiedSamples
from .optimal import optimal_strategy
from .optimal_game import keep_arrays, kept_arrays, table_name
from .simulation import DEFAULT_SEED, Z_999, run
from .variant import Variant, load_variant

__all__ = [
    "GAME_ROUNDS",
    "GameBuyGain",
    "game_buy_gain",
    "save_game_gain",
    "saved_game_gain",
    "situation_gain",
    "with_first_decisions",
    "with_rounds",
]

GAME_ROUNDS = 2**27
"""Rounds of the measurement by default (134 million: about four minutes a side)."""


@dataclass(frozen=True)
class GameBuyGain:
    """The RTP buying the dealer a game adds to optimal play, simulated on paired deals."""

    rounds: int
    seed: int
    gain: float
    standard_error: float
    decisions: StratifiedSamples | None = None
    """``situation_gain`` of sampled situations, if measured."""

    @property
    def interval(self) -> tuple[float, float]:
        """The gain's 99.9% interval (normal approximation)."""
        half = Z_999 * self.standard_error
        return self.gain - half, self.gain + half

    def record(self, exact_rtp: float | None = None) -> dict:
        """The measurement as JSON-ready data; with the exact RTP without the game, the
        RTP with it and its interval."""
        record = {
            "method": "optimal play simulated twice on the same deals, the dealer's game "
            "never bought and bought exactly when worth it; the paired difference's "
            "standard error by batch means over blocks of rounds",
            "rounds": self.rounds,
            "seed": self.seed,
            "gain": self.gain,
            "gain_standard_error": self.standard_error,
            "gain_interval_999": list(self.interval),
            "how": f"simulated gain on {self.rounds:,} paired deals, a lower bound",
        }
        gain, variance = self.gain, self.standard_error**2
        if self.decisions is not None and self.decisions.estimable:
            n, stratified = len(self.decisions), self.decisions.stratified
            mean, se = self.decisions.estimate()
            dealt = (
                "situations dealt within strata (the dealt five cards' category, and "
                "whether the upcard pairs one of them), their means weighed by the strata's "
                "exact shares"
                if stratified
                else "situations dealt at random"
            )
            record["first_decisions"] = {
                "method": f"on {dealt}: the best option's exact EV with the game weighed "
                "in the first decision and in the choices after a buy, less the EV of "
                "the option best without it (the play simulated above)",
                "samples": n,
                "seed": self.decisions.seed,
                "gain": mean,
                "gain_standard_error": se,
                "situations_changed": int((self.decisions.values > 0).sum()),
                "strata": self.decisions.by_stratum() if stratified else None,
            }
            record["how"] = f"simulated gain, first decisions weighed on {n:,} situations" + (
                " in strata" if stratified else ""
            )
            gain, variance = gain + mean, variance + se**2
        if exact_rtp is not None:
            half = Z_999 * math.sqrt(variance)
            record["rtp"] = exact_rtp + gain
            record["rtp_interval_999"] = [exact_rtp + gain - half, exact_rtp + gain + half]
            record["lower_bound"] = "first_decisions" not in record
        return record


def game_buy_gain(
    variant: Variant | str,
    rounds: int = GAME_ROUNDS,
    *,
    seed: int = DEFAULT_SEED,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameBuyGain:
    """What buying the dealer a game exactly adds to the RTP of optimal play, from the
    table of the whole game's best first options; ``progress`` is called with the
    rounds played so far (of both runs) and their number."""
    variant = load_variant(variant)
    if variant.buy_game is None:
        raise ValueError(f"{variant.name}: the dealer's game cannot be bought")
    bought = optimal_strategy(variant)
    if bought.exact_play.table is None:
        raise ValueError(
            f"{variant.name}: the game buy is measured against the table of the whole game "
            f"(studsim exact {variant.name} -s optimal)"
        )
    plans = bought, dataclasses.replace(bought, game_mode=GameMode.NEVER)
    results = []
    for side, plan in enumerate(plans):
        played = shifted_progress(progress, side * rounds, 2 * rounds) if progress else None
        results.append(run(variant, plan, rounds, seed=seed, threads=threads, progress=played))
    if any(result.interrupted for result in results):
        raise KeyboardInterrupt
    gain, se = paired_difference(*results)
    if math.isnan(se):
        raise ValueError(f"the game buy needs at least two blocks of rounds, got {rounds:,}")
    return GameBuyGain(rounds, seed, gain, se)


def shifted_progress(progress: Callable[[int, int], None], before: int, total: int) -> Callable:
    """The progress of one run of several: called with the rounds of all so far."""
    return lambda done: progress(before + done, total)


def save_game_gain(variant: Variant, gain: GameBuyGain, path: Path | None = None) -> None:
    """Keep the measurement with the saved table of the whole game (and at ``path``)."""
    arrays = kept_arrays(table_name(variant))
    if arrays is None:
        raise ValueError(f"{variant.name}: no table of the whole game to keep it with")
    arrays |= {
        "game_rounds": np.array(gain.rounds),
        "game_seed": np.array(gain.seed),
        "game_gain": np.array(gain.gain),
        "game_gain_se": np.array(gain.standard_error),
    }
    if gain.decisions is not None:
        arrays["game_decisions"] = gain.decisions.values
        arrays["game_decision_strata"] = gain.decisions.strata
        arrays["game_decision_streams"] = gain.decisions.streams
        arrays["game_decision_seconds"] = gain.decisions.seconds
        arrays["game_decision_seed"] = np.array(gain.decisions.seed)
    keep_arrays(table_name(variant), arrays, path)


def saved_game_gain(variant: Variant) -> GameBuyGain | None:
    """The measurement kept with the table of the whole game, if any."""
    saved = kept_arrays(table_name(variant))
    if saved is None or "game_gain" not in saved:
        return None
    decisions = None
    if "game_decisions" in saved:
        decisions = StratifiedSamples(
            int(saved["game_decision_seed"]),
            saved["game_decisions"],
            saved["game_decision_strata"],
            saved["game_decision_streams"],
            saved["game_decision_seconds"],
        )
    return GameBuyGain(
        int(saved["game_rounds"]),
        int(saved["game_seed"]),
        float(saved["game_gain"]),
        float(saved["game_gain_se"]),
        decisions,
    )


def with_rounds(
    variant: Variant,
    gain: GameBuyGain,
    rounds: int,
    *,
    path: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameBuyGain:
    """``gain`` measured again on ``rounds`` paired rounds (its seed and first decisions
    kept), saved with the table of the whole game."""
    measured = game_buy_gain(variant, rounds, seed=gain.seed, progress=progress)
    gain = dataclasses.replace(measured, decisions=gain.decisions)
    save_game_gain(variant, gain, path)
    return gain


def with_first_decisions(
    variant: Variant,
    gain: GameBuyGain,
    samples: int,
    *,
    seed: int = DEFAULT_SEED,
    block: int = 25,
    path: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameBuyGain:
    """``gain`` with its first decisions weighed again on ``samples`` situations: those
    already measured with this seed kept, the rest dealt within strata
    (``StratifiedSamples.more``) and computed in blocks, each saved with the table
    of the whole game as it finishes (an interruption keeps them)."""
    done = gain.decisions
    if done is None or done.seed != seed:
        done = StratifiedSamples.empty(seed)
    done = done.first(samples)
    while len(done) < samples:
        done = done.more(
            min(block, samples - len(done)),
            lambda hand, upcard: situation_gain(variant, hand, upcard),
        )
        save_game_gain(variant, dataclasses.replace(gain, decisions=done), path)
        if progress:
            progress(len(done), samples)
    return dataclasses.replace(gain, decisions=done)


def situation_gain(variant: Variant | str, hand: np.ndarray, upcard: int) -> float:
    """What weighing the dealer's game in the first decision (and in the choices after
    a buy) adds, on five increasing cards and an upcard, to optimal play that buys the
    game exactly but decides without it (the play ``game_buy_gain`` measures): the best
    option's EV with the game against the EV, game bought, of the option best without
    it. Every EV exact. Variants whose first options are fold, play and buy
    (Six-Card)."""
    variant = load_variant(variant)
    if variant.buy_game is None or variant.buy_fee is None or variant.exchange_fees:
        raise ValueError(
            f"{variant.name}: the first decisions are weighed again for the game where the "
            "options are fold, play and buy a sixth card, and a game can be bought"
        )
    v, lists = variant.arrays(), value_lists()
    unseen = np.setdiff1d(np.arange(52), np.append(hand, upcard)).astype(np.int64)
    tables = situation_tables_jit(lists, upcard, hand, unseen, False)
    dealers = nonqualifying_dealers(variant, upcard, unseen)
    play, play_gain = bet_gain_jit(v, tables, lists, dealers, hand, upcard, unseen)
    buy = buy_evs_jit(v, tables, lists, dealers, hand, upcard, unseen, variant.replace_fee)
    buy -= variant.buy_fee
    without_game = [-1.0, play, buy[0]]
    engine = [-1.0, play + play_gain, buy[2]][int(np.argmax(without_game))]
    return float(max(-1.0, play + play_gain, buy[1]) - engine)
