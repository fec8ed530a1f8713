"""The eventsourcing internals the store relies on, checked against the installed library.

``adjudicator/core/store/adapter.py`` lists them in ``INTERNALS`` (each reached through one helper); an
eventsourcing release that renames or changes one fails here, naming it.  And no other module
touches eventsourcing at all.
"""

from __future__ import annotations

import inspect
import re
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest

from adjudicator.core import store

ROOT = Path(__file__).resolve().parent.parent


def _probe_class() -> type:
    from eventsourcing.domain import Aggregate

    class Probe(Aggregate):
        pass

    return Probe


_PROBE: list[type] = []


def _aggregate() -> Any:
    """A new aggregate of one probe class (the library registers a class's topic once)."""
    if not _PROBE:
        _PROBE.append(_probe_class())
    return _PROBE[0]()


def _base_init() -> None:
    from eventsourcing.domain import Aggregate

    agg = _aggregate()
    params = list(inspect.signature(Aggregate.__base_init__).parameters)
    assert params[:4] == ["self", "originator_id", "originator_version", "timestamp"], params
    restored = store._restored(type(agg), agg.id, 7, agg.created_on, agg.modified_on)
    assert (restored.id, restored.version, restored.created_on) == (agg.id, 7, agg.created_on)


def _version() -> None:
    agg = _aggregate()
    when = datetime(2030, 1, 1, tzinfo=timezone.utc)
    store._set_position(agg, 42, when)
    assert agg.version == 42 and agg.modified_on == when


def _pending() -> None:
    agg = _aggregate()
    pending = store._take_pending(agg)
    assert len(pending) == 1 and type(pending[0]).__name__ == "Created"
    assert agg.collect_events() == []
    store._give_pending(agg, list(pending))
    assert agg.collect_events() == pending


def _insert_events() -> None:
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    fn = SQLiteApplicationRecorder._insert_events
    params = list(inspect.signature(fn).parameters)
    assert params[:3] == ["self", "c", "stored_events"], params
    assert store.BulkSQLiteApplicationRecorder._insert_events is not fn


def _insert_statement(tmp: Path) -> None:
    with store.MatchStore(str(tmp / "probe.db")) as st:
        for recorder in (st.app.recorder, st.app.snapshots.recorder):
            sql = store._insert_statement(recorder)
            assert isinstance(sql, str) and sql.lstrip().upper().startswith("INSERT"), sql
            assert sql.count("?") == 4, sql  # originator_id, originator_version, topic, state


def _get_connection(tmp: Path) -> None:
    """``datastore.transaction`` is ``get_connection`` then the connection's ``transaction``: the
    store's import transaction is the same with one pragma before it begins."""
    from eventsourcing.sqlite import SQLiteDatastore

    src = inspect.getsource(SQLiteDatastore.transaction)
    assert "self.get_connection(commit=commit)" in src and "conn.transaction(commit=commit)" in src, src
    with store.MatchStore(str(tmp / "sync.db")) as st, store.importing_files():
        with st.app.recorder.batch_transaction() as cursor:
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == 1  # NORMAL, inside the transaction it opened


def _dict() -> None:
    from eventsourcing.domain import DomainEvent

    Probe = _EVENT[0] if _EVENT else _EVENT.append(type("Probe", (DomainEvent,), {"__annotations__": {"extra": int}})) or _EVENT[0]

    when = datetime(2030, 1, 1, tzinfo=timezone.utc)
    oid = uuid.uuid4()
    built = store._new(Probe, {"originator_id": oid, "originator_version": 3, "timestamp": when, "extra": 5})
    made = Probe(originator_id=oid, originator_version=3, timestamp=when, extra=5)
    assert built == made and built.__dict__ == made.__dict__


_EVENT: list[type] = []


def _lock_table() -> None:
    pytest.importorskip("psycopg")
    from eventsourcing.postgres import PostgresApplicationRecorder

    for name in ("_lock_table", "_notify_channel"):
        params = list(inspect.signature(getattr(PostgresApplicationRecorder, name)).parameters)
        assert params == ["self", "curs"], (name, params)
    # the library's own insert takes the lock and notifies in the same order
    src = inspect.getsource(PostgresApplicationRecorder._insert_stored_events)
    assert src.index("self._lock_table(curs)") < src.index("self._notify_channel(curs)"), src
    assert issubclass(store.BulkPostgresApplicationRecorder, PostgresApplicationRecorder)


def _events_table_name() -> None:
    pytest.importorskip("psycopg")
    from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore

    assert "self.events_table_name = events_table_name" in inspect.getsource(PostgresAggregateRecorder.__init__)
    init = inspect.getsource(PostgresDatastore.__init__)
    assert "self.schema" in init and "self.originator_id_type" in init, init

#: each internal the store names -> how to check it is still there and still means the same
CHECKS: dict[str, Callable[..., None]] = {
    "eventsourcing.domain.Aggregate.__base_init__": _base_init,
    "eventsourcing.domain.Aggregate._version": _version,
    "eventsourcing.domain.Aggregate._modified_on": _version,
    "eventsourcing.domain.Aggregate._pending_events": _pending,
    "eventsourcing.sqlite.SQLiteApplicationRecorder._insert_events": _insert_events,
    "eventsourcing.sqlite.SQLiteAggregateRecorder.insert_events_statement": _insert_statement,
    "eventsourcing.sqlite.SQLiteDatastore.get_connection": _get_connection,
    "eventsourcing.domain.DomainEvent.__dict__": _dict,
    "eventsourcing.postgres.PostgresApplicationRecorder._lock_table": _lock_table,
    "eventsourcing.postgres.PostgresApplicationRecorder._notify_channel": _lock_table,
    "eventsourcing.postgres.PostgresAggregateRecorder.events_table_name": _events_table_name,
}


def test_every_internal_has_a_check() -> None:
    assert [name for name, _why in store.INTERNALS] == list(CHECKS)


@pytest.mark.parametrize("name", list(CHECKS))
def test_the_internal_is_still_there(name: str, tmp_path: Path) -> None:
    import eventsourcing

    from importlib.metadata import version

    check = CHECKS[name]
    try:
        check(tmp_path) if "tmp" in inspect.signature(check).parameters else check()
    except (AttributeError, AssertionError, TypeError) as exc:
        pytest.fail(f"eventsourcing {version('eventsourcing')} changed {name}, which adjudicator/core/store/adapter.py "
                    f"relies on ({dict(store.INTERNALS)[name]}): {type(exc).__name__}: {exc}")
    assert eventsourcing


PRIVATE = re.compile(r"_pending_events|__base_init__|_insert_events|insert_events_statement|\._modified_on|"
                     r"\._version\b|^\s*(from|import) eventsourcing", re.M)


def test_no_other_module_touches_eventsourcing() -> None:
    found = []
    for folder in ("adjudicator", "cli", "replays", "recorder"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "adjudicator" / "core" / "store" / "adapter.py":
                continue
            for m in PRIVATE.finditer(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}: {m.group(0).strip()}")
    assert not found, found


def test_the_helpers_are_the_only_users_of_the_internals_in_the_store() -> None:
    """Inside store_adapter.py (the adapter over eventsourcing) each internal is used by its helper only (and the recorder override)."""
    src = (ROOT / "adjudicator" / "core" / "store" / "adapter.py").read_text(encoding="utf-8")
    body = src.split("def _new(", 1)[1]  # after the helpers
    code = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith(("#", '"', "``")))
    for name in ("_pending_events", "__base_init__", "insert_events_statement", "._modified_on", "._version"):
        assert name not in code.replace("``" + name.lstrip(".") + "``", ""), name


def test_list_and_lookup_query_only_the_new_index_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match list and id lookup ask the index stream only for entries after the last one
    read (a web request on a large store reads nothing it has read before), and see what another
    process stored meanwhile."""
    from adjudicator.core.kernel.log import read_log
    from adjudicator.core.kernel.playout import playout, to_jsonl
    from adjudicator.core.kernel import registry

    game = registry.get("kolossus")
    paths = []
    for seed in range(3):
        p = tmp_path / f"k{seed}.jsonl"
        p.write_bytes(to_jsonl(playout(game, seed, max_events=40)[0]))
        paths.append(p)
    db = str(tmp_path / "s.db")
    with store.MatchStore(db) as writer, store.MatchStore(db) as reader:
        first = writer.import_log(read_log(paths[0]), allow_illegal=True).match_id
        calls: list[dict[str, Any]] = []
        real = reader.app.events.get

        def counting(originator_id: Any, **kw: Any) -> Any:
            if originator_id == store.INDEX_ID:
                calls.append(kw)
            return real(originator_id, **kw)

        monkeypatch.setattr(reader.app.events, "get", counting)
        assert [m.match_id for m in reader.matches()] == [first]
        assert reader.summary(first).match_id == first  # from what was read: no query
        more = [writer.import_log(read_log(p), allow_illegal=True).match_id for p in paths[1:]]
        assert [m.match_id for m in reader.matches()] == [first, *more]
        assert reader.resolve(more[1][:12]) == more[1]
        assert [c.get("gt") for c in calls] == [0, 1, 3]  # each query starts after the last entry read


def test_the_import_encodes_recorded_fields_as_the_library_mapper_does() -> None:
    """The batch writer encodes a ``Recorded`` event's fields as a ``RecordedFields`` struct, with
    the timestamp pre-encoded: the same bytes as the mapper's dict of the event's fields."""
    from adjudicator.core.kernel.rulings import Ruling
    from adjudicator.core.store.adapter import _RECORDED_FIELDS, RecordedFields

    import msgspec

    assert RecordedFields.__struct_fields__ == _RECORDED_FIELDS
    with store.MatchStore(memory=True) as st:
        mapper = st.app.events.mapper
        encode = mapper.state_encoder()
        when = datetime(2030, 1, 1, 12, 30, tzinfo=timezone.utc)
        for values in ((b'{"type":"X"}', 3, 2, "D", True, Ruling("legal", "R-1", "c", "why")),
                       (b"{}", 9, None, "X", False, None)):
            fields = dict(zip(_RECORDED_FIELDS, (when, *values)))
            raw = msgspec.Raw(msgspec.msgpack.encode(when))
            assert encode(RecordedFields(raw, *values)) == mapper.transcoder.encode(fields)
