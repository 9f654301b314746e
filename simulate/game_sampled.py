"""What buying the dealer a game adds to optimal play where that play is sampled.

Russian and 6 Card Poker 1-2-5 sell the non-qualifying dealer a game, but their
optimal RTP is measured on sampled situations (``optimal_sampled``), so the game
is measured on the same situations. Each is played again with its best option
(found exactly: its EV equals the one sampled) on rounds dealt for it alone, every
decision after the first exact and the game bought exactly when worth more than
declining (``_game_rounds``); a situation's gain is the mean over its rounds.

The gain is lumpy (a dealt four of a kind gains several antes, most hands nothing),
so it is measured against a control: the same gain on the same dealer hands had
the player played as the best play without draws does (bet the five cards or
fold), whose mean over the whole game the engine measures on paired deals in a
minute. Where the best option is to bet the five cards the two are equal round by
round. The estimate is the control's mean plus the sampled mean difference; added
to each situation's difference to the proxy, it gives the RTP of the optimal first
decisions with the game bought exactly and its 99.9% interval (normal
approximation, both parts' errors combined): a lower bound of the optimal RTP with
the game (the first decisions are not weighed again for it), as in Six-Card
(``game_buy``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ._engine import GAME_FORESEEN
from ._exact import thrown_count_jit
from ._exact_play import no_decisions, situation_key_jit
from ._game_rounds import situation_game_gains_jit
from ._io import read_npz
from ._tables import cache_dir
from .codes import Action, GameMode
from .compare import paired_difference
from .exact import first_options, needs_pair_tables, no_draw_plays, value_lists
from .optimal import hand_class_maps, optimal_strategy
from .optimal_game import keep_arrays, kept_arrays
from .optimal_sampled import SampledOptimum, best_options, saved_sampled_optimum
from .simulation import DEFAULT_SEED, Z_999, run
from .variant import Variant

__all__ = [
    "CONTROL_ROUNDS",
    "SITUATION_ROUNDS",
    "SampledGameGain",
    "SituationGains",
    "best_choices",
    "control_gain",
    "foreseen_card_gain",
    "sampled_game_gain",
    "saved_sampled_game_gain",
    "situation_game_gains",
]

SITUATION_ROUNDS = 4096
"""Rounds dealt for each sampled situation by default."""
CONTROL_ROUNDS = 2**26
"""Paired rounds of the control's measurement over the whole game by default."""
BLOCK = 100
"""Situations measured between two saves."""
_EV_TOLERANCE = 1e-9
_ARRAYS = ("choices", "gains", "controls", "bought")  # one value per situation


class SituationGains(NamedTuple):
    """What the dealer's game adds in each of some situations, each a mean over its
    rounds (``_game_rounds``)."""

    gains: np.ndarray
    """Buying it exactly, in antes."""
    controls: np.ndarray
    """The same had the player bet his five cards or folded as the best play without
    draws does, on the same dealer hands."""
    bought: np.ndarray
    """The share of rounds in which it is bought."""
    foreseen: np.ndarray
    """What seeing the card the dealer's exchange brings adds to buying it exactly."""
    foreseen_controls: np.ndarray
    """The same in the control."""


@dataclass(frozen=True)
class SampledGameGain:
    """What buying the game exactly adds in each of the first sampled situations, and the
    control's mean over the whole game."""

    sample_seed: int
    """The seed of the sampled situations (``SampledOptimum.seed``)."""
    seed: int
    rounds: int
    """Rounds dealt for each situation."""
    choices: np.ndarray
    """Each situation's best first option, an index into ``exact.first_options``."""
    gains: np.ndarray
    controls: np.ndarray
    """The control's gain in each situation, on the same rounds."""
    bought: np.ndarray
    """The share of each situation's rounds in which the game is bought."""
    control_rounds: int = 0
    control_gain: float = math.nan
    """The control's mean over the whole game (paired deals of the engine), and its
    standard error."""
    control_se: float = math.nan

    def record(self, sampled: SampledOptimum) -> dict:
        """The measurement, and the RTP of optimal play with the game it gives with
        ``sampled`` (the optimum it was measured on), as JSON-ready data."""
        n = min(len(self.gains), sampled.samples)
        differences = self.gains[:n] - self.controls[:n]
        joint = sampled.gains[:n] - sampled.proxy.samples[:n] + differences
        difference, difference_se = sampled.stratified(differences)
        gain = self.control_gain + difference
        gain_se = math.hypot(self.control_se, difference_se)
        joint_mean, joint_se = sampled.stratified(joint)
        rtp = sampled.short.summary["rtp"] + sampled.proxy.mean + self.control_gain
        rtp += joint_mean
        half = Z_999 * math.hypot(self.control_se, joint_se)
        return {
            "method": "each sampled situation played again with its best first option on "
            "rounds dealt for it alone, every later decision exact, the dealer's game "
            "bought exactly when worth it; measured against a control, the same gain had "
            "the player bet or folded his five cards as the best play without draws does, "
            "whose mean over the whole game is simulated on paired deals; the interval "
            "combines that simulation's error and the spread over the situations of the "
            "difference to the control plus the situation's difference to the proxy",
            "situations": n,
            "rounds_per_situation": self.rounds,
            "seed": self.seed,
            "control_rounds": self.control_rounds,
            "control_gain": self.control_gain,
            "control_standard_error": self.control_se,
            "gain": gain,
            "gain_standard_error": gain_se,
            "gain_sd_without_control": float(self.gains[:n].std(ddof=1)),
            "difference_to_control_sd": float(differences.std(ddof=1)),
            "game_bought": float(self.bought[:n].mean()),
            "rtp": rtp,
            "rtp_interval_999": [rtp - half, rtp + half],
            "lower_bound": True,
            "how": f"simulated gain on {n:,} sampled situations, a lower bound",
        }


def game_name(variant: Variant) -> str:
    """File name of a variant's saved game gains on its sampled situations."""
    return f"{variant.name}-optimal-sampled-game-v1-{variant.rules_hash[:16]}.npz"


def saved_sampled_game_gain(variant: Variant) -> SampledGameGain | None:
    """The game gains shipped with the package or computed into the cache, if any."""
    return _of_arrays(kept_arrays(game_name(variant)))


def _of_arrays(saved: dict | None) -> SampledGameGain | None:
    if saved is None:
        return None
    names = [field.name for field in dataclasses.fields(SampledGameGain)]
    values = {name: saved[name] if name in _ARRAYS else saved[name].item() for name in names}
    return SampledGameGain(**values)


def _save(variant: Variant, gain: SampledGameGain, path: Path | None) -> None:
    keep_arrays(game_name(variant), {k: np.asarray(x) for k, x in vars(gain).items()}, path)


def _resumed(variant: Variant, seeds_and_rounds: tuple, path: Path | None) -> SampledGameGain:
    """The longest measurement of these (sample seed, seed, rounds) at ``path``, in the
    cache or shipped; else an empty one."""
    found = [_of_arrays(read_npz(where)) for where in (path, cache_dir() / game_name(variant))]
    found.append(saved_sampled_game_gain(variant))
    matching = [
        gain
        for gain in found
        if gain is not None and (gain.sample_seed, gain.seed, gain.rounds) == seeds_and_rounds
    ]
    if matching:
        return max(matching, key=lambda gain: len(gain.gains))
    empty = np.zeros(0)
    return SampledGameGain(*seeds_and_rounds, empty.astype(np.int64), empty, empty, empty)


def sampled_game_gain(
    sampled: SampledOptimum,
    rounds: int = SITUATION_ROUNDS,
    *,
    seed: int = DEFAULT_SEED,
    situations: int | None = None,
    control_rounds: int = CONTROL_ROUNDS,
    path: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SampledGameGain:
    """The game's gain on the first ``situations`` (default: all) situations of the
    sampled optimum ``sampled`` (``optimal_sampled.saved_sampled_optimum``), ``rounds``
    rounds each, and the control's mean over ``control_rounds`` paired deals; what was
    already measured with the same seeds and rounds (at ``path``, in the cache or
    shipped) kept, the rest measured in blocks, each saved (in the cache, and at
    ``path``) as it finishes, so an interruption keeps them."""
    variant = sampled.variant
    if variant.buy_game is None:
        raise ValueError(f"{variant.name}: the dealer's game cannot be bought")
    total = sampled.samples if situations is None else min(situations, sampled.samples)
    gain = _resumed(variant, (sampled.seed, seed, rounds), path)
    while len(gain.gains) < total:
        part = slice(len(gain.gains), min(len(gain.gains) + BLOCK, total))
        classes, upcards = sampled.classes[part], sampled.upcards[part].astype(np.int64)
        evs = sampled.short_evs[part], sampled.long_evs[part]
        choices = best_choices(variant, classes, upcards, *evs)
        measured = situation_game_gains(
            variant, classes, upcards, choices, rounds, seed=seed, first=part.start
        )
        gain = dataclasses.replace(
            gain,
            choices=np.concatenate([gain.choices, choices]),
            **{
                name: np.concatenate([getattr(gain, name), getattr(measured, name)])
                for name in _ARRAYS[1:]
            },
        )
        _save(variant, gain, path)
        if progress:
            progress(len(gain.gains), total)
    if gain.control_rounds != control_rounds:
        mean, se = control_gain(variant, control_rounds, seed=seed)
        gain = dataclasses.replace(
            gain, control_rounds=control_rounds, control_gain=mean, control_se=se
        )
        _save(variant, gain, path)
    return dataclasses.replace(gain, **{name: getattr(gain, name)[:total] for name in _ARRAYS})


def control_gain(
    variant: Variant,
    rounds: int = CONTROL_ROUNDS,
    *,
    seed: int = DEFAULT_SEED,
    foreseen: bool = False,
) -> tuple[float, float]:
    """(mean, standard error) over the whole game of what buying the game exactly adds to
    the best play without draws (``foreseen``: what seeing the card the dealer's
    exchange brings adds to that): the play simulated on paired deals, the game bought
    exactly and never (bought seeing the card and exactly)."""
    bought = optimal_strategy(variant, draws=False)
    if foreseen:
        plans = dataclasses.replace(bought, game_mode=GAME_FORESEEN), bought
    else:
        plans = bought, dataclasses.replace(bought, game_mode=GameMode.NEVER)
    results = [run(variant, plan, rounds, seed=seed) for plan in plans]
    return paired_difference(*results)


def foreseen_card_gain(
    variant: Variant,
    *,
    control_rounds: int = CONTROL_ROUNDS,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """What seeing the card the dealer's exchange brings, before buying his game, adds to
    optimal play buying it exactly, where that play is sampled: on the situations and
    rounds of the shipped measurement (``saved_sampled_game_gain``), each round's
    gain its expectation over the new cards, measured against the same gain in the
    control (``control_gain``, over ``control_rounds`` paired deals). Returns the gain,
    its standard error (both parts' combined) and how it was measured."""
    sampled = saved_sampled_optimum(variant)
    game = saved_sampled_game_gain(variant) if sampled else None
    if game is None or game.sample_seed != sampled.seed or len(game.gains) < 2:
        raise ValueError(
            f"{variant.name}: the dealer's game is not measured on its sampled "
            f"situations yet (studsim game-buy {variant.name})"
        )
    differences = []
    for start in range(0, len(game.gains), BLOCK):
        part = slice(start, min(start + BLOCK, len(game.gains)))
        measured = situation_game_gains(
            variant, sampled.classes[part], sampled.upcards[part].astype(np.int64),
            game.choices[part], game.rounds, seed=game.seed, first=start,
        )  # fmt: skip
        differences.append(measured.foreseen - measured.foreseen_controls)
        if progress:
            progress(part.stop, len(game.gains))
    difference = np.concatenate(differences)
    mean, se = control_gain(variant, control_rounds, seed=game.seed, foreseen=True)
    spread = float(difference.std(ddof=1)) / math.sqrt(len(difference))
    return {
        "gain": mean + float(difference.mean()),
        "standard_error": math.hypot(se, spread),
        "situations": len(difference),
        "rounds_per_situation": game.rounds,
        "control_rounds": control_rounds,
        "seed": game.seed,
    }


def best_choices(
    variant: Variant,
    classes: np.ndarray,
    upcards: np.ndarray,
    short_evs: np.ndarray,
    long_evs: np.ndarray,
) -> np.ndarray:
    """The best first option (an index into ``first_options``) of each sampled situation
    (class of five cards, upcard) whose best EVs without and with the long exchanges were
    sampled, computed again on the situation's key (``_exact_play``): the best short
    option, or where a long exchange is better, the best of the longer exchanges of the
    fewest cards whose EV is the one sampled. A choice whose EV differs from the sampled
    one by more than 1e-9 is an error."""
    hands = hand_class_maps()[0][classes]
    keyed = _situation_keys(hands, upcards) % 52
    options = first_options(variant)[0]
    thrown = np.array([thrown_count_jit(keep) for keep in options[:, 1]])
    exchange = options[:, 0] == Action.EXCHANGE
    short = np.flatnonzero(~exchange | (thrown <= 2))
    choices, evs = _best_of(variant, hands, keyed, options, short, False)
    wrong = np.flatnonzero(np.abs(evs - short_evs) > _EV_TOLERANCE)
    if len(wrong):
        raise ValueError(f"sampled situation {wrong[0]}: its best short option's EV differs")
    pending = np.flatnonzero(long_evs > short_evs)
    for count in sorted(set(thrown[exchange & (thrown > 2)])):
        if not len(pending):
            break
        group = np.flatnonzero(exchange & (thrown == count))
        found, evs = _best_of(
            variant, hands[pending], keyed[pending], options, group, needs_pair_tables(variant)
        )
        hit = np.abs(evs - long_evs[pending]) <= _EV_TOLERANCE
        choices[pending[hit]] = found[hit]
        pending = pending[~hit]
    if len(pending):
        raise ValueError(f"sampled situation {pending[0]}: no longer exchange has its EV")
    return choices


def _best_of(variant, hands, upcards, options, among, pairs) -> tuple[np.ndarray, np.ndarray]:
    """(the best option of ``among``, its EV) of each situation."""
    found, evs = best_options(variant, hands, upcards, options[among], pairs)
    return among[found], evs


def situation_game_gains(
    variant: Variant,
    classes: np.ndarray,
    upcards: np.ndarray,
    choices: np.ndarray,
    rounds: int = SITUATION_ROUNDS,
    *,
    seed: int = DEFAULT_SEED,
    first: int = 0,
) -> SituationGains:
    """What buying the game exactly adds in each situation (class of five cards, upcard)
    played with its first option ``choices`` over ``rounds`` rounds, and the rest of
    ``SituationGains``; situation ``j``'s rounds from the seed and its index
    ``first + j`` alone."""
    reps, class_of, perm_of, perms = hand_class_maps()
    hands = reps[classes]
    upcards = np.asarray(upcards, dtype=np.int64)
    keys = _situation_keys(hands, upcards)
    order = np.argsort(keys, kind="stable")
    memo_keys, first_of_key = np.unique(keys[order], return_index=True)
    lists = value_lists()
    exact = no_decisions()._replace(
        class_of=class_of, perm_of=perm_of, perms=perms, keys=memo_keys,
        choices=np.asarray(choices, dtype=np.int64)[order][first_of_key],
        options=first_options(variant)[0],
        values1=lists[0], values2=lists[1], values3=lists[2], values4=lists[3],
    )  # fmt: skip
    bets_five = no_draw_plays(variant)[keys // 52, keys % 52]
    fees, forced = variant.draw_arrays()
    gains = SituationGains(*np.empty((len(SituationGains._fields), len(hands))))
    situation_game_gains_jit(
        variant.arrays(), optimal_strategy(variant).decider, exact, fees, forced, hands,
        upcards, bets_five, first, np.uint64(seed), rounds, *gains,
    )  # fmt: skip
    return gains


def _situation_keys(hands: np.ndarray, upcards: np.ndarray) -> np.ndarray:
    """The key (``_exact_play``: class * 52 + upcard relabelled) of each situation."""
    maps = hand_class_maps()[1:]
    return np.array(
        [situation_key_jit(*maps, h, u)[0] for h, u in zip(hands, upcards, strict=True)],
        dtype=np.int64,
    )
