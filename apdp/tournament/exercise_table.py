"""The table of a field of exercise agents (:mod:`apdp.tournament.exercise_field`): one row per agent
from its stored entries (:func:`summary_rows`), ranked by the exercise's score (:func:`rank_key`;
equal scores share a rank), and the text of it (:func:`ranking_text`). Entries are read as untrusted
figures (:func:`figure`): a field's folder may have been edited by hand.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from tabulate import tabulate

#: The largest figure an entry holds (more is no field's).
MOST_FIGURE = 1e15


def mean_of(values: Sequence[Any]) -> float | None:
    """The mean of the figures among ``values`` (finite numbers; None, text and the like are none), to
    four decimals; None when there is none."""
    given = [float(v) for v in values if figure(v)]
    return round(fmean(given), 4) if given else None


def figure(value: Any) -> bool:
    """Whether ``value`` is a finite number a field may have written (not a bool, within 1e15)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and (
        abs(value) < MOST_FIGURE if isinstance(value, int) else math.isfinite(value) and abs(value) < MOST_FIGURE)


def summary_rows(exercise: str, entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per agent: its rounds, faults and the exercise's score, ranked (best first)."""
    by_agent: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        by_agent.setdefault(str(entry["agent"]), []).append(entry)
    rows = [agent_row(exercise, name, mine) for name, mine in by_agent.items()]
    rows.sort(key=lambda r: (rank_key(exercise, r), r["agent"]))
    for place, row in enumerate(rows, 1):  # equal scores share a rank (1, 1, 3): no name wins a tie
        before = rows[place - 2] if place > 1 else None
        same = before is not None and rank_key(exercise, before) == rank_key(exercise, row)
        row["rank"] = before["rank"] if same and before is not None else place
    return rows


def agent_row(exercise: str, name: str, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """An agent's row of the table from its entries."""
    rounds = [e for e in entries if e.get("instance") is None]
    scores = [e["score"] for e in rounds if e.get("score")]
    row: dict[str, Any] = {"agent": name, "rounds": len(rounds),
                           "faults": sum(1 for e in entries if e.get("fault")),
                           "borrows": any(e.get("borrowed") for e in entries)}
    if exercise == "reactive":
        row.update(reward_per_km=mean_of([s.get("reward_per_km") for s in scores]),
                   optimal_reward_per_km=mean_of([s.get("optimal_reward_per_km") for s in scores]),
                   ratio=mean_of([s.get("ratio") for s in scores]))
    elif exercise == "deliberative":
        instances = [e for e in entries if e.get("instance") is not None]
        optimal_on = sum(1 for e in instances if e.get("score") and e["score"].get("all_optimal"))
        row.update(optimal=sum(1 for s in scores if s.get("all_optimal") is True),
                   excess=mean_of([s.get("excess") for s in scores]),
                   instances=len(instances), optimal_instances=optimal_on,
                   # an admissible search is optimal everywhere: on the instances, which an agent might
                   # recognise, and on every round
                   admissible=bool(instances) and optimal_on == len(instances) and all(
                       s.get("all_optimal") is True for s in scores) and len(scores) == len(rounds),
                   seconds=mean_of([s.get("seconds") for s in scores]), nodes=mean_of([s.get("nodes") for s in scores]),
                   plan_cpu=mean_of([s.get("plan_cpu") for s in scores]))
    else:
        row.update(profit=mean_of([s.get("profit") for s in scores]),
                   cost_vs_template=mean_of([s.get("cost_vs_template") for s in scores]),
                   cost_vs_planner=mean_of([s.get("cost_vs_planner") for s in scores]),
                   vehicles_used=mean_of([s.get("vehicles_used") for s in scores]),
                   vehicles=max((s["vehicles"] for s in scores if figure(s.get("vehicles"))), default=None))
    return row


def rank_key(exercise: str, row: dict[str, Any]) -> tuple[Any, ...]:
    """How rows sort, best first: fewer faults, its own solution before one that borrows apdp's
    solvers (:mod:`apdp.check.borrowed`), then the exercise's score."""
    big = float("inf")
    first = (row["faults"], bool(row.get("borrows")))
    if exercise == "reactive":
        return *first, -(row["ratio"] if row["ratio"] is not None else -big)
    if exercise == "deliberative":
        excess = row["excess"] if row["excess"] is not None else big
        # not on time: what an agent prints is its own say, and the CPU it took varies run to run
        return *first, not row["admissible"], -row["optimal"], excess
    return *first, row["cost_vs_template"] if row["cost_vs_template"] is not None else big


#: The table's columns of each exercise (key, heading).
COLUMNS = {
    "reactive": (("reward_per_km", "reward/km"), ("optimal_reward_per_km", "optimal reward/km"),
                 ("ratio", "vs optimal")),
    "deliberative": (("optimal", "optimal rounds"), ("excess", "excess vs optimum"),
                     ("optimal_instances", "optimal on discriminating"), ("instances", "of"),
                     ("admissible", "admissible"), ("plan_cpu", "plan CPU s"), ("seconds", "printed s"),
                     ("nodes", "printed nodes")),
    "centralized": (("profit", "profit"), ("cost_vs_template", "cost vs template"),
                    ("cost_vs_planner", "cost vs planner"), ("vehicles_used", "vehicles used"),
                    ("vehicles", "of")),
}


def ranking_text(exercise: str, rows: Sequence[dict[str, Any]], first: Sequence[tuple[str, str]] = ()) -> str:
    """The table of ``rows`` (``first``: more leading columns, such as a study's model and strategy)."""
    shown = [("rank", "#"), *first, ("agent", "agent"), ("rounds", "rounds"), ("faults", "faults"),
             *COLUMNS[exercise]]
    if any(r.get("borrows") for r in rows):
        shown.append(("borrows", "borrows apdp's solvers"))
    body = [["" if r.get(k) is None else _cell(r.get(k)) for k, _ in shown] for r in rows]
    return f"The {exercise} exercise, ranked:\n" + tabulate(body, headers=[h for _, h in shown], disable_numparse=True)


def _cell(value: Any) -> str:
    """A figure as the table shows it: whole numbers in full (a profit of 1735012, not 1.74e+06),
    others to four significant digits."""
    if isinstance(value, float):
        return f"{value:.0f}" if value.is_integer() or abs(value) >= 1e4 else f"{value:.4g}"
    return str(value)
