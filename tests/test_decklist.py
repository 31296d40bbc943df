"""Deck lists (mtgsim.decklist): the text format MTG Arena, MTGO and deck sites use, its sideboard
rule, name matching against the card database, errors with line numbers, and writing a list back
(``DeckList.parse(d.to_text()) == d``)."""

from __future__ import annotations

import dataclasses
import doctest
import pickle
import re
import string
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import mtgsim
import mtgsim.decklist
from mtgsim.decklist import MAX_COUNT, DeckEntry, DeckList, DeckListError, UnknownDeckCardError

BUILTIN = mtgsim.card_names()


def E(count: int, name: str, set_code: str | None = None, number: str | None = None) -> DeckEntry:
    return DeckEntry(count, name, set_code, number)


def test_module_example() -> None:
    result = doctest.testmod(mtgsim.decklist)
    assert result.attempted > 0 and result.failed == 0


# ----- the line format -------------------------------------------------------------------------


def test_count_and_name() -> None:
    deck = DeckList.parse("4 Fractured Sanity\n20 Island\n")
    assert deck == DeckList((E(4, "Fractured Sanity"), E(20, "Island")))
    assert deck.sideboard == () and deck.name is None


@pytest.mark.parametrize("line", ["4x Fractured Sanity", "4X Fractured Sanity", "4\tFractured Sanity", "  4   Fractured Sanity  "])
def test_count_spellings(line: str) -> None:
    assert DeckList.parse(line).main == (E(4, "Fractured Sanity"),)


def test_count_limits() -> None:
    assert DeckList.parse(f"1 Island\n{MAX_COUNT} Island\n0001 Swamp").main == (E(1, "Island"), E(MAX_COUNT, "Island"), E(1, "Swamp"))


def test_set_code_and_collector_number() -> None:
    deck = DeckList.parse("4 Fractured Sanity (MH2) 44\n1 Island (m21)\n2 Troll of Khazad-dûm (LTR) 106★")
    assert deck.main == (
        E(4, "Fractured Sanity", "MH2", "44"),
        E(1, "Island", "m21"),  # kept as written
        E(2, "Troll of Khazad-dûm", "LTR", "106★"),
    )


def test_comments_and_blank_lines_before_cards_are_ignored() -> None:
    text = "# my mill deck\n\n// creatures: none\n   \n4 Fractured Sanity\n  # an indented comment\n// 4 Island\n16 Island\n"
    assert DeckList.parse(text).main == (E(4, "Fractured Sanity"), E(16, "Island"))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_and_line_numbers(newline: str) -> None:
    text = newline.join(["4 Island", "# comment", "", "2 Islnd"])
    with pytest.raises(DeckListError) as info:
        DeckList.parse(text)
    assert info.value.line_number == 4 and info.value.line == "2 Islnd"


def test_byte_order_mark_is_ignored() -> None:
    assert DeckList.parse("\ufeff4 Island").main == (E(4, "Island"),)


def test_entries_keep_their_order_and_are_not_merged() -> None:
    deck = DeckList.parse("2 Island\n1 Swamp\n1 Island")
    assert deck.main == (E(2, "Island"), E(1, "Swamp"), E(1, "Island"))
    assert deck.cards() == ["Island", "Island", "Swamp", "Island"]
    assert len(deck) == 4


def test_cards_and_sideboard_cards() -> None:
    deck = DeckList.parse("3 Fractured Sanity\n2 Island\nSideboard\n1 Counterspell\n2 Lightning Bolt")
    assert deck.cards() == ["Fractured Sanity"] * 3 + ["Island"] * 2
    assert deck.sideboard_cards() == ["Counterspell", "Lightning Bolt", "Lightning Bolt"]
    assert len(deck) == 5
    assert len(DeckList(())) == 0 and not DeckList((), (E(1, "Island"),))


def test_game_from_decks_takes_cards() -> None:
    mill = DeckList.parse("4 Fractured Sanity\n36 Island")
    beats = DeckList.parse("20 Grizzly Bears\n20 Forest")
    g = mtgsim.Game.from_decks([mill.cards(), beats.cards()], seed=3)
    for player, deck in enumerate([mill, beats]):
        ids = g.library(player) + g.hand(player)
        assert sorted(g.name(i) for i in ids) == sorted(deck.cards())


# ----- headers and the sideboard rule ----------------------------------------------------------


@pytest.mark.parametrize("header", ["Sideboard", "SIDEBOARD:", "sideboard", "  SideBoard :  "])
def test_sideboard_header(header: str) -> None:
    deck = DeckList.parse(f"4 Island\n{header}\n2 Counterspell")
    assert deck.main == (E(4, "Island"),) and deck.sideboard == (E(2, "Counterspell"),)


def test_with_a_sideboard_header_blank_lines_mean_nothing() -> None:
    text = "4 Island\n\n4 Swamp\n\n\nSideboard\n\n2 Counterspell\n\n1 Lightning Bolt\n"
    deck = DeckList.parse(text)
    assert deck.main == (E(4, "Island"), E(4, "Swamp"))
    assert deck.sideboard == (E(2, "Counterspell"), E(1, "Lightning Bolt"))


def test_without_a_header_the_first_blank_line_after_cards_starts_the_sideboard() -> None:
    # MTGO / older MTG Arena exports; blank lines before the first card don't count
    text = "\n# main\n\n4 Island\n4 Swamp\n\n\n2 Counterspell\n\n1 Lightning Bolt\n\n"
    deck = DeckList.parse(text)
    assert deck.main == (E(4, "Island"), E(4, "Swamp"))
    assert deck.sideboard == (E(2, "Counterspell"), E(1, "Lightning Bolt"))


def test_a_trailing_blank_line_gives_no_sideboard() -> None:
    assert DeckList.parse("4 Island\n\n\n# the end\n") == DeckList((E(4, "Island"),))


def test_comment_lines_do_not_separate_the_sideboard() -> None:
    assert DeckList.parse("4 Island\n// spells\n2 Counterspell").sideboard == ()


def test_mtg_arena_export() -> None:
    text = (
        "About\nName Blue Mill\n\nDeck\n4 Fractured Sanity (MH2) 44\n16 Island (ZNR) 381\n\n"
        "Sideboard\n2 Counterspell (MH2) 267\n"
    )
    deck = DeckList.parse(text)
    assert deck == DeckList(
        (E(4, "Fractured Sanity", "MH2", "44"), E(16, "Island", "ZNR", "381")),
        (E(2, "Counterspell", "MH2", "267"),),
        "Blue Mill",
    )


def test_old_mtg_arena_export_with_deck_header_and_blank_line() -> None:
    deck = DeckList.parse("Deck\n4 Island (ZNR) 381\n\n1 Counterspell (MH2) 267")
    assert deck.main == (E(4, "Island", "ZNR", "381"),) and deck.sideboard == (E(1, "Counterspell", "MH2", "267"),)


@pytest.mark.parametrize("line, name", [("Name Blue Mill", "Blue Mill"), ("name: Blue Mill", "Blue Mill"), ("NAME:Blue  Mill", "Blue  Mill"), ("Name :x", ":x")])
def test_deck_name(line: str, name: str) -> None:
    assert DeckList.parse(f"deck:\n{line}\n4 Island").name == name


# ----- name matching ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("fractured sanity", "Fractured Sanity"),
        ("FRACTURED SANITY", "Fractured Sanity"),
        ("Lorien Revealed", "Lórien Revealed"),
        ("Troll of Khazad-dum", "Troll of Khazad-dûm"),
        ("troll of khazad-DÛM", "Troll of Khazad-dûm"),
        ("Vedalken Æthermage", "Vedalken AEthermage"),
        ("Ertai\u2019s Trickery", "Ertai's Trickery"),
        ("Thrasios,   Triton Hero", "Thrasios, Triton Hero"),
    ],
)
def test_names_match_ignoring_case_and_accents(written: str, canonical: str) -> None:
    assert DeckList.parse(f"1 {written}").main == (E(1, canonical),)


def test_known_collection() -> None:
    known = {"Fire // Ice", "Lórien Revealed", "Custom Card"}
    deck = DeckList.parse("1 Fire // Ice\n1 fire//ice\n1 Lorien Revealed\n1 custom card", known=known)
    assert deck.cards() == ["Fire // Ice", "Fire // Ice", "Lórien Revealed", "Custom Card"]
    with pytest.raises(UnknownDeckCardError, match="line 2: unknown card name 'Island'"):
        DeckList.parse("1 Fire // Ice\n1 Island", known=known)


def test_a_face_name_is_not_the_split_card() -> None:
    with pytest.raises(UnknownDeckCardError, match="line 1: unknown card name 'Fire'"):
        DeckList.parse("2 Fire", known=["Fire // Ice"])


def test_known_predicate_takes_names_as_written() -> None:
    seen: list[str] = []

    def known(name: str) -> bool:
        seen.append(name)
        return name != "Nope"

    deck = DeckList.parse("2 whatever  Card (ABC) 7\n1 Fire // Ice", known=known)
    assert deck.main == (E(2, "whatever  Card", "ABC", "7"), E(1, "Fire // Ice"))
    assert seen == ["whatever  Card", "Fire // Ice"]
    with pytest.raises(UnknownDeckCardError, match="line 1: unknown card name 'Nope'"):
        DeckList.parse("1 Nope", known=known)


def test_exact_match_wins_and_folded_collisions_are_ambiguous() -> None:
    known = ["Foo", "FOO"]
    assert DeckList.parse("1 FOO\n1 Foo", known=known).cards() == ["FOO", "Foo"]
    with pytest.raises(UnknownDeckCardError, match="line 1: ambiguous card name 'foo'.*'FOO' or 'Foo'"):
        DeckList.parse("1 foo", known=known)


def test_default_known_is_the_card_database() -> None:
    assert "Black Lotus" not in BUILTIN
    with pytest.raises(UnknownDeckCardError, match="line 1: unknown card name 'Black Lotus'"):
        DeckList.parse("1 Black Lotus")
    assert DeckList.parse("1 Black Lotus", known=["Black Lotus"]).cards() == ["Black Lotus"]


def test_known_must_not_be_a_single_string() -> None:
    with pytest.raises(TypeError):
        DeckList.parse("1 I", known="Island")


# ----- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, number, what",
    [
        ("4 Island\n4 Islnd", 2, "unknown card name 'Islnd' (did you mean 'Island'?)"),
        ("4 Fractured Sanity (MH2) 44 *F*", 1, "unknown card name 'Fractured Sanity (MH2) 44 *F*'"),
        ("4 Island\n\n0 Island", 3, "count must be a positive integer, not 0"),
        ("-2 Island", 1, "count must be a positive integer, not -2"),
        ("-0 Island", 1, "count must be a positive integer"),
        (f"{MAX_COUNT + 1} Island", 1, f"count {MAX_COUNT + 1} is more than the maximum, {MAX_COUNT}"),
        ("1" * 5000 + " Island", 1, "is more than the maximum"),
        ("\n4", 2, "the card name is missing"),
        ("4x", 1, "the card name is missing"),
        ("Island", 1, "not a card line"),
        ("4Island", 1, "not a card line"),
        ("2.5 Island", 1, "not a card line"),
        ("four Island", 1, "not a card line"),
        ("Commander\n1 Island", 1, "not a card line"),
        ("SB: 2 Island", 1, "not a card line"),
        ("4 Island\nSideboard\n1 Swamp\nsideboard:", 4, "a second Sideboard header"),
        ("4 Island\nDeck\n4 Swamp", 2, "the 'Deck' header must come before the first card"),
        ("Sideboard\nDeck", 2, "the 'Deck' header must come before the first card"),
        ("4 Island\nAbout", 2, "the 'About' header must come before the first card"),
        ("4 Island\nName Mill", 2, "the deck name must come before the first card"),
        ("Name A\nName B", 2, "a second deck name (the first is 'A')"),
        ("Name:", 1, "the deck name is missing"),
        ("Name", 1, "the deck name is missing"),
    ],
)
def test_errors_give_the_line_number_the_line_and_the_reason(text: str, number: int, what: str) -> None:
    line = re.split(r"\r\n|\r|\n", text)[number - 1]
    with pytest.raises(DeckListError) as info:
        DeckList.parse(text)
    e = info.value
    assert (e.line_number, e.line) == (number, line)
    assert what in e.reason
    message = str(e)
    assert message.startswith(f"line {number}: ") and what in message
    if len(line) <= 200:
        assert repr(line) in message
    assert isinstance(e, mtgsim.InvalidArgumentError) and isinstance(e, mtgsim.MtgsimError) and isinstance(e, ValueError)
    assert isinstance(e, mtgsim.UnknownCardError) == what.startswith("unknown card name")


def test_a_long_line_is_cut_short_in_the_message_only() -> None:
    line = "1 " + "x" * 1000
    with pytest.raises(UnknownDeckCardError) as info:
        DeckList.parse(line)
    assert info.value.line == line and len(str(info.value)) < 1000


def test_errors_pickle() -> None:
    with pytest.raises(UnknownDeckCardError) as info:
        DeckList.parse("# x\n4 Islnd")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is UnknownDeckCardError
    assert (str(again), again.line_number, again.line, again.reason) == (str(info.value), 2, "4 Islnd", info.value.reason)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(TypeError):
        DeckList.parse(b"4 Island")  # type: ignore[arg-type]


# ----- the data model --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, what",
    [
        ((0, "Island"), "count must be from 1 to 1000000, not 0"),
        ((-1, "Island"), "count must be from 1 to 1000000, not -1"),
        ((MAX_COUNT + 1, "Island"), "not 1000001"),
        ((1, ""), "card name must be non-empty"),
        ((1, " Island"), "card name must be non-empty"),
        ((1, "Is\nland"), "card name must be non-empty"),
        ((1, "Is\rland"), "card name must be non-empty"),
        ((1, "Island", "M 21"), "set code must be ASCII letters and digits"),
        ((1, "Island", "M21", "1 2"), "collector number must be non-empty"),
        ((1, "Island", "M21", "(12)"), "collector number must be non-empty"),
        ((1, "Island", "M21", ""), "collector number must be non-empty"),
        ((1, "Island", None, "12"), "a collector number needs a set code"),
        ((1, "Odd (ABC)"), "ends like a set code"),
        ((1, "Odd (ABC) 12"), "ends like a set code"),
    ],
)
def test_entry_values_are_checked(args: tuple[object, ...], what: str) -> None:
    with pytest.raises(DeckListError, match=re.escape(what)) as info:
        DeckEntry(*args)  # type: ignore[arg-type]
    assert info.value.line_number is None and info.value.line is None


@pytest.mark.parametrize("args", [(True, "Island"), (1.0, "Island"), ("4", "Island"), (1, None), (1, "Island", 21)])
def test_entry_types_are_checked(args: tuple[object, ...]) -> None:
    with pytest.raises(TypeError):
        DeckEntry(*args)  # type: ignore[arg-type]


def test_a_name_like_a_set_code_round_trips_with_a_set_code() -> None:
    deck = DeckList((E(1, "Odd (ABC)", "XYZ"), E(1, "Odd (ABC) 12", "XYZ", "3")))
    assert DeckList.parse(deck.to_text(), known=lambda name: True) == deck


def test_deck_list_values_are_checked() -> None:
    assert DeckList([E(1, "Island")], [E(2, "Swamp")]).main == (E(1, "Island"),)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DeckList(("1 Island",))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DeckList("1 Island")  # type: ignore[arg-type]
    for bad in ["", " Mill", "Mill\n"]:
        with pytest.raises(DeckListError, match="deck name must be non-empty"):
            DeckList((), name=bad)


def test_frozen_hashable_and_picklable() -> None:
    deck = DeckList.parse("Name Mill\n4 Fractured Sanity (MH2) 44\nSideboard\n1 Counterspell")
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck.name = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck.main[0].count = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(deck)) == deck
    assert hash(DeckList.parse(deck.to_text())) == hash(deck)


# ----- writing ---------------------------------------------------------------------------------


def test_to_text_writes_the_mtg_arena_format() -> None:
    deck = DeckList((E(4, "Fractured Sanity", "MH2", "44"), E(16, "Island")), (E(2, "Counterspell", "MH2"),), "Blue Mill")
    assert deck.to_text() == "About\nName Blue Mill\n\nDeck\n4 Fractured Sanity (MH2) 44\n16 Island\n\nSideboard\n2 Counterspell (MH2)\n"
    assert DeckList((E(1, "Island"),)).to_text() == "Deck\n1 Island\n"
    assert DeckList((), (E(1, "Island"),)).to_text() == "Deck\n\nSideboard\n1 Island\n"
    assert DeckList.parse(deck.to_text()) == deck


def test_from_file(tmp_path: Path) -> None:
    path = tmp_path / "mill.txt"
    path.write_text("// Blue mill\r\n4 Fractured Sanity\r\n36 Island\r\n\r\n2 Counterspell\r\n", encoding="utf-8-sig")
    deck = DeckList.from_file(path)
    assert deck == DeckList((E(4, "Fractured Sanity"), E(36, "Island")), (E(2, "Counterspell"),))
    assert DeckList.from_file(str(path)) == deck
    path.write_text("1 Custom\n1 Islnd\n", encoding="utf-8")
    assert DeckList.from_file(path, known=["Custom", "Islnd"]).cards() == ["Custom", "Islnd"]
    with pytest.raises(UnknownDeckCardError, match="line 1: unknown card name 'Custom'"):
        DeckList.from_file(path)
    path.write_bytes(b"4 \xffsland\n")
    with pytest.raises(DeckListError, match="not UTF-8"):
        DeckList.from_file(path)
    with pytest.raises(OSError):
        DeckList.from_file(tmp_path / "missing.txt")


# ----- properties ------------------------------------------------------------------------------

set_codes = st.none() | st.text(string.ascii_letters + string.digits, min_size=1, max_size=6)
# no whitespace (Unicode categories Z and Cc) and no parentheses
collector_numbers = st.integers(1, 999).map(str) | st.text(
    st.characters(exclude_categories=("Z", "Cc", "Cs"), exclude_characters="()"), min_size=1, max_size=6
)


@st.composite
def entries(draw: st.DrawFn, names: st.SearchStrategy[str] = st.sampled_from(BUILTIN)) -> DeckEntry:
    set_code = draw(set_codes)
    number = draw(st.none() | collector_numbers) if set_code is not None else None
    return DeckEntry(draw(st.integers(1, MAX_COUNT)), draw(names), set_code, number)


#: One line's worth of text: anything but a line break (and lone surrogates, which can't be written).
one_line = st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), min_size=1)
deck_names = st.none() | one_line.map(str.strip).filter(bool)


@st.composite
def deck_lists(draw: st.DrawFn, names: st.SearchStrategy[str] = st.sampled_from(BUILTIN)) -> DeckList:
    main = draw(st.lists(entries(names), max_size=8))
    sideboard = draw(st.lists(entries(names), max_size=4))
    return DeckList(tuple(main), tuple(sideboard), draw(deck_names))


@given(deck_lists())
def test_round_trip_with_builtin_names(deck: DeckList) -> None:
    assert DeckList.parse(deck.to_text()) == deck


@given(st.data())
def test_round_trip_with_any_names_when_checking_is_off(data: st.DataObject) -> None:
    def valid(name: str) -> bool:
        try:
            DeckEntry(1, name)
        except DeckListError:
            return False
        return True

    names = one_line.map(str.strip).filter(valid)
    deck = data.draw(deck_lists(names))
    assert DeckList.parse(deck.to_text(), known=lambda name: True) == deck


def scramble(name: str, how: int) -> str:
    """A way of writing a built-in name that must still match it."""
    if how == 0:
        name = name.lower()
    elif how == 1:
        name = name.upper()
    elif how == 2:
        name = name.swapcase()
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return bare.replace(" ", "  ")


@given(st.sampled_from(BUILTIN), st.integers(0, 3))
def test_case_and_accents_do_not_matter(name: str, how: int) -> None:
    assert DeckList.parse(f"3 {scramble(name, how)}").main == (E(3, name),)


def check_parse(text: str) -> None:
    """Text either is a deck list, which then survives writing and reading back, or raises
    DeckListError that points at one of its lines."""
    try:
        deck = DeckList.parse(text)
    except DeckListError as e:
        assert e.line_number is not None and e.line is not None
        assert 1 <= e.line_number <= len(re.split(r"\r\n|\r|\n", text))
        assert str(e).startswith(f"line {e.line_number}: ")
        return
    assert DeckList.parse(deck.to_text()) == deck


@given(st.text())
def test_any_text_parses_or_raises_deck_list_error(text: str) -> None:
    check_parse(text)


counts = st.sampled_from(["1", "4", "04", "0", "-1", "1000000", "1000001", "", "x"]) | st.integers(-5, 2_000_000).map(str)
card_lines = st.tuples(
    counts,
    st.sampled_from(["", "x", "X", "x "]),
    st.sampled_from([" ", "\t", "  ", ""]),
    st.sampled_from(BUILTIN) | st.sampled_from(["island", "Lorien Revealed", "Islnd", "Fire // Ice", ""]) | st.text(max_size=4),
    st.sampled_from(["", " (MH2)", " (MH2) 44", " (m21) 7a", "(X)", " (M 2) 1", " (MH2) (44)"]),
).map("".join)
other_lines = st.sampled_from(
    ["", " ", "\t", "# note", "// note", "Deck", "deck:", "About", "Name Mill", "Name:", "Sideboard", "SIDEBOARD:", "Commander", "\ufeff"]
)
deck_like = st.tuples(
    st.lists(card_lines | other_lines | st.text(max_size=6), max_size=12), st.sampled_from(["\n", "\r\n", "\r"])
).map(lambda parts: parts[1].join(parts[0]))


@given(deck_like)
def test_deck_like_text_parses_or_raises_deck_list_error(text: str) -> None:
    check_parse(text)


def test_a_card_db_as_known_accepts_its_own_cards() -> None:
    db = mtgsim.CardDB()
    db.add({"name": "Careful Study", "mana_cost": "{U}", "type_line": "Sorcery", "rules": {"spell": [{"draw": {"count": 2}}]}})
    deck = mtgsim.DeckList.parse("4 careful study\n20 Island", known=db)
    assert deck.cards() == ["Careful Study"] * 4 + ["Island"] * 20
    with pytest.raises(mtgsim.decklist.UnknownDeckCardError):
        mtgsim.DeckList.parse("4 Careful Study")  # not a built-in card
