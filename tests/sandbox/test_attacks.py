"""The attacker zoo (issue 8): each attack of an untrusted agent gains nothing.

``tests/data/zoo/attacker.py`` plays like the template and tries one attack, chosen by its ``mode``
parameter. For each attack, in both seats, the match must come out as if the attack were off
(``mode = "none"``): the opponent is not faulted, ``verify_record`` accepts the record, the record
minus ``timing`` and ``output`` equals the one without the attack, nothing outside the agent's
private folder was created or changed, no secret (the referee's environment, the match seed, the
key) and no future task appears in what the agent printed, and no process it started is left.

Single matches run in a referee process of their own (``RUNNER``), so that an attack on the referee
hits that process, never pytest. The destructive attacks are guarded (see the attacker's docstring):
unless the sandbox is on *and* really keeps the agent from signalling this process, they only target
the referee process this test started and its descendants, and write at most 64 MiB to /tmp.

``APDP_ZOO_SANDBOX_OFF=1 pytest tests/sandbox/test_attacks.py`` plays every match with ``limits.sandbox =
false``: the (guarded) attacks then succeed and most of these tests must fail, which shows that
each check can see its attack.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import apdp
from apdp.agents.discovery import PROJECT_ROOT
from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from apdp.tournament.config import make_config
from apdp.tournament.run import run_tournament
from apdp.tournament.store import STORE_FILE
from tests.matches import fast_scenario
from tests.paths import ZOO

ATTACKER = str(ZOO / "attacker.py")
OPPONENT = "honest"
#: A match seed long enough that its decimal digits found in an output can only be a leak.
BIG_SEED = 4_815_162_342_108
#: A small public seed: what a brute force of the agent's own generator would find at once.
SMALL_SEED = 3
KEY = bytes.fromhex("9c4f1e27b3a85d60e17f2c94ab03d85e6f1a2b3c4d5e6f708192a3b4c5d6e7f8")
TIMEOUTS = {"setup": 3.0, "bid": 2.0, "plan": 3.0}
#: Seconds the referee process has for a whole match before the test says it hangs.
REFEREE_TIMEOUT = 10.0
GRACE = 3.0  # seconds for the processes an agent started to be gone after its match
#: Lines of the attacker's output that show it got something (see tests/data/zoo/attacker.py).
GAINS = ("GOT ", "SIGNALLED ", "WRITABLE ", "CONNECTED ", "SENT ", "FOUND ", "CHANGED ")

RUNNER = """
import json, socket, sys
from apdp.referee.match import play_match
from apdp.scenario import make_scenario

with open(sys.argv[1]) as f:
    job = json.load(f)
hits = []

def probe(task, bids, winner):
    port = job.get("probe_port")
    if port:
        s = socket.socket()
        s.settimeout(0.2)
        try:
            s.connect(("127.0.0.1", port))
            hits.append(task.id)
        except OSError:
            pass
        finally:
            s.close()

record = play_match(make_scenario(job["scenario"]), job["agents"], seed=job["seed"], on_auction=probe).to_json()
with open(job["out"], "w") as f:
    json.dump({"record": record, "probe_hits": hits}, f)
"""


def sandbox_on() -> bool:
    """Whether every protection of the sandbox is in force here (then the attacker goes all out).

    ``APDP_ZOO_SANDBOX_OFF=1`` plays every match with the sandbox off (``limits.sandbox = false``):
    the attacks, guarded, then succeed, and these tests must fail (the zoo has teeth).
    """
    if os.environ.get("APDP_ZOO_SANDBOX_OFF"):
        return False
    try:
        from apdp.sandbox import protections
    except ImportError:
        return False
    if callable(protections):  # an older or newer shape: protections() -> what is in force
        found = protections()
        values = list(found.values()) if isinstance(found, Mapping) else found
        return bool(values) and all(getattr(v, "status", v) in (True, "on") for v in values)
    unprotected = getattr(protections, "unprotected", None)
    try:
        return unprotected is not None and not unprotected()
    except Exception:  # the check itself failed: treat the sandbox as off (guarded attacks)
        return False


SANDBOX = sandbox_on()
LIMITS: dict[str, Any] = {"output_kb": 256}
if os.environ.get("APDP_ZOO_SANDBOX_OFF"):
    LIMITS["sandbox"] = False


# ---------------------------------------------------------------------------------------- helpers
def strip(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record without what may differ between two runs of the same match."""
    return {k: v for k, v in record.items() if k not in ("timing", "output")}


def read_proc(pid: str, what: str) -> bytes:
    with open(f"/proc/{pid}/{what}", "rb") as f:
        return f.read()


def marked_processes(token: str) -> list[str]:
    """Live processes carrying ``token`` in their name, command line or (``APDP_ZOO_TREE``) environment."""
    tag = f"APDP_ZOO_TREE={token}".encode()
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            stat = read_proc(pid, "stat").decode("utf-8", "replace")
            if stat[stat.rindex(")") + 2] == "Z":
                continue  # a zombie is gone, it only waits to be reaped
            comm = read_proc(pid, "comm").decode("utf-8", "replace").strip()
            cmd = read_proc(pid, "cmdline").replace(b"\0", b" ").decode("utf-8", "replace")
            env = read_proc(pid, "environ")
        except (OSError, ValueError, IndexError):
            continue
        if token in comm or token in cmd or tag in env:
            found.append(f"{pid} ({comm}) {cmd[:120]}")
    return found


def leftovers(token: str, grace: float = GRACE) -> list[str]:
    """The processes still carrying ``token`` once ``grace`` seconds have passed (or none earlier)."""
    end = time.monotonic() + grace
    while True:
        left = marked_processes(token)
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.1)


def kill_marked(token: str) -> None:
    for line in marked_processes(token):
        with contextlib.suppress(OSError):
            os.kill(int(line.split()[0]), signal.SIGKILL)


def lines(record: Mapping[str, Any], index: int) -> list[str]:
    return str(record["output"][index]).splitlines()


def tasks_of(record: Mapping[str, Any]) -> list[tuple[str, str, float]]:
    return [(t["pickup"], t["delivery"], float(t["weight"])) for t in record["tasks"]]


@dataclass
class World:
    """One test's secrets, paths and token (unique in file names and process markers)."""

    token: str
    tmp: Path
    key_file: Path
    victim: Path
    host_tmp: Path
    openai: str
    secret: str
    reported: list[str] = field(default_factory=list)
    #: The test process's priority and open-file limits before the attack.
    scheduling: tuple[int, tuple[int, int]] = field(
        default_factory=lambda: (os.getpriority(os.PRIO_PROCESS, 0), resource.getrlimit(resource.RLIMIT_NOFILE)))

    @property
    def tree_marker(self) -> str:
        return f"apdp-zoo-referee-{self.token}"

    @property
    def sentinel(self) -> str:
        return f"apdp-zoo-{self.token}.txt"

    def sentinel_dirs(self) -> list[Path]:
        """Every folder outside the agent's private one that the attacker tries to write in."""
        return [PROJECT_ROOT / "agents", Path(apdp.__file__).parent, Path(sysconfig.get_paths()["purelib"]),
                Path(os.path.expanduser("~")), Path(tempfile.gettempdir()), self.host_tmp, Path("/dev/shm"),
                Path.cwd(), ZOO]

    def params(self, mode: str, **extra: Any) -> dict[str, Any]:
        params: dict[str, Any] = {
            "mode": mode, "token": self.token, "wide": SANDBOX, "test_pid": os.getpid(),
            "tree_marker": self.tree_marker, "home": os.path.expanduser("~"), "host_tmp": str(self.host_tmp),
            "agents_dir": str(PROJECT_ROOT / "agents"), "victim": str(self.victim),
            "key_file": str(self.key_file),
        }
        params.update(extra)
        return params

    def secrets(self, seed: int) -> dict[str, str]:
        found = {"OPENAI_API_KEY": self.openai, "APDP_ZOO_SECRET": self.secret, "the key": KEY.hex()}
        if seed >= 10**6:
            found["the match seed"] = str(seed)
        return found


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    token = secrets.token_hex(6)
    key_file = tmp_path / "key"
    key_file.write_text(KEY.hex() + "\n")
    key_file.chmod(0o600)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    victim.chmod(0o644)
    host_tmp = tmp_path / "host-tmp"
    host_tmp.mkdir()
    w = World(token, tmp_path, key_file, victim, host_tmp, f"sk-zoo-{token}-openai", f"zoo-secret-{token}")
    monkeypatch.setenv("OPENAI_API_KEY", w.openai)
    monkeypatch.setenv("APDP_ZOO_SECRET", w.secret)
    monkeypatch.setenv("APDP_SECRET_FILE", str(key_file))
    try:
        yield w
    finally:
        kill_marked(token)
        for folder in w.sentinel_dirs():
            with contextlib.suppress(OSError):
                (folder / w.sentinel).unlink()
            shutil.rmtree(folder / f"apdp-zoo-disk-{token}", ignore_errors=True)
        for path in w.reported:
            if token in path:
                shutil.rmtree(path, ignore_errors=True)
                with contextlib.suppress(OSError):
                    os.unlink(path)


def scenario_data(params: Mapping[str, Any]) -> dict[str, Any]:
    return {"tasks": 8, "timeouts": dict(TIMEOUTS), "limits": dict(LIMITS),
            "agents": {"attacker": dict(params)}}


def seats(first: bool) -> tuple[list[str], int]:
    """The agents in company order, and the attacker's index."""
    return ([ATTACKER, OPPONENT], 0) if first else ([OPPONENT, ATTACKER], 1)


_baselines: dict[tuple[bool, int], dict[str, Any]] = {}


def baseline(first: bool, seed: int) -> dict[str, Any]:
    """The same match with the attack off (the key comes from the world's APDP_SECRET_FILE: KEY)."""
    if (first, seed) not in _baselines:
        agents, _ = seats(first)
        scenario = fast_scenario(**scenario_data({"mode": "none"}))
        _baselines[first, seed] = play_match(scenario, agents, seed=seed).to_json()
    return _baselines[first, seed]


def descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = read_proc(pid, "stat").decode("utf-8", "replace")
                parents[int(pid)] = int(stat[stat.rindex(")") + 2:].split()[1])
    out = {root}
    grew = True
    while grew:
        grew = False
        for pid, ppid in parents.items():
            if ppid in out and pid not in out:
                out.add(pid)
                grew = True
    return out


def referee(world: World, params: Mapping[str, Any], first: bool, seed: int, probe_port: int | None = None,
            timeout: float | None = None) -> tuple[dict[str, Any] | None, list[int], str]:
    """Play the match in a referee process of its own: (record or None, probe hits, problem)."""
    timeout = REFEREE_TIMEOUT if timeout is None else timeout
    agents, _ = seats(first)
    job = world.tmp / "job.json"
    out = world.tmp / "out.json"
    job.write_text(json.dumps({"scenario": scenario_data(params), "agents": agents, "seed": seed,
                               "out": str(out), "probe_port": probe_port}))
    env = dict(os.environ, APDP_ZOO_TREE=world.token)
    process = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(job), world.tree_marker, str(seed)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    problem = ""
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for pid in descendants(process.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _, err = process.communicate()
        problem = f"the referee did not finish its match within {timeout:g} s"
    if not problem and (process.returncode != 0 or not out.exists()):
        problem = f"the referee ended with code {process.returncode}: {err.strip()[-600:]}"
    if problem:
        return None, [], problem
    data = json.loads(out.read_text())
    return data["record"], data["probe_hits"], ""


def check_record(world: World, record: Mapping[str, Any], base: Mapping[str, Any], attacker: int,
                 seed: int) -> list[str]:
    """Every way the attack showed in the match (an empty list: it gained nothing)."""
    problems = []
    opponent = 1 - attacker
    faults = [f for f in record["result"]["faults"] if f["agent"] == opponent]
    if faults:
        problems.append(f"the opponent was faulted: {faults}")
    attacker_faults = [f for f in record["result"]["faults"] if f["agent"] == attacker]
    if attacker_faults:
        problems.append(f"the attacker was faulted: {attacker_faults}")
    invalid = verify_record(dict(record))
    if invalid:
        problems.append(f"verify_record rejects the record: {invalid[:3]}")
    if strip(record) != strip(base):
        changed = sorted(k for k in set(record) | set(base) if k not in ("timing", "output")
                         and record.get(k) != base.get(k))
        shown = {k: (record.get(k), base.get(k)) for k in changed if k == "sandbox"}  # small: worth showing
        problems.append(f"the record differs from the match without the attack in {changed} {shown or ''}")
    for index, output in enumerate(record["output"]):
        for name, value in world.secrets(seed).items():
            if value in str(output):
                problems.append(f"{name} appears in agent {index}'s output")
    real = tasks_of(record)
    gains = [line for line in lines(record, attacker) if line.startswith(GAINS)]
    problems += [f"the attacker printed: {line[:200]}" for line in gains[:8]]
    if len(gains) > 8:
        problems.append(f"... and {len(gains) - 8} more such lines")
    for line in lines(record, attacker):
        if line.startswith("PREDICTED "):
            predicted = [(p, d, float(w)) for p, d, w in json.loads(line.split(" ", 1)[1])]
            if predicted[: len(real)] == real:
                problems.append("the attacker predicted every task of the match")
        if line.startswith("WROTE "):
            world.reported.append(line.split()[-1])
    return problems


def check_machine(world: World) -> list[str]:
    """Processes left and files created or changed outside the agent's private folder."""
    problems = [f"a process the attacker started is left after {GRACE:g} s: {p}" for p in leftovers(world.token)]
    for folder in world.sentinel_dirs():
        if (folder / world.sentinel).exists():
            problems.append(f"the attacker created {folder / world.sentinel}")
        if (folder / f"apdp-zoo-disk-{world.token}").exists():
            problems.append(f"the attacker filled {folder / f'apdp-zoo-disk-{world.token}'}")
    for path in world.reported:
        if os.path.lexists(path):
            problems.append(f"what the attacker wrote is still there after the match: {path}")
    if world.victim.read_text() != "precious\n" or world.victim.stat().st_mode & 0o777 != 0o644:
        problems.append(f"the attacker changed {world.victim}")
    if (os.getpriority(os.PRIO_PROCESS, 0), resource.getrlimit(resource.RLIMIT_NOFILE)) != world.scheduling:
        problems.append("the attacker changed the priority or the limits of the test's process")
    return problems


def play_attack(world: World, mode: str, first: bool, seed: int = BIG_SEED, probe_port: int | None = None,
                **extra: Any) -> tuple[dict[str, Any] | None, list[int], list[str]]:
    """Play the attack's match; (record, probe hits, every problem found)."""
    _, attacker = seats(first)
    base = baseline(first, seed)
    record, hits, problem = referee(world, world.params(mode, **extra), first, seed, probe_port)
    problems = [problem] if problem else check_record(world, record or {}, base, attacker, seed)
    problems += check_machine(world)
    return record, hits, problems


SEATS = pytest.mark.parametrize("first", [True, False], ids=["attacker-first", "attacker-second"])

#: Attacks checked by the common assertions alone: mode -> what it tries.
SIMPLE = {
    "kill": "SIGKILL the opponent, the zygote and the referee (kill, killpg; kill(-1) when confined)",
    "stop": "SIGSTOP the opponent, the zygote and the referee",
    "spy": "read other processes' cmdline, environ, maps, mem; ptrace attach; process_vm_readv",
    "environ": "print os.environ, /proc/self/environ and the key file",
    "write": "create a file in agents/, apdp/, site-packages, $HOME, /tmp, /dev/shm, cwd; change a file",
    "disk": "2 GiB into its /tmp and into the host's /tmp in 64 MiB files (64 MiB when unconfined)",
    "forkbomb": "up to 10 000 forks of sleeping children (200 when unconfined)",
    "daemon": "leave a double-forked setsid daemon sleeping 1000 s",
    "neighbours": "read the files beside its own (other agents, parameters), list its folder, import a neighbour",
    "nice": "lower the priority of every process of its user, and of the referee's; idle scheduling; prlimit",
    "pidfd": "pidfd_open on every pid and its PIDFD_GET_INFO (parent, ids, cgroup); their groups and sessions",
    "watch": "inotify watches on the agents' folder and the libraries (other agents' opens and imports), "
             "every inotify instance of the user, a fanotify group",
}


# ------------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize("mode", list(SIMPLE), ids=list(SIMPLE))
@SEATS
def test_attack_gains_nothing(world: World, mode: str, first: bool) -> None:
    record, _, problems = play_attack(world, mode, first)
    assert not problems, f"{mode} ({SIMPLE[mode]}):\n" + "\n".join(problems)
    if mode == "watch":  # the attack ran (and found nothing), not failed to start
        _, attacker = seats(first)
        assert any(line.startswith("WATCH tried") for line in lines(record or {}, attacker))


#: The attacks an agent program (any language: here the attacker run by apdp's protocol host, a
#: process of its own under the agent process) tries too: the sandbox is inherited, not re-applied.
PROGRAM_MODES = ["kill", "stop", "spy", "environ", "write", "disk", "forkbomb", "daemon", "network", "pidfd",
                 "watch"]


@pytest.mark.parametrize("mode", PROGRAM_MODES, ids=PROGRAM_MODES)
def test_attack_from_an_agent_program_gains_nothing(world: World, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Outside /tmp: under it, the program's folder would be bound into its private /tmp, and paths
    # of the test's own folder would exist there (empty) for the attacker to write into, harmlessly.
    outside = Path(tempfile.mkdtemp(prefix="apdp-attacker-", dir="/var/tmp"))
    program = outside / "attacker"
    program.mkdir()
    shutil.copy(ATTACKER, program / "agent.py")
    (program / "agent.toml").write_text(
        f'command = ["{sys.executable}", "-m", "apdp.agents.protocol.host", "{{dir}}/agent.py"]\n'
    )
    monkeypatch.setattr(sys.modules[__name__], "ATTACKER", str(program))
    monkeypatch.setattr(sys.modules[__name__], "_baselines", {})
    # The program is a fresh interpreter started within setup's limit: on a loaded machine that
    # start alone can take a second, so setup gets more time (the attack stops at its deadline).
    monkeypatch.setattr(sys.modules[__name__], "TIMEOUTS", {**TIMEOUTS, "setup": 8.0})
    monkeypatch.setattr(sys.modules[__name__], "REFEREE_TIMEOUT", 30.0)
    if mode == "network":
        problems = network_problems(world, True)
    else:
        record, _, problems = play_attack(world, mode, True)
        if mode in ("kill", "stop") and record is not None:
            # The program may signal only its own agent's processes (Landlock scoping): killing or
            # stopping its own agent process is suicide, a fault of the attacker's own making. What
            # must hold: the opponent plays on unharmed and wins, the referee finishes.
            own_doing = ("the attacker was faulted", "the record differs", "the attacker printed: SIGNALLED")
            problems = [p for p in problems if not p.startswith(own_doing)]
            if record["result"]["winner"] != 1:
                problems.append(f"the opponent did not win: {record['result']}")
    shutil.rmtree(outside, ignore_errors=True)
    assert not problems, f"{mode} from an agent program:\n" + "\n".join(problems)


@SEATS
def test_own_generator_reveals_neither_the_seed_nor_the_tasks(world: World, first: bool) -> None:
    """The attacker prints its generator's seed and brute-forces the (small, public) match seed
    from it, with the old derivation and with every key it can read; it must find nothing."""
    record, _, problems = play_attack(world, "seed", first, seed=SMALL_SEED)
    assert record is not None, problems
    _, attacker = seats(first)
    printed = [int(line.split()[1]) for line in lines(record, attacker) if line.startswith("ENTROPY ")]
    assert printed, "the attacker printed no seed"
    real = tasks_of(record)
    scenario = fast_scenario(**scenario_data({"mode": "none"}))
    distribution = scenario.distribution_for(scenario.load_topology())
    for entropy in printed:
        if entropy == record["seed"]:
            problems.append("the agent's generator is seeded with the match seed")
        guess = distribution.sample_tasks(np.random.default_rng(entropy), len(real))
        if [(t.pickup, t.delivery, float(t.weight)) for t in guess] == real:
            problems.append("the agent's own seed reproduces the task stream")
    assert not problems, "\n".join(problems)


@SEATS
def test_network_is_unreachable(world: World, first: bool) -> None:
    """TCP, UDP, abstract and pathname unix sockets the test listens on get nothing; a port the
    attacker listens on cannot be reached from the machine."""
    problems = network_problems(world, first)
    assert not problems, "\n".join(problems)


def network_problems(world: World, first: bool) -> list[str]:
    """Play the network attack against listeners of the test's; every way it reached one."""
    tcp = socket.create_server(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(f"\0apdp-test-{world.token}")
    abstract.listen(8)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix_path = world.tmp / "listen.sock"
    unix.bind(str(unix_path))
    unix.listen(8)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        listen_port = free.getsockname()[1]
    listeners = {"tcp": tcp, "udp": udp, "abstract": abstract, "unix": unix}
    try:
        for s in listeners.values():
            s.setblocking(False)
        _, hits, problems = play_attack(
            world, "network", first, probe_port=listen_port, tcp_port=tcp.getsockname()[1],
            udp_port=udp.getsockname()[1], abstract=f"apdp-test-{world.token}", unix_path=str(unix_path),
            listen_port=listen_port,
        )
        for name, s in listeners.items():
            with contextlib.suppress(BlockingIOError):
                if name == "udp":
                    s.recv(1024)
                else:
                    s.accept()[0].close()
                problems.append(f"the {name} listener received something from the attacker")
        if hits:
            problems.append(f"the port the attacker listens on ({listen_port}) accepted connections")
    finally:
        for s in listeners.values():
            s.close()
    return problems


def apdp_cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from apdp.cli import console; console()", *args],
                          capture_output=True, text=True, timeout=timeout, env=os.environ.copy())


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


@SEATS
def test_record_file_cannot_be_redirected_or_rewritten(world: World, first: bool) -> None:
    """``apdp match --record``: the attacker plants a symlink at the record path to a file of its
    choice, rewrites an older record in the same folder, and leaves a daemon rewriting the record
    every 0.05 s after the match. The victim and the old record stay unchanged; the record written
    is a regular file equal to the match without the attack."""
    agents, attacker = seats(first)
    base = baseline(first, BIG_SEED)
    folder = world.tmp / "records"
    folder.mkdir()
    old = folder / "old.json"
    old.write_text(json.dumps(base))
    path = folder / "match.json"
    params = world.params("record", records=str(folder), record_path=str(path))
    data = scenario_data(params)
    scenario = world.tmp / "scenario.toml"
    text = [f"tasks = {data['tasks']}", "[timeouts]", *(f"{k} = {v}" for k, v in TIMEOUTS.items()),
            "[limits]", *(f"{k} = {toml_value(v)}" for k, v in LIMITS.items()), "[agents.attacker]",
            *(f"{k} = {toml_value(v)}" for k, v in params.items())]
    scenario.write_text("\n".join(text) + "\n")
    done = apdp_cli("match", "--agents", *agents, "--seed", str(BIG_SEED), "--scenario", str(scenario),
                    "--record", str(path), "--quiet")
    problems = [] if done.returncode == 0 else [f"apdp match failed: {done.stderr.strip()[-600:]}"]
    problems += check_machine(world)  # the grace first: the daemon rewrites for a few seconds
    if path.is_symlink() or not path.is_file():
        problems.append(f"{path} is not a regular file")
    else:
        record = json.loads(path.read_text())
        problems += check_record(world, record, base, attacker, BIG_SEED)
    if old.read_text() != json.dumps(base):
        problems.append("the attacker rewrote an older record")
    assert not problems, "\n".join(problems)


def stored_rows(folder: Path) -> list[dict[str, Any]]:
    conn = sqlite3.connect(f"file:{folder / STORE_FILE}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT key, seed, agents, profit, winner, faults, record FROM matches ORDER BY key")
        return [{"key": k, "seed": s, "agents": a, "profit": p, "winner": w, "faults": f,
                 "record": json.loads(r)} for k, s, a, p, w, f, r in rows]
    finally:
        conn.close()


def tournament(folder: Path, params: Mapping[str, Any]) -> None:
    config = make_config(topology=None, agents=[ATTACKER, OPPONENT], seed=11,
                         overrides={"tasks": 8, "timeouts": dict(TIMEOUTS), "limits": dict(LIMITS),
                                    "agents": {"attacker": dict(params)}})
    run: Callable[..., Any] = run_tournament
    keyed = {"secret": KEY} if "secret" in inspect.signature(run_tournament).parameters else {}
    summary = run(config, folder, jobs=1, progress=False, **keyed)
    assert summary.errors == 0 and summary.played == 2, summary.error_messages


def test_tournament_store_cannot_be_rewritten(world: World) -> None:
    """A tiny tournament: the attacker walks the filesystem for stores and records, reads the
    store's key, rewrites every row it can (winner = itself) during both matches and from a daemon
    for 4 s after them. The rows equal those of the same tournament without the attack."""
    results = world.tmp / "results"
    tournament(world.tmp / "baseline", {"mode": "none"})
    tournament(results, world.params("store", results=str(results), daemon_seconds=4.0))
    problems = check_machine(world)  # the grace first: the daemon rewrites for a few seconds
    attacked, base = stored_rows(results), stored_rows(world.tmp / "baseline")
    for row in attacked:
        attacker = json.loads(row["agents"]).index("attacker")
        match = next((b for b in base if b["key"] == row["key"]), None)
        if match is None:
            problems.append(f"a row the tournament without the attack does not have: {row['key']}")
            continue
        problems += check_record(world, row["record"], match["record"], attacker, row["seed"])
        for column in ("seed", "agents", "profit", "winner", "faults"):
            if row[column] != match[column]:
                problems.append(f"{row['key']}: {column} is {row[column]!r}, without the attack {match[column]!r}")
    if len(attacked) != len(base):
        problems.append(f"{len(attacked)} rows stored, {len(base)} without the attack")
    assert not problems, "\n".join(problems)


def test_an_agent_sees_nothing_beside_its_own_file(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The attacker sits in an agents folder beside another agent, parameters, a results store with
    its key, the key file and a record: it can list, read or import none of them."""
    agents = world.tmp / "agents"
    agents.mkdir()
    shutil.copy(ATTACKER, agents / "attacker.py")
    (agents / "victim.py").write_text("SECRET = 'the victim agent'\n")
    (agents / "params.toml").write_text("[victim]\nmargin = 1.5\n")
    shutil.copy(world.key_file, agents / "key")
    sqlite3.connect(agents / "tournament.sqlite").execute("CREATE TABLE secret (key BLOB)").connection.close()
    (agents / "victim.json").write_text('{"format": "apdp-record/1"}')
    monkeypatch.setattr(sys.modules[__name__], "ATTACKER", str(agents / "attacker.py"))
    monkeypatch.setattr(sys.modules[__name__], "_baselines", {})
    record, _, problems = play_attack(world, "neighbours", True)
    assert record is not None and any(line.startswith("read ") for line in lines(record, 0)), problems
    assert not problems, "\n".join(problems)


def test_memory_counts_every_process_and_kind(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six children of the attacker each fill 96 MiB of shared memory (which no rlimit counts),
    under a 256 MiB limit: together they never hold more than the limit (a memory cgroup kills some
    of them), or the attacker is killed for it (the referee's watch); nothing is left after."""
    monkeypatch.setitem(LIMITS, "memory_mb", 256)
    monkeypatch.setattr(sys.modules[__name__], "TIMEOUTS", {**TIMEOUTS, "setup": 10.0})  # it tells within 8 s
    monkeypatch.setattr(sys.modules[__name__], "_baselines", {})
    record, _, problems = play_attack(world, "memory", True)
    assert record is not None, problems
    faults = record["result"]["faults"]
    held = [int(line.split()[1]) for line in lines(record, 0) if line.startswith("HELD ")]
    if faults:
        assert [(f["agent"], f["kind"]) for f in faults] == [(0, "memory")], faults
    else:
        assert held and held[0] <= 256, held
    assert not [p for p in problems if "left" in p or "created" in p or "filled" in p], problems


def test_the_private_folder_holds_a_bounded_number_of_files(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty files cost no disk but the kernel's memory: the private folder refuses them past its cap."""
    monkeypatch.setitem(LIMITS, "disk_files", 500)
    monkeypatch.setattr(sys.modules[__name__], "_baselines", {})
    record, _, problems = play_attack(world, "files", True)
    assert record is not None, problems
    made = [int(line.split()[1]) for line in lines(record, 0) if line.startswith("FILES ")]
    assert made and made[0] <= 500, made
    assert not record["result"]["faults"] and not problems, problems
