"""The game kit (adjudicator/core/kernel/kit.py, refs.py, data.py): handler tables, the check wrapper,
working copies, the per-setup cache under threads, reference checks, the card-pool loader, and the
shared event bases (whose JSON must stay exactly as every existing log and store has it)."""

from __future__ import annotations

import random
import sys
import threading
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.data import PoolLoader
from adjudicator.core.kernel.errors import DataError
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.kit import (
    ChooseFirst,
    KitGame,
    MatchStartedBase,
    Names,
    PerSetup,
    Refs,
    RulesBase,
    StartTurn,
    Task,
    Working,
    applies,
    checks,
    derives,
    head,
    lazy_legal,
    push,
    sorted_fields,
)
from adjudicator.core.kernel.protocol import Game, RefError
from adjudicator.core.kernel.refs import check_deck_lists
from adjudicator.core.kernel.rulings import Illegal, Rulebook, Ruling, legal


# -- a small game on the kit ----------------------------------------------------------------------

class Ping(Event):
    player: str
    n: int = 0


class Pong(Event):
    player: str


class Tick(Event):
    kind: ClassVar[str] = "X"


class Wait(Task, tag="wait"):
    player: str


class Pos(msgspec.Struct, frozen=True):
    total: int = 0
    ticks: int = 0
    todo: tuple[Any, ...] = ()


class Base(RulesBase):
    namespace = "kit/"

    @checks(Ping, rule="K-1")
    def c_ping(self, s: Pos, e: Ping) -> None:
        if e.n < 0:
            raise Illegal("K-1", "kit/negative", f"n={e.n}")
        if e.n > 100:
            {}["missing"]  # a lookup error in a handler

    @applies(Ping)
    def a_ping(self, s: Pos, e: Ping) -> Pos:
        return msgspec.structs.replace(s, total=s.total + e.n)

    @derives(StartTurn)
    def d_start(self, s: Pos, h: StartTurn) -> Tick:
        return Tick()

    def candidates(self, s: Pos) -> list[Any]:
        return [Ping(player="a", n=n) for n in (-1, 0, 1)] + [Pong(player="a")]

    def to_act(self, s: Pos) -> list[str]:
        return ["a"]


def test_the_kit_declares_what_a_game_must_write():
    """``candidates`` and ``to_act`` are abstract: rules without them cannot be made (issue 33)."""
    class Half(RulesBase):
        namespace = "half/"

        def candidates(self, s: Any) -> list[Any]:
            return []

    with pytest.raises(TypeError, match="to_act"):
        Half()
    assert RulesBase.__abstractmethods__ == frozenset({"candidates", "to_act"})


class Derived(Base):
    @checks(Pong, rule="K-2")
    def c_pong(self, s: Pos, e: Pong) -> Ruling:
        return legal("K-2", "kit/pong", "a pong of its own")

    @applies(Pong)
    def a_ping(self, s: Pos, e: Any) -> Pos:  # overrides Base.a_ping for Ping too
        return msgspec.structs.replace(s, total=s.total + 100)

    def lookup_failed(self, s: Pos, e: Any) -> Illegal | None:
        return Illegal("K-1", "kit/lookup", "a name the position does not know")


def test_handlers_register_per_type_in_plain_dicts_built_at_class_creation() -> None:
    assert Base._checks == {Ping: Base.c_ping} and Base._applies == {Ping: Base.a_ping}
    assert Base._derives == {StartTurn: Base.d_start} and Base._rule_of == {Ping: "K-1"}
    assert type(Base._checks) is dict  # the verify loop's lookup: one dict access
    # a subclass inherits the tables, adds to them, and an override replaces the handler
    assert Derived._checks == {Ping: Base.c_ping, Pong: Derived.c_pong}
    assert Derived._applies == {Ping: Derived.a_ping, Pong: Derived.a_ping}
    assert Base._applies[Ping] is Base.a_ping  # the base class's table is its own
    r = Base._legal[Ping]
    assert r.legal and (r.rule, r.code) == ("K-1", "kit/ok") and "ping is legal here" in r.message


def test_a_check_handler_names_the_rule_its_acceptance_cites() -> None:
    with pytest.raises(TypeError, match="rule="):
        checks(Ping, rule="")
    with pytest.raises(TypeError, match="at least one type"):
        applies()


def test_check_wrapper_hooks() -> None:
    rules, s = Base(), Pos()
    assert rules.check(s, Ping(player="a", n=1)) is Base._legal[Ping]
    bad = rules.check(s, Ping(player="a", n=-1))
    assert not bad.legal and (bad.rule, bad.code) == ("K-1", "kit/negative")
    unexpected = rules.check(s, Tick())
    assert not unexpected.legal and unexpected.code == "kit/unexpected-event"
    with pytest.raises(KeyError):  # no lookup_failed answer: a defect, raised
        rules.check(s, Ping(player="a", n=101))
    got = Derived().check(s, Ping(player="a", n=101))
    assert not got.legal and got.code == "kit/lookup"
    assert Derived().check(s, Pong(player="a")).code == "kit/pong"

    class Strict(Base):
        def precheck(self, s: Pos, e: Any) -> None:
            if e.player != "a":
                raise Illegal("K-3", "kit/who", f"{e.player} may not act")

    assert Strict().check(s, Ping(player="b", n=1)).code == "kit/who"
    assert Strict().check(s, Ping(player="a", n=1)).legal


def test_legal_events_are_the_candidates_check_accepts() -> None:
    assert Base().legal_events(Pos()) == [Ping(player="a", n=0), Ping(player="a", n=1)]
    assert Derived().legal_events(Pos()) == [Ping(player="a", n=0), Ping(player="a", n=1), Pong(player="a")]


def test_apply_and_derive_dispatch() -> None:
    rules = Base()
    assert rules.apply(Pos(), Ping(player="a", n=3)).total == 3
    assert rules.derive_task(Pos(todo=(StartTurn(),))) == Tick()
    assert rules.derive_task(Pos(todo=(ChooseFirst(),))) is None
    assert rules.derive_task(Pos()) is None


def test_a_step_may_edit_a_working_copy_and_freeze_it() -> None:
    frozen: list[Any] = []

    class Built(Base):
        working = Working

        @applies(Ping)
        def a_ping(self, w: Any, e: Ping) -> None:
            assert isinstance(w, Working)
            w.total = w.total + e.n
            w.ticks = w.ticks + 1
            w.total = w.total * 2  # reads see the edits made so far

        def finish(self, w: Working) -> Pos:
            frozen.append(w)
            return super().finish(w)

    s = Pos(total=1)
    after = Built().apply(s, Ping(player="a", n=2))
    assert after == Pos(total=6, ticks=1) and s == Pos(total=1)  # the old position is untouched
    assert len(frozen) == 1
    same = Working(s)
    assert same.freeze() is s  # no change: the same position


def test_task_queue_helpers() -> None:
    s = Pos(todo=(Wait("a"), StartTurn()))
    assert head(s) == Wait("a") and head(Pos()) is None
    assert push(s, ChooseFirst()).todo == (ChooseFirst(), Wait("a"), StartTurn())
    assert push(s, Wait("b"), drop=1).todo == (Wait("b"), StartTurn())
    # the common tasks keep their tags in position documents
    assert msgspec.json.encode(ChooseFirst()) == b'{"task":"choose-first"}'
    assert msgspec.json.encode(StartTurn()) == b'{"task":"start-turn"}'


# -- the per-setup cache --------------------------------------------------------------------------

class Setup(MatchStartedBase):
    pool: str = "one"


def test_per_setup_cache_compares_by_identity_and_evicts() -> None:
    built: list[Any] = []
    cache: PerSetup[str] = PerSetup(lambda s: built.append(s) or s.pool, size=2)
    a, b, c = Setup(game="g", players=["x"]), Setup(game="g", players=["x"]), Setup(game="g", players=["x"], pool="two")
    assert a == b and a is not b
    assert cache.get(a) == "one" and cache.get(a) == "one" and built == [a]
    assert cache.get(b) == "one" and built == [a, b]  # an equal but new set-up is not the old one
    assert cache.get(c) == "two"
    assert cache.get(a) == "one" and len(built) == 4  # a was evicted (size 2): built again


def hammer(target: Any, args: list[tuple[Any, ...]]) -> None:
    """Run ``target`` on threads, one per args tuple, switching threads as often as possible."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=target, args=a) for a in args]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)


def test_two_setups_read_concurrently_never_see_each_others_values() -> None:
    cache: PerSetup[str] = PerSetup(lambda setup: setup.pool, size=1)  # size 1: a miss at every switch
    setups = [Setup(game="g", players=["x"], pool=f"pool-{i}") for i in range(2)]
    wrong: list[tuple[str, str]] = []

    def read(setup: Setup) -> None:
        for _ in range(20_000):
            got = cache.get(setup)
            if got != setup.pool:
                wrong.append((setup.pool, got))

    hammer(read, [(setups[i % 2],) for i in range(4)])
    assert not wrong, wrong[:5]


POOL_TOML = """pool = "{name}"
description = "a test pool"

[[card]]
id = "{card}"
name = "A card"
"""


class PoolCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    power: int = 0


class PoolSetup(MatchStartedBase):
    pool: str = "alpha"


class PoolGame(KitGame[Any]):
    """A game whose set-ups name card pools: reference checks read each set-up's own pool."""

    id: ClassVar[str] = "kit-pools"
    name: ClassVar[str] = "kit pools"
    rulebook: ClassVar[Rulebook] = Rulebook("K", {"K-1": "one"})
    event_types = (PoolSetup, Ping)
    state_type = Pos
    rules_type = Base
    options_type = msgspec.Struct
    presets: ClassVar[dict[str, Any]] = {"standard": {}}
    refs = Refs(player="player", card="card")
    loader: ClassVar[PoolLoader[PoolCard]]

    def setup_context(self, setup: Any) -> dict[str, Names]:
        return {**super().setup_context(setup), "card": self.loader.names(setup.pool)}

    def check_start(self, setup: Any) -> Ruling:
        return legal("K-1", "kit/ok", "ok")

    def initial_state(self, setup: Any) -> Pos:
        return Pos()

    def derive(self, state: Any) -> None:
        return None

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        return {}


class Carded(Event):
    player: str
    card: str


def test_two_setups_parsed_concurrently_never_see_each_others_pool(tmp_path: Path) -> None:
    for name in ("alpha", "beta"):
        (tmp_path / f"{name}.toml").write_text(POOL_TOML.format(name=name, card=f"{name}-card"))
    PoolGame.loader = PoolLoader(tmp_path, PoolCard)
    game = PoolGame()
    setups = {name: PoolSetup(game="kit-pools", players=[f"{name}-1", f"{name}-2"], pool=name) for name in ("alpha", "beta")}
    errors: list[str] = []

    def parse(name: str) -> None:
        for i in range(3000):
            # now and then an upload of the same match: a new MatchStarted object
            setup = msgspec.structs.replace(setups[name]) if i % 100 == 0 else setups[name]
            try:
                game.validate_refs(setup, Carded(player=f"{name}-1", card=f"{name}-card"))
            except RefError as exc:
                errors.append(f"{name}: {exc.field}: {exc.message}")
        other = "beta" if name == "alpha" else "alpha"
        with pytest.raises(RefError, match="unknown card"):
            game.validate_refs(setups[name], Carded(player=f"{name}-1", card=f"{other}-card"))

    hammer(parse, [(n,) for n in ("alpha", "beta") * 2])
    assert not errors, errors[:5]


# -- reference checks -------------------------------------------------------------------------------

def test_refs_check_single_and_list_fields_and_skip_what_is_not_a_name() -> None:
    class Ev(Event):
        player: str | None = None
        cards: list[Any] = []
        to: Any = None

    refs = Refs(player="player", cards=["card"], to="player")
    ctx = {"player": Names(frozenset({"ann"}), "unknown player {value!r}"),
           "card": Names({"c1": 1}, "unknown card {value!r} in pool 'p'")}
    refs.check(Ev(player="ann", cards=["c1", None], to=3), ctx)  # None and a number are not names
    with pytest.raises(RefError) as exc:
        refs.check(Ev(player="bob"), ctx)
    assert (exc.value.field, exc.value.message) == ("player", "unknown player 'bob' (valid: ann)")  # (the valid names: core/kernel/suggest.py)
    with pytest.raises(RefError) as exc:
        refs.check(Ev(cards=["c1", "c9"]), ctx)
    assert (exc.value.field, exc.value.message) == ("cards[1]", "unknown card 'c9' in pool 'p' (valid: c1)")
    with pytest.raises(RefError) as exc:  # the place of the first unknown name, whatever comes before and after it
        refs.check(Ev(cards=[None, 3, "c1", "c" + "9", "c9", "c7"]), ctx)
    assert exc.value.field == "cards[3]"
    assert refs.kinds() == {"player", "card"}


def test_deck_lists_name_players_cards_and_sane_counts() -> None:
    cards = Names({"a": 1}, "unknown card {value!r}")
    field = lambda p, c: f"decks.{p}.{c}"  # noqa: E731
    check_deck_lists(["x"], {"x": {"a": 2}}, cards, counts=lambda d: d, field=field)
    for decks, where, what in (({}, "decks", "no deck list"), ({"x": {}, "y": {}}, "decks.y", "unknown player"),
                               ({"x": {"b": 1}}, "decks.x.b", "unknown card 'b'"),
                               ({"x": {"a": -1}}, "decks.x.a", "between 0 and 10000")):
        with pytest.raises(RefError) as exc:
            check_deck_lists(["x"], decks, cards, counts=lambda d: d, field=field)
        assert exc.value.field == where and what in exc.value.message


# -- the card-pool loader -----------------------------------------------------------------------------

def test_pool_loader_loads_shipped_pools_and_names_file_and_entry_in_errors(tmp_path: Path) -> None:
    checked: list[str] = []

    def validate(path: str, cards: list[PoolCard]) -> None:
        checked.append(path)
        for c in cards:
            if c.power > 9:
                raise DataError(path, f"card {c.id!r}: power: at most 9")

    (tmp_path / "good.toml").write_text(POOL_TOML.format(name="good", card="c1"))
    loader = PoolLoader(tmp_path, PoolCard, validate)
    pool = loader.load("good")
    assert pool.name == "good" and "c1" in pool and pool["c1"].name == "A card" and pool.get("nope") is None
    assert loader.load("good") is pool  # cached
    cases = {
        "dup": ('pool = "dup"\n[[card]]\nid = "c1"\nname = "x"\n[[card]]\nid = "c1"\nname = "y"\n', "card 'c1': duplicate id"),
        "typed": ('pool = "typed"\n[[card]]\nid = "c2"\nname = "x"\npower = "high"\n', "card 'c2'"),
        "strong": ('pool = "strong"\n[[card]]\nid = "c3"\nname = "x"\npower = 10\n', "card 'c3': power: at most 9"),
        "misnamed": ('pool = "other"\n', "must match the file name"),
        "broken": ('pool = \n', "not valid TOML"),
    }
    for name, (text, why) in cases.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        with pytest.raises(DataError) as exc:
            loader.load_file(path)
        assert str(path) in str(exc.value) and why in str(exc.value), exc.value
    with pytest.raises(DataError, match="no card pool named 'absent'"):
        loader.load("absent")
    with pytest.raises(RefError) as exc:
        loader.names("absent")
    assert exc.value.field == "pool"


# -- shared event bases: the JSON of every log stays as it was -------------------------------------------

def test_match_started_and_game_ended_keep_their_json() -> None:
    expected = {
        # new fields go last, with a default (docs/log-format.md, "Data by id and hash")
        "colossus-order": ("game", "players", "decks", "ruleset", "options", "pool", "pool_sha256"),
        "logos": ("game", "players", "decks", "ruleset", "options", "pool", "pool_sha256"),
        "kolossus": ("game", "players", "seats", "ruleset", "options", "seed", "rng", "board_sha256"),
        "colossi": ("game", "players", "ruleset", "options", "board_sha256"),
    }
    ended = {"colossus-order": (), "logos": (), "kolossus": ("alliance",), "colossi": ("gold",)}
    for gid, fields in expected.items():
        game = registry.get(gid)
        ms = game.event_types[0]
        assert ms.__name__ == "MatchStarted" and issubclass(ms, MatchStartedBase)
        # the header (meta) is keyword-only: encoded last, after every field a game declares
        assert ms.__struct_fields__ == fields + ("seq", "at", "note", "prev", "meta"), gid
        ge = game.event_class("GameEnded")
        assert ge is not None and ge.kind == "X"
        assert ge.__struct_fields__ == ("result", "winner", "reason") + ended[gid] + ("seq", "at", "note", "prev")
    line = b'{"type":"MatchStarted","game":"colossi","players":["a","b"],"ruleset":"quick","options":{"gold_target":3}}'
    game = registry.get("colossi")
    assert msgspec.json.encode(game.decoder.decode(line)) == line


def test_sorted_fields_orders_set_like_fields() -> None:
    class Pick(Event):
        cards: list[Any]

    fields = {Pick: "cards"}
    e = Pick(cards=["b", "a"])
    assert sorted_fields(e, fields) == Pick(cards=["a", "b"])
    same = Pick(cards=["a", "b"])
    assert sorted_fields(same, fields) is same
    odd = Pick(cards=["b", None])
    assert sorted_fields(odd, fields) is odd  # cannot be ordered: kept as given
    assert sorted_fields(Ping(player="a"), fields) == Ping(player="a")


def test_every_registered_game_on_the_kit_uses_its_package_parts() -> None:
    for game in registry.games():
        if not isinstance(game, KitGame) or game.id == "toy":
            continue
        package = type(game).__module__.rpartition(".")[0]
        assert game.rules_type.__module__ == f"{package}.rules"
        assert game.state_type.__module__ == f"{package}.state"
        assert isinstance(game.rules, RulesBase) and game.rules._applies, game.id
        # every event the engine may apply has an apply handler
        for cls in game.event_types[1:]:
            assert cls in game.rules._applies, f"{game.id}: no @applies for {cls.__name__}"


def test_seeded_dice_are_the_same_sequence_on_every_thread() -> None:
    """Kolossus checks recorded dice against ``random.Random(seed)``; the generators are cached and
    advance in place, so threads verifying matches of one seed must not interleave them."""
    rules = type(registry.get("kolossus").rules)()  # fresh caches
    n = 60_000
    r = random.Random(1007)
    want = [r.randint(1, 4) for _ in range(n)]
    got: list[list[int]] = []

    def roll() -> None:
        out: list[int] = []
        for i in range(0, n, 2):
            out += rules.generated(1007, i, 2)
        got.append(out)

    hammer(roll, [()] * 4)
    assert len(got) == 4 and all(out == want for out in got)


# -- a legal ruling written only when read (LazyLegal) ----------------------------------------------

class Lazy(RulesBase):
    namespace = "kit/"
    written: ClassVar[list[int]] = []

    @staticmethod
    def text(e: Ping, total: int) -> str:
        Lazy.written.append(e.n)
        return f"{e.player} pings {e.n} (total {total} before)"

    @checks(Ping, rule="K-1")
    def c_ping(self, s: Pos, e: Ping) -> Any:
        if e.n < 0:
            raise Illegal("K-1", "kit/negative", f"n={e.n}")
        return lazy_legal("K-1", "kit/ping", Lazy.text, e, s.total)

    @applies(Ping)
    def a_ping(self, s: Pos, e: Ping) -> Pos:
        return msgspec.structs.replace(s, total=s.total + e.n)

    def derive(self, s: Pos) -> None:
        return None

    def candidates(self, s: Pos) -> list[Any]:
        return []

    def to_act(self, s: Pos) -> list[str]:
        return ["a"]


class LazyGame(Game[Pos]):
    """The smallest game on :class:`Lazy` rules that ``verify.run`` folds."""

    id, name, event_types, state_type = "lazy", "lazy", (Setup, Ping), Pos

    def __init__(self) -> None:
        super().__init__()
        self.rules = Lazy()
        self.check, self.apply = self.rules.check, self.rules.apply  # type: ignore[method-assign]

    def validate_refs(self, setup: Any, event: Any) -> None: ...
    def setup_of(self, state: Pos) -> Any: ...
    def check_start(self, setup: Any) -> Ruling: return legal("K-0", "kit/setup", "set up")
    def initial_state(self, setup: Any) -> Pos: return Pos()
    def check(self, state: Pos, event: Any) -> Ruling: raise AssertionError  # bound in __init__
    def apply(self, state: Pos, event: Any) -> Pos: raise AssertionError
    def derive(self, state: Pos) -> Any: return None
    def legal_events(self, state: Pos) -> list[Any]: return []
    def to_act(self, state: Pos) -> list[str]: return ["a"]
    def outcome(self, state: Pos) -> Any: return None
    def players(self, state: Pos) -> list[str]: return ["a"]
    def view(self, state: Pos, player: str | None) -> dict[str, Any]: return {}
    def load_state(self, data: Any) -> Pos: return Pos()
    def describe(self, state: Pos, player: str | None) -> str: return ""


def test_a_lazy_legal_ruling_is_written_only_when_read() -> None:
    from adjudicator.core.kernel.log import MatchLog
    from adjudicator.core.kernel.verify import run

    rules, s = Lazy(), Pos(total=5)
    Lazy.written.clear()
    got = rules.check(s, Ping(player="a", n=2))  # the wrapper: every caller of check gets a Ruling
    assert type(got) is Ruling and got == Ruling("legal", "K-1", "kit/ping", "a pings 2 (total 5 before)")
    assert Lazy.written == [2]
    assert rules.check(s, Ping(player="a", n=-1)).code == "kit/negative"
    game = LazyGame()
    events = [(1, Setup(game="lazy", players=["a"]))] + [(i, Ping(player="a", n=i)) for i in range(2, 6)]
    Lazy.written.clear()
    plain = run(MatchLog("x", game, events))  # the verify loop calls the handler itself: nothing written
    assert plain.verdict == "legal" and plain.state == Pos(total=14) and Lazy.written == []
    stepped = run(MatchLog("x", game, events), record_steps=True)  # steps kept: each written, as check writes it
    assert [s.ruling.message for s in stepped.steps[1:]] == [f"a pings {n} (total {t} before)"
                                                              for n, t in ((2, 0), (3, 2), (4, 5), (5, 9))]
    assert all(type(s.ruling) is Ruling for s in stepped.steps) and Lazy.written == [2, 3, 4, 5]
    bad = run(MatchLog("x", game, events + [(6, Ping(player="a", n=-3))]))
    assert bad.verdict == "illegal" and bad.violations[0].code == "kit/negative" and bad.violations[0].line == 6



def test_validate_more_is_called_only_for_the_types_a_game_names() -> None:
    """``KitGame.validate_more_types``: a game that names the types its validate_more checks
    saves the call for every other event, and what it checks is still refused."""
    from adjudicator.core.kernel.protocol import RefError
    from adjudicator.core.kernel.playout import playout
    from adjudicator.games.kolossus import events as KE

    game = registry.get("kolossus")
    assert set(game.validate_more_types) == {KE.MiniatureBeaten, KE.GameEnded}
    events, _ = playout(game, 3, max_events=200)
    setup = events[0]
    seen: list[type] = []
    more = game._more
    game._more = lambda setup, event, ctx: (seen.append(type(event)), more(setup, event, ctx))
    try:
        for e in events[1:]:
            game.validate_refs(setup, e)
        assert seen == []  # none of these types is validate_more's
        beaten = KE.MiniatureBeaten(warband=setup.seats[0].warband, character="warrior", square="f6", by="nobody")
        with pytest.raises(RefError, match="'nobody' is neither a warband"):
            game.validate_refs(setup, beaten)
        assert seen == [KE.MiniatureBeaten]
    finally:
        game._more = more


def test_the_kits_toy_game_runs() -> None:
    """The module docstring of the kit is a whole game (issue 33: a doctested toy game)."""
    import doctest

    import adjudicator.core.kernel.kit as kit

    res = doctest.testmod(kit, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert res.attempted >= 20 and res.failed == 0, res
