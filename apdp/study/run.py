"""Running a study end to end: generate the missing agents, play the tournaments, write the reports.

``DIR`` (``--out``) holds everything, and everything in it is resumable:

* ``journal.jsonl``: every model call answered and every generation finished (:mod:`apdp.study.journal`);
* ``agents/``: the generated agents, their provenance sidecars, transcripts and the harness's ledger;
* ``results/``: the results store of every tournament (one per network x seed), in one database;
* ``report.json`` and ``report.html``: the report as ``apdp report --group-by model,strategy --analysis``
  makes it (each model and strategy's rating with an interval over its samples and matches; ``analysis``:
  each agent's bidding apart from its planning, :mod:`apdp.analysis`), with the
  generation funnel added (``funnel`` in the JSON, a section of the page);
* ``funnel.csv``: the generation funnel (:mod:`apdp.study.funnel`).

A rerun of the same manifest replays the journal and the store: no model call, no match. A manifest
with another model or sample adds only its generations and its matches: the store grows to the
larger field (:func:`apdp.tournament.config.grows`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apdp.codegen.parent import Parent, read_parent
from apdp.errors import UserError
from apdp.files import write_atomically
from apdp.lookup import searched_first
from apdp.sandbox.exposure import check_private
from apdp.study.funnel import funnel_csv, funnel_html, funnel_rows, funnel_text
from apdp.study.generate import Generations, agent_dir, jobs_of, outcomes
from apdp.study.journal import JOURNAL, CallBudgetSpent, Journal
from apdp.study.manifest import Manifest, ManifestError

if TYPE_CHECKING:
    from apdp.tournament.ray_executor import RayCluster
    from apdp.tournament.run import RunSummary

Say = Callable[[str], None]
#: The folder of the results store inside the study's folder.
RESULTS = "results"
#: How the study's report groups the agents (the generated ones by the model and strategy that made them).
GROUP_BY = "model,strategy"


@dataclass
class StudyResult:
    """What a run of a study did and where it wrote it."""

    out: Path
    generated: int = 0
    new_calls: int = 0
    replayed_calls: int = 0
    #: What the tournaments' run did (None: the run stopped before them).
    tournament: RunSummary | None = None
    agents: list[str] = field(default_factory=list)
    funnel: list[dict[str, Any]] = field(default_factory=list)
    #: Why the run stopped before the end (None: it finished).
    stopped: str | None = None
    report_text: str = ""


def _resolve(entry: str, base: Path) -> str:
    """A manifest's agent: a file or folder path relative to the manifest, else a name as it is."""
    if entry.endswith(".py") or "/" in entry:
        path = Path(entry) if Path(entry).is_absolute() else base / entry
        return str(path.resolve())
    return entry


def _scenario(manifest: Manifest, base: Path) -> str | None:
    if manifest.scenario is None:
        return None
    path = Path(manifest.scenario)
    return str(path if path.is_absolute() else (base / path).resolve())


def _parents(manifest: Manifest, base: Path) -> dict[str, Parent]:
    """The parent of each generator with ``improve``, by model; ManifestError (one line) for one that
    cannot be read or is not in the manifest's language."""
    out: dict[str, Parent] = {}
    for g in manifest.generators:
        if g.parent is None:
            continue
        try:
            parent = read_parent(_resolve(g.parent, base))
        except UserError as exc:
            raise ManifestError(f"generator {g.model!r}: parent {g.parent!r}: {exc}") from None
        if parent.language != manifest.language:
            raise ManifestError(f"generator {g.model!r}: parent {g.parent!r} is a {parent.language} agent and the "
                                f"study's language is {manifest.language}; set language = \"{parent.language}\"")
        out[g.model] = parent
    return out


def _field(manifest: Manifest, journal: Journal, base: Path) -> list[str]:
    """The agents that play: the generated agents kept (clean, or any with ``include_faulty``), then
    the manifest's."""
    field_: list[str] = []
    for _job, outcome in outcomes(journal, jobs_of(manifest)):
        path = outcome.get("path")
        if path and Path(path).exists() and (outcome.get("ok") or manifest.include_faulty):
            field_.append(str(Path(path).resolve()))
    return field_ + [_resolve(a, base) for a in manifest.agents]


def run_study(
    manifest: Manifest,
    out: Path,
    *,
    base: Path = Path("."),
    say: Say = lambda _line: None,
    max_calls: int | None = None,
    retry_errors: bool = False,
    jobs: int = 1,
    progress: bool = False,
    ray: RayCluster | None = None,
) -> StudyResult:
    """Run the study of ``manifest`` into ``out``; see the module docstring.

    ``base`` is the manifest's folder (its relative paths start there); ``max_calls`` caps the new
    model calls of this run (the run then stops before the tournaments, and a rerun continues);
    ``retry_errors`` runs again the generations whose endpoint failed; ``jobs`` matches at once;
    ``ray``: the tournaments' matches play on that Ray cluster (the stored results are the same).
    """
    parents = _parents(manifest, base)
    out.mkdir(parents=True, exist_ok=True)
    scenario = _scenario(manifest, base)
    result = StudyResult(out)
    journal = Journal(out / JOURNAL, max_calls=max_calls)
    try:
        generations = Generations(manifest, out, journal, scenario, say, parents)
        todo = generations.todo(retry_errors)
        wanted = len(jobs_of(manifest))
        say(f"generation: {wanted - len(todo)} of {wanted} agent(s) done already, {len(todo)} to make")
        try:
            generations.run(todo)
        except CallBudgetSpent as exc:
            result.stopped = f"{exc}; rerun to continue"
        finally:
            result.generated = sum(1 for j in todo if j.id in journal.jobs)
            result.new_calls, result.replayed_calls = journal.new_calls, journal.replayed
        result.funnel = funnel_rows(jobs_of(manifest), journal)
        write_atomically(out / "funnel.csv", funnel_csv(result.funnel))
        if result.stopped is not None:
            return result
        field_ = _field(manifest, journal, base)
        made_by = {Path(o["path"]).stem: (j.generator.model, j.strategy)
                   for j, o in outcomes(journal, jobs_of(manifest)) if o.get("path")}
    finally:
        journal.close()
    if manifest.exercise != "auction":
        return _score_exercise(manifest, out, field_, made_by, result, say, jobs)
    if len(field_) < 2:
        raise UserError(f"only {len(field_)} agent(s) to play (no generated agent came out clean): "
                        "add agents = [...] to the manifest, or set include_faulty = true")
    _play(manifest, out, field_, scenario, result, jobs, progress, say, ray)
    if _unchanged(out, result):
        say("nothing new since the last run: its reports stand (report.txt, report.json, report.html)")
        result.report_text = (out / REPORT_TEXT).read_text(encoding="utf-8")
    else:
        _write_reports(out, result, jobs, progress)
    return result


def _score_exercise(manifest: Manifest, out: Path, field_: list[str], made_by: dict[str, tuple[str, str]],
                    result: StudyResult, say: Say, jobs: int = 1) -> StudyResult:
    """An exercise's study after its generations: every agent scored (:mod:`apdp.study.exercise_report`)."""
    from apdp.study.exercise_report import score_study

    if not field_:
        raise UserError("no agent to score (no generated agent came out clean): add agents = [...] to the "
                        "manifest, or set include_faulty = true")
    generated = agent_dir(out)
    with searched_first("APDP_AGENTS", generated if generated.is_dir() else None):
        result.report_text = score_study(manifest, out, field_, made_by, result.funnel, say, jobs)
    result.agents = [Path(a).stem if a.endswith(".py") else a for a in field_]
    return result


#: The study's report as the terminal shows it, kept for a rerun that plays and makes nothing new.
REPORT_TEXT = "report.txt"


def _unchanged(out: Path, result: StudyResult) -> bool:
    """Whether this run made no agent and played no match, so the last run's reports still hold:
    the analysis (which replans every match) is not worked out again."""
    summary = result.tournament
    return (result.generated == 0 and result.new_calls == 0 and summary is not None and summary.played == 0
            and summary.errors == 0 and all((out / name).is_file() for name in (REPORT_TEXT, "report.json",
                                                                                 "report.html")))


def _play(manifest: Manifest, out: Path, field_: list[str], scenario: str | None, result: StudyResult,
          jobs: int, progress: bool, say: Say, ray: RayCluster | None = None) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament

    generated = agent_dir(out)  # none when the manifest has no generator
    with searched_first("APDP_AGENTS", generated if generated.is_dir() else None):
        config = make_config(
            topology=",".join(manifest.networks) if manifest.networks else None,
            agents=field_,
            seed=manifest.seeds[0],
            repeat=len(manifest.seeds),
            scenario_file=scenario,
            overrides={"tasks": manifest.tasks, **{f"timeouts.{k}": v for k, v in manifest.timeouts.given().items()}},
        )
        result.agents = list(config.agents)
        check_private(config.agent_paths, [(out / RESULTS, "the study's results")], [(scenario, "its scenario")])
        say(f"tournaments: {len(config.topologies)} network(s) x {len(manifest.seeds)} seed(s), "
            f"{len(config.agents)} agents: {', '.join(config.agents)}")
        summary = run_tournament(config, out / RESULTS, jobs=jobs, progress=progress, grow=True, ray=ray)
    result.tournament = summary
    if summary.errors:
        raise UserError(f"{summary.errors} match(es) could not be played (see {out / RESULTS}/tournament.log); "
                        "rerun the study to play them")


def _write_reports(out: Path, result: StudyResult, jobs: int = 1, progress: bool = False) -> None:
    """The study's report: the tournaments' report grouped by model and strategy, with the
    generation funnel and the analysis added to it as parts, in report.json, report.html and
    report.txt."""
    from apdp.analysis.run import analyse
    from apdp.analysis.summary import to_json, to_text
    from apdp.tournament.report import Part, build, page_sections, render
    from apdp.tournament.report import to_json as report_json
    from apdp.tournament.report_page import write_report_page

    stats, pooled, context = build([out / RESULTS], GROUP_BY)  # once: the bootstrap is most of the work
    analysis = analyse([out / RESULTS], jobs=jobs, progress=progress)
    parts = [Part("funnel", result.funnel, funnel_text(result.funnel), funnel_html(result.funnel)),
             Part("analysis", to_json(analysis), to_text(analysis))]
    data = report_json(stats, pooled, GROUP_BY, context, parts)
    write_atomically(out / "report.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    write_report_page(data, out / "report.html", sections=page_sections(parts))
    result.report_text = render(stats, pooled, "table", GROUP_BY, context, parts=parts)
    write_atomically(out / REPORT_TEXT, result.report_text)
