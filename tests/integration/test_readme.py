"""The README's "Write your own agent" commands, run as a student types them, in a folder of their own:
each one works as written (the template as the student's agent, the shipped agents as opponents)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from tests.command import apdp
from tests.paths import ROOT


def readme_block(heading: str) -> list[list[str]]:
    """The ``apdp`` commands of the first shell block under ``heading``, comments left out."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(f"\n## {heading}\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, f"no shell block under {heading!r}"
    commands = [shlex.split(line, comments=True) for line in block.group(1).splitlines()]
    return [c[1:] for c in commands if c and c[0] == "apdp"]


def test_the_write_your_own_agent_commands_work_as_written(tmp_path: Path) -> None:
    commands = readme_block("Write your own agent")
    assert [c[0] for c in commands] == ["new", "match", "match", "verify", "replay", "tournament"]
    for command in commands:
        done = apdp(*command, cwd=tmp_path)
        assert done.returncode == 0, f"apdp {shlex.join(command)}: {done.stderr[-2000:]}"
    assert (tmp_path / "agents" / "me.py").is_file()
    assert (tmp_path / "me.json").is_file() and (tmp_path / "me.html").is_file()
    assert len(list((tmp_path / "results").iterdir())) == 1


def test_the_readme_s_first_edit_makes_an_agent_that_earns_what_it_wins(tmp_path: Path) -> None:
    """The edit the README suggests first teaches a margin: the agent makes money on what it wins."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    suggested = re.search(r"# edit agents/me\.py: in bid\(\), e\.g\. (return [^:]+):", readme)
    assert suggested is not None, "the README's first suggested edit moved"
    assert apdp("new", "me", cwd=tmp_path).returncode == 0
    me = tmp_path / "agents" / "me.py"
    source = me.read_text(encoding="utf-8")
    line = "        return float(math.floor(cost * ratio + 0.5))  # a whole number, rounded half up\n"
    assert line in source, "the template's bid changed: update this test's edit"
    me.write_text(source.replace(line, f"        {suggested.group(1)}\n"), encoding="utf-8")
    for seed in ("1", "2"):
        record = tmp_path / f"r{seed}.json"
        done = apdp("match", "--topology", "france", "--agents", "me", "template", "--tasks", "20", "--seed", seed,
                    "--record", str(record), cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        result = json.loads(record.read_text(encoding="utf-8"))["result"]
        assert result["faults"] == [] and result["revenue"][0] > 0 and result["profit"][0] > 0
