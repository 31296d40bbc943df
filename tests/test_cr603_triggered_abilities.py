"""CR 603 triggered abilities: trigger events (603.2), putting triggered abilities on the stack the
next time a player would receive priority (603.3, 117.5), APNAP order and each player ordering
their own (603.3b), targets chosen as the ability goes on the stack and a trigger without legal
targets removed (603.3d), intervening "if" clauses (603.4), enters-the-battlefield abilities
(603.6a), delayed triggered abilities (603.7), "at the beginning of" (603.2b), "you may" / "you
may pay" instructions, and the built-in cards that carry them: Temple of Malady, Satyr Wayfinder,
Sidisi, Rest in Peace, Ruin Crab, Veteran Explorer, Flamespeaker Adept, Knowledge and Power,
Nimrodel Watcher, Mesmeric Orb, Waste Not, Thornscape Battlemage, Tempest Owl, Vedalken
AEthermage, Drake Haven, Faith of the Devoted, Bloodhusk Ritualist, Archfiend of Ifnir and Astral
Slide.

Every game is on the manual policy (conftest.new_game), so any unplanned decision shows up as
``pending``. ``g.resolve_top()`` passes until the stack shrinks, so where a resolving permanent
spell puts its own "enters" trigger on the stack the tests pass by hand (:func:`pass_round`).
Findings are in /work/notes/findings_triggers.md; each is an ``xfail(strict=True)`` test here."""

from __future__ import annotations

import json

import pytest

import mtgsim
from conftest import add_hand, full_state, kinds, names, new_game, redefine, untouched, with_libraries


def pass_round(g: mtgsim.Game) -> None:
    """Every player passes once, starting with the one who has priority: with a non-empty stack
    exactly the top object resolves (CR 117.4, 608)."""
    for _ in range(g.num_players):
        g.pass_priority()


def triggered(g: mtgsim.Game) -> list[dict]:
    return [e for e in g.events if e["kind"] == "ability_triggered"]


def of_kind(g: mtgsim.Game, kind: str) -> list[dict]:
    return [e for e in g.events if e["kind"] == kind]


def controllers(g: mtgsim.Game, ids: list[int]) -> list[int]:
    return [g.object(i).controller for i in ids]


def eot_effects(g: mtgsim.Game) -> list[dict]:
    """The "until end of turn" effects in force (only the saved state shows granted keywords)."""
    return json.loads(full_state(g))["until_end_of_turn"]


def by_name(g: mtgsim.Game, ids: list[int], name: str) -> list[int]:
    return [i for i in ids if g.name(i) == name]


# ----- 603.6a: enters-the-battlefield abilities ---------------------------------------------------------------


def test_temple_of_malady_put_onto_the_battlefield_triggers_and_scries_on_resolution():  # CR 603.6a, 603.3, 701.22
    g = new_game()
    lib = g.add_cards(0, "library", ["Forest", "Swamp", "Island"])
    g.add_cards(1, "library", ["Island"] * 3)
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    g.clear_events()
    t = g.move(temple, "battlefield")
    assert g.object(t).tapped  # "This land enters tapped" (CR 614.1c)
    # The ability triggered and went on the stack before anyone gets priority (CR 603.3, 117.5).
    (ab,) = g.stack()
    o = g.object(ab)
    assert (o.name, o.controller, o.zone) == ("Temple of Malady", 0, "stack")
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": t, "ability": ab}]
    assert g.pending is None and g.priority_player == 0
    assert g.library(0) == lib  # nothing happens yet (CR 603.2: it only triggered)
    g.resolve_top()
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.cards) == (0, "scry", "scry", [lib[0]])
    g.clear_events()
    g.answer(([], [lib[0]]))
    assert g.library(0) == [lib[1], lib[2], lib[0]]
    assert g.events[0] == {"kind": "scried", "player": 0, "amount": 1, "looked": 1, "to_bottom": 1}
    assert g.events[-1] == {"kind": "resolved", "spell": ab, "card": None}
    assert g.stack() == [] and g.pending is None and g.priority_player == 0


def test_playing_a_land_puts_its_triggers_on_the_stack_before_the_player_can_act():  # CR 116.3, 117.5, 603.3
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Mountain"])
    temple, bolt = add_hand(g, 0, ["Temple of Malady", "Lightning Bolt"])
    t = g.play_land(temple)
    assert names(g, g.stack()) == ["Temple of Malady"]
    assert triggered(g)[0]["source"] == t
    spell = g.cast(bolt, targets=[{"player": 1}])
    assert g.stack()[0] == spell and names(g, g.stack()) == ["Lightning Bolt", "Temple of Malady"]


def play_land_with_priority_loop(g: mtgsim.Game, card: int) -> None:
    """Plays a land as the priority action of the play loop (the manual player's "action"
    decision), the way a policy plays one."""
    g.play("end_of_turn")
    d = g.pending
    assert (d.kind, d.purpose, d.player) == ("action", "priority", g.active_player)
    (i,) = [k for k, o in enumerate(d.options) if o == {"action": "play_land", "card": card}]
    g.answer(i)


def test_a_land_played_with_ruin_crab_out_triggers_both_and_its_controller_orders_them():  # CR 603.3b, 603.6a, 101.4c
    g = with_libraries(new_game(), 5)
    (crab,) = g.add_cards(0, "battlefield", ["Ruin Crab"])
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    opp_lib = g.library(1)
    g.clear_events()
    play_land_with_priority_loop(g, temple)
    (t,) = by_name(g, g.battlefield(), "Temple of Malady")
    # Two abilities of one player triggered on one event: they choose the order (CR 603.3b).
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "order", "order_triggers", 2, 2)
    trig = {e["source"]: e["ability"] for e in triggered(g)}
    assert set(trig) == {crab, t} and sorted(d.options) == sorted(trig.values())
    assert all(e["player"] == 0 for e in triggered(g))
    g.answer([trig[t], trig[crab]])  # the Temple's first: lowest
    assert g.stack() == [trig[crab], trig[t]]  # top first
    assert g.pending is None and g.priority_player == 0
    g.resolve_top()  # the Crab's trigger resolves first
    assert g.library(1) == opp_lib[3:] and len(g.graveyard(1)) == 3
    assert g.stack() == [trig[t]] and len(g.library(0)) == 5


def test_satyr_wayfinder_reveals_four_and_may_put_a_land_into_hand_the_rest_to_the_graveyard():  # CR 603.6a, 603.3
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Grizzly Bears", "Forest", "Lightning Bolt", "Swamp", "Plains"])
    g.add_cards(0, "battlefield", ["Forest", "Forest"])
    (satyr,) = add_hand(g, 0, ["Satyr Wayfinder"])
    g.cast(satyr)
    g.clear_events()
    pass_round(g)  # the creature spell resolves; its ability triggers on entering
    (s,) = by_name(g, g.battlefield(), "Satyr Wayfinder")
    (ab,) = g.stack()
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": s, "ability": ab}]
    assert g.library(0) == lib and g.priority_player == 0
    g.clear_events()
    pass_round(g)
    assert of_kind(g, "revealed") == [{"kind": "revealed", "player": 0, "cards": lib[:4]}]
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "choose_cards", "put_from_hand", 0, 1)
    assert sorted(d.options) == sorted([lib[1], lib[3]])  # only the land cards
    g.answer([lib[3]])
    assert names(g, g.hand(0)) == ["Swamp"]
    assert sorted(names(g, g.graveyard(0))) == ["Forest", "Grizzly Bears", "Lightning Bolt"]
    assert g.library(0) == [lib[4]] and g.stack() == []


def test_satyr_wayfinder_without_a_land_among_them_asks_nothing():  # CR 603.6a
    g = new_game(strict=True)
    g.add_cards(1, "library", ["Island"] * 3)
    lib = g.add_cards(0, "library", ["Grizzly Bears", "Lightning Bolt", "Savannah Lions"])
    (satyr,) = g.add_cards(0, "hand", ["Satyr Wayfinder"])
    g.move(satyr, "battlefield")
    g.resolve_top()
    assert g.library(0) == [] and g.hand(0) == []
    assert sorted(names(g, g.graveyard(0))) == ["Grizzly Bears", "Lightning Bolt", "Savannah Lions"]
    assert of_kind(g, "revealed")[0]["cards"] == lib


def sidisi_game(library: list[str], *, rest_in_peace: bool = False, strict: bool = True):
    """Player 0 has Sidisi in hand and the four lands that cast it; ``library`` on top."""
    g = new_game(strict=strict)
    g.add_cards(1, "library", ["Island"] * 5)
    lib = g.add_cards(0, "library", library)
    g.add_cards(0, "battlefield", ["Island", "Swamp", "Forest", "Forest"])
    if rest_in_peace:
        g.add_cards(0, "battlefield", ["Rest in Peace"])
    (sidisi,) = add_hand(g, 0, ["Sidisi, Brood Tyrant"])
    g.cast(sidisi)
    pass_round(g)
    return g, lib


def test_sidisi_mills_three_on_entering_and_one_zombie_per_batch_of_creature_cards():  # CR 603.6a, 603.2c
    g, lib = sidisi_game(["Grizzly Bears", "Island", "Savannah Lions", "Forest"])
    (sidisi,) = by_name(g, g.battlefield(), "Sidisi, Brood Tyrant")
    (etb,) = g.stack()
    assert triggered(g)[-1] == {"kind": "ability_triggered", "player": 0, "source": sidisi, "ability": etb}
    g.clear_events()
    pass_round(g)  # the enters trigger: mill 3, two of them creature cards
    (milled,) = of_kind(g, "milled")
    assert milled["player"] == 0 and len(milled["cards"]) == 3
    assert names(g, g.graveyard(0)) == ["Savannah Lions", "Island", "Grizzly Bears"]
    assert g.library(0) == [lib[3]]
    # "One or more creature cards": one trigger for the one event (CR 603.2c), put on the stack
    # after the mill ability finished resolving (CR 603.3).
    (zt,) = g.stack()
    assert kinds(g.events)[-2:] == ["resolved", "ability_triggered"]
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": sidisi, "ability": zt}]
    g.clear_events()
    pass_round(g)
    (tok,) = by_name(g, g.battlefield(), "Zombie")
    z = g.object(tok)
    assert (z.controller, z.owner, z.card.power, z.card.toughness, z.card.colors, z.card.subtypes) == (0, 0, "2", "2", ["B"], ["Zombie"])
    assert of_kind(g, "token_created") == [{"kind": "token_created", "player": 0, "token": tok}]
    assert g.stack() == []


def test_sidisi_milling_no_creature_card_makes_no_zombie():  # CR 603.2
    g, lib = sidisi_game(["Island", "Forest", "Lightning Bolt", "Grizzly Bears"])
    pass_round(g)
    assert names(g, g.graveyard(0)) == ["Lightning Bolt", "Forest", "Island"]
    assert g.stack() == [] and by_name(g, g.battlefield(), "Zombie") == []
    assert g.library(0) == [lib[3]]


def test_sidisi_sees_creature_cards_milled_by_any_effect_and_satyr_wayfinder_rest():  # CR 603.2c
    g, _ = sidisi_game(["Island", "Forest", "Plains"], strict=False)
    pass_round(g)  # mills three lands: nothing
    assert g.stack() == []
    g.add_cards(0, "library", ["Swamp", "Grizzly Bears", "Savannah Lions", "Hill Giant", "Forest"])
    (satyr,) = g.add_cards(0, "hand", ["Satyr Wayfinder"])
    g.move(satyr, "battlefield")
    g.resolve_top()  # reveal four: Swamp and three creatures
    g.answer(by_name(g, g.pending.options, "Swamp"))
    assert names(g, g.hand(0)) == ["Swamp"]
    assert names(g, g.stack()) == ["Sidisi, Brood Tyrant"]  # one trigger for three creature cards
    g.resolve_top()
    assert len(by_name(g, g.battlefield(), "Zombie")) == 1
    g.mill(0, 1)  # a land alone: nothing
    assert g.stack() == []


def test_sidisi_with_rest_in_peace_exiles_instead_and_nothing_triggers():  # CR 603.2g, 614.6
    g, lib = sidisi_game(["Grizzly Bears", "Savannah Lions", "Hill Giant"], rest_in_peace=True)
    pass_round(g)
    assert g.graveyard(0) == [] and sorted(names(g, g.exile())) == ["Grizzly Bears", "Hill Giant", "Savannah Lions"]
    assert g.stack() == [] and by_name(g, g.battlefield(), "Zombie") == []


def test_the_enters_trigger_resolves_even_if_its_source_left_the_battlefield():  # CR 113.7a
    g, lib = sidisi_game(["Grizzly Bears", "Island", "Swamp", "Plains"], strict=False)
    (sidisi,) = by_name(g, g.battlefield(), "Sidisi, Brood Tyrant")
    (altar,) = g.add_cards(0, "battlefield", ["Altar of Dementia"])
    # In response, Sidisi is sacrificed to the Altar (player 1 mills 3).
    ab = g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=sidisi)
    assert names(g, g.stack()) == ["Altar of Dementia", "Sidisi, Brood Tyrant"]
    g.resolve_top()
    assert len(g.library(1)) == 2
    g.resolve_top()  # the enters ability still mills three
    assert names(g, g.graveyard(0)) == ["Swamp", "Island", "Grizzly Bears", "Sidisi, Brood Tyrant"]
    # Sidisi is gone, so its second ability no longer exists to see the creature card.
    assert g.stack() == [] and by_name(g, g.battlefield(), "Zombie") == []
    assert of_kind(g, "resolved")[-1]["spell"] != ab


def test_rest_in_peace_exiles_every_graveyard_on_entering():  # CR 603.6a
    g = new_game(strict=True)
    gy0 = g.add_cards(0, "graveyard", ["Grizzly Bears", "Island"])
    gy1 = g.add_cards(1, "graveyard", ["Lightning Bolt"])
    g.add_cards(0, "battlefield", ["Plains", "Plains"])
    (rip,) = add_hand(g, 0, ["Rest in Peace"])
    g.cast(rip)
    pass_round(g)
    (r,) = by_name(g, g.battlefield(), "Rest in Peace")
    assert names(g, g.stack()) == ["Rest in Peace"] and g.graveyard(0) == gy0  # not yet
    g.clear_events()
    pass_round(g)
    assert g.graveyard(0) == [] and g.graveyard(1) == []
    assert sorted(names(g, g.exile())) == ["Grizzly Bears", "Island", "Lightning Bolt"]
    moved = of_kind(g, "moved")
    assert sorted(e["from_id"] for e in moved) == sorted(gy0 + gy1)
    assert all(e["to"]["kind"] == "exile" for e in moved)
    assert r in g.battlefield() and g.stack() == []


# ----- landfall -----------------------------------------------------------------------------------------------


def test_ruin_crab_landfall_for_a_land_put_onto_the_battlefield_each_opponent_mills_three():  # CR 603.2, 603.6a
    g = new_game(3)
    for p in (1, 2):
        g.add_cards(p, "library", ["Island"] * 4)
    g.add_cards(0, "library", ["Island"] * 4)
    (crab,) = g.add_cards(0, "battlefield", ["Ruin Crab"])
    (land,) = add_hand(g, 0, ["Swamp"])
    g.clear_events()
    s = g.move(land, "battlefield")
    (ab,) = g.stack()
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": crab, "ability": ab}]
    g.resolve_top()
    assert [len(g.library(p)) for p in range(3)] == [4, 1, 1]
    assert [(e["player"], len(e["cards"])) for e in of_kind(g, "milled")] == [(1, 3), (2, 3)]
    assert s in g.battlefield()


def test_ruin_crab_does_not_see_an_opponents_land_or_a_nonland_permanent():  # CR 603.2 ("under your control")
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(0, "battlefield", ["Ruin Crab"])
    (land,) = add_hand(g, 1, ["Swamp"])
    (bears,) = add_hand(g, 0, ["Grizzly Bears"])
    g.clear_events()
    g.move(land, "battlefield")
    g.move(bears, "battlefield")
    assert g.stack() == [] and triggered(g) == []


def test_a_trigger_is_controlled_by_its_sources_controller_not_its_owner():  # CR 603.3a
    g = with_libraries(new_game(), 5)
    (card,) = g.add_cards(1, "hand", ["Ruin Crab"])
    crab = g.move(card, "battlefield", controller=0)  # player 1's Crab, player 0 controls it
    (mine,) = add_hand(g, 0, ["Swamp"])
    (theirs,) = add_hand(g, 1, ["Swamp"])
    g.move(theirs, "battlefield")  # not "under your control" for the Crab's controller
    assert g.stack() == []
    g.move(mine, "battlefield")
    (ab,) = g.stack()
    assert g.object(ab).controller == 0 and triggered(g)[-1]["source"] == crab
    g.resolve_top()  # "each opponent" of player 0
    assert (len(g.library(0)), len(g.library(1))) == (5, 2)


def test_evolving_wilds_and_the_land_it_fetches_each_trigger_landfall_once():  # CR 603.2, 603.6a
    g = with_libraries(new_game(), 8, "Lightning Bolt")
    g.add_cards(0, "library", ["Forest"])
    (crab,) = g.add_cards(0, "battlefield", ["Ruin Crab"])
    (wilds,) = add_hand(g, 0, ["Evolving Wilds"])
    w = g.move(wilds, "battlefield")
    g.resolve_top()  # the Wilds entering: player 1 mills 3
    assert len(g.library(1)) == 5
    ab = g.activate(w, 0)
    assert g.stack() == [ab] and names(g, g.graveyard(0)) == ["Evolving Wilds"]
    g.resolve_top()
    d = g.pending
    assert (d.purpose, names(g, d.options)) == ("search", ["Forest"])
    g.clear_events()
    g.answer(d.options)
    (f,) = by_name(g, g.battlefield(), "Forest")
    assert g.object(f).tapped
    (t,) = g.stack()  # the fetched land entering, by an effect, is landfall too
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": crab, "ability": t}]
    g.resolve_top()
    assert len(g.library(1)) == 2


# ----- "when this dies" (CR 700.4, 603.10a) ----------------------------------------------------------------


def explorer_game():
    """Player 0 controls Veteran Explorer and Altar of Dementia; each player has basic lands in
    the library; player 1 controls Ruin Crab."""
    g = new_game()
    lib0 = g.add_cards(0, "library", ["Forest", "Grizzly Bears", "Island", "Plains"])
    lib1 = g.add_cards(1, "library", ["Swamp", "Lightning Bolt", "Mountain", "Wastes", "Island", "Island", "Island", "Island"])
    (vet,) = g.add_cards(0, "battlefield", ["Veteran Explorer"])
    (altar,) = g.add_cards(0, "battlefield", ["Altar of Dementia"])
    (crab,) = g.add_cards(1, "battlefield", ["Ruin Crab"])
    return g, vet, altar, crab, lib0, lib1


def test_veteran_explorer_sacrificed_triggers_above_the_altar_ability():  # CR 603.10a, 603.3, 602.2
    g, vet, altar, _, _, _ = explorer_game()
    g.clear_events()
    ab = g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=vet)
    (card,) = g.graveyard(0)
    assert g.name(card) == "Veteran Explorer"
    assert of_kind(g, "died") == [{"kind": "died", "card": card, "from_id": vet}]
    top, bottom = g.stack()
    assert bottom == ab and g.name(top) == "Veteran Explorer" and g.object(top).controller == 0
    # The "dies" ability looks back in time: its source is the card in the graveyard.
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": card, "ability": top}]
    assert kinds(g.events).index("ability_activated") < kinds(g.events).index("ability_triggered")


def test_veteran_explorer_each_player_may_search_active_player_first():  # CR 101.4, 701.23, 603.10a
    g, vet, altar, crab, lib0, lib1 = explorer_game()
    g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=vet)
    g.clear_events()
    g.resolve_top()
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "yes_no", "may_search")
    g.answer(True)
    d = g.pending
    assert (d.player, d.purpose, d.min, d.max, sorted(d.options)) == (0, "search", 0, 2, sorted([lib0[0], lib0[2], lib0[3]]))
    g.answer([lib0[0], lib0[2]])
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (1, "yes_no", "may_search")  # then player 1
    # They search at the same time (CR 701.23i): nothing has moved while player 1 decides.
    assert g.library(0) == lib0 and of_kind(g, "searched") == []
    g.answer(True)
    d = g.pending
    assert (d.player, d.purpose, d.max, sorted(d.options)) == (1, "search", 2, sorted(lib1[:1] + lib1[2:]))  # not the Bolt
    g.answer([lib1[0], lib1[2]])
    assert sorted(names(g, [p for p in g.battlefield() if g.object(p).controller == 0])) == ["Altar of Dementia", "Forest", "Island"]
    assert sorted(names(g, [p for p in g.battlefield() if g.object(p).controller == 1])) == ["Mountain", "Ruin Crab", "Swamp"]
    assert [e["player"] for e in of_kind(g, "searched")] == [0, 1]
    assert [e["player"] for e in of_kind(g, "shuffled")] == [0, 1]
    # Then the four lands move together, then both libraries are shuffled.
    moves = [e["kind"] for e in g.events if e["kind"] in ("searched", "moved", "shuffled")]
    assert moves == ["searched", "searched", "moved", "moved", "moved", "moved", "shuffled", "shuffled"]
    # Player 1's two lands entering trigger their Ruin Crab twice, at once: player 1 orders them.
    d = g.pending
    assert (d.player, d.purpose, len(d.options)) == (1, "order_triggers", 2)


def test_a_player_who_leaves_during_a_simultaneous_search_takes_nothing():  # CR 701.23i, 800.4a, 104.3a
    g = new_game(3)
    libs = [g.add_cards(p, "library", ["Forest", "Island", "Plains", "Swamp"]) for p in range(3)]
    (vet,) = g.add_cards(0, "battlefield", ["Veteran Explorer"])
    (altar,) = g.add_cards(0, "battlefield", ["Altar of Dementia"])
    g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=vet)
    g.resolve_top()  # the Explorer's trigger: each player may search
    g.answer(True)
    g.answer(libs[0][:2])  # player 0 chooses two lands; nothing moves yet
    assert (g.pending.player, g.pending.purpose) == (1, "may_search")
    g.concede(0)  # not player 0's decision: the search goes on without them
    assert (g.pending.player, g.pending.purpose) == (1, "may_search")
    g.answer(True)
    g.answer(libs[1][:1])
    g.answer(True)
    g.answer(libs[2][:1])
    assert [g.object(c).controller for c in g.battlefield() if g.name(c) in ("Forest", "Island")] == [1, 2]
    assert [e["player"] for e in of_kind(g, "searched")] == [1, 2]


def test_veteran_explorer_a_player_may_decline_to_search():  # CR 701.23, "may"
    g, vet, altar, _, lib0, lib1 = explorer_game()
    g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=vet)
    g.resolve_top()
    assert (g.pending.player, g.pending.purpose) == (0, "may_search")
    g.clear_events()
    g.answer(False)
    # Player 0 declined: no search, no shuffle of their library.
    assert g.library(0) == lib0
    assert not any(e.get("player") == 0 and e["kind"] in ("searched", "shuffled") for e in g.events)


def test_veteran_explorer_exiled_by_rest_in_peace_does_not_die_and_does_not_trigger():  # CR 700.4, 614.6, 603.2g
    g, vet, altar, _, _, _ = explorer_game()
    g.add_cards(1, "battlefield", ["Rest in Peace"])
    g.clear_events()
    ab = g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=vet)
    assert g.stack() == [ab] and triggered(g) == [] and of_kind(g, "died") == []
    assert names(g, g.exile()) == ["Veteran Explorer"] and g.graveyard(0) == []


def test_veteran_explorer_dying_to_lethal_damage_triggers():  # CR 704.5g, 700.4, 603.10a
    g, vet, _, _, _, _ = explorer_game()
    g.add_cards(0, "battlefield", ["Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[vet])
    g.clear_events()
    g.resolve_top()
    (card,) = by_name(g, g.graveyard(0), "Veteran Explorer")
    assert of_kind(g, "died") == [{"kind": "died", "card": card, "from_id": vet}]
    (ab,) = g.stack()
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": card, "ability": ab}]


def test_a_creature_dying_to_damage_under_rest_in_peace_is_exiled():  # CR 614.6, 704.5g
    g = with_libraries(new_game())
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.add_cards(0, "battlefield", ["Rest in Peace", "Mountain"])
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[bears])
    g.resolve_top()
    assert g.graveyard(1) == [] and sorted(names(g, g.exile())) == ["Grizzly Bears", "Lightning Bolt"]


# ----- "whenever you scry" ------------------------------------------------------------------------------------


def scry_bottom(g: mtgsim.Game) -> None:
    d = g.pending
    assert (d.kind, d.purpose) == ("scry", "scry")
    g.answer(([], d.cards))


def test_flamespeaker_adept_gets_plus_two_and_first_strike_until_cleanup():  # CR 603.2, 611.2a, 514.2
    g = with_libraries(new_game(), 10)
    (fa,) = g.add_cards(0, "battlefield", ["Flamespeaker Adept"])
    (opp,) = g.add_cards(1, "battlefield", ["Flamespeaker Adept"])
    g.clear_events()
    g.scry(0, 1)
    scry_bottom(g)
    # Only its controller's scry triggers it ("whenever you scry").
    (ab,) = g.stack()
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": fa, "ability": ab}]
    assert g.power_toughness(fa) == (2, 3)  # not yet
    g.resolve_top()
    assert g.power_toughness(fa) == (4, 3) and g.power_toughness(opp) == (2, 3)
    assert eot_effects(g) == [{"object": fa, "power": 2, "toughness": 0, "keywords": ["first strike"]}]
    g.scry(0, 2)  # a second scry, a second trigger: the bonuses add up
    scry_bottom(g)
    g.resolve_top()
    assert g.power_toughness(fa) == (6, 3) and len(eot_effects(g)) == 2
    g.advance_to("end")
    assert g.power_toughness(fa) == (6, 3)  # still this turn in the end step
    g.next_turn()  # through the cleanup step (CR 514.2)
    assert g.power_toughness(fa) == (2, 3) and eot_effects(g) == []


def test_scry_zero_is_no_scry_and_triggers_nothing():  # CR 701.22b
    g = with_libraries(new_game(strict=True), 3)
    g.add_cards(0, "battlefield", ["Flamespeaker Adept", "Nimrodel Watcher", "Knowledge and Power"])
    g.scry(0, 0)
    assert g.stack() == [] and triggered(g) == []


def kp_game(lands: int):
    g = with_libraries(new_game(), 10)
    (kp,) = g.add_cards(0, "battlefield", ["Knowledge and Power"])
    (bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    mountains = g.add_cards(0, "battlefield", ["Mountain"] * lands)
    return g, kp, bears, mountains


def test_knowledge_and_power_target_is_chosen_as_the_trigger_goes_on_the_stack():  # CR 603.3d, 601.2c
    g, kp, bears, mountains = kp_game(2)
    g.clear_events()
    g.scry(0, 1)
    scry_bottom(g)
    (ab,) = g.stack()  # already on the stack, waiting for its target
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "targets", "targets", 1, 1)
    # "Target creature or player": either player or the one creature.
    assert sorted(map(str, d.options)) == sorted(map(str, [{"player": 0}, {"player": 1}, bears]))
    g.answer([bears])
    assert g.pending is None and g.priority_player == 0 and g.stack() == [ab]
    assert not any(g.object(m).tapped for m in mountains)  # nothing paid yet
    g.clear_events()
    g.resolve_top()
    d = g.pending  # "you may pay {2}" on resolution
    assert (d.player, d.kind, d.purpose) == (0, "yes_no", "may")
    g.answer(True)
    assert all(g.object(m).tapped for m in mountains)
    assert of_kind(g, "damage_dealt") == [{"kind": "damage_dealt", "source": kp, "target": {"object": bears}, "amount": 2}]
    assert names(g, g.graveyard(1)) == ["Grizzly Bears"]  # lethal damage (CR 704.5g)
    assert g.stack() == [] and g.mana_pool(0) == {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0, "C": 0}


def test_knowledge_and_power_declined_pays_nothing_and_deals_no_damage():  # "you may pay"
    g, kp, bears, mountains = kp_game(2)
    g.scry(0, 1)
    scry_bottom(g)
    g.answer([{"player": 1}])
    g.clear_events()
    g.resolve_top()
    assert g.pending.purpose == "may"
    g.answer(False)
    assert not any(g.object(m).tapped for m in mountains)
    assert g.life(1) == 20 and of_kind(g, "damage_dealt") == [] and g.stack() == []


def test_knowledge_and_power_without_the_mana_asks_nothing_on_resolution():  # "you may pay": only if payable
    g, kp, bears, mountains = kp_game(1)
    g.scry(0, 1)
    scry_bottom(g)
    g.answer([{"player": 1}])  # the target is still chosen (CR 603.3d)
    g.clear_events()
    g.strict = True
    g.resolve_top()
    assert g.pending is None and g.stack() == [] and g.life(1) == 20
    assert not g.object(mountains[0]).tapped and kinds(g.events)[-1] == "resolved"


def test_knowledge_and_power_whose_target_left_does_nothing():  # CR 608.2b
    g, kp, bears, mountains = kp_game(3)
    g.scry(0, 1)
    scry_bottom(g)
    g.answer([bears])
    (ab,) = g.stack()
    (bolt,) = add_hand(g, 0, ["Lightning Bolt"])
    g.cast(bolt, targets=[bears], payment=[mountains[2]])
    g.resolve_top()  # the Bolt: the Bears die
    assert names(g, g.graveyard(1)) == ["Grizzly Bears"]
    g.clear_events()
    g.strict = True  # no "may pay" question: the ability doesn't resolve at all
    g.resolve_top()
    assert g.stack() == [] and g.pending is None
    assert not g.object(mountains[0]).tapped and not g.object(mountains[1]).tapped
    assert of_kind(g, "fizzled") == [{"kind": "fizzled", "spell": ab, "card": None}] and of_kind(g, "resolved") == []


def test_nimrodel_watcher_triggers_only_once_each_turn():  # CR 603.2 (card text: "This ability triggers only once each turn")
    g = with_libraries(new_game(), 10)
    (nw,) = g.add_cards(0, "battlefield", ["Nimrodel Watcher"])
    g.scry(0, 1)
    scry_bottom(g)
    assert names(g, g.stack()) == ["Nimrodel Watcher"]
    g.resolve_top()
    assert g.power_toughness(nw) == (3, 1)
    assert eot_effects(g) == [{"object": nw, "power": 1, "toughness": 0, "keywords": ["can't be blocked"]}]
    g.clear_events()
    g.scry(0, 1)  # the same turn: no trigger
    scry_bottom(g)
    assert g.stack() == [] and triggered(g) == [] and g.power_toughness(nw) == (3, 1)
    g.next_turn()  # player 1's turn: player 0 scries again, and it triggers
    assert g.power_toughness(nw) == (2, 1)
    g.scry(0, 1)
    scry_bottom(g)
    assert names(g, g.stack()) == ["Nimrodel Watcher"]
    g.resolve_top()
    assert g.power_toughness(nw) == (3, 1)
    g.scry(0, 1)
    scry_bottom(g)
    assert g.stack() == []


def test_temple_scry_triggers_the_scry_watchers_after_the_temple_ability_resolves():  # CR 603.3, 603.3b
    g = with_libraries(new_game(), 10)
    (fa,) = g.add_cards(0, "battlefield", ["Flamespeaker Adept"])
    (nw,) = g.add_cards(0, "battlefield", ["Nimrodel Watcher"])
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    g.move(temple, "battlefield")
    (t_ab,) = g.stack()
    g.resolve_top()
    scry_bottom(g)
    # Both watchers triggered during the resolution; they wait until it is over, then their
    # controller orders them.
    d = g.pending
    assert (d.player, d.purpose) == (0, "order_triggers")
    srcs = {e["ability"]: e["source"] for e in triggered(g) if e["ability"] in d.options}
    assert sorted(srcs.values()) == sorted([fa, nw])
    assert of_kind(g, "resolved")[-1]["spell"] == t_ab
    order = sorted(d.options, key=lambda a: srcs[a] != nw)  # Nimrodel's lowest
    g.answer(order)
    assert g.stack() == order[::-1]
    g.resolve_top()
    assert g.power_toughness(fa) == (4, 3) and g.power_toughness(nw) == (2, 1)
    g.resolve_top()
    assert g.power_toughness(nw) == (3, 1)


# ----- "whenever a permanent becomes untapped": Mesmeric Orb -----------------------------------------------


def test_mesmeric_orb_untap_step_triggers_wait_for_the_upkeep():  # CR 502.3, 502.4, 503.1a, 603.3
    g = with_libraries(new_game(), 10)
    (orb,) = g.add_cards(1, "battlefield", ["Mesmeric Orb"])
    tapped = g.add_cards(0, "battlefield", ["Island", "Island"])
    g.add_cards(0, "battlefield", ["Swamp"])  # untapped: it doesn't "become" untapped
    for x in tapped:
        g.set_tapped(x)
    assert triggered(g) == [] and g.stack() == []  # setting up a position untaps nothing
    g.next_turn()  # player 1's turn: nothing of player 0's untaps
    assert g.stack() == [] and triggered(g) == []
    g.next_turn()  # player 0's turn 3: two Islands untap
    assert (g.turn, g.step, g.active_player) == (3, "upkeep", 0)
    assert not any(g.object(x).tapped for x in tapped)
    # The Orb's controller (player 1) controls both triggers; they went on the stack as the
    # upkeep began, not during the untap step (nobody gets priority there, CR 502.4).
    d = g.pending
    assert (d.player, d.purpose, len(d.options)) == (1, "order_triggers", 2)
    evs = g.events[max(i for i, e in enumerate(g.events) if e["kind"] == "step_began" and e["step"] == "untap") :]
    assert [(e["kind"], e.get("step")) for e in evs] == [
        ("step_began", "untap"),
        ("step_began", "upkeep"),
        ("ability_triggered", None),
        ("ability_triggered", None),
    ]
    assert all(e["player"] == 1 and e["source"] == orb for e in triggered(g)[-2:])
    g.answer(d.options)
    lib = g.library(0)
    g.clear_events()
    g.resolve_top()
    g.resolve_top()
    # "That permanent's controller mills a card": player 0, once for each Island.
    assert [(e["player"], len(e["cards"])) for e in of_kind(g, "milled")] == [(0, 1), (0, 1)]
    assert g.library(0) == lib[2:] and g.stack() == [] and g.step == "upkeep"


def test_mesmeric_orbs_of_both_players_go_on_the_stack_in_apnap_order():  # CR 603.3b, 101.4
    g = with_libraries(new_game(), 10)
    (orb0,) = g.add_cards(0, "battlefield", ["Mesmeric Orb"])
    (orb1,) = g.add_cards(1, "battlefield", ["Mesmeric Orb"])
    (swamp,) = g.add_cards(1, "battlefield", ["Swamp"])
    g.set_tapped(swamp)
    g.clear_events()
    g.next_turn()  # player 1's turn: the Swamp untaps, both Orbs trigger
    assert (g.active_player, g.step) == (1, "upkeep") and g.pending is None
    top, bottom = g.stack()
    # The active player's ability goes on the stack first, so it resolves last.
    assert (g.object(bottom).controller, g.object(top).controller) == (1, 0)
    assert [(e["player"], e["source"]) for e in triggered(g)] == [(1, orb1), (0, orb0)]
    g.clear_events()
    g.resolve_top()
    g.resolve_top()
    assert [(e["player"], len(e["cards"])) for e in of_kind(g, "milled")] == [(1, 1), (1, 1)]


def test_three_players_apnap_starts_with_the_active_player():  # CR 603.3b, 101.4
    g = with_libraries(new_game(3), 10)
    orbs = [g.add_cards(p, "battlefield", ["Mesmeric Orb"])[0] for p in range(3)]
    (land,) = g.add_cards(1, "battlefield", ["Island"])
    g.set_tapped(land)
    g.next_turn()  # player 1's turn
    assert g.active_player == 1
    st = g.stack()
    # Bottom to top: player 1 (active), then 2, then 0.
    assert controllers(g, st[::-1]) == [1, 2, 0]
    assert [e["source"] for e in triggered(g)] == [orbs[1], orbs[2], orbs[0]]


def test_a_permanent_entering_untapped_does_not_become_untapped():  # CR 603.2e
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(0, "battlefield", ["Mesmeric Orb"])
    (land,) = add_hand(g, 0, ["Island"])
    g.move(land, "battlefield")
    assert g.stack() == [] and triggered(g) == []


def test_mesmeric_orb_uses_last_known_information_if_the_permanent_left():  # CR 608.2h, 113.7a
    g = with_libraries(new_game(), 10)
    g.add_cards(1, "battlefield", ["Mesmeric Orb"])
    (altar,) = g.add_cards(0, "battlefield", ["Altar of Dementia"])
    (bears,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    g.set_tapped(bears)
    g.next_turn()
    g.next_turn()  # player 0's turn 3: the Bears untap
    assert names(g, g.stack()) == ["Mesmeric Orb"]
    g.activate(altar, 0, targets=[[{"player": 1}]], sacrifice=bears)  # in response
    g.resolve_top()
    lib = g.library(0)
    g.clear_events()
    g.resolve_top()  # the Orb's ability: the Bears' controller (player 0) mills a card
    assert [(e["player"], len(e["cards"])) for e in of_kind(g, "milled")] == [(0, 1)]
    assert g.library(0) == lib[1:]


# ----- discard triggers: Waste Not, Bloodhusk Ritualist (multikicker), Archfiend of Ifnir -------------------


def bloodhusk_game(kicks: int, opp_hand: list[str]):
    """Player 0 casts Bloodhusk Ritualist kicked ``kicks`` times (Swamps for exactly that) with
    Waste Not on the battlefield; player 1 holds ``opp_hand``."""
    g = with_libraries(new_game(), 10)
    (wn,) = g.add_cards(0, "battlefield", ["Waste Not"])
    g.add_cards(0, "battlefield", ["Swamp"] * (3 + kicks))
    (br,) = add_hand(g, 0, ["Bloodhusk Ritualist"])
    hand1 = add_hand(g, 1, opp_hand)
    g.cast(br, kick=kicks)
    pass_round(g)  # the creature resolves; its ability triggers
    (b,) = by_name(g, g.battlefield(), "Bloodhusk Ritualist")
    return g, wn, b, hand1


def test_bloodhusk_ritualist_target_opponent_discards_a_card_for_each_kick_and_waste_not_sees_each():  # CR 702.33e, 603.2c
    g, wn, b, (bears, forest, bolt) = bloodhusk_game(2, ["Grizzly Bears", "Forest", "Lightning Bolt"])
    (ab,) = g.stack()
    # The only opponent is the only legal target: chosen without a question (CR 603.3d).
    assert g.pending is None
    assert triggered(g)[-1] == {"kind": "ability_triggered", "player": 0, "source": b, "ability": ab}
    pass_round(g)
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max, sorted(d.options)) == (1, "choose_cards", "discard", 2, 2, sorted([bears, forest, bolt]))
    g.clear_events()
    g.answer([bears, forest])
    assert names(g, g.hand(1)) == ["Lightning Bolt"]
    assert sorted(names(g, g.graveyard(1))) == ["Forest", "Grizzly Bears"]
    # Waste Not triggered once for each discarded card: player 0 orders its two abilities.
    d = g.pending
    assert (d.player, d.purpose, len(d.options)) == (0, "order_triggers", 2)
    assert [e["source"] for e in triggered(g)] == [wn, wn]
    g.answer(d.options)
    g.resolve_top()
    g.resolve_top()
    # The creature card made a Zombie, the land card added {B}{B}.
    assert len(by_name(g, g.battlefield(), "Zombie")) == 1
    assert g.mana_pool(0)["B"] == 2 and g.hand(0) == []


def test_waste_not_noncreature_nonland_draws_and_own_discards_do_not_trigger():  # CR 603.2
    g, wn, b, (bolt,) = bloodhusk_game(1, ["Lightning Bolt"])
    pass_round(g)  # a one-card hand: no choice
    assert names(g, g.graveyard(1)) == ["Lightning Bolt"]
    (ab,) = g.stack()
    lib = g.library(0)
    g.resolve_top()
    assert len(g.hand(0)) == 1 and g.library(0) == lib[1:] and g.mana_pool(0)["B"] == 0
    g.clear_events()
    g.discard(0, 1)  # player 0's own discard: not an opponent's
    assert g.stack() == [] and triggered(g) == []


def test_bloodhusk_ritualist_unkicked_discards_nothing():  # CR 702.33e (kicked zero times)
    g, wn, b, hand1 = bloodhusk_game(0, ["Grizzly Bears", "Forest"])
    assert len(g.stack()) == 1  # it still triggers (no intervening "if")
    g.clear_events()
    pass_round(g)
    assert g.pending is None and g.hand(1) == hand1 and g.stack() == []
    assert of_kind(g, "discarded") == [] and of_kind(g, "resolved")[-1]["card"] is None


def test_archfiend_puts_a_minus_counter_on_each_creature_opponents_control_per_discarded_card():  # CR 603.2c, 704.5f
    g = with_libraries(new_game(), 10)
    (af,) = g.add_cards(0, "battlefield", ["Archfiend of Ifnir"])
    (mine,) = g.add_cards(0, "battlefield", ["Grizzly Bears"])
    lions, turtle = g.add_cards(1, "battlefield", ["Savannah Lions", "Horned Turtle"])
    g.add_cards(0, "battlefield", ["Mountain"])
    looting, keep = add_hand(g, 0, ["Faithless Looting", "Forest"])
    g.cast(looting)
    g.resolve_top()
    d = g.pending  # draw two, then discard two
    assert (d.player, d.purpose, d.min, d.max, len(d.options)) == (0, "discard", 2, 2, 3)
    g.clear_events()
    g.answer([o for o in d.options if o != keep])
    d = g.pending  # two discards, two triggers
    assert (d.player, d.purpose, len(d.options)) == (0, "order_triggers", 2)
    assert all(e["source"] == af for e in triggered(g))
    g.answer(d.options)
    g.resolve_top()
    # Savannah Lions (2/1) gets -1/-1 and dies (CR 704.5f); the Turtle is 0/3; not mine.
    assert names(g, g.graveyard(1)) == ["Savannah Lions"]
    assert g.object(turtle).counters == {"-1/-1": 1} and g.object(mine).counters == {}
    g.resolve_top()
    assert g.object(turtle).counters == {"-1/-1": 2} and g.power_toughness(turtle) == (-1, 2)
    assert g.power_toughness(af) == (5, 4) and lions not in g.battlefield()


def test_archfiend_cycling_another_archfiend_triggers_once():  # CR 702.29d ("another card")
    g = with_libraries(new_game(strict=True), 10)
    (af,) = g.add_cards(0, "battlefield", ["Archfiend of Ifnir", "Swamp", "Swamp"])[:1]
    (turtle,) = g.add_cards(1, "battlefield", ["Horned Turtle"])
    (other,) = add_hand(g, 0, ["Archfiend of Ifnir"])
    g.clear_events()
    ab = g.cycle(other)
    top, bottom = g.stack()
    assert bottom == ab and g.name(top) == "Archfiend of Ifnir"
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": af, "ability": top}]
    g.resolve_top()
    assert g.object(turtle).counters == {"-1/-1": 1}


# ----- triggers during casting and activation wait until it is finished ------------------------------------


def test_a_discard_paid_while_casting_triggers_after_the_spell_is_cast():  # CR 601.2i, 603.3, 117.5
    g = with_libraries(new_game(strict=True), 10)
    (af,) = g.add_cards(0, "battlefield", ["Archfiend of Ifnir"])
    (turtle,) = g.add_cards(1, "battlefield", ["Horned Turtle"])
    g.add_cards(0, "battlefield", ["Mountain", "Mountain", "Mountain", "Mountain"])
    windfall, fodder = add_hand(g, 0, ["Unexpected Windfall", "Grizzly Bears"])
    g.clear_events()
    spell = g.cast(windfall, discard=fodder)
    top, bottom = g.stack()
    assert bottom == spell and g.name(top) == "Archfiend of Ifnir"  # above the spell
    ks = kinds(g.events)
    assert ks.index("discarded") < ks.index("spell_cast") < ks.index("ability_triggered")
    assert g.priority_player == 0
    g.resolve_top()
    assert g.object(turtle).counters == {"-1/-1": 1} and g.stack() == [spell]


def test_drake_haven_asks_on_resolution_not_while_the_cost_is_paid():  # CR 601.2i, 603.3, "you may pay"
    g = with_libraries(new_game(), 10)
    (haven,) = g.add_cards(0, "battlefield", ["Drake Haven"])
    lands = g.add_cards(0, "battlefield", ["Mountain"] * 5)
    windfall, fodder = add_hand(g, 0, ["Unexpected Windfall", "Grizzly Bears"])
    spell = g.cast(windfall, discard=fodder)
    assert g.pending is None and names(g, g.stack()) == ["Drake Haven", "Unexpected Windfall"]
    assert sum(g.object(x).tapped for x in lands) == 4  # only the spell's cost so far
    g.resolve_top()
    d = g.pending
    assert (d.player, d.kind, d.purpose) == (0, "yes_no", "may")
    g.clear_events()
    g.answer(True)
    assert all(g.object(x).tapped for x in lands)
    (drake,) = by_name(g, g.battlefield(), "Drake")
    o = g.object(drake)
    assert (o.controller, o.card.colors, o.card.power, o.card.toughness, o.card.subtypes) == (0, ["U"], "2", "2", ["Drake"])
    assert g.stack() == [spell]


def test_drake_haven_declined_or_unpayable_makes_no_drake():  # "you may pay ... If you do"
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Drake Haven"])
    (mountain,) = g.add_cards(0, "battlefield", ["Mountain"])
    a, b, c = add_hand(g, 0, ["Grizzly Bears", "Forest", "Island"])
    g.discard(0, 1)
    g.answer([a])
    g.resolve_top()
    assert g.pending.purpose == "may"
    g.answer(False)  # declined: nothing paid, no token
    assert not g.object(mountain).tapped and by_name(g, g.battlefield(), "Drake") == []
    g.set_tapped(mountain)
    g.discard(0, 1)
    g.answer([b])
    g.strict = True  # no mana: no question at all
    g.resolve_top()
    assert g.pending is None and g.stack() == [] and by_name(g, g.battlefield(), "Drake") == []


def test_faith_of_the_devoted_drains_each_opponent_if_paid():  # "you may pay {1}. If you do"
    g = with_libraries(new_game(3), 10)
    g.add_cards(0, "battlefield", ["Faith of the Devoted", "Swamp"])
    (card,) = add_hand(g, 0, ["Grizzly Bears"])
    g.discard(0, 1)
    (ab,) = g.stack()
    g.resolve_top()
    g.clear_events()
    g.answer(True)
    assert [g.life(p) for p in range(3)] == [22, 18, 18]
    assert [e for e in g.events if e["kind"] == "life_changed"] == [
        {"kind": "life_changed", "player": 1, "from": 20, "to": 18},
        {"kind": "life_changed", "player": 2, "from": 20, "to": 18},
        {"kind": "life_changed", "player": 0, "from": 20, "to": 22},
    ]
    assert of_kind(g, "resolved") == [{"kind": "resolved", "spell": ab, "card": None}]


# ----- 603.4: intervening "if" clauses ---------------------------------------------------------------------


def battlemage_game(kick):
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Forest", "Forest", "Forest", "Mountain", "Plains"])
    (thopter,) = g.add_cards(1, "battlefield", ["Ornithopter"])
    (tm,) = add_hand(g, 0, ["Thornscape Battlemage"])
    g.cast(tm, kick=kick)
    g.clear_events()
    pass_round(g)
    (t,) = by_name(g, g.battlefield(), "Thornscape Battlemage")
    return g, t, thopter


def test_thornscape_kicked_with_r_only_triggers_only_the_damage_ability():  # CR 603.4, 702.33f
    g, t, thopter = battlemage_game([True, False])
    (ab,) = g.stack()
    assert triggered(g) == [{"kind": "ability_triggered", "player": 0, "source": t, "ability": ab}]
    d = g.pending  # "any target": players, the Battlemage itself, the Ornithopter
    assert (d.player, d.purpose, d.min, d.max) == (0, "targets", 1, 1)
    assert sorted(map(str, d.options)) == sorted(map(str, [{"player": 0}, {"player": 1}, t, thopter]))
    g.answer([{"player": 1}])
    g.clear_events()
    g.resolve_top()
    assert g.life(1) == 18 and thopter in g.battlefield() and g.stack() == []
    assert of_kind(g, "damage_dealt") == [{"kind": "damage_dealt", "source": t, "target": {"player": 1}, "amount": 2}]


def test_thornscape_kicked_with_w_only_destroys_target_artifact():  # CR 603.4, 702.33f
    g, t, thopter = battlemage_game([False, True])
    (ab,) = g.stack()
    assert g.pending is None  # the only artifact is the only choice
    assert len(triggered(g)) == 1
    g.resolve_top()
    assert names(g, g.graveyard(1)) == ["Ornithopter"] and g.life(1) == 20


def test_thornscape_kicked_both_ways_triggers_both_and_its_controller_orders_them():  # CR 603.4, 603.3b, 603.3d
    g, t, thopter = battlemage_game([True, True])
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "order", "order_triggers", 2, 2)
    dmg, destroy = sorted(d.options)  # printed order: the {R} ability triggered first
    # The order is chosen first; then targets, each as its ability goes on the stack.
    g.answer([destroy, dmg])  # the destroy ability lowest
    assert g.stack() == [dmg, destroy]
    d = g.pending
    assert (d.purpose, d.kind) == ("targets", "targets") and thopter in d.options
    g.answer([thopter])  # 2 damage to the Ornithopter too
    assert g.pending is None
    g.resolve_top()  # the damage ability first: the 0/2 dies
    assert names(g, g.graveyard(1)) == ["Ornithopter"]
    g.clear_events()
    g.resolve_top()  # its target is gone: the destroy ability does nothing (CR 608.2b)
    assert of_kind(g, "fizzled") == [{"kind": "fizzled", "spell": destroy, "card": None}]
    assert g.stack() == [] and t in g.battlefield()


def test_thornscape_unkicked_triggers_nothing():  # CR 603.4
    g, t, thopter = battlemage_game(False)
    assert g.stack() == [] and triggered(g) == [] and g.pending is None


def test_thornscape_put_onto_the_battlefield_without_being_cast_was_not_kicked():  # CR 603.4, 702.33d
    g = with_libraries(new_game(strict=True), 5)
    g.add_cards(1, "battlefield", ["Ornithopter"])
    (tm,) = add_hand(g, 0, ["Thornscape Battlemage"])
    t = g.move(tm, "battlefield")
    assert not g.kicked(t) and g.stack() == [] and triggered(g) == []


def owl_game(kicked: bool):
    g = with_libraries(new_game(), 5)
    lands = g.add_cards(0, "battlefield", ["Island"] * 7)
    opp = g.add_cards(1, "battlefield", ["Grizzly Bears", "Swamp", "Forest", "Mountain"])
    (owl,) = add_hand(g, 0, ["Tempest Owl"])
    g.cast(owl, kick=kicked)
    g.clear_events()
    pass_round(g)
    (o,) = by_name(g, g.battlefield(), "Tempest Owl")
    return g, o, opp, lands


def test_tempest_owl_kicked_taps_up_to_three_target_permanents():  # CR 603.4, 603.3d, 115.1
    g, o, opp, lands = owl_game(True)
    (ab,) = g.stack()
    d = g.pending
    assert (d.player, d.kind, d.purpose, d.min, d.max) == (0, "targets", "targets", 0, 3)
    assert set(opp) | {o} <= set(d.options)
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer(opp)  # four is too many
    g.answer(opp[:3])
    g.resolve_top()
    assert [g.object(x).tapped for x in opp] == [True, True, True, False]


def test_tempest_owl_kicked_may_choose_no_target():  # CR 601.2c ("up to")
    g, o, opp, lands = owl_game(True)
    g.answer([])
    g.resolve_top()
    assert not any(g.object(x).tapped for x in opp) and g.stack() == []


def test_tempest_owl_unkicked_does_not_trigger():  # CR 603.4
    g, o, opp, lands = owl_game(False)
    assert g.stack() == [] and triggered(g) == [] and g.pending is None


def test_tempest_owl_taps_the_targets_still_legal():  # CR 608.2b
    g, o, opp, lands = owl_game(True)
    bears, swamp, forest, _ = opp
    g.answer([bears, swamp, forest])
    (altar,) = g.add_cards(1, "battlefield", ["Altar of Dementia"])
    g.pass_priority()  # player 1 sacrifices the Bears in response
    g.activate(altar, 0, targets=[[{"player": 0}]], sacrifice=bears)
    g.resolve_top()
    g.resolve_top()
    assert g.object(swamp).tapped and g.object(forest).tapped and g.stack() == []


# ----- 603.3d: targets --------------------------------------------------------------------------------------

#: A creature type for the Sliver-targeting Vedalken AEthermage (no built-in card is a Sliver).
SLIVER = {
    "name": "Savannah Lions",
    "mana_cost": "{W}",
    "type_line": "Creature — Sliver",
    "oracle_text": "",
    "power": "2",
    "toughness": "1",
}


def aethermage_game(slivers: int):
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Island", "Island"])
    sl = g.add_cards(1, "battlefield", ["Savannah Lions"] * slivers) if slivers else []
    (ae,) = add_hand(g, 0, ["Vedalken AEthermage"])
    if slivers:
        g = redefine(g, "Savannah Lions", SLIVER)
    g.cast(ae)
    g.clear_events()
    pass_round(g)
    (a,) = by_name(g, g.battlefield(), "Vedalken AEthermage")
    return g, a, sl


def test_aethermage_with_no_sliver_is_removed_from_the_stack():  # CR 603.3d
    g, a, _ = aethermage_game(0)
    (e,) = triggered(g)
    assert (e["player"], e["source"]) == (0, a)
    assert g.stack() == [] and g.pending is None and g.priority_player == 0
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(e["ability"])
    assert of_kind(g, "resolved")[-1]["spell"] != e["ability"]


def test_aethermage_with_one_sliver_targets_it_without_a_question():  # CR 603.3d, 115.1
    g, a, (sliver,) = aethermage_game(1)
    assert g.pending is None and len(g.stack()) == 1
    g.resolve_top()
    assert names(g, g.hand(1)) == ["Savannah Lions"] and sliver not in g.battlefield()


def test_aethermage_with_two_slivers_asks_which_and_rechecks_on_resolution():  # CR 603.3d, 608.2b
    g, a, (s1, s2) = aethermage_game(2)
    (ab,) = g.stack()
    d = g.pending
    assert (d.player, d.kind, d.purpose, sorted(d.options), d.min, d.max) == (0, "targets", "targets", sorted([s1, s2]), 1, 1)
    with untouched(g, mtgsim.InvalidAnswerError):
        g.answer([a])  # not a Sliver
    g.answer([s2])
    g.move(s2, "graveyard")  # the target leaves before the ability resolves
    g.clear_events()
    g.resolve_top()
    assert of_kind(g, "fizzled") == [{"kind": "fizzled", "spell": ab, "card": None}]
    assert s1 in g.battlefield() and g.hand(1) == []


# ----- 603.3b: ordering one player's simultaneous triggers --------------------------------------------------


def crab_temple_order_game():
    g = with_libraries(new_game(), 5)
    (crab,) = g.add_cards(0, "battlefield", ["Ruin Crab"])
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    t = g.move(temple, "battlefield")
    d = g.pending
    trig = {e["source"]: e["ability"] for e in triggered(g)}
    return g, d, trig[crab], trig[t]


def test_the_order_answer_must_list_every_trigger_exactly_once():  # CR 603.3b, 733
    g, d, crab_ab, temple_ab = crab_temple_order_game()
    assert (d.player, d.kind, d.purpose, sorted(d.options)) == (0, "order", "order_triggers", sorted([crab_ab, temple_ab]))
    for wrong in ([crab_ab], [crab_ab, crab_ab], [crab_ab, temple_ab, crab_ab], [crab_ab, temple_ab + 1000], [], True):
        with untouched(g, mtgsim.InvalidAnswerError):
            g.answer(wrong)
    assert g.pending == d
    g.answer([crab_ab, temple_ab])  # the Crab's lowest: the Temple's resolves first
    assert g.stack() == [temple_ab, crab_ab]
    g.resolve_top()
    assert g.pending.purpose == "scry" and len(g.library(1)) == 5


def test_the_order_and_the_targets_can_come_from_a_policy_callback():  # CR 603.3b, 603.3d
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Forest", "Forest", "Forest", "Mountain", "Plains"])
    (thopter,) = g.add_cards(1, "battlefield", ["Ornithopter"])
    (tm,) = add_hand(g, 0, ["Thornscape Battlemage"])
    g.cast(tm, kick=[True, True])
    asked = []

    def choose(game, d):
        asked.append(d)
        return list(reversed(d.options)) if d.purpose == "order_triggers" else [{"player": 1}]

    g.set_policy(0, choose)
    pass_round(g)
    assert [d.purpose for d in asked] == ["order_triggers", "targets"] and g.pending is None
    # Reversed: the last offered went on the stack first, so top first reads as offered.
    assert g.stack() == asked[0].options
    while g.stack():
        g.resolve_top()
    assert g.life(1) == 18 and names(g, g.graveyard(1)) == ["Ornithopter"]


def test_a_callback_policy_answers_the_trigger_order_raised_by_move():  # Game.set_policy contract, CR 603.3b
    g = with_libraries(new_game(), 5)
    g.add_cards(0, "battlefield", ["Ruin Crab"])
    (temple,) = add_hand(g, 0, ["Temple of Malady"])
    asked = []
    g.set_policy(0, lambda game, d: asked.append(d) or list(d.options))
    g.move(temple, "battlefield")
    assert len(asked) == 1 and g.pending is None


# ----- 603.7: delayed triggered abilities (Astral Slide) ------------------------------------------------------


def slide_game(*, cycler: str = "Canyon Slough"):
    """Player 0 controls Astral Slide and the lands to cycle ``cycler``; player 1 owns Grizzly
    Bears (with a +1/+1 counter, tapped) that player 0 controls."""
    g = with_libraries(new_game(), 10)
    (slide,) = g.add_cards(0, "battlefield", ["Astral Slide"])
    g.add_cards(0, "battlefield", ["Swamp", "Mountain", "Swamp", "Mountain"])
    (card,) = g.add_cards(1, "hand", ["Grizzly Bears"])
    bears = g.move(card, "battlefield", controller=0, tapped=True)
    g.add_counters(bears, "+1/+1", 1)
    c1, c2 = add_hand(g, 0, [cycler, cycler])
    return g, slide, bears, c1, c2


def slide_exile(g: mtgsim.Game, cycler: int, target: int) -> int:
    """Cycles ``cycler``, targets ``target`` with the Slide trigger and exiles it; returns the
    exiled card's id."""
    g.cycle(cycler)
    if g.pending is not None:
        assert g.pending.purpose == "targets"
        g.answer([target])
    g.resolve_top()
    assert g.pending.purpose == "may"
    g.answer(True)
    (ex,) = by_name(g, g.exile(), g.card_name(target))
    return ex


def test_astral_slide_returns_the_card_at_the_next_end_step_under_its_owners_control():  # CR 603.7, 400.7, 110.2
    g, slide, bears, c1, _ = slide_game()
    ex = slide_exile(g, c1, bears)
    assert g.object(ex).owner == 1 and g.object(ex).zone == "exile"
    g.resolve_top()  # the cycling draw
    assert g.stack() == []
    g.advance_to("postcombat_main")
    assert ex in g.exile()  # not before the end step
    g.clear_events()
    g.advance_to("end")
    (ab,) = g.stack()
    o = g.object(ab)
    assert (o.name, o.controller, g.step, g.turn) == ("Astral Slide", 0, "end", 1)
    (e,) = triggered(g)
    assert (e["player"], e["ability"]) == (0, ab)
    g.clear_events()
    g.resolve_top()
    (back,) = by_name(g, g.battlefield(), "Grizzly Bears")
    b = g.object(back)
    # A new object: the owner's, untapped, without the counter (CR 400.7, 110.2).
    assert back not in (bears, ex) and (b.controller, b.owner, b.tapped, b.counters) == (1, 1, False, {})
    assert of_kind(g, "moved") == [{"kind": "moved", "from_id": ex, "card": back, "from": {"kind": "exile", "player": 1}, "to": {"kind": "battlefield", "player": 1}}]
    g.next_turn()
    assert g.object(back).zone == "battlefield" and g.stack() == []  # it triggered only once (CR 603.7b)


def test_a_delayed_trigger_has_the_source_of_the_ability_that_created_it():  # CR 603.7e
    g, slide, bears, c1, _ = slide_game()
    slide_exile(g, c1, bears)
    g.resolve_top()
    g.clear_events()
    g.advance_to("end")
    (e,) = triggered(g)
    assert e["source"] == slide


def test_astral_slide_used_during_the_end_step_returns_at_the_next_turns_end_step():  # CR 603.7, 513.2
    g, slide, bears, c1, _ = slide_game()
    g.advance_to("end")
    ex = slide_exile(g, c1, bears)
    g.resolve_top()  # the cycling draw
    assert g.stack() == [] and ex in g.exile()
    g.next_turn()  # through this end step and cleanup into player 1's turn
    assert ex in g.exile() and (g.turn, g.active_player) == (2, 1)
    g.advance_to("end")  # "the next end step": player 1's
    assert names(g, g.stack()) == ["Astral Slide"] and g.object(g.stack()[0]).controller == 0
    g.resolve_top()
    (back,) = by_name(g, g.battlefield(), "Grizzly Bears")
    assert g.object(back).controller == 1


def test_astral_slide_on_an_opponents_turn_returns_at_that_turns_end_step():  # CR 603.7 ("the next end step")
    g, slide, bears, c1, _ = slide_game()
    g.next_turn()  # player 1's turn, upkeep
    (opp_bears,) = g.add_cards(1, "battlefield", ["Grizzly Bears"])
    g.pass_priority()  # player 1 passes: player 0 has priority in player 1's upkeep
    assert g.priority_player == 0
    g.cycle(c1)
    g.answer([opp_bears])
    g.resolve_top()
    g.answer(True)
    (ex,) = g.exile()
    assert g.object(ex).owner == 1 and bears in g.battlefield()
    g.resolve_top()
    g.advance_to("end")
    assert (g.turn, g.active_player) == (2, 1) and names(g, g.stack()) == ["Astral Slide"]
    g.resolve_top()
    assert ex not in g.exile() and g.exile() == []


def test_astral_slide_returns_nothing_if_the_exiled_card_left_exile():  # CR 603.7c, 400.7
    g, slide, bears, c1, _ = slide_game()
    ex = slide_exile(g, c1, bears)
    g.resolve_top()
    gy = g.move(ex, "graveyard")
    g.advance_to("end")
    (ab,) = g.stack()  # it still triggers...
    g.clear_events()
    g.resolve_top()  # ... and does nothing
    assert by_name(g, g.battlefield(), "Grizzly Bears") == [] and g.graveyard(1) == [gy]
    assert of_kind(g, "moved") == [] and of_kind(g, "resolved") == [{"kind": "resolved", "spell": ab, "card": None}]


def test_astral_slide_declined_exiles_nothing_and_creates_no_delayed_trigger():  # "you may ... If you do"
    g, slide, bears, c1, _ = slide_game()
    g.cycle(c1)  # the Bears are the only creature: the only target, no question
    assert g.pending is None and names(g, g.stack()) == ["Astral Slide", "Canyon Slough"]
    g.resolve_top()
    g.answer(False)
    assert g.exile() == [] and g.object(bears).zone == "battlefield"
    g.resolve_top()
    g.advance_to("end")
    assert g.stack() == []


def test_two_astral_slide_exiles_return_together_and_their_controller_orders_them():  # CR 603.7, 603.3b
    g, slide, bears, c1, c2 = slide_game()
    (lions,) = g.add_cards(1, "battlefield", ["Savannah Lions"])
    slide_exile(g, c1, bears)
    g.resolve_top()
    slide_exile(g, c2, lions)
    g.resolve_top()
    g.advance_to("end")
    d = g.pending
    assert (d.player, d.purpose, len(d.options)) == (0, "order_triggers", 2)
    g.answer(d.options)
    g.resolve_top()
    g.resolve_top()
    assert sorted(names(g, g.battlefield())[-2:]) == ["Grizzly Bears", "Savannah Lions"] and g.exile() == []


# ----- 603.2b: "at the beginning of" ------------------------------------------------------------------------


def beginning_card(step: str, yours: bool) -> dict:
    return {
        "name": "Ornithopter",
        "mana_cost": "{0}",
        "type_line": "Artifact",
        "oracle_text": f"At the beginning of {'your' if yours else 'each'} {step}, you gain 1 life.",
        "rules": {"triggers": [{"when": {"beginning_of": {"step": step, "yours": yours}}, "effects": [{"gain_life": {"amount": 1}}]}]},
    }


def test_at_the_beginning_of_your_upkeep_triggers_only_on_your_turn():  # CR 603.2b, 503.1a
    g = with_libraries(new_game(), 10)
    (art,) = g.add_cards(1, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", beginning_card("upkeep", True))
    g.next_turn()  # player 1's upkeep
    (ab,) = g.stack()
    assert (g.step, g.active_player, g.priority_player, g.object(ab).controller) == ("upkeep", 1, 1, 1)
    assert triggered(g)[-1] == {"kind": "ability_triggered", "player": 1, "source": art, "ability": ab}
    g.resolve_top()
    assert g.life(1) == 21 and g.step == "upkeep"
    g.next_turn()  # player 0's upkeep: not "your" upkeep for player 1
    assert g.stack() == [] and g.life(1) == 21
    g.next_turn()
    assert len(g.stack()) == 1 and g.active_player == 1


def test_at_the_beginning_of_each_combat_triggers_every_turn_in_that_step():  # CR 603.2b, 507
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", beginning_card("begin_combat", False))
    g.advance_to("begin_combat")
    assert (g.step, names(g, g.stack())) == ("begin_combat", ["Ornithopter"])
    g.resolve_top()
    assert g.life(0) == 21 and g.step == "begin_combat"
    g.next_turn()  # player 1's turn: nothing in the upkeep
    assert g.stack() == []
    g.advance_to("begin_combat")
    assert names(g, g.stack()) == ["Ornithopter"] and g.object(g.stack()[0]).controller == 0
    g.resolve_top()
    assert g.life(0) == 22


def test_at_the_beginning_of_the_end_step_triggers_once_per_end_step():  # CR 603.2b, 513.1
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", beginning_card("end", True))
    g.advance_to("postcombat_main")
    assert g.stack() == []
    g.advance_to("end")
    assert names(g, g.stack()) == ["Ornithopter"]
    g.resolve_top()
    g.next_turn()  # on through cleanup: no second trigger
    assert g.life(0) == 21 and g.stack() == []


def test_at_the_beginning_of_the_untap_step_waits_for_the_upkeep():  # CR 603.2b, 502.4
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", beginning_card("untap", False))
    g.next_turn()  # player 1's untap step: nobody gets priority there, so it waits
    assert (g.step, names(g, g.stack())) == ("upkeep", ["Ornithopter"])
    g.resolve_top()
    assert g.life(0) == 21


def test_at_the_beginning_of_the_cleanup_step_gives_priority_in_cleanup():  # CR 603.2b, 514.3a
    g = with_libraries(new_game(), 10)
    g.add_cards(0, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", beginning_card("cleanup", True))
    g.advance_to("end")
    g.pass_priority()
    g.pass_priority()  # the end step ends; the cleanup step begins and the ability triggers
    assert (g.turn, g.step, g.priority_player, names(g, g.stack())) == (1, "cleanup", 0, ["Ornithopter"])
    g.resolve_top()
    assert g.life(0) == 21
    # The cleanup step that follows (514.3a) doesn't trigger it again, so the turn ends.
    g.next_turn()
    assert (g.turn, g.life(0)) == (2, 21)


#: "At the beginning of your upkeep, if your library has no cards in it, you win the game": an
#: intervening "if" about the game state rather than about how the source was cast.
EMPTY_LIBRARY_WINS = {
    "name": "Ornithopter",
    "mana_cost": "{0}",
    "type_line": "Artifact",
    "oracle_text": "At the beginning of your upkeep, if your library has no cards in it, you win the game.",
    "rules": {"triggers": [{"when": {"beginning_of": {"step": "upkeep", "yours": True}}, "if": "your_library_empty", "effects": ["win_game"]}]},
}


def empty_library_upkeep_game():
    """Player 0 (no library) controls EMPTY_LIBRARY_WINS; it is player 0's turn 3 upkeep."""
    g = new_game()
    g.add_cards(1, "library", ["Island"] * 5)
    g.add_cards(0, "battlefield", ["Ornithopter"])
    g = redefine(g, "Ornithopter", EMPTY_LIBRARY_WINS)
    g.next_turn()
    g.next_turn()
    assert (g.turn, g.step, g.active_player) == (3, "upkeep", 0)
    return g


def test_an_intervening_if_about_the_game_state_triggers_when_true():  # CR 603.4
    g = empty_library_upkeep_game()
    assert names(g, g.stack()) == ["Ornithopter"]
    g.resolve_top()
    assert g.is_over and g.outcome["winners"] == [0]


def test_an_intervening_if_is_checked_again_on_resolution():  # CR 603.4
    g = empty_library_upkeep_game()
    (ab,) = g.stack()
    g.add_cards(0, "library", ["Island"])  # no longer true as it resolves
    g.clear_events()
    g.resolve_top()
    assert not g.is_over and g.stack() == [] and ab not in g.stack()
    assert of_kind(g, "game_over") == []
    # Removed from the stack, it did nothing: it didn't resolve (and its id finds nothing).
    assert of_kind(g, "removed") == [{"kind": "removed", "ability": ab}] and of_kind(g, "resolved") == []
    with pytest.raises(mtgsim.NoSuchObjectError):
        g.object(ab)


# ----- findings: the cleanup step and resolve_top ---------------------------------------------------------


def test_a_trigger_from_the_cleanup_discard_goes_on_the_stack_in_the_cleanup_step():  # CR 514.3a
    g = with_libraries(new_game(), 10)
    (af,) = g.add_cards(0, "battlefield", ["Archfiend of Ifnir"])
    (turtle,) = g.add_cards(1, "battlefield", ["Horned Turtle"])
    hand = add_hand(g, 0, ["Island"] * 8)
    g.advance_to("end")
    g.next_turn()
    d = g.pending
    assert (d.player, d.purpose, g.step) == (0, "discard", "cleanup")
    g.answer(hand[:1])
    assert (g.turn, g.step, g.priority_player) == (1, "cleanup", 0)
    (ab,) = g.stack()
    assert triggered(g)[-1]["source"] == af
    g.resolve_top()
    assert g.object(turtle).counters == {"-1/-1": 1} and g.turn == 1


def test_resolve_top_resolves_only_the_spell_not_the_trigger_it_puts_on_the_stack():  # Game.resolve_top contract, CR 117.4
    g2 = new_game(strict=True)
    g2.add_cards(1, "library", ["Island"] * 5)
    g2.add_cards(0, "library", ["Grizzly Bears", "Island", "Swamp", "Plains"])
    g2.add_cards(0, "battlefield", ["Island", "Swamp", "Forest", "Forest"])
    (sidisi,) = add_hand(g2, 0, ["Sidisi, Brood Tyrant"])
    g2.cast(sidisi)
    g2.resolve_top()
    assert names(g2, g2.stack()) == ["Sidisi, Brood Tyrant"] and len(g2.library(0)) == 4


# ----- CR 117.5: state-based actions, then triggers, before anyone receives priority -----------------------


def test_a_death_from_a_resolution_and_what_the_resolution_triggered_go_on_the_stack_together():  # CR 117.5, 603.3b
    # Player 0 (active) casts a sorcery that deals 3 damage to their own Veteran Explorer, then
    # has each opponent put a basic land onto the battlefield (landfall for player 1's Ruin
    # Crab). The Explorer dies to a state-based action only after the spell has resolved;
    # both abilities then wait together and go on the stack in APNAP order: the active
    # player's Explorer ability first, so player 1's Crab ability, on top, resolves first.
    g = new_game()
    g.add_cards(0, "library", ["Forest"] * 3)
    *_, island = g.add_cards(1, "library", ["Swamp"] * 3 + ["Island"])
    (vet,) = g.add_cards(0, "battlefield", ["Veteran Explorer"])
    g.add_cards(1, "battlefield", ["Ruin Crab"])
    (spell,) = add_hand(g, 0, ["Stabilizer"])
    g = redefine(
        g,
        "Stabilizer",
        {
            "name": "Test Upheaval",
            "mana_cost": "{0}",
            "type_line": "Sorcery",
            "oracle_text": "Test Upheaval deals 3 damage to target creature. Each opponent searches for a basic land card, puts it onto the battlefield, then shuffles.",
            "rules": {
                "targets": [{"kind": "permanent", "filter": "creature"}],
                "spell": [
                    {"damage": {"target": 0, "amount": 3}},
                    {"search": {"who": "each_opponent", "filter": "basic land", "to": {"battlefield": {"tapped": False}}}},
                ],
            },
        },
    )
    g.cast(spell, targets=[[vet]])
    g.resolve_top()
    assert (g.pending.player, g.pending.purpose) == (1, "search")
    g.answer([island])
    (card,) = [c for c in g.graveyard(0) if g.name(c) == "Veteran Explorer"]
    top, bottom = g.stack()  # top first
    assert g.name(bottom) == "Veteran Explorer" and g.object(bottom).controller == 0
    assert g.name(top) == "Ruin Crab" and g.object(top).controller == 1
    assert [e["player"] for e in triggered(g)][-2:] == [0, 1]
    assert card in g.graveyard(0)


def test_a_delayed_trigger_knows_the_controller_of_the_spell_that_triggered_it():  # CR 603.7, 603.2
    # "When you next cast an instant or sorcery spell this turn, that spell's controller draws
    # a card" (a card of the user's own): the delayed trigger reads the spell as any trigger does.
    db = mtgsim.CardDB()
    db.add({"name": "Echo Study", "mana_cost": "{U}", "type_line": "Instant",
            "rules": {"spell": [{"delayed": {"when": "you_next_cast_instant_or_sorcery_this_turn",
                                             "effects": [{"draw": {"who": "triggering_controller", "count": 1}}]}}]}})
    g = mtgsim.Game(2, seed=0, db=db)
    for p in (0, 1):
        g.set_policy(p, "first")
    g.add_cards(0, "library", ["Island"] * 10)
    g.add_cards(1, "library", ["Island"] * 10)
    g.add_cards(0, "battlefield", ["Island"] * 2)
    first, second = g.add_cards(0, "hand", ["Echo Study", "Echo Study"])
    g.cast(first)
    g.resolve_top()
    g.cast(second)
    g.resolve_top()  # the delayed trigger, above the second Echo Study
    assert [e["kind"] for e in g.events][-2:] == ["drew", "resolved"]
    assert len(g.library(0)) == 9 and len(g.hand(0)) == 1 and len(g.stack()) == 1


def test_the_active_player_chooses_targets_before_the_next_player_orders_theirs():  # CR 603.3b, 603.3d, 101.4
    """Player 1 cycles in player 0's turn; both control Astral Slide, player 1 also Drake Haven.
    Player 0's trigger goes on the stack first, its target chosen as it does; only then does
    player 1 order their two, then choose their Slide's target."""
    g = with_libraries(new_game())
    g.add_cards(0, "battlefield", ["Astral Slide"])
    g.add_cards(1, "battlefield", ["Astral Slide", "Drake Haven"])
    giant, _ = g.add_cards(0, "battlefield", ["Hill Giant", "Grizzly Bears"])
    (lions,) = g.add_cards(1, "battlefield", ["Savannah Lions"])
    (wraith,) = add_hand(g, 1, ["Street Wraith"])
    g.pass_priority()
    g.cycle(wraith)
    asked = []
    while g.pending is not None:
        d = g.pending
        asked.append((d.player, d.kind))
        g.answer([lions] if d.kind == "targets" and d.player == 0 else [giant] if d.kind == "targets" else d.options)
    assert asked == [(0, "targets"), (1, "order"), (1, "targets")]
    assert [g.object(s).controller for s in g.stack()] == [1, 1, 0, 1]  # top first; the cycling ability lowest


def test_triggers_of_a_player_who_leaves_while_others_choose_are_not_asked_about():  # CR 800.4a, 603.3b
    g = with_libraries(new_game(3))
    g.add_cards(0, "battlefield", ["Astral Slide"])
    g.add_cards(1, "battlefield", ["Astral Slide", "Drake Haven"])
    g.add_cards(0, "battlefield", ["Hill Giant"])
    (lions,) = g.add_cards(2, "battlefield", ["Savannah Lions"])
    (wraith,) = add_hand(g, 1, ["Street Wraith"])
    g.pass_priority()
    g.cycle(wraith)
    assert (g.pending.player, g.pending.kind) == (0, "targets")  # player 0 first (APNAP)
    g.concede(1)  # player 1's two triggers leave the stack with them, unordered
    g.answer([lions])
    assert g.pending is None and names(g, g.stack()) == ["Astral Slide"]
    g.check_invariants()


def test_a_player_who_concedes_while_targeting_their_trigger_is_skipped():  # CR 800.4a, 603.3b
    g = with_libraries(new_game(3))
    g.add_cards(1, "battlefield", ["Astral Slide"])
    g.add_cards(2, "battlefield", ["Astral Slide"])
    giant, bears = g.add_cards(0, "battlefield", ["Hill Giant", "Grizzly Bears"])
    (wraith,) = add_hand(g, 0, ["Street Wraith"])
    g.cycle(wraith)
    assert (g.pending.player, g.pending.kind) == (1, "targets")
    g.concede(1)
    assert (g.pending.player, g.pending.kind) == (2, "targets")  # the next player's trigger still gets its target
    g.answer([giant])
    assert [g.object(s).controller for s in g.stack()] == [2, 0]


def test_what_begins_the_game_on_the_battlefield_triggers_in_the_first_upkeep():  # CR 103.6a, 103.8, 603.2b
    # Before, a dealt game stood in turn 1's upkeep without that upkeep ever beginning: no event,
    # no "at the beginning of your upkeep" trigger until turn 3.
    db = mtgsim.CardDB()
    db.add([{"name": "Test Leyline", "mana_cost": "{2}{B}{B}", "type_line": "Enchantment",
             "rules": {"begin_on_battlefield": True,
                       "triggers": [{"when": {"beginning_of": {"step": "upkeep", "yours": True}},
                                     "effects": [{"gain_life": {"who": "you", "amount": 1}}]}]}}])
    g = mtgsim.Game.from_decks([["Test Leyline"] * 30 + ["Island"] * 30, ["Island"] * 60], seed=1, db=db)
    leylines = [c for c in g.battlefield() if g.name(c) == "Test Leyline"]
    assert leylines and (g.turn, g.step) == (1, "upkeep")
    assert names(g, g.stack()) == ["Test Leyline"] * len(leylines)
    assert [e for e in g.events if e["kind"] == "step_began"] == [{"kind": "step_began", "turn": 1, "step": "upkeep", "active": 0}]
    while g.stack():
        g.resolve_top()
    assert g.life(0) == 20 + len(leylines)


#: The same trigger, its "if" after the win: an "if" ending the instructions is followed in the
#: same frame (no frame is left for the rest), which must still stop once the game is over.
WIN_THEN_IF = {
    **EMPTY_LIBRARY_WINS,
    "rules": {
        "triggers": [
            {
                "when": {"beginning_of": {"step": "upkeep", "yours": True}},
                "effects": ["win_game", {"if": {"cond": "your_library_empty", "then": [{"gain_life": {"amount": 2}}, {"draw": {"count": 1, "who": "each_opponent"}}]}}],
            }
        ]
    },
}


def test_an_if_after_the_game_ended_does_nothing():  # CR 104.1
    g = empty_library_upkeep_game()
    g = redefine(g, "Ornithopter", WIN_THEN_IF)
    library = g.library(1)
    g.resolve_top()
    assert g.is_over and g.outcome["winners"] == [0]
    assert g.library(1) == library and g.life(0) == 20  # nothing of the branch happened


def test_an_if_ending_the_instructions_runs_its_branch():
    g = empty_library_upkeep_game()
    g = redefine(g, "Ornithopter", {**WIN_THEN_IF, "rules": {"triggers": [{**WIN_THEN_IF["rules"]["triggers"][0], "effects": WIN_THEN_IF["rules"]["triggers"][0]["effects"][1:]}]}})
    library = g.library(1)
    g.resolve_top()
    assert not g.is_over and g.library(1) == library[1:] and g.life(0) == 22
