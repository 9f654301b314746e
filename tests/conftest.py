from itertools import combinations

import numpy as np
import pytest


@pytest.fixture(scope="session")
def all_five_card_hands() -> np.ndarray:
    """Every 5-card hand, in lexicographic order."""
    return np.array(list(combinations(range(52), 5)), dtype=np.int8)
