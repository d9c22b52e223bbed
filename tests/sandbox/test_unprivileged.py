"""The sandbox's attack tests again, as a user who is not root: there its mechanisms differ (the
process limit is RLIMIT_NPROC, not a pids group; the memory limit is the referee's watch, not a
memory group; such a user may change the priority of every process of its own), and every attack
must gain nothing all the same.

As root, this test reruns those test files as ``$APDP_TEST_USER`` (default ``apdp-ci``; CI makes it:
``useradd -m apdp-ci``). Run by that user itself, the suite is the test and this one skips.
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

USER = os.environ.get("APDP_TEST_USER", "apdp-ci")
#: The tests whose mechanisms depend on the user.
FILES = [f"tests/sandbox/{name}.py" for name in ("test_attacks", "test_sandbox", "test_hostile_replies",
                                                   "test_agent_files", "test_builds", "test_kernel_memory")]


def test_every_attack_gains_nothing_for_a_user_who_is_not_root(tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("this run is not root's: the whole suite checks the unprivileged sandbox")
    try:
        user = pwd.getpwnam(USER)
    except KeyError:
        message = f"no user {USER} to run the sandbox's tests as: create one (useradd -m {USER})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    home = tmp_path / "home"
    home.mkdir()
    os.chown(home, user.pw_uid, user.pw_gid)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": str(home),
           "TMPDIR": "/tmp", **({"CI": os.environ["CI"]} if "CI" in os.environ else {})}
    done = subprocess.run(
        ["runuser", "-u", USER, "--", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
         "--rootdir", str(ROOT), *FILES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    tail = (done.stdout + done.stderr)[-4000:]
    assert "Permission denied" not in done.stderr[:400], (
        f"{USER} cannot run {sys.executable} or read {ROOT}: give it access (CI: .ci/run)\n{tail}")
    assert done.returncode == 0, tail
    assert " passed" in done.stdout, tail
