"""The built wheel works outside the clone: networks, baselines, template and prompts inside it.

The wheel is built from this tree and installed into a new virtual environment in a temporary
folder, without reaching the network: the wheel with ``--no-deps``, its dependencies seen through
a ``.pth`` line naming this environment's site-packages. Every command then runs from an empty
folder, with the user's agents in ``./agents``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.paths import ROOT

INSTANCE = {
    "network": "france",
    "vehicles": [{"home": "Paris", "capacity": 30, "cost_per_km": 5}],
    "tasks": [{"id": 0, "pickup": "Lyon", "delivery": "Brest", "weight": 4}],
}
#: A reply pasted from a chat window: a student-grade agent in a code block.
REPLY = textwrap.dedent(
    '''
    Here is the agent.

    ```python
    from apdp import Agent, Stop, plan_from_stops


    class Pasted(Agent):
        def bid(self, task):
            return 5000.0

        def plan(self, vehicles, tasks):
            stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
            return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
    ```
    '''
)


def _build_wheel(out: Path) -> Path:
    try:
        import hatchling  # noqa: F401  # the build backend, used without build isolation
    except ImportError:
        pytest.fail("hatchling is not installed: pip install -e '.[test]'")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=120,
    )
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    (wheel,) = out.glob("apdp-*.whl")
    return wheel


def _venv_with(wheel: Path, where: Path) -> Path:
    """A new environment holding the wheel; its dependencies are this environment's."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=60)
    python = where / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip())
    (site / "_apdp_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
         "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=120,
    )
    assert install.returncode == 0, install.stdout[-2000:] + install.stderr[-2000:]
    return where / "bin"


def test_the_wheel_plays_reports_plans_and_prompts_from_an_empty_folder(tmp_path: Path) -> None:
    had_build = (ROOT / "build").exists()
    wheel = _build_wheel(tmp_path / "dist")
    assert had_build or not (ROOT / "build").exists(), "building the wheel left build/ in the tree"
    bin_dir = _venv_with(wheel, tmp_path / "venv")
    home = tmp_path / "empty"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "APDP_AGENTS", "APDP_TOPOLOGIES", "VIRTUAL_ENV")}

    def apdp(*args: str) -> subprocess.CompletedProcess[str]:
        run = subprocess.run([str(bin_dir / "apdp"), *args], cwd=home, env=env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, f"apdp {' '.join(args)}:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
        return run

    where = subprocess.run([str(bin_dir / "python"), "-c", "import apdp, apdp.baselines; print(apdp.__file__, "
                            "apdp.baselines.__file__)"], cwd=home, env=env, capture_output=True, text=True)
    assert str(tmp_path / "venv") in where.stdout and str(ROOT) not in where.stdout, where.stdout
    with zipfile.ZipFile(wheel) as archive:  # one import name, nothing else beside it
        tops = {name.split("/")[0] for name in archive.namelist() if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"apdp"}, tops

    assert apdp("--version").stdout.strip().startswith("apdp ")
    played = apdp("match", "--topology", "france", "--agents", "naive", "template", "--tasks", "3",
                  "--seed", "1", "--quiet", "--record", "m.json")
    assert "winner" in played.stdout or "no winner" in played.stdout
    assert json.loads((home / "m.json").read_text())["result"]["faults"] == [], (home / "m.json").read_text()[-3000:]

    apdp("codegen", "prompt", "--strategy", "a1", "--out", "prompt.md")
    assert "class Template(Agent)" in (home / "prompt.md").read_text()  # the template, verbatim

    (home / "reply.md").write_text(REPLY)
    apdp("codegen", "ingest", "reply.md", "--name", "pasted", "--model", "m", "--strategy", "a1")
    assert (home / "agents" / "pasted.py").is_file()
    mine = apdp("match", "--topology", "ch", "--agents", "pasted", "naive", "--tasks", "2", "--seed", "2",
                "--quiet", "--record", "mine.json")
    assert "pasted" in mine.stdout
    assert json.loads((home / "mine.json").read_text())["result"]["faults"] == []

    checked = apdp("codegen", "check", "pasted", "--tasks", "3", "--opponent", "template", "--topology", "ch")
    assert "pasted" in checked.stdout

    apdp("new", "me")
    assert "class Me(Agent)" in (home / "agents" / "me.py").read_text()
    apdp("verify", "m.json")

    (home / "instance.json").write_text(json.dumps(INSTANCE))
    assert apdp("plan", "instance.json", "--time-limit", "0.2").stdout.startswith("cost: ")

    apdp("tournament", "--topology", "ch", "--agents", "me,pasted,naive", "--tasks", "2", "--seed", "3",
         "--out", "results/t", "--quiet", "--jobs", "1")
    report = apdp("report", "results/t", "--format", "json")
    assert all(name in report.stdout for name in ("me", "pasted", "naive"))
