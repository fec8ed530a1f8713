"""The service's tournaments: ``tournament import`` keeps the report and the matches in the store;
``/api/tournaments``, ``/api/tournaments/{name}`` and the page ``/tournaments/{name}`` show them."""

from __future__ import annotations

import json

from click.testing import CliRunner
from litestar.testing import TestClient

from adjudicator.cli.main import main
from adjudicator.core.store import MatchStore
from adjudicator.replays.web import create_app
from adjudicator.replays.web.tournament import without_paths

from .tournament_gen import generate


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_import_then_the_api_and_the_page(tmp_path):
    gen = generate(tmp_path / "event", "logos", players=4, rounds=4, plant=("unfinished", "result-mismatch"),
                   seat_every=3, penalty=False)
    db = tmp_path / "s.db"
    r = invoke("tournament", "import", gen.manifest, "--db", db)
    assert r.exit_code == 0, r.output
    assert "8 tables" in r.output and "2 problems" in r.output and "(version 1)" in r.output
    checked = json.loads(invoke("tournament", "check", "--json", gen.manifest).output)
    st = MatchStore(str(db))
    try:
        with TestClient(create_app(st)) as c:
            listed = c.get("/api/tournaments").json()
            assert [t["name"] for t in listed] == [checked["tournament"]["name"]]
            assert listed[0]["summary"] == checked["summary"]
            rep = c.get(f"/api/tournaments/{listed[0]['name']}").json()
            assert rep["tournament_id"] == listed[0]["tournament_id"]
            # (the service names files relative to the manifest's directory: no server paths)
            assert [t["problems"] for t in rep["tables"]] == [t["problems"] for t in without_paths(checked)["tables"]]
            # every table's stored matches: each one is a stored match the viewer opens
            for t in rep["tables"]:
                assert t["match_ids"]
                for mid in t["match_ids"].values():
                    assert c.get(f"/api/matches/{mid}").status_code == 200
            page = c.get(f"/tournaments/{listed[0]['tournament_id'][:8]}")
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
            assert page.text.count('class="replay"') == len(rep["tables"]) and 'href="/matches/' in page.text
            assert 'data-filter="unfinished"' in page.text
            assert c.get("/api/tournaments/no-such-event").status_code == 404
            assert c.get("/tournaments/no-such-event").status_code == 404
    finally:
        st.close()
    # a second import is a new version of the same tournament, listed once
    assert "(version 2)" in invoke("tournament", "import", gen.manifest, "--db", db).output


def test_import_of_an_unreadable_manifest_exits_2(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text('name = "x"\n')
    r = invoke("tournament", "import", p, "--db", tmp_path / "s.db")
    assert r.exit_code == 2 and "game: required field is missing" in r.output
