"""A study of one of the course's other exercises (``exercise = "reactive" | "deliberative" |
"centralized"`` in its manifest): instead of the auction's tournaments, every clean generated agent
(and the manifest's ``agents``) plays the exercise alone on the manifest's networks and seeds and is
scored against the references (:mod:`apdp.tournament.exercise_field`, its entries in
``DIR/exercise/``). The report (report.json, report.txt, report.html) and the funnel show, per model
and strategy, the first-try solve rate (agents clean on the first answer, of the generations) and
the exercise's score: reactive, reward per km against the optimal policy's; deliberative, how many
agents' plans were optimal and how many planned as an inadmissible heuristic does (not optimal on
the discriminating instances), with time and nodes where the agents printed them; centralized,
cost against the course's template and apdp's planner, and vehicles used.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tabulate import tabulate

from apdp.files import write_atomically
from apdp.study.funnel import funnel_csv, funnel_text
from apdp.study.manifest import Manifest
from apdp.tournament.exercise_field import FieldSpec, run_field
from apdp.tournament.exercise_table import mean_of, ranking_text, summary_rows

#: The folder of the exercise's entries inside the study's folder.
EXERCISE_RESULTS = "exercise"
#: The score columns each exercise adds to a model and strategy's row (key, heading).
GROUP_COLUMNS = {
    "reactive": (("scored", "agents scored"), ("ratio", "reward/km vs optimal")),
    "deliberative": (("scored", "agents scored"), ("optimal_agents", "optimal"), ("admissible", "admissible"),
                     ("inadmissible", "inadmissible"), ("plan_cpu", "plan CPU s"), ("seconds", "printed s"),
                     ("nodes", "printed nodes")),
    "centralized": (("scored", "agents scored"), ("cost_vs_template", "cost vs template"),
                    ("cost_vs_planner", "cost vs planner"), ("vehicles_used", "vehicles used")),
}


def group_scores(exercise: str, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The exercise's score of one model and strategy, from its agents' rows."""
    scored = [r for r in rows if r["rounds"] > r["faults"]]
    out: dict[str, Any] = {"scored": len(scored)}
    if exercise == "reactive":
        out["ratio"] = mean_of([r["ratio"] for r in scored])
    elif exercise == "deliberative":
        out.update(optimal_agents=sum(1 for r in scored if r["optimal"] == r["rounds"] and not r["faults"]),
                   admissible=sum(1 for r in scored if r["admissible"]),
                   inadmissible=sum(1 for r in scored if r["instances"] and not r["admissible"]),
                   plan_cpu=mean_of([r.get("plan_cpu") for r in scored]),
                   seconds=mean_of([r["seconds"] for r in scored]),
                   nodes=mean_of([r["nodes"] for r in scored]))
    else:
        out.update(cost_vs_template=mean_of([r["cost_vs_template"] for r in scored]),
                   cost_vs_planner=mean_of([r["cost_vs_planner"] for r in scored]),
                   vehicles_used=mean_of([r["vehicles_used"] for r in scored]))
    return out


def score_study(manifest: Manifest, out: Path, field_: Sequence[str], made_by: Mapping[str, tuple[str, str]],
                funnel: list[dict[str, Any]], say: Callable[[str], None], jobs: int = 1) -> str:
    """Play and score ``field_`` (paths or names; ``made_by``: agent name -> (model, strategy) of
    the generated ones; ``jobs`` rounds at once), add the scores to the ``funnel`` rows, write the
    reports; the report's text."""
    exercise = manifest.exercise
    timeouts = {k: v for k, v in manifest.timeouts.given().items() if k in ("setup", "plan")}
    spec = FieldSpec(exercise, tuple(manifest.networks or ()), tuple(manifest.seeds), manifest.tasks, timeouts)
    say(f"{exercise} exercise: {len(field_)} agent(s) on {', '.join(spec.networks)}, seed(s) "
        f"{', '.join(map(str, manifest.seeds))}")
    rows = summary_rows(exercise, run_field(spec, field_, out / EXERCISE_RESULTS, say, jobs))
    for row in rows:
        row["model"], row["strategy"] = made_by.get(row["agent"], ("", "baseline"))
    for group in funnel:
        mine = [r for r in rows if (r["model"], r["strategy"]) == (group["model"], group["strategy"])]
        group["first_try_rate"] = round(group["clean_first"] / group["attempts"], 4) if group["attempts"] else None
        group.update(group_scores(exercise, mine))
    write_atomically(out / "funnel.csv", funnel_csv(funnel, extra=("first_try_rate",
                                                                   *(k for k, _ in GROUP_COLUMNS[exercise]))))
    text = report_text(exercise, rows, funnel)
    data = {"exercise": exercise, "agents": rows, "groups": funnel, "funnel": funnel}
    write_atomically(out / "report.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    write_atomically(out / "report.txt", text)
    write_atomically(out / "report.html", report_page(exercise, text))
    return text


def groups_text(exercise: str, funnel: Sequence[Mapping[str, Any]]) -> str:
    """The per model and strategy table: solve rate on the first try and the exercise's score."""
    shown = [("model", "model"), ("strategy", "strategy"), ("attempts", "generations"),
             ("first_try_rate", "solved first try"), *GROUP_COLUMNS[exercise]]
    body = [["" if g.get(k) is None else g.get(k) for k, _ in shown] for g in funnel]
    return (f"The {exercise} exercise per model and strategy:\n"
            + tabulate(body, headers=[h for _, h in shown]))


def report_text(exercise: str, rows: Sequence[dict[str, Any]], funnel: Sequence[Mapping[str, Any]]) -> str:
    """The study's report: per model and strategy, each agent ranked, the funnel."""
    parts = [groups_text(exercise, funnel),
             ranking_text(exercise, rows, first=(("model", "model"), ("strategy", "strategy"))),
             funnel_text(list(funnel))]
    return "\n\n".join(parts) + "\n"


def report_page(exercise: str, text: str) -> str:
    """report.html: the report's tables as a page."""
    title = f"apdp study: the {exercise} exercise"
    return (f"<!doctype html><meta charset='utf-8'><title>{html.escape(title)}</title><h1>{html.escape(title)}</h1>"
            f"<section id='exercise-section'><pre>{html.escape(text)}</pre></section>\n")
