"""Generating a study's agents: every model x strategy x sample the manifest asks for and the
journal does not hold yet, with the harness's loop (:func:`apdp.codegen.loop.run`).

Generations run in a small thread pool (``parallel`` model conversations at once); their checks run
one at a time, so that no agent is judged on a CPU shared with another check. Every answered call is
journaled before the loop sees it, and a generation's outcome when it ends (:mod:`apdp.study.journal`):
a rerun replays the calls already answered and skips the generations already finished. Ctrl-C (or
``max_calls``) stops the pool at the next call or check; nothing answered is lost.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apdp.check.config import CheckConfig
from apdp.check.exercise_check import check_exercise_agent
from apdp.check.gate import check_agent
from apdp.check.report import CheckReport
from apdp.codegen.client import ChatError
from apdp.codegen.ingest import default_name
from apdp.codegen.loop import FROM_PARENT, RunSettings, run
from apdp.codegen.parent import Parent
from apdp.errors import UserError
from apdp.study.journal import CallsStopped, Journal, JournaledClient
from apdp.study.manifest import Generator, Manifest

Say = Callable[[str], None]



@dataclass(frozen=True, slots=True)
class Job:
    """One generation: a model, a strategy and a sample number (from 1)."""

    generator: Generator
    strategy: str
    sample: int

    @property
    def id(self) -> str:
        """The generation's key in the journal."""
        return f"{self.generator.model}/{self.strategy}/{self.sample}"

    @property
    def name(self) -> str:
        """The name of its agent."""
        return default_name(self.generator.model, self.strategy, self.sample)


def jobs_of(manifest: Manifest) -> list[Job]:
    """Every generation the manifest asks for, in its order."""
    return [Job(g, s, k) for g, s, k in manifest.jobs_wanted()]


def check_config(manifest: Manifest, scenario: str | None) -> CheckConfig:
    """The check of the study's generated agents."""
    c = manifest.check
    return CheckConfig(opponents=tuple(c.opponents), topologies=tuple(c.networks), tasks=c.tasks, seed=c.seed,
                       timeouts=c.timeouts.given(), scenario=scenario)


def agent_dir(out: Path) -> Path:
    """Where the study's generated agents go."""
    return out / "agents"


def is_done(outcome: dict[str, Any] | None, retry_errors: bool) -> bool:
    """Whether a generation with this journaled ``outcome`` needs no run (its agent is still there)."""
    if outcome is None:
        return False
    if outcome.get("status") == "error":
        return not retry_errors
    path = outcome.get("path")
    return path is None or Path(path).exists()


def transcript_summary(path: Path) -> dict[str, Any]:
    """What a generation's transcript says: replies, replies with code, each check's round and
    verdict, the fault kinds met, and the first clean round (None: never clean)."""
    replies = with_code = 0
    checks: list[tuple[int, bool]] = []
    kinds: set[str] = set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        event = entry.get("event")
        if event in ("extract_error", "no_improvement"):
            replies += 1
            if event == "extract_error":
                kinds.add("no_code")
        elif event == "ingest":
            replies += 1
            with_code += 1
        elif event == "check":
            checks.append((int(entry.get("round", 0)), bool(entry.get("ok"))))
            for problem in (entry.get("details") or {}).get("problems", []):
                kinds.add(str(problem.get("category")))
    clean = [r for r, ok in checks if ok]
    return {"replies": replies, "replies_with_code": with_code, "checks": checks, "faults": sorted(kinds),
            "first_clean": min(clean) if clean else None}


class Generations:
    """The generation of a study's missing agents; see the module docstring."""

    def __init__(self, manifest: Manifest, out: Path, journal: Journal, scenario: str | None, say: Say,
                 parents: Mapping[str, Parent] | None = None) -> None:
        self.manifest = manifest
        #: The parent of each generator's ``improve`` (by model).
        self.parents = dict(parents or {})
        self.out = out
        self.journal = journal
        self.check = check_config(manifest, scenario)
        self.say = say
        self._check_lock = threading.Lock()

    def todo(self, retry_errors: bool = False) -> list[Job]:
        """The generations still to run."""
        return [j for j in jobs_of(self.manifest) if not is_done(self.journal.jobs.get(j.id), retry_errors)]

    def run(self, jobs: list[Job]) -> None:
        """Run ``jobs``, ``parallel`` at once; the first failure other than the model's stops the rest."""
        if not jobs:
            return
        pool = ThreadPoolExecutor(max_workers=min(self.manifest.parallel, len(jobs)), thread_name_prefix="study")
        futures: list[Future[None]] = [pool.submit(self._run_one, job) for job in jobs]
        try:
            done, pending = wait(futures, return_when=FIRST_EXCEPTION)
            failed = [f for f in done if f.exception() is not None]
            if failed:
                self.journal.stopping.set()
                wait(pending)
                errors = [f.exception() for f in futures if f.exception() is not None]
                first = next((e for e in errors if type(e) is not CallsStopped), errors[0])
                assert first is not None
                raise first
        except KeyboardInterrupt:
            self.journal.stopping.set()
            self.say("stopping: waiting for the model calls in flight (their answers are kept)")
            wait(futures)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _checker(self, *args: Any, **kwargs: Any) -> CheckReport:
        with self._check_lock:
            if self.journal.stopping.is_set():
                raise CallsStopped("generation stopped")
            if "exercise" in kwargs:  # an exercise's agent: a round of it
                return check_exercise_agent(*args, **kwargs)
            return check_agent(*args, **kwargs)

    def _client(self, job: Job) -> JournaledClient:
        g = job.generator
        prefix = f"[{job.name}] "
        return JournaledClient(
            g.base_url, g.model, api_key=os.environ.get(g.api_key_env) or None, timeout=g.timeout,
            retries=g.retries, backoff=g.backoff, temperature=g.temperature,
            on_retry=lambda line: self.say(prefix + line), journal=self.journal, job=job.id,
        )

    def _run_one(self, job: Job) -> None:
        if self.journal.stopping.is_set():
            raise CallsStopped("generation stopped")
        client = self._client(job)
        critic = dataclasses.replace(client, model=job.generator.critic) if job.generator.critic else None
        settings = RunSettings(strategy=job.strategy, name=job.name, agents_dir=agent_dir(self.out),
                               rounds=self.manifest.rounds, check=self.check, force=True,
                               language=self.manifest.language, checker=self._checker,
                               exercise=None if self.manifest.exercise == "auction" else self.manifest.exercise,
                               parent=self.parents.get(job.generator.model) if job.strategy in FROM_PARENT else None)
        prefix = f"[{job.name}] "
        started = time.monotonic()
        outcome: dict[str, Any] = {"kind": "job", "job": job.id, "model": job.generator.model,
                                   "strategy": job.strategy, "sample": job.sample, "name": job.name}
        transcript = None
        try:
            result = run(settings, client, critic, say=lambda line: self.say(prefix + line))
        except CallsStopped:
            raise
        except ChatError as exc:
            outcome.update(status="error", ok=False, error=str(exc), path=None)
        except UserError as exc:  # the model's doing (an empty GEN prompt, ...): its generation failed
            outcome.update(status="error", ok=False, error=str(exc), path=None)
        else:
            transcript = result.transcript
            outcome.update(status="clean" if result.ok else "faulty", ok=result.ok, rounds=result.rounds,
                           path=str(result.agent.path) if result.agent else None)
            if result.agent is None:
                outcome["status"] = "no_agent"
        if transcript is None:
            transcript = self.out / "agents" / f"{job.name}.transcript.jsonl"
        outcome.update(transcript_summary(transcript), seconds=round(time.monotonic() - started, 3))
        self.journal.append(outcome)
        verdict = outcome["status"] + (f": {outcome['error']}" if outcome.get("error") else "")
        self.say(f"{prefix}done, {verdict}")


def outcomes(journal: Journal, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
    """Each of ``jobs`` with its journaled outcome (the generations finished)."""
    for job in jobs:
        outcome = journal.jobs.get(job.id)
        if outcome is not None:
            yield job, outcome
