"""The event store (adjudicator.core.store) and the ``adjudicator store`` commands, on the toy game."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import uuid
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import UnknownGame
from adjudicator.core.kernel.log import MatchLog, read_log
from adjudicator.core.store import (
    ALREADY_STORED, INDEX_ID, REFUSED, STORED, AmbiguousMatch, BadPosition, MatchStore,
    UnknownMatch, _BatchWriter, importing_files, match_id_of, store_env,
)
from adjudicator.core.kernel.verify import position_at
from adjudicator.cli.main import main
from tests import toygame

#: the whole module runs with SQLite stores and again with PostgreSQL ones (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture(autouse=True)
def toy_game() -> toygame.ToyGame:
    """The registered toy game, installed once (installing again would replace the instance)."""
    try:
        game = registry.get("toy")
    except UnknownGame:
        game = None
    return game if isinstance(game, toygame.ToyGame) else toygame.install()


# -- toy logs ----------------------------------------------------------------------------------

def toy_lines(target: int, *, amounts: list[int] | None = None, state_derived: bool = False,
              seq: bool = False, at: bool = False, note: str | None = None,
              wrong_player_at: int | None = None) -> list[dict[str, Any]]:
    """A toy match as log lines: players a/b add ``amounts`` (cycled) until ``target``.

    ``state_derived`` writes the engine's TurnPassed/Won lines into the log too (they must be
    confirmed, not applied twice); ``wrong_player_at`` makes that move (by number) illegal.
    """
    start: dict[str, Any] = {"type": "MatchStarted", "game": "toy", "players": ["a", "b"], "target": target}
    if note:
        start["note"] = note
    lines = [start]
    amounts = amounts or [1, 2, 3]
    total, turn, move = 0, 0, 0
    while total < target:
        n = amounts[move % len(amounts)]
        player = "ab"[turn % 2]
        move += 1
        if move == wrong_player_at:
            lines.append({"type": "Added", "player": "ab"[(turn + 1) % 2], "n": n})
            continue
        lines.append({"type": "Added", "player": player, "n": n})
        total += n
        if state_derived:
            lines.append({"type": "Won", "player": player} if total >= target
                         else {"type": "TurnPassed", "to": "ab"[(turn + 1) % 2]})
        turn += 1
    for i, line in enumerate(lines, start=1):
        if seq:
            line["seq"] = i
        if at:
            line["at"] = f"2024-05-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z"
    return lines


def write_log(tmp_path: Path, name: str, lines: list[dict[str, Any]]) -> Path:
    p = tmp_path / name
    p.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in lines))
    return p


def toy_log(tmp_path: Path, name: str = "m.jsonl", **kw: Any) -> MatchLog:
    target = kw.pop("target", 12)
    return read_log(write_log(tmp_path, name, toy_lines(target, **kw)))


def sqlite_only(backend: str, why: str) -> None:
    if backend != "sqlite":
        pytest.skip(f"SQLite only: {why}")


def open_store(kind: str, tmp_path: Path, **kw: Any) -> MatchStore:
    if kind == "memory":
        return MatchStore(memory=True, **kw)
    return MatchStore(str(tmp_path / "store.db"), **kw)


def assert_positions_match(st: MatchStore, match_id: str, log: MatchLog) -> None:
    for at in range(1, len(log.events) + 1):
        game, state = st.state_at(match_id, at)
        assert game is log.game or game.id == log.game.id
        assert state == position_at(log, at).state, f"position after event {at}"
    assert st.state_at(match_id, None)[1] == position_at(log, None).state


# -- import and replay -------------------------------------------------------------------------

VARIANTS = {
    "plain": {},
    "stated-derived": {"state_derived": True},
    "seq-and-at": {"seq": True, "at": True},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("snapshot_every", [3, 200])
@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_state_at_equals_live_state_at_every_event(tmp_path: Path, kind: str, snapshot_every: int,
                                                   variant: str) -> None:
    log = toy_log(tmp_path, target=15, **VARIANTS[variant])
    with open_store(kind, tmp_path, snapshot_every=snapshot_every) as st:
        res = st.import_log(log)
        assert (res.created, res.status, res.verdict) == (True, STORED, "legal")
        assert res.events == len(log.events)
        assert_positions_match(st, res.match_id, log)
        assert st.full_rebuild_state(res.match_id)[1] == position_at(log, None).state


@pytest.mark.parametrize("snapshot_every", [4, 200])
def test_a_fresh_store_on_the_same_sqlite_file_replays_the_same_positions(tmp_path: Path,
                                                                         snapshot_every: int) -> None:
    log = toy_log(tmp_path, target=20, state_derived=True)
    with open_store("sqlite", tmp_path, snapshot_every=snapshot_every) as st:
        match_id = st.import_log(log).match_id
    with open_store("sqlite", tmp_path) as st2:
        assert [m.match_id for m in st2.matches()] == [match_id]
        assert_positions_match(st2, match_id, log)


def test_get_log_returns_the_log_events_with_their_rulings(tmp_path: Path) -> None:
    log = toy_log(tmp_path, target=9, state_derived=True, seq=True)
    with MatchStore(memory=True) as st:
        match_id = st.import_log(log).match_id
        stored = st.get_log(match_id)
    assert [(e.seq, e.line, e.event) for e in stored] == [(i, line, ev) for i, (line, ev) in enumerate(log.events, 1)]
    assert all(e.ruling is not None and e.ruling.legal for e in stored)
    confirmed = [e for e in stored if type(e.event).__name__ == "TurnPassed"]
    assert confirmed and all(e.ruling.code == "core/derived" for e in confirmed)


def test_long_match_seeks_from_a_snapshot(tmp_path: Path, toy_game: toygame.ToyGame,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    log = toy_log(tmp_path, target=3000, amounts=[1])
    with open_store("sqlite", tmp_path) as st:
        match_id = st.import_log(log).match_id
    calls = {"n": 0}
    real_apply = toy_game.apply

    def counting_apply(state: Any, event: Any) -> Any:
        calls["n"] += 1
        return real_apply(state, event)

    monkeypatch.setattr(toy_game, "apply", counting_apply)
    with open_store("sqlite", tmp_path) as st:
        snaps = list(st.app.snapshots.get(uuid.UUID(match_id)))
        assert len(snaps) == (len(log.events) * 2 - 1) // 200  # every 200 stream versions
        late = len(log.events) - 7
        _, seek = st.state_at(match_id, late)
        seek_calls, calls["n"] = calls["n"], 0
        _, rebuilt = st.full_rebuild_state(match_id, late)
        rebuild_calls = calls["n"]
    assert seek == rebuilt
    assert seek == position_at(log, late).state
    assert seek_calls < 200, "a late position must replay from the nearest snapshot"
    assert rebuild_calls > 5000, "the full rebuild replays the whole stream"


def test_reimport_is_idempotent(tmp_path: Path) -> None:
    log = toy_log(tmp_path, target=10)
    with open_store("sqlite", tmp_path) as st:
        first = st.import_log(log)
        n_stored = len(st.app.recorder.select_events(uuid.UUID(first.match_id)))
        again = st.import_log(read_log(log.path))
        assert (again.created, again.status, again.match_id) == (False, ALREADY_STORED, first.match_id)
        assert again.stored_events == first.stored_events
        # the same content with explicit seq numbers and another file name is the same match
        renumbered = toy_log(tmp_path, "renumbered.jsonl", target=10, seq=True)
        assert st.import_log(renumbered).status == ALREADY_STORED
        assert len(st.matches()) == 1
        assert len(st.app.recorder.select_events(uuid.UUID(first.match_id))) == n_stored
        # different content, different match
        other = toy_log(tmp_path, "other.jsonl", target=10, note="rematch")
        assert st.import_log(other).status == STORED
        assert match_id_of(other) != match_id_of(log)
        assert len(st.matches()) == 2


def test_illegal_log_is_refused_unless_allowed(tmp_path: Path) -> None:
    log = toy_log(tmp_path, target=10, wrong_player_at=3)
    with MatchStore(memory=True) as st:
        refused = st.import_log(log)
        assert (refused.status, refused.created, refused.verdict) == (REFUSED, False, "illegal")
        assert refused.violations and refused.violations[0].seq == 4
        assert st.matches() == []
        with pytest.raises(UnknownMatch):
            st.state_at(refused.match_id, None)
        stored = st.import_log(log, allow_illegal=True)
        assert (stored.status, stored.created, stored.verdict) == (STORED, True, "illegal")
        [summary] = st.matches()
        assert (summary.verdict, summary.violations) == ("illegal", len(stored.violations))
        again = st.import_log(log)  # already stored: reported with its stored verdict
        assert (again.status, again.verdict) == (ALREADY_STORED, "illegal")
        assert [v.seq for v in again.violations] == [v.seq for v in stored.violations]
        rulings = {e.seq: e.ruling for e in st.get_log(stored.match_id)}
        assert rulings[4].verdict == "illegal" and rulings[4].code == "toy/not-your-turn"
        assert_positions_match(st, stored.match_id, log)


def _crash_after_first_batch(st: MatchStore, how: str, marker: Path) -> None:
    """Make ``st``'s recorder write the first batch of an import, then fail: an exception, or
    this process killed by SIGKILL (``marker`` says how many rows the batch had)."""
    recorder = st.app.recorder
    real = recorder.write_batch

    def first_then_crash(cursor: Any, rows: Any, **options: Any) -> None:
        real(cursor, rows, **options)
        marker.write_text(str(len(rows)))
        if how == "kill -9":
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("power cut")

    recorder.write_batch = first_then_crash  # type: ignore[method-assign]


@pytest.mark.parametrize("how", ["exception", "kill -9"])
def test_a_crash_in_the_middle_of_saving_leaves_nothing(tmp_path: Path, backend: str, how: str) -> None:
    """A long match is written a batch at a time in ONE transaction: a crash after its first
    batch (an exception, or the process killed with SIGKILL) leaves neither the match nor its
    index entry; what was stored before stays, and the same log imports afterwards."""
    before = toy_log(tmp_path, "before.jsonl", target=5)
    log = toy_log(tmp_path, target=1500, amounts=[1])
    marker = tmp_path / "first-batch"
    with open_store("sqlite", tmp_path) as st:
        kept = st.import_log(before).match_id
    if how == "exception":
        with open_store("sqlite", tmp_path) as st:
            _crash_after_first_batch(st, how, marker)
            with pytest.raises(RuntimeError, match="power cut"):
                st.import_log(log)
    else:
        pid = os.fork()
        if pid == 0:  # the child imports and is killed after its first batch
            try:
                with open_store("sqlite", tmp_path) as st:
                    _crash_after_first_batch(st, how, marker)
                    st.import_log(log)
            finally:
                os._exit(3)  # reached only if the kill did not happen
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
    assert int(marker.read_text()) == _BatchWriter.BATCH, "a whole batch was written before the crash"
    with open_store("sqlite", tmp_path) as st:
        mid = match_id_of(log)
        assert st.app.recorder.select_events(mid) == []
        assert [m.match_id for m in st.matches()] == [kept]
        assert st.import_log(log).status == STORED
        assert st.state_at(str(mid), None)[1] == position_at(log, None).state
        assert st.state_at(kept, None)[1] == position_at(before, None).state


def test_replay_is_deterministic_and_uses_stable_topics(tmp_path: Path) -> None:
    log = toy_log(tmp_path, target=8, at=True)
    stored = []
    for _ in range(2):
        with MatchStore(memory=True) as st:
            mid = uuid.UUID(st.import_log(log).match_id)
            stored.append([(s.topic, s.state) for s in st.app.recorder.select_events(mid)])
            stamps = [e.timestamp for e in st.app.events.get(mid)]
    assert stored[0] == stored[1], "no clock: the same log gives the same bytes"
    assert {t for t, _ in stored[0]} == {"adjudicator/match.created/1", "adjudicator/match.recorded/1",
                                        "adjudicator/match.closed/1"}
    assert stamps[1].isoformat() == "2024-05-01T10:00:01+00:00"


def test_resolve_accepts_unique_prefixes(tmp_path: Path) -> None:
    with MatchStore(memory=True) as st:
        ids = [st.import_log(toy_log(tmp_path, f"m{i}.jsonl", target=3, note=str(i))).match_id for i in range(17)]
        assert st.resolve(ids[0]) == ids[0]
        assert st.resolve(ids[0][:13].upper()) == ids[0]
        firsts: dict[str, list[str]] = {}
        for i in ids:
            firsts.setdefault(i[0], []).append(i)
        shared = next(k for k, v in firsts.items() if len(v) > 1)  # 17 ids, 16 hex digits
        with pytest.raises(AmbiguousMatch):
            st.resolve(shared)
        with pytest.raises(UnknownMatch):
            st.resolve("zzz")
        with pytest.raises(UnknownMatch):
            st.resolve(str(uuid.uuid4()))
        with pytest.raises(BadPosition):
            st.state_at(ids[0], 99)


def test_store_location_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    sqlite_only(backend, "it checks where SQLite files go (test_postgres_settings checks PostgreSQL's)")
    for key in ("PERSISTENCE_MODULE", "ADJUDICATOR_PERSISTENCE_MODULE", "SQLITE_DBNAME"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("ADJUDICATOR_DB", str(tmp_path / "env.db"))
    with MatchStore() as st:
        assert st.location == str(tmp_path / "env.db")
        st.import_log(toy_log(tmp_path))
    assert (tmp_path / "env.db").exists()
    # the library's own PERSISTENCE_MODULE is honoured, not replaced by SQLite
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.popo")
    monkeypatch.setenv("ADJUDICATOR_DB", str(tmp_path / "unused.db"))
    env, where = store_env()
    assert "PERSISTENCE_MODULE" not in env and "popo" in where
    with MatchStore() as st:
        assert st.import_log(toy_log(tmp_path)).status == STORED
        assert type(st.app.recorder).__module__ == "eventsourcing.popo"
    assert not (tmp_path / "unused.db").exists()
    env, where = store_env(str(tmp_path / "explicit.db"))  # an explicit --db still wins
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite" and where.endswith("explicit.db")


# -- the CLI -----------------------------------------------------------------------------------

def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_import_list_show(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    good = write_log(tmp_path, "good.jsonl", toy_lines(10, amounts=[2]))
    r = cli("store", "import", str(good), "--db", db)
    assert r.exit_code == 0, r.output
    match_id = r.output.split()[0]
    assert uuid.UUID(match_id) and "legal, 6 events, stored" in r.output

    r = cli("store", "import", str(good), "--db", db)
    assert r.exit_code == 0 and "already stored" in r.output

    r = cli("store", "list", "--db", db)
    assert r.exit_code == 0
    assert r.output.split() == [match_id, "toy", "a,b", "legal", "6", "events", "a", "wins", "by", "target",
                                "reached", str(good)]
    r = cli("store", "list", "--db", db, "--json")
    doc = json.loads(r.output)
    assert (doc["match_id"], doc["players"], doc["events"], doc["outcome"]["winner"]) == (match_id, ["a", "b"], 6, "a")
    assert cli("store", "list", "--db", db, "--game", "other").output == ""

    r = cli("store", "show", match_id[:8], "--db", db)
    assert r.exit_code == 0 and r.output.strip() == "total 10/10, a to act"
    r = cli("store", "show", match_id[:8], "--at", "3", "--json", "--db", db)
    shown = json.loads(r.output)
    assert shown.pop("match") == match_id
    assert shown == json.loads(cli("state", str(good), "--at", "3", "--json").output)
    r = cli("store", "show", match_id, "--at", "2", "--as", "b", "--db", db)
    assert r.exit_code == 0 and "total 2/10" in r.output


def test_cli_illegal_and_unreadable_logs(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs, "a_good.jsonl", toy_lines(6))
    write_log(logs, "b_illegal.jsonl", toy_lines(6, wrong_player_at=2))
    (logs / "c_broken.jsonl").write_bytes(b'{"type":"MatchStarted","game":"toy","players":["a","b"]}\n'
                                          b'{"type":"Added","player":"a"}\n')
    r = CliRunner().invoke(main, ["store", "import", str(logs), "--db", db])
    assert r.exit_code == 2, r.output
    assert "a_good.jsonl: legal" in r.output and "stored" in r.output
    assert "b_illegal.jsonl: illegal" in r.output and "refused" in r.output
    assert f"{logs / 'c_broken.jsonl'}:2: n: required field is missing" in r.output
    assert "Traceback" not in r.output
    assert len(cli("store", "list", "--db", db).output.splitlines()) == 1

    r = cli("store", "import", str(logs / "b_illegal.jsonl"), "--db", db)
    assert r.exit_code == 1 and "refused" in r.output and "not-your-turn" in r.output
    r = cli("store", "import", str(logs / "b_illegal.jsonl"), "--allow-illegal", "--db", db, "--json")
    assert r.exit_code == 0  # stored as asked: exit 1 only when an illegal log is refused
    doc = json.loads(r.output)
    assert (doc["status"], doc["verdict"]) == ("stored", "illegal") and doc["violations"]
    listed = cli("store", "list", "--db", db).output.splitlines()
    assert len(listed) == 2 and any(" illegal " in line for line in listed)


def test_cli_unknown_match_and_bad_store(tmp_path: Path, backend: str) -> None:
    db = str(tmp_path / "cli.db")
    write = write_log(tmp_path, "g.jsonl", toy_lines(5))
    assert cli("store", "import", str(write), "--db", db).exit_code == 0
    r = CliRunner().invoke(main, ["store", "show", "ffffffff", "--db", db])
    assert r.exit_code == 2 and "no stored match 'ffffffff'" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["store", "show", str(uuid.uuid4()), "--db", db])
    assert r.exit_code == 2 and "no stored match" in r.output
    match_id = cli("store", "list", "--db", db).output.split()[0]
    r = CliRunner().invoke(main, ["store", "show", match_id, "--at", "99", "--db", db])
    assert r.exit_code == 2 and "--at 99" in r.output
    r = CliRunner().invoke(main, ["store", "show", match_id, "--as", "zed", "--db", db])
    assert r.exit_code == 2 and "unknown player 'zed'" in r.output
    if backend != "sqlite":
        return  # the rest is about files that are not SQLite databases
    (tmp_path / "junk.db").write_bytes(b"this is not a database" * 10)
    r = CliRunner().invoke(main, ["store", "list", "--db", str(tmp_path / "junk.db")])
    assert r.exit_code == 2 and "junk.db" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["store", "list", "--db", str(tmp_path / "no" / "such" / "x.db")])
    assert r.exit_code == 2 and "no such directory" in r.output


def test_postgres_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """With PERSISTENCE_MODULE=eventsourcing.postgres the store adds its PostgreSQL defaults
    (the database function for inserts) unless the environment sets them."""
    for key in ("ADJUDICATOR_POSTGRES_ENABLE_DB_FUNCTIONS", "POSTGRES_ENABLE_DB_FUNCTIONS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.postgres")
    monkeypatch.setenv("POSTGRES_DBNAME", "matches")
    env, where = store_env()
    assert env["POSTGRES_ENABLE_DB_FUNCTIONS"] == "y" and "matches" in where
    monkeypatch.setenv("POSTGRES_ENABLE_DB_FUNCTIONS", "n")
    env, _ = store_env()
    assert "POSTGRES_ENABLE_DB_FUNCTIONS" not in env  # the user's own setting stands


def test_cli_import_on_two_workers_is_the_same_as_on_one(tmp_path: Path) -> None:
    """``store import --jobs 2``: workers verify and encode, this process alone writes, in input
    order; the output, exit code and stored matches are those of ``--jobs 1``."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(7):
        write_log(logs, f"m{i}.jsonl", toy_lines(5 + i * 3, note=str(i)))
    write_log(logs, "m7_illegal.jsonl", toy_lines(6, wrong_player_at=2))
    (logs / "m8_broken.jsonl").write_bytes(b'{"type":"MatchStarted","game":"toy","players":["a","b"]}\n'
                                           b'{"type":"Added","player":"a"}\n')
    runs = {}
    for jobs in ("1", "2"):
        db = str(tmp_path / f"j{jobs}.db")
        r = CliRunner().invoke(main, ["store", "import", str(logs), "--db", db, "--jobs", jobs, "--json"])
        listed = cli("store", "list", "--db", db, "--json").output
        again = CliRunner().invoke(main, ["store", "import", str(logs), "--db", db, "--jobs", jobs,
                                          "--allow-illegal", "--json"])
        runs[jobs] = (r.exit_code, r.output, listed, again.exit_code, again.output)
    assert runs["1"] == runs["2"]
    code, out, listed, again_code, again_out = runs["2"]
    assert code == 2  # the unreadable log is the worst
    docs = [json.loads(line) for line in out.splitlines()]
    assert [d["status"] for d in docs] == ["stored"] * 7 + ["refused", "unreadable"]
    assert len(listed.splitlines()) == 7
    assert again_code == 2
    assert [json.loads(line)["status"] for line in again_out.splitlines()] == ["already stored"] * 7 + ["stored", "unreadable"]


@pytest.mark.parametrize("game_id", registry.ids())
def test_the_streamed_import_writes_what_the_library_mapper_writes(tmp_path: Path, game_id: str) -> None:
    """The import encodes each row as it is verified, without the domain event (``MatchMapper.
    recorded``): its stored events and snapshots are byte for byte the library's mapper path
    (``prepare_log``: domain events, then ``to_stored_event``), for a generated match and the
    examples (illegal ones stored on request, seat records with unknown cards); a prepared match
    written in one batch (``write_prepared``, the ``--jobs`` path) stores the same bytes too."""
    from adjudicator.core.kernel.playout import playout, to_jsonl
    from adjudicator.core.store import prepare_log

    game = registry.get(game_id)
    generated = tmp_path / f"{game_id}-generated.jsonl"
    generated.write_bytes(to_jsonl(playout(game, 2, max_events=500)[0]))
    examples = sorted((Path(__file__).parent.parent / "examples" / game_id).glob("*.jsonl"))
    picked = [generated, *[p for p in examples if p.name.startswith(("legal-judge", "undetermined"))][:2],
              *[p for p in examples if p.name.startswith("illegal")][:2]]
    with MatchStore(str(tmp_path / "store.db"), snapshot_every=20) as st, \
            MatchStore(str(tmp_path / "prepared.db"), snapshot_every=20) as written:
        for path in picked:
            prepared = prepare_log(str(path), True, 20)
            assert st.import_file(path, allow_illegal=True).status == STORED
            assert written.write_prepared(prepared).status == STORED  # the --jobs path: one batch
            for where in (st, written):
                rows = where.app.recorder.select_events(prepared.match_id)
                snaps = where.app.snapshots.recorder.select_events(prepared.match_id)  # type: ignore[union-attr]
                assert [(s.originator_version, s.topic, s.state) for s in rows] == \
                       [(s.originator_version, s.topic, s.state) for s in prepared.stream], path.name
                assert [(s.originator_version, s.state) for s in snaps] == \
                       [(s.originator_version, s.state) for s in prepared.snapshots], path.name
                assert len(rows) > 2, path.name
        assert [m.match_id for m in st.matches()] == [m.match_id for m in written.matches()]
        assert len(st.matches()) == len(picked)


def test_sqlite_imports_commit_at_the_synchronous_level_asked_for(tmp_path: Path, backend: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite imports of logs that remain as files (``store import``) commit with
    ``synchronous=NORMAL`` (WAL: a committed match survives a kill; docs/deploy.md), a store that
    holds the only copy (an upload, a recording) with FULL, or every commit at the level
    ``ADJUDICATOR_SQLITE_SYNCHRONOUS`` names; a bad level is refused with the variable's name
    (exit 2), before the store is opened."""
    if backend != "sqlite":
        pytest.skip("SQLite only")
    log = toy_log(tmp_path, target=5)
    seen: list[int] = []
    cases = [(level, files, code) for files in (True, False)
             for level, code in (("", 1 if files else 2), ("full", 2), ("EXTRA", 3), ("NORMAL", 1))]
    for level, files, code in cases:
        monkeypatch.setenv("ADJUDICATOR_SQLITE_SYNCHRONOUS", level)
        with MatchStore(str(tmp_path / f"s{level}{files}.db")) as st, \
                (importing_files() if files else contextlib.nullcontext()):
            real = st.app.recorder.write_batch

            def probe(cursor: Any, rows: Any, **options: Any) -> None:
                cursor.execute("PRAGMA synchronous")
                seen.append(cursor.fetchone()[0])
                real(cursor, rows, **options)

            st.app.recorder.write_batch = probe  # type: ignore[method-assign]
            assert st.import_log(log).status == STORED
        assert seen[-1] == code, (level, files, seen)
    monkeypatch.setenv("ADJUDICATOR_SQLITE_SYNCHRONOUS", "off")
    r = CliRunner().invoke(main, ["store", "list", "--db", str(tmp_path / "bad.db")])
    assert r.exit_code == 2 and "ADJUDICATOR_SQLITE_SYNCHRONOUS='off'" in r.output, r.output
    assert "Traceback" not in r.output and not (tmp_path / "bad.db").exists()


def test_a_pool_the_files_resolve_is_read_once_for_every_store_a_command_opens(
        tmp_path: Path, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store is asked for a pool only when the files do not resolve it: a second store opened
    in the same sources reads no pool file again.  (A pool only the store keeps, pinned or not:
    tests/test_pools.py.)"""
    from adjudicator.core.kernel import sources

    root = Path(__file__).resolve().parent.parent
    example = root / "examples" / "colossus-order" / "legal-gem-complete.jsonl"
    reads: list[str] = []
    real = sources.read_document

    def counting(path: Any) -> Any:
        reads.append(str(path))
        return real(path)

    monkeypatch.setattr(sources, "read_document", counting)
    with sources.using(sources.Sources()):
        for name in ("a.db", "b.db"):
            with MatchStore(str(tmp_path / name)) as st:
                assert st.import_log(read_log(example)).status == STORED
    assert len(reads) == 1, reads
