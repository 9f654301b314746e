"""A plain-Python round, for checking the numba engine: same cards, same
decisions, settled by the public settlement API."""

import numpy as np

from simulate import _engine as engine
from simulate import _strategy as k
from simulate.cards import parse_cards
from simulate.evaluator import hand_category, hand_value
from simulate.settlement import bonus_multiple, dealer_discard, settle


def reference_round(variant, strategy, key, index):
    """(won, lost, outcome, category, bonus, wager, decisions taken) of round ``index``."""
    state = np.array([engine.round_state_jit(key, index)], dtype=np.uint64)
    used = np.zeros(1, dtype=np.int64)

    def draw():
        return int(engine.draw_card_jit(state, used))

    def decide(point, cards):
        return k.decide_jit(strategy.rules, point, np.array(cards, dtype=np.int64), dealer[4])

    hand = [draw() for _ in range(5)]
    dealer = [draw() for _ in range(5)]
    bonus = bonus_multiple(variant, hand) if variant.bonus_pays else 0.0
    taken, fees, folded = [], 0.0, False
    action, kept = decide(k.FIRST, hand)
    if action == k.FOLD:
        folded = True
        taken.append("fold")
    elif action == k.PLAY:
        taken.append("play")
    elif action == k.BUY:
        taken.append("buy")
        fees += variant.buy_fee
        hand.append(draw())
        action, kept = decide(k.AFTER_BUY, hand)
        if action == k.REPLACE:
            taken.append("replace")
            fees += variant.replace_fee
            hand = [card if kept >> i & 1 else draw() for i, card in enumerate(hand)]
            action, kept = decide(k.AFTER_DRAW, hand)
        folded = action == k.FOLD
        taken.append("fold after draw" if folded else "play after draw")
    else:
        thrown = 5 - bin(kept).count("1")
        taken.append(f"exchange {thrown}")
        hand = [card if kept >> i & 1 else draw() for i, card in enumerate(hand)]
        fees += variant.exchange_fees[thrown]
        if thrown in variant.exchange_forces_bet:
            taken.append("forced play")
        else:
            folded = decide(k.AFTER_DRAW, hand)[0] == k.FOLD
            taken.append("fold after draw" if folded else "play after draw")
    bought, after = False, None
    if not folded and hand_value(dealer) < variant.qualifier_value and variant.buy_game:
        discard = int(parse_cards(dealer_discard(variant, dealer))[0])
        if strategy.game_mode == engine.GAME_EXACT:
            unseen = [c for c in range(52) if not used[0] >> c & 1]
            declined = settle(variant, hand, dealer, fees=fees).net
            trials = [[c if c != discard else new for c in dealer] for new in unseen]
            gains = [
                settle(variant, hand, dealer, fees=fees, bought_game=True, dealer_after=trial).net
                for trial in trials
            ]
            bought = sum(gains) / len(gains) > declined
        elif strategy.game_mode == engine.GAME_RULES:
            bought = decide(k.BUY_GAME, hand)[0] == k.BUY_THE_GAME
        taken.append("bought game" if bought else "declined game")
        if bought:
            after = [c if c != discard else draw() for c in dealer]
    result = settle(
        variant, hand, dealer, folded=folded, fees=fees, bought_game=bought, dealer_after=after
    )
    wager = 1 + fees + (0 if folded else variant.bet)
    if bought and not variant.buy_game.fee_is_ante:
        wager += variant.buy_game.fee
    category = hand_category(hand, ace_king=variant.ace_king)
    return result.won, result.lost, int(result.outcome), int(category), bonus, wager, taken
