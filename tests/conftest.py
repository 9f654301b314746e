from importlib import resources
from itertools import combinations

import numpy as np
import pytest

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
