"""What a player stakes on a round: the boxes, their antes and bonus bets, the account.

>>> plan = StakePlan((10, 5, 5))
>>> plan.check(load_variant("six-card")).boxes
3
>>> StakePlan((10, 60)).check(load_variant("six-card-125"))
Traceback (most recent call last):
...
ValueError: stake plan: the antes of box 1 (10) and box 2 (60) differ more than 5 times
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .codes import STAKE_SLOTS, StakeSlot
from .variant import Variant, load_variant

__all__ = ["Stake", "StakePlan", "stake_plan"]


@dataclass(frozen=True)
class Stake:
    """A stake in currency on one box: the ante, the bonus bet and the account whose
    limits and cap apply."""

    account: str
    ante: float
    bonus_bet: float = 0.0


@dataclass(frozen=True)
class StakePlan:
    """The boxes of a round, in the order they are played: each one's ante and bonus
    bet, in currency when an account is named (its limits and payout cap apply), else
    in any unit (only their ratios matter). The first ``Variant.open_boxes`` boxes are
    open, the rest blind."""

    antes: tuple[float, ...]
    bonus_bets: tuple[float, ...] = ()
    account: str | None = None

    @property
    def boxes(self) -> int:
        """How many boxes the round has."""
        return len(self.antes)

    def open_boxes(self, variant: Variant) -> int:
        """How many of the boxes are open (decided by the player)."""
        return min(self.boxes, variant.open_boxes)

    def bonus_bet(self, box: int) -> float:
        """The bonus bet on ``box`` (from 0)."""
        return self.bonus_bets[box] if self.bonus_bets else 0.0

    def check(self, variant: Variant) -> StakePlan:
        """This plan, if the variant's rules allow it; else a ValueError naming the rule."""
        antes, n = self.antes, self.boxes
        if n < 1:
            raise _error("a round needs at least one box")
        if n > variant.boxes:
            most = f"{variant.boxes} box" + ("es" if variant.boxes > 1 else "")
            raise _error(f"{variant.name} plays at most {most}, not {n}")
        for box, ante in enumerate(antes, 1):
            if isinstance(ante, bool) or not (_number(ante) and ante > 0):
                raise _error(f"the ante of box {box} must be a positive number, not {ante!r}")
        if self.bonus_bets:
            if len(self.bonus_bets) != n:
                raise _error(f"{len(self.bonus_bets)} bonus bets for {n} boxes")
            if variant.bonus_pays is None and any(self.bonus_bets):
                raise _error(f"{variant.name} has no bonus bet")
            for box, bet in enumerate(self.bonus_bets, 1):
                if isinstance(bet, bool) or not (_number(bet) and bet >= 0):
                    raise _error(f"the bonus bet of box {box} must be 0 or more, not {bet!r}")
        if variant.ante_ratio_max is not None and n > 1:
            low, high = int(np.argmin(antes)), int(np.argmax(antes))
            if antes[high] > variant.ante_ratio_max * antes[low]:
                first, second = sorted((low, high))
                raise _error(
                    f"the antes of box {first + 1} ({antes[first]:g}) and box {second + 1} "
                    f"({antes[second]:g}) differ more than {variant.ante_ratio_max:g} times"
                )
        if variant.open_antes_descending and self.open_boxes(variant) > 1:
            for box in range(1, self.open_boxes(variant)):
                if antes[box] > antes[box - 1]:
                    raise _error(
                        f"the ante of open box {box + 1} ({antes[box]:g}) is above that of "
                        f"box {box} ({antes[box - 1]:g}): the larger bet is played first"
                    )
        if self.account is not None:
            self._check_account(variant)
        return self

    def _check_account(self, variant: Variant) -> None:
        if self.account not in variant.accounts:
            known = ", ".join(variant.accounts) or "none"
            raise _error(f"{variant.name} has no account {self.account!r} (known: {known})")
        account = variant.accounts[self.account]
        for box in range(self.boxes):
            ante, bonus = self.antes[box], self.bonus_bet(box)
            if not account.ante[0] <= ante <= account.ante[1]:
                raise _error(
                    f"the ante of box {box + 1} ({ante:g}) is outside {account.name}'s "
                    f"limits {account.ante[0]:g}..{account.ante[1]:g}"
                )
            limits = account.bonus
            if bonus and (limits is None or not limits[0] <= bonus <= limits[1]):
                raise _error(
                    f"the bonus bet of box {box + 1} ({bonus:g}) is outside "
                    f"{account.name}'s limits"
                )

    def arrays(self, variant: Variant) -> np.ndarray:
        """Per box, the slots ``codes.StakeSlot`` the kernels read: in currency with an
        account (its cap applies), else all 0 (nothing capped)."""
        if self.account is None:
            return np.zeros((self.boxes, STAKE_SLOTS))
        return self.currency_arrays(variant)

    def currency_arrays(self, variant: Variant) -> np.ndarray:
        """The slots ``codes.StakeSlot`` per box, the antes taken as currency whatever the
        account (its maximum payout where there is one, else no cap)."""
        cap = None if self.account is None else variant.accounts[self.account].max_payout
        slots = np.zeros((self.boxes, STAKE_SLOTS))
        slots[:, StakeSlot.ANTE] = self.antes
        slots[:, StakeSlot.BONUS_BET] = [self.bonus_bet(box) for box in range(self.boxes)]
        slots[:, StakeSlot.MAXIMUM_PAYOUT] = np.inf if cap is None else cap
        slots[:, StakeSlot.CAP_PER_BET] = variant.payout_cap == "bet"
        return slots

    def record(self) -> dict:
        """The plan as data, for an output."""
        return {
            "antes": list(self.antes),
            "bonus_bets": list(self.bonus_bets),
            "account": self.account,
        }


def stake_plan(
    variant: Variant | str,
    boxes: int | Sequence[float] | StakePlan | None = None,
    stake: Stake | None = None,
) -> StakePlan:
    """The plan of a run, checked against the variant: ``boxes`` a number of boxes of
    equal antes, their antes, or a plan; ``stake`` one box in currency."""
    variant = load_variant(variant)
    if stake is not None:
        if boxes not in (None, 1):
            raise _error("give several boxes' stakes as one StakePlan, with its account")
        plan = StakePlan((stake.ante,), (stake.bonus_bet,), stake.account)
    elif boxes is None:
        plan = StakePlan((1.0,))
    elif isinstance(boxes, StakePlan):
        plan = boxes
    elif isinstance(boxes, int | np.integer) and not isinstance(boxes, bool):
        if boxes < 1:
            raise _error(f"a round needs at least one box, not {boxes}")
        plan = StakePlan((1.0,) * int(boxes))
    elif isinstance(boxes, Sequence) and not isinstance(boxes, str):
        plan = StakePlan(tuple(boxes))
    else:
        raise _error(f"boxes must be a number of boxes, their antes or a StakePlan, not {boxes!r}")
    return plan.check(variant)


def _number(x: object) -> bool:
    return isinstance(x, int | float | np.integer | np.floating) and math.isfinite(x)


def _error(message: str) -> ValueError:
    return ValueError(f"stake plan: {message}")
