"""Matches as tasks on a Ray cluster: past one machine, with the same stored results as on one.

Ray (an existing distributed engine: scheduling over many machines, a shared object store, retries
of tasks whose worker or node was lost) runs each match as a task that reserves one CPU, so an agent
never gets less than a core. The parent stays the only writer of the store: it keeps one match per
CPU of the cluster submitted and a quarter as many more waiting in Ray's queue (so that a freed CPU
starts the next match at once, without waiting for the parent), or exactly ``jobs``; records stream
back as matches end, through the same events as the local executor (progress bar, store, log).

Nothing is assumed on the cluster's machines but Python with apdp's dependencies and Ray: apdp
itself (``apdp``, with the bundled networks inside the package, as a
wheel lays them out) goes as the job's ``py_modules``, which Ray names by content hash; the agents'
files, the networks, parameters and identities go as :mod:`apdp.tournament.ray_payload` bundles through the
object store, each fetched once per machine and kept in its cache folder. On a worker each match
plays in the worker's own sandbox (its zygote starts on first use), exactly as locally.

A worker or node lost mid-match: Ray plays the task again elsewhere (up to :data:`RETRIES` times);
a task yields one result, stored once. A match that still cannot be played is reported as an error,
not stored, and a rerun plays it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from apdp.errors import UserError
from apdp.referee.record_format import MatchRecord
from apdp.scenario import Scenario
from apdp.tournament.config import TournamentConfig
from apdp.tournament.events import TournamentEvents, announce, failed
from apdp.tournament.ray_payload import Bundle, Networks, SentAgent, networks_of, pack_agent, unpack
from apdp.tournament.schedule import MatchSpec

log = logging.getLogger("apdp.tournament")

#: How to get Ray, said in one line when it is missing.
INSTALL_HINT = "the Ray executor needs Ray: pip install 'apdp[ray]' (or pip install ray)"
#: Times Ray plays a match again after its worker or node was lost.
RETRIES = 3
#: Seconds between two readings of the cluster's size (it may grow or shrink during a run).
RESIZE_EVERY = 10.0


def import_ray(local: bool) -> ModuleType:
    """Ray, imported; UserError (one line: how to install it) when it cannot be.

    ``local``: for a cluster of this machine alone, which then listens on loopback only (Ray reads
    this misnamed switch when it is imported, and then binds and advertises 127.0.0.1, not the
    machine's network address).
    """
    if local:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray
    except ImportError:
        raise UserError(INSTALL_HINT) from None
    return ray


@dataclass(frozen=True)
class RayCluster:
    """Where and how wide a run plays on Ray.

    ``address``: a cluster's address, ``auto`` for the one this machine belongs to (``ray start``),
    None to start one on this machine (loopback only) with ``cpus`` CPUs (default: its cores) for
    the run. ``jobs``: matches at once (default: one per CPU of the cluster).
    """

    address: str | None = None
    cpus: int | None = None
    jobs: int | None = None


@dataclass(frozen=True)
class SentTournament:
    """Everything a worker needs to play any match of the run, without the parent's files."""

    scenario: Scenario
    secret: bytes = field(repr=False)
    agents: Mapping[str, SentAgent]
    #: each bundle's hash -> a reference to it in the object store (fetched only when not cached)
    bundles: Mapping[str, Any]
    networks: Networks
    registry: Mapping[str, dict[str, Any]]


#: Bundles this worker process has unpacked: hash -> folder.
_unpacked: dict[str, Path] = {}


def play_sent(sent: SentTournament, match: MatchSpec) -> MatchRecord:
    """Play one match on a worker (a Ray task): unpack what it needs, then play by path."""
    import ray

    from apdp.sandbox.cores import core_for_a_match
    from apdp.tournament.play import play_scheduled

    sent.networks.install()
    paths: dict[str, Path] = {}
    for name in match.agents:
        agent = sent.agents[name]
        folder = _unpacked.get(agent.sha256)
        if folder is None:
            ref = sent.bundles[agent.sha256]

            def fetch(ref: Any = ref) -> Bundle:
                bundle: Bundle = ray.get(ref)
                return bundle

            folder = _unpacked[agent.sha256] = unpack(agent.sha256, fetch)
        paths[name] = folder / agent.entry
    with core_for_a_match():  # as a local worker plays: referee and agents on one core of their own
        return play_scheduled(sent.scenario, match, paths, sent.secret,
                              {name: sent.agents[name].identity for name in match.agents},
                              {k: dict(v) for k, v in sent.registry.items()})


def _stage_apdp(into: Path) -> list[str]:
    """A copy of the ``apdp`` package to send as a py_module, with the bundled networks and
    template inside it (where a wheel has them)."""
    from apdp.bundled import BUNDLED_TEMPLATE, BUNDLED_TOPOLOGIES, INSIDE_PACKAGE, PACKAGE_DIR

    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".build")
    shutil.copytree(PACKAGE_DIR, into / PACKAGE_DIR.name, ignore=ignore)
    staged = [str(into / PACKAGE_DIR.name)]
    inside = into / "apdp" / INSIDE_PACKAGE.name
    if not (inside / "topologies").is_dir():
        shutil.copytree(BUNDLED_TOPOLOGIES, inside / "topologies", ignore=ignore)
    if not (inside / "agents" / BUNDLED_TEMPLATE.name).is_file():
        (inside / "agents").mkdir(parents=True, exist_ok=True)
        shutil.copy2(BUNDLED_TEMPLATE, inside / "agents" / BUNDLED_TEMPLATE.name)
    return staged


def _check_reachable(address: str) -> None:
    """Raise UserError at once if ``host:port`` takes no connection (Ray itself would retry for good)."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return  # auto, or an address Ray reads its own way
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise UserError(f"cannot use a Ray cluster at {address}: nothing answers there ({why})") from None


@dataclass
class RaySession:
    """Ray, connected for one run, and how many matches to keep submitted (``jobs``)."""

    ray: ModuleType
    jobs: int | None

    def play(
        self,
        matches: Iterable[MatchSpec],
        config: TournamentConfig,
        secret: bytes,
        identities: Mapping[str, dict[str, Any]],
        events: TournamentEvents,
    ) -> int:
        """Ship the tournament and play ``matches``, reporting through ``events``; returns the errors.
        UserError, before any match, when a node of the cluster lacks the JDK its Java agents run on."""
        agents = list(zip(config.agents, config.agent_paths, strict=True))
        check_nodes_run(self.ray, java_of(agents))
        sent = ship(self.ray, config.scenario, secret, agents, config.topologies, identities)
        return run_on_ray(self.ray, matches, sent, events, jobs=self.jobs)


@contextlib.contextmanager
def connected(cluster: RayCluster) -> Iterator[RaySession]:
    """Ray, connected for one run: to the cluster at ``cluster.address`` (``auto``: the one this
    machine belongs to), or to a new local one on loopback, stopped at the end. A process already
    connected (a test's cluster) stays connected and ships apdp itself. UserError (one line) when
    Ray is missing or the cluster cannot be used."""
    address = cluster.address
    ray = import_ray(local=address is None)
    if ray.is_initialized():
        yield RaySession(ray, cluster.jobs)
        return
    if address is not None:
        _check_reachable(address)
    cpus = cluster.cpus
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    staging = Path(tempfile.mkdtemp(prefix="apdp-ray-"))
    try:
        options: dict[str, Any] = {
            "runtime_env": {"py_modules": _stage_apdp(staging)},
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        if address is None:
            options.update(num_cpus=cpus, include_dashboard=False)
        try:
            # Ray puts the driver's working folder on its workers' module path: from a neutral one,
            # no file of the user's (an agent called glob.py, say) can take a module's place there
            with contextlib.chdir(staging):
                ray.init(address=address, **options)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            where = f"at {address}" if address is not None else "on this machine"
            raise UserError(f"cannot use a Ray cluster {where}: {first}") from None
        try:
            yield RaySession(ray, cluster.jobs)
        finally:
            ray.shutdown()
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def java_of(agents: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """The JVMs the field's Java agents run on (the ``java`` their agent.toml names, an absolute
    path of the machine that installed them), each with the agents that need it."""
    from apdp.agents.java.install import MARKER
    from apdp.agents.program import PROGRAM_FILE, ProgramError, read_program

    needed: dict[str, list[str]] = {}
    for name, path in agents:
        folder = Path(path)
        toml = folder / PROGRAM_FILE
        try:
            if not toml.is_file() or not toml.read_text(encoding="utf-8", errors="replace").startswith(MARKER):
                continue
            command = read_program(folder).command
        except (OSError, ProgramError):
            continue  # its own fault in its match, said there
        for part in command:
            if Path(part).name == "java" and Path(part).is_absolute():
                needed.setdefault(part, []).append(name)
                break
    return needed


def _missing(paths: list[str]) -> list[str]:
    """Of ``paths``, those this node cannot run (a Ray task on each node)."""
    return [p for p in paths if not os.access(p, os.X_OK)]


def check_nodes_run(ray: ModuleType, java: Mapping[str, list[str]]) -> None:
    """UserError (one line) when a node of the cluster cannot run a JVM of ``java``: its Java agents
    would lose every match there ("no such file"), so the run stops before any is played."""
    if not java:
        return
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    probe = ray.remote(num_cpus=0, max_retries=0)(_missing)
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    asked = [(n, probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False))
              .remote(sorted(java))) for n in nodes]
    for node, ref in asked:
        missing = ray.get(ref)
        if missing:
            who = ", ".join(java[missing[0]])
            raise UserError(f"the Ray node at {node.get('NodeManagerAddress', '?')} has no {missing[0]}, the JVM the "
                            f"Java agents {who} run on: install the same JDK there (e.g. apt-get install "
                            "openjdk-17-jdk-headless), or play them on this machine")


def ship(
    ray: ModuleType,
    scenario: Scenario,
    secret: bytes,
    agents: Sequence[tuple[str, str]],
    topologies: tuple[str, ...],
    identities: Mapping[str, dict[str, Any]],
) -> SentTournament:
    """Pack the field, networks, parameters and identities, and put the bundles in the object store."""
    from apdp.agents.discovery import registry_params

    sent_agents: dict[str, SentAgent] = {}
    bundles: dict[str, Any] = {}
    for name, path in agents:
        bundle, entry = pack_agent(path)
        if bundle.sha256 not in bundles:
            bundles[bundle.sha256] = ray.put(bundle)
        sent_agents[name] = SentAgent(bundle.sha256, entry, dict(identities[name]))
    return SentTournament(scenario, secret, sent_agents, bundles, networks_of(topologies), registry_params())


class _Capacity:
    """How many matches to keep submitted: ``jobs``, or one per CPU of the cluster (re-read now and
    then, as nodes join or leave) and a quarter as many more, waiting in Ray's queue."""

    def __init__(self, ray: ModuleType, jobs: int | None) -> None:
        self.ray = ray
        self.jobs = jobs
        self._value = 1
        self._read_at = -RESIZE_EVERY

    def __call__(self) -> int:
        if self.jobs is not None:
            return self.jobs
        now = time.monotonic()
        if now - self._read_at >= RESIZE_EVERY:
            self._read_at = now
            cpus = max(1, int(self.ray.cluster_resources().get("CPU", 1)))
            self._value = cpus + (cpus + 3) // 4
        return self._value


def _failure(ray: ModuleType, exc: BaseException) -> str:
    """One line on why a match's task gave no record."""
    if isinstance(exc, ray.exceptions.RayTaskError):
        cause = exc.cause if isinstance(exc.cause, BaseException) else exc
        text = str(cause).strip().splitlines()
        return f"{type(cause).__name__}: {text[-1] if text else ''}"
    lost = (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError)
    if isinstance(exc, lost):
        return f"its Ray worker or node was lost {RETRIES + 1} times"
    return f"{type(exc).__name__}: {exc}"


def run_on_ray(
    ray: ModuleType,
    matches: Iterable[MatchSpec],
    sent: SentTournament,
    events: TournamentEvents,
    *,
    jobs: int | None = None,
) -> int:
    """Play every match as a Ray task, reporting through ``events`` as they end; returns the errors.

    At most ``jobs`` are submitted at once (default: the cluster's CPUs and a quarter more, queued);
    an interrupt cancels them.
    """
    play = ray.remote(num_cpus=1, max_retries=RETRIES)(play_sent)
    sent_ref = ray.put(sent)
    pending = iter(matches)
    capacity = _Capacity(ray, jobs)
    in_flight: dict[Any, MatchSpec] = {}
    errors = 0

    def fill() -> None:
        while len(in_flight) < capacity():
            match = next(pending, None)
            if match is None:
                return
            events.on_match_started(match)
            in_flight[play.remote(sent_ref, match)] = match

    try:
        fill()
        while in_flight:
            done, rest = ray.wait(list(in_flight), num_returns=1)
            if rest:  # every other match that ended meanwhile too
                done += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
            outcomes: list[tuple[MatchSpec, MatchRecord | None, str]] = []
            for ref in done:
                match = in_flight.pop(ref)
                try:
                    outcomes.append((match, ray.get(ref), ""))
                except Exception as exc:
                    outcomes.append((match, None, _failure(ray, exc)))
            fill()  # keep the cluster busy before the parent's share of the work
            for match, record, message in outcomes:
                if record is None:
                    record = failed(match, message)
                if record.referee_error is not None:
                    errors += 1
                announce(events, match, record)
    except BaseException:
        for ref in in_flight:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    return errors
