"""The code stays ruff- and mypy-clean (both configured in pyproject.toml)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

#: The project's lint: its code and the shipped template (users' agents in agents/ are excluded).
RUFF = ["ruff", "check", ".", "agents/template.py"]


def _exe(tool: str) -> str:
    if shutil.which(tool) is None and not (Path(sys.executable).parent / tool).exists():
        pytest.fail(f"{tool} is not installed: pip install -e '.[test]'")
    return str(Path(sys.executable).parent / tool) if (Path(sys.executable).parent / tool).exists() else tool


@pytest.mark.parametrize("tool", [RUFF, ["mypy"]], ids=["ruff", "mypy"])
def test_static_checks_pass(tool: list[str]) -> None:
    run = subprocess.run([_exe(tool[0]), *tool[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


STUDENT = """import sys, os
from apdp import *
class me(Agent):
    def bid(self, task): return 1000.0 # a comment that makes this line far longer than the project's limit
    def plan(self, vehicles, tasks): return [[] for v in vehicles]
"""


def test_users_agents_and_the_readme_test_never_fail_the_projects_lint(tmp_path: Path) -> None:
    """A generated agent (its provenance line is long), a student's agent in any style and an agent
    program in agents/, and the README's example test in tests/: the project's lint passes."""
    from apdp.codegen.ingest import ingest_code

    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "agents" / "prog").mkdir(parents=True)
    shutil.copy(ROOT / "agents" / "template.py", tmp_path / "agents")
    code = (ROOT / "agents" / "template.py").read_text().replace("class Template", "class Generated")
    generated = ingest_code(code, "gpt-a1", agents_dir=tmp_path / "agents", model="gpt-x" * 20, strategy="a1",
                            prompt_hash="f" * 64).path
    assert max(len(line) for line in generated.read_text().splitlines()) > 120  # the provenance line
    (tmp_path / "agents" / "me.py").write_text(STUDENT)
    (tmp_path / "agents" / "prog" / "main.py").write_text(STUDENT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (example,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.DOTALL) if "assert_agent_ok" in b]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_my_agent.py").write_text(example)
    run = subprocess.run([_exe("ruff"), *RUFF[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    sloppy = subprocess.run([_exe("ruff"), "check", "--isolated", "--select", "E,F,I", "agents"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert sloppy.returncode != 0  # the agents do break the rules: the project's lint leaves them be
