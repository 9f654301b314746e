"""Situations sampled by stratum: the category of the five cards dealt, and whether
the upcard pairs one of them.

Weighing the dealer's game again in the first decision changes it mostly in a few
kinds of hands (three of a kind, played without the game, buys a sixth card with
it, unless the upcard pairs one of its cards), so a mean over situations dealt at
random varies mostly with how many of those it happens to draw. Sampled within
strata whose shares of the game are known exactly (the five-card category counts;
an upcard pairs 4d - 5 of the 47 cards left, d the hand's distinct ranks), and more
often where the figure varies more and costs less (Neyman's allocation), the same
time knows the mean several times more closely. Situations dealt from the whole
game fall in their strata too and are pooled with those dealt within them: both are
draws of the stratum's situations.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .evaluator import count_categories, hand_category

__all__ = [
    "CATEGORIES",
    "MIN_PER_STRATUM",
    "STRATA",
    "StratifiedSamples",
    "dealt_situation",
    "next_streams",
    "stratum_of",
    "stratum_weights",
]

CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house or better",
)
STRATA = tuple(
    f"{category}, upcard {pairs}" for category in CATEGORIES for pairs in ("apart", "pairs")
)
_GROUP_OF_CATEGORY = (0, 0, 1, 2, 3, 4, 5, 6, 6, 6, 6)  # by Category code
_DISTINCT_RANKS = (5, 5, 4, 3, 3, 5, 5, 2, 2, 5, 5)  # of a hand of each category
WHOLE_GAME = -1
"""The stream of situations dealt from the whole game."""
MIN_PER_STRATUM = 10
"""Situations each stratum gets before the rest go where the gain varies most."""


def stratum_of(hand: np.ndarray, upcard: int) -> int:
    """The stratum (index of ``STRATA``) of five dealt cards and the upcard."""
    pairs = upcard // 4 in {card // 4 for card in hand.tolist()}
    return 2 * _GROUP_OF_CATEGORY[hand_category(hand)] + pairs


@functools.cache
def stratum_weights() -> np.ndarray:
    """Each stratum's exact share of the situations."""
    weights = np.zeros(len(STRATA))
    for category, count in count_categories(5).items():
        pairing = 4 * _DISTINCT_RANKS[category] - 5
        group = 2 * _GROUP_OF_CATEGORY[category]
        weights[group] += count * (47 - pairing) / 47
        weights[group + 1] += count * pairing / 47
    return weights / math.comb(52, 5)


def dealt_situation(seed: int, stream: int, index: int) -> tuple[np.ndarray, int]:
    """Situation ``index`` of ``stream`` (five increasing cards and the upcard), from
    ``seed``, ``stream`` and ``index`` alone: dealt from the whole game (``WHOLE_GAME``),
    or dealt again until it falls in stratum ``stream``."""
    if stream == WHOLE_GAME:
        rng = np.random.default_rng([seed, index])
    else:  # the last word keeps the stream apart from the whole game's (zero-padded)
        rng = np.random.default_rng([seed, index, stream, 1])
    while True:
        deck = rng.permutation(52)
        hand, upcard = np.sort(deck[:5]).astype(np.int64), int(deck[5])
        if stream == WHOLE_GAME or stratum_of(hand, upcard) == stream:
            return hand, upcard


@dataclass(frozen=True)
class StratifiedSamples:
    """Situations on which a figure was measured: each one's value, its stratum, the
    stream it was dealt from (``WHOLE_GAME`` or its stratum) and the seconds it took
    (NaN: not timed), in the order dealt (so a stream's situations are its first
    ones)."""

    seed: int
    values: np.ndarray
    strata: np.ndarray
    streams: np.ndarray
    seconds: np.ndarray

    @classmethod
    def empty(cls, seed: int) -> StratifiedSamples:
        return cls(seed, np.empty(0), np.empty(0, np.int8), np.empty(0, np.int8), np.empty(0))

    def __len__(self) -> int:
        return len(self.values)

    def dealt(self, stream: int) -> int:
        """How many situations ``stream`` has dealt."""
        return int((self.streams == stream).sum())

    def first(self, n: int) -> StratifiedSamples:
        """The first ``n`` situations measured."""
        return StratifiedSamples(
            self.seed, self.values[:n], self.strata[:n], self.streams[:n], self.seconds[:n]
        )

    def extended(self, values, strata, streams, seconds) -> StratifiedSamples:
        """These situations and more."""
        return StratifiedSamples(
            self.seed,
            np.concatenate([self.values, values]),
            np.concatenate([self.strata, np.asarray(strata, np.int8)]),
            np.concatenate([self.streams, np.asarray(streams, np.int8)]),
            np.concatenate([self.seconds, seconds]),
        )

    def more(self, count: int, measure: Callable[[np.ndarray, int], float]) -> StratifiedSamples:
        """These situations and ``count`` more, dealt in the streams ``next_streams``
        gives, each measured by ``measure(hand, upcard)`` and timed."""
        streams = next_streams(self, count)
        values, strata, seconds = [], [], []
        for stream in streams:
            index = self.dealt(stream) + streams[: len(values)].count(stream)
            hand, upcard = dealt_situation(self.seed, stream, index)
            start = time.perf_counter()
            values.append(measure(hand, upcard))
            seconds.append(time.perf_counter() - start)
            strata.append(stratum_of(hand, upcard))
        return self.extended(values, strata, streams, seconds)

    @property
    def stratified(self) -> bool:
        """Whether every stratum holds two situations (else the estimate is the mean of
        those dealt from the whole game)."""
        return bool((self.counts() >= 2).all())

    @property
    def estimable(self) -> bool:
        """Whether stratified, or two situations were dealt from the whole game."""
        return self.stratified or self.dealt(WHOLE_GAME) >= 2

    def counts(self) -> np.ndarray:
        return np.bincount(self.strata, minlength=len(STRATA))

    def by_stratum(self) -> list[dict]:
        """Per stratum: its share of the game, situations, mean, standard deviation and
        mean seconds a situation (NaN: none timed)."""
        rows = []
        for k, (name, weight) in enumerate(zip(STRATA, stratum_weights(), strict=True)):
            values, seconds = self.values[self.strata == k], self.seconds[self.strata == k]
            timed = seconds[~np.isnan(seconds)]
            rows.append({
                "stratum": name,
                "weight": float(weight),
                "samples": len(values),
                "mean": float(values.mean()) if len(values) else math.nan,
                "standard_deviation": float(values.std(ddof=1)) if len(values) > 1 else math.nan,
                "seconds": float(timed.mean()) if len(timed) else math.nan,
            })  # fmt: skip
        return rows

    def estimate(self) -> tuple[float, float]:
        """The mean over the whole game and its standard error: stratified where every
        stratum holds two situations, else from those dealt from the whole game."""
        if not self.estimable:
            raise ValueError(
                "a mean needs two situations in every stratum or two from the whole game"
            )
        if self.stratified:
            rows = self.by_stratum()
            mean = sum(row["weight"] * row["mean"] for row in rows)
            variance = sum(
                (row["weight"] * row["standard_deviation"]) ** 2 / row["samples"] for row in rows
            )
            return mean, math.sqrt(variance)
        values = self.values[self.streams == WHOLE_GAME]
        return float(values.mean()), float(values.std(ddof=1)) / math.sqrt(len(values))


def next_streams(samples: StratifiedSamples, count: int) -> list[int]:
    """The streams of the next ``count`` situations: strata short of
    ``MIN_PER_STRATUM`` first, then the strata furthest below Neyman's allocation
    (situations in proportion to a stratum's share times its standard deviation over
    the square root of its seconds a situation, the mean of all timed where it has
    none timed)."""
    rows = samples.by_stratum()
    spread = np.array([row["standard_deviation"] for row in rows])
    seconds = np.array([row["seconds"] for row in rows])
    timed = samples.seconds[~np.isnan(samples.seconds)]
    seconds[np.isnan(seconds)] = timed.mean() if len(timed) else 1.0
    share = stratum_weights() * np.nan_to_num(spread) / np.sqrt(seconds)
    counts, total = samples.counts(), len(samples) + count
    target = total * share / share.sum() if share.sum() > 0 else np.zeros(len(STRATA))
    streams = []
    for _ in range(count):
        short = np.flatnonzero(counts < MIN_PER_STRATUM)
        k = int(short[0]) if len(short) else int(np.argmax(target - counts))
        streams.append(k)
        counts[k] += 1
    return streams
