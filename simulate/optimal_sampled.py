"""The optimal RTP of a variant that exchanges up to five cards, measured.

Its whole game cannot be enumerated here, but the same game restricted to
draws of at most two cards can (``optimal_game``): optimal play there is a
strategy of the full game, so its exact RTP bounds the optimal RTP from below.
What the longer exchanges add is measured on situations (class of five
cards, upcard) sampled as often as they are dealt, every option of each
weighed exactly: the gain of a situation is how much its best exchange of
three or more cards beats its best other option (zero where none does).
The samples measure the gain's difference to a proxy that is computed for
every situation (``proxy``), so the estimate is the proxy's exact mean plus
the sampled mean difference, which varies much less than the gain. The interval
that needs no normal approximation takes the difference's range from a proven bound
of every situation's gain, weighed over the whole game too (``gain_bound``).

The samples may instead measure the gain's difference to the control (``proxy``, a ramp),
the proxy with the discards' removal taken past the fold line, whose difference varies
about three times less in Russian; the situations are drawn by the proxy's strata all
the same.

The split is a choice (``short_draws``): with 0, only folding, playing and
buying are enumerated (minutes, not most of an hour) and every exchange is
measured on the samples, against the same proxy; the difference then varies
a little more, so it takes more samples, but where exchanges are worth much
(Russian) the time to a given interval is shorter.

The situations may instead be sampled by their proven bound (``by_bound``): as often
as they are dealt times their bound, those bounded to no gain never, each difference
weighed by the game's mean bound over its own (importance sampling). The weighed
difference then lies within plus or minus the mean bound, not the largest: the
interval that needs no normal approximation narrows about as much. The proxy and the
control never exceed the bound (their final hands' values are at most the bound's, the
fees the same, their best short option at least folding or betting), so where the
bound is zero they are too.

Samples are drawn in blocks, each from its own stream of the seed, and the
samples weighed so far are written to a checkpoint file after each block: a
longer run extends them, and the figures do not depend on how the run was
split.
"""

from __future__ import annotations

__all__ = [
    "SHORT_DRAWS",
    "SampledOptimum",
    "discard_sampled",
    "run_suffix",
    "sampled_optimum",
    "save_sampled_optimum",
    "saved_sampled_optimum",
    "short_game",
    "thinned",
]

import dataclasses
import functools
import math
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np

from ._decisions import best_options_jit
from ._exact import thrown_count_jit
from ._io import read_keyed_npz, read_npz, write_npz
from ._tables import source_hash
from .cluster import current_client, unit_results
from .codes import Action
from .exact import ExactResult, first_options, hand_classes, needs_pair_tables, value_lists
from .gain_bound import BOUND_SOURCES, GainBounds, gain_bounds
from .intervals import TRUNCATION, betting_interval
from .optimal_game import (
    DECISION_SOURCES,
    exact_optimal_game,
    keep_arrays,
    kept_arrays,
    optimal_result_of_totals,
)
from .provenance import software
from .proxy import RAMP, ProxyGains, proxy_gains
from .simulation import DEFAULT_SEED, Z_999
from .variant import Variant, with_draws_up_to

SAMPLED_VERSION = 2
SHORT_DRAWS = 2
"""The longest exchange of the enumerated game."""
THIN = 1
"""By default every situation drawn is weighed (see ``thinned``)."""
BLOCK = 20
"""Situations weighed between two checkpoints."""
BOUND_CANDIDATES = 64
"""Sampling by the bound: situations drawn as dealt per situation weighed, of which each
is kept with probability its bound over the largest (the mean bound over the largest is
about 1/4 in the split of two-card exchanges, 1/32 in Russian's split of none)."""
ACCEPTANCE = 2**40
"""Of the seed's streams, the one of the uniforms that keep candidates: beyond any block's."""
ALPHA = 0.001
"""Of the 99.9% intervals."""
PROXY_SOURCES = ("_proxy.py", "proxy.py")
"""The modules whose code makes the proxy's and the control's gains."""
RAMPS = {"proxy": 0.0, "control": RAMP}
_SAMPLE_ARRAYS = {
    "classes": np.int32,
    "upcards": np.int8,
    "short_evs": float,
    "long_evs": float,
    "seconds": float,  # of computing, a block's shared by its situations
}


@dataclass
class SampledOptimum:
    """Optimal play of a variant with long exchanges: the enumerated short-draw game and
    the sampled gain of the longer exchanges."""

    variant: Variant
    short: ExactResult
    """The game restricted to exchanges of at most ``short_draws`` cards, enumerated."""
    short_totals: np.ndarray
    """Its counts of every (first decision, outcome, final category) cell."""
    classes: np.ndarray
    upcards: np.ndarray
    short_evs: np.ndarray
    """Each sampled situation's best EV without the long exchanges, in antes."""
    long_evs: np.ndarray
    """Its best EV of a longer exchange."""
    seed: int
    seconds: float
    """Of computing the short-draw game and the samples, however many runs it took."""
    proxy: ProxyGains
    """The proxy gain over the whole game and on the samples."""
    short_draws: int = SHORT_DRAWS
    thin: int = THIN
    """Of the situations drawn whose proxy gain is zero, one in ``thin`` is weighed."""
    control: ProxyGains | None = None
    """What the samples measure against, if not the proxy (``control``)."""
    bounds: np.ndarray | None = None
    """Sampled by the bound (``by_bound``): each sample's bound."""
    bound_mean: float = math.nan
    """Then the game's mean bound, as dealt."""

    @property
    def by_bound(self) -> bool:
        return self.bounds is not None

    @property
    def short_game(self) -> str:
        """What the enumerated game allows, in words."""
        if self.short_draws:
            return f"exchanges of at most {self.short_draws} cards"
        return "no exchange (fold, play, buy)"

    @property
    def long_exchanges(self) -> str:
        """What the samples measure, in words."""
        return "longer exchanges" if self.short_draws else "exchanges"

    @property
    def reference(self) -> ProxyGains:
        """What the samples measure the gain against: the control, else the proxy."""
        return self.control or self.proxy

    @property
    def gains(self) -> np.ndarray:
        """What the longer exchanges add to each sampled situation, in antes."""
        return np.maximum(0.0, self.long_evs - self.short_evs)

    @property
    def samples(self) -> int:
        return len(self.gains)

    @property
    def _sampling(self) -> str:
        """How the situations were drawn, in words."""
        if self.by_bound:
            return (
                "sampled as often as they are dealt times a proven bound of their gain "
                "(those bounded to no gain never)"
            )
        if self.thin == THIN:
            return "sampled as often as they are dealt"
        return (
            "sampled as often as they are dealt, then of those whose proxy gain is zero "
            f"one in {self.thin} kept"
        )

    @property
    def _reference_words(self) -> str:
        """What the samples measure against, in words."""
        proxy = (
            "exchanges valued by their final hands, the discards' removal from the dealer's "
            "deck taken to first order"
        )
        if self.control:
            proxy += (
                f" on the hands worth betting and, ramped, on those up to {RAMP} ante below "
                "the fold line"
            )
        name = "a control" if self.control else "a proxy"
        return f"{name} computed on every situation ({proxy}; buying a sixth card exact)"

    @property
    def _weighing(self) -> str:
        """How the samples' differences are averaged, in words."""
        if self.by_bound:
            return ", each weighed by the game's mean bound over its own"
        if len(self.strata(self.samples)) == 1:
            return ""
        return (
            " within each stratum of the proxy (zero, positive gain), weighed by its "
            "share of the game as the proxy counted it"
            + (" (per stratum, the betting interval at half the level)" if self.thin > 1 else "")
        )

    @property
    def difference_range(self) -> tuple[float, float]:
        """The proven range of each sample's (weighed) difference to the reference."""
        if self.by_bound:  # 0 <= gain, reference <= bound
            return -self.bound_mean, self.bound_mean
        return -self.reference.largest, self.proxy.gain_bound

    def weighed(self, differences: np.ndarray) -> np.ndarray:
        """The samples' ``differences`` as the mean over the game measures them: sampled
        by the bound, each times the mean bound over its own (within the proven range
        whatever the rounding), else as they are."""
        if not self.by_bound:
            return differences
        return np.clip(differences * (self.bound_mean / self.bounds), *self.difference_range)

    @property
    def _range_words(self) -> str:
        """Where the proven range of the differences comes from, in words."""
        if self.by_bound:
            return (
                "plus or minus the game's mean bound: the gain and the reference lie "
                "between zero and the bound"
            )
        return (
            "from minus the proxy's largest gain to the largest proven bound of a "
            "situation's gain over the game"
        )

    def stratified(self, values: np.ndarray) -> tuple[float, float]:
        """The mean over the whole game of ``values`` measured on the first samples, and
        its standard error: each stratum's mean weighed by its share (``strata``)."""
        strata = self.strata(len(values))
        mean = sum(share * values[inside].mean() for share, inside in strata)
        variance = sum(
            share**2 * values[inside].var(ddof=1) / inside.sum() for share, inside in strata
        )
        return float(mean), math.sqrt(variance)

    def strata(self, n: int) -> list[tuple[float, np.ndarray]]:
        """(share of the game, which of the first ``n`` samples) of each stratum: the
        situations whose proxy gain is zero, and those where it is positive, where the
        proxy counted their shares and each stratum holds two samples or more; else the
        whole game in one, which the samples drawn as dealt measure as well (and those
        drawn by the bound, weighed)."""
        if self.by_bound:
            return [(1.0, np.ones(n, dtype=bool))]
        share, positive = self.proxy.positive_share, self.proxy.samples[:n] > 0.0
        strata = [(1.0 - share, ~positive), (share, positive)]
        strata = [(share, inside) for share, inside in strata if share > 0.0]
        if not math.isnan(share) and all(inside.sum() >= 2 for _, inside in strata):
            return strata
        if self.thin != THIN:
            raise ValueError("too few samples in a stratum of the proxy to measure it")
        return [(1.0, np.ones(n, dtype=bool))]

    def free_difference_interval(self, n: int) -> tuple[float, float]:
        """The 99.9% interval of the mean difference to the reference from the first ``n``
        samples that holds for any distribution in its proven range: the betting interval,
        per stratum of the proxy where the samples were thinned (drawn as dealt they need
        none, and the range, not the spread, sets most of its width: split, it widens)."""
        differences = self.weighed(self.gains - self.reference.samples)[:n]
        parts = self.strata(n) if self.thin != THIN else [(1.0, np.ones(n, dtype=bool))]
        edges = [
            betting_interval(differences[inside], *self.difference_range, alpha=ALPHA / len(parts))
            for _, inside in parts
        ]
        shares = np.array([share for share, _ in parts])
        low, high = (shares @ np.array(edges)).tolist()
        return low, high

    def summary(self) -> dict:
        """The figures: the lower bound (exact), the estimate and its intervals (the
        normal approximation's over the strata of the proxy where it counted them, and
        one that holds without it, over the strata where the samples were thinned)."""
        gains = self.gains
        n = len(gains)
        reference = self.reference
        differences = self.weighed(gains - reference.samples)
        difference, se = self.stratified(differences)
        mean = reference.mean + difference
        half = Z_999 * se
        strata = self.strata(n)
        low_difference, high_difference = self.free_difference_interval(n)
        low = self.short.summary["rtp"]
        figures = {
            "rtp": low + mean,
            "rtp_interval_999": [low + max(0.0, mean - half), low + mean + half],
            "rtp_interval_999_distribution_free": [
                low + max(0.0, reference.mean + low_difference),
                low + reference.mean + high_difference,
            ],
            "rtp_lower_bound": low,
            "house_edge_upper_bound_fraction": self.short.summary["house_edge_fraction"],
            "long_exchange_gain": mean,
            "long_exchange_gain_half_width_999": half,
            "proxy_gain": self.proxy.mean,
            "difference_to_proxy_sd": self.stratified(self.weighed(gains - self.proxy.samples))[1]
            * math.sqrt(n),
            "sampled_gain_sd": float(self.weighed(gains).std(ddof=1)),
            "difference_range": list(self.difference_range),
            "samples": n,
            "samples_improved": int((gains > 0).sum()),
            "largest_gain": float(gains.max()),
            "seed": self.seed,
            "thin": self.thin,
        }
        if self.by_bound:
            figures["bound_mean"] = self.bound_mean
        if self.control:
            figures["control_gain"] = self.control.mean
            figures["difference_to_control_sd"] = se * math.sqrt(n)
        if len(strata) > 1:  # by the proxy's gain: zero, positive
            figures["strata"] = {
                f"{name}_{figure}": value
                for name, (share, inside) in zip(("zero", "positive"), strata, strict=True)
                for figure, value in (
                    ("share", share),
                    ("samples", int(inside.sum())),
                    ("difference_sd", float(differences[inside].std(ddof=1))),
                )
            }
        return figures

    def to_json(self) -> dict:
        return {
            "software": software(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "variant": self.variant.record(),
            "strategy": "optimal",
            "method": (
                f"the game restricted to {self.short_game} enumerated exactly (every deal "
                "and draw; its optimal play is a strategy of the full game, so its RTP is a "
                f"lower bound), plus the mean gain of the {self.long_exchanges} over "
                f"{self.samples} situations (class of five cards, "
                f"upcard) {self._sampling}, every option of each weighed "
                f"exactly, measured against {self._reference_words}: its mean plus "
                f"the mean difference{self._weighing}. Intervals: the normal approximation "
                "of the mean difference, and a betting interval (Waudby-Smith and Ramdas, "
                f"the bets capped at {TRUNCATION:g} / m) that holds for any distribution in "
                "the difference's proven range "
                f"({self._range_words}); lower ends never below the bound; the dealer's "
                "game never bought"
            ),
            "summary": self.summary(),
            "enumerated_draws": self.short_draws,
            "short_draws": self.short.to_json(),
            "seconds": self.seconds,
        }


def short_game(
    variant: Variant,
    folder: Path,
    progress=None,
    *,
    short_draws: int = SHORT_DRAWS,
    classes: int | None = None,
) -> tuple[ExactResult, np.ndarray]:
    """The enumerated game with exchanges of at most ``short_draws`` cards and its counts,
    kept in ``folder`` (resumed from its ranges while unfinished); ``classes``: only the
    deals of the first classes of hands (for checks)."""
    short = with_draws_up_to(variant, short_draws)
    stem = f"draws{short_draws}" + (f"-classes{classes}" if classes else "")
    path = folder / f"optimal-{stem}.npz"
    key = _key(short)
    if saved := read_keyed_npz(path, key):
        totals = saved["totals"]
        return optimal_result_of_totals(short, totals, float(saved["seconds"])), totals
    ranges = folder / f"{stem}-ranges"
    game = exact_optimal_game(short, ranges, progress=progress, classes=classes)
    seconds = game.result.seconds
    write_npz(path, key=np.array(key), totals=game.totals, seconds=np.array(seconds))
    shutil.rmtree(ranges, ignore_errors=True)
    return game.result, game.totals


def sampled_optimum(
    variant: Variant,
    folder: Path,
    samples: int,
    *,
    seed: int = DEFAULT_SEED,
    progress: Callable[[str, int, int], None] | None = None,
    short_draws: int = SHORT_DRAWS,
    classes: int | None = None,
    thin: int = THIN,
    control: bool = False,
    by_bound: bool = False,
) -> SampledOptimum:
    """Optimal play of ``variant``: the short-draw game enumerated, the proxy and the
    bound weighed, then ``samples`` situations weighed (those already in ``folder`` for
    this seed are reused); ``thin``: of the situations whose proxy gain is zero, only
    one in ``thin`` is weighed (see ``thinned``); ``control``: the samples measured
    against the control (weighed after the proxy) rather than the proxy; ``by_bound``:
    the situations drawn as often as dealt times their bound (``kept_by_bound``).
    ``progress`` is called with the stage, the work done and its total. ``classes``:
    the game of the first classes of hands only (for checks)."""
    stage = progress and functools.partial(progress, "enumerated")
    short, totals = short_game(variant, folder, stage, short_draws=short_draws, classes=classes)
    suffix = run_suffix(short_draws, thin, by_bound)
    key = f"{_key(variant)}-{short_draws}-{classes}-{seed}"
    blocks = math.ceil(samples / BLOCK)
    candidates = _candidates(seed, blocks * (BOUND_CANDIDATES if by_bound else thin), classes)
    bounds, bound_seconds, drawn = _game_bound(
        variant, folder / f"optimal-bound{run_suffix(short_draws, by_bound=by_bound)}"
        f"-seed{seed}.npz", key, candidates, short_draws, classes,
        progress and functools.partial(progress, "bound"),
        (seed, blocks * BLOCK) if by_bound else None,
    )  # fmt: skip
    if by_bound:  # which situations are weighed depends on the bound
        candidates = (candidates[0][drawn], candidates[1][drawn])
        key += f"-bybound-{source_hash(*BOUND_SOURCES)}"
    proxies = {}
    for name in ("proxy", "control") if control else ("proxy",):
        proxies[name] = _game_proxy(
            name, variant, folder / f"optimal-{name}{suffix}-seed{seed}.npz", key,
            candidates, short_draws, classes, progress and functools.partial(progress, name),
        )  # fmt: skip
    proxy = proxies["proxy"][0]
    kept = thinned(proxy.samples, thin)[: blocks * BLOCK]
    if thin != THIN:  # which situations are weighed depends on the proxy
        key += f"-thin{thin}-{source_hash(*PROXY_SOURCES)}"
    path = folder / f"optimal-samples{suffix}-seed{seed}.npz"
    chosen = (candidates[0][kept], candidates[1][kept])
    weighed = _weighed_samples(variant, path, key, chosen, short_draws, samples, progress)
    bound = bounds.samples[kept][:samples]
    references = [gains.samples[kept][:samples] for gains, _ in proxies.values()]
    measured = np.maximum(0.0, weighed["long_evs"] - weighed["short_evs"])
    if np.any(np.maximum(measured, np.max(references, axis=0)) > bound + 1e-9):
        raise RuntimeError("a sampled gain or proxy above its proven bound")  # a defect
    sampled = {  # the gains on the situations weighed; the tighter proven bound
        name: dataclasses.replace(
            gains,
            samples=gains.samples[kept][:samples],
            gain_bound=min(gains.gain_bound, bounds.largest),
        )
        for name, (gains, _) in proxies.items()
    }
    return SampledOptimum(
        variant,
        short,
        totals,
        weighed["classes"],
        weighed["upcards"],
        weighed["short_evs"],
        weighed["long_evs"],
        seed,
        short.seconds
        + float(weighed["seconds"].sum())
        + sum(t for _, t in proxies.values())
        + bound_seconds,
        sampled["proxy"],
        short_draws,
        thin,
        sampled.get("control"),
        bound if by_bound else None,
        bounds.mean,
    )


def kept_by_bound(bounds: GainBounds, *, seed: int, count: int) -> np.ndarray:
    """Of the situations drawn as dealt (``bounds.samples``: their bounds), the first
    ``count`` kept, each with probability its bound over the largest of the game: so they
    are drawn as often as dealt times their bound, independently. The uniforms come from
    the seed's own stream, by the situation's place."""
    uniforms = np.random.default_rng([seed, ACCEPTANCE]).random(len(bounds.samples))
    kept = np.flatnonzero(uniforms * bounds.largest < bounds.samples)
    if len(kept) < count:
        raise ValueError(
            f"of {len(uniforms):,} situations drawn, the bound kept {len(kept):,}, fewer "
            f"than the {count:,} to weigh (its largest is {bounds.largest / bounds.mean:.0f} "
            "times its mean)"
        )
    return kept[:count]


def thinned(proxies: np.ndarray, thin: int) -> np.ndarray:
    """Which candidates (indices, in their order) are weighed: every one whose proxy gain
    is positive, and of those whose proxy gain is zero the first and then one in
    ``thin``. The candidates are drawn independently, so those kept of each stratum
    (zero, positive proxy gain) are drawn within it as often as they are dealt."""
    zero = proxies <= 0.0
    return np.flatnonzero(~zero | ((np.cumsum(zero) - 1) % thin == 0))


def _candidates(seed: int, blocks: int, classes: int | None) -> tuple[np.ndarray, np.ndarray]:
    """The first ``blocks`` blocks of situations of the seed's stream: (classes, upcards)."""
    drawn = [sample_situations(seed, block, classes) for block in range(blocks)]
    chosen, upcards = zip(*drawn, strict=True)
    return np.concatenate(chosen), np.concatenate(upcards)


def _weighed_samples(variant, path, key, chosen, short_draws, samples, progress) -> dict:
    """The first ``samples`` of the ``chosen`` situations (classes, upcards) weighed, block
    by block, each block written to ``path`` as it finishes (those there for ``key``
    reused)."""
    done = _load_samples(path, key)
    blocks = range(len(done["classes"]) // BLOCK, math.ceil(samples / BLOCK))
    units = [tuple(part[b * BLOCK : (b + 1) * BLOCK] for part in chosen) for b in blocks]
    sampling = (variant, short_draws)
    for i, weighed in unit_results(current_client(), _weighed_block, units, sampling):
        done = {name: np.concatenate([done[name], weighed[name]]) for name in done}
        write_npz(path, key=np.array(key), **done)
        if progress:
            progress("sampled", min(samples, (blocks[i] + 1) * BLOCK), samples)
    return {name: values[:samples] for name, values in done.items()}


def _weighed_block(sampling: tuple, block: tuple) -> dict:
    """A block of situations (classes, upcards) weighed for ``(variant, short_draws)`` (the
    same on any process), and the seconds it took, shared by its situations."""
    variant, short_draws = sampling
    start = time.perf_counter()
    weighed = situation_gains(variant, *block, short_draws)
    weighed["seconds"] = np.full(len(block[0]), (time.perf_counter() - start) / len(block[0]))
    return weighed


def _game_proxy(
    name, variant, path, key, situations, short_draws, classes, progress
) -> tuple[ProxyGains, float]:
    """The gains of the proxy or the control (``name``) over the game and on the
    ``situations`` (classes, upcards: the first of the stream ``key`` names) and the
    seconds they took, kept at ``path`` (gains kept there for more situations of the
    stream serve as well)."""
    count, code = len(situations[0]), source_hash(*PROXY_SOURCES)
    if saved := kept_proxy(path, key, count, code):
        proxy = _proxy_of(saved)
        return dataclasses.replace(proxy, samples=proxy.samples[:count]), float(saved["seconds"])
    start = time.perf_counter()
    hands = _class_weights()[0][situations[0]]
    gains = proxy_gains(
        variant, short_draws, hands, situations[1], ramp=RAMPS[name], classes=classes,
        progress=progress,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    kept_key = np.array(_proxy_key(key, count, code))
    write_npz(path, key=kept_key, seconds=np.array(seconds), **_proxy_arrays(gains))
    return gains, seconds


def _game_bound(
    variant, path, key, situations, short_draws, classes, progress, by_bound=None
) -> tuple[GainBounds, float, np.ndarray]:
    """The proven bound of the gain over the game and on the ``situations`` (as
    ``_game_proxy``'s), the seconds it took and the situations kept: all, or with
    ``by_bound`` = (seed, count) those ``kept_by_bound`` (their bounds alone kept and
    returned); kept at ``path``."""
    count, code = len(situations[0]), source_hash(*BOUND_SOURCES)
    needed = by_bound[1] if by_bound else count
    if saved := kept_proxy(path, key, needed, code, "bound_samples"):
        bounds = GainBounds(
            float(saved["bound_largest"]),
            float(saved["bound_positive_share"]),
            saved["bound_samples"][:needed],
            float(saved["bound_mean"]),
        )
        kept = saved["bound_kept"][:needed] if by_bound else np.arange(needed)
        return bounds, float(saved["seconds"]), kept
    start = time.perf_counter()
    hands = _class_weights()[0][situations[0]]
    bounds = gain_bounds(
        variant, short_draws, hands, situations[1], classes=classes, progress=progress
    )
    seconds = time.perf_counter() - start
    kept = kept_by_bound(bounds, seed=by_bound[0], count=needed) if by_bound else np.arange(count)
    bounds = dataclasses.replace(bounds, samples=bounds.samples[kept])
    write_npz(
        path,
        key=np.array(_proxy_key(key, len(kept), code)),
        seconds=np.array(seconds),
        bound_largest=np.array(bounds.largest),
        bound_positive_share=np.array(bounds.positive_share),
        bound_samples=bounds.samples,
        bound_mean=np.array(bounds.mean),
        **({"bound_kept": kept.astype(np.int32)} if by_bound else {}),
    )
    return bounds, seconds, kept


def _proxy_key(stream: str, count: int, code: str) -> str:
    """The key of a proxy kept for the first ``count`` situations of ``stream``."""
    return f"{stream}-{count}-{code}"


def kept_proxy(
    path: Path, stream: str, count: int, code: str, samples: str = "proxy_samples"
) -> dict | None:
    """The proxy (or the bound: ``samples`` names its samples' array) kept at ``path``
    (its arrays) where it holds at least the first ``count`` situations of the stream
    ``stream``, weighed by the code ``code``; else None."""
    saved = read_npz(path)
    kept = len(saved.get(samples, ())) if saved else 0
    if kept < count or str(saved.get("key")) != _proxy_key(stream, kept, code):
        return None
    return saved


def _proxy_arrays(gains: ProxyGains, name: str = "proxy") -> dict:
    return {
        f"{name}_mean": np.array(gains.mean),
        f"{name}_largest": np.array(gains.largest),
        f"{name}_gain_bound": np.array(gains.gain_bound),
        f"{name}_samples": gains.samples,
        f"{name}_positive_share": np.array(gains.positive_share),
    }


def _proxy_of(saved: dict, name: str = "proxy") -> ProxyGains | None:
    """The gains of the proxy or the control (``name``) kept in ``saved``, if there."""
    if f"{name}_mean" not in saved:
        return None
    return ProxyGains(
        float(saved[f"{name}_mean"]),
        float(saved[f"{name}_largest"]),
        float(saved[f"{name}_gain_bound"]),
        saved[f"{name}_samples"],
        float(saved.get(f"{name}_positive_share", math.nan)),  # not counted before
    )


def run_suffix(short_draws: int, thin: int = THIN, by_bound: bool = False) -> str:
    """What the names of an analysis's files add for its split and its sampling: nothing
    for the defaults, else ``-drawsN`` and ``-thinK`` or ``-bybound``."""
    split = "" if short_draws == SHORT_DRAWS else f"-draws{short_draws}"
    return split + ("" if thin == THIN else f"-thin{thin}") + ("-bybound" if by_bound else "")


def discard_sampled(
    folder: Path, short_draws: int = SHORT_DRAWS, thin: int = THIN, by_bound: bool = False
) -> None:
    """Delete what an earlier sampled analysis with this split and sampling kept in
    ``folder`` (the enumerated game with it)."""
    suffix = run_suffix(short_draws, thin, by_bound)
    kept = (
        f"optimal-samples{suffix}-seed*.npz",
        f"optimal-proxy{suffix}-seed*.npz",
        f"optimal-control{suffix}-seed*.npz",
        f"optimal-draws{short_draws}.npz",
        *([f"optimal-bound{suffix}-seed*.npz"] if by_bound else []),
    )
    for path in (path for pattern in kept for path in folder.glob(pattern)):
        path.unlink()
    shutil.rmtree(folder / f"draws{short_draws}-ranges", ignore_errors=True)


def sampled_name(
    variant: Variant, short_draws: int = SHORT_DRAWS, thin: int = THIN, by_bound: bool = False
) -> str:
    """File name of a variant's saved sampled optimum (the one reports read: the
    defaults')."""
    stem = f"{variant.name}-optimal-sampled{run_suffix(short_draws, thin, by_bound)}"
    return f"{stem}-v{SAMPLED_VERSION}-{variant.rules_hash[:16]}.npz"


def save_sampled_optimum(result: SampledOptimum, path: Path | None = None) -> Path:
    """Keep the short-draw game's counts and the samples in the cache (and at ``path``)."""
    arrays = {
        "totals": result.short_totals,
        "short_seconds": np.array(result.short.seconds),
        "short_draws": np.array(result.short_draws),
        "classes": result.classes,
        "upcards": result.upcards,
        "short_evs": result.short_evs,
        "long_evs": result.long_evs,
        "seed": np.array(result.seed),
        "seconds": np.array(result.seconds),
        "thin": np.array(result.thin),
        **_proxy_arrays(result.proxy),
        **(_proxy_arrays(result.control, "control") if result.control else {}),
        **(
            {"bound_samples": result.bounds, "bound_mean": np.array(result.bound_mean)}
            if result.by_bound
            else {}
        ),
    }
    name = sampled_name(result.variant, result.short_draws, result.thin, result.by_bound)
    return keep_arrays(name, arrays, path)


def saved_sampled_optimum(
    variant: Variant, short_draws: int = SHORT_DRAWS, thin: int = THIN, by_bound: bool = False
) -> SampledOptimum | None:
    """The sampled optimum shipped with the package or computed into the cache."""
    saved = kept_arrays(sampled_name(variant, short_draws, thin, by_bound))
    if saved is None:
        return None
    short_draws = int(saved["short_draws"])
    totals, seconds = saved["totals"], float(saved["short_seconds"])
    short = with_draws_up_to(variant, short_draws)
    return SampledOptimum(
        variant,
        optimal_result_of_totals(short, totals, seconds),
        totals,
        saved["classes"],
        saved["upcards"],
        saved["short_evs"],
        saved["long_evs"],
        int(saved["seed"]),
        float(saved["seconds"]),
        _proxy_of(saved),
        short_draws,
        int(saved.get("thin", THIN)),
        _proxy_of(saved, "control"),
        saved.get("bound_samples"),
        float(saved.get("bound_mean", math.nan)),
    )


def _key(variant: Variant) -> str:
    return f"{variant.rules_hash[:16]}-{source_hash(*DECISION_SOURCES)}"


def _load_samples(path: Path, key: str) -> dict:
    """The samples weighed so far for this key (whole blocks), else none."""
    if saved := read_keyed_npz(path, key):
        return {name: saved[name] for name in _SAMPLE_ARRAYS}
    return {name: np.zeros(0, dtype=dtype) for name, dtype in _SAMPLE_ARRAYS.items()}


def _class_weights() -> tuple[np.ndarray, np.ndarray]:
    """One hand of each class of five-card hands, and each class's size (computed once)."""
    return hand_classes()


def sample_situations(
    seed: int, block: int, classes: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A block of situations, each drawn with the probability it is dealt: (class indices,
    upcards); among the first ``classes`` classes if given. The block's stream depends
    on the seed and the block's number only."""
    reps, weights = _class_weights()
    cumulative = np.cumsum(weights[:classes])
    rng = np.random.default_rng([seed, block])
    chosen = np.searchsorted(cumulative, rng.integers(0, cumulative[-1], BLOCK), side="right")
    upcards = np.empty(BLOCK, dtype=np.int64)
    for i, position in enumerate(rng.integers(0, 52 - 5, BLOCK)):
        upcards[i] = np.setdiff1d(np.arange(52), reps[chosen[i]])[position]
    return chosen, upcards


def situation_gains(
    variant: Variant, classes: np.ndarray, upcards: np.ndarray, short_draws: int = SHORT_DRAWS
) -> dict:
    """For situations (class indices, upcards): the best EV of the options drawing at most
    ``short_draws`` cards and of the longer exchanges, every option weighed exactly."""
    hands = _class_weights()[0][classes]
    options = first_options(variant)[0]
    thrown = np.array([thrown_count_jit(keep) for keep in options[:, 1]])
    long = (options[:, 0] == Action.EXCHANGE) & (thrown > short_draws)
    return {
        "classes": classes.astype(np.int32),
        "upcards": upcards.astype(np.int8),
        "short_evs": _best_evs(variant, hands, upcards, options[~long]),
        "long_evs": _best_evs(variant, hands, upcards, options[long]),
    }


def _best_evs(variant: Variant, hands, upcards, options) -> np.ndarray:
    """The best EV among ``options`` of each situation (see ``best_options``)."""
    if not len(options):
        return np.full(len(hands), -np.inf)
    return best_options(variant, hands, upcards, options, needs_pair_tables(variant))[1]


def best_options(
    variant: Variant, hands: np.ndarray, upcards: np.ndarray, options: np.ndarray, pairs: bool
) -> tuple[np.ndarray, np.ndarray]:
    """(the index in ``options`` of the best option, its EV) of each situation, one
    situation per thread at a time, so that Ctrl-C waits for one situation only;
    ``pairs``: whether to tabulate the dealer's hands per pair of drawn cards."""
    fees, forced = variant.draw_arrays()
    v, lists = variant.arrays(), value_lists()
    upcards = upcards.astype(np.int64)
    choice = np.empty(len(hands), dtype=np.int64)
    evs = np.empty(len(hands))
    step = numba.get_num_threads()
    for start in range(0, len(hands), step):
        part = slice(start, start + step)
        best_options_jit(
            v, lists, hands[part], upcards[part], options, fees, forced, pairs,
            choice[part], evs[part],
        )  # fmt: skip
    return choice, evs
