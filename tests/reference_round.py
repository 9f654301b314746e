"""A plain-Python round, for checking the numba engine: same cards, same
decisions (the strategy's kernel), fees, settlement, the dealer's exchange and
the bonus by the plain-Python referee from the variant file as written."""

import numpy as np

from simulate import _engine as engine
from simulate import _strategy as k
from simulate.cards import format_card
from simulate.codes import Action, GameMode, Point
from simulate.settlement import Outcome

from . import oracle


def named(cards):
    return [format_card(c) for c in cards]


def reference_round(variant, strategy, key, index, boxes=1, open_boxes=1, share_seen=True):
    """Per box, (net, outcome, category, bonus, wager, decisions taken) of round ``index``
    of ``boxes`` boxes, the first ``open_boxes`` decided by the strategy (a rule one)."""
    game = oracle.rules(variant.name)
    state = np.array([engine.round_state_jit(key, index)], dtype=np.uint64)
    used = np.zeros(1, dtype=np.int64)

    def draw():
        return int(engine.draw_card_jit(state, used))

    def decide(point, cards, seen):
        mask = np.int64(sum(1 << c for c in seen))
        cards = np.array(cards, dtype=np.int64)
        return k.decide_jit(strategy.rules, point, cards, dealer[4], mask)

    hands = [[draw() for _ in range(5)] for _ in range(boxes)]
    dealer = [draw() for _ in range(5)]
    boxes_played, seen_before = [], set()
    for box, dealt in enumerate(hands):
        drawn_before = used[0]
        if box < open_boxes:
            before = seen_before if share_seen else set()
            hand, fees, folded, taken = _play_box(game, dealt, decide, draw, before)
        else:
            hand, fees, folded, taken = dealt, 0.0, False, ["blind play"]
        drawn = {c for c in range(52) if (used[0] & ~drawn_before) >> c & 1}
        own = set(dealt) | drawn
        known = (seen_before | own) if share_seen else own
        seen_before |= own
        boxes_played.append([hand, fees, folded, taken, known])
    bought, after = [False] * boxes, None
    if not oracle.qualifies(game, named(dealer)) and "buy_game" in game:
        discard = oracle.dealer_discard(game, named(dealer))
        foreseen = draw() if strategy.game_mode == engine.GAME_FORESEEN else None
        for box, (hand, fees, folded, taken, known) in enumerate(boxes_played):
            if folded:
                continue
            dealt = {c for c in range(52) if used[0] >> c & 1}
            dead = dealt if share_seen else known | set(dealer)  # every card seen
            declined = oracle.settle(game, named(hand), named(dealer), fees=fees)[0]

            def bought_net(new, hand=hand, fees=fees):
                after = [new if c == discard else c for c in named(dealer)]
                return oracle.settle(
                    game, named(hand), named(dealer), fees=fees, bought=True, dealer_after=after
                )[0]

            if strategy.game_mode == GameMode.EXACT:
                unseen = named(c for c in range(52) if c not in dead)
                gains = [bought_net(new) for new in unseen]
                bought[box] = sum(gains) / len(gains) > declined
            elif foreseen is not None:  # he sees the card the exchange brings
                bought[box] = bought_net(format_card(foreseen)) > declined
            elif strategy.game_mode == GameMode.RULES:
                bought[box] = decide(Point.BUY_GAME, hand, dead)[0] == Action.BUY_THE_GAME
            seen = ", card seen" if foreseen is not None else ""
            taken.append(("bought game" if bought[box] else "declined game") + seen)
        if any(bought):
            new = foreseen if foreseen is not None else draw()
            after = [format_card(new) if c == discard else c for c in named(dealer)]
    results = []
    for box, (hand, fees, folded, taken, _) in enumerate(boxes_played):
        net, outcome = oracle.settle(
            game, named(hand), named(dealer), folded=folded, fees=fees, bought=bought[box],
            dealer_after=after if bought[box] else None,
        )  # fmt: skip
        wager = 1 + fees + (0 if folded else game["wagers"]["bet"])
        if bought[box] and not game["buy_game"].get("fee_is_ante", False):
            wager += oracle.game_fee(game)
        category = oracle.CATEGORIES.index(oracle.category(named(hand), game["hands"]["ace_king"]))
        bonus = oracle.bonus(game, named(hands[box][:5])) if "bonus" in game else 0.0
        results.append((net, int(Outcome[outcome]), category, bonus, wager, taken))
    return results


def _play_box(game, dealt, decide, draw, seen_before):
    """(final hand, fees, folded, decisions taken) of an open box, the cards of
    ``seen_before`` seen on earlier boxes."""
    hand, taken, fees, folded = list(dealt), [], 0.0, False
    seen = set(seen_before) | set(dealt)

    def drawn():
        card = draw()
        seen.add(card)
        return card

    action, kept = decide(Point.FIRST, hand, seen)
    if action == Action.FOLD:
        folded = True
        taken.append("fold")
    elif action == Action.PLAY:
        taken.append("play")
    elif action == Action.BUY:
        taken.append("buy")
        fees += oracle.fee(game, "buy")
        hand.append(drawn())
        action, kept = decide(Point.AFTER_BUY, hand, seen)
        if action == Action.REPLACE:
            taken.append("replace")
            fees += oracle.fee(game, "replace")
            hand = [card if kept >> i & 1 else drawn() for i, card in enumerate(hand)]
            action, kept = decide(Point.AFTER_DRAW, hand, seen)
        folded = action == Action.FOLD
        taken.append("fold after draw" if folded else "play after draw")
    else:
        thrown = 5 - bin(kept).count("1")
        taken.append(f"exchange {thrown}")
        hand = [card if kept >> i & 1 else drawn() for i, card in enumerate(hand)]
        fees += oracle.fee(game, "exchange", thrown)
        if oracle.forces_bet(game, thrown):
            taken.append("forced play")
        else:
            folded = decide(Point.AFTER_DRAW, hand, seen)[0] == Action.FOLD
            taken.append("fold after draw" if folded else "play after draw")
    return hand, fees, folded, taken
