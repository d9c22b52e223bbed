"""Play the same Logist agents on the real platform and in apdp, side by side, and compare.

Every ordered pair of a project's agents plays one game on the platform (its jar, run headless as
``java logist.LogistPlatform -o HISTORY CONFIGURATION A B``) and one match in apdp on the same
configuration file, one at a time (the platform plays on one core). A game the platform ends with
an exception (a timeout, a crash, an invalid plan) goes to the other agent, as the study scored
it. Printed: every game whose winner or fault differs, each agent's wins and faults on both, the
agreement of the winners and the rank agreement (Spearman) of the agents' wins.

    python bench/logist_agreement.py --platform ~/logist --project ~/course/project \\
        --configuration config/auction.xml [--agents a b c] [--tasks 20]

``--platform`` is the platform's folder (``logist.jar`` and its ``lib/``); ``--project`` a Logist
project (``config/agents.xml``, its agents' sources under ``src/`` or classes where
``class-path`` says), compiled here against the platform's jar for the platform and installed with
``apdp logist import`` for apdp; ``--configuration`` is relative to the project. The platform's
window is turned off in a copy of the settings file it imports.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from itertools import permutations
from pathlib import Path

import numpy as np

from apdp.agents.java.project import import_project, read_agents_xml
from apdp.referee.match import play_match
from apdp.scenario import load_scenario

#: Where the platform's LogistException names the agent at fault.
_AGENT_FAULT = re.compile(r"agent (\S+) (timed out|crashed|was interrupted)")


def compile_for_platform(project: Path, platform: Path, out: Path) -> None:
    """The project's sources compiled against the platform's jar (its sources in the jar ignored)."""
    sources = [str(p) for p in sorted(project.rglob("*.java"))]
    classpath = os.pathsep.join([str(platform / "logist.jar"), *map(str, sorted((platform / "lib").glob("*.jar")))])
    subprocess.run(["javac", "-nowarn", "-sourcepath", "", "-encoding", "UTF-8", "-d", str(out), "-cp", classpath,
                    *sources], check=True, capture_output=True, text=True)


def headless_copy(project: Path, work: Path) -> None:
    """The project's config folder in ``work``, with every settings file's window turned off."""
    shutil.copytree(project / "config", work / "config")
    for settings in (work / "config").rglob("*.xml"):
        text = settings.read_text(encoding="latin-1")
        if "<settings" in text and "flag-show-ui" not in text:
            settings.write_text(text.replace("</settings>", '  <set flag-show-ui="false"/>\n</settings>'),
                                encoding="latin-1")


def platform_game(platform: Path, work: Path, configuration: str, a: str, b: str) -> tuple[str | None, str | None]:
    """(winner, agent at fault) of one game on the platform; the winner None on a draw."""
    history = work / "history.xml"
    history.unlink(missing_ok=True)
    classpath = os.pathsep.join([str(platform / "logist.jar"), *map(str, sorted((platform / "lib").glob("*.jar"))),
                                 str(work / "bin")])
    done = subprocess.run(["java", "-Djava.awt.headless=true", "-cp", classpath, "logist.LogistPlatform", "-o",
                           str(history), configuration, a, b], cwd=work, capture_output=True, text=True, timeout=3600)
    text = history.read_text(encoding="latin-1") if history.exists() else ""
    if done.returncode != 0 or "<statistics>" not in text:
        found = _AGENT_FAULT.search(text + done.stderr)
        faulty = found.group(1) if found else "?"
        return (b if faulty == a else a if faulty == b else None), faulty
    profits = {str(s.get("agent")): int(float(s.find("total-profit").get("value")))  # type: ignore[union-attr,arg-type]
               for s in ET.fromstring(text).iter("stat")}
    if profits[a] == profits[b]:
        return None, None
    return (a if profits[a] > profits[b] else b), None


def apdp_game(configuration: Path, a: str, b: str, tasks: int | None) -> tuple[str | None, str | None]:
    """(winner, agent at fault) of the same game in apdp."""
    scenario = load_scenario(configuration, {"tasks": tasks, "task_draw": "platform"})
    record = play_match(scenario, [a, b], seed=0).to_json()
    winner = record["result"]["winner"]
    faults = record["result"]["faults"]
    return (None if winner is None else [a, b][winner]), ([a, b][faults[0]["agent"]] if faults else None)


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation, ties given their average rank."""
    def ranks(v: list[float]) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v), dtype=float)
        for value in set(v):
            same = [i for i, w in enumerate(v) if w == value]
            r[same] = r[same].mean()
        return r
    rx, ry = ranks(x), ranks(y)
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platform", type=Path, required=True)
    parser.add_argument("--project", type=Path, required=True)
    parser.add_argument("--configuration", required=True)
    parser.add_argument("--agents", nargs="*")
    parser.add_argument("--tasks", type=int)
    args = parser.parse_args()
    project = args.project.resolve()
    names = args.agents or [a.name for a in read_agents_xml(project / "config" / "agents.xml")]
    with tempfile.TemporaryDirectory(prefix="apdp-agreement-") as tmp:
        work = Path(tmp)
        headless_copy(project, work)
        configuration = work / args.configuration
        if args.tasks is not None:  # the platform reads the number from the file
            text = configuration.read_text(encoding="latin-1")
            configuration.write_text(re.sub(r'number="\d+"', f'number="{args.tasks}"', text, count=1),
                                     encoding="latin-1")
        compile_for_platform(project, args.platform.resolve(), work / "bin")
        installed = import_project(project, work / "agents")
        for name, why in installed.failed:  # left out of both sides, saying why
            print(f"{name}: not installed in apdp, left out ({why})")
            names = [n for n in names if n != name]
        os.environ["APDP_AGENTS"] = str(work / "agents")
        os.chdir(work)
        games = []
        for a, b in permutations(names, 2):
            on_platform = platform_game(args.platform.resolve(), work, args.configuration, a, b)
            in_apdp = apdp_game(Path(args.configuration), a, b, None)
            games.append((a, b, on_platform, in_apdp))
            if on_platform != in_apdp:
                print(f"{a} vs {b}: platform {on_platform}, apdp {in_apdp}")
    same = sum(p == q for _, _, p, q in games)
    wins = {side: [sum(g[side][0] == n for g in games) for n in names] for side in (2, 3)}
    faults = {side: [sum(g[side][1] == n for g in games) for n in names] for side in (2, 3)}
    print(f"\n{'agent':24} {'wins':>12} {'faults':>12}   (platform / apdp)")
    for k, n in enumerate(names):
        print(f"{n:24} {wins[2][k]:>5} / {wins[3][k]:<5} {faults[2][k]:>5} / {faults[3][k]:<5}")
    print(f"\n{same} of {len(games)} games alike (winner and fault); rank agreement (Spearman) of the wins: "
          f"{spearman(wins[2], wins[3]):.3f}")


if __name__ == "__main__":
    main()
