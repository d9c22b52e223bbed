"""The generation funnel: for every model x strategy, how many generations it took to get clean agents.

One row per model and strategy, from the journal alone (:mod:`apdp.study.journal`): the generations
finished (``attempts``), the model's replies and those with code, the agents clean at round 0
(``clean_first``), clean after k repairs (``clean_after_repair``, with a histogram of k) and never clean
(``never_clean``, endpoint failures included and also counted in ``errors``), the fault kinds their
checks met, and what they cost: calls, tokens, model seconds and wall seconds, each in total and per
clean agent, and money when the manifest prices the model's tokens. Tokens and seconds are those of the
calls paid for: a call replayed from the journal counts once. The journal is a file anyone could have
edited: a token figure that is not a whole number from 0 to a bound, or seconds that are not a finite
number, count as not reported (0), never as a crash.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from tabulate import tabulate

from apdp.codegen.usage import TOKEN_FIELDS, seconds_figure, usage_tokens
from apdp.study.generate import Job
from apdp.study.journal import Journal

#: funnel.csv's columns, in order.
COLUMNS = (
    "model", "strategy", "attempts", "replies", "replies_with_code", "clean_first", "clean_after_repair",
    "never_clean", "errors", "repairs", "faults", "calls", "prompt_tokens", "completion_tokens", "tokens",
    "model_seconds", "seconds", "cost", "tokens_per_clean", "seconds_per_clean", "cost_per_clean",
)


def _per(total: float | None, clean: int, digits: int = 1) -> float | None:
    return None if total is None or clean == 0 else round(total / clean, digits)


def _seconds(entry: Mapping[str, Any]) -> float:
    return seconds_figure(entry.get("seconds")) or 0.0


def _whole(entry: Mapping[str, Any], key: str) -> int:
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**9 else 0


def funnel_rows(jobs: Sequence[Job], journal: Journal) -> list[dict[str, Any]]:
    """The funnel's rows, in the manifest's order of models and strategies."""
    groups: dict[tuple[str, str], list[Job]] = {}
    for job in jobs:
        groups.setdefault((job.generator.model, job.strategy), []).append(job)
    calls_of: dict[str, list[Mapping[str, Any]]] = {}
    for entry in journal.entries:
        if entry.get("kind") == "call":
            calls_of.setdefault(str(entry.get("job")), []).append(entry)
    rows = []
    for (model, strategy), members in groups.items():
        outcomes = [journal.jobs[j.id] for j in members if j.id in journal.jobs]
        firsts = [o.get("first_clean") for o in outcomes]
        repairs: dict[int, int] = {}
        for k in firsts:
            if isinstance(k, int) and k > 0:
                repairs[k] = repairs.get(k, 0) + 1
        calls = [c for j in members for c in calls_of.get(j.id, [])]
        tokens = {key: sum(usage_tokens(c.get("usage"), key) or 0 for c in calls) for key in TOKEN_FIELDS}
        total = tokens["total_tokens"] or tokens["prompt_tokens"] + tokens["completion_tokens"]
        price = members[0].generator.price
        cost = None if price is None else round(
            (tokens["prompt_tokens"] * price.prompt + tokens["completion_tokens"] * price.completion) / 1e6, 6)
        clean = sum(1 for k in firsts if k is not None)
        model_seconds = round(sum(_seconds(c) for c in calls), 3)
        seconds = round(sum(_seconds(o) for o in outcomes), 3)
        rows.append({
            "model": model,
            "strategy": strategy,
            "attempts": len(outcomes),
            "replies": sum(_whole(o, "replies") for o in outcomes),
            "replies_with_code": sum(_whole(o, "replies_with_code") for o in outcomes),
            "clean_first": sum(1 for k in firsts if k == 0),
            "clean_after_repair": sum(1 for k in firsts if isinstance(k, int) and k > 0),
            "never_clean": sum(1 for k in firsts if k is None),
            "errors": sum(1 for o in outcomes if o.get("status") == "error"),
            "repairs": " ".join(f"{k}:{n}" for k, n in sorted(repairs.items())),
            "faults": " ".join(sorted({str(f) for o in outcomes for f in o.get("faults") or []})),
            "calls": len(calls),
            "prompt_tokens": tokens["prompt_tokens"],
            "completion_tokens": tokens["completion_tokens"],
            "tokens": total,
            "model_seconds": model_seconds,
            "seconds": seconds,
            "cost": cost,
            "tokens_per_clean": _per(total, clean),
            "seconds_per_clean": _per(seconds, clean),
            "cost_per_clean": _per(cost, clean, 6),
        })
    return rows


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def funnel_csv(rows: Sequence[Mapping[str, Any]], extra: Sequence[str] = ()) -> str:
    """``funnel.csv``: a header, then one line per model and strategy (``extra``: more columns after
    the funnel's, such as an exercise study's scores)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = (*COLUMNS, *extra)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    return buffer.getvalue()


#: The columns of the terminal and HTML tables, with their headings.
_SHOWN = (
    ("model", "model"), ("strategy", "strategy"), ("attempts", "attempts"), ("replies_with_code", "with code"),
    ("clean_first", "clean r0"), ("clean_after_repair", "clean after repair"), ("repairs", "repairs k:n"),
    ("never_clean", "never clean"), ("errors", "endpoint errors"), ("faults", "fault kinds"),
    ("tokens", "tokens"), ("tokens_per_clean", "tokens/clean"), ("seconds_per_clean", "s/clean"),
    ("cost_per_clean", "cost/clean"),
)


def _shown(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    priced = any(r.get("cost") is not None for r in rows)
    return [(k, h) for k, h in _SHOWN if priced or k != "cost_per_clean"]


def funnel_text(rows: Sequence[Mapping[str, Any]]) -> str:
    """The funnel as a plain-text table."""
    if not rows:
        return "Generation funnel: no generator in the manifest."
    shown = _shown(rows)
    table = tabulate([[_cell(r.get(k)) for k, _ in shown] for r in rows], headers=[h for _, h in shown])
    return "Generation funnel (per model and strategy):\n" + table


def funnel_html(rows: Sequence[Mapping[str, Any]]) -> str:
    """The funnel as an HTML section for the report page."""
    shown = _shown(rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h in shown)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(r.get(k)))}</td>" for k, _ in shown) + "</tr>" for r in rows
    )
    return (
        '<section id="funnel-section"><h2>Generation funnel</h2>\n'
        '<p class="note">Per model and strategy: generations finished, replies with code, agents clean at '
        "round 0, clean after k repairs (k:count), never clean (endpoint errors included), the fault kinds "
        "their checks met, and tokens, wall seconds and cost per clean agent (funnel.csv has every column)."
        "</p>\n"
        f'<div class="scroll"><table id="funnel"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
        "</div></section>\n"
    )
