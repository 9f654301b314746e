"""The bankroll rule at its edges, and sessions played on a bankroll."""

import numpy as np
import pytest

from simulate.catalog import load_strategy
from simulate.codes import Decision
from simulate.session import sessions
from simulate.simulation import run
from simulate.stakes import StakePlan
from simulate.variant import load_variant

from .test_simulation import KernelRounds


class Rounds(KernelRounds):
    """Rounds replayed one at a time with a given bankroll beyond the stakes."""

    def __init__(self, name, boxes=1, seed=4):
        variant = load_variant(name)
        open_boxes = min(boxes, variant.open_boxes)
        super().__init__(variant, load_strategy("basic", name), seed, boxes, open_boxes)

    def taken(self, index, money=np.inf):
        """(per-box results, per-box decision counts) of round ``index``."""
        self.decisions[:] = 0
        results = self.play(index, money)
        return results, self.decisions.copy()

    def first(self, decision, box=0, start=0):
        """The first round from ``start`` where box ``box`` takes ``decision`` freely."""
        index = start
        while self.taken(index)[1][box, decision] == 0:
            index += 1
        return index


def test_a_draw_is_refused_when_the_bet_could_not_follow():
    rounds = Rounds("oasis")  # exchange 1: fee 1, then the BET 2
    index = rounds.first(Decision.EXCHANGE_1)
    free, _ = rounds.taken(index)
    assert rounds.taken(index, 3.0)[0] == free  # exactly enough
    [(won, lost, *_)], taken = rounds.taken(index, 2.999)
    assert taken[0, Decision.REFUSED] == 1 and taken[0, Decision.EXCHANGE_1] == 0
    assert taken[0, Decision.PLAY] + taken[0, Decision.FOLD] == 1  # on the dealt cards
    if taken[0, Decision.FOLD]:
        assert (won, lost) == (0.0, 1.0)  # no fee paid


def test_a_bet_that_cannot_be_paid_is_a_fold():
    rounds = Rounds("oasis")
    index = rounds.first(Decision.PLAY)
    free, _ = rounds.taken(index)
    assert rounds.taken(index, 2.0)[0] == free
    [(won, lost, *_)], taken = rounds.taken(index, 1.999)
    assert taken[0, Decision.BET_UNPAID] == 1 and (won, lost) == (0.0, 1.0)


def test_a_later_box_may_only_fold_once_the_first_has_spent_the_bankroll():
    rounds = Rounds("oasis", boxes=2)
    index = 0
    while not all(rounds.taken(index)[1][:, Decision.PLAY]):
        index += 1
    results, taken = rounds.taken(index, 3.0)  # box 1's BET leaves 1
    assert taken[0, Decision.PLAY] == 1 and taken[0, Decision.BET_UNPAID] == 0
    assert taken[1, Decision.BET_UNPAID] == 1 and results[1][:2] == (0.0, 1.0)
    assert rounds.taken(index, 4.0)[0] == rounds.taken(index)[0]


def test_buying_the_dealer_a_game_needs_its_fee():
    rounds = Rounds("six-card")  # the game costs 1 ante
    index = rounds.first(Decision.GAME_BOUGHT)
    free, taken = rounds.taken(index)
    paid = 2.0 + taken[0, Decision.BUY] * 1.0 + taken[0, Decision.REPLACE] * 2.0
    assert rounds.taken(index, paid + 1.0)[0] == free
    _, refused = rounds.taken(index, paid + 0.999)
    assert refused[0, Decision.REFUSED] == 1 and refused[0, Decision.GAME_DECLINED] == 1


def test_sessions_without_limits_add_up_to_the_simulation():
    """A bankroll no round can exhaust: the sessions play the simulation's rounds, so
    their results add up to its net."""
    result = sessions("six-card", "basic", bankroll=1e9, boxes=(2,), rounds=50, count=300, seed=3)
    simulated = run("six-card", "basic", 50 * 300, seed=3)
    assert (result.final - 1e9).sum() == pytest.approx(2 * simulated.summary["net"], abs=1e-3)
    assert (result.played == 50).all() and (result.ended == 0).all()


def test_sessions_are_the_same_whatever_the_threads_and_end_as_they_say():
    kwargs = dict(bankroll=60, boxes=StakePlan((5, 5)), rounds=80, count=1500, seed=2)
    one = sessions("oasis", "basic", threads=1, stop_loss=40, stop_win=50, **kwargs)
    two = sessions("oasis", "basic", threads=2, stop_loss=40, stop_win=50, **kwargs)
    for name in ["final", "played", "ended", "drawdown"]:
        assert np.array_equal(getattr(one, name), getattr(two, name))
    endings = one.endings().set_index("ending")["sessions"]
    assert endings.sum() == 1500 and (endings[["stop-loss", "stop-win"]] > 0).all()
    assert (one.final[one.ended == 2] <= 20).all() and (one.final[one.ended == 3] >= 110).all()
    assert (one.final[one.ended == 1] < 10).all()  # ruined: the stakes of a round unpaid
    start = one.paths[:, 0]
    assert np.isfinite(start).all()
    summary = one.summary
    assert summary["probability_of_stop_loss"] == pytest.approx(endings["stop-loss"] / 1500)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(bankroll=9, boxes=(5, 5)), "cannot pay the first round's stakes"),
        (dict(bankroll=100, boxes=(5, 5), stop_loss=-1), "stop_loss must be a positive"),
        (dict(bankroll=100, rounds=0), "rounds must be a positive whole number"),
        (dict(bankroll=100, boxes=(1, 1, 1, 1)), "oasis plays at most 3 boxes"),
    ],
)
def test_bad_sessions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sessions("oasis", "basic", **kwargs)
