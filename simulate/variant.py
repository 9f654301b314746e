"""Game variants as data: every rule and pay table of a variant, read from TOML.

The shipped variants live in ``simulate/variants/``; a user's own file is
loaded by its path and works the same way.

>>> oasis = load_variant("oasis")
>>> oasis.bet_pays[Category.FULL_HOUSE], oasis.exchange_fees
(7.0, {1: 1.0, 2: 1.5})
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _evaluator
from ._datafile import DataFileError, Table, data_hash, data_record, read_text
from ._settlement import discard_table, five_card_pays
from .codes import FEES, Category, DealerDiscard, Fee
from .evaluator import threshold_value

__all__ = [
    "Account",
    "BuyGame",
    "Variant",
    "VariantArrays",
    "VariantError",
    "load_variant",
    "variant_names",
]

DEALER_DISCARDS = tuple(d.key for d in DealerDiscard)


class VariantError(DataFileError):
    """A variant that cannot be found, read or validated."""


@dataclass(frozen=True)
class BuyGame:
    """Buying the dealer a game when he does not qualify: he exchanges one card."""

    fee: float
    """Fee in antes, never returned."""
    fee_is_ante: bool
    """The ante itself is the fee: it is not lost again, and still paid on a win."""
    dealer_discards: str
    """``most-outs``: the card whose discard leaves most qualifying draws (ties:
    the lowest card); ``highest``: his highest card."""


@dataclass(frozen=True)
class Account:
    """Stake limits of an account type, in currency."""

    name: str
    ante: tuple[float, float]
    bonus: tuple[float, float] | None
    max_payout: float | None
    """The most a box (or a bet, see ``Variant.payout_cap``) can win; None: no cap."""


@dataclass(frozen=True)
class Variant:
    """Every rule of a variant. Amounts are in antes unless said otherwise."""

    name: str
    title: str
    source: str
    file: str
    ace_king: bool
    """A-K high is a category of its own, between high card and a pair."""
    dealer_qualifies: str
    """The dealer's lowest qualifying hand, as written: a category or five cards."""
    qualifier_value: int
    """The lowest qualifying hand value."""
    bet: float
    ante_pays: float
    """The ante's win when the player beats a qualifying dealer (0: returned only)."""
    ante_pays_no_qualify: float
    """The ante's win when the dealer does not qualify; the BET is returned."""
    second_combination: bool
    """Russian poker: a second combination is paid beside the first."""
    bet_pays: dict[Category, float]
    """BET pays N to 1, by the winning player's category."""
    buy_fee: float | None
    """Buying a sixth card; None: not offered."""
    exchange_fees: dict[int, float]
    """Fee by the number of cards exchanged; empty: no exchange."""
    exchange_forces_bet: frozenset[int]
    replace_fee: float | None
    """Replacing one of six cards after a buy; None: not offered."""
    buy_game: BuyGame | None
    bonus_pays: dict[Category, float] | None
    """Bonus side bet on the first five cards: N to 1; lost below the table."""
    payout_cap: str
    """``box``: an account's maximum payout covers a box's bets together; ``bet``: each."""
    accounts: dict[str, Account]
    boxes: int
    open_boxes: int
    ante_ratio_max: float | None
    open_antes_descending: bool
    data: dict = field(repr=False, compare=False)
    """The file's content, as read."""

    @classmethod
    def from_dict(cls, data: dict, source: str = "(in memory)") -> Variant:
        """A variant from its rules as data, laid out as in a variant file."""
        data = json.loads(json.dumps(data))  # the variant's own copy; Table reads a copy
        try:
            return _parse(Table(data, source), source, data)
        except DataFileError as error:
            raise VariantError(str(error)) from None

    def replace(self, **tables: dict) -> Variant:
        """This variant with tables of its rules changed, key by key:
        ``oasis.replace(bet_pays={"four-of-a-kind": 20})``."""
        data = json.loads(json.dumps(self.data))
        for name, changes in tables.items():
            data[name] = {**data.get(name, {}), **changes}
        return Variant.from_dict(data, f"{self.name} (changed)")

    @property
    def categories(self) -> list[Category]:
        """The categories of this variant, lowest first."""
        return [c for c in Category if self.ace_king or c != Category.ACE_KING]

    @property
    def rules_hash(self) -> str:
        """SHA-256 of the rules as data (independent of layout and comments)."""
        return data_hash(self.data)

    def record(self) -> dict:
        """What identifies the variant in an output: name, file, rules hash and rules."""
        return data_record(self.name, self.file, self.data)

    def arrays(self) -> VariantArrays:
        """The rules the numba kernels read."""
        bet_pays = np.zeros(len(Category))
        for category, pays in self.bet_pays.items():
            bet_pays[category] = pays
        bonus_pays = np.full(len(Category), -1.0)
        for category, pays in (self.bonus_pays or {}).items():
            bonus_pays[category] = pays
        game = self.buy_game
        return VariantArrays(
            ace_king=self.ace_king,
            qualifier=self.qualifier_value,
            bet=self.bet,
            ante_pays=self.ante_pays,
            ante_pays_no_qualify=self.ante_pays_no_qualify,
            bet_pays=bet_pays,
            second_combination=self.second_combination,
            game_fee=game.fee if game else np.nan,
            game_fee_is_ante=bool(game and game.fee_is_ante),
            dealer_discards=DEALER_DISCARDS.index(game.dealer_discards if game else "most-outs"),
            has_bonus=self.bonus_pays is not None,
            bonus_pays=bonus_pays,
            discards=(
                discard_table(self.qualifier_value)
                if game and game.dealer_discards == "most-outs"
                else np.zeros(0, dtype=np.uint8)
            ),
            five_card_pays=(
                five_card_pays(bet_pays, self.ace_king) if self.second_combination else np.zeros(0)
            ),
        )

    @property
    def has_draws(self) -> bool:
        """Whether the player may buy or exchange cards."""
        return self.buy_fee is not None or bool(self.exchange_fees)

    def draw_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(fees of buying, of exchanging 1..5 cards and of replacing, NaN where not
        offered; whether exchanging i cards forces the BET) as the kernels read them."""
        fees = np.full(FEES, np.nan)
        fees[Fee.BUY] = np.nan if self.buy_fee is None else self.buy_fee
        for count, fee in self.exchange_fees.items():
            fees[count] = fee  # slot k: exchanging k cards
        fees[Fee.REPLACE] = np.nan if self.replace_fee is None else self.replace_fee
        forced = np.zeros(6, dtype=np.bool_)
        for count in self.exchange_forces_bet:
            forced[count] = True
        return fees, forced


class VariantArrays(NamedTuple):
    """A variant's settlement rules as scalars and arrays, for numba."""

    ace_king: bool
    qualifier: int
    bet: float
    ante_pays: float
    ante_pays_no_qualify: float
    bet_pays: np.ndarray
    second_combination: bool
    game_fee: float
    game_fee_is_ante: bool
    dealer_discards: int
    has_bonus: bool
    bonus_pays: np.ndarray
    discards: np.ndarray
    """The dealer's most-outs discard by the colex rank of his hand (empty: not used)."""
    five_card_pays: np.ndarray
    """What the BET pays a winning five-card hand with its second combination, by the
    hand's value (empty: the pay follows the category)."""


def variant_names() -> list[str]:
    """Names of the shipped variants."""
    folder = resources.files("simulate") / "variants"
    return sorted(
        item.name.removesuffix(".toml") for item in folder.iterdir() if item.name.endswith(".toml")
    )


def load_variant(variant: Variant | str | Path) -> Variant:
    """A shipped variant by name (``oasis``), or a variant file by path (a variant is
    returned as it is). Files are parsed once per content."""
    if isinstance(variant, Variant):
        return variant
    path = Path(variant)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise VariantError(f"{path}: no such variant file")
        return _read_variant(path, str(path), str(path))
    if str(variant) not in variant_names():
        known = ", ".join(variant_names())
        raise VariantError(f"unknown variant {str(variant)!r} (known: {known}; or a .toml path)")
    file = resources.files("simulate") / "variants" / f"{variant}.toml"
    with resources.as_file(file) as real_path:
        return _read_variant(real_path, f"{variant}.toml", str(file))


def with_draws_up_to(variant: Variant, cards: int) -> Variant:
    """The variant with exchanges of at most ``cards`` cards: a game of its own, with its
    own name and rules hash (its optimal play bounds the full game's from below)."""
    data = json.loads(json.dumps(variant.data))
    decisions = data.get("decisions", {})
    exchange = {k: fee for k, fee in decisions.get("exchange", {}).items() if int(k) <= cards}
    decisions["exchange"] = exchange
    if "exchange_forces_bet" in decisions:
        decisions["exchange_forces_bet"] = [
            k for k in decisions["exchange_forces_bet"] if k <= cards
        ]
    data["name"] = f"{variant.name}-draws{cards}"
    data["title"] = f"{variant.title}, exchanging at most {cards} cards"
    return Variant.from_dict(data, variant.file)


def _category(table: Table, key: str, ace_king: bool) -> Category:
    try:
        category = Category.from_key(key)
    except KeyError:
        raise table.error(
            key, f"not a hand category ({', '.join(c.key for c in Category)})"
        ) from None
    if category == Category.ACE_KING and not ace_king:
        raise table.error(key, "this variant has no ace-king category (hands.ace_king = false)")
    return category


def _pay_table(table: Table, ace_king: bool) -> dict[Category, float]:
    pays = {}
    for key, _ in list(table.data.items()):
        pays[_category(table, key, ace_king)] = table.number(key)
    table.done()
    return dict(sorted(pays.items(), reverse=True))


def _qualifier_value(table: Table, text: str) -> int:
    try:
        return threshold_value(text)
    except ValueError as error:
        raise table.error("dealer_qualifies", str(error)) from None


def _read_variant(file: Path, label: str, origin: str) -> Variant:
    try:
        text = read_text(file, label)
    except DataFileError as error:
        raise VariantError(str(error)) from None
    return _parsed_variant(text, label, origin)


@functools.lru_cache(maxsize=64)
def _parsed_variant(text: str, label: str, origin: str) -> Variant:
    try:
        root = Table.parse(text, label)
        return _parse(root, origin, json.loads(json.dumps(root.data)))
    except DataFileError as error:
        raise VariantError(str(error)) from None


def _parse(root: Table, file: str, data: dict) -> Variant:
    name, title = root.text("name"), root.text("title")
    source = root.text("source", "")

    hands = root.table("hands", required=True)
    ace_king = hands.flag("ace_king")
    dealer_qualifies = hands.text("dealer_qualifies")
    qualifier_value = _qualifier_value(hands, dealer_qualifies)
    hands.done()

    wagers = root.table("wagers", required=True)
    bet = wagers.number("bet", minimum=0)
    ante_pays = wagers.number("ante_pays")
    ante_pays_no_qualify = wagers.number("ante_pays_no_qualify")
    second_combination = wagers.flag("second_combination")
    wagers.done()

    bet_pays = _pay_table(root.table("bet_pays", required=True), ace_king)
    lowest_winner = Category(int(_evaluator.category_jit(qualifier_value, ace_king)))
    for category in Category:
        if (
            category >= lowest_winner
            and category not in bet_pays
            and (ace_king or category != Category.ACE_KING)
        ):
            raise root.error(f"bet_pays.{category.key}", "missing: a winning hand can be one")

    decisions = root.table("decisions") or Table({}, root.source, "decisions")
    buy_fee = decisions.number("buy", required=False)
    exchange_fees: dict[int, float] = {}
    exchange = decisions.table("exchange")
    if exchange:
        for key, _ in list(exchange.data.items()):
            if key not in {"1", "2", "3", "4", "5"}:
                raise exchange.error(key, "the cards exchanged must be 1 to 5")
            exchange_fees[int(key)] = exchange.number(key)
        exchange.done()
    forces = decisions.numbers("exchange_forces_bet") or []
    for count in forces:
        if count not in exchange_fees:
            raise decisions.error("exchange_forces_bet", f"{count:g} cards cannot be exchanged")
    replace_fee = decisions.number("replace_after_buy", required=False)
    if replace_fee is not None and buy_fee is None:
        raise decisions.error("replace_after_buy", "needs a buy (decisions.buy)")
    decisions.done()

    buy_game = None
    if game := root.table("buy_game"):
        fee_is_ante = game.flag("fee_is_ante")
        if fee_is_ante and game.has("fee"):
            raise game.error("fee", "the ante is the fee (fee_is_ante = true)")
        fee = 1.0 if fee_is_ante else game.number("fee")
        discards = game.text("dealer_discards")
        if discards not in DEALER_DISCARDS:
            raise game.error("dealer_discards", f"must be one of {', '.join(DEALER_DISCARDS)}")
        game.done()
        buy_game = BuyGame(fee, fee_is_ante, discards)

    bonus_pays = None
    if bonus := root.table("bonus"):
        bonus_pays = _pay_table(bonus.table("pays", required=True), ace_king)
        if not bonus_pays:
            raise bonus.error("pays", "empty")
        bonus.done()

    limits = root.table("limits") or Table({}, root.source, "limits")
    payout_cap = limits.text("payout_cap", "box")
    if payout_cap not in ("box", "bet"):
        raise limits.error("payout_cap", "must be box or bet")
    accounts = {}
    if accounts_table := limits.table("accounts"):
        for account in list(accounts_table.data):
            table = accounts_table.table(account, required=True)
            accounts[account] = _account(table, account, bonus_pays is not None)
        accounts_table.done()
    limits.done()

    boxes_table = root.table("boxes", required=True)
    boxes = boxes_table.integer("max", minimum=1)
    open_boxes = boxes_table.integer("open", minimum=1)
    if open_boxes > boxes:
        raise boxes_table.error("open", f"more open boxes ({open_boxes}) than boxes ({boxes})")
    ante_ratio_max = boxes_table.number("ante_ratio_max", required=False, minimum=1)
    open_antes_descending = boxes_table.flag("open_antes_descending")
    boxes_table.done()
    root.done()
    return Variant(
        name=name,
        title=title,
        source=source,
        file=file,
        ace_king=ace_king,
        dealer_qualifies=dealer_qualifies,
        qualifier_value=qualifier_value,
        bet=bet,
        ante_pays=ante_pays,
        ante_pays_no_qualify=ante_pays_no_qualify,
        second_combination=second_combination,
        bet_pays=bet_pays,
        buy_fee=buy_fee,
        exchange_fees=exchange_fees,
        exchange_forces_bet=frozenset(int(c) for c in forces),
        replace_fee=replace_fee,
        buy_game=buy_game,
        bonus_pays=bonus_pays,
        payout_cap=payout_cap,
        accounts=accounts,
        boxes=boxes,
        open_boxes=open_boxes,
        ante_ratio_max=ante_ratio_max,
        open_antes_descending=open_antes_descending,
        data=data,
    )


def _account(table: Table, name: str, has_bonus: bool) -> Account:
    ante = table.numbers("ante", 2)
    if ante is None:
        raise table.error("ante", "missing")
    bonus = table.numbers("bonus", 2)
    if bonus is not None and not has_bonus:
        raise table.error("bonus", "this variant has no bonus bet")
    for key, pair in (("ante", ante), ("bonus", bonus)):
        if pair is not None and not 0 <= pair[0] <= pair[1]:
            raise table.error(key, f"must be [min, max] with 0 <= min <= max, got {pair}")
    max_payout = table.number("max_payout", required=False, minimum=0)
    table.done()
    return Account(name, tuple(ante), tuple(bonus) if bonus else None, max_payout)
