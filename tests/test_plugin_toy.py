"""The toy game as a plugin a user installs: ``examples/plugin-toy`` (the distribution
``adjudicator-toy``) installed in a virtual environment of its own, found through its entry point in
the ``adjudicator.games`` group, passes the whole conformance suite (tests/test_conformance.py,
parametrised over the registry) run in that environment's Python, with no change to core, CLI or
viewers.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.toygame import PLUGIN

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"


def doc_block(marker: str) -> str:
    """The fenced block after ``<!-- marker -->`` in docs/adding-a-game.md."""
    m = re.search(rf"<!-- {marker} -->\n```\w*\n(.*?)```", DOC.read_text(), re.S)
    assert m, f"docs/adding-a-game.md has no block marked {marker}"
    return m.group(1)

#: runs the conformance suite in the plugin's environment, then says where its toy game came from
SCRIPT = """
import json, sys
import pytest
code = pytest.main(sys.argv[1:])
import adjudicator, adjudicator_toy
from adjudicator.core.kernel import registry
o = registry.origin("toy")
print(json.dumps({"code": int(code), "origin": o and [o.entry_point, o.distribution, o.version],
                  "plugin": adjudicator_toy.__file__, "game": type(registry.get("toy")).__module__}))
"""


def _pip(py: Path, *args: str) -> None:
    """``pip install`` into the environment of ``py`` by this interpreter's pip (the environment
    has none of its own: ensurepip would cost most of the test's time)."""
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                        "--no-build-isolation", *args],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]


@pytest.fixture(scope="session")
def toy_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment (under the session's pytest tmp dir) with this checkout and the toy
    plugin installed, the dependencies from this interpreter's site-packages."""
    root = tmp_path_factory.mktemp("plugin-toy")
    venv = root / "venv"
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)], check=True,
                       capture_output=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot create a virtual environment here ({exc}); on Debian: apt-get install python3-venv")
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    if sys.prefix != sys.base_prefix:
        # the tests run in a virtual environment (README's set-up): its site-packages hold the
        # dependencies (and the build backend's wheel); a path line in a .pth file adds the folder
        # but runs none of its .pth files, so the project's own editable install stays out
        deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        (site / "zz-test-dependencies.pth").write_text("".join(f"{d}\n" for d in sorted(deps)))
    _pip(py, "-e", str(ROOT))
    # built from a copy, so the build leaves nothing in the source folder
    shutil.copytree(PLUGIN, root / "plugin-toy", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    _pip(py, str(root / "plugin-toy"))
    return py


def test_the_installed_toy_plugin_passes_the_conformance_suite(toy_venv: Path, tmp_path: Path) -> None:
    report = tmp_path / "conformance.xml"
    r = subprocess.run(
        [str(toy_venv), "-c", SCRIPT, "-p", "no:cacheprovider", "-q", "-k", "toy", f"--junitxml={report}",
         str(ROOT / "tests" / "test_conformance.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-3000:]
    found = json.loads(r.stdout.strip().splitlines()[-1])
    # the toy game came through its entry point, from the installed distribution
    assert found["origin"] == ["toy = adjudicator_toy", "adjudicator-toy", "0.1.0"], found
    assert found["plugin"].startswith(str(toy_venv.parents[1])) and found["game"] == "adjudicator_toy.game", found
    assert found["code"] == 0, r.stdout[-4000:]
    cases = ET.parse(report).getroot().iter("testcase")
    outcomes = {c.get("name"): [x.tag for x in c if x.tag in ("failure", "error", "skipped")] for c in cases}
    toy = {name: bad for name, bad in outcomes.items() if "[toy" in name}
    assert toy and all(not bad for bad in toy.values()), toy
    # every test of the suite that is parametrised over the registry ran for the toy game
    suite = (ROOT / "tests" / "test_conformance.py").read_text()
    assert len(toy) == suite.count('@pytest.mark.parametrize("gid", GAMES)'), sorted(toy)
    # the page's command is the one run here, and `adjudicator games` there lists the toy as the page says
    command = next(x for x in doc_block("plugin-conformance").splitlines() if "pytest" in x).split("#")[0].split()
    assert command[command.index("-p"):] == ["-p", "no:cacheprovider", "tests/test_conformance.py", "-k", "toy"]
    r = subprocess.run([str(toy_venv), "-m", "adjudicator", "games"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    row = next(line.split("\t") for line in r.stdout.splitlines() if line.startswith("toy\t"))
    documented = re.search(r"adjudicator games +# (.*)", DOC.read_text()).group(1)
    assert row == re.split(r"  +", documented.strip())
    assert {line.split("\t")[0] for line in r.stdout.splitlines()} >= {"colossi", "colossus-order", "kolossus", "logos"}


def test_the_page_shows_the_plugins_pyproject() -> None:
    assert doc_block("plugin-pyproject") == (PLUGIN / "pyproject.toml").read_text()
