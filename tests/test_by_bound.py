"""Situations drawn by their proven bound: kept with probability their bound over the
largest, weighed back, so that the estimate is unbiased and the interval that needs no
normal approximation holds within plus or minus the mean bound."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulate import analysis
from simulate._gain_bound import AVOIDING, HOLDING_ONE
from simulate._proxy import REMOVAL_SCALE
from simulate.cli import main
from simulate.gain_bound import GainBounds
from simulate.optimal_game import exact_optimal_game
from simulate.optimal_sampled import (
    Z_999,
    kept_by_bound,
    sampled_optimum,
    save_sampled_optimum,
    saved_sampled_optimum,
)

from .test_optimal_sampled import CLASSES

RESULTS = Path(__file__).resolve().parents[1] / "results"


def test_the_proxys_removal_scale_is_within_the_bounds():
    """The premise of the proxy never exceeding the bound: per discard, the proxy moves a
    final hand's EV by at most the share the bound counts."""
    for thrown in range(1, 6):
        assert REMOVAL_SCALE[thrown] <= HOLDING_ONE / AVOIDING[thrown]


@pytest.mark.parametrize(
    "run", ["oasis-classic/optimal-{}-seed1", "russian/optimal-{}-draws0-seed1"]
)
def test_the_committed_proxies_never_exceed_their_bounds(run):
    proxies = np.load(RESULTS / f"{run.format('proxy')}.npz")["proxy_samples"]
    bounds = np.load(RESULTS / f"{run.format('bound')}.npz")["bound_samples"]
    n = min(len(proxies), len(bounds))
    assert n >= 3_200 and np.all(proxies[:n] <= bounds[:n])
    assert np.all(proxies[:n][bounds[:n] == 0] == 0) and np.any(bounds[:n] == 0)


def test_situations_are_kept_with_probability_their_bound_over_the_largest():
    bounds = np.tile([0.0, 0.1, 0.5, 1.0], 25_000)
    drawn = GainBounds(1.0, 0.75, bounds, bounds.mean())
    kept = kept_by_bound(drawn, seed=3, count=30_000)
    assert np.all(np.diff(kept) > 0) and np.all(bounds[kept] > 0)
    shares = np.bincount(np.searchsorted([0.1, 0.5, 1.0], bounds[kept]), minlength=3)
    expected = np.array([0.1, 0.5, 1.0]) / 1.6  # of those kept
    se = np.sqrt(expected * (1 - expected) / 30_000)
    assert np.all(np.abs(shares / 30_000 - expected) < 4 * se)
    assert np.array_equal(kept_by_bound(drawn, seed=3, count=100), kept[:100])  # prefixes
    with pytest.raises(ValueError, match="fewer than the 50,000 to weigh"):
        kept_by_bound(drawn, seed=3, count=50_000)


def test_situations_drawn_by_the_bound_measure_the_enumerated_rtp(
    cheap_exchanges, no_proxy, coarse_removal, tmp_path, monkeypatch
):
    """Every exchange sampled (none enumerated), against a proxy of zero gain, the removal
    effects coarsened (a proven but loose bound: their exact tables take minutes); the
    intervals cover the exact RTP of the enumerable game; the samples' bounds are those of
    situations drawn as often as dealt times their bound; the result kept and read again."""
    variant, folder = cheap_exchanges
    exact = exact_optimal_game(variant, folder / "full", classes=CLASSES).result.summary["rtp"]
    sampled = sampled_optimum(
        variant, tmp_path, 300, seed=2, short_draws=0, classes=CLASSES, by_bound=True
    )
    figures = sampled.summary()
    low, high = figures["rtp_interval_999"]
    assert low <= exact <= high
    assert high - low <= 2 * Z_999 * figures["difference_to_proxy_sd"] / np.sqrt(300) + 1e-12
    assert figures["samples_improved"] > 100
    low, high = figures["rtp_interval_999_distribution_free"]
    assert low <= exact <= high
    bound = np.load(tmp_path / "optimal-bound-draws0-bybound-seed2.npz")
    assert figures["difference_range"] == [-bound["bound_mean"], bound["bound_mean"]]
    assert 0 < figures["bound_mean"] < bound["bound_largest"]
    # drawn with probability proportional to the bound, the mean of mean / bound is the
    # share of situations whose bound is positive
    ratios = sampled.bound_mean / sampled.bounds
    se = ratios.std(ddof=1) / np.sqrt(300)
    assert abs(ratios.mean() - bound["bound_positive_share"]) < 4 * se
    assert (tmp_path / "optimal-samples-draws0-bybound-seed2.npz").exists()
    shorter = sampled_optimum(  # the first 200, read again: their interval as a whole run's
        variant, tmp_path, 200, seed=2, short_draws=0, classes=CLASSES, by_bound=True
    )
    assert shorter.free_difference_interval(200) == sampled.free_difference_interval(200)

    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path))
    save_sampled_optimum(sampled)
    assert saved_sampled_optimum(variant, 0) is None  # drawn as dealt: not saved
    again = saved_sampled_optimum(variant, 0, by_bound=True)
    assert again is not None and again.summary() == figures


def test_the_command_passes_the_sampling_on(tmp_path, monkeypatch):
    """``--by-bound`` reaches the sampled analysis (stopped there: Ctrl-C keeps what
    finished and exits 130)."""
    asked = {}

    def stopped(variant, folder, samples, **options):
        asked.update(options, samples=samples)
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis, "sampled_optimum", stopped)
    args = ["exact", "russian", "-s", "optimal", "--by-bound", "--samples", "40"]
    result = CliRunner().invoke(main, [*args, "--out-dir", str(tmp_path)])
    assert result.exit_code == 130 and "interrupted" in result.output
    assert asked["by_bound"] and asked["thin"] == 1 and asked["samples"] == 40
