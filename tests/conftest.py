import os

# The two test workers each run parallel kernels on both cores: OpenMP threads that
# spin while waiting would take the other worker's core, so they sleep instead.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from importlib import resources
from itertools import combinations

import numpy as np
import pytest

from simulate import gain_bound, optimal_sampled, proxy
from simulate._proxy import OFFSETS, OTHERS, superset_sums_jit
from simulate.gain_bound import GainBounds
from simulate.proxy import ProxyGains
from simulate.variant import load_variant


@pytest.fixture(scope="session")
def all_five_card_hands() -> np.ndarray:
    """Every 5-card hand, in lexicographic order."""
    return np.array(list(combinations(range(52), 5)), dtype=np.int8)


@pytest.fixture(scope="session")
def cheap_exchanges(tmp_path_factory):
    """Oasis with cheap exchanges, so that two-card exchanges are often best: a game
    whose deals can all be weighed, to check the sampled estimate against."""
    folder = tmp_path_factory.mktemp("cheap")
    text = (resources.files("simulate") / "variants" / "oasis.toml").read_text()
    text = text.replace("exchange = { 1 = 1, 2 = 1.5 }", "exchange = { 1 = 0.5, 2 = 0.25 }")
    text = text.replace('name = "oasis"', 'name = "cheap-oasis"')
    (folder / "cheap.toml").write_text(text)
    return load_variant(folder / "cheap.toml"), folder


@pytest.fixture
def no_removal(monkeypatch):
    """The proxy and the control without their first-order correction for the discards'
    removal, whose tables take a minute per upcard rank: for tests of what does not
    depend on it. (The control differs from the proxy only in that correction.)"""

    def zeros(variant, rank, plays, ramp):
        return np.zeros((2, OTHERS, OFFSETS[6]))  # untouched pages cost nothing

    monkeypatch.setattr(proxy, "removal_tables", zeros)


@pytest.fixture
def no_bound(monkeypatch):
    """No proven bound of the long exchanges' gain but the proxy's (the real one takes a
    minute per upcard rank): for tests of what does not depend on it."""

    def unbounded(variant, short_draws, hands, upcards, **options):
        return GainBounds(np.inf, np.nan, np.full(len(hands), np.inf))

    monkeypatch.setattr(optimal_sampled, "gain_bounds", unbounded)


@pytest.fixture
def coarse_removal(monkeypatch):
    """The bound's removal effects coarsened, a proven but loose bound of the positive
    parts of minus every card's removal effect: EV + 1 + BET (no dealer's hand loses the
    player more), tabulated once (the exact tables take a minute per upcard rank)."""

    def coarse_sums(variant, rank, plays):
        sums = np.empty(OFFSETS[6])
        superset_sums_jit(np.maximum(0.0, plays + 1.0 + variant.arrays().bet), sums)
        return np.broadcast_to(sums, (OTHERS, OFFSETS[6]))

    monkeypatch.setattr(gain_bound, "_removal_sums", coarse_sums)


@pytest.fixture
def no_proxy(monkeypatch):
    """A proxy of zero gain everywhere (bounding gains by 10 antes), for the tests about
    something else (the proxy of a real game takes tens of seconds)."""

    def zero(variant, short_draws, hands, upcards, **options):
        return ProxyGains(0.0, 0.0, 10.0, np.zeros(len(hands)))

    monkeypatch.setattr(optimal_sampled, "proxy_gains", zero)
