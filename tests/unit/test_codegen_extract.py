"""Finding the agent's code (or a GEN model's prompt) in a model's reply reads the reply about once:
a crafted reply of a MiB is read in well under a second of CPU, where patterns searched again from
each of its lines took hours (8.3 s for 109 KiB, quadratic in the reply; issue 32); and the host
never builds the syntax tree of megabytes of model code."""

from __future__ import annotations

import ast
import contextlib
import time
from collections.abc import Callable
from typing import Any

import pytest

from apdp.codegen import extract
from apdp.codegen.extract import ExtractError, extract_agent_code
from apdp.codegen.java import agent_class, extract_java_agent
from apdp.codegen.loop import optimised_prompt

MIB = 2**20
AGENT = "from apdp import Agent\n\n\nclass Mine(Agent):\n    pass\n"
JAVA = "public class Mine implements AuctionBehavior {\n}\n"


def _mib(line: str, tail: str = "") -> str:
    """``line`` repeated to about a MiB, then ``tail``."""
    return line * (MIB // len(line)) + tail


CRAFTED: dict[str, tuple[Callable[[str], str], str]] = {
    "python: class headers with no closing parenthesis": (extract_agent_code, _mib("class X(\n")),
    "python: class headers sharing one far parenthesis": (extract_agent_code, _mib("class X(Agent\n", ")")),
    "python: a block of headers naming Agent twice": (extract_agent_code, "```py\n" + _mib("class X(Agent Agent\n")),
    "python: an opening fence line with no newline": (extract_agent_code, "x\n" + "`" * MIB),
    "python: a fence and a tag of a MiB": (extract_agent_code, "```" + "x" * MIB),
    "java: headers that implement nothing": (extract_java_agent, "```java\n" + _mib("class X implements implements\n")),
    "java: lines of modifiers and no class": (extract_java_agent, _mib("public\n", "x")),
    "java: blank lines before the package search": (extract_java_agent, "\n" * MIB + JAVA),
    "java: package lines with no semicolon": (extract_java_agent, JAVA + _mib("package x\n")),
    "gen: opening markdown fences and no closing one": (optimised_prompt, _mib("```md\n")),
}


@pytest.mark.parametrize("name", list(CRAFTED))
def test_a_crafted_reply_of_a_mib_is_read_in_linear_time(name: str) -> None:
    read, reply = CRAFTED[name]
    start = time.process_time()
    with contextlib.suppress(ExtractError):  # a reply with no agent is one line for the model
        read(reply)
    assert time.process_time() - start < 10  # about 0.1 s now; the quadratic search took hours


def test_the_linear_searches_find_what_the_patterns_found() -> None:
    assert extract.defines_agent("class X(apdp.Agent, Base\n):\n    def f(:\n")  # a syntax error: the text search
    assert not extract.defines_agent("class X(Base):\n    y = Agent\n  (\n")
    assert not extract.defines_agent("class X(Agent\n)\n  (\n")  # no ":" after its parenthesis
    assert extract.code_blocks("```py\na\n```\ntext\n~~~~\nb\n~~~~\n```json\n{}\n```\n```\nc") == ["a\n", "b\n", "c"]
    java = "public\nfinal class A implements\n  Foo, AuctionBehavior {}\nclass B implements AuctionBehavior {}\n"
    assert agent_class("package  a . b ;\n" + java) == ("a.b", "A")
    assert agent_class("class Z implements\nclass A implements AuctionBehavior {}") == ("", "Z")  # read through A
    assert agent_class("x public class A implements AuctionBehavior {}") is None  # not first on its line
    assert agent_class("class A implements AuctionBehavior;\npublic class B implements AuctionBehavior {}") == ("", "B")
    assert agent_class("class A { implements AuctionBehavior }") is None
    assert optimised_prompt("Here:\n```markdown\nDo X.\n```\n\n```\n") == "Do X.\n```\n"
    assert optimised_prompt("```md\nno closing fence") == "```md\nno closing fence\n"


def test_the_host_parses_no_megabytes_of_model_code(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[int] = []
    real_parse = ast.parse

    def parse(source: str, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str):  # (pytest parses its own files too, to explain a failed assert)
            parsed.append(len(source))
        return real_parse(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", parse)
    assert extract_agent_code(f"```python\n{AGENT}```") == AGENT
    long_agent = AGENT + _mib("x = 1\n")  # valid Python: its tree would take about 400 MB
    assert extract_agent_code(f"```python\n{long_agent}```") == long_agent
    with pytest.raises(ExtractError, match="no fenced"):
        extract_agent_code(long_agent)  # bare code this long is not taken for code
    assert parsed and max(parsed) <= extract.PARSE_CHARS
