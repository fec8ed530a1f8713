"""The live event page's findings (replays/web/live_tables.py, issue 31), without a browser:
two seats' recordings of one table that state a public fact differently make one
``seat-conflict`` (at the first such event, never one per later event); a recording of other
players than the table's a ``table-mismatch``; a table's findings are bounded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudicator.core.kernel.events import encode_line
from adjudicator.recorder.session import RecordSession
from adjudicator.replays.web import live_tables as L
from tests.test_live_browser import _entries

PLAYERS = ["p01", "p02"]


def _report(players: list[str] = PLAYERS) -> dict[str, Any]:
    return {"tables": [{"round": 1, "table": 1, "players": players, "problems": [], "outcome": None}]}


def _seats(tmp_path) -> dict[str, RecordSession]:
    return {p: RecordSession.start(str(tmp_path / f"{p}.jsonl"), "colossi", PLAYERS, options={"gold_target": 5}, seat=p)
            for p in PLAYERS}


def _findings(out: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [x for kind, x in out if kind == "finding"]


def _other_value(s: RecordSession, doc: dict[str, Any], seen: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``doc`` with one public value changed to another the same event type took in the match,
    as the session accepts it (None: no such value)."""
    for key, val in doc.items():
        if key in ("type", "player") or not isinstance(val, str) or val == "?":
            continue
        for other in sorted({d.get(key) for d in seen if d.get("type") == doc["type"]} - {val, "?", None}):
            if not isinstance(other, str):
                continue
            changed = {**doc, key: other}
            if s.record.check(json.dumps(changed)).allowed:
                return changed
    return None


@pytest.mark.parametrize("seed", [20, 30])
def test_two_seats_records_that_disagree_make_one_seat_conflict(tmp_path, seed):
    f = L.Followed(_report())
    seats = _seats(tmp_path)
    game = seats["p01"].game
    plays = [json.loads(e) for e in _entries(PLAYERS, seed, tmp_path)]
    found: list[dict[str, Any]] = []
    parted = None
    for i, doc in enumerate(plays):
        views = {p: json.loads(encode_line(game.redact(game.decoder.decode(json.dumps(doc)), p))) for p in PLAYERS}
        if parted is None and i >= 5 and game.event_class(doc["type"]).kind == "R":
            changed = _other_value(seats["p02"], views["p02"], plays)
            if changed is not None and L._public(game, game.decoder.decode(json.dumps(changed)), seats["p02"].record.state) != \
                    L._public(game, game.decoder.decode(json.dumps(views["p01"])), seats["p01"].record.state):
                views["p02"], parted = changed, i
        for p, s in seats.items():
            answer = s.enter(json.dumps(views[p]))
            if not answer.ok:  # the records parted: each goes its own way; stop there
                break
            found += _findings(f.update((1, 1), p, s, PLAYERS))
        else:
            if parted is None or i < parted + 10:
                continue
        break
    assert parted is not None, "no public random outcome to state differently"
    assert [x["kind"] for x in found] == ["seat-conflict"], found
    assert "p01's and p02's records" in found[0]["message"]


def test_a_recording_of_other_players_is_a_table_mismatch(tmp_path):
    f = L.Followed(_report(["p07", "p08"]))
    s = RecordSession.start(str(tmp_path / "x.jsonl"), "colossi", PLAYERS, options={"gold_target": 5})
    out = f.update((1, 1), "a", s, PLAYERS)
    assert [(x["kind"], x["message"]) for x in _findings(out)] == [
        ("table-mismatch", "the recording's players are p01, p02, the table's p07, p08")]
    assert _findings(f.update((1, 1), "a", s, PLAYERS)) == []  # one finding per problem, not per entry


def test_a_tables_findings_are_bounded():
    t = L.LiveTable(1, 1, PLAYERS, None)
    made = [t.found(f"k{i}", "irregularity", "x") for i in range(L.MAX_FINDINGS + 5)]
    assert sum(1 for m in made if m) == L.MAX_FINDINGS and len(t.findings) == L.MAX_FINDINGS and t.more == 5


def test_a_recording_naming_no_stored_tournament_is_not_followed(tmp_path, monkeypatch):
    """``publish`` follows only a tournament stored under that very name (not a prefix of an id),
    and then only the tables of its report; an unknown name is looked up again only at a
    recording's start or end."""
    import threading
    from types import SimpleNamespace

    from adjudicator.core.store import MatchStore
    from adjudicator.core.store import tournaments as tournament_store
    from adjudicator.replays.web import live as live_mod

    store = MatchStore(str(tmp_path / "s.db"))
    report = {"tournament": {"name": "Cup"}, "tables": _report()["tables"], "summary": {}}
    tid, _v = tournament_store.save(store, report)
    looked: list[str] = []
    real = tournament_store.report

    def counted(st: Any, ref: str) -> Any:
        looked.append(ref)
        return real(st, ref)

    state = SimpleNamespace(web=SimpleNamespace(store=store, lock=threading.Lock()))
    s = RecordSession.start(str(tmp_path / "x.jsonl"), "colossi", PLAYERS, options={"gold_target": 5})
    monkeypatch.setattr(tournament_store, "report", counted)
    for name in ("Nope", tid[:8]):
        live_mod.publish(state, s, {"event": name, "round": "1", "table": "1"})  # (a start: looked up)
    s.enter(_entries(PLAYERS, 20, tmp_path)[0])
    live_mod.publish(state, s, {"event": "Nope", "round": "1", "table": "1"})  # (mid-match: not again)
    assert looked == ["Nope", tid[:8]]
    live = live_mod.live_of(state)  # type: ignore[arg-type]
    assert not live.followed and set(live.unknown) == {"Nope", tid[:8]}
    live_mod.publish(state, s, {"event": "Cup", "round": "1", "table": "9"})  # no such table: not followed
    assert not live.followed["Cup"].tables
    live_mod.publish(state, s, {"event": "Cup", "round": "1", "table": "1"})
    assert list(live.followed["Cup"].tables) == [(1, 1)]
