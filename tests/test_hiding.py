"""What a player sees: one observation per game, and no hidden identity in anything shown to a seat.

Every registered game (and the core's test game) declares here, independently of its code, what
a seat may not see (:data:`PLANTERS`: the rule documents' hiding, written as "put a canary
where the seat cannot look").  Then, over random playouts:

- every output a seat gets of a position (``observe``, ``view``, the position document, the
  scene, the text) is the same whether the hidden places hold the real cards or canaries, and
  never shows a canary: nothing hidden reaches it;
- every event as a seat saw it (``redact``) names no identity that the seat sees neither before
  nor after the event;
- the JSON API as a seat (position, events, document, legal events, log download) gives what the
  game's own functions give that seat, and names no card the seat has not seen.

A fifth game must add its planter (``None`` for a game of open information) or this fails.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import msgspec
import pytest
from msgspec.structs import replace

from adjudicator.core.kernel import position as positions, registry
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.verify import settle
from tests.toygame import install

install()
GAMES = [g.id for g in registry.games()]
CANARY = "zz-canary-card"


def _canaries(values: tuple[Any, ...]) -> tuple[str, ...]:
    return (CANARY,) * len(values)


# -- what each game hides, written from its rule document (not from its code) ---------------------

def _plant_colossus_order(s: Any, player: str) -> Any:
    """CO: nobody sees a deck's order; the opponent's hand, deck bottom, unknown face-down Locus
    cards and deck list are theirs alone."""
    def seat(p: Any) -> Any:
        if p.id == player:
            return replace(p, deck_top=_canaries(p.deck_top))
        locus = tuple(sl if sl.card is None or sl.face_up or sl.known else replace(sl, card=CANARY) for sl in p.locus)
        return replace(p, deck_top=_canaries(p.deck_top), deck_bottom=_canaries(p.deck_bottom),
                       hand=_canaries(p.hand), locus=locus)
    decks = {pid: (d if pid == player else replace(d, cards={CANARY: 1})) for pid, d in s.setup.decks.items()}
    return replace(s, setup=replace(s.setup, decks=decks), players=tuple(seat(p) for p in s.players))


def _plant_logos(s: Any, player: str) -> Any:
    """LOGOS: decks are unseen by all; the opponent's slots, Backup card, unrevealed pick and
    deck list are theirs alone."""
    def seat(p: Any) -> Any:
        if p.id == player:
            return replace(p, deck=_canaries(p.deck))
        return replace(p, deck=_canaries(p.deck), slots=tuple(None if c is None else CANARY for c in p.slots),
                       backup=None if p.backup is None else CANARY,
                       battle=CANARY if p.battle is not None and not p.public else p.battle)
    decks = {pid: (d if pid == player else {CANARY: 1}) for pid, d in s.setup.decks.items()}
    return replace(s, setup=replace(s.setup, decks=decks), players=tuple(seat(p) for p in s.players))


def _plant_colossi(s: Any, player: str) -> Any:
    """Colossi: other hands; every face-down pile (tiles, Colossus cards, Traits, the box)."""
    return replace(s, players=tuple(p if p.id == player else replace(p, hand=_canaries(p.hand)) for p in s.players),
                   **{f: _canaries(getattr(s, f)) for f in
                      ("tile_top", "tile_deck", "tile_box", "card_top", "card_deck", "trait_deck")})


#: game id -> the state with every place ``player`` may not see holding :data:`CANARY`
#: (None: a game of open information)
PLANTERS: dict[str, Callable[[Any, str], Any] | None] = {
    "colossus-order": _plant_colossus_order,
    "logos": _plant_logos,
    "colossi": _plant_colossi,
    "kolossus": None,
    "toy": None,
}


def positions_of(gid: str, seed: int, max_events: int = 260) -> tuple[list[Any], list[Any]]:
    """A playout's events (derived ones included) and the position after each."""
    g = registry.get(gid)
    events, _final = playout(g, seed, max_events=max_events, with_derived=True)
    states = [g.initial_state(events[0])]
    for e in events[1:]:
        states.append(g.apply(states[-1], e))
    return events, states


def strings(data: Any) -> set[str]:
    """Every string in JSON-ready data, and every word of it (ids are words of texts)."""
    found = positions.strings_in(data)
    return found.union(*(re.findall(r"[\w.:-]+", x) for x in found))


def jsonish(x: Any) -> Any:
    """``x`` as it comes back from JSON (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(x))


def outputs(g: Any, s: Any, player: str) -> dict[str, Any]:
    return {"observe": msgspec.to_builtins(g.observe(s, player)), "view": g.view(s, player),
            "document": positions.document(g, s, player=player), "scene": msgspec.to_builtins(g.scene(s, player)),
            "text": g.describe(s, player)}


def test_every_game_declares_what_it_hides() -> None:
    missing = [gid for gid in GAMES if gid not in PLANTERS]
    assert not missing, f"declare in PLANTERS what these games hide (None if nothing): {missing}"


@pytest.mark.parametrize("gid", GAMES)
def test_nothing_hidden_reaches_a_seats_outputs(gid: str) -> None:
    g = registry.get(gid)
    plant = PLANTERS[gid]
    planted = 0
    for seed in (1, 2):
        _events, states = positions_of(gid, seed)
        for s in states[::7] + states[-1:]:
            for p in g.players(s):
                if plant is None:
                    assert g.observe(s, p) == s and g.scene(s, p) == replace(g.scene(s, None), view=p)
                    continue
                s2 = plant(s, p)
                planted += s2 != s
                real, fake = outputs(g, s, p), outputs(g, s2, p)
                for what in real:
                    assert fake[what] == real[what], f"{gid}: {what} as {p} shows what {p} cannot see"
                    assert CANARY not in msgspec.json.encode(fake[what]).decode()
    if plant is not None:
        assert planted, f"{gid}: the playouts never reached a position with something hidden"


@pytest.mark.parametrize("gid", GAMES)
def test_events_as_a_seat_saw_them_name_nothing_unseen(gid: str) -> None:
    g = registry.get(gid)
    masked = 0
    for seed in (1, 2):
        events, states = positions_of(gid, seed)
        players = g.players(states[0])
        hidden_ever = set().union(*(strings(g.view(s, None)) - strings(g.view(s, p)) for s in states for p in players))
        for k, e in enumerate(events):
            for p in players:
                shown = g.redact(e, p)
                masked += shown != e
                seen = strings(g.view(states[max(k - 1, 0)], p)) | strings(g.view(states[k], p))
                leaked = (strings(msgspec.to_builtins(shown)) - seen) & hidden_ever
                assert not leaked, f"{gid}: event {k + 1} {type(e).__name__} as {p} names {sorted(leaked)}"
    if PLANTERS[gid] is None:
        assert masked == 0
    else:
        assert masked, f"{gid}: no event was ever masked for a seat"


# -- the JSON API and the web page -----------------------------------------------------------------

def seat_records(log: list[Any], player: str) -> list[Any]:
    """``player``'s record of the match (``redact --as``: each event with what the seat knew)."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.seats import redact_log

    return list(redact_log(parse_log(to_jsonl(log), "m.jsonl"), player))


def seat_events(log: list[Any], player: str) -> list[Any]:
    """Each event of the log as ``player``'s seat saw it, with what it knew before it (the events
    list of the API: one per log event; a seat's record may state derived events besides)."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.seats import positions_before

    g = registry.get(log[0].game)
    return [g.redact(e, player, before) for e, before in zip(log, positions_before(parse_log(to_jsonl(log), "m.jsonl")))]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from litestar.testing import TestClient

    from adjudicator.core.store import MatchStore
    from adjudicator.replays.web import create_app

    root = tmp_path_factory.mktemp("hiding")
    store = MatchStore(str(root / "m.db"))
    matches: dict[str, tuple[str, list[Any], list[Any]]] = {}
    for gid in GAMES:
        if gid == "toy" or PLANTERS.get(gid) is None:
            continue
        g = registry.get(gid)
        log, _final = playout(g, 3, max_events=160)
        path = root / f"{gid}.jsonl"
        path.write_bytes(to_jsonl(log))
        report = store.import_file(str(path))
        # the positions after each log event, as the store numbers them (derived events folded in),
        # and the derived events of each step (a seat sees them too, redacted)
        states, derived = [], []
        s, d = settle(g, g.initial_state(log[0]))
        states.append(s)
        derived.append(d)
        for e in log[1:]:
            s, d = settle(g, g.apply(s, e))
            states.append(s)
            derived.append(d)
        matches[gid] = (report.match_id, log, states, derived)
    # (playouts end unfinished: a match in progress shows a seat's view only with the token)
    with TestClient(create_app(store, upload_token="judge")) as client:
        client.headers["Authorization"] = "Bearer judge"
        yield client, matches
    store.close()


@pytest.mark.parametrize("gid", [g for g in GAMES if PLANTERS.get(g) is not None])
def test_the_json_api_shows_a_seat_only_what_the_game_shows_it(api: Any, gid: str) -> None:
    client, matches = api
    mid, log, states, derived = matches[gid]
    g = registry.get(gid)
    players = g.players(states[0])
    for n in sorted({2, len(log) // 2, len(log)}):
        s = states[n - 1]
        for p in players:
            seen: set[str] = set()
            for j in range(n):
                seen |= strings(g.view(states[j], p)) | strings(msgspec.to_builtins(g.redact(log[j], p)))
                # (a card public for a moment only, such as a battle card that a rebuilt deck takes
                # back in the same step, is named by the derived events the seat was shown)
                seen |= strings(msgspec.to_builtins([g.redact(x, p) for x in derived[j]]))
            unseen = (strings(g.view(s, None)) - seen) - strings(g.view(s, p))
            got = {}
            for what, url in (("position", f"/api/matches/{mid}/position?at={n}&as={p}"),
                              ("events", f"/api/matches/{mid}/events?as={p}&limit={n}"),
                              ("document", f"/api/matches/{mid}/document?at={n}&as={p}"),
                              ("legal", f"/api/matches/{mid}/legal?at={n}&as={p}")):
                r = client.get(url)
                assert r.status_code == 200, (what, r.text)
                got[what] = r.json()
            assert got["position"]["scene"] == jsonish(g.scene(s, p))
            assert got["document"]["state"] == jsonish(g.view(s, p))
            for ev, logged in zip(got["events"]["events"], seat_events(log, p)[:n], strict=True):
                assert ev["event"] == jsonish(logged)
            for what, doc in got.items():
                leaked = strings(doc) & unseen
                assert not leaked, f"{gid}: {what} after event {n} as {p} names {sorted(leaked)}"
    page = client.get(f"/matches/{mid}?as={players[0]}")
    assert page.status_code == 200
    assert not strings(page.text) & (strings(g.view(states[-1], None)) - strings(g.view(states[-1], players[0]))
                                     - strings(g.view(states[0], None)))


def test_the_log_download_as_a_seat_is_that_seats_record(api: Any) -> None:
    client, matches = api
    for gid, (mid, log, _states, _derived) in matches.items():
        g = registry.get(gid)
        for p in g.players(_states[0]):
            r = client.get(f"/api/matches/{mid}/log?as={p}")
            assert r.status_code == 200
            lines = [msgspec.json.decode(x) for x in r.content.splitlines()]
            assert lines == [jsonish(e) for e in seat_records(log, p)]
        assert client.get(f"/api/matches/{mid}/log?as=nobody").status_code == 400


def test_redaction_is_reached_through_the_observation_module_only() -> None:
    """Hiding is written once per game: in its ``observe.py`` (no game class overrides view,
    redact, scene or describe to hide things itself)."""
    root = Path(registry.get("colossi").__class__.__module__.replace(".", "/")).parent
    for gid in GAMES:
        cls = type(registry.get(gid))
        if cls.__module__.startswith("tests."):
            continue
        for name in ("view", "redact", "observe", "scene", "describe"):
            assert name not in vars(cls), f"{gid}: {cls.__name__}.{name} overrides the kit's observation"
    assert root.name == "colossi"


@pytest.mark.parametrize("gid", [g for g in GAMES if PLANTERS.get(g) is not None])
def test_a_look_names_its_cards_to_the_looking_seat_only(gid: str, tmp_path: Path) -> None:
    """The private-information events (a look, a reorder, a move between hidden zones): their
    cards reach the seats that saw them and no other, in the seat's record, the replay's frames
    (terminal and browser) and the JSON API; every seat sees that the look happened."""
    from litestar.testing import TestClient

    from adjudicator.core.kernel.events import CardsLooked, CardsMoved, CardsReordered
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.store import MatchStore
    from adjudicator.replays.core import Replay
    from adjudicator.replays.web import create_app

    g = registry.get(gid)
    log, final = playout(g, 4, max_events=60)
    players = g.players(final)
    looker, owner = players[0], players[1]
    canary = next(str(e.card) for e in log  # (a log names only cards that exist: one of this match's)
                  if isinstance(getattr(e, "card", None), str) and e.card != "?")
    private = [CardsLooked(player=looker, owner=owner, zone="hand", cards=[canary] * 3, source="a test"),
               CardsReordered(player=looker, owner=owner, zone="deck-top", cards=[canary] * 2),
               CardsMoved(owner=owner, from_zone="deck", to_zone="hand", cards=[canary], seen_by=[looker], player=owner)]
    data = to_jsonl(log + private)
    n = len(log)
    for p in players:
        record = msgspec.json.encode(list(redact_log_of(data, p))[n:]).decode()
        assert (canary in record) == (p == looker), p
    replay = Replay(parse_log(data, "look.jsonl"))
    for p in players:
        frames = replay.frames_for(p)[n:]
        text = msgspec.json.encode([f.as_dict() for f in frames]).decode()
        assert (canary in text) == (p == looker), p
        assert frames[0].text.startswith(f"{looker} looked at 3 cards of {owner}'s hand")
    path = tmp_path / "look.jsonl"
    path.write_bytes(data)
    with MatchStore(str(tmp_path / "m.db")) as store:
        mid = store.import_file(str(path), allow_illegal=True).match_id
        with TestClient(create_app(store, upload_token="judge")) as client:
            client.headers["Authorization"] = "Bearer judge"  # (unfinished: a seat's view needs the token)
            for p in players:
                r = client.get(f"/api/matches/{mid}/events?as={p}&from={n + 1}&limit=3")
                assert r.status_code == 200, r.text
                assert (canary in r.text) == (p == looker), p
                assert r.json()["events"][0]["text"].startswith(f"{looker} looked at 3 cards of {owner}'s hand")
                log_as = client.get(f"/api/matches/{mid}/log?as={p}").text.splitlines()[n:]
                assert (canary in "".join(log_as)) == (p == looker), p


def redact_log_of(data: bytes, player: str) -> Any:
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.seats import redact_log

    return redact_log(parse_log(data, "m.jsonl"), player)
