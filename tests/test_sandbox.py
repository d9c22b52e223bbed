"""The sandbox's own checks: every protection is in force on this machine (CI's kind has Landlock,
user namespaces and seccomp), and a record says which were off."""

from __future__ import annotations

import time
from pathlib import Path

from conftest import fast_scenario
from typer.testing import CliRunner

from apdp.cli import app
from apdp.match import play_match
from apdp.record import without_timing
from apdp.sandbox.protections import check, unprotected, warning


def test_every_protection_is_on_and_holds_when_tried() -> None:
    results = check()
    assert {p.name for p in results} >= {"read", "write", "disk", "signals", "ptrace", "network", "leftovers"}
    assert [(p.name, p.status, p.detail) for p in results if p.status != "on"] == []
    assert unprotected() == ()
    assert warning() is None


def test_apdp_sandbox_prints_each_protection() -> None:
    result = CliRunner().invoke(app, ["sandbox", "--strict"])
    assert result.exit_code == 0, result.output
    assert "signalling other processes" in result.output
    assert "14 on, 0 off, 0 failed" in result.output


def test_a_record_lists_the_protections_that_were_off() -> None:
    record = play_match(fast_scenario(tasks=2), ["template", "naive"], seed=1)
    assert record["sandbox"] == {"unprotected": []}
    assert "sandbox" not in without_timing(record)


def test_confinement_does_not_change_play() -> None:
    on = play_match(fast_scenario(tasks=10), ["honest", "naive"], seed=4)
    off = play_match(fast_scenario(tasks=10, limits={"sandbox": False}), ["honest", "naive"], seed=4)
    assert not on["result"]["faults"]
    assert without_timing(on) == without_timing(off)


def test_warning_names_what_is_off_in_one_line() -> None:
    line = warning(["signal and abstract socket scoping (Landlock ABI < 6)", "system call filter"])
    assert line is not None and "\n" not in line
    assert "signal and abstract socket scoping" in line and "apdp sandbox" in line


def _gone_within(path: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not path.exists()


def test_the_private_folder_is_removed_after_the_match_even_full(tmp_path: Path) -> None:
    filler = tmp_path / "filler.py"
    filler.write_text(
        "import os\n"
        "from apdp import Agent\n"
        "class Filler(Agent):\n"
        "    def setup(self, topology, distribution, company):\n"
        "        print('private', os.getcwd(), os.environ['HOME'], os.environ['TMPDIR'])\n"
        "        try:\n"
        "            for i in range(8):\n"
        "                with open(f'f{i}', 'wb') as f:\n"
        "                    f.write(b'x' * (16 << 20))\n"
        "        except OSError as exc:\n"
        "            print('stopped:', exc.strerror)\n"
        "    def bid(self, task):\n"
        "        return None\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    record = play_match(fast_scenario(tasks=2, limits={"disk_mb": 32}), [str(filler), "template"], seed=1)
    words = record["output"][0].split()
    private = Path(words[1])
    assert words[1] == words[2] == words[3]  # cwd, $HOME and $TMPDIR
    assert "stopped: No space left on device" in record["output"][0]
    assert not record["result"]["faults"]
    assert _gone_within(private, 5.0)
