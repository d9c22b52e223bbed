"""The probe agent's lines (tests/data/java/probe): what the Logist platform printed, split per agent.

The platform runs both agents in one JVM and calls them one at a time, so its output interleaves
their lines in a fixed order: each agent's setup in turn; then, per task, each agent's result of
the previous auction (told at the start of its next ``askPrice``) and its ``task`` line; then each
agent's last result and its ``plan`` line. apdp keeps each agent's output apart: this module
splits the platform's output by that order, and checks that the order holds, so that each agent's
lines can be compared with what the same agent printed in apdp.
"""

from __future__ import annotations

PREFIX = "PROBE "


def probe_lines(text: str) -> list[str]:
    """The probe's lines of an output, in order."""
    return [line for line in text.splitlines() if line.startswith(PREFIX)]


def split_platform_output(text: str, agents: int = 2) -> list[list[str]]:
    """Each agent's lines of the platform's interleaved output; AssertionError if the output does
    not follow the platform's order of calls."""
    lines = probe_lines(text)
    per_agent: list[list[str]] = [[] for _ in range(agents)]
    k = 0
    for agent in range(agents):  # setup: from "PROBE id=" up to the randomCity line
        assert lines[k].startswith(f"PROBE id={agent} "), lines[k]
        while not lines[k].startswith("PROBE randomCity"):
            per_agent[agent].append(lines[k])
            k += 1
        per_agent[agent].append(lines[k])
        k += 1
    told = False
    while k < len(lines):
        for agent in range(agents):
            if told:
                assert lines[k].startswith("PROBE result ") and f" me={agent} " in lines[k], lines[k]
                per_agent[agent].append(lines[k])
                k += 1
            assert lines[k].startswith(("PROBE task ", "PROBE plan ")), lines[k]
            per_agent[agent].append(lines[k])
            k += 1
        told = True
        if per_agent[0][-1].startswith("PROBE plan "):
            break
    assert k == len(lines), f"lines left after the plans: {lines[k:k + 3]}"
    return per_agent
