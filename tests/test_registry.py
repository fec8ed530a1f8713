"""Games as plugins (the ``adjudicator.games`` entry-point group) and ``adjudicator games``.

The registry imports no game until one is asked for, then only that one; a broken third-party
plugin (its import fails, its callable raises, it registers an id already taken or nothing) is
listed as failed with its entry point, distribution and reason, and never stops the other games.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.errors import UnknownGame

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = {"colossi": "CL", "colossus-order": "CO", "kolossus": "KO", "logos": "LG"}


def _fresh(code: str) -> list:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


GAME_MODULES = ("import json, sys\n"
                "def loaded(): return sorted(m for m in sys.modules if m.startswith('adjudicator.games'))\n")


def test_the_registry_imports_no_game_until_one_is_asked_for() -> None:
    before, after, kolossus = _fresh(
        GAME_MODULES + "import adjudicator.core.kernel.registry as r\n"
        "a = loaded(); g = r.get('kolossus'); b = loaded()\n"
        "print(json.dumps([a, sorted({'.'.join(m.split('.')[:3]) for m in b}), g.id]))")
    assert before == []
    assert after == ["adjudicator.games", "adjudicator.games.kolossus"] and kolossus == "kolossus"


def test_the_api_the_cli_and_the_games_package_import_no_game() -> None:
    (loaded, logos) = _fresh(
        GAME_MODULES + "import adjudicator, adjudicator.cli.main, adjudicator.games\n"
        "a = loaded(); m = adjudicator.games.logos\n"
        "print(json.dumps([a, m.GAME.id]))")
    assert loaded == ["adjudicator.games"] and logos == "logos"


def test_threads_asking_at_once_each_get_their_game_loaded_once() -> None:
    """The web service reads uploads on worker threads: the first requests may ask together."""
    got = _fresh(
        "import json, threading\nimport adjudicator.core.kernel.registry as r\n"
        "ids = ['kolossus', 'logos', 'colossi', 'colossus-order'] * 4; out = {}\n"
        "def ask(i, gid): out[i] = r.get(gid).id\n"
        "ts = [threading.Thread(target=ask, args=(i, g)) for i, g in enumerate(ids)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "print(json.dumps([[out[i] for i in range(len(ids))] == ids, r.ids(), [f.reason for f in r.failures()],"
        " sorted(o.entry_point for o in map(r.origin, r.ids()))]))")
    assert got == [True, sorted(BUILTIN), [],
                   sorted(f"{g} = adjudicator.games.{g.replace('-', '_')}" for g in BUILTIN)]


def test_unreadable_entry_point_metadata_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_a, **_kw):
        raise ValueError("bad entry_points.txt")

    monkeypatch.setattr(registry, "distributions", broken)
    monkeypatch.setattr(registry, "_FAILURES", [])
    monkeypatch.setattr(registry, "_all_loaded", False)
    with pytest.raises(UnknownGame, match="unknown game 'nope'"):
        registry.get("nope")
    assert [f.describe() for f in registry.failures()] == [
        "reading the adjudicator.games entry points failed: ValueError: bad entry_points.txt"]


def test_games_lists_where_each_game_comes_from() -> None:
    r = CliRunner().invoke(main, ["games"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    rows = {line.split("\t")[0]: line.split("\t") for line in r.output.splitlines()}
    for gid, prefix in BUILTIN.items():
        assert rows[gid][2:] == ["adjudicator 0.1.0", f"{gid} = adjudicator.games.{gid.replace('-', '_')}", prefix]
    r = CliRunner().invoke(main, ["games", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["failed"] == []
    got = {g["id"]: g for g in doc["games"]}
    assert set(got) >= set(BUILTIN)
    assert got["logos"] == {"id": "logos", "name": "LOGOS", "distribution": "adjudicator", "version": "0.1.0",
                            "entry_point": "logos = adjudicator.games.logos",
                            "module": "adjudicator.games.logos.game", "rulebook": "LG"}


# -- broken plugins ----------------------------------------------------------------------------------

PLUGINS = {
    "missing": "no_such_module_for_the_registry_test",
    "dupe": "dupe_plugin",
    "raiser": "raiser_plugin:setup",
    "nothing": "empty_plugin",
    "toy-variant": "variant_plugin:make",
}
MODULES = {
    "dupe_plugin": "from adjudicator.core.kernel import registry\n"
                   "class Impostor:\n    id = 'logos'\n    name = 'not LOGOS'\n"
                   "registry.register(Impostor())\n",
    "raiser_plugin": "def setup():\n    raise RuntimeError('boom')\n",
    "empty_plugin": "VALUE = 1\n",
    "variant_plugin": "from .game import make\n",
    # the kit looks for a game class's parts (scene.py ...) in the package of the class's module
    "variant_plugin/game": "from tests.toygame import ToyGame\n"
                           "class Variant(ToyGame):\n    id = 'toy-variant'\n    name = 'Race to N, a variant'\n"
                           "def make():\n    return Variant()\n",
}


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A distribution ``broken-games 1.2`` on sys.path with five entry points, four of them broken;
    the registry's state is restored afterwards."""
    info = tmp_path / "broken_games-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-games\nVersion: 1.2\n")
    (info / "entry_points.txt").write_text(
        "[adjudicator.games]\n" + "".join(f"{k} = {v}\n" for k, v in PLUGINS.items()))
    for name, src in MODULES.items():
        path = tmp_path / (name + ".py" if "/" in name else name + "/__init__.py")
        path.parent.mkdir(exist_ok=True)
        path.write_text(src)
    registry.games()  # the built-in games first, as a fresh process would load them
    for name in ("_GAMES", "_ORIGINS"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    monkeypatch.setattr(registry, "_FAILURES", list(registry._FAILURES))
    monkeypatch.setattr(registry, "_TRIED", set(registry._TRIED))
    monkeypatch.setattr(registry, "_all_loaded", False)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in MODULES:
        sys.modules.pop(name.replace("/", "."), None)


def test_a_broken_plugin_is_listed_with_its_reason_and_stops_no_game(broken: Path) -> None:
    r = CliRunner().invoke(main, ["games"], catch_exceptions=False)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output + r.stderr
    assert "4 game plugin(s) failed to load" in r.stderr, r.stdout
    rows = {tuple(line.split("\t")[:2]): line.split("\t") for line in r.stdout.splitlines()}
    for gid, prefix in BUILTIN.items():  # the built-in games are all there
        assert rows[(gid, registry.get(gid).name)][2] == "adjudicator 0.1.0"
    assert rows[("toy-variant", "Race to N, a variant")][2:] == [
        "broken-games 1.2", "toy-variant = variant_plugin:make", "TOY"]
    failed = {k[0]: v for k, v in rows.items() if k[1] == "FAILED"}
    assert set(failed) == {"missing", "dupe", "raiser", "nothing"}
    assert all(v[2] == "broken-games 1.2" and v[3] == f"{v[0]} = {PLUGINS[v[0]]}" for v in failed.values())
    assert failed["missing"][4].startswith("ModuleNotFoundError: No module named 'no_such_module_for_the")
    assert failed["dupe"][4] == ("PluginError: game id 'logos' registered twice: it is already registered by "
                                 "entry point 'logos = adjudicator.games.logos' of distribution adjudicator 0.1.0")
    assert failed["raiser"][4] == "RuntimeError: boom"
    assert failed["nothing"][4].startswith("PluginError: it registered no game")
    assert registry.get("logos").name == "LOGOS"  # the impostor was taken back


def test_games_json_lists_the_failed_plugins(broken: Path) -> None:
    r = CliRunner().invoke(main, ["games", "--json"], catch_exceptions=False)
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    assert {f["name"] for f in doc["failed"]} == {"missing", "dupe", "raiser", "nothing"}
    raiser = next(f for f in doc["failed"] if f["name"] == "raiser")
    assert raiser == {"entry_point": "raiser = raiser_plugin:setup", "name": "raiser",
                      "distribution": "broken-games", "version": "1.2", "reason": "RuntimeError: boom"}
    assert {"toy-variant", *BUILTIN} <= {g["id"] for g in doc["games"]}


def test_a_log_of_a_broken_plugins_game_is_unreadable_and_the_others_verify(broken: Path) -> None:
    legal = ROOT / "examples" / "kolossus" / "legal-chapter-1.jsonl"
    r = CliRunner().invoke(main, ["verify", str(legal)], catch_exceptions=False)
    assert r.exit_code == 0 and "legal (" in r.stdout, r.stdout + r.stderr
    log = broken / "raiser.jsonl"
    log.write_text('{"type":"MatchStarted","seq":1,"game":"raiser","players":["a","b"]}\n')
    r = CliRunner().invoke(main, ["verify", str(log)], catch_exceptions=False)
    assert r.exit_code == 2, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "Traceback" not in out
    assert ("game 'raiser' could not be loaded: entry point 'raiser = raiser_plugin:setup' of distribution "
            "broken-games 1.2 failed: RuntimeError: boom") in out
    with pytest.raises(registry.GameUnavailable) as err:
        registry.get("missing")
    assert isinstance(err.value, UnknownGame) and "no_such_module_for_the_registry_test" in str(err.value)
    with pytest.raises(UnknownGame, match="unknown game 'nope'"):
        registry.get("nope")


def test_a_game_class_finds_its_parts_in_its_package_init_and_a_top_level_one_has_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit finds ``scene.py`` in the package of the game class's module: ``game.py`` or the
    package's ``__init__.py`` alike; a class in a top-level module has no package and gets the
    protocol's text-only scene (it used to fail: "the 'package' argument is required")."""
    import sys

    from tests.toygame import ToyGame

    pkg = tmp_path / "initgame"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from tests.toygame import ToyGame\n\n\nclass InitGame(ToyGame):\n"
                                     "    id = 'init-game'\n")
    (pkg / "scene.py").write_text("def scene(game, state, player):\n    return 'from initgame.scene'\n")
    (tmp_path / "toplevelgame.py").write_text("from tests.toygame import ToyGame\n\n\nclass TopGame(ToyGame):\n"
                                              "    id = 'top-game'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        import initgame
        import toplevelgame

        assert initgame.InitGame().scene(None, None) == "from initgame.scene"
        top = toplevelgame.TopGame()
        assert top.part("render") is None and top.part("scene") is None
        assert type(top).scene is not initgame.InitGame.scene
    finally:
        for name in ("initgame", "initgame.scene", "toplevelgame"):
            sys.modules.pop(name, None)
    assert ToyGame().part("scene") is not None  # the toy plugin's own scene.py, as before
