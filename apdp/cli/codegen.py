"""``apdp codegen``: render prompts, ingest a model's reply, check an agent, run the generation loop."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from apdp.agents.discovery import find_agent
from apdp.agents.program import is_program
from apdp.cli.options import options_of
from apdp.errors import UserError
from apdp.files import write_atomically
from apdp.lookup import searched_first

if TYPE_CHECKING:
    from apdp.check.config import CheckConfig
    from apdp.check.report import CheckReport
    from apdp.codegen.client import ChatClient

# The prompts, the check (the referee) and the generation loop are imported by the commands that use
# them: `apdp --help` and the other commands do not load them.

codegen_app = typer.Typer(
    name="codegen",
    help="Generate agents with a language model: prompt, ingest, check, run (Refine@K).",
    no_args_is_help=True,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"

AgentsDir = Annotated[Path, typer.Option("--agents-dir", help="Folder of generated agents.", file_okay=False)]
Tasks = Annotated[int, typer.Option(help="Tasks per check match.")]
Seed = Annotated[int, typer.Option(help="Seed of the check matches.")]
SetupTimeout = Annotated[float | None, typer.Option(help="Seconds for setup (default 10).")]
BidTimeout = Annotated[float | None, typer.Option(help="Seconds per bid (default 2.5).")]
PlanTimeout = Annotated[float | None, typer.Option(help="Seconds for the plan (default 5).")]
Opponents = Annotated[
    list[str] | None, typer.Option("--opponent", help="Check opponent (repeat; default naive, honest).")
]
Topologies = Annotated[
    list[str] | None,
    typer.Option("--topology", help="Check network (repeat; default france, switzerland)."),
]
ScenarioFile = Annotated[Path | None, typer.Option(help="Base scenario TOML file for the check.")]
Language = Annotated[
    str, typer.Option(help="python (an apdp.Agent) or java (a Logist AuctionBehavior class; needs a JDK 17+).")
]
Exercise = Annotated[
    str | None,
    typer.Option(help="The course's reactive, deliberative or centralized exercise instead of the auction: its "
                      "prompt, and its check (a round of its course configuration)."),
]


def check_options(
    tasks: Tasks = 20,
    seed: Seed = 1,
    setup_timeout: SetupTimeout = None,
    bid_timeout: BidTimeout = None,
    plan_timeout: PlanTimeout = None,
    opponent: Opponents = None,
    topology: Topologies = None,
    scenario: ScenarioFile = None,
) -> CheckConfig:
    """The check's configuration from the options of the commands that check an agent."""
    from apdp.check.config import DEFAULT_OPPONENTS, DEFAULT_TOPOLOGIES, CheckConfig

    timeouts = {
        k: v for k, v in (("setup", setup_timeout), ("bid", bid_timeout), ("plan", plan_timeout)) if v is not None
    }
    if tasks < 1:
        raise UserError(f"--tasks must be >= 1, got {tasks}")
    return CheckConfig(
        opponents=tuple(opponent or DEFAULT_OPPONENTS),
        topologies=tuple(topology or DEFAULT_TOPOLOGIES),
        tasks=tasks,
        seed=seed,
        timeouts=timeouts,
        scenario=scenario,
    )


Parent = Annotated[
    str | None,
    typer.Option(help="improve: the agent to improve (a name or a path; a Python file or a Java agent)."),
]


@codegen_app.command()
def prompt(
    strategy: Annotated[str, typer.Option(help="Prompt to render: a1, a2 or improve.")] = "a1",
    out: Annotated[Path | None, typer.Option(help="Write the prompt here instead of stdout.")] = None,
    language: Language = "python",
    parent: Parent = None,
) -> None:
    """Render a generation prompt (the rules, the API, the template agent verbatim; with --strategy
    improve, the agent of --parent instead of the template, in its language)."""
    from apdp.codegen.languages import language as lang_of

    if strategy.lower() == "improve" or parent is not None:
        from apdp.codegen.loop import improvement_prompt
        from apdp.codegen.parent import read_parent

        if strategy.lower() != "improve" or parent is None:
            raise UserError("--parent goes with --strategy improve, and improve needs --parent AGENT")
        improved = read_parent(parent)
        rendered = improvement_prompt(lang_of(improved.language), improved)
    else:
        rendered = lang_of(language).strategy_prompt(strategy.lower())
    if out is None:
        sys.stdout.write(rendered.text)
        typer.echo(f"prompt {strategy} sha256 {rendered.sha256}", err=True)
        return
    write_atomically(out, rendered.text)
    typer.echo(f"wrote {out} (prompt {strategy}, sha256 {rendered.sha256})")


@codegen_app.command()
def ingest(
    reply: Annotated[str, typer.Argument(help="File with the model's reply ('-' reads stdin).")],
    name: Annotated[str, typer.Option(help="Agent name: writes AGENTS_DIR/NAME.py.")],
    model: Annotated[str | None, typer.Option(help="Model that wrote the reply.")] = None,
    strategy: Annotated[str | None, typer.Option(help="Strategy: a1, a2, ir, cr, gen, ...")] = None,
    round: Annotated[int, typer.Option("--round", help="Repair round (0 = first reply).")] = 0,
    prompt_hash: Annotated[
        str | None,
        typer.Option(help="sha256 of the prompt used (default for a1/a2: the current prompt's)."),
    ] = None,
    agents_dir: AgentsDir = Path("agents"),
    force: Annotated[bool, typer.Option(help="Replace a different agent of that name.")] = False,
    language: Language = "python",
    parent: Parent = None,
) -> None:
    """Extract the agent from a model's reply and write it with its provenance (with --parent, the
    agent it improves: its name and hash, as of now)."""
    from apdp.codegen.languages import language as lang_of
    from apdp.codegen.prompts import PROMPT_STRATEGIES

    if reply == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(reply).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"cannot read reply {reply}: {exc}") from None
    lang = lang_of(language)
    improved = None
    if parent is not None:
        from apdp.codegen.loop import improvement_prompt
        from apdp.codegen.parent import read_parent

        improved = read_parent(parent)
        if improved.language != lang.name:
            raise UserError(f"the parent {improved.name} is a {improved.language} agent: give --language "
                            f"{improved.language}")
        if prompt_hash is None and (strategy or "").lower() == "improve":
            prompt_hash = improvement_prompt(lang, improved).sha256
    if prompt_hash is None and strategy is not None and strategy.lower() in PROMPT_STRATEGIES:
        prompt_hash = lang.strategy_prompt(strategy.lower()).sha256
    agent = lang.ingest(
        lang.extract(text),
        name,
        agents_dir=agents_dir,
        model=model,
        strategy=strategy,
        round=round,
        prompt_hash=prompt_hash,
        force=force,
        extra=improved.lineage() if improved is not None else None,
    )
    typer.echo(f"wrote {agent.path} and {agent.sidecar.name}")
    typer.echo(f"check it with: apdp codegen check {agent.path}")


@codegen_app.command()
@options_of(check_options, "config")
def check(
    name: Annotated[str, typer.Argument(help="Agent name or .py file.")],
    agents_dir: AgentsDir = Path("agents"),
    *,
    config: CheckConfig,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    exercise: Exercise = None,
) -> None:
    """Import the agent, play self-play and baselines on two networks, report every fault (with
    --exercise E: one round of that exercise's course configuration).

    Exit 0 when clean, 1 when the agent faulted, 2 on bad usage.
    """
    from apdp.check.exercise_check import check_exercise_agent, checked_exercise
    from apdp.check.gate import check_agent

    local = agents_dir / f"{name}.py"
    target = str(local) if not name.endswith(".py") and local.is_file() else name
    if is_program(agents_dir / name):  # an agent folder (a Java agent)
        target = str(agents_dir / name)
    find_agent(target)  # an unknown name is a usage error before anything runs
    report: CheckReport
    if exercise is not None:
        report = check_exercise_agent(target, config, exercise=checked_exercise(exercise.lower()))
    else:
        report = check_agent(target, config,
                             on_match=None if as_json else lambda m: typer.echo(f"  {m.summary()}", err=True))
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        typer.echo(report.text(), nl=False)
    raise typer.Exit(0 if report.ok else 1)


@codegen_app.command("run")
@options_of(check_options, "config")
def run_command(
    model: Annotated[str, typer.Option(help="Generator model name.")],
    base_url: Annotated[
        str | None,
        typer.Option(help="OpenAI-compatible API base URL (default $OPENAI_BASE_URL or OpenAI)."),
    ] = None,
    strategy: Annotated[str, typer.Option(help="a1, a2, ir, cr, gen or improve.")] = "a1",
    parent: Parent = None,
    rounds: Annotated[int, typer.Option(help="K: repairs per phase while the check fails.")] = 3,
    critic_model: Annotated[str | None, typer.Option(help="Critic model for cr (default: the generator).")] = None,
    name: Annotated[str | None, typer.Option(help="Agent name (default MODEL-STRATEGY).")] = None,
    agents_dir: AgentsDir = Path("agents"),
    force: Annotated[bool, typer.Option(help="Replace an existing agent of that name.")] = False,
    http_timeout: Annotated[float, typer.Option(help="Seconds per HTTP request, the whole response included.")] = 300.0,
    retries: Annotated[int, typer.Option(help="Retries on 5xx, 429 and connection errors.")] = 4,
    backoff: Annotated[float, typer.Option(help="First retry delay in seconds (doubles).")] = 2.0,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    *,
    config: CheckConfig,
    language: Annotated[
        str | None,
        typer.Option(help="python (an apdp.Agent) or java (a Logist AuctionBehavior class; needs a JDK 17+); "
                          "default python, or the parent's language."),
    ] = None,
    exercise: Exercise = None,
) -> None:
    """Generate an agent with a model, check it and feed errors back (Refine@K).

    With --exercise reactive|deliberative|centralized the model gets that exercise's assignment
    (strategy a1 or ir) and its agent is checked by playing a round of the exercise.

    With --strategy improve the model gets the problem and the source of --parent and writes an
    improved agent, whose provenance names its parent. The API key is read from OPENAI_API_KEY.
    Exit 0 when the agent kept is clean, 1 when it still faults after K repairs, 2 on bad usage or
    when the endpoint cannot answer.
    """
    from apdp.codegen.client import ChatClient
    from apdp.codegen.ingest import default_name, reject_agent
    from apdp.codegen.languages import language as lang_of
    from apdp.codegen.loop import FROM_PARENT, STRATEGIES, RunSettings, run
    from apdp.codegen.parent import read_parent

    strategy = strategy.lower()
    if strategy not in STRATEGIES:
        raise UserError(f"unknown --strategy {strategy!r}; use one of {', '.join(STRATEGIES)}")
    if (parent is None) == (strategy in FROM_PARENT):
        raise UserError("--strategy improve needs --parent AGENT" if parent is None
                        else f"--parent is for --strategy improve, not {strategy}")
    with searched_first("APDP_AGENTS", agents_dir if agents_dir.is_dir() else None):
        improved = read_parent(parent) if parent is not None else None
    if language is None:
        language = improved.language if improved is not None else "python"
    if http_timeout <= 0 or retries < 0 or backoff < 0:
        raise UserError("--http-timeout must be > 0, --retries and --backoff >= 0")
    url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL

    def client(name: str) -> ChatClient:
        return ChatClient(url, name, timeout=http_timeout, retries=retries, backoff=backoff, temperature=temperature,
                          on_retry=lambda line: typer.echo(line, err=True))

    generator = client(model)
    critic = client(critic_model) if critic_model is not None else None
    if exercise is not None:
        from apdp.check.exercise_check import checked_exercise

        exercise = checked_exercise(exercise.lower())
    settings = RunSettings(
        strategy=strategy,
        exercise=exercise,
        name=name or default_name(model, strategy if exercise is None else f"{exercise}-{strategy}"),
        agents_dir=agents_dir,
        rounds=rounds,
        check=config,
        force=force,
        language=lang_of(language).name,
        parent=improved,
    )
    result = run(settings, generator, critic, say=lambda line: typer.echo(line, err=True))
    if result.report is not None:
        typer.echo(result.report.text(), nl=False)
    transcript = result.transcript
    if result.agent is None:
        typer.echo(f"no agent: the model never returned usable code; {result.rounds + 1} round(s) played; "
                   f"transcript {transcript}")
    elif result.ok:
        typer.echo(f"{result.agent.path}: clean, round {result.agent.provenance.round} kept; "
                   f"{result.rounds + 1} round(s) played; transcript {transcript}")
    else:  # kept out of every tournament, where a user can still look at it
        moved = reject_agent(result.agent.path, result.agent.provenance)
        typer.echo(f"{result.agent.path.name}: still faulty after round {result.agent.provenance.round}; moved out of "
                   f"play to {moved} (with its transcript); {result.rounds + 1} round(s) played")
    raise typer.Exit(0 if result.ok else 1)


@codegen_app.command("evolve")
def evolve_command(
    model: Annotated[str, typer.Option(help="Generator model name.")],
    name: Annotated[str, typer.Option(help="The lineage's name: its versions are NAME-v0, NAME-v1, ...")],
    base_url: Annotated[
        str | None,
        typer.Option(help="OpenAI-compatible API base URL (default $OPENAI_BASE_URL or OpenAI)."),
    ] = None,
    rounds: Annotated[int, typer.Option(help="Rounds: tournament, results to the model, a new version.")] = 3,
    field: Annotated[
        str | None,
        typer.Option(help="The opponents, comma-separated (names or paths); none: self-play against its versions."),
    ] = None,
    start: Annotated[str | None, typer.Option(help="An existing agent as version 0 (else it is generated).")] = None,
    strategy: Annotated[str, typer.Option(help="How version 0 is generated: a1, a2, ir, cr or gen.")] = "a1",
    repairs: Annotated[int, typer.Option(help="K: repairs per version while its check fails.")] = 3,
    topology: Annotated[str, typer.Option(help="The network of the tournaments.")] = "france",
    tasks: Annotated[int, typer.Option(help="Tasks per tournament match.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the tournaments.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Matches played at once.")] = 1,
    work: Annotated[
        Path | None,
        typer.Option(help="Folder of the tournaments' results, curve.csv, evolve.json (default evolve/NAME)."),
    ] = None,
    agents_dir: AgentsDir = Path("agents"),
    force: Annotated[
        bool, typer.Option(help="Start over: make every version again (earlier results stay in the work folder).")
    ] = False,
    http_timeout: Annotated[float, typer.Option(help="Seconds per HTTP request, the whole response included.")] = 300.0,
    retries: Annotated[int, typer.Option(help="Retries on 5xx, 429 and connection errors.")] = 4,
    backoff: Annotated[float, typer.Option(help="First retry delay in seconds (doubles).")] = 2.0,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    check_tasks: Annotated[int, typer.Option(help="Tasks per check match of each version.")] = 20,
    setup_timeout: SetupTimeout = None,
    bid_timeout: BidTimeout = None,
    plan_timeout: PlanTimeout = None,
    opponent: Opponents = None,
    check_topology: Annotated[
        list[str] | None, typer.Option("--check-topology", help="Check network (repeat; default france, switzerland).")
    ] = None,
    language: Annotated[
        str | None, typer.Option(help="python or java (default: the start agent's language, else python).")
    ] = None,
) -> None:
    """Tournament in the loop: each round the current version plays the field, the model reads its own
    results (standings, lost matches with their bids and its plans, faults, CPU use; never the
    opponents' code) and writes the next version. All versions are rated together at the end: the
    curve (round, version, tokens, rating) is printed and written to WORK/curve.csv and evolve.json.

    A rerun with the same --name continues from the last finished round. Exit 0 when done, 2 on bad
    usage or when the endpoint cannot answer.
    """
    from apdp.codegen.client import ChatClient
    from apdp.study.evolve import EvolveSettings, evolve

    if http_timeout <= 0 or retries < 0 or backoff < 0:
        raise UserError("--http-timeout must be > 0, --retries and --backoff >= 0")
    if tasks < 1 or repairs < 0 or jobs < 1:
        raise UserError("--tasks and --jobs must be >= 1, --repairs >= 0")
    url = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    generator = ChatClient(url, model, timeout=http_timeout, retries=retries, backoff=backoff,
                           temperature=temperature, on_retry=lambda line: typer.echo(line, err=True))
    opponents = tuple(a.strip() for a in field.split(",")) if field else ()
    if any(not a for a in opponents):
        raise UserError(f"--field {field!r} has an empty name; give e.g. honest,naive")
    timeouts = {k: v for k, v in (("setup", setup_timeout), ("bid", bid_timeout), ("plan", plan_timeout))
                if v is not None}
    settings = EvolveSettings(
        name=name, rounds=rounds, agents_dir=agents_dir, work=work, opponents=opponents, start=start,
        strategy=strategy.lower(), language=language, repairs=repairs,
        check=check_options(check_tasks, seed, setup_timeout, bid_timeout, plan_timeout, opponent, check_topology,
                            None),
        topology=topology, tasks=tasks, seed=seed, timeouts=timeouts, jobs=jobs, force=force,
    )
    result = evolve(settings, generator, say=lambda line: typer.echo(line, err=True))
    typer.echo(result.curve_text())
    rejected = f"; rejected in round(s) {', '.join(map(str, result.rejected))}" if result.rejected else ""
    typer.echo(f"{len(result.versions)} version(s){rejected}; curve in {result.work / 'curve.csv'} and "
               f"{result.work / 'evolve.json'}; report: apdp report {result.final}")


def register(app: typer.Typer) -> None:
    """Add ``apdp codegen`` to the ``apdp`` command."""
    app.add_typer(codegen_app, name="codegen")
