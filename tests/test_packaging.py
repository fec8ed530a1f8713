"""Packaging: the wheel installs only the ``adjudicator`` namespace and works from anywhere.

``cli/`` and ``replays/`` keep their top-level folders in the repository but install as
``adjudicator.cli`` and ``adjudicator.replays``, so nothing named ``cli`` or ``replays`` lands in
site-packages to clash with another project.  The wheel is built, installed into a fresh
virtualenv and run on an example log, from a directory outside the repository.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "adjudicator").rglob("__init__.py")}
    for top in ("cli", "replays", "recorder"):
        found |= {"adjudicator." + ".".join(p.parent.relative_to(ROOT).parts)
                  for p in (ROOT / top).rglob("__init__.py")}
    assert listed == found
    assert cfg["package-dir"] == {"adjudicator": "adjudicator", "adjudicator.cli": "cli",
                                  "adjudicator.replays": "replays", "adjudicator.recorder": "recorder"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    (whl,) = out.glob("adjudicator-*.whl")
    return whl


def test_wheel_holds_only_the_adjudicator_namespace(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"adjudicator", next(t for t in tops if t.endswith(".dist-info"))}
    for needed in ("adjudicator/cli/main.py", "adjudicator/replays/web/app.py",
                   "adjudicator/replays/web/static/viewer.js", "adjudicator/games/colossi/data/cards.json",
                   "adjudicator/games/colossus_order/data/sample.toml", "adjudicator/games/kolossus/data/zikkurat-11.toml",
                   "adjudicator/games/logos/data/sample.toml", "adjudicator/__main__.py"):
        assert needed in names, needed


def test_wheel_in_a_fresh_virtualenv_verifies_an_example(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    # the dependencies come from this machine's site-packages; the project only from the wheel
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    if sys.prefix != sys.base_prefix:
        # the tests run inside a virtual environment (README's set-up): its site-packages hold the
        # dependencies, not the base interpreter's.  A path line in a .pth file adds the folder but
        # runs none of the .pth files in it, so the editable install of the project stays out.
        import sysconfig
        deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        (site / "zz-test-dependencies.pth").write_text("".join(f"{d}\n" for d in sorted(deps)))
    assert (site / "adjudicator" / "cli").is_dir()
    assert not (site / "cli").exists() and not (site / "replays").exists() and not (site / "recorder").exists()
    example = ROOT / "examples" / "kolossus" / "legal-chapter-3.jsonl"
    where = subprocess.run([str(py), "-c", "import adjudicator; print(adjudicator.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(venv)), where
    r = subprocess.run([str(venv / "bin" / "adjudicator"), "verify", str(example)], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "legal (430 events, kolossus" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([str(py), "-m", "adjudicator", "games"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and "colossus-order" in r.stdout, r.stderr
