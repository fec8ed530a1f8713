"""The Colossus Order sample card pool (``data/sample.toml``) and the pool loader's error reporting.

The pool is authored by the project (the real card list is not public), so these tests pin down
what the rest of the engine and the replays may rely on: every card type, colour, effect kind,
target kind and ability timing occurs; every realm has a Colossus, gems and enough cards for a
legal mono-colour tournament deck; the publicly described cards (★Ash★, Heroic Knight, Spurring
Griffin, the Valden snap that destroys an attacker) carry their public numbers; and a malformed
pool is rejected with the file, the card id and the field at fault.
"""

from __future__ import annotations

import re
import typing
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from adjudicator.core.kernel.errors import DataError
from adjudicator.games.colossus_order.cards import (
    COLOURS,
    DATA,
    Ability,
    Aura,
    Card,
    CostChange,
    Damage,
    Destroy,
    Effect,
    LocusTarget,
    Pool,
    Target,
    load_pool,
    load_pool_file,
)

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ALL_TYPES = set(typing.get_args(typing.get_type_hints(Card)["type"]))
ALL_TARGETS = set(typing.get_args(Target)) | set(typing.get_args(LocusTarget))
ALL_TIMINGS = set(typing.get_args(typing.get_type_hints(Ability)["timing"]))
ALL_DO_TAGS = {cls.__struct_config__.tag for cls in typing.get_args(Effect)}

DECK_SIZE = 50
MAX_GEMS = 20
MAX_COPIES = 3


@pytest.fixture(scope="module")
def pool() -> Pool:
    return load_pool("sample")


@pytest.fixture(scope="module")
def cards(pool: Pool) -> list[Card]:
    return list(pool.cards.values())


def all_effects(card: Card) -> list[Effect]:
    out = list(card.effects)
    for a in card.abilities:
        out.extend(a.effects)
    for ca in card.colossus_abilities:
        out.extend(ca.effects)
    return out


def tag(effect: Effect) -> str:
    return type(effect).__struct_config__.tag


def is_deck_card(card: Card) -> bool:
    return card.type not in ("gem", "colossus")


def mono_playable(card: Card, colour: str) -> bool:
    """A non-gem deck card a deck whose gems are all ``colour`` can ever pay for."""
    return is_deck_card(card) and set(card.gem_level) <= {colour, "any"}


def gem_level_met(req: dict[str, int], gems: Counter) -> bool:
    """CO-8: each coloured count met by distinct gems, ``any`` by the remaining gems."""
    spare = sum(gems.values())
    for colour, n in req.items():
        if colour == "any":
            continue
        if gems[colour] < n:
            return False
        spare -= n
    return spare >= req.get("any", 0)


def deck_problems(pool: Pool, colossus: str, deck: list[str]) -> list[str]:
    """Tournament deck rules (CO-3): 50 cards + 1 Colossus, <= 20 gems, <= 3 per name for
    non-gem cards and Unique Gems; ordinary gems unlimited."""
    problems = []
    if colossus not in pool or pool[colossus].type != "colossus":
        problems.append(f"{colossus}: not a Colossus")
    if len(deck) != DECK_SIZE:
        problems.append(f"deck has {len(deck)} cards, needs {DECK_SIZE}")
    unknown = [cid for cid in deck if cid not in pool]
    if unknown:
        return problems + [f"unknown cards {unknown}"]
    if any(pool[cid].type == "colossus" for cid in deck):
        problems.append("a Colossus inside the deck")
    gems = [cid for cid in deck if pool[cid].is_gem]
    if len(gems) > MAX_GEMS:
        problems.append(f"{len(gems)} gem cards, at most {MAX_GEMS}")
    by_name = Counter(pool[cid].name for cid in deck if not pool[cid].is_gem or pool[cid].unique)
    problems += [f"{n} copies of {name}" for name, n in by_name.items() if n > MAX_COPIES]
    return problems


def build_mono_deck(pool: Pool, colour: str) -> tuple[str, list[str]]:
    colossus = next(c.id for c in pool.cards.values() if c.type == "colossus" and c.colour == colour)
    uniques = [c.id for c in pool.cards.values() if c.is_gem and c.unique and c.colour == colour]
    gems = [cid for cid in uniques for _ in range(MAX_COPIES)]
    gems += [f"{colour}-gem"] * (MAX_GEMS - len(gems))
    playable = sorted(
        (c for c in pool.cards.values() if c.colour == colour and mono_playable(c, colour)),
        key=lambda c: (c.locus_cost, sum(c.gem_level.values()), c.id),
    )
    rest: list[str] = []
    for c in playable:
        rest += [c.id] * MAX_COPIES
    return colossus, gems + rest[: DECK_SIZE - len(gems)]


# ------------------------------------------------------------------------------------------------
# the shipped pool
# ------------------------------------------------------------------------------------------------


def test_sample_pool_loads(pool: Pool, cards: list[Card]) -> None:
    assert pool.name == "sample"
    assert pool.description.strip()
    assert len(cards) >= 44
    assert (DATA / "sample.toml").is_file()


def test_ids_are_slugs_and_names_are_unique(cards: list[Card]) -> None:
    bad = [c.id for c in cards if not SLUG.match(c.id)]
    assert not bad, f"ids that are not lowercase slugs: {bad}"
    names = Counter(c.name for c in cards)
    assert not [n for n, k in names.items() if k > 1], "two cards share a name"


def test_every_card_has_text_and_a_colour(cards: list[Card]) -> None:
    assert not [c.id for c in cards if not c.text.strip()], "cards without text"
    # CO has no colourless cards
    assert not [c.id for c in cards if c.colour is None], "colourless cards"


def test_every_type_and_colour_occurs(cards: list[Card]) -> None:
    assert {c.type for c in cards} == ALL_TYPES
    assert {c.colour for c in cards} == set(COLOURS)
    for colour in COLOURS:
        kinds = {c.type for c in cards if c.colour == colour}
        assert {"follower", "action", "action-snap", "colossus", "gem"} <= kinds, colour


def test_every_effect_kind_occurs(cards: list[Card], tmp_path) -> None:
    """In the sample pool, or (the moves and looks of own cards, CO-46/CO-47, played by
    tests/test_co_moves.py) in docs/own-cards.md's examples."""
    from adjudicator.games.colossus_order.cards import load_pool_file

    from .test_co_moves import write_pool

    examples = list(load_pool_file(write_pool(tmp_path)).cards.values())
    used = {tag(e) for c in cards + examples for e in all_effects(c)}
    assert used == ALL_DO_TAGS, f"unused effect kinds: {ALL_DO_TAGS - used}"


def test_every_target_kind_occurs(cards: list[Card]) -> None:
    used = {getattr(e, "target") for c in cards for e in all_effects(c) if hasattr(e, "target")}
    assert used == ALL_TARGETS, f"unused targets: {ALL_TARGETS - used}"


def test_every_ability_timing_and_cost_kind_occurs(cards: list[Card]) -> None:
    abilities = [a for c in cards for a in c.abilities]
    assert {a.timing for a in abilities} == ALL_TIMINGS
    activated = [a for a in abilities if a.timing == "activated"]
    assert any(a.cost.off for a in activated), "no activated ability with an OFF cost"
    assert any(a.cost.locus > 0 for a in activated), "no activated ability with a locus cost"
    assert any(a.cost.off and a.cost.locus > 0 for a in activated), "no ability costing both"
    continuous = [e for a in abilities if a.timing == "continuous" for e in a.effects]
    assert any(isinstance(e, CostChange) and e.race for e in continuous)
    assert any(isinstance(e, Aura) and e.race for e in continuous)
    assert any(isinstance(e, Aura) and not e.race for e in continuous)


def test_abilities_are_only_on_followers_and_continuous_effects_only_in_continuous(cards: list[Card]) -> None:
    for c in cards:
        if c.abilities:
            assert c.is_follower, c.id
        if c.colossus_abilities:
            assert c.type == "colossus", c.id
        for a in c.abilities:
            for e in a.effects:
                assert isinstance(e, (CostChange, Aura)) == (a.timing == "continuous"), c.id
        for e in list(c.effects) + [e for ca in c.colossus_abilities for e in ca.effects]:
            assert not isinstance(e, (CostChange, Aura)), c.id
        # "self" means the follower whose ability this is: only in follower abilities
        for e in list(c.effects) + [e for ca in c.colossus_abilities for e in ca.effects]:
            assert getattr(e, "target", None) != "self", c.id


def test_modelled_cards_have_effects(cards: list[Card]) -> None:
    for c in cards:
        if not c.modelled or c.is_gem:
            continue
        if c.is_action:
            assert c.effects, c.id
        for a in c.abilities:
            assert a.effects, f"{c.id}: modelled ability without effects"
        for ca in c.colossus_abilities:
            assert ca.effects, c.id


def test_colossus_per_colour(cards: list[Card]) -> None:
    for colour in COLOURS:
        colossi = [c for c in cards if c.type == "colossus" and c.colour == colour]
        assert colossi, f"no Colossus for {colour}"
        for col in colossi:
            assert 1 <= len(col.colossus_abilities) <= 2, col.id
            assert col.locus_cost == 0 and not col.gem_level, col.id
            for ca in col.colossus_abilities:
                assert ca.requires.get(colour, 0) >= 1, f"{col.id}: ability needs no {colour} gems"
                assert all(n > 0 for n in ca.requires.values()), col.id


def test_gems(cards: list[Card], pool: Pool) -> None:
    for colour in COLOURS:
        gem = pool.get(f"{colour}-gem")
        assert gem is not None and gem.is_gem and gem.colour == colour and not gem.unique
    uniques = [c for c in cards if c.is_gem and c.unique]
    assert len(uniques) >= 2
    for c in cards:
        starred = c.name.startswith("★") and c.name.endswith("★") and len(c.name) > 2
        unique = c.type == "follower-unique" or (c.is_gem and c.unique)
        assert starred == unique, f"{c.id}: ★name★ iff unique"
        if c.unique:
            assert c.is_gem, f"{c.id}: only gems use the unique flag"
        if c.is_gem:
            assert not (c.locus_cost or c.gem_level or c.abilities or c.effects or c.attack or c.defence)


def test_follower_unique_and_snaps(cards: list[Card]) -> None:
    assert len([c for c in cards if c.type == "follower-unique"]) >= 2
    snaps = [c for c in cards if c.type == "action-snap"]
    assert len(snaps) >= 4
    assert any(isinstance(e, Destroy) and e.target == "attacker" for c in snaps for e in c.effects)
    # "attacker" only makes sense in X-play: only on snaps
    for c in cards:
        if any(getattr(e, "target", None) == "attacker" for e in all_effects(c)):
            assert c.type == "action-snap", c.id


def test_stat_ranges(cards: list[Card]) -> None:
    followers = [c for c in cards if c.is_follower]
    for c in followers:
        assert 1 <= c.attack <= 9 and 1 <= c.defence <= 9, c.id
        assert 0 <= c.crush <= 3 and 0 <= c.capture <= 2, c.id
        assert c.races, f"{c.id}: a follower has at least one race"
    assert {c.crush for c in followers} == {0, 1, 2, 3}
    assert {c.capture for c in followers} == {0, 1, 2}
    for c in cards:
        if not c.is_follower:
            assert (c.attack, c.defence, c.crush, c.capture) == (0, 0, 0, 0), c.id
            assert not c.races, c.id
    deck_cards = [c for c in cards if is_deck_card(c)]
    assert {c.locus_cost for c in deck_cards} == {0, 1, 2, 3, 4, 5}
    for c in deck_cards:
        assert all(n > 0 for n in c.gem_level.values()), c.id
        assert sum(c.gem_level.values()) <= 6, c.id
    coloured = [{k for k in c.gem_level if k != "any"} for c in deck_cards]
    assert any(len(s) == 1 for s in coloured), "no single-colour gem level"
    assert any(len(s) == 2 for s in coloured), "no two-colour gem level"
    assert any("any" in c.gem_level for c in deck_cards), "no gem level using `any`"
    assert any(not c.gem_level for c in deck_cards), "no gem level 0"
    # a card's own colour is part of its gem level
    for c in deck_cards:
        coloured_req = {k for k in c.gem_level if k != "any"}
        assert not coloured_req or c.colour in coloured_req, c.id


def test_followers_can_destroy_each_other(cards: list[Card]) -> None:
    # damage >= defence destroys: every follower can be destroyed by some follower's attack,
    # and every colour has a follower that beats a cheap follower of any colour
    followers = [c for c in cards if c.is_follower]
    top = max(c.attack for c in followers)
    assert all(c.defence <= top for c in followers)
    for colour in COLOURS:
        own = [c for c in followers if c.colour == colour]
        assert max(c.attack for c in own) >= max(c.defence for c in followers if c.locus_cost <= 2)


def test_damage_amounts_are_positive(cards: list[Card]) -> None:
    for c in cards:
        for e in all_effects(c):
            if isinstance(e, Damage):
                assert 1 <= e.amount <= 9, c.id


def test_unmodelled_cards(cards: list[Card]) -> None:
    unmodelled = [c for c in cards if not c.modelled]
    assert len(unmodelled) >= 2
    for c in unmodelled:
        assert len(c.text) > 30, f"{c.id}: the text must say what the card does"
        assert not c.effects and not any(a.effects for a in c.abilities), c.id
    assert {c.type for c in unmodelled} & {"action", "action-snap"}, "no unmodelled action"
    assert {c.type for c in unmodelled} & {"follower", "follower-unique"}, "no unmodelled follower"


# ------------------------------------------------------------------------------------------------
# the publicly described cards
# ------------------------------------------------------------------------------------------------


def test_ash(pool: Pool) -> None:
    ash = pool["ash"]
    assert ash.name == "★Ash★"
    assert ash.type == "follower-unique" and ash.colour == "white"
    assert ash.gem_level == {"white": 3}
    effects = [e for a in ash.abilities if a.timing == "continuous" for e in a.effects]
    assert CostChange(delta=-1, race="winged-beast") in effects
    assert Aura(crush=1, race="winged-beast") in effects


def test_heroic_knight_and_spurring_griffin(pool: Pool) -> None:
    knight, griffin = pool["heroic-knight"], pool["spurring-griffin"]
    assert knight.name == "Heroic Knight" and knight.locus_cost == 4 and knight.colour == "white"
    assert griffin.name == "Spurring Griffin" and griffin.colour == "white"
    assert griffin.locus_cost == 3 and griffin.gem_level == {"white": 2}
    assert "winged-beast" in griffin.races


def test_locus_point_example(pool: Pool) -> None:
    """The public Locus Point example: 2 white set gems, 4 Locus cards with 1 point used ->
    of ★Ash★, Heroic Knight and Spurring Griffin only Spurring Griffin can be played."""
    gems, available = Counter(white=2), 4 - 1
    playable = [
        cid for cid in ("ash", "heroic-knight", "spurring-griffin")
        if pool[cid].locus_cost <= available and gem_level_met(pool[cid].gem_level, gems)
    ]
    assert playable == ["spurring-griffin"]


def test_valden_snap_destroys_attacker(cards: list[Card]) -> None:
    hits = [
        c for c in cards
        if c.type == "action-snap" and c.colour == "black"
        and any(isinstance(e, Destroy) and e.target == "attacker" for e in c.effects)
    ]
    assert hits, "no Valden snap action that destroys the attacking follower"


# ------------------------------------------------------------------------------------------------
# deck building
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("colour", COLOURS)
def test_legal_mono_colour_deck(pool: Pool, colour: str) -> None:
    names = {c.name for c in pool.cards.values() if c.colour == colour and mono_playable(c, colour)}
    assert len(names) >= 11, f"{colour}: only {len(names)} playable non-gem names"
    colossus, deck = build_mono_deck(pool, colour)
    assert deck_problems(pool, colossus, deck) == []
    # everything in it can be paid for by a deck whose gems are all this colour
    gems = Counter({colour: sum(1 for cid in deck if pool[cid].is_gem)})
    assert all(gem_level_met(pool[cid].gem_level, gems) for cid in deck)
    # and the game can get going: cheap cards
    cheap = {c.name for c in pool.cards.values()
             if c.colour == colour and mono_playable(c, colour)
             and c.locus_cost <= 2 and sum(c.gem_level.values()) <= 1}
    assert len(cheap) >= 4, f"{colour}: only {len(cheap)} cheap cards"
    assert any(pool[cid].is_follower and pool[cid].locus_cost <= 1 and not pool[cid].gem_level
               for cid in deck), f"{colour}: no follower playable on turn one"
    col = pool[colossus]
    assert any(gem_level_met(ca.requires, gems) for ca in col.colossus_abilities)


def test_deck_checker_catches_illegal_decks(pool: Pool) -> None:
    colossus, deck = build_mono_deck(pool, "white")
    assert deck_problems(pool, colossus, deck[:-1])  # 49 cards
    assert deck_problems(pool, "ash", deck)  # not a Colossus
    four = [c for c in deck if c != "ash"][:46] + ["ash"] * 4  # four ★Ash★
    assert len(four) == DECK_SIZE and deck_problems(pool, colossus, four)
    too_many_gems = ["white-gem"] * 21 + [c for c in deck if not pool[c].is_gem][:29]
    assert deck_problems(pool, colossus, too_many_gems)
    four_unique = ["heart-of-piadin"] * 4 + [c for c in deck if c != "heart-of-piadin"][:46]
    assert deck_problems(pool, colossus, four_unique)
    # ordinary gems are not limited by name
    assert not [p for p in deck_problems(pool, colossus, deck) if "White Gem" in p]


# ------------------------------------------------------------------------------------------------
# malformed pools
# ------------------------------------------------------------------------------------------------

GOOD_CARD = """
[[card]]
id = "good-card"
name = "Good Card"
type = "follower"
colour = "white"
attack = 2
defence = 2
"""

BAD_POOLS = {
    "unknown-field": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "white"\npower = 3\n',
        ["bad-card", "power"],
    ),
    "wrong-type": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "white"\nattack = "three"\n',
        ["bad-card", "attack", "int"],
    ),
    "unknown-effect": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\n'
        'effects = [{ do = "heal", amount = 2 }]\n',
        ["bad-card", "effects", "heal"],
    ),
    "unknown-field-in-nested-effect": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "white"\n'
        'abilities = [{ timing = "cip", effects = [{ do = "boost", speed = 1 }] }]\n',
        ["bad-card", "abilities", "speed"],
    ),
    "unknown-timing": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "white"\n'
        'abilities = [{ timing = "sometimes" }]\n',
        ["bad-card", "timing"],
    ),
    "unknown-card-type": (
        'id = "bad-card"\nname = "Bad"\ntype = "spell"\ncolour = "white"\n',
        ["bad-card", "type"],
    ),
    "unknown-card-colour": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "green"\n',
        ["bad-card", "colour", "green"],
    ),
    "unknown-gem-colour": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "white"\ngem_level = { green = 1 }\n',
        ["bad-card", "gem_level", "green"],
    ),
    "unknown-requires-colour": (
        'id = "bad-card"\nname = "Bad"\ntype = "colossus"\ncolour = "white"\n'
        'colossus_abilities = [{ requires = { purple = 2 } }]\n',
        ["bad-card", "requires", "purple"],
    ),
    "negative-stat": (
        'id = "bad-card"\nname = "Bad"\ntype = "follower"\ncolour = "white"\ndefence = -1\n',
        ["bad-card", "defence", "negative"],
    ),
    "negative-locus-cost": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\nlocus_cost = -2\n',
        ["bad-card", "locus_cost", "negative"],
    ),
    "gem-without-colour": (
        'id = "bad-card"\nname = "Bad"\ntype = "gem"\n',
        ["bad-card", "colour"],
    ),
    "colossus-with-cost": (
        'id = "bad-card"\nname = "Bad"\ntype = "colossus"\ncolour = "white"\nlocus_cost = 2\n',
        ["bad-card", "cost"],
    ),
    "duplicate-id": (
        'id = "good-card"\nname = "Other"\ntype = "follower"\ncolour = "white"\n',
        ["good-card", "duplicate", "id"],
    ),
    "set-stats-sets-nothing": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\neffects = [{ do = "set-stats" }]\n',
        ["bad-card", "effects[0]", "set-stats sets attack, defence or both"],
    ),
    "set-stats-negative": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\neffects = [{ do = "set-stats", defence = -1 }]\n',
        ["bad-card", "effects[0]", "negative"],
    ),
    "flip-locus-on-a-follower": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\n'
        'effects = [{ do = "flip-locus", to = "up", target = "chosen-opponent-follower" }]\n',
        ["bad-card", "target"],
    ),
    "unknown-condition": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\n'
        'effects = [{ do = "destroy", target = "attacker", only = { colour = "red" } }]\n',
        ["bad-card", "only", "colour"],
    ),
    "negative-mill": (
        'id = "bad-card"\nname = "Bad"\ntype = "action"\ncolour = "white"\neffects = [{ do = "mill", count = -2 }]\n',
        ["bad-card", "count", "negative"],
    ),
}


def write_pool(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text('pool = "bad"\n' + GOOD_CARD + "\n[[card]]\n" + body, encoding="utf-8")
    return path


def test_good_card_alone_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text('pool = "ok"\n' + GOOD_CARD, encoding="utf-8")
    p = load_pool_file(path)
    assert p.name == "ok" and "good-card" in p


@pytest.mark.parametrize("case", sorted(BAD_POOLS))
def test_malformed_pool_names_file_card_and_field(tmp_path: Path, case: str) -> None:
    body, fragments = BAD_POOLS[case]
    path = write_pool(tmp_path, case, body)
    with pytest.raises(DataError) as info:
        load_pool_file(path)
    message = str(info.value)
    assert info.value.path == str(path)
    assert message.startswith(str(path))
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    # the good card (index 0) is never blamed
    if case != "duplicate-id":
        assert "good-card" not in message


def test_not_toml_at_all(tmp_path: Path) -> None:
    path = tmp_path / "garbage.toml"
    path.write_text("this is [[ not toml = =\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_pool_file(path)
    assert str(path) in str(info.value) and "TOML" in str(info.value)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('pool = "x"\ndescription = "caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(DataError) as info:
        load_pool_file(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(DataError) as info:
        load_pool_file(path)
    assert str(path) in str(info.value)


def test_missing_required_field_names_card_position(tmp_path: Path) -> None:
    path = tmp_path / "noid.toml"
    path.write_text('pool = "x"\n' + GOOD_CARD + '\n[[card]]\nname = "Nameless"\ntype = "action"\n',
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_pool_file(path)
    message = str(info.value)
    assert "card #2" in message and "id" in message  # the second card, counted from 1


def test_unknown_pool_name_lists_shipped_pools() -> None:
    with pytest.raises(DataError) as info:
        load_pool("nope")
    message = str(info.value)
    assert "nope" in message and "sample" in message


def test_sample_pool_round_trips_through_msgspec(cards: list[Card]) -> None:
    # encoding and decoding again gives the same cards (effects are tagged with `do`)
    raw = msgspec.json.encode(cards)
    assert msgspec.json.decode(raw, type=list[Card]) == cards
    assert b'"do":"destroy"' in raw


def test_card_docs_list_every_card(cards: list[Card]) -> None:
    doc = Path(__file__).resolve().parents[1] / "docs" / "games" / "colossus-order-cards.md"
    if not doc.is_file():
        pytest.skip("docs not present in this checkout")
    table = doc.read_text(encoding="utf-8").split("## All cards", 1)[-1]
    rows = {line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")}
    assert rows == {c.id for c in cards}, "docs/games/colossus-order-cards.md is out of date"
