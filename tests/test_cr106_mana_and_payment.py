"""Mana and paying for spells: mana cost syntax and mana value (CR 107.4, 202.2, 202.3), mana
abilities of lands (CR 305.6, 605), the mana pool and its emptying (CR 106.4), tapping and
untapping (CR 502.3), automatic and explicit payment (CR 601.2g-h), and no partial payment
(CR 601.2h, 733)."""

from __future__ import annotations

import pytest

import mtgsim
from conftest import add_hand, full_state, kinds, new_game, redefine, untouched, with_libraries

EMPTY_POOL = {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0, "C": 0}


def pool(**mana: int) -> dict[str, int]:
    return {**EMPTY_POOL, **mana}


def draw_spell(name: str, cost: str) -> dict:
    """A custom sorcery "Draw a card." with the given mana cost (no built-in card has it)."""
    return {"name": name, "mana_cost": cost, "type_line": "Sorcery", "oracle_text": "Draw a card.", "rules": {"spell": [{"draw": {"count": 1}}]}}


# ----- mana cost syntax and mana value ------------------------------------------------------------


@pytest.mark.parametrize(
    ("cost", "mana_value", "colors"),
    [
        ("{3}{B}", 4, ["B"]),  # 202.3
        ("{U}{U}{U}", 3, ["U"]),
        ("{W}{U}{B}{R}{G}", 5, ["W", "U", "B", "R", "G"]),  # 202.2c, colors in WUBRG order
        ("{G}{W}", 2, ["W", "G"]),
        ("{C}{C}", 2, []),  # 107.4c: colorless is no color
        ("{X}{R}", 1, ["R"]),  # 202.3e: X is 0 off the stack
        ("{X}{X}{G}", 1, ["G"]),
        ("{W/U}{W/U}", 2, ["W", "U"]),  # 202.3f, 202.2d
        ("{2/W}", 2, ["W"]),  # 202.3f: the largest component
        ("{2/W}{2/W}{2/W}", 6, ["W"]),
        ("{W/P}", 1, ["W"]),  # 202.3g
        ("{1}{G/P}{G/P}", 3, ["G"]),
        ("{10}", 10, []),
        ("{0}", 0, []),  # 107.4d
        ("", 0, []),  # 202.3a: no mana cost
    ],
)
def test_mana_value_and_colors_of_each_kind_of_symbol(cost, mana_value, colors):  # CR 202.3, 202.2, 107.4
    d = mtgsim.CardDef("Test Card", cost, "Sorcery")
    assert d.mana_cost == cost
    assert d.mana_value == mana_value
    assert d.colors == colors


def test_built_in_cards_mana_values():  # CR 202.3
    assert [mtgsim.card(n).mana_value for n in ("Monstrous War-Leech", "Lórien Revealed", "Everflowing Chalice", "Island")] == [4, 5, 0, 0]
    assert mtgsim.card("Glimpse the Unthinkable").colors == ["U", "B"]


@pytest.mark.parametrize(
    "cost",
    ["{", "{}", "2U", "{U", "U}", "{Q}", "{U/U}", "{2/2}", "{-1}", "{1.5}", "{01}", "{W/U/G}", "{P}", "{U}{", "{W}x", "{2/P}", "{X/2}"],
)
def test_malformed_costs_raise_malformed_cost_error(cost):  # CR 107.4 (the mana symbols there are)
    with pytest.raises(mtgsim.MalformedCostError):
        mtgsim.CardDef("Test Card", cost, "Sorcery")
    assert issubclass(mtgsim.MalformedCostError, mtgsim.MtgsimError)


# ----- mana abilities of lands ---------------------------------------------------------------------


@pytest.mark.parametrize(("land", "letter"), [("Plains", "W"), ("Island", "U"), ("Swamp", "B"), ("Mountain", "R"), ("Forest", "G")])
def test_basic_land_types_give_their_mana(land, letter):  # CR 305.6, 605.1a, 106.4
    g = new_game(strict=True)
    (l,) = g.add_cards(0, "battlefield", [land])
    g.activate_mana(l)
    assert g.mana_pool(0) == pool(**{letter: 1})
    assert g.object(l).tapped
    assert g.events == [{"kind": "mana_added", "player": 0, "source": l, "mana": "{" + letter + "}"}]
    assert g.mana_pool(1) == EMPTY_POOL


def test_a_nonbasic_land_with_two_basic_land_types_makes_either_and_the_player_chooses():  # CR 305.6, 605
    g = new_game()
    a, b = g.add_cards(0, "battlefield", ["Canyon Slough", "Canyon Slough"])  # Land — Swamp Mountain
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate_mana(a)  # two kinds of mana: the player must say which
    with untouched(g, mtgsim.InvalidArgumentError):
        g.activate_mana(a, "G")
    g.activate_mana(a, "B")
    g.activate_mana(b, "R")
    assert g.mana_pool(0) == pool(B=1, R=1)


def test_a_printed_mana_ability_of_a_land():  # CR 605.1a
    g = new_game()
    ash, temple = g.add_cards(0, "battlefield", ["Ash Barrens", "Temple of Malady"])
    g.activate_mana(ash)
    g.activate_mana(temple, "G")
    assert g.mana_pool(0) == pool(C=1, G=1)
    assert g.object(ash).tapped and g.object(temple).tapped


def test_wastes_taps_for_colorless():  # CR 605.1a (Wastes: "{T}: Add {C}."), 107.4c
    g = new_game()
    (w,) = g.add_cards(0, "battlefield", ["Wastes"])
    g.activate_mana(w)
    assert g.mana_pool(0) == pool(C=1)


def test_a_tapped_land_cannot_be_tapped_for_mana_again():  # CR 605.1a ({T} cost), 701.26, 733
    g = new_game()
    (m,) = g.add_cards(0, "battlefield", ["Mountain"])
    g.activate_mana(m)
    with untouched(g, mtgsim.IllegalActionError, match="tapped"):
        g.activate_mana(m)
    assert g.mana_pool(0) == pool(R=1)


def test_only_the_player_with_priority_activates_and_only_their_own_sources():  # CR 117.1d, 605.3a, 733
    g = new_game()
    (opp_island,) = g.add_cards(1, "battlefield", ["Island"])
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    (chalice,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    assert g.priority_player == 0
    with untouched(g, mtgsim.IllegalActionError):
        g.activate_mana(opp_island)  # player 0 has priority and doesn't control it
    with untouched(g, mtgsim.IllegalActionError):
        g.activate_mana(bears)  # no mana ability
    (forest,) = add_hand(g, 0, ["Forest"])
    with untouched(g, mtgsim.WrongZoneError):
        g.activate_mana(forest)  # not on the battlefield
    assert g.object(chalice).counters == {}
    g.add_counters(chalice, "charge", 2)
    g.activate_mana(chalice)  # "{T}: Add {C} for each charge counter"
    assert g.mana_pool(0) == pool(C=2)
    assert g.events[-1] == {"kind": "mana_added", "player": 0, "source": chalice, "mana": "{C}{C}"}


# ----- the mana pool --------------------------------------------------------------------------------


def test_unspent_mana_stays_in_the_pool_through_casting_and_resolving_within_a_step():  # CR 106.4
    g = with_libraries(new_game())
    m1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.activate_mana(m1)
    g.activate_mana(m2)
    assert g.mana_pool(0) == pool(R=2)
    g.cast(bolt, targets=[{"player": 1}])
    assert g.mana_pool(0) == pool(R=1)  # the Bolt took one {R} from the pool
    g.resolve_top()
    assert g.life(1) == 17
    assert (g.step, g.mana_pool(0)) == ("precombat_main", pool(R=1))


@pytest.mark.parametrize("players", [2, 3])  # two players' pools are emptied apart from more
def test_the_pool_empties_at_the_end_of_each_step_and_phase(players: int):  # CR 106.4, 500.5 (empties between steps)
    g = with_libraries(new_game(players))
    (m,) = g.add_cards(0, "battlefield", ["Mountain"])
    (i,) = g.add_cards(players - 1, "battlefield", ["Island"])
    g.activate_mana(m)
    for _ in range(players - 1):
        g.pass_priority()  # the last player gets priority in the same step
    g.activate_mana(i)
    assert (g.mana_pool(0), g.mana_pool(players - 1)) == (pool(R=1), pool(U=1))
    g.pass_priority()  # activating the mana ability started the round of passing over (CR 117.3c)
    assert (g.step, g.priority_player) == ("precombat_main", 0)
    for _ in range(players):
        g.pass_priority()  # all passed in succession with an empty stack: the main phase ends
    assert g.step == "begin_combat"
    assert (g.mana_pool(0), g.mana_pool(players - 1)) == (EMPTY_POOL, EMPTY_POOL)


def test_the_pool_empties_when_advancing_and_when_the_turn_ends():  # CR 106.4
    g = with_libraries(new_game())
    m1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    g.advance_to("end")
    g.activate_mana(m1)
    assert g.mana_pool(0) == pool(R=1)
    g.next_turn()
    assert (g.turn, g.step, g.mana_pool(0)) == (2, "upkeep", EMPTY_POOL)


def test_the_untap_step_untaps_only_the_active_players_permanents():  # CR 502.3
    g = with_libraries(new_game())
    (m,) = g.add_cards(0, "battlefield", ["Mountain"])
    (i,) = g.add_cards(1, "battlefield", ["Island"])
    g.activate_mana(m)
    g.set_tapped(i)
    g.next_turn()  # turn 2: player 1's
    assert (g.turn, g.active_player) == (2, 1)
    assert (g.object(m).tapped, g.object(i).tapped) == (True, False)
    g.next_turn()  # turn 3: player 0's
    assert (g.turn, g.active_player) == (3, 0)
    assert g.object(m).tapped is False


# ----- automatic payment --------------------------------------------------------------------------------


def test_auto_pay_spends_pool_mana_before_tapping_lands():  # CR 601.2g-h, 106.4
    g = with_libraries(new_game())
    m1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.activate_mana(m1)
    g.clear_events()
    spell = g.cast(bolt, targets=[{"player": 1}])
    assert g.object(m2).tapped is False
    assert g.mana_pool(0) == EMPTY_POOL
    assert kinds(g.events) == ["spell_cast"]  # nothing tapped for it
    assert g.stack() == [spell]


def test_auto_pay_finds_the_payment_a_greedy_choice_would_miss():  # CR 601.2h (a legal payment when one exists)
    g = with_libraries(new_game())
    # The Temple (B or G) comes first; tapping it for generic mana would leave the Swamp, which
    # can't make {G}. The only legal payment taps the Temple for {G} and the Swamp for {1}.
    temple, swamp = g.add_cards(0, "battlefield", ["Temple of Malady", "Swamp"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    spell = g.cast(bears)
    assert g.stack() == [spell]
    assert g.object(temple).tapped and g.object(swamp).tapped
    assert g.mana_pool(0) == EMPTY_POOL
    assert sorted(e["mana"] for e in g.events if e["kind"] == "mana_added") == ["{B}", "{G}"]


def test_auto_pay_for_two_kickers_across_dual_lands():  # CR 601.2f-h, 702.33b
    g = with_libraries(new_game())
    lands = g.add_cards(0, "battlefield", ["Canyon Slough", "Temple of Malady", "Plains", "Mountain", "Mountain", "Mountain"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    assert g.cost_of(nec, kick=[True, True]) == ("{3}{B}{G}{W}", True)
    g.cast(nec, kick=[True, True])  # Slough pays {B}, Temple {G}, Plains {W}, Mountains {3}
    assert all(g.object(l).tapped for l in lands)
    assert g.mana_pool(0) == EMPTY_POOL


def test_auto_pay_says_clearly_when_no_payment_exists_and_taps_nothing():  # CR 601.2h, 733
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Mountain"])
    (giant,) = add_hand(g, 0, ["Hill Giant"])
    assert g.cost_of(giant) == ("{3}{R}", False)
    with untouched(g, mtgsim.CannotPayError, match=r"can't pay \{3\}\{R\}"):
        g.cast(giant)
    assert g.hand(0) == [giant]


def test_no_partial_payment_even_with_mana_in_the_pool():  # CR 601.2h ("Partial payments are not allowed"), 733
    g = with_libraries(new_game())
    m1, m2, m3 = g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Mountain"])
    (giant,) = add_hand(g, 0, ["Hill Giant"])
    g.activate_mana(m1)
    with untouched(g, mtgsim.CannotPayError):
        g.cast(giant)  # {3}{R}: the pool's {R} and two Mountains are one short
    assert g.mana_pool(0) == pool(R=1)
    assert [g.object(m).tapped for m in (m1, m2, m3)] == [True, False, False]
    assert g.hand(0) == [giant]


def test_colored_mana_in_a_cost_can_be_paid_only_with_that_color():  # CR 107.4a
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Mountain", "Forest"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    assert g.cost_of(glimpse) == ("{U}{B}", False)  # three lands, but none makes {B}
    with untouched(g, mtgsim.CannotPayError):
        g.cast(glimpse, targets=[{"player": 1}])


# ----- explicit payment -----------------------------------------------------------------------------------


def test_explicit_payment_taps_exactly_the_chosen_sources():  # CR 601.2g-h
    g = with_libraries(new_game(strict=True))
    m1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    spell = g.cast(bolt, targets=[{"player": 1}], payment=[m2])
    assert (g.object(m1).tapped, g.object(m2).tapped) == (False, True)
    assert g.events[0] == {"kind": "mana_added", "player": 0, "source": m2, "mana": "{R}"}
    assert g.stack() == [spell]


def test_mana_made_beyond_the_cost_stays_in_the_pool():  # CR 106.4, 601.2g
    g = with_libraries(new_game(strict=True))
    m, i = g.add_cards(0, "battlefield", ["Mountain", "Island"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[{"player": 1}], payment=[m, i])
    assert g.object(i).tapped
    assert g.mana_pool(0) == pool(U=1)
    g.resolve_top()
    assert g.mana_pool(0) == pool(U=1)  # same step


def test_explicit_payment_may_use_the_pool_for_the_rest():  # CR 601.2h
    g = with_libraries(new_game(strict=True))
    f1, f2 = g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.activate_mana(f1)
    g.cast(bears, payment=[f2])
    assert g.mana_pool(0) == EMPTY_POOL
    assert g.object(f2).tapped


@pytest.mark.parametrize(
    "choose",
    [
        pytest.param(lambda ids: [ids["island"]], id="wrong-color"),
        pytest.param(lambda ids: [ids["opp_mountain"]], id="opponents-land"),
        pytest.param(lambda ids: [ids["tapped_mountain"]], id="tapped-land"),
        pytest.param(lambda ids: [ids["mountain"], ids["mountain"]], id="same-source-twice"),
        pytest.param(lambda ids: [ids["bears"]], id="not-a-mana-source"),
        pytest.param(lambda ids: [], id="nothing"),
        pytest.param(lambda ids: [ids["mountain"]], id="one-short"),
    ],
)
def test_an_explicit_payment_that_does_not_pay_is_rejected_and_nothing_is_tapped(choose):  # CR 601.2h, 118.3, 733
    g = with_libraries(new_game())
    ids = dict(
        zip(
            ["mountain", "island", "tapped_mountain", "bears"],
            g.add_cards(0, "battlefield", ["Mountain", "Island", "Mountain", "Grizzly Bears"]),
        )
    )
    g.set_tapped(ids["tapped_mountain"])
    (ids["opp_mountain"],) = g.add_cards(1, "battlefield", ["Mountain"])
    (bears,) = add_hand(g, 0, ["Hill Giant"])  # {3}{R}
    with untouched(g, mtgsim.CannotPayError):
        g.cast(bears, payment=choose(ids))
    assert g.hand(0) == [bears]


# ----- the "pay_mana" decision ------------------------------------------------------------------------------


def test_auto_pay_off_makes_the_sources_a_pay_mana_decision():  # CR 601.2g-h
    g = with_libraries(new_game())
    m1, i1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Island", "Mountain"])
    g.set_tapped(m1)
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    assert g.auto_pay(0) is True
    g.set_auto_pay(0, False)
    assert g.auto_pay(0) is False and g.auto_pay(1) is True
    assert g.cast(bolt, targets=[{"player": 1}]) is None
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.options, d.min) == (0, "choose_cards", "pay_mana", [i1, m2], 1)
    assert g.hand(0) == [bolt] and g.stack() == []  # nothing paid or moved yet
    (spell,) = g.answer([m2])
    assert g.stack() == [spell] and g.object(m2).tapped and not g.object(i1).tapped
    assert g.cast_info(spell)["targets"] == [[{"player": 1}]]


def test_a_pay_mana_answer_may_be_empty_when_the_pool_pays():  # CR 601.2h
    g = with_libraries(new_game())
    m1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.activate_mana(m1)
    g.set_auto_pay(0, False)
    g.cast(bolt, targets=[{"player": 1}])
    assert g.pending.purpose == "pay_mana"
    (spell,) = g.answer([])
    assert g.mana_pool(0) == EMPTY_POOL and not g.object(m2).tapped


def test_a_pay_mana_answer_that_is_not_an_option_is_rejected():  # CR 601.2h, 733
    g = with_libraries(new_game())
    m, _ = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])  # a choice of which to tap
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.set_auto_pay(0, False)
    g.cast(bolt, targets=[{"player": 1}])
    pending = g.pending
    for bad in ([bears], [m, m], [], "x", True):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(bad)
    assert g.pending == pending


def test_a_pay_mana_answer_that_cannot_pay_is_a_wrong_answer_and_the_decision_stays():  # CR 601.2h, 733; Game.answer docs
    g = with_libraries(new_game())
    i1, i2, i3, f = g.add_cards(0, "battlefield", ["Island", "Island", "Island", "Forest"])
    (jo,) = add_hand(g, 0, ["Joint Exploration"])
    g.set_auto_pay(0, False)
    g.cast(jo, kick=True)  # {1}{U}{G}
    pending = g.pending
    assert (pending.purpose, pending.min) == ("pay_mana", 3)
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([i1, i2, i3])  # three Islands can't pay {1}{U}{G}
    assert g.pending == pending


def test_with_auto_pay_off_an_unpayable_cost_is_refused_at_once_not_asked():  # CR 601.2h, 733
    # Before, the cast asked a pay_mana decision that no answer could satisfy.
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Mountain", "Mountain"])
    bolt, cs = add_hand(g, 0, ["Lightning Bolt", "Counterspell"])
    spell = g.cast(bolt, targets=[{"player": 1}])  # a Mountain pays; {U}{U} can't be paid now
    g.set_auto_pay(0, False)
    assert not any(a["action"] == "cast" and a["card"] == cs for a in g.priority_actions())
    with untouched(g, mtgsim.CannotPayError, match="not enough"):
        g.cast(cs, targets=[spell])
    assert g.pending is None and g.auto_pay(0) is False


# ----- hybrid, Phyrexian and colorless symbols (custom cards: no built-in card has them) -----------------------


def test_a_hybrid_symbol_takes_the_color_the_other_symbols_do_not_need():  # CR 107.4e, 601.2h
    g = with_libraries(new_game())
    (c,) = add_hand(g, 0, ["Stabilizer"])
    plains, island = g.add_cards(0, "battlefield", ["Plains", "Island"])
    g = redefine(g, "Stabilizer", draw_spell("Test Hybrid Draw", "{W/U}{U}"))
    assert g.cost_of(c) == ("{W/U}{U}", True)
    g.cast(c)
    assert g.object(plains).tapped and g.object(island).tapped
    assert g.mana_pool(0) == EMPTY_POOL


def test_a_two_generic_hybrid_is_paid_with_its_color_or_two_mana():  # CR 107.4e
    g = with_libraries(new_game())
    (c,) = add_hand(g, 0, ["Stabilizer"])
    m1, m2 = g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    g = redefine(g, "Stabilizer", draw_spell("Test Two-Hybrid Draw", "{2/W}"))
    with untouched(g, mtgsim.CannotPayError):
        g.cast(c, payment=[m1])
    g2 = g.clone()
    g2.cast(c, payment=[m1, m2])
    assert g2.object(m1).tapped and g2.object(m2).tapped
    (p,) = g.add_cards(0, "battlefield", ["Plains"])
    g.cast(c)  # auto-pay prefers the one {W}
    assert g.object(p).tapped and not g.object(m1).tapped and not g.object(m2).tapped


@pytest.mark.parametrize(
    ("life", "with_island", "life_after", "island_tapped"),
    [(20, True, 20, True), (20, False, 18, False), (2, False, 0, False)],
)
def test_phyrexian_mana_is_paid_with_mana_or_two_life(life, with_island, life_after, island_tapped):  # CR 107.4f, 119.4
    g = with_libraries(new_game())
    (c,) = add_hand(g, 0, ["Stabilizer"])
    (island,) = g.add_cards(0, "battlefield", ["Island"])
    if not with_island:
        g.set_tapped(island)
    g.set_life(0, life)
    g = redefine(g, "Stabilizer", draw_spell("Test Phyrexian Draw", "{U/P}"))
    spell = g.cast(c)
    assert g.stack() == [spell]
    assert g.object(island).tapped is (island_tapped or not with_island)
    assert g.life(0) == life_after
    assert g.is_over is (life_after == 0)  # paying down to 0 life is allowed (119.4), then 704.5a


def test_phyrexian_mana_cannot_be_paid_with_more_life_than_the_player_has():  # CR 119.4
    g = with_libraries(new_game())
    (c,) = add_hand(g, 0, ["Stabilizer"])
    g.set_life(0, 1)
    g = redefine(g, "Stabilizer", draw_spell("Test Phyrexian Draw", "{U/P}"))
    assert g.cost_of(c) == ("{U/P}", False)
    with untouched(g, mtgsim.CannotPayError):
        g.cast(c)


def test_the_colorless_symbol_needs_colorless_mana():  # CR 107.4c
    g = with_libraries(new_game())
    (c,) = add_hand(g, 0, ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Mountain", "Island"])
    g = redefine(g, "Stabilizer", draw_spell("Test Colorless Draw", "{C}"))
    with untouched(g, mtgsim.CannotPayError):
        g.cast(c)
    (ash,) = g.add_cards(0, "battlefield", ["Ash Barrens"])
    g.cast(c)
    assert g.object(ash).tapped


def test_redefined_games_keep_their_positions():  # the helper used above
    g = with_libraries(new_game())
    (c,) = add_hand(g, 0, ["Stabilizer"])
    g2 = redefine(g, "Stabilizer", draw_spell("Test Phyrexian Draw", "{U/P}"))
    assert g2.name(c) == "Test Phyrexian Draw" and g2.object(c).card.mana_value == 1
    assert g2.hand(0) == g.hand(0) and g2.library(1) == g.library(1)
    assert full_state(g) != full_state(g2)


def test_a_pay_mana_decision_asks_for_at_least_the_sources_the_cost_needs():  # CR 601.2g-h, 119.4
    # Its min was 0 whatever the cost, so answers of a size it allowed were all refused and the
    # legal actions offered no "done" at that size.
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Swamp", "Forest"])
    (corpse,) = add_hand(g, 0, ["Walking Corpse"])  # {1}{B}
    g.set_auto_pay(0, False)
    g.cast(corpse)
    d = g.pending
    assert (d.purpose, d.min, d.max) == ("pay_mana", 2, 4)
    assert not any(a.kind == "done" for a in g.legal_actions())
    # Mana already in the pool counts: one Island's blue leaves one source to tap.
    g = with_libraries(new_game())
    i1, i2, sw = g.add_cards(0, "battlefield", ["Island", "Island", "Swamp"])
    g.activate_mana(i1)
    (corpse,) = add_hand(g, 0, ["Walking Corpse"])
    g.set_auto_pay(0, False)
    g.cast(corpse)
    assert (g.pending.min, g.pending.options) == (1, [i2, sw])
    (spell,) = g.answer([sw])
    assert g.stack() == [spell]
