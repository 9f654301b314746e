"""A strategy's rules in words, from its data."""

from __future__ import annotations

from .strategy import Strategy

__all__ = ["describe_strategy", "rule_words"]

POINT_NAMES = {
    "first": "On the five dealt cards",
    "after_buy": "After buying a sixth card",
    "after_draw": "After an exchange or a replacement",
    "buy_game": "When the dealer does not qualify",
}
CONDITION_WORDS = {
    "at_least": "the hand is {} or better",
    "below": "the hand is below {}",
    "category": "the hand is a {}",
    "draw": "the cards hold {}",
    "holds": "the player holds the ranks {}",
    "holds_any": "the player holds one of the ranks {}",
    "upcard": "the upcard's rank is one of {}",
    "upcard_below": "the upcard's rank is below the player's card number {} (by rank, "
    "highest first)",
    "seen_upcard_rank": "the player has seen {} other cards of the upcard's rank",
}


def rule_words(rule: dict) -> str:
    """One rule in words: its action, and when it applies."""
    action = rule["action"]
    if action in ("exchange", "replace"):
        keep = rule["keep"]
        action += (
            f" (keep {keep if isinstance(keep, str) else ' and '.join(keep)}"
            + (f", throw {rule['throw']}" if "throw" in rule else "")
            + ")"
        )
    conditions = []
    for key, template in CONDITION_WORDS.items():
        if key in rule:
            value = rule[key]
            conditions.append(
                template.format(" or ".join(map(str, value)) if isinstance(value, list) else value)
            )
    if "upcard_matches" in rule:
        conditions.append(
            "the upcard's rank is "
            + ("" if rule["upcard_matches"] else "not ")
            + "among the player's"
        )
    return action + (" if " + " and ".join(conditions) if conditions else " otherwise")


def describe_strategy(strategy: Strategy) -> list[str]:
    """The strategy as sentences, one per decision point, rules in order."""
    lines = [f"{strategy.name} ({strategy.file}): " + " ".join(strategy.description.split())]
    for point, words in POINT_NAMES.items():
        rules = strategy.data.get(point)
        if rules:
            steps = "; ".join(f"{i}. {rule_words(rule)}" for i, rule in enumerate(rules, 1))
            lines.append(f"{words}, the first rule that applies: {steps}.")
    game = strategy.data.get("buy_game_decision", "never")
    lines.append(
        {
            "never": "The dealer's game is never bought.",
            "rules": "The dealer's game is bought by the rules above.",
            "exact": "The dealer's game is bought exactly when that is worth more than "
            "declining (every replacement card counted).",
        }[game]
    )
    return lines
