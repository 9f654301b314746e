from pathlib import Path

import pytest

from simulate.codes import Category
from simulate.evaluator import hand_value
from simulate.variant import Variant, VariantError, load_variant, variant_names

SHIPPED = ["caribbean", "oasis", "oasis-classic", "russian", "six-card", "six-card-125"]
VARIANTS = Path(__file__).resolve().parents[1] / "simulate" / "variants"


def test_shipped_variants():
    assert variant_names() == SHIPPED
    for name in SHIPPED:
        variant = load_variant(name)
        assert variant.name == name and len(variant.rules_hash) == 64


def test_rules_as_in_rules_md():
    oasis, russian = load_variant("oasis"), load_variant("russian")
    six, six125 = load_variant("six-card"), load_variant("six-card-125")
    caribbean, classic = load_variant("caribbean"), load_variant("oasis-classic")
    assert oasis.ace_king and russian.ace_king and not six.ace_king and not caribbean.ace_king
    assert oasis.qualifier_value == russian.qualifier_value == hand_value("Ac Kd 4h 3s 2c")
    assert caribbean.qualifier_value == hand_value("Ac Kd 4h 3s 2c")
    assert six.qualifier_value == six125.qualifier_value == hand_value("2c 2d 3h 4s 5c")
    assert (
        oasis.bet_pays[Category.FOUR_OF_A_KIND] == 15
        and russian.bet_pays[Category.FOUR_OF_A_KIND] == 20
    )
    assert oasis.exchange_fees == {1: 1, 2: 1.5} and oasis.buy_fee is None
    assert russian.exchange_fees == dict.fromkeys(range(1, 6), 1.0) and russian.buy_fee == 1
    assert russian.ante_pays == 0 and russian.second_combination
    assert six.buy_fee == 1 and six.replace_fee == 2 and not six.exchange_fees
    assert six125.exchange_fees == {1: 1, 2: 1, 5: 1} and six125.buy_game.fee_is_ante
    assert six125.buy_game.dealer_discards == "highest"
    assert six.buy_game.dealer_discards == russian.buy_game.dealer_discards == "most-outs"
    assert oasis.buy_game is None and caribbean.buy_game is None
    assert (
        oasis.bonus_pays[Category.STRAIGHT] == 40
        and oasis.bonus_pays[Category.ROYAL_FLUSH] == 1000
    )
    assert min(six125.bonus_pays) == Category.THREE_OF_A_KIND
    assert oasis.accounts["LITE"].max_payout == 2000 and oasis.accounts["VIP"].ante == (20, 1000)
    assert (oasis.boxes, oasis.open_boxes, russian.open_boxes, six125.boxes) == (3, 3, 2, 4)
    assert classic.exchange_fees == {1: 1, 2: 2, 3: 3, 4: 2, 5: 1}
    assert classic.exchange_forces_bet == {5}
    assert caribbean.bet_pays[Category.HIGH_CARD] == 1


def test_a_users_file_loads_like_a_shipped_one(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        (VARIANTS / "oasis.toml").read_text().replace('name = "oasis"', 'name = "mine"')
    )
    mine = load_variant(path)
    assert mine.name == "mine" and mine.bet_pays == load_variant("oasis").bet_pays
    assert load_variant(str(path)).file == str(path)


def test_rules_hash_follows_the_rules_not_the_layout(tmp_path):
    text = (VARIANTS / "oasis.toml").read_text()
    (tmp_path / "a.toml").write_text("# a comment\n" + text)
    (tmp_path / "b.toml").write_text(text.replace("full-house = 7", "full-house = 8"))
    oasis = load_variant("oasis")
    assert load_variant(tmp_path / "a.toml").rules_hash == oasis.rules_hash
    assert load_variant(tmp_path / "b.toml").rules_hash != oasis.rules_hash


def variant_from(tmp_path, base, old, new):
    text = (VARIANTS / f"{base}.toml").read_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("base", "old", "new", "message"),
    [
        ("oasis", "pair = 1\n", "", "bet_pays.pair: missing"),
        (
            "oasis",
            "full-house = 7",
            "full-house = 7\nfull-hose = 7",
            "bet_pays.full-hose: not a hand category",
        ),
        ("oasis", "[wagers]", "[wagers]\nantes = 1", "wagers.antes: unknown key"),
        (
            "oasis",
            'title = "Oasis Stud Poker"',
            'title = "Oasis"\ncolour = "red"',
            "colour: unknown key",
        ),
        ("oasis", "bet = 2", 'bet = "two"', "wagers.bet: must be a number"),
        ("oasis", "bet = 2", "bet = -2", "wagers.bet: must be at least 0"),
        (
            "oasis",
            "{ 1 = 1, 2 = 1.5 }",
            "{ 1 = 1, 6 = 1.5 }",
            "decisions.exchange.6: the cards exchanged must be 1 to 5",
        ),
        (
            "oasis",
            "{ 1 = 1, 2 = 1.5 }",
            "{ 1 = 1, 2 = -1 }",
            "decisions.exchange.2: must be at least 0",
        ),
        (
            "oasis",
            'dealer_qualifies = "ace-king"',
            'dealer_qualifies = "aces"',
            "hands.dealer_qualifies: neither a category nor five cards",
        ),
        (
            "oasis",
            "ace_king = true",
            "ace_king = false",
            "bet_pays.ace-king: this variant has no ace-king category",
        ),
        ("oasis", "ace_king = true", 'ace_king = "yes"', "hands.ace_king: must be true or false"),
        ("oasis", "open = 3", "open = 4", "boxes.open: more open boxes (4) than boxes (3)"),
        ("oasis", "max = 3", "max = 0", "boxes.max: must be at least 1"),
        (
            "oasis",
            "ante = [1, 50]",
            "ante = [50, 1]",
            "limits.accounts.LITE.ante: must be [min, max]",
        ),
        (
            "oasis",
            "ante = [1, 50]",
            "ante = [1, 50, 70]",
            "limits.accounts.LITE.ante: must hold 2 numbers",
        ),
        (
            "oasis",
            'payout_cap = "box"',
            'payout_cap = "table"',
            "limits.payout_cap: must be box or bet",
        ),
        ("oasis", "pays = { royal", "payz = { royal", "bonus.pays: missing"),
        ("six-card", "buy = 1 ", "", "decisions.replace_after_buy: needs a buy"),
        (
            "six-card",
            'dealer_discards = "most-outs"',
            'dealer_discards = "random"',
            "buy_game.dealer_discards: must be one of",
        ),
        ("six-card", "fee = 1\n", "", "buy_game.fee: missing"),
        (
            "six-card-125",
            "fee_is_ante = true",
            "fee_is_ante = true\nfee = 1",
            "buy_game.fee: the ante is the fee",
        ),
        (
            "six-card",
            "ante = [1, 100]",
            "ante = [1, 100]\nbonus = [0, 5]",
            "limits.accounts.STANDARD.bonus: this variant has no bonus bet",
        ),
        (
            "oasis-classic",
            "exchange_forces_bet = [5]",
            "exchange_forces_bet = [6]",
            "decisions.exchange_forces_bet: 6 cards cannot be exchanged",
        ),
        ("oasis", "[hands]", "[hands\n", "not valid TOML"),
        ("caribbean", "[boxes]\nmax = 1\nopen = 1\n", "", "boxes: missing"),
    ],
)
def test_validation_errors_name_file_key_and_reason(tmp_path, base, old, new, message):
    path = variant_from(tmp_path, base, old, new)
    with pytest.raises(VariantError) as error:
        load_variant(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_unknown_variant_and_missing_file(tmp_path):
    with pytest.raises(VariantError, match=r"unknown variant 'poker' \(known: caribbean"):
        load_variant("poker")
    with pytest.raises(VariantError, match="no such variant file"):
        load_variant(tmp_path / "none.toml")


def test_a_variant_built_in_memory_equals_its_file():
    oasis = load_variant("oasis")
    built = Variant.from_dict(oasis.data)
    assert built.rules_hash == oasis.rules_hash
    assert built.bet_pays == oasis.bet_pays and built.exchange_fees == oasis.exchange_fees
    assert load_variant(built) is built


def test_a_changed_pay_table_is_a_new_variant():
    oasis = load_variant("oasis")
    richer = oasis.replace(bet_pays={"four-of-a-kind": 20})
    assert richer.bet_pays[Category.FOUR_OF_A_KIND] == 20
    assert oasis.bet_pays[Category.FOUR_OF_A_KIND] == 15
    assert richer.bet_pays[Category.FLUSH] == oasis.bet_pays[Category.FLUSH]
    assert richer.rules_hash != oasis.rules_hash


def test_bad_rules_in_memory_are_one_line_errors():
    data = load_variant("oasis").data | {"wagers": {"bet": "two"}}
    with pytest.raises(VariantError, match=r"^\(in memory\): wagers.bet: "):
        Variant.from_dict(data)
    with pytest.raises(VariantError, match=r"bet_pays\.flush"):
        load_variant("oasis").replace(bet_pays={"flush": "six"})


def test_a_variant_file_is_parsed_once_per_content(tmp_path):
    assert load_variant("oasis") is load_variant("oasis")
    path = tmp_path / "mine.toml"
    text = (Path(__file__).parents[1] / "simulate" / "variants" / "oasis.toml").read_text()
    path.write_text(text)
    first = load_variant(path)
    assert load_variant(path) is first
    path.write_text(text.replace("four-of-a-kind = 15", "four-of-a-kind = 20"))
    assert load_variant(path).bet_pays[Category.FOUR_OF_A_KIND] == 20


@pytest.mark.parametrize("pay", ["nan", "inf", "-inf"])
def test_a_pay_that_is_not_finite_is_refused(pay):
    oasis = load_variant("oasis")
    with pytest.raises(VariantError, match=r"bet_pays\.flush: must be a finite number"):
        oasis.replace(bet_pays={"flush": float(pay)})
