"""Tournaments on a Ray cluster: the same stored matches as locally, also after a resume, and a
killed Ray worker neither loses nor doubles a match.

One small local cluster (2 CPUs, loopback only, no dashboard) serves the module's tests in each
pytest worker process and is stopped at its end.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apdp.referee.record import without_timing
from apdp.referee.record_format import MatchRecord
from apdp.tournament.config import make_config
from apdp.tournament.events import TournamentEvents
from apdp.tournament.ray_executor import RayCluster
from apdp.tournament.run import run_tournament
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.store import STORE_FILE, ResultsStore
from tests.matches import assert_one_core_per_match, folder_agent
from tests.namesakes import plant_namesakes
from tests.paths import PROGRAMS, ROOT, ZOO

KEY = bytes(range(32))
APDP = [sys.executable, "-c", "from apdp.cli import console; console()"]

#: Its first setup anywhere (a file made with O_EXCL) tells the test its pid and waits to be killed.
VICTIM = '''
import os
import time

from template import Template

GATE = {gate!r}


class Victim(Template):
    def setup(self, topology, distribution, company):
        try:
            os.close(os.open(os.path.join(GATE, "victim"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            pass
        else:
            with open(os.path.join(GATE, "pid"), "w") as f:
                f.write(str(os.getpid()))
            deadline = time.monotonic() + 60
            while not os.path.exists(os.path.join(GATE, "killed")) and time.monotonic() < deadline:
                time.sleep(0.05)
        super().setup(topology, distribution, company)
'''


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a local two-CPU Ray cluster listening on loopback."""
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # loopback: read when ray is imported
    try:
        from ray.cluster_utils import Cluster
    except ImportError:
        pytest.fail("Ray is not installed: pip install -e '.[test]'")
    started = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
    try:
        assert started.address.startswith("127.0.0.1:"), started.address
        yield started.address
    finally:
        started.shutdown()


@pytest.fixture
def field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of agents on APDP_AGENTS: a copy of the template, an agent program that builds (C),
    and the victim."""
    folder = tmp_path / "agents"
    folder.mkdir()
    shutil.copy(ROOT / "agents" / "template.py", folder / "template.py")
    shutil.copy(ROOT / "agents" / "template.py", folder / "alpha.py")
    shutil.copytree(PROGRAMS / "c_abstain", folder / "c-abstain",
                    ignore=shutil.ignore_patterns(".build"))
    gate = tmp_path / "gate"
    gate.mkdir()
    folder_agent(folder, "victim", VICTIM.format(gate=str(gate)))
    for name in ("core_a.py", "core_b.py"):
        shutil.copy(ZOO / "core_bidder.py", folder / name)
    monkeypatch.setenv("APDP_AGENTS", str(folder))
    return folder


def records(folder: Path) -> dict[str, dict[str, Any]]:
    """Every stored match's record, less what differs from run to run (timing, output, sandbox)."""
    store = ResultsStore.open(folder)
    try:
        out = {}
        for m in store.matches():
            record = store.record(m.match_id)
            assert record is not None
            out[m.match_id] = {k: v for k, v in without_timing(record).items() if k != "output"}
        return out
    finally:
        store.close()


def rows(folder: Path) -> int:
    with contextlib.closing(sqlite3.connect(folder / STORE_FILE)) as db:
        count: int = db.execute("SELECT count(*) FROM matches").fetchone()[0]
        return count


def test_a_tournament_on_ray_equals_the_local_one(cluster: str, field: Path, tmp_path: Path) -> None:
    config = make_config(topology="france", agents=["template", "alpha", "c-abstain", "honest"],
                         overrides={"tasks": 6})
    local = run_tournament(config, tmp_path / "local", jobs=2, progress=False, secret=KEY)
    ray = run_tournament(config, tmp_path / "ray", jobs=2, progress=False, secret=KEY, ray=RayCluster(cluster))
    assert local.played == ray.played == 12 and local.errors == ray.errors == 0
    on_ray = records(tmp_path / "ray")
    assert on_ray == records(tmp_path / "local")
    assert rows(tmp_path / "ray") == 12
    assert all(not r["result"]["faults"] for r in on_ray.values())  # the C agent was built on the worker


def test_a_match_on_ray_plays_on_a_core_of_its_own(cluster: str, field: Path, tmp_path: Path) -> None:
    config = make_config(topology="france", agents=["core-a", "core-b"], overrides={"tasks": 3})
    summary = run_tournament(config, tmp_path / "ray", jobs=2, progress=False, ray=RayCluster(cluster))
    assert summary.played == 2 and summary.errors == 0
    assert_one_core_per_match(tmp_path / "ray", 2)


class _StopAfter(TournamentEvents):
    """Interrupts the run (as Ctrl-C would) once ``count`` matches are stored."""

    def __init__(self, count: int) -> None:
        self.count = count

    def on_match_finished(self, match: MatchSpec, record: MatchRecord) -> None:
        self.count -= 1
        if self.count == 0:
            raise KeyboardInterrupt


def test_an_interrupted_ray_run_resumes_to_the_local_results(cluster: str, field: Path, tmp_path: Path) -> None:
    config = make_config(topology="switzerland", agents=["template", "alpha", "naive"], overrides={"tasks": 5})
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, tmp_path / "ray", jobs=2, progress=False, secret=KEY, ray=RayCluster(cluster),
                       observers=[_StopAfter(2)])
    stored = rows(tmp_path / "ray")
    assert 2 <= stored < 6
    resumed = run_tournament(config, tmp_path / "ray", jobs=2, progress=False, secret=KEY, ray=RayCluster(cluster))
    assert (resumed.skipped, resumed.played, resumed.errors) == (stored, 6 - stored, 0)
    run_tournament(config, tmp_path / "local", jobs=1, progress=False, secret=KEY)
    assert records(tmp_path / "ray") == records(tmp_path / "local")
    assert rows(tmp_path / "ray") == 6


def _ray_worker_of(pid: int) -> int:
    """The Ray worker process above an agent process (agent -> zygote -> worker)."""
    for _ in range(5):
        with open(f"/proc/{pid}/stat") as f:
            pid = int(f.read().rsplit(")", 1)[1].split()[1])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        if b"ray::" in cmdline or b"default_worker" in cmdline:
            return pid
    raise AssertionError("no Ray worker above the agent process")


def test_a_killed_ray_worker_loses_and_doubles_no_match(cluster: str, field: Path, tmp_path: Path) -> None:
    # The victim plays unconfined (it writes to the test's folder); its first setup waits until
    # its Ray worker is killed; Ray plays that match again on another worker.
    config = make_config(topology="france", agents=["template", "victim", "alpha"],
                         overrides={"tasks": 5, "limits.sandbox": False, "timeouts.setup": 120.0})
    gate = tmp_path / "gate"
    killed: list[int] = []

    def kill_the_victims_worker() -> None:
        deadline = time.monotonic() + 120
        while not (gate / "pid").is_file() or not (gate / "pid").read_text():
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)
        worker = _ray_worker_of(int((gate / "pid").read_text()))
        os.kill(worker, signal.SIGKILL)
        killed.append(worker)
        (gate / "killed").touch()

    killer = threading.Thread(target=kill_the_victims_worker, daemon=True)
    killer.start()
    summary = run_tournament(config, tmp_path / "ray", jobs=2, progress=False, secret=KEY, ray=RayCluster(cluster))
    killer.join(timeout=5)
    assert killed, "the victim never started"
    assert (summary.played, summary.errors) == (6, 0)
    assert rows(tmp_path / "ray") == 6
    run_tournament(config, tmp_path / "local", jobs=2, progress=False, secret=KEY)
    assert records(tmp_path / "ray") == records(tmp_path / "local")


def test_the_command_runs_on_a_cluster_and_says_what_is_wrong_in_one_line(
    cluster: str, field: Path, tmp_path: Path
) -> None:
    base = ["tournament", "--topology", "france", "--agents", "template,alpha", "--tasks", "3", "--quiet"]
    # run from a folder of modules' namesakes: Ray puts the driver's working folder on its workers' path
    here, marks = tmp_path / "namesakes", tmp_path / "marks"
    plant_namesakes(here, marks)
    command = [str(Path(sys.executable).with_name("apdp")), *base]  # the installed command: no -c path of its own
    run = subprocess.run([*command, "--executor", "ray", "--address", cluster, "--out", str(tmp_path / "a")],
                         capture_output=True, text=True, timeout=300, cwd=here)
    assert run.returncode == 0, run.stderr
    assert "2 matches in" in run.stdout and rows(tmp_path / "a") == 2
    assert sorted(p.name for p in marks.iterdir()) == []
    for extra, words in [
        (["--executor", "nope"], "--executor must be local or ray"),
        (["--address", "auto"], "--address is for --executor ray"),
        (["--executor", "ray", "--address", "127.0.0.1:9"], "cannot use a Ray cluster at 127.0.0.1:9"),
    ]:
        bad = subprocess.run([*APDP, *base, *extra, "--out", str(tmp_path / "b")],
                             capture_output=True, text=True, timeout=300)
        assert bad.returncode == 2, bad.stderr
        assert bad.stderr.strip().splitlines() == [f"error: {bad.stderr.strip()[7:]}"] and words in bad.stderr


def test_without_ray_the_executor_says_how_to_install_it(tmp_path: Path) -> None:
    fake = tmp_path / "site" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), *sys.path])}
    run = subprocess.run([*APDP, "tournament", "--agents", "template,naive", "--executor", "ray", "--quiet",
                          "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: the Ray executor needs Ray: pip install 'apdp[ray]' (or pip install ray)"
    ]


def test_a_study_on_ray_stores_the_records_a_local_run_stores(cluster: str, field: Path, tmp_path: Path) -> None:
    """apdp study run --executor ray: its tournaments' matches play on the cluster, and the study's
    results hold the records of a local run (the same secret: the local study's folder, its matches
    taken out, run again on Ray)."""
    manifest = tmp_path / "study.toml"
    manifest.write_text('name = "on-ray"\nnetworks = ["france"]\nseeds = [1, 2]\ntasks = 4\n'
                        'timeouts = { bid = 2.0, plan = 4.0 }\nagents = ["template", "alpha", "c-abstain"]\n',
                        encoding="utf-8")
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    done = subprocess.run([*APDP, "study", "run", str(manifest), "--out", str(local), "--jobs", "2", "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    shutil.copytree(local, on_ray)
    with contextlib.closing(sqlite3.connect(on_ray / "results" / STORE_FILE)) as db, db:
        db.execute("DELETE FROM matches")
    done = subprocess.run([*APDP, "study", "run", str(manifest), "--out", str(on_ray), "--quiet",
                           "--executor", "ray", "--address", cluster], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    assert "12 match(es) played now" in done.stdout
    assert records(on_ray / "results") == records(local / "results") and rows(on_ray / "results") == 12


def test_a_node_without_the_jdk_of_a_java_agent_is_said_before_any_match(
    cluster: str, field: Path, tmp_path: Path
) -> None:
    """A Java agent names the JVM of the machine that installed it: a node that has none would lose
    every match of it; the run says so in one line and plays nothing."""
    from apdp.agents.java.install import MARKER
    from apdp.errors import UserError

    ghost = field / "ghost-java"
    ghost.mkdir()
    (ghost / "agent.toml").write_text(f'{MARKER}: class demo.Ghost.\ncommand = ["/nonexistent/jdk/bin/java", '
                                      '"-cp", "lib", "apdp.host.Main", "demo.Ghost"]\n', encoding="utf-8")
    config = make_config(topology="france", agents=["template", "ghost-java"], overrides={"tasks": 3})
    with pytest.raises(UserError) as raised:
        run_tournament(config, tmp_path / "ray", jobs=2, progress=False, ray=RayCluster(cluster))
    message = str(raised.value)
    assert "has no /nonexistent/jdk/bin/java, the JVM the Java agents ghost-java run on" in message
    assert "\n" not in message and rows(tmp_path / "ray") == 0
