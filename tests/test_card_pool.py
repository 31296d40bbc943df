"""Every card of the card pool (/work/shared/rules/card_pool.json) does what its Oracle text says:
at least one scenario per card, through the public API, that would fail if the card's main clause
didn't work. Many cards also have deeper rule-by-rule tests elsewhere (test_cr603_*, test_cr614_*,
test_cr602_*, test_cr702_*); the scenarios here are card by card, and
``test_every_pool_card_has_a_scenario_here`` checks that none is missing.

Parts that need combat (flying, swampwalk, "can't be blocked", trample, first strike's effect)
and the opening hand are out of scope: those cards must list that text in
``mtgsim.card(name).unsupported``.

Every game is on the manual policy (conftest.new_game), so an unplanned decision shows up as
``pending``. Findings are in /work/notes/findings_cards.md; each is an ``xfail(strict=True)``
test here."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest

import mtgsim
from conftest import add_hand, kinds, names, new_game, with_libraries

POOL: list[dict[str, Any]] = json.loads(Path("/work/shared/rules/card_pool.json").read_text(encoding="utf-8"))
POOL_NAMES = [r["name"] for r in POOL]
P0, P1 = {"player": 0}, {"player": 1}

#: card name -> the scenario tests here that exercise it (filled in by @covers).
COVERED: dict[str, list[str]] = {}


def covers(*cards: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        for card in cards:
            assert card in POOL_NAMES, card
            COVERED.setdefault(card, []).append(test.__name__)
        return test

    return mark


def pass_round(g: mtgsim.Game) -> None:
    """Every player passes once: with a non-empty stack exactly the top object resolves."""
    for _ in range(g.num_players):
        g.pass_priority()


def by_name(g: mtgsim.Game, ids: list[int], name: str) -> list[int]:
    return [i for i in ids if g.name(i) == name]


def of_kind(g: mtgsim.Game, kind: str) -> list[dict[str, Any]]:
    return [e for e in g.events if e["kind"] == kind]


def controlled_by(g: mtgsim.Game, player: int) -> list[int]:
    return [i for i in g.battlefield() if g.object(i).controller == player]


def scry_all_bottom(g: mtgsim.Game) -> None:
    d = g.pending
    assert (d.kind, d.purpose) == ("scry", "scry")
    g.answer(([], d.cards))


def cast_and_resolve_permanent(g: mtgsim.Game, card: int, **kw: Any) -> int:
    """Casts a permanent spell and lets it resolve (triggers it causes stay on the stack);
    returns the permanent."""
    name = g.name(card)
    before = set(g.battlefield())
    g.cast(card, **kw)
    pass_round(g)
    (perm,) = [i for i in g.battlefield() if i not in before and g.name(i) == name]
    return perm


# ======================================================================================================
# The pool and the built-in data
# ======================================================================================================


@pytest.mark.parametrize("record", POOL, ids=POOL_NAMES)
def test_the_builtin_card_has_the_pools_printed_characteristics(record: dict[str, Any]) -> None:
    c = mtgsim.card(record["name"])
    assert (c.name, c.mana_cost, c.type_line, c.text) == (record["name"], record["mana_cost"], record["type_line"], record["oracle_text"])
    assert (c.power, c.toughness, c.mana_value) == (record.get("power"), record.get("toughness"), record["mana_value"])
    assert not c.is_token


#: Combat, and the opening hand, are out of scope: the text must be reported as unsupported.
UNSUPPORTED = [
    ("Troll of Khazad-dûm", "can't be blocked except by three or more creatures"),
    ("Archfiend of Ifnir", "Flying"),
    ("Street Wraith", "Swampwalk"),
    ("Tempest Owl", "Flying"),
    ("Necravolver", "trample"),
    ("Necravolver", "Whenever Necravolver deals damage, you gain that much life."),
    ("Sidisi, Brood Tyrant", "attacks"),
    ("Thrasios, Triton Hero", "Partner"),
]


@pytest.mark.parametrize("card, text", UNSUPPORTED)
def test_text_out_of_scope_is_reported_as_unsupported(card: str, text: str) -> None:
    assert any(text in line for line in mtgsim.card(card).unsupported), mtgsim.card(card).unsupported


@pytest.mark.parametrize("card, text", [("Flamespeaker Adept", "first strike"), ("Nimrodel Watcher", "can't be blocked")])
def test_granted_combat_keywords_are_reported_as_unsupported(card: str, text: str) -> None:
    assert any(text in line for line in mtgsim.card(card).unsupported), mtgsim.card(card).unsupported


# ======================================================================================================
# Basic lands and other lands
# ======================================================================================================


@covers("Plains", "Island", "Swamp", "Mountain", "Forest")
@pytest.mark.parametrize("land, color", [("Plains", "W"), ("Island", "U"), ("Swamp", "B"), ("Mountain", "R"), ("Forest", "G")])
def test_a_basic_land_is_played_untapped_and_taps_for_its_color(land: str, color: str) -> None:  # CR 305.6, 605
    g = with_libraries(new_game(strict=True))
    (card,) = add_hand(g, 0, [land])
    perm = g.play_land(card)
    assert not g.object(perm).tapped and g.object(perm).card.supertypes == ["Basic"]
    g.activate_mana(perm)
    assert g.object(perm).tapped
    assert g.mana_pool(0) == {**{c: 0 for c in "WUBRGC"}, color: 1}
    # And, untapped again, it pays for a one-mana spell of its color.
    g.next_turn()
    g.next_turn()
    assert not g.object(perm).tapped
    spell = {"W": "Savannah Lions", "U": "Mystical Tutor", "B": "Walking Corpse", "R": "Lightning Bolt", "G": "Veteran Explorer"}[color]
    (s,) = add_hand(g, 0, [spell])
    assert g.cost_of(s)[1] is (color != "B")  # Walking Corpse costs {1}{B}: one land is not enough
    if color != "B":
        g.advance_to("precombat_main")
        g.cast(s, targets=[P1] if color == "R" else None)
        assert g.object(perm).tapped


@covers("Canyon Slough")
def test_canyon_slough_enters_tapped_taps_for_b_or_r_and_cycles_for_2() -> None:  # CR 305.7, 614.1c, 702.29
    g = with_libraries(new_game())
    s1, s2 = add_hand(g, 0, ["Canyon Slough", "Canyon Slough"])
    perm = g.play_land(s1)
    assert g.object(perm).tapped  # "This land enters tapped."
    assert g.object(perm).card.subtypes == ["Swamp", "Mountain"]
    g.set_tapped(perm, False)
    g.activate_mana(perm, "B")
    g.set_tapped(perm, False)
    g.activate_mana(perm, "R")
    assert (g.mana_pool(0)["B"], g.mana_pool(0)["R"]) == (1, 1)
    g.set_tapped(perm, False)
    with pytest.raises(mtgsim.MtgsimError):
        g.activate_mana(perm, "G")
    # Cycling {2}: the two mana in the pool pay it; discard it, draw a card.
    top = g.library(0)[0]
    ab = g.cycle(s2)
    assert g.stack() == [ab] and names(g, g.graveyard(0)) == ["Canyon Slough"]
    assert g.mana_pool(0) == {c: 0 for c in "WUBRGC"}
    g.resolve_top()
    assert names(g, g.hand(0)) == [g.card_name(top)] and len(g.library(0)) == 9


@covers("Ash Barrens")
def test_ash_barrens_taps_for_colorless_and_basic_landcycles_for_1() -> None:  # CR 605, 702.29e
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Lightning Bolt", "Swamp", "Canyon Slough", "Forest"])
    (barrens,) = g.add_cards(0, "battlefield", ["Ash Barrens"])
    g.activate_mana(barrens)
    assert g.mana_pool(0)["C"] == 1
    (cycler,) = add_hand(g, 0, ["Ash Barrens"])
    g.cycle(cycler)
    g.resolve_top()
    d = g.pending
    # Only basic land cards: not the Bolt, not the nonbasic Canyon Slough.
    assert (d.purpose, sorted(d.options)) == ("search", sorted([lib[1], lib[3]]))
    g.answer([lib[3]])
    assert names(g, g.hand(0)) == ["Forest"] and names(g, g.graveyard(0)) == ["Ash Barrens"]
    assert of_kind(g, "revealed") and of_kind(g, "shuffled")


@covers("Evolving Wilds")
def test_evolving_wilds_fetches_a_basic_land_tapped_and_shuffles() -> None:  # CR 602.2, 701.23, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Canyon Slough", "Island", "Grizzly Bears", "Mountain"])
    (wilds,) = g.add_cards(0, "battlefield", ["Evolving Wilds"])
    ab = g.activate(wilds)
    assert g.stack() == [ab] and names(g, g.graveyard(0)) == ["Evolving Wilds"]  # sacrificed as a cost
    g.clear_events()
    g.resolve_top()
    d = g.pending
    assert sorted(d.options) == sorted([lib[1], lib[3]])
    g.answer([lib[3]])
    (mountain,) = by_name(g, g.battlefield(), "Mountain")
    assert g.object(mountain).tapped and g.object(mountain).controller == 0
    assert "shuffled" in kinds(g.events) and len(g.library(0)) == 3


@covers("Temple of Malady")
def test_temple_of_malady_enters_tapped_scries_1_and_taps_for_b_or_g() -> None:  # CR 614.1c, 603.6a, 701.22
    g = with_libraries(new_game())
    lib = g.library(0)
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    t = g.play_land(temple)
    assert g.object(t).tapped and names(g, g.stack()) == ["Temple of Malady"]
    g.resolve_top()
    d = g.pending
    assert (d.kind, d.cards) == ("scry", [lib[0]])
    g.answer(([], [lib[0]]))
    assert g.library(0) == lib[1:] + [lib[0]]
    for color in "BG":
        g.set_tapped(t, False)
        g.activate_mana(t, color)
    assert (g.mana_pool(0)["B"], g.mana_pool(0)["G"]) == (1, 1)
    g.set_tapped(t, False)
    with pytest.raises(mtgsim.MtgsimError):
        g.activate_mana(t, "U")


# ======================================================================================================
# The four seed cards
# ======================================================================================================


@covers("Monstrous War-Leech")
@pytest.mark.parametrize("kicked", [True, False])
def test_monstrous_war_leech_kicked_mills_four_as_it_enters_and_is_as_big_as_the_best_mana_value(kicked: bool) -> None:  # CR 702.33, 604.3
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "library", ["Island", "Jace, Wielder of Mysteries", "Counterspell", "Island", "Lórien Revealed"])
    g.add_cards(0, "graveyard", ["Lightning Bolt", "Demonic Tutor"])  # mana values 1 and 2
    g.add_cards(0, "battlefield", ["Swamp"] * 4 + ["Island"])
    (leech,) = add_hand(g, 0, ["Monstrous War-Leech"])
    spell = g.cast(leech, kick=kicked)
    assert g.kicked(spell) is kicked
    g.resolve_top()
    (perm,) = by_name(g, g.battlefield(), "Monstrous War-Leech")
    if kicked:
        assert len(g.graveyard(0)) == 6 and names(g, g.library(0)) == ["Lórien Revealed"]
        assert g.power_toughness(perm) == (4, 4)  # Jace, milled as it entered
    else:
        assert len(g.graveyard(0)) == 2 and len(g.library(0)) == 5
        assert g.power_toughness(perm) == (2, 2)  # Demonic Tutor
    # The characteristic-defining ability keeps counting (CR 604.3, 613.4a).
    g.add_cards(0, "graveyard", ["Lórien Revealed"])
    assert g.power_toughness(perm) == (5, 5)


@covers("Fractured Sanity")
def test_fractured_sanity_each_opponent_mills_fourteen() -> None:  # CR 701.17
    g = new_game(3)
    for p in (1, 2):
        g.add_cards(p, "library", ["Island"] * 20)
    g.add_cards(0, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.cast(fs)
    g.resolve_top()
    assert [len(g.library(p)) for p in range(3)] == [5, 6, 6]
    assert [len(g.graveyard(p)) for p in range(3)] == [1, 14, 14]


@covers("Fractured Sanity")
def test_fractured_sanity_cycled_mills_each_opponent_four_before_the_draw() -> None:  # CR 702.29, 603.3
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 10)
    lib = g.add_cards(0, "library", ["Swamp", "Island"])
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    ab = g.cycle(fs)
    top, bottom = g.stack()
    assert bottom == ab and g.name(top) == "Fractured Sanity"  # "when you cycle" above the draw
    g.resolve_top()
    assert len(g.library(1)) == 6 and g.hand(0) == []
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Swamp"] and len(g.library(0)) == 1


@covers("Joint Exploration")
@pytest.mark.parametrize("kicked", [True, False])
def test_joint_exploration_scries_2_draws_and_kicked_puts_a_land_from_hand(kicked: bool) -> None:  # CR 701.22, 702.33
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Lightning Bolt", "Swamp", "Forest", "Island"])
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    je, land = add_hand(g, 0, ["Joint Exploration", "Mountain"])
    g.cast(je, kick=kicked)
    g.resolve_top()
    d = g.pending
    assert (d.kind, d.cards) == ("scry", lib[:2])
    g.answer(([lib[1]], [lib[0]]))  # Swamp stays on top, the Bolt to the bottom
    (drawn,) = [c for c in g.hand(0) if c != land]
    assert g.name(drawn) == "Swamp"
    if kicked:
        d = g.pending
        assert (d.purpose, d.min, d.max, sorted(d.options)) == ("put_from_hand", 0, 1, sorted([land, drawn]))
        g.answer([land])
        assert by_name(g, g.battlefield(), "Mountain") and names(g, g.hand(0)) == ["Swamp"]
    else:
        assert g.pending is None and not by_name(g, g.battlefield(), "Mountain")
    assert names(g, g.library(0)) == ["Forest", "Island", "Lightning Bolt"]


@covers("Spellchain Scatter")
@pytest.mark.parametrize("kicked", [False, True])
def test_spellchain_scatter_conjures_a_duplicate_of_the_next_instant_or_sorcery(kicked: bool) -> None:  # CR 603.7
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Island"])
    scatter, bolt = add_hand(g, 0, ["Spellchain Scatter", "Lightning Bolt"])
    g.cast(scatter, kick=kicked)
    g.resolve_top()
    assert g.hand(0) == [bolt]
    g.cast(bolt, targets=[P1])
    # The delayed trigger: a duplicate of the Bolt into the hand (a new card, not a copy).
    assert names(g, g.stack()) == ["Spellchain Scatter", "Lightning Bolt"]
    g.resolve_top()
    (dup,) = g.hand(0)
    assert g.name(dup) == "Lightning Bolt" and not g.object(dup).card.is_token
    g.resolve_top()
    assert g.life(1) == 17
    # Only the next spell: a second spell conjures nothing.
    g.advance_to("end")
    if kicked:
        assert g.stack() == [] and g.hand(0) == [dup]
    else:  # unkicked: the duplicate is discarded at the beginning of the next end step
        assert names(g, g.stack()) == ["Spellchain Scatter"]
        g.resolve_top()
        assert g.hand(0) == [] and "Lightning Bolt" in names(g, g.graveyard(0))


# ======================================================================================================
# Instants and sorceries
# ======================================================================================================


@covers("Lightning Bolt")
def test_lightning_bolt_deals_3_to_a_creature_and_to_a_player() -> None:  # CR 120, 704.5g
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    giant, turtle = g.add_cards(1, "battlefield", ["Hill Giant", "Horned Turtle"])
    b1, b2, b3 = add_hand(g, 0, ["Lightning Bolt"] * 3)
    g.cast(b1, targets=[giant])
    g.resolve_top()
    assert names(g, g.graveyard(1)) == ["Hill Giant"]  # 3 damage: lethal for a 3/3
    g.cast(b2, targets=[P1])
    g.resolve_top()
    assert g.life(1) == 17
    assert [e["amount"] for e in of_kind(g, "damage_dealt")] == [3, 3]
    assert turtle in g.battlefield()
    with pytest.raises(mtgsim.CannotPayError):
        g.cast(b3, targets=[turtle])  # two Mountains, both used


@covers("Counterspell")
def test_counterspell_counters_target_spell() -> None:  # CR 701.6
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    g.add_cards(1, "battlefield", ["Island", "Island"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    (cs,) = add_hand(g, 1, ["Counterspell"])
    spell = g.cast(bolt, targets=[P1])
    g.pass_priority()
    assert g.priority_player == 1
    counter = g.cast(cs, targets=[spell])
    assert g.stack() == [counter, spell]
    g.clear_events()
    g.resolve_top()
    assert g.stack() == [] and g.life(1) == 20
    assert names(g, g.graveyard(0)) == ["Lightning Bolt"] and names(g, g.graveyard(1)) == ["Counterspell"]
    assert "countered" in kinds(g.events)


@pytest.mark.parametrize("card", ["Counterspell", "Ertai's Trickery"])
def test_target_spell_cannot_be_an_ability_on_the_stack(card: str) -> None:  # CR 112.1, 115.1a, 601.2c
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Ruin Crab", "Island", "Island"])
    counter, swamp = add_hand(g, 0, [card, "Swamp"])
    g.play_land(swamp)
    (ability,) = g.stack()  # Ruin Crab's landfall ability: not a spell
    assert {"action": "cast", "card": counter} not in g.priority_actions()  # no legal target
    with pytest.raises(mtgsim.MtgsimError):
        g.cast(counter, targets=[ability])


@covers("Demonic Tutor")
def test_demonic_tutor_finds_any_card_and_shuffles() -> None:  # CR 701.23, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Grizzly Bears", "Counterspell", "Forest"])
    g.add_cards(0, "battlefield", ["Swamp", "Swamp"])
    (dt,) = add_hand(g, 0, ["Demonic Tutor"])
    g.cast(dt)
    g.clear_events()
    g.resolve_top()
    d = g.pending
    assert (d.purpose, sorted(d.options), d.min, d.max) == ("search", sorted(lib), 1, 1)  # any card; must find one
    g.answer([lib[4]])  # the bottom card
    assert names(g, g.hand(0)) == ["Forest"] and names(g, g.graveyard(0)) == ["Demonic Tutor"]
    ks = kinds(g.events)
    assert ks.index("moved") < ks.index("shuffled") and "revealed" not in ks
    assert Counter(names(g, g.library(0))) == Counter(["Island", "Swamp", "Grizzly Bears", "Counterspell"])


@covers("Mystical Tutor")
def test_mystical_tutor_reveals_an_instant_or_sorcery_shuffles_and_puts_it_on_top() -> None:  # CR 701.23, 701.24b
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Lightning Bolt", "Grizzly Bears", "Gamble", "Swamp", "Evolving Wilds"])
    g.add_cards(0, "battlefield", ["Island"])
    (mt,) = add_hand(g, 0, ["Mystical Tutor"])
    g.cast(mt)
    g.clear_events()
    g.resolve_top()
    d = g.pending
    assert sorted(d.options) == sorted([lib[1], lib[3]])  # the instant and the sorcery only
    g.answer([lib[3]])
    # "then shuffle and put that card on top": whatever the shuffle did, it is on top.
    assert g.library(0)[0] == lib[3] and sorted(g.library(0)) == sorted(lib)
    assert kinds(g.events)[2:] == ["searched", "revealed", "shuffled", "resolved"]
    assert of_kind(g, "revealed")[0]["cards"] == [lib[3]]
    assert g.hand(0) == [] and names(g, g.graveyard(0)) == ["Mystical Tutor"]


@covers("Gamble")
def test_gamble_finds_a_card_discards_one_at_random_then_shuffles() -> None:  # CR 701.23, 701.9b, 701.24
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Counterspell", "Swamp"])
    g.add_cards(0, "battlefield", ["Mountain"])
    gamble, keep = add_hand(g, 0, ["Gamble", "Forest"])
    g.cast(gamble)
    g.clear_events()
    g.resolve_top()
    d = g.pending
    assert (d.purpose, sorted(d.options)) == ("search", sorted(lib))
    g.answer([lib[1]])  # no question about the discard: it's at random
    assert g.pending is None
    (disc,) = of_kind(g, "discarded")
    assert disc["random"] is True and g.card_name(disc["card"]) in ("Counterspell", "Forest")
    assert len(g.hand(0)) == 1 and sorted(names(g, g.hand(0) + [disc["card"]])) == ["Counterspell", "Forest"]
    ks = kinds(g.events)
    assert ks.index("discarded") < ks.index("shuffled")  # "..., discard a card at random, then shuffle"
    assert sorted(names(g, g.graveyard(0))) == sorted(["Gamble", g.card_name(disc["card"])])


@covers("Faithless Looting")
def test_faithless_looting_draws_two_discards_two_and_flashes_back_into_exile() -> None:  # CR 702.34
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 5)
    lib = g.add_cards(0, "library", ["Swamp", "Island", "Forest", "Plains"])
    g.add_cards(0, "battlefield", ["Mountain"] * 4)
    looting, keep = add_hand(g, 0, ["Faithless Looting", "Lightning Bolt"])
    g.cast(looting)
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.min, d.max, len(d.options)) == ("discard", 2, 2, 3)
    assert names(g, g.hand(0)) == ["Lightning Bolt", "Swamp", "Island"]  # drew two
    g.answer(g.hand(0)[1:])
    assert g.hand(0) == [keep] and sorted(names(g, g.graveyard(0))) == ["Faithless Looting", "Island", "Swamp"]
    (card,) = by_name(g, g.graveyard(0), "Faithless Looting")
    with pytest.raises(mtgsim.IllegalActionError):
        g.cast(card)  # not without flashback
    spell = g.cast(card, flashback=True)  # {2}{R}
    assert g.cast_info(spell)["flashback"] is True
    assert sum(g.object(m).tapped for m in g.battlefield()) == 4
    g.resolve_top()
    g.answer([keep, g.hand(0)[1]])
    assert names(g, g.exile()) == ["Faithless Looting"]  # exiled, not put into the graveyard
    assert "Faithless Looting" not in names(g, g.graveyard(0))


@covers("Glimpse the Unthinkable")
@pytest.mark.parametrize("target", [1, 0])
def test_glimpse_the_unthinkable_target_player_mills_ten(target: int) -> None:  # CR 701.17
    g = new_game(strict=True)
    for p in (0, 1):
        g.add_cards(p, "library", ["Island"] * 12)
    g.add_cards(0, "battlefield", ["Island", "Swamp"])
    (glimpse,) = add_hand(g, 0, ["Glimpse the Unthinkable"])
    g.cast(glimpse, targets=[{"player": target}])
    g.resolve_top()
    assert len(g.library(target)) == 2 and len(g.library(1 - target)) == 12
    assert len(g.graveyard(target)) == 10 + (target == 0)


@covers("Maddening Cacophony")
@pytest.mark.parametrize("kicked, expected", [(False, [8, 8]), (True, [7, 3])])
def test_maddening_cacophony_mills_eight_or_kicked_half_rounded_up(kicked: bool, expected: list[int]) -> None:  # CR 702.33
    g = new_game(3, strict=True)
    g.add_cards(1, "library", ["Island"] * 13)  # half, rounded up: 7
    g.add_cards(2, "library", ["Island"] * 5)  # 3; unkicked, only 5 of 8
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 6)
    (mc,) = add_hand(g, 0, ["Maddening Cacophony"])
    g.cast(mc, kick=kicked)
    g.resolve_top()
    milled = [len(e["cards"]) for e in of_kind(g, "milled")]
    assert milled == ([7, 3] if kicked else [8, 5])
    assert len(g.library(0)) == 10


@covers("Ertai's Trickery")
@pytest.mark.parametrize("kicked", [True, False])
def test_ertais_trickery_counters_a_spell_only_if_it_was_kicked(kicked: bool) -> None:  # CR 702.33d
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island", "Island", "Forest"])
    g.add_cards(1, "battlefield", ["Island"])
    (je,) = add_hand(g, 0, ["Joint Exploration"])
    (trick,) = add_hand(g, 1, ["Ertai's Trickery"])
    spell = g.cast(je, kick=kicked)
    g.pass_priority()
    g.cast(trick, targets=[spell])
    g.resolve_top()  # the Trickery
    if kicked:
        assert g.stack() == [] and names(g, g.graveyard(0)) == ["Joint Exploration"]
    else:
        assert g.stack() == [spell]  # it still resolves
        g.resolve_top()
        assert g.pending is not None and g.pending.kind == "scry"
    assert names(g, g.graveyard(1)) == ["Ertai's Trickery"]


SURPRISE_LIBRARY = ["Grizzly Bears", "Lightning Bolt", "Swamp", "Hill Giant", "Island"]


def surprise_game() -> tuple[mtgsim.Game, int, list[int]]:
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", SURPRISE_LIBRARY)
    g.add_cards(0, "battlefield", ["Forest"] * 9)
    (surprise,) = add_hand(g, 0, ["Smuggler's Surprise"])
    return g, surprise, lib


@covers("Smuggler's Surprise")
def test_smugglers_surprise_mill_four_and_take_up_to_two_creature_or_land_cards() -> None:  # CR 702.172, 701.17c
    g, surprise, lib = surprise_game()
    g.cast(surprise, modes=[0])
    assert sum(g.object(f).tapped for f in g.battlefield()) == 3  # {G} + {2}
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.min, d.max) == ("put_from_milled", 0, 2)
    assert names(g, d.options) == ["Grizzly Bears", "Swamp", "Hill Giant"]  # among the milled cards, not the Bolt
    g.answer(d.options[:2])
    assert sorted(names(g, g.hand(0))) == ["Grizzly Bears", "Swamp"]
    assert sorted(names(g, g.graveyard(0))) == ["Hill Giant", "Lightning Bolt", "Smuggler's Surprise"]
    assert names(g, g.library(0)) == ["Island"]


@covers("Smuggler's Surprise")
def test_smugglers_surprise_puts_up_to_two_creature_cards_from_hand_onto_the_battlefield() -> None:  # CR 702.172
    g, surprise, lib = surprise_game()
    giant, bears, bolt = add_hand(g, 0, ["Hill Giant", "Grizzly Bears", "Lightning Bolt"])
    g.cast(surprise, modes=[1])  # {G} + {4}{G}
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.max, sorted(d.options)) == ("put_from_hand", 2, sorted([giant, bears]))
    g.answer([giant, bears])
    assert sorted(names(g, controlled_by(g, 0))) == ["Forest"] * 9 + ["Grizzly Bears", "Hill Giant"]
    assert g.hand(0) == [bolt] and g.library(0) == lib


#: A 4/4 for Smuggler's Surprise's third mode (no built-in creature has power 4 and costs little).
TEST_OGRE = {"name": "Test Ogre", "mana_cost": "{3}{R}", "type_line": "Creature — Ogre", "oracle_text": "", "power": "4", "toughness": "1"}


@covers("Smuggler's Surprise")
def test_smugglers_surprise_gives_power_4_creatures_hexproof_and_indestructible() -> None:  # CR 702.11b, 702.12b
    db = mtgsim.CardDB()
    db.add(TEST_OGRE)
    g = mtgsim.Game(2, 0, db=db)
    for p in (0, 1):
        g.set_policy(p, "manual")
        g.add_cards(p, "library", ["Island"] * 3)
    g.add_cards(0, "battlefield", ["Forest", "Forest", "Mountain"])
    g.add_cards(1, "battlefield", ["Mountain", "Mountain"])
    ogre, giant = g.add_cards(0, "battlefield", ["Test Ogre", "Hill Giant"])
    (their_ogre,) = g.add_cards(1, "battlefield", ["Test Ogre"])
    surprise, bolt = g.add_cards(0, "hand", ["Smuggler's Surprise", "Lightning Bolt"])
    b1, b2 = g.add_cards(1, "hand", ["Lightning Bolt", "Lightning Bolt"])
    g.cast(surprise, modes=[2], payment=[g.battlefield()[0], g.battlefield()[1]])  # {G} + {1}
    g.resolve_top()
    assert sorted(g.gained_keywords(ogre)) == ["hexproof", "indestructible"]
    assert g.gained_keywords(giant) == [] and g.gained_keywords(their_ogre) == []  # power 3; not yours
    g.pass_priority()  # player 1 can't target the hexproof Ogre, only the others
    with pytest.raises(mtgsim.InvalidAnswerError, match="not a legal target"):
        g.cast(b1, targets=[ogre])
    g.cast(b1, targets=[giant])
    g.resolve_top()
    assert names(g, g.graveyard(0)) == ["Hill Giant", "Smuggler's Surprise"]
    g.cast(bolt, targets=[ogre])  # its controller may target it; lethal damage doesn't destroy it
    g.resolve_top()
    assert ogre in g.battlefield()
    g.next_turn()  # the keywords end in the cleanup step (CR 514.2)
    assert g.gained_keywords(ogre) == []


@covers("Unexpected Windfall")
def test_unexpected_windfall_discards_as_a_cost_draws_two_and_makes_two_treasures() -> None:  # CR 601.2f-h, 111.10a
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Island", "Swamp", "Forest"])
    g.add_cards(0, "battlefield", ["Mountain"] * 4)
    windfall, fodder = add_hand(g, 0, ["Unexpected Windfall", "Grizzly Bears"])
    with pytest.raises(mtgsim.MtgsimError):
        g.cast(windfall, discard=windfall)  # not itself
    g.cast(windfall, discard=fodder)
    assert names(g, g.graveyard(0)) == ["Grizzly Bears"]  # paid before it resolves
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Island", "Swamp"] and g.library(0) == lib[2:]
    treasures = by_name(g, g.battlefield(), "Treasure")
    assert len(treasures) == 2 and all(g.object(t).card.is_token for t in treasures)
    # "{T}, Sacrifice this token: Add one mana of any color."
    g.activate_mana(treasures[0], "G")
    assert g.mana_pool(0)["G"] == 1 and treasures[0] not in g.battlefield()
    g.activate_mana(treasures[1], "U")
    assert g.mana_pool(0)["U"] == 1 and by_name(g, g.battlefield(), "Treasure") == []


# ======================================================================================================
# Cycling and typecycling cards
# ======================================================================================================


@covers("Lórien Revealed")
def test_lorien_revealed_draws_three_or_islandcycles_for_1() -> None:  # CR 121, 702.29e
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Swamp", "Forest", "Plains", "Island", "Mountain"])
    g.add_cards(0, "battlefield", ["Island"] * 6)
    cast, cycled = add_hand(g, 0, ["Lórien Revealed", "Lórien Revealed"])
    g.cast(cast)
    g.resolve_top()
    assert names(g, g.hand(0)) == ["Lórien Revealed", "Swamp", "Forest", "Plains"]
    g.cycle(cycled)
    g.resolve_top()
    d = g.pending
    assert (d.purpose, d.options) == ("search", [lib[3]])  # only the Island
    g.answer([lib[3]])
    assert names(g, g.hand(0))[-1] == "Island" and names(g, g.library(0)) == ["Mountain"]


@covers("Troll of Khazad-dûm")
def test_troll_of_khazad_dum_swampcycles_for_1_and_is_a_6_5() -> None:  # CR 702.29e
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Canyon Slough", "Forest"])
    g.add_cards(0, "battlefield", ["Island"])
    (troll,) = add_hand(g, 0, ["Troll of Khazad-dûm"])
    assert g.cost_of(troll) == ("{5}{B}", False)
    g.cycle(troll)
    g.resolve_top()
    d = g.pending
    assert d.options == [lib[1]]  # a Swamp card: Canyon Slough is a Swamp Mountain
    g.answer([lib[1]])
    assert names(g, g.hand(0)) == ["Canyon Slough"] and names(g, g.graveyard(0)) == ["Troll of Khazad-dûm"]
    (t,) = g.add_cards(0, "battlefield", ["Troll of Khazad-dûm"])
    assert g.power_toughness(t) == (6, 5)


@covers("Ancient Excavation")
def test_ancient_excavation_draws_as_many_as_in_hand_then_discards_that_many() -> None:  # CR 608.2c
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    g.add_cards(0, "library", ["Swamp", "Forest", "Plains", "Island", "Mountain"])
    g.add_cards(0, "battlefield", ["Island", "Island", "Swamp", "Swamp"])
    ae, a, b, c = add_hand(g, 0, ["Ancient Excavation", "Lightning Bolt", "Counterspell", "Gamble"])
    g.cast(ae)
    g.resolve_top()  # three cards in hand as it resolves: draw three, discard three
    d = g.pending
    assert (d.purpose, d.min, d.max, len(d.options)) == ("discard", 3, 3, 6)
    assert names(g, g.hand(0)) == ["Lightning Bolt", "Counterspell", "Gamble", "Swamp", "Forest", "Plains"]
    g.answer([a, b, c])
    assert names(g, g.hand(0)) == ["Swamp", "Forest", "Plains"]
    assert sorted(names(g, g.graveyard(0))) == ["Ancient Excavation", "Counterspell", "Gamble", "Lightning Bolt"]


@covers("Ancient Excavation")
def test_ancient_excavation_basic_landcycles_for_2() -> None:  # CR 702.29e
    g = new_game()
    lib = g.add_cards(0, "library", ["Canyon Slough", "Plains"])
    g.add_cards(0, "battlefield", ["Island"])
    (ae,) = add_hand(g, 0, ["Ancient Excavation"])
    with pytest.raises(mtgsim.CannotPayError):
        g.cycle(ae)  # {2}, one land
    g.add_cards(0, "battlefield", ["Swamp"])
    g.cycle(ae)
    g.resolve_top()
    assert g.pending.options == [lib[1]]
    g.answer([lib[1]])
    assert names(g, g.hand(0)) == ["Plains"]


@covers("Archfiend of Ifnir")
def test_archfiend_of_ifnir_puts_a_minus_counter_on_each_opposing_creature_per_cycle_or_discard() -> None:  # CR 702.29d
    g = with_libraries(new_game(), 10)
    (af,) = g.add_cards(0, "battlefield", ["Archfiend of Ifnir"])
    (mine,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    lions, turtle = g.add_cards(1, "battlefield", ["Savannah Lions", "Horned Turtle"])
    g.add_cards(0, "battlefield", ["Swamp", "Swamp"])
    slough, bolt = add_hand(g, 0, ["Canyon Slough", "Lightning Bolt"])
    g.cycle(slough)  # cycling another card
    assert names(g, g.stack()) == ["Archfiend of Ifnir", "Canyon Slough"]
    g.resolve_top()
    assert names(g, g.graveyard(1)) == ["Savannah Lions"]  # 2/1 with -1/-1: dies
    assert g.object(turtle).counters == {"-1/-1": 1} and g.object(mine).counters == {}
    g.resolve_top()
    g.discard(0, 1)  # discarding another card (a choice among two)
    g.answer([g.hand(0)[0]])
    g.resolve_top()
    assert g.object(turtle).counters == {"-1/-1": 2} and g.power_toughness(af) == (5, 4)
    # Cycling {2} itself (from hand it doesn't see its own cycling).
    (other,) = add_hand(g, 0, ["Archfiend of Ifnir"])
    g.add_cards(0, "battlefield", ["Swamp", "Swamp"])
    g.cycle(other)
    assert names(g, g.stack()) == ["Archfiend of Ifnir", "Archfiend of Ifnir"]  # the battlefield one's trigger


@covers("Gempalm Incinerator")
def test_gempalm_incinerator_cycled_deals_damage_equal_to_the_goblins_on_the_battlefield() -> None:  # CR 702.29c
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    g.add_cards(0, "battlefield", ["Gempalm Incinerator"])
    g.add_cards(1, "battlefield", ["Gempalm Incinerator"])  # Goblins on the battlefield: any player's
    (giant,) = g.add_cards(1, "battlefield", ["Hill Giant"])
    (gempalm,) = add_hand(g, 0, ["Gempalm Incinerator"])
    assert g.cycle(gempalm) is None  # {1}{R}; the trigger waits for its target
    d = g.pending  # target creature: the two Goblins and the Giant
    assert (d.purpose, d.min, d.max) == ("targets", 1, 1) and sorted(names(g, d.options)) == ["Gempalm Incinerator"] * 2 + ["Hill Giant"]
    g.answer([giant])
    assert names(g, g.stack()) == ["Gempalm Incinerator", "Gempalm Incinerator"]  # the trigger above the cycling draw
    g.resolve_top()
    assert (g.pending.kind, g.pending.purpose) == ("yes_no", "may")  # "you may have it deal"
    g.answer(True)
    (dmg,) = of_kind(g, "damage_dealt")
    assert dmg["amount"] == 2 and dmg["target"] == {"object": giant}  # X = 2 Goblins (the cycled one is in the graveyard)
    assert giant in g.battlefield()  # 2 damage to a 3/3
    g.resolve_top()
    assert len(g.hand(0)) == 1  # the cycling draw


@covers("Gempalm Incinerator")
def test_gempalm_incinerator_counts_goblins_as_it_resolves_and_kills() -> None:  # CR 608.2h
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Mountain", "Mountain"])
    g.add_cards(0, "battlefield", ["Gempalm Incinerator"] * 3)
    (giant,) = g.add_cards(1, "battlefield", ["Hill Giant"])
    (gempalm,) = add_hand(g, 0, ["Gempalm Incinerator"])
    g.cycle(gempalm)
    g.answer([giant])
    g.resolve_top()
    g.answer(True)
    assert names(g, g.graveyard(1)) == ["Hill Giant"]  # 3 damage


@covers("Street Wraith")
def test_street_wraith_cycles_for_2_life() -> None:  # CR 702.29, 118.3
    g = with_libraries(new_game(strict=True))
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.cycle(wraith)  # no mana needed
    assert g.life(0) == 18 and names(g, g.graveyard(0)) == ["Street Wraith"]
    g.resolve_top()
    assert len(g.hand(0)) == 1
    g.set_life(0, 1)
    (w2,) = add_hand(g, 0, ["Street Wraith"])
    with pytest.raises(mtgsim.CannotPayError):
        g.cycle(w2)  # CR 119.4: can't pay more life than you have


#: A Sliver for Vedalken AEthermage (no built-in card is one).
TEST_SLIVER = {"name": "Test Sliver", "mana_cost": "{1}{G}", "type_line": "Creature — Sliver", "oracle_text": "", "power": "2", "toughness": "2"}


@covers("Vedalken AEthermage")
def test_vedalken_aethermage_has_flash_and_returns_target_sliver() -> None:  # CR 702.8, 603.6a
    db = mtgsim.CardDB()
    db.add(TEST_SLIVER)
    g = mtgsim.Game(2, 0, db=db)
    for p in (0, 1):
        g.set_policy(p, "manual")
        g.add_cards(p, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Island", "Island"])
    (sliver,) = g.add_cards(1, "battlefield", ["Test Sliver"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    (ae,) = g.add_cards(0, "hand", ["Vedalken AEthermage"])
    g.next_turn()  # player 1's upkeep: only an instant, or a card with flash, can be cast now
    g.pass_priority()
    assert g.priority_player == 0
    g.cast(ae)
    pass_round(g)
    (ab,) = g.stack()  # the only Sliver is the only target
    g.resolve_top()
    assert [g.name(c) for c in g.hand(1)] == ["Test Sliver"] and bears in g.battlefield()


@covers("Vedalken AEthermage")
def test_vedalken_aethermage_wizardcycles_for_3() -> None:  # CR 702.29e
    g = new_game()
    lib = g.add_cards(0, "library", ["Grizzly Bears", "Thrasios, Triton Hero", "Thornscape Battlemage", "Island"])
    g.add_cards(0, "battlefield", ["Island"] * 3)
    (ae,) = add_hand(g, 0, ["Vedalken AEthermage"])
    g.cycle(ae)
    g.resolve_top()
    assert sorted(g.pending.options) == sorted([lib[1], lib[2]])  # the Wizards
    g.answer([lib[2]])
    assert names(g, g.hand(0)) == ["Thornscape Battlemage"]


@covers("Abandoned Sarcophagus")
def test_abandoned_sarcophagus_casts_cyclers_from_the_graveyard_and_exiles_the_uncycled() -> None:  # CR 601.2a, 614.1a
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Abandoned Sarcophagus"] + ["Island"] * 6)
    # A card with cycling put into your graveyard without being cycled: exiled instead.
    (fs,) = add_hand(g, 0, ["Fractured Sanity"])
    g.discard(0, 1)
    assert names(g, g.exile()) == ["Fractured Sanity"] and g.graveyard(0) == []
    # A card without cycling: to the graveyard as usual.
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.discard(0, 1)
    assert names(g, g.graveyard(0)) == ["Lightning Bolt"]
    # A cycled card goes to the graveyard, and can then be cast from there.
    (lr,) = add_hand(g, 0, ["Lórien Revealed"])
    g.cycle(lr)
    (card,) = by_name(g, g.graveyard(0), "Lórien Revealed")
    g.resolve_top()
    g.answer([])  # no Island to find... (the library is all Islands: take none)
    before = len(g.hand(0))
    assert {"action": "cast", "card": card} in g.priority_actions()  # offered by the permission alone
    g.cast(card)  # {3}{U}{U} from the graveyard
    g.resolve_top()
    assert len(g.hand(0)) == before + 3
    # Cast from the graveyard and resolved: put into the graveyard, so exiled (it wasn't cycled).
    assert by_name(g, g.exile(), "Lórien Revealed") and not by_name(g, g.graveyard(0), "Lórien Revealed")


@covers("Astral Slide")
def test_astral_slide_exiles_a_creature_when_a_player_cycles_and_returns_it_at_end_step() -> None:  # CR 603.7
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Astral Slide"])
    (giant,) = g.add_cards(1, "battlefield", ["Hill Giant"])
    (wraith,) = add_hand(g, 1, ["Street Wraith"])
    g.pass_priority()  # player 1 cycles: "whenever a player cycles"
    g.cycle(wraith)
    assert names(g, g.stack()) == ["Astral Slide", "Street Wraith"]
    g.resolve_top()
    assert (g.pending.player, g.pending.purpose) == (0, "may")
    g.answer(True)
    assert names(g, g.exile()) == ["Hill Giant"]
    g.resolve_top()
    g.advance_to("end")
    assert names(g, g.stack()) == ["Astral Slide"]
    g.resolve_top()
    (back,) = by_name(g, g.battlefield(), "Hill Giant")
    assert g.object(back).controller == 1 and g.exile() == []


@covers("Drake Haven")
def test_drake_haven_pays_1_for_a_2_2_flying_drake_per_cycle_or_discard() -> None:  # CR 603.2, 111.1
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Drake Haven", "Island", "Island", "Island"])
    (slough,) = add_hand(g, 0, ["Canyon Slough"])
    g.cycle(slough)  # {2}
    assert names(g, g.stack()) == ["Drake Haven", "Canyon Slough"]
    g.resolve_top()
    g.answer(True)  # pay {1}
    (drake,) = by_name(g, g.battlefield(), "Drake")
    o = g.object(drake)
    assert (o.card.is_token, o.card.colors, g.power_toughness(drake), o.controller) == (True, ["U"], (2, 2), 0)
    assert "Flying" in o.card.unsupported
    # No mana left: the next trigger asks nothing and makes nothing.
    g.resolve_top()
    (card,) = add_hand(g, 0, ["Island"])
    g.discard(0, 1)
    g.answer([card])
    g.strict = True
    g.resolve_top()
    assert len(by_name(g, g.battlefield(), "Drake")) == 1


@covers("Faith of the Devoted")
def test_faith_of_the_devoted_pays_1_to_drain_each_opponent_2() -> None:  # CR 603.2
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Faith of the Devoted", "Swamp", "Swamp", "Swamp", "Swamp"])
    (slough,) = add_hand(g, 0, ["Canyon Slough"])
    g.cycle(slough)
    g.resolve_top()
    g.answer(True)
    assert (g.life(0), g.life(1)) == (22, 18)
    g.resolve_top()
    (card,) = add_hand(g, 0, ["Island"])
    g.discard(0, 1)  # discarding, not cycling, triggers it too
    g.answer([card])
    g.resolve_top()
    assert g.pending.purpose == "may"
    g.answer(False)  # declined: nothing
    assert (g.life(0), g.life(1)) == (22, 18) and not all(g.object(i).tapped for i in g.battlefield()[1:])


@covers("Stabilizer")
def test_stabilizer_stops_cycling_and_typecycling_for_every_player() -> None:  # CR 702.29, 101.2
    g = with_libraries(new_game())
    g.add_cards(1, "battlefield", ["Stabilizer"])
    g.add_cards(0, "battlefield", ["Island"] * 3)
    wraith, lr, slough = add_hand(g, 0, ["Street Wraith", "Lórien Revealed", "Canyon Slough"])
    for card in (wraith, lr, slough):
        with pytest.raises(mtgsim.IllegalActionError):
            g.cycle(card)
    assert g.life(0) == 20 and g.stack() == [] and len(g.hand(0)) == 3
    # Other activated abilities are fine: the lands still tap for mana.
    g.activate_mana(g.battlefield()[1])


@covers("Fluctuator")
def test_fluctuator_makes_cycling_cost_up_to_2_less() -> None:  # CR 601.2f via 602.2b
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Fluctuator"])
    (island,) = g.add_cards(0, "battlefield", ["Island"])
    slough, fs = add_hand(g, 0, ["Canyon Slough", "Fractured Sanity"])
    g.strict = True
    g.cycle(slough)  # {2} - {2}: free
    assert not g.object(island).tapped
    g.resolve_top()
    g.cycle(fs)  # {1}{U} - {1}: {U}
    assert g.object(island).tapped
    # Only cycling: casting costs the same.
    assert g.cost_of(add_hand(g, 0, ["Fractured Sanity"])[0])[0] == "{U}{U}{U}"


@covers("Everflowing Chalice")
@pytest.mark.parametrize("kicks", [0, 1, 3])
def test_everflowing_chalice_enters_with_a_charge_counter_per_kick_and_taps_for_that_much(kicks: int) -> None:  # CR 702.33c
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Island"] * 6)
    (chalice,) = add_hand(g, 0, ["Everflowing Chalice"])
    assert g.cost_of(chalice, kick=kicks)[0] == ("{0}" if kicks == 0 else "{%d}" % (2 * kicks))
    g.cast(chalice, kick=kicks)
    g.resolve_top()
    (perm,) = by_name(g, g.battlefield(), "Everflowing Chalice")
    assert g.object(perm).counters == ({"charge": kicks} if kicks else {})
    g.activate_mana(perm)
    assert g.mana_pool(0)["C"] == kicks


@covers("Everflowing Chalice")
def test_a_chalice_paying_a_cost_adds_all_its_mana_and_the_log_says_so() -> None:  # CR 605.3b, 106.4
    g = new_game(strict=True)
    (chalice,) = g.add_cards(0, "battlefield", ["Everflowing Chalice"])
    g.add_counters(chalice, "charge", 2)
    (second,) = add_hand(g, 0, ["Everflowing Chalice"])
    g.clear_events()
    g.cast(second, kick=1)  # {2}, paid by the first Chalice alone
    assert [e["mana"] for e in g.events if e["kind"] == "mana_added"] == ["{C}{C}"]
    assert g.object(chalice).tapped and g.mana_pool(0)["C"] == 0


@covers("Joraga Warcaller")
def test_joraga_warcaller_multikicked_pumps_your_other_elves_per_counter() -> None:  # CR 702.33c, 613.4c
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Forest"] * 5)
    shaman, bears, nimrodel = g.add_cards(0, "battlefield", ["Fauna Shaman", "Grizzly Bears", "Nimrodel Watcher"])
    (their_elf,) = g.add_cards(1, "battlefield", ["Fauna Shaman"])
    (jw,) = add_hand(g, 0, ["Joraga Warcaller"])
    g.cast(jw, kick=2)  # {G} + 2 x {1}{G}
    g.resolve_top()
    (perm,) = by_name(g, g.battlefield(), "Joraga Warcaller")
    assert g.object(perm).counters == {"+1/+1": 2} and g.power_toughness(perm) == (3, 3)  # not itself: "other"
    assert g.power_toughness(shaman) == (4, 4) and g.power_toughness(nimrodel) == (4, 3)  # Elves
    assert g.power_toughness(bears) == (2, 2) and g.power_toughness(their_elf) == (2, 2)  # not an Elf; not yours
    g.add_counters(perm, "+1/+1", 1)  # per counter, whatever put it there
    assert g.power_toughness(shaman) == (5, 5)


@covers("Necravolver")
@pytest.mark.parametrize("kick, counters", [([True, False], 2), ([False, True], 1), ([True, True], 3), ([False, False], 0)])
def test_necravolver_kicked_with_each_kicker_enters_with_its_counters(kick: list[bool], counters: int) -> None:  # CR 702.33c, 607
    g = with_libraries(new_game(strict=True))
    g.add_cards(0, "battlefield", ["Swamp", "Swamp", "Swamp", "Forest", "Forest", "Plains"])
    (nec,) = add_hand(g, 0, ["Necravolver"])
    spell = g.cast(nec, kick=kick)
    assert g.cast_info(spell)["kicks"] == [int(k) for k in kick]
    g.resolve_top()
    (perm,) = by_name(g, g.battlefield(), "Necravolver")
    assert g.object(perm).counters == ({"+1/+1": counters} if counters else {})
    assert g.power_toughness(perm) == (2 + counters, 2 + counters)


@covers("Thornscape Battlemage")
def test_thornscape_battlemage_r_kicker_deals_2_and_w_kicker_destroys_an_artifact() -> None:  # CR 603.4, 702.33
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Forest", "Forest", "Forest", "Mountain", "Plains"])
    (stab,) = g.add_cards(1, "battlefield", ["Stabilizer"])
    (tm,) = add_hand(g, 0, ["Thornscape Battlemage"])
    cast_and_resolve_permanent(g, tm, kick=[True, True])
    d = g.pending  # two abilities triggered: their controller orders them
    assert d.purpose == "order_triggers"
    g.answer(d.options)
    if g.pending is not None:  # the damage ability's target (the artifact's is the only one)
        g.answer([P1])
    g.resolve_top()
    g.resolve_top()
    assert g.life(1) == 18 and names(g, g.graveyard(1)) == ["Stabilizer"] and stab not in g.battlefield()


@covers("Tempest Owl")
def test_tempest_owl_kicked_taps_up_to_three_permanents() -> None:  # CR 603.4
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Island"] * 7)
    opp = g.add_cards(1, "battlefield", ["Swamp", "Forest", "Grizzly Bears", "Mountain"])
    (owl,) = add_hand(g, 0, ["Tempest Owl"])
    cast_and_resolve_permanent(g, owl, kick=True)
    g.answer(opp[:3])
    g.resolve_top()
    assert [g.object(x).tapped for x in opp] == [True, True, True, False]
    (owl2,) = add_hand(g, 0, ["Tempest Owl"])
    g.add_cards(0, "battlefield", ["Island", "Island"])
    cast_and_resolve_permanent(g, owl2, kick=False)
    assert g.stack() == [] and g.pending is None  # unkicked: no trigger


@covers("Bloodhusk Ritualist")
def test_bloodhusk_ritualist_target_opponent_discards_one_per_kick() -> None:  # CR 702.33c
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Swamp"] * 6)
    hand1 = add_hand(g, 1, ["Island", "Lightning Bolt", "Grizzly Bears", "Forest"])
    (br,) = add_hand(g, 0, ["Bloodhusk Ritualist"])
    cast_and_resolve_permanent(g, br, kick=3)
    g.resolve_top()
    d = g.pending
    assert (d.player, d.purpose, d.min, d.max) == (1, "discard", 3, 3)
    g.answer(hand1[1:])
    assert g.hand(1) == hand1[:1] and len(g.graveyard(1)) == 3


@covers("Wicker Picker")
def test_wicker_picker_gives_your_creature_spells_sticker_kicker_1() -> None:  # CR 702.33h
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Wicker Picker", "Forest", "Forest", "Forest", "Mountain"])
    bears, bolt = add_hand(g, 0, ["Grizzly Bears", "Lightning Bolt"])
    assert g.cost_of(bears, kick=True)[0] == "{2}{G}"
    assert g.cost_of(bears)[0] == "{1}{G}"
    spell = g.cast(bears, kick=[True], sticker=True)
    assert g.player_counters(0) == {"ticket": 1} and g.stickers(spell) == ["sticker"] and g.kicked(spell)
    g.resolve_top()
    (perm,) = by_name(g, g.battlefield(), "Grizzly Bears")
    assert g.stickers(perm) == ["sticker"] and g.kicked(perm)
    # Not a creature spell: no sticker kicker.
    with pytest.raises(mtgsim.MtgsimError):
        g.cost_of(bolt, kick=True)


# ======================================================================================================
# Scry, untap, landfall, mill
# ======================================================================================================


@covers("Thrasios, Triton Hero")
@pytest.mark.parametrize("top", ["Forest", "Grizzly Bears"])
def test_thrasios_scries_then_puts_a_revealed_land_onto_the_battlefield_or_draws(top: str) -> None:  # CR 602, 701.22
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Hill Giant", top, "Island"])
    thrasios, *_ = g.add_cards(0, "battlefield", ["Thrasios, Triton Hero"] + ["Island"] * 4)
    g.activate(thrasios)
    g.resolve_top()
    g.answer(([], [lib[0]]))  # the Giant to the bottom
    if top == "Forest":
        (f,) = by_name(g, g.battlefield(), "Forest")
        assert g.object(f).tapped and g.hand(0) == []
    else:
        assert names(g, g.hand(0)) == ["Grizzly Bears"]
    assert names(g, g.library(0)) == ["Island", "Hill Giant"]


@covers("Flamespeaker Adept")
def test_flamespeaker_adept_gets_plus_2_and_first_strike_whenever_you_scry() -> None:  # CR 603.2, 611.2a
    g = with_libraries(new_game())
    (fa,) = g.add_cards(0, "battlefield", ["Flamespeaker Adept"])
    g.scry(0, 1)
    scry_all_bottom(g)
    g.resolve_top()
    assert g.power_toughness(fa) == (4, 3) and g.gained_keywords(fa) == ["first strike"]
    g.scry(1, 1)  # an opponent's scry: nothing
    scry_all_bottom(g)
    assert g.stack() == []
    g.next_turn()
    assert g.power_toughness(fa) == (2, 3) and g.gained_keywords(fa) == []


@covers("Knowledge and Power")
def test_knowledge_and_power_pays_2_to_deal_2_whenever_you_scry() -> None:  # CR 603.3d
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Knowledge and Power", "Mountain", "Mountain"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.scry(0, 1)
    scry_all_bottom(g)
    g.answer([bears])
    g.resolve_top()
    g.answer(True)
    assert names(g, g.graveyard(1)) == ["Grizzly Bears"]


@covers("Knowledge and Power")
def test_knowledge_and_power_reads_current_oracle_any_target_so_a_planeswalker_can_be_hit() -> None:  # CR 115.4, 120.3c
    # The pool's text says "target creature or player" (pre-2018 templating); current Oracle
    # says "any target", which includes planeswalkers.
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Knowledge and Power", "Mountain", "Mountain"])
    (jace,) = g.add_cards(1, "battlefield", ["Jace, Wielder of Mysteries"])
    g.add_counters(jace, "loyalty", 4)  # add_cards applies no "enters" effects
    g.scry(0, 1)
    scry_all_bottom(g)
    assert jace in g.pending.options
    g.answer([jace])
    g.resolve_top()
    g.answer(True)
    assert g.object(jace).counters == {"loyalty": 2}  # damage to a planeswalker removes loyalty (CR 120.3c)


@covers("Nimrodel Watcher")
def test_nimrodel_watcher_gets_plus_1_and_cant_be_blocked_once_each_turn() -> None:  # CR 603.2
    g = with_libraries(new_game())
    (nw,) = g.add_cards(0, "battlefield", ["Nimrodel Watcher"])
    for _ in range(2):
        g.scry(0, 1)
        scry_all_bottom(g)
    assert names(g, g.stack()) == ["Nimrodel Watcher"]  # only once this turn
    g.resolve_top()
    assert g.power_toughness(nw) == (3, 1) and g.gained_keywords(nw) == ["can't be blocked"]


@covers("Mesmeric Orb")
def test_mesmeric_orb_mills_the_controller_of_each_permanent_that_untaps() -> None:  # CR 502.3, 603.2
    g = with_libraries(new_game(), 10)
    g.add_cards(1, "battlefield", ["Mesmeric Orb"])
    (island,) = g.add_cards(0, "battlefield", ["Island"])
    g.set_tapped(island)
    g.next_turn()
    g.next_turn()  # player 0's untap step
    (ab,) = g.stack()
    assert g.object(ab).controller == 1
    g.resolve_top()
    assert len(g.library(0)) == 9 and len(g.graveyard(0)) == 1  # in the upkeep: milled one, not drawn yet


@covers("Ruin Crab")
def test_ruin_crab_landfall_each_opponent_mills_three() -> None:  # CR 603.2
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Ruin Crab"])
    (land,) = add_hand(g, 0, ["Swamp"])
    g.play_land(land)
    g.resolve_top()
    assert (len(g.library(0)), len(g.library(1))) == (10, 7)


@covers("Altar of Dementia")
def test_altar_of_dementia_sacrifices_a_creature_and_target_player_mills_its_power() -> None:  # CR 602.2, 608.2h
    g = with_libraries(new_game(), 10)
    (altar,) = g.add_cards(0, "battlefield", ["Altar of Dementia"])
    (giant,) = g.add_cards(0, "battlefield", ["Hill Giant"])
    g.activate(altar, targets=[[P1]], sacrifice=giant)
    assert names(g, g.graveyard(0)) == ["Hill Giant"]  # sacrificed as a cost
    g.resolve_top()
    assert len(g.library(1)) == 7


@covers("Bruvac the Grandiloquent")
def test_bruvac_doubles_what_an_opponent_mills() -> None:  # CR 614.1a
    g = with_libraries(new_game(), 20)
    g.add_cards(0, "battlefield", ["Bruvac the Grandiloquent"])
    g.mill(1, 3)
    g.mill(0, 3)  # not its controller
    assert (len(g.library(0)), len(g.library(1))) == (17, 14)


@covers("The Water Crystal")
def test_the_water_crystal_reduces_blue_spells_adds_four_to_opponents_mills_and_mills_by_hand_size() -> None:  # CR 601.2f, 614.1a
    g = with_libraries(new_game(), 30)
    (crystal,) = g.add_cards(0, "battlefield", ["The Water Crystal"])
    lr, bolt = add_hand(g, 0, ["Lórien Revealed", "Lightning Bolt"])
    assert g.cost_of(lr)[0] == "{2}{U}{U}" and g.cost_of(bolt)[0] == "{R}"  # blue spells only
    g.mill(1, 2)
    assert len(g.library(1)) == 24  # 2 + 4
    g.add_cards(0, "battlefield", ["Island"] * 6)
    g.activate(crystal)
    g.resolve_top()  # two cards in hand: 2 + 4
    assert len(g.library(1)) == 18


@covers("Jace, Wielder of Mysteries")
def test_jace_plus_one_mills_two_and_draws_and_minus_eight_wins_with_an_empty_library() -> None:  # CR 606, 614.1a
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "library", ["Island"] * 5)
    (jace,) = g.add_cards(0, "battlefield", ["Jace, Wielder of Mysteries"])
    g.add_counters(jace, "loyalty", 8)
    g.activate(jace, 0, targets=[[P1]])
    assert g.object(jace).counters == {"loyalty": 9}
    g.resolve_top()
    assert (len(g.library(1)), len(g.hand(0))) == (8, 1)
    g.next_turn()
    g.next_turn()
    g.advance_to("precombat_main")
    g.activate(jace, 1)  # -8: draw seven; four cards left; the draw from the empty library wins
    g.resolve_top()
    assert g.is_over and g.outcome["winners"] == [0]


@covers("Satyr Wayfinder")
def test_satyr_wayfinder_reveals_four_puts_a_land_in_hand_and_the_rest_in_the_graveyard() -> None:  # CR 603.6a
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Grizzly Bears", "Forest", "Lightning Bolt", "Swamp", "Island"])
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (satyr,) = add_hand(g, 0, ["Satyr Wayfinder"])
    cast_and_resolve_permanent(g, satyr)
    g.resolve_top()
    assert sorted(g.pending.options) == sorted([lib[1], lib[3]])
    g.answer([lib[1]])
    assert names(g, g.hand(0)) == ["Forest"] and names(g, g.library(0)) == ["Island"]
    assert sorted(names(g, g.graveyard(0))) == ["Grizzly Bears", "Lightning Bolt", "Swamp"]
    assert "milled" not in kinds(g.events)  # not mill
    # Every card that changed zones says so: the land to hand, the rest to the graveyard, as
    # the new objects they became (CR 400.7).
    moves = {(e["from_id"], e["to"]["kind"]): e["card"] for e in g.events if e["kind"] == "moved" and e["from"]["kind"] == "library"}
    assert moves[(lib[1], "hand")] == g.hand(0)[0]
    assert sorted(card for (_, to), card in moves.items() if to == "graveyard") == sorted(g.graveyard(0))
    assert {old for (old, to) in moves if to == "graveyard"} == {lib[0], lib[2], lib[3]}


@covers("Sidisi, Brood Tyrant")
def test_sidisi_mills_three_on_entering_and_makes_a_zombie_for_creature_cards() -> None:  # CR 603.2c
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    g.add_cards(0, "library", ["Grizzly Bears", "Hill Giant", "Island", "Swamp"])
    g.add_cards(0, "battlefield", ["Island", "Swamp", "Forest", "Forest"])
    (sidisi,) = add_hand(g, 0, ["Sidisi, Brood Tyrant"])
    cast_and_resolve_permanent(g, sidisi)
    g.resolve_top()
    assert len(g.graveyard(0)) == 3 and names(g, g.stack()) == ["Sidisi, Brood Tyrant"]  # one trigger for two creatures
    g.resolve_top()
    (z,) = by_name(g, g.battlefield(), "Zombie")
    assert g.power_toughness(z) == (2, 2) and g.object(z).card.colors == ["B"] and g.object(z).card.is_token


# ======================================================================================================
# Graveyard and draw replacements, discard
# ======================================================================================================


@covers("Rest in Peace")
def test_rest_in_peace_exiles_all_graveyards_and_anything_going_to_one() -> None:  # CR 603.6a, 614.1a
    g = with_libraries(new_game(), 10)
    g.add_cards(1, "graveyard", ["Lightning Bolt", "Island"])
    g.add_cards(0, "battlefield", ["Plains", "Plains"])
    (rip,) = add_hand(g, 0, ["Rest in Peace"])
    cast_and_resolve_permanent(g, rip)
    g.resolve_top()
    assert g.graveyard(1) == [] and len(g.exile()) == 2
    g.mill(0, 2)
    g.mill(1, 1)
    assert g.graveyard(0) == [] and g.graveyard(1) == [] and len(g.exile()) == 5


@covers("Leyline of the Void")
def test_leyline_of_the_void_exiles_cards_going_to_an_opponents_graveyard() -> None:  # CR 614.1a
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Leyline of the Void"])
    g.mill(1, 3)
    g.mill(0, 2)
    assert g.graveyard(1) == [] and len(g.exile()) == 3 and len(g.graveyard(0)) == 2


def test_leyline_of_the_void_in_an_opening_hand_may_begin_on_the_battlefield() -> None:  # CR 103.6a
    # With Game.from_decks every player's default (random) policy answers the
    # "begin_on_battlefield" decision during setup: across fixed seeds both answers occur.
    deck = mtgsim.DeckList.parse("3 Leyline of the Void\n6 Island")
    other = ["Island"] * 20
    began, kept = 0, 0
    for seed in range(40):
        g = mtgsim.Game.from_decks([deck, other], seed=seed)
        assert g.pending is None and g.turn == 1
        on_bf = [c for c in g.battlefield() if g.name(c) == "Leyline of the Void"]
        in_hand = [c for c in g.hand(0) if g.name(c) == "Leyline of the Void"]
        assert len(g.hand(0)) + len(on_bf) == 7  # a hand of seven, less what began on the battlefield
        began += bool(on_bf)
        kept += bool(in_hand)
        if on_bf:
            assert all(g.object(c).controller == 0 for c in on_bf)
            g.mill(1, 2)  # it works from the start: the opponent's milled cards are exiled
            assert g.graveyard(1) == [] and len(g.exile()) == 2
    assert began > 0 and kept > 0


def test_from_decks_lets_the_given_policies_make_the_opening_hand_choices() -> None:  # CR 103.6a
    deck = mtgsim.DeckList.parse("3 Leyline of the Void\n6 Island")
    other = ["Island"] * 20
    for seed in range(10):  # "first" puts every Leyline in the hand onto the battlefield
        g = mtgsim.Game.from_decks([deck, other], seed=seed, policies=["first"])
        assert g.pending is None and [g.name(c) for c in g.hand(0)].count("Leyline of the Void") == 0
    asked = []

    def keep_in_hand(game: mtgsim.Game, d: mtgsim.Decision) -> object:
        asked.append(d.purpose)
        return False if d.kind == "yes_no" else []

    g = mtgsim.Game.from_decks([deck, other], seed=1, policies=[keep_in_hand, "random"])
    assert asked and set(asked) == {"begin_on_battlefield"} and g.battlefield() == [] and g.policy(0) == "callback"
    g = mtgsim.Game.from_decks([deck, other], seed=1, policies=["manual"])
    assert g.pending is not None and g.pending.purpose == "begin_on_battlefield" and g.turn == 1
    with pytest.raises(mtgsim.InvalidArgumentError, match="3 policies for 2 decks"):
        mtgsim.Game.from_decks([deck, other], policies=["first"] * 3)
    with pytest.raises(TypeError):
        mtgsim.Game.from_decks([deck, other], policies=[3])


@covers("Laboratory Maniac")
def test_laboratory_maniac_wins_instead_of_drawing_from_an_empty_library() -> None:  # CR 614.1a, 104.2b
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    g.add_cards(0, "battlefield", ["Laboratory Maniac"])
    g.add_cards(0, "library", ["Island"])
    g.draw(0, 1)
    assert not g.is_over
    g.draw(0, 1)
    assert g.is_over and g.outcome == {"winners": [0], "losers": [{"player": 1, "reason": "opponent_won"}]}


@covers("Waste Not")
def test_waste_not_rewards_each_kind_of_card_an_opponent_discards() -> None:  # CR 603.2
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Waste Not"])
    bears, forest, bolt = add_hand(g, 1, ["Grizzly Bears", "Forest", "Lightning Bolt"])
    g.discard(1, 3)  # the whole hand: nothing to choose
    d = g.pending
    assert (d.player, d.purpose, len(d.options)) == (0, "order_triggers", 3)
    g.answer(d.options)
    for _ in range(3):
        g.resolve_top()
    assert len(by_name(g, g.battlefield(), "Zombie")) == 1
    assert g.mana_pool(0)["B"] == 2 and len(g.hand(0)) == 1


@covers("Fauna Shaman")
def test_fauna_shaman_discards_a_creature_card_to_find_a_creature_card() -> None:  # CR 602.2
    g = new_game()
    lib = g.add_cards(0, "library", ["Island", "Hill Giant", "Lightning Bolt"])
    shaman, _ = g.add_cards(0, "battlefield", ["Fauna Shaman", "Forest"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.activate(shaman, discard=bears)
    assert g.object(shaman).tapped and names(g, g.graveyard(0)) == ["Grizzly Bears"]
    g.resolve_top()
    assert g.pending.options == [lib[1]]
    g.answer([lib[1]])
    assert names(g, g.hand(0)) == ["Hill Giant"]


@covers("Library of Leng")
def test_library_of_leng_no_maximum_hand_size_and_an_effects_discard_may_go_on_top() -> None:  # CR 402.2, 701.9c
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Library of Leng"])
    add_hand(g, 0, ["Island"] * 9)
    g.advance_to("end")
    g.next_turn()  # no cleanup discard
    assert len(g.hand(0)) == 9 and g.active_player == 1
    lib = g.library(0)
    g.discard(0, 1)
    g.answer([g.hand(0)[0]])
    assert g.pending.purpose == "discard_to_library"
    g.answer(True)
    assert len(g.library(0)) == len(lib) + 1 and g.graveyard(0) == []


@covers("Veteran Explorer")
def test_veteran_explorer_dying_lets_each_player_search_for_two_basic_lands() -> None:  # CR 603.10a, 701.23
    g = new_game()
    lib0 = g.add_cards(0, "library", ["Forest", "Island", "Lightning Bolt"])
    lib1 = g.add_cards(1, "library", ["Swamp", "Canyon Slough", "Plains"])
    (vet,) = g.add_cards(0, "battlefield", ["Veteran Explorer"])
    (altar,) = g.add_cards(0, "battlefield", ["Altar of Dementia"])
    g.activate(altar, targets=[[P0]], sacrifice=vet)
    g.resolve_top()  # the dies trigger, above the Altar's ability
    g.answer(True)
    g.answer([lib0[0], lib0[1]])
    g.answer(True)
    assert sorted(g.pending.options) == sorted([lib1[0], lib1[2]])  # basic only
    g.answer([lib1[0], lib1[2]])
    assert sorted(names(g, controlled_by(g, 0))) == ["Altar of Dementia", "Forest", "Island"]
    assert sorted(names(g, controlled_by(g, 1))) == ["Plains", "Swamp"]


# ======================================================================================================
# Every pool card has a scenario here
# ======================================================================================================


@pytest.mark.parametrize("card", POOL_NAMES)
def test_every_pool_card_has_a_scenario_here(card: str) -> None:
    assert COVERED.get(card), f"no scenario test in this file exercises {card}"
    assert all(name in globals() and name.startswith("test_") for name in COVERED[card])
