"""Helpers shared by the tests.

``STUDSIM_TEST_SCALE`` multiplies the sample sizes of the statistical and
cross-library tests (default 1: what CI runs).
"""

import os

import numpy as np

SCALE = float(os.environ.get("STUDSIM_TEST_SCALE", "1"))


def scaled(n: int) -> int:
    """A sample size scaled by ``STUDSIM_TEST_SCALE``."""
    return max(1, int(n * SCALE))


def random_hands(n: int, size: int, seed: int) -> np.ndarray:
    """n random hands of distinct cards, as an (n, size) int8 array."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size].astype(np.int8)
