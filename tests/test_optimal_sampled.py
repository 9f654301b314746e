"""Optimal play where long exchanges forbid enumeration: the short-draw game, the
sampled gains of the longer exchanges, and the estimate against an enumerable game."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulate import _situation as kernels
from simulate import optimal_sampled
from simulate._io import read_keyed_npz
from simulate._tables import source_hash
from simulate.cli import main
from simulate.exact import first_options, value_lists
from simulate.gain_bound import BOUND_SOURCES
from simulate.optimal_game import exact_optimal_game, situation_tables, supports_exact_draws
from simulate.optimal_sampled import (
    BLOCK,
    PROXY_SOURCES,
    Z_999,
    _class_weights,
    kept_proxy,
    run_suffix,
    sample_situations,
    sampled_optimum,
    save_sampled_optimum,
    saved_sampled_optimum,
    situation_gains,
    thinned,
)
from simulate.optimum import optimal_rtp
from simulate.proxy import ProxyGains
from simulate.results import headline_markdown
from simulate.variant import load_variant, with_draws_up_to

pytestmark = pytest.mark.usefixtures("no_bound")  # the bound: test_gain_bound

RESULTS = Path(__file__).resolve().parents[1] / "results"


def test_the_short_draw_game_is_a_variant_of_its_own():
    full = load_variant("oasis-classic")
    short = with_draws_up_to(full, 2)
    assert short.exchange_fees == {1: 1.0, 2: 2.0}
    assert not short.exchange_forces_bet and full.exchange_forces_bet == {5}
    assert short.rules_hash != full.rules_hash and short.name == "oasis-classic-draws2"
    assert supports_exact_draws(short) and not supports_exact_draws(full)
    assert with_draws_up_to(full, 5).exchange_fees == full.exchange_fees


@pytest.mark.parametrize("name", ["oasis-classic", "six-card-125", "russian"])
def test_short_evs_equal_the_enumerating_kernel_of_the_short_game(name):
    """The sampled situations' best short-draw EVs are those the whole-game kernel weighs."""
    variant = load_variant(name)
    classes, upcards = sample_situations(seed=7, block=0)
    classes, upcards = classes[:3], upcards[:3]
    gains = situation_gains(variant, classes, upcards)
    short = with_draws_up_to(variant, 2)
    v, lists = short.arrays(), value_lists()
    fees, forced = short.draw_arrays()
    choice, evs = np.empty(3, dtype=np.int64), np.empty(3)
    hands = _class_weights()[0][classes]
    tables = situation_tables(lists, v)
    options = first_options(short)[0]
    kernels.best_options_jit(v, tables, lists, hands, upcards, options, fees, forced, choice, evs)
    np.testing.assert_allclose(gains["short_evs"], evs, rtol=0, atol=1e-9)
    assert np.all(gains["long_evs"] < 10)


def test_situations_are_drawn_as_often_as_they_are_dealt():
    reps, weights = _class_weights()
    classes, upcards = sample_situations(seed=1, block=0)
    assert len(classes) == BLOCK
    for cls, up in zip(classes, upcards, strict=True):
        assert up not in reps[cls]
    again = sample_situations(seed=1, block=0)
    assert np.array_equal(classes, again[0]) and np.array_equal(upcards, again[1])
    assert not np.array_equal(classes, sample_situations(seed=1, block=1)[0])
    # among the first 3 classes (weights 4, 24, 12 hands), class frequencies follow weights
    many = np.concatenate([sample_situations(1, b, classes=3)[0] for b in range(30)])
    share = np.bincount(many, minlength=3) / len(many)
    expected = weights[:3] / weights[:3].sum()
    se = np.sqrt(expected * (1 - expected) / len(many))
    assert np.all(np.abs(share - expected) < 4 * se)


CLASSES = 100


def runs(folder: Path, short_draws: int) -> Path:
    """The folder of the runs enumerating exchanges of up to ``short_draws`` cards: they
    share its short game, enumerated once."""
    return folder / f"sampled{short_draws}"


@pytest.mark.parametrize(("short_draws", "thin"), [(1, 1), (0, 4)])
def test_the_sampled_interval_covers_the_enumerated_rtp(
    cheap_exchanges, no_removal, short_draws, thin
):
    """With one-card exchanges enumerated and every situation drawn weighed, or no
    exchange enumerated (every exchange then sampled) and one in 4 of the situations of
    zero proxy gain weighed."""
    variant, folder = cheap_exchanges
    exact = exact_optimal_game(variant, folder / "full", classes=CLASSES).result.summary["rtp"]
    sampled = sampled_optimum(variant, runs(folder, short_draws), 300, seed=2,
                              short_draws=short_draws, classes=CLASSES, thin=thin)  # fmt: skip
    figures = sampled.summary()
    assert figures["rtp_lower_bound"] <= exact
    assert figures["samples_improved"] > 30
    low, high = figures["rtp_interval_999"]
    assert low <= exact <= high
    assert high - low <= 2 * Z_999 * figures["difference_to_proxy_sd"] / np.sqrt(300) + 1e-12
    assert figures["difference_to_proxy_sd"] < figures["sampled_gain_sd"]
    low, high = figures["rtp_interval_999_distribution_free"]
    assert low <= exact <= high
    strata = figures["strata"]  # the proxy counted its shares
    assert strata["zero_share"] + strata["positive_share"] == pytest.approx(1)
    assert strata["zero_difference_sd"] < strata["positive_difference_sd"]
    zero = strata["zero_share"] / thin  # of the situations drawn, those weighed
    expected = zero / (zero + strata["positive_share"])
    se = np.sqrt(expected * (1 - expected) / 300)
    assert abs(strata["zero_samples"] / 300 - expected) < 4 * se


def test_thinning_keeps_every_positive_and_one_in_k_of_the_rest():
    proxies = np.array([0.0, 0.2, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.3, 0.0])
    assert thinned(proxies, 1).tolist() == list(range(10))
    assert thinned(proxies, 3).tolist() == [0, 1, 4, 5, 8, 9]  # zeros 0, 5, 9 kept
    assert thinned(proxies[:6], 3).tolist() == thinned(proxies, 3).tolist()[:4]  # prefixes


def test_the_gains_add_up_to_the_enumerated_game_on_every_situation(cheap_exchanges):
    """Best EV = best short-draw EV + gain, situation by situation, against the
    enumerating kernel of the whole game."""
    variant, _ = cheap_exchanges
    reps, _ = _class_weights()
    classes = np.repeat(np.arange(60, 62), 47)
    upcards = np.concatenate([np.setdiff1d(np.arange(52), reps[c]) for c in (60, 61)])
    gains = situation_gains(variant, classes, upcards, short_draws=1)
    v, lists = variant.arrays(), value_lists()
    fees, forced = variant.draw_arrays()
    choice, evs = np.empty(len(classes), dtype=np.int64), np.empty(len(classes))
    kernels.best_options_jit(
        v, situation_tables(lists, v), lists, reps[classes], upcards,
        first_options(variant)[0], fees, forced, choice, evs,
    )  # fmt: skip
    best = gains["short_evs"] + np.maximum(0, gains["long_evs"] - gains["short_evs"])
    np.testing.assert_allclose(best, evs, rtol=0, atol=1e-9)
    assert np.any(gains["long_evs"] > gains["short_evs"])


def test_samples_are_kept_and_a_longer_run_extends_them(cheap_exchanges, no_proxy, monkeypatch):
    variant, folder = cheap_exchanges
    first = sampled_optimum(variant, runs(folder, 1), 30, seed=5, short_draws=1,
                            classes=CLASSES)  # fmt: skip
    assert (runs(folder, 1) / "optimal-samples-draws1-seed5.npz").exists()
    import simulate.optimal_sampled as module

    weighed = []
    original = module.situation_gains

    def counting(*args, **kwargs):
        weighed.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, "situation_gains", counting)
    longer = sampled_optimum(variant, runs(folder, 1), 110, seed=5, short_draws=1,
                             classes=CLASSES)  # fmt: skip
    assert len(weighed) == 4  # the blocks after the first 40 samples
    assert np.array_equal(longer.gains[:30], first.gains)
    other = sampled_optimum(variant, runs(folder, 1), 20, seed=6, short_draws=1,
                            classes=CLASSES)  # fmt: skip
    assert not np.array_equal(other.classes, longer.classes[:20])


def odd_proxy(variant, short_draws, hands, upcards, **options) -> ProxyGains:
    """A proxy gain of 0.01 where the upcard is odd, else zero, counted as half the game:
    for the tests of which situations are weighed."""
    return ProxyGains(0.005, 0.01, 10.0, np.where(upcards % 2, 0.01, 0.0), 0.5)


def test_thinned_samples_are_the_drawn_ones_kept_and_a_longer_run_extends_them(
    cheap_exchanges, monkeypatch
):
    variant, folder = cheap_exchanges
    monkeypatch.setattr(optimal_sampled, "proxy_gains", odd_proxy)
    options = {"seed": 5, "short_draws": 1, "classes": CLASSES, "thin": 3}
    first = sampled_optimum(variant, runs(folder, 1), 40, **options)
    assert (runs(folder, 1) / "optimal-samples-draws1-thin3-seed5.npz").exists()
    drawn = [sample_situations(5, block, CLASSES) for block in range(2 * 3)]
    classes, upcards = (np.concatenate(part) for part in zip(*drawn, strict=True))
    kept = thinned(odd_proxy(None, 1, None, upcards).samples, 3)[:40]
    assert np.array_equal(first.classes, classes[kept])
    assert np.array_equal(first.upcards, upcards[kept])
    assert np.array_equal(first.proxy.samples > 0, first.upcards % 2)
    assert 0.6 < np.mean(first.upcards % 2) < 0.9  # three quarters odd: one in 3 of even
    longer = sampled_optimum(variant, runs(folder, 1), 60, **options)
    assert np.array_equal(longer.classes[:40], first.classes)
    assert np.array_equal(longer.long_evs[:40], first.long_evs)
    figures = longer.summary()
    assert figures["thin"] == 3 and figures["strata"]["zero_share"] == 0.5
    assert longer.free_difference_interval(40) == first.free_difference_interval(40)
    assert "one in 3 kept" in longer.to_json()["method"]

    def weighed_again(*args, **kwargs):
        raise AssertionError("the proxy kept for 60 samples serves 40")

    monkeypatch.setattr(optimal_sampled, "proxy_gains", weighed_again)
    assert sampled_optimum(variant, runs(folder, 1), 40, **options).summary() == first.summary()


def test_a_control_replaces_the_proxy_in_what_the_samples_measure(
    cheap_exchanges, tmp_path, monkeypatch
):
    """The samples are drawn by the proxy's strata whatever the control; measured against
    a control that is the proxy plus a constant, the estimate and its spread are the
    proxy's; against a control nearer the gains, the spread is smaller. A saved estimate
    keeps its control."""
    variant, folder = cheap_exchanges
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal_sampled, "proxy_gains", odd_proxy)
    options = {"seed": 7, "short_draws": 1, "classes": CLASSES, "thin": 3}
    plain = sampled_optimum(variant, runs(folder, 1), 60, **options)

    def shifted(variant, short_draws, hands, upcards, ramp=0.0, **kwargs) -> ProxyGains:
        proxy = odd_proxy(variant, short_draws, hands, upcards)
        if not ramp:
            return proxy
        return ProxyGains(proxy.mean + 0.02, 0.03, 10.0, proxy.samples + 0.02, 0.9)

    monkeypatch.setattr(optimal_sampled, "proxy_gains", shifted)
    controlled = sampled_optimum(variant, runs(folder, 1), 60, control=True, **options)
    assert np.array_equal(controlled.classes, plain.classes)
    assert np.array_equal(controlled.proxy.samples, plain.proxy.samples)  # the same strata
    figures, before = controlled.summary(), plain.summary()
    assert figures["rtp"] == pytest.approx(before["rtp"], abs=1e-12)
    assert figures["difference_to_control_sd"] == pytest.approx(
        before["difference_to_proxy_sd"], abs=1e-12
    )
    assert figures["control_gain"] == pytest.approx(before["proxy_gain"] + 0.02)
    assert figures["difference_range"][0] == -0.03
    assert "measured against a control" in controlled.to_json()["method"]
    assert (runs(folder, 1) / "optimal-control-draws1-thin3-seed7.npz").exists()

    near = dataclasses.replace(controlled.control, samples=controlled.gains - 0.001)
    assert dataclasses.replace(controlled, control=near).summary()[
        "difference_to_control_sd"
    ] == pytest.approx(0.0, abs=1e-12)
    save_sampled_optimum(controlled)
    saved = saved_sampled_optimum(load_variant(folder / "cheap.toml"), 1, 3)
    assert saved.control.mean == controlled.control.mean
    assert np.array_equal(saved.control.samples, controlled.control.samples)
    assert saved.summary() == figures


def test_a_saved_estimate_gives_the_optimal_rtp(cheap_exchanges, tmp_path, no_proxy, monkeypatch):
    variant, folder = cheap_exchanges
    monkeypatch.setenv("STUDSIM_CACHE_DIR", str(tmp_path))
    result = sampled_optimum(variant, runs(folder, 1), 100, seed=5, short_draws=1,
                             classes=CLASSES)  # fmt: skip
    long_variant = load_variant(folder / "cheap.toml")
    save_sampled_optimum(result, tmp_path / "copy.npz")
    assert saved_sampled_optimum(long_variant) is None  # the default split's: not saved
    saved = saved_sampled_optimum(long_variant, 1)
    assert saved is not None and saved.summary() == result.summary()
    assert (tmp_path / "copy.npz").exists()


def test_optimal_rtp_says_how_it_is_known():
    """Both intervals of the shipped estimates, and beside Russian's the run drawing
    situations by their bound, the narrower without the normal approximation."""
    assert optimal_rtp(load_variant("caribbean"))["method"] == "exact"
    known = optimal_rtp(load_variant("oasis-classic"))
    assert "sampled" in known["method"]
    russian = optimal_rtp(load_variant("russian"))
    for figures in (known, russian, russian["by_bound"]):
        low, high = figures["interval"]
        free_low, free_high = figures["interval_distribution_free"]
        assert free_low <= low <= figures["rtp"] <= high <= free_high
    assert "drawn by their proven bound" in russian["by_bound"]["how"]
    width = np.diff(russian["interval_distribution_free"])
    assert np.diff(russian["by_bound"]["interval_distribution_free"]) < width
    row = {"optimal_rtp_interval_999": russian["interval"],
           "optimal_rtp_interval_999_distribution_free": russian["interval_distribution_free"],
           "optimal_rtp_by_bound": russian["by_bound"], "optimal_rtp_with_game": None,
           "optimal_rtp": russian["rtp"], "optimal_rtp_method": russian["method"],
           "variant": "russian", "strategy": "basic", "method": "simulation", "rtp": 0.85,
           "house_edge": 0.15, "standard_deviation": 2.3}  # fmt: skip
    line = headline_markdown(pd.DataFrame([row])).splitlines()[-1]
    free_low, free_high = russian["by_bound"]["interval_distribution_free"]
    assert f"proxy): {russian['by_bound']['rtp']:.6f}; 99.9% interval" in line
    assert f"{free_low:.6f} to {free_high:.6f} (distribution-free)" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["exact", "oasis", "--samples", "10"], "samples, short draws, thinning, the"),
        (["exact", "oasis", "--short-draws", "0"], "samples, short draws, thinning, the"),
        (["exact", "oasis", "--thin", "8"], "samples, short draws, thinning, the"),
        (["exact", "oasis", "--control"], "the control and sampling by the bound go with"),
        (["exact", "oasis", "--by-bound"], "sampling by the bound go with"),
        (["exact", "russian", "-s", "optimal", "--by-bound", "--thin", "8"], "never thinned"),
        (["exact", "russian", "-s", "optimal", "--thin", "0"], "thin: one in 1 or more"),
        (["exact", "russian", "-s", "optimal", "--short-draws", "3"], "0 to 2 cards"),
        (
            ["exact", "oasis-classic", "-s", "optimal", "--classes", "5", "--table", "t"],
            "keeps no table",
        ),
    ],
)
def test_impossible_options_are_one_line_errors(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_the_command_measures_a_variant_with_long_exchanges(cheap_exchanges, tmp_path, no_proxy):
    _, folder = cheap_exchanges
    text = (folder / "cheap.toml").read_text()
    text = text.replace("2 = 0.25 }", "2 = 0.25, 3 = 0.25 }")
    (tmp_path / "three.toml").write_text(text)
    args = ["exact", str(tmp_path / "three.toml"), "-s", "optimal", "--classes", "30"]
    args += ["--samples", "20", "--out-dir", str(tmp_path / "out"), "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    figures = data["summary"]
    assert figures["samples"] == 20 and figures["seed"] == 1
    assert figures["rtp"] >= figures["rtp_lower_bound"]
    assert data["short_draws"]["variant"]["name"] == "cheap-oasis-draws2"
    assert (tmp_path / "out" / "exact-optimal.json").exists()
    assert (tmp_path / "out" / "optimal-samples-seed1.npz").exists()

    kept = {path.name: path.read_bytes() for path in (tmp_path / "out").iterdir()}
    result = CliRunner().invoke(main, [*args, "--short-draws", "0"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["enumerated_draws"] == 0
    assert data["short_draws"]["variant"]["name"] == "cheap-oasis-draws0"
    assert data["summary"]["rtp_lower_bound"] < figures["rtp_lower_bound"]
    assert "no exchange" in data["method"]
    for name in ["exact-optimal-draws0.json", "optimal-samples-draws0-seed1.npz"]:
        assert (tmp_path / "out" / name).exists()
    for name, content in kept.items():  # the default split's files untouched
        assert (tmp_path / "out" / name).read_bytes() == content, name


@pytest.mark.parametrize(
    ("name", "split", "thin", "by_bound"),
    [("oasis-classic", 2, 1, False), ("six-card-125", 2, 1, False), ("russian", 2, 1, False),
     ("russian", 0, 1, False), ("russian", 0, 8, False), ("russian", 0, 1, True),
     ("six-card-125", 2, 1, True), ("six-card-125", 0, 1, True), ("oasis-classic", 2, 1, True)],
)  # fmt: skip
def test_the_committed_checkpoints_are_keyed_to_this_code(name, split, thin, by_bound):
    """results/ keeps the enumerated short game, the proxy, the bound and the samples of
    the shipped figures, keyed by the kernels that made them: a change to those kernels
    must show it gives the same numbers and re-key them, else they would be recomputed
    from nothing."""
    variant = load_variant(name)
    folder = RESULTS / name
    short = with_draws_up_to(variant, split)
    assert read_keyed_npz(folder / f"optimal-draws{split}.npz", optimal_sampled._key(short))
    code, bound_code = source_hash(*PROXY_SOURCES), source_hash(*BOUND_SOURCES)
    samples = f"{optimal_sampled._key(variant)}-{split}-None-1"
    shipped = saved_sampled_optimum(variant, split, thin, by_bound)
    suffix = run_suffix(split, thin, by_bound)
    drawn = -(-shipped.samples // BLOCK) * BLOCK * thin
    bound = folder / f"optimal-bound{run_suffix(split, by_bound=by_bound)}-seed1.npz"
    assert kept_proxy(bound, samples, drawn, bound_code, "bound_samples")
    if by_bound:  # the proxy is weighed on the situations the bound kept
        samples += f"-bybound-{bound_code}"
    assert kept_proxy(folder / f"optimal-proxy{suffix}-seed1.npz", samples, drawn, code)
    if shipped.control:
        assert kept_proxy(folder / f"optimal-control{suffix}-seed1.npz", samples, drawn, code)
    if thin > 1:
        samples += f"-thin{thin}-{code}"
    assert read_keyed_npz(folder / f"optimal-samples{suffix}-seed1.npz", samples)


def test_a_different_run_in_the_cache_than_the_shipped_one_is_one_warning(tmp_path, monkeypatch):
    """The shipped file is read; where the cache holds another run of it the command says
    so on one line (once), and says nothing where the two are the same."""
    from simulate import optimal_game

    name = "russian-optimal-sampled-game-v1-0adda7049a80bb76.npz"
    shipped = Path(optimal_game.__file__).parent / "tables" / name
    monkeypatch.setattr(optimal_game, "cache_dir", lambda: tmp_path)
    optimal_game._warn_if_cache_differs.cache_clear()
    (tmp_path / name).write_bytes(shipped.read_bytes())
    same = CliRunner().invoke(main, ["game-buy", "russian", "--json"])
    assert same.exit_code == 0 and "Warning" not in same.stderr
    optimal_game._warn_if_cache_differs.cache_clear()
    np.savez(tmp_path / name, game_gain=np.array(0.5))
    other = CliRunner().invoke(main, ["game-buy", "russian", "--json"])
    assert other.exit_code == 0, other.output
    lines = [line for line in other.stderr.splitlines() if line.startswith("Warning:")]
    assert len(lines) == 1 and "the cache holds another run of " + name in lines[0]
    assert (
        json.loads(other.stdout)["rtp"] == optimal_rtp(load_variant("russian"))["with_game"]["rtp"]
    )
