"""A variant's rules in words, generated from its data."""

from __future__ import annotations

from .codes import Category
from .variant import Variant

__all__ = ["describe_rules", "pay_table_rows", "rules_summary"]


def _antes(amount: float) -> str:
    return f"{amount:g} ante" + ("" if amount == 1 else "s")


def _qualifier(variant: Variant) -> str:
    try:
        return f"{Category.from_key(variant.dealer_qualifies).label} or better"
    except KeyError:
        return f"{variant.dealer_qualifies} or better"


def rules_summary(variant: Variant) -> dict:
    """One line of facts per variant, for listings."""
    options = ["fold", "bet"]
    if variant.buy_fee is not None:
        options.append("buy")
    if variant.exchange_fees:
        options.append("exchange " + ",".join(map(str, variant.exchange_fees)))
    if variant.replace_fee is not None:
        options.append("replace")
    if variant.buy_game:
        options.append("buy game")
    return {
        "variant": variant.name,
        "title": variant.title,
        "categories": len(variant.categories),
        "dealer qualifies": _qualifier(variant),
        "options": ", ".join(options),
        "bonus": "yes" if variant.bonus_pays else "no",
        "boxes": variant.boxes,
    }


def describe_rules(variant: Variant) -> list[str]:
    """The rules of play and wagers as sentences."""
    v = variant
    lines = [
        f"{v.title} ({v.name}), from {v.source or 'a user file'}.",
        "One 52-card deck, shuffled before every round. The player gets five cards a box, "
        "the dealer five, his last one face up.",
        f"Hands rank in {len(v.categories)} categories"
        + (
            ", ace-king (an ace and a king, no pair) between high card and a pair."
            if v.ace_king
            else "."
        ),
        f"The dealer qualifies with {_qualifier(v)}.",
        f"The player antes; on his five cards he may fold (losing the ante) or bet "
        f"{_antes(v.bet)}.",
    ]
    if v.buy_fee is not None:
        lines.append(
            f"He may instead buy a sixth card for {_antes(v.buy_fee)}; his hand is "
            "then the best five of six."
        )
    if v.replace_fee is not None:
        lines.append(
            f"After buying, he may replace one of his six cards for {_antes(v.replace_fee)}."
        )
    if v.exchange_fees:
        fees = "; ".join(f"{count} for {_antes(fee)}" for count, fee in v.exchange_fees.items())
        lines.append(f"He may instead exchange cards (number of cards: fee): {fees}.")
    if v.exchange_forces_bet:
        counts = ", ".join(map(str, sorted(v.exchange_forces_bet)))
        lines.append(f"Exchanging {counts} cards forces the bet.")
    if v.buy_fee is not None or v.exchange_fees:
        lines.append("After a draw he folds or bets. Fees are never returned.")
    ante_win = (
        "pays 1:1"
        if v.ante_pays == 1
        else ("is returned" if v.ante_pays == 0 else f"pays {v.ante_pays:g}:1")
    )
    lines += [
        f"Dealer does not qualify: the ante pays {v.ante_pays_no_qualify:g}:1 and the bet is "
        "returned.",
        f"Dealer qualifies: the higher hand wins; on a player's win the ante {ante_win} and the "
        "bet pays by the pay table; on a loss ante and bet are lost; equal hands push.",
    ]
    if v.second_combination:
        lines.append(
            "A winning hand that holds a second combination, with a card outside the "
            "cards of the first, is paid for both."
        )
    if game := v.buy_game:
        discard = (
            "the card whose discard leaves him most qualifying draws (ties: the lowest)"
            if game.dealer_discards == "most-outs"
            else "his highest card"
        )
        fee = "the ante itself" if game.fee_is_ante else _antes(game.fee)
        lines.append(
            f"When the dealer does not qualify, the player may buy him a game for {fee}: "
            f"he exchanges {discard}. If he then qualifies the box is settled as usual"
            + (
                " (the ante, taken as the fee, is not lost again but is paid on a win)"
                if game.fee_is_ante
                else ""
            )
            + "; if not, "
            + ("the bet is returned." if game.fee_is_ante else "ante and bet are returned.")
            + " The fee is never returned."
        )
    if v.bonus_pays:
        lowest = min(v.bonus_pays)
        lines.append(
            f"A bonus side bet on the first five cards wins with {lowest.label} or "
            "better, by its pay table, and is lost otherwise."
        )
    for account in v.accounts.values():
        cap = (
            "no maximum payout"
            if account.max_payout is None
            else (
                f"maximum payout {account.max_payout:,.0f} a "
                + ("box over all its bets" if v.payout_cap == "box" else "bet")
            )
        )
        bonus = f", bonus {account.bonus[0]:g} to {account.bonus[1]:g}" if account.bonus else ""
        lines.append(
            f"Account {account.name}: ante {account.ante[0]:g} to "
            f"{account.ante[1]:g}{bonus}; {cap}."
        )
    blind = v.boxes - v.open_boxes
    lines.append(
        f"Up to {v.boxes} box{'es' if v.boxes > 1 else ''} against one dealer hand"
        + (
            f", the last {blind} blind (ante and bet placed up front, no decisions)."
            if blind
            else "."
        )
    )
    return lines


def pay_table_rows(pays: dict[Category, float]) -> list[dict]:
    """A pay table as rows, best hand first."""
    return [
        {"hand": category.label, "pays": f"{pays[category]:g} to 1"}
        for category in sorted(pays, reverse=True)
    ]
