"""``apdp report``: the study's tables over any number of tournament results folders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from apdp.errors import UserError
from apdp.files import write_atomically
from apdp.tournament.choices import FORMATS, MIN_RESAMPLES, RESAMPLES, TABLES


def report_command(
    folders: Annotated[list[Path], typer.Argument(
        help="Results folders of `apdp tournament`, or a study's folder (its results/).")],
    format: Annotated[
        str, typer.Option("--format", "-f", help=f"Output format: {', '.join(FORMATS)}.")
    ] = "table",
    group_by: Annotated[
        str | None,
        typer.Option(help="Also pool agents by origin: model, strategy, or model,strategy (also named "
                     "provenance); each group's rating has an interval over its agents and matches."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the report to this file (html: required).")
    ] = None,
    replays: Annotated[
        bool, typer.Option(help="html: also write every match's replay into OUT-replays/ and link them.")
    ] = False,
    table: Annotated[
        str | None,
        typer.Option(help=f"csv: the one table to write: {', '.join(TABLES)} (default standings)."),
    ] = None,
    resamples: Annotated[
        int,
        typer.Option(help=f"Bootstrap resamples behind the 95% intervals (at least {MIN_RESAMPLES}); "
                     "a seeded draw: the same results give the same report."),
    ] = RESAMPLES,
    mixed: Annotated[
        bool,
        typer.Option(help="Pool tournaments even when their agents, networks or task counts differ, or when "
                     "two stores of one tournament hold different results (each then counts on its own)."),
    ] = False,
    analysis: Annotated[
        bool,
        typer.Option("--analysis", help="Add each agent's bidding apart from its planning, as apdp analyze "
                     "works it out (it replans every match: slower)."),
    ] = False,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="--analysis: matches analysed at once (default: one per core).")
    ] = None,
) -> None:
    """Standings with ratings, pairwise grid, pairings by side, faults and profits, pooled."""
    from apdp.tournament.report import build, check_options, render, report  # here: --help stays quick

    fmt = format.lower()
    folders = results_folders(folders)
    grouping = group_by.lower().replace(" ", "") if group_by else None
    if analysis and fmt == "csv":
        raise UserError("--analysis is for --format table, markdown, json or html; for its figures alone, "
                        "run apdp analyze")
    if jobs is not None and (not analysis or jobs < 1):
        raise UserError("--jobs is for --analysis, and at least 1")
    if fmt == "json" and analysis:
        data = json.loads(report(folders, "json", grouping, mixed=mixed, table=table, resamples=resamples))
        data["analysis"] = _analysis(folders, jobs, json_form=True)
        _write(json.dumps(data, indent=2), out)
        return
    if fmt == "html":
        if out is None:
            raise UserError("--format html writes a page: give its file with --out FILE.html")
        from apdp.tournament.report_page import write_report_page

        data = json.loads(report(folders, "json", grouping, mixed=mixed, resamples=resamples))
        if analysis:
            data["analysis"] = _analysis(folders, jobs, json_form=True)
        written = write_report_page(data, out, replays=replays)
        typer.echo(f"report written to {written.path} ({written.bytes / 1024:,.0f} KiB, {written.matches} matches)")
        if written.replays is not None:
            typer.echo(f"replays written to {written.replays}/")
        return
    if replays:
        raise UserError("--replays is for --format html")
    if fmt == "csv":  # a table alone, its notes on stderr
        check_options(fmt, grouping, table, resamples)
        stats, pooled, context = build(folders, grouping, mixed=mixed, resamples=resamples)
        text = render(stats, pooled, fmt, grouping, context, table)
        for note in context.notes:
            typer.echo(f"note: {note}", err=True)
    else:
        text = report(folders, fmt, grouping, mixed=mixed, table=table, resamples=resamples)
        if analysis:
            text += "\n\n" + _analysis(folders, jobs, json_form=False, markdown=fmt == "markdown")
    _write(text, out)


def results_folders(folders: list[Path]) -> list[Path]:
    """The results folders ``folders`` stand for: a study's folder (``apdp study run --out``) stands
    for its ``results/``, where its tournaments are; any other folder for itself."""
    from apdp.study.run import RESULTS
    from apdp.tournament.store import STORE_FILE

    return [f / RESULTS if not (f / STORE_FILE).exists() and (f / RESULTS / STORE_FILE).is_file() else f
            for f in folders]


def _write(text: str, out: Path | None) -> None:
    if out is None:
        typer.echo(text)
    else:
        write_atomically(out, text + "\n")
        typer.echo(f"report written to {out}")


def _analysis(folders: list[Path], jobs: int | None, *, json_form: bool, markdown: bool = False) -> Any:
    """The analysis of ``folders`` (:mod:`apdp.analysis`): its JSON, or its table (as markdown)."""
    from apdp.analysis.run import analyse
    from apdp.analysis.summary import to_json, to_markdown, to_text
    from apdp.cli.tournament import default_jobs

    found = analyse(folders, jobs=jobs or default_jobs(), progress=True)
    if json_form:
        return to_json(found)
    return to_markdown(found) if markdown else to_text(found)


def register(app: typer.Typer) -> None:
    """Add ``apdp report`` to the CLI."""
    app.command("report")(report_command)
