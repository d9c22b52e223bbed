"""The sandbox's own checks: every protection is in force on this machine (CI's kind has Landlock,
user namespaces and seccomp), and a record says which were off."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apdp.cli import app
from apdp.referee.match import play_match
from apdp.referee.record import without_timing
from apdp.sandbox import cgroup
from apdp.sandbox import confine as confine_module
from apdp.sandbox import process as process_module
from apdp.sandbox.confine import PROC_FILES, PROC_FOLDERS, Confinement, confine
from apdp.sandbox.protections import check, unprotected, warning
from tests.matches import fast_scenario

#: Whether this user may make groups that count an agent's CPU (root; elsewhere an agent's CPU is its
#: process's own figures, and what its children do after it is paused is not seen: that check is off).
CPU_COUNTED_BY = cgroup.cpu_accounting() or "its process's own CPU"
CPU_GROUPS = cgroup.cpu_accounting() is not None


def test_every_protection_is_on_and_holds_when_tried() -> None:
    results = check()
    assert {p.name for p in results} >= {"read", "write", "disk", "signals", "ptrace", "network", "leftovers"}
    off = [] if CPU_GROUPS else ["ran_on"]
    assert [(p.name, p.status, p.detail) for p in results if p.status != "on" and p.name not in off] == []
    assert [p.name for p in results if p.status == "off"] == off
    assert unprotected() == ()
    assert warning() is None


def test_apdp_sandbox_prints_each_protection() -> None:
    result = CliRunner().invoke(app, ["sandbox"] if not CPU_GROUPS else ["sandbox", "--strict"])
    assert result.exit_code == 0, result.output
    assert "signalling other processes" in result.output
    assert ("28 on, 0 off, 0 failed" if CPU_GROUPS else "27 on, 1 off, 0 failed") in result.output
    assert "seeing other processes by their pid: a pidfd" in result.output
    assert "running on between its calls in the kernel" in result.output
    assert "running on after its pause, on its opponent's time" in result.output


@pytest.mark.skipif(not CPU_GROUPS, reason="only a cgroup counts what a paused agent's children use")
def test_the_ran_on_check_holds_when_the_work_left_runs_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a slower machine the check's leftover work runs past the limit: seen all the same, as a fault."""
    monkeypatch.setattr(process_module, "RAN_ON_LIMIT", 0.01)
    ran_on = next(p for p in check() if p.name == "ran_on")
    assert ran_on.status == "on" and "past the limit" in ran_on.detail, ran_on


def test_apdp_sandbox_names_what_counts_an_agents_cpu() -> None:
    row = next(line for line in CliRunner().invoke(app, ["sandbox"]).output.splitlines()
               if line.startswith("running on after its pause"))
    assert CPU_COUNTED_BY in row, row  # cgroup v2 cpu.stat per agent, cgroup v1 cpuacct per agent, or its own


def test_a_record_lists_the_protections_that_were_off() -> None:
    record = play_match(fast_scenario(tasks=2), ["template", "naive"], seed=1).to_json()
    assert record["sandbox"]["unprotected"] == []
    assert record["sandbox"]["cpu"].startswith(CPU_COUNTED_BY)  # and says what counted the agents' CPU
    assert "sandbox" not in without_timing(record)


def test_confinement_does_not_change_play() -> None:
    on = play_match(fast_scenario(tasks=10), ["honest", "naive"], seed=4).to_json()
    off = play_match(fast_scenario(tasks=10, limits={"sandbox": False}), ["honest", "naive"], seed=4).to_json()
    assert not on["result"]["faults"]
    assert without_timing(on) == without_timing(off)


def test_warning_names_what_is_off_in_one_line() -> None:
    line = warning(["signal and abstract socket scoping (Landlock ABI < 6)", "system call filter"])
    assert line is not None and "\n" not in line
    assert "signal and abstract socket scoping" in line and "apdp sandbox" in line


def test_the_private_folder_is_tmp_capped_and_the_agents_own(tmp_path: Path) -> None:
    token = os.urandom(6).hex()
    filler = tmp_path / "filler.py"
    filler.write_text(
        "import os\n"
        "from apdp import Agent\n"
        "class Filler(Agent):\n"
        "    def setup(self, topology, distribution, company):\n"
        "        print('private', os.getcwd(), os.environ['HOME'], os.environ['TMPDIR'])\n"
        "        try:\n"
        "            for i in range(8):\n"
        f"                with open(f'/tmp/fill-{token}-{{i}}', 'wb') as f:\n"
        "                    f.write(b'x' * (16 << 20))\n"
        "        except OSError as exc:\n"
        "            print('stopped:', exc.strerror)\n"
        "        try:\n"
        "            open(__file__, 'a').close()\n"
        "        except OSError as exc:\n"
        "            print('own file:', exc.strerror)\n"
        "    def bid(self, task):\n"
        "        return None\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    record = play_match(fast_scenario(tasks=2, limits={"disk_mb": 32}), [str(filler), "template"], seed=1).to_json()
    output = record["output"][0]
    assert "private /tmp /tmp /tmp" in output  # cwd, $HOME and $TMPDIR
    assert "stopped: No space left on device" in output
    assert "own file: Read-only file system" in output
    assert not record["result"]["faults"]
    assert not list(Path("/tmp").glob(f"fill-{token}-*"))  # the host's /tmp saw none of it


def test_an_agent_sees_the_minimal_environment_and_nothing_of_the_referees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apdp.sandbox.environment import BASE_ENVIRONMENT

    monkeypatch.setenv("APDP_TEST_REFEREE_SECRET", "do-not-show")
    reader = tmp_path / "reader.py"
    reader.write_text(
        "import json, os\n"
        "from apdp import Agent\n"
        "class Reader(Agent):\n"
        "    def setup(self, topology, distribution, company):\n"
        "        raw = open('/proc/self/environ', 'rb').read().split(b'\\0')\n"
        "        seen = dict(v.decode().split('=', 1) for v in raw if v)\n"
        "        print('environ', json.dumps([dict(os.environ), seen]))\n"
        "    def bid(self, task):\n"
        "        return None\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    record = play_match(fast_scenario(tasks=2), [str(reader), "template"], seed=1).to_json()
    line = next(x for x in record["output"][0].splitlines() if x.startswith("environ "))
    python_env, process_env = json.loads(line.removeprefix("environ "))
    wanted = {**BASE_ENVIRONMENT, "HOME": "/tmp", "TMPDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1"}
    if "PYTHONPATH" in python_env:  # an editable install: apdp reached through a link in /tmp
        wanted["PYTHONPATH"] = "/tmp/.apdp-python"
    assert python_env == wanted
    # what the kernel shows is what the process was started with (the zygote's), not the referee's
    assert "APDP_TEST_REFEREE_SECRET" not in process_env and "APDP_TEST_REFEREE_SECRET" not in python_env


def test_an_agent_process_loads_no_configuration_schema(tmp_path: Path) -> None:
    # its distribution arrives as plain values: pydantic (8 MB in every agent process) stays the referee's
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import sys\n"
        "from apdp import Agent\n"
        "class Probe(Agent):\n"
        "    def setup(self, topology, distribution, company):\n"
        "        print('loaded', 'pydantic' in sys.modules, distribution.expected_weight())\n"
        "    def bid(self, task):\n"
        "        return None\n"
        "    def plan(self, vehicles, tasks):\n"
        "        print('loaded', 'pydantic' in sys.modules)\n"
        "        return [[] for _ in vehicles]\n"
    )
    record = play_match(fast_scenario(tasks=2), [str(probe), "template"], seed=1).to_json()
    assert [x for x in record["output"][0].splitlines() if x.startswith("loaded")] == [
        "loaded False 5.5", "loaded False"]


def _confine_in_child(tmp_path: Path, patch: Callable[[], None]) -> list[str]:
    """confine() in a forked child after ``patch`` (a machine without some mechanism); its report."""
    private = tmp_path / "private"
    private.mkdir()
    pool = cgroup.Pool()  # as root, the process limit is a pids group the zygote would give
    cgroup.assigned = pool.take(16, 256 << 20)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            patch()
            off = confine(write_end, Confinement(__file__, str(private), 8 << 20, 16, 64, 1 << 20))
            os.write(write_end, json.dumps(off).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    cgroup.assigned = None
    pool.close()
    return list(json.loads(data))


def test_a_machine_without_landlock_or_user_namespaces_still_plays_and_says_so(tmp_path: Path) -> None:
    def no_mechanisms() -> None:
        def refuse(flags: int) -> None:
            raise OSError(1, "unshare: Operation not permitted")

        confine_module.landlock.abi_version = lambda: 0  # type: ignore[method-assign]
        confine_module.unshare = refuse
        confine_module.seccomp.supported = lambda: False  # type: ignore[method-assign]

    off = _confine_in_child(tmp_path, no_mechanisms)
    assert any("Landlock missing" in o for o in off)
    assert any("size cap" in o for o in off)
    assert any("system call filter" in o for o in off)
    line = warning(off)
    assert line is not None and "\n" not in line


def test_this_machine_reports_nothing_off(tmp_path: Path) -> None:
    assert _confine_in_child(tmp_path, lambda: None) == []


def test_a_tournament_says_once_which_protections_its_records_found_off() -> None:
    from apdp.tournament.sandbox_notice import SandboxNotice
    from apdp.tournament.schedule import MatchSpec
    from tests.records import typed_record

    said: list[str] = []
    notice = SandboxNotice(said.append)
    match = MatchSpec("france", 0, 1, ("a", "b"))
    notice.on_match_finished(match, typed_record({"sandbox": {"unprotected": []}}))
    assert said == []
    for _ in range(3):
        off = typed_record({"sandbox": {"unprotected": ["system call filter (no seccomp table)"]}})
        notice.on_match_faulted(match, off)
    assert len(said) == 1 and "system call filter" in said[0] and "apdp sandbox" in said[0]


PONDERER = '''
import threading
import time

from apdp import Agent, Stop, plan_from_stops

stamps = []


def _ponder():
    while True:
        stamps.append(time.monotonic())
        time.sleep(0.002)


class Ponderer(Agent):
    """Leaves a thread running that notes the time every 2 ms; bids 1000 plus the longest pause of
    that thread, in ms, since this agent's previous bid ended."""

    ended = None

    def bid(self, task):
        now = time.monotonic()
        if self.ended is None:
            threading.Thread(target=_ponder, daemon=True).start()
            pause = 0.0
        else:
            times = [self.ended, *(s for s in stamps[-5000:] if self.ended < s < now), now]
            pause = max(later - earlier for earlier, later in zip(times, times[1:]))
        self.ended = time.monotonic()
        return 1000.0 + round(pause * 1000)

    def plan(self, vehicles, tasks):
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
'''

SLOW = '''
import time

from apdp import Agent


class Slow(Agent):
    def bid(self, task):
        time.sleep(0.5)
        return None

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''


def test_an_agents_threads_do_not_run_while_its_opponent_plays(tmp_path: Path) -> None:
    """Confined, the ponderer is paused from its reply until its next request, the whole time its
    opponent sleeps (0.5 s): its thread pauses that long, however busy the machine. Not confined,
    the thread goes on ticking: its longest pause is a scheduling delay, far shorter."""
    (tmp_path / "ponderer.py").write_text(PONDERER)
    (tmp_path / "slow.py").write_text(SLOW)
    agents = [str(tmp_path / "ponderer.py"), str(tmp_path / "slow.py")]
    paused = {}
    for sandbox in (True, False):
        record = play_match(fast_scenario(tasks=3, limits={"sandbox": sandbox}), agents, seed=2).to_json()
        assert not record["result"]["faults"], record["result"]["faults"]
        paused[sandbox] = [a["bids"][0] - 1000 for a in record["auctions"][1:]]  # ms
    assert min(paused[True]) >= 450, paused  # 500 ms, less what a stop signal may take to land
    assert max(paused[False]) < 250, paused


@pytest.mark.parametrize("controller", ["pids", "memory", "cpu"])
def test_groups_of_dead_zygotes_are_removed_and_never_collide(controller: str) -> None:
    base = cgroup._base(controller)
    if os.getuid() != 0 or base is None:
        pytest.skip(f"{controller} groups are for a root referee with a writable {controller} cgroup")
    dead = os.fork()
    if dead == 0:  # pragma: no cover
        os._exit(0)
    os.waitpid(dead, 0)
    leftover = Path(base, f"apdp-{dead}-1")  # a zygote killed outright leaves its empty group
    leftover.mkdir()
    taken = Path(base, f"apdp-{os.getpid()}-1")  # a dead zygote that had this process's pid
    taken.mkdir()
    pool = cgroup.Pool()
    try:
        assert not leftover.exists()
        group = pool.take(8, 128 << 20)
        assert group is not None
        mine = getattr(group, controller)
        assert mine is not None and Path(mine) != taken and Path(mine).parent == Path(base)
    finally:
        pool.close()
        taken.rmdir()


def test_an_agents_process_holds_no_descriptor_but_its_streams_and_its_conversation(tmp_path: Path) -> None:
    """The zygote's sockets and the rules it opened once are closed before any agent code runs."""
    lister = tmp_path / "lister.py"
    lister.write_text(
        "import json, os\n"
        "from apdp import Agent\n"
        "class Lister(Agent):\n"
        "    def setup(self, topology, distribution, company):\n"
        "        seen = {}\n"
        "        for fd in sorted(os.listdir('/proc/self/fd'), key=int):\n"
        "            try:\n"
        "                seen[fd] = os.readlink(f'/proc/self/fd/{fd}')\n"
        "            except OSError:\n"
        "                pass  # the listing's own descriptor, closed by now\n"
        "        print('descriptors', json.dumps(seen), os.getpid())\n"
        "    def bid(self, task):\n"
        "        return None\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    record = play_match(fast_scenario(), [str(lister), "naive"], seed=1).to_json()
    line = next(line for line in record["output"][0].splitlines() if line.startswith("descriptors"))
    listing, pid = line.removeprefix("descriptors ").rsplit(" ", 1)
    seen = json.loads(listing)
    beyond_streams = [target for fd, target in seen.items() if int(fd) > 2]
    # and its own /proc files, held open so that its rules keep naming them (see confine)
    own = [t for t in beyond_streams if t in {f"/proc/{pid}/{name}" for name in (*PROC_FILES, *PROC_FOLDERS)}]
    conversation = [t for t in beyond_streams if t not in own]
    assert len(conversation) == 1 and conversation[0].startswith("socket:"), seen


WRITER = '''
import os

from apdp import Agent


class Writer(Agent):
    def setup(self, topology, distribution, company):
        os.makedirs("config", exist_ok=True)
        with open("config/settings_default.xml", "w") as f:  # as a Logist agent's host writes its settings
            f.write("<settings/>")
        print("wrote in", os.getcwd(), flush=True)

    def bid(self, task):
        return None

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''


@pytest.mark.parametrize("sandbox", [True, False])
def test_what_an_agent_writes_beside_it_stays_in_its_own_folder(
        sandbox: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Confined or not, an agent works in a folder of its own, removed after its match: a file it
    writes beside it (a Logist agent's settings) never lands where the referee runs."""
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "writer.py").write_text(WRITER)
    monkeypatch.chdir(tmp_path)
    record = play_match(fast_scenario(tasks=2, limits={"sandbox": sandbox}), ["agents/writer.py", "naive"],
                        seed=1).to_json()
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert not (tmp_path / "config").exists()
    folder = record["output"][0].split("wrote in ", 1)[1].split()[0]
    assert folder != str(tmp_path)
    if not sandbox:  # its own folder, removed by the zygote once its process is gone
        end = time.monotonic() + 30
        while Path(folder).exists() and time.monotonic() < end:
            time.sleep(0.05)
        assert folder.startswith(tempfile.gettempdir()) and not Path(folder).exists(), folder


def test_a_memory_group_still_charged_is_never_handed_to_another_agent(tmp_path: Path) -> None:
    """What an agent's processes leave charged to its group once gone (here: lookups of missing names,
    kernel objects no process holds) would be reclaimed in the next agent's calls: a group charged for
    more than REUSED_CHARGES_MOST is removed, and the next agent gets a new one; a clean one is reused."""
    pool = cgroup.Pool()
    if os.getuid() != 0 or not pool.memory:
        pytest.skip("memory groups are for a root referee with a writable memory cgroup")
    try:
        used = []
        missing = f"import os\nfor i in range(120000): os.path.exists('{tmp_path}/%0200d' % i)"
        for code in ("pass", missing):
            group = pool.take(16, 1 << 30)
            assert group is not None and group.memory is not None
            pid = os.fork()
            if pid == 0:  # pragma: no cover - joins the group, then runs the code
                with open(os.path.join(group.memory, "tasks" if cgroup.is_v1(group.memory) else "cgroup.procs"),
                          "w") as f:
                    f.write(str(os.getpid()))
                os.execv(sys.executable, [sys.executable, "-c", code])
            os.waitpid(pid, 0)
            used.append((group.memory, cgroup._charged(group.memory)))
            pool.give_back(group)
        (clean, _), (filled, charged) = used
        assert clean == filled  # the clean one was reused
        assert charged is not None and charged > cgroup.REUSED_CHARGES_MOST, used
        again = pool.take(16, 1 << 30)
        assert again is not None and again.memory != filled and not os.path.exists(filled)
        assert (cgroup._charged(again.memory) or 0) < cgroup.REUSED_CHARGES_MOST
    finally:
        pool.close()
