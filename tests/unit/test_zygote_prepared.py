"""What the zygote prepares once, before any fork, is what each agent process then uses: no agent
process builds its system call filter again."""

from __future__ import annotations

import pytest

from apdp.sandbox import confine, seccomp

pytestmark = pytest.mark.unit


@pytest.mark.skipif(not seccomp.supported(), reason="no seccomp table for this machine's architecture")
@pytest.mark.parametrize("unix_sockets", [True, False])
def test_install_finds_the_filter_prepare_built(unix_sockets: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    installed: list[tuple[int, ...]] = []
    monkeypatch.setattr(seccomp, "prctl", lambda *args: installed.append(args[:2]))  # not on this process
    confine.prepare()
    before = seccomp.program.cache_info()
    seccomp.install(unix_sockets=unix_sockets)  # as confine() calls it
    assert installed[-1][:1] == (seccomp.PR_SET_SECCOMP,)
    assert seccomp.program.cache_info().misses == before.misses
