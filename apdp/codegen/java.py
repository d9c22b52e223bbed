"""Java agents from the LLM harness (``--language java``), as the study generated them: a Logist
``AuctionBehavior`` class asked for with the Java template and the Logist API in the prompt
(``apdp/prompts/*_java.md``), taken from the reply's fenced ```java block, and installed as an agent
folder (:mod:`apdp.agents.java.install`) that the check builds in the sandbox, so that a compile error is
reported back to the model like any other fault.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from apdp.agents.provenance import Provenance
from apdp.codegen.extract import ExtractError, NoAgentError, NoCodeError
from apdp.codegen.ingest import IngestedAgent, agent_path, ingest_code, refuse_shadowing
from apdp.codegen.prompts import Prompt, render
from apdp.errors import UserError
from apdp.scenario import Limits, Timeouts

#: The Java template agent the Java prompts include verbatim.
JAVA_TEMPLATE = (Path(__file__).resolve().parent.parent / "agents" / "java" / "template" / "template"
                 / "AuctionTemplate.java")

_FENCE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n(?P<body>.*?)"
    r"(?:^[ \t]*(?P=fence)[ \t]*$|\Z)",
    re.DOTALL | re.MULTILINE,
)
_JAVA_TAGS = {"", "java"}
_PACKAGE = re.compile(r"^\s*package\s+(?P<name>[^;]*);", re.MULTILINE)
#: Comments, string and text-block literals and character literals, to be blanked before parsing.
_NOT_CODE = re.compile(
    r"//[^\n]*"  # a line comment
    r"|/\*.*?(?:\*/|\Z)"  # a block comment
    r'|"""(?:\\.|[^\\])*?(?:"""|\Z)'  # a text block
    r'|"(?:\\.|[^"\\\n])*"?'  # a string
    r"|'(?:\\.|[^'\\\n])*'?",  # a character
    re.DOTALL,
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_KEYWORDS = frozenset([
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
    "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
    "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
    "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
    "throw", "throws", "transient", "try", "void", "volatile", "true", "false", "null", "_",
])
_AGENT_CLASS = re.compile(
    r"^[ \t]*(?P<modifiers>(?:(?:public|final|abstract)\s+)*)class\s+(?P<name>[A-Za-z_$][\w$]*)"
    r"[^{;]*?\bimplements\b[^{;]*?\bAuctionBehavior\b", re.MULTILINE,
)


def java_prompt(strategy: str) -> Prompt:
    """The Java generation prompt of ``a1`` or ``a2``: the rules, the Logist API and the template."""
    if strategy not in ("a1", "a2"):
        raise UserError(f"no prompt for strategy {strategy!r}; use a1 or a2")
    try:
        template = JAVA_TEMPLATE.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read the Java template agent {JAVA_TEMPLATE} ({exc.strerror})") from None
    timeouts = Timeouts()
    return render(
        f"{strategy}_java",
        template_code=template.rstrip("\n"),
        java_api=render("java_api").text.rstrip("\n"),
        setup_ms=f"{timeouts.setup * 1000:.0f}",
        bid_ms=f"{timeouts.bid * 1000:.0f}",
        plan_ms=f"{timeouts.plan * 1000:.0f}",
        memory_mb=str(Limits().memory_mb),
    )


def java_blocks(reply: str) -> list[str]:
    """Bodies of the fenced code blocks tagged as Java (or untagged), in order."""
    return [m.group("body") for m in _FENCE.finditer(reply) if m.group("lang").lower() in _JAVA_TAGS]


def code_only(code: str) -> str:
    """``code`` with its comments and literals blanked (newlines kept), so that a ``package`` or
    ``class`` inside one is not taken for the real one."""
    return _NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), code)


def _java_name(dotted: str) -> bool:
    parts = dotted.split(".")
    return all(_IDENTIFIER.fullmatch(part) and part not in _KEYWORDS for part in parts)


def agent_class(code: str) -> tuple[str, str] | None:
    """The package and name of the class that implements ``AuctionBehavior`` (a public one first).

    ExtractError when the ``package`` declaration or the class name is not a plain Java name (each
    part a letter, ``_`` or ``$`` then letters, digits, ``_`` or ``$``): the two become the agent's
    source path, which must stay inside its folder."""
    bare = code_only(code)
    found = list(_AGENT_CLASS.finditer(bare))
    if not found:
        return None
    chosen = next((m for m in found if "public" in m.group("modifiers")), found[0])
    package = _PACKAGE.search(bare)
    dotted = re.sub(r"\s+", "", package.group("name")) if package else ""
    if package and not _java_name(dotted):
        raise ExtractError(f"the code's package declaration {package.group('name').strip()[:80]!r} is not a "
                           "Java package name; use names such as 'agents.mine'")
    if not _java_name(chosen.group("name")):
        raise ExtractError(f"the agent class's name {chosen.group('name')!r} is a Java keyword; rename the class")
    return (dotted, chosen.group("name"))


def extract_java_agent(reply: str) -> str:
    """The agent in ``reply``: the last fenced Java block with a class implementing AuctionBehavior
    (bare code is accepted too). NoCodeError or NoAgentError say, on one line, what is missing."""
    blocks = java_blocks(reply)
    if not blocks:
        if agent_class(reply) is not None and "```" not in reply:
            return reply.strip("\n") + "\n"
        raise NoCodeError("the reply contains no fenced ```java code block")
    for block in reversed(blocks):
        if agent_class(block) is not None:
            return block.strip("\n") + "\n"
    raise NoAgentError(
        f"the reply's code ({len(blocks)} block{'s' if len(blocks) != 1 else ''}) defines no class that "
        "implements logist.behavior.AuctionBehavior"
    )


def java_folder(name: str, agents_dir: Path) -> Path:
    """Where Java agent ``name`` is written: the folder ``agents_dir/NAME`` (UserError for a bad name)."""
    return agent_path(name, agents_dir).with_suffix("")


def _main_source(folder: Path) -> str | None:
    try:
        return "".join(p.read_text(encoding="utf-8") for p in sorted((folder / "src").rglob("*.java")))
    except (OSError, UnicodeDecodeError):
        return None


def check_free_java(name: str, agents_dir: Path, code: str | None = None, force: bool = False) -> Path:
    """The folder for Java agent ``name``, refusing to replace or shadow a different agent unless
    ``force`` (a folder holding exactly ``code`` may be rewritten)."""
    path = java_folder(name, agents_dir)
    if force:
        return path
    if path.exists() or (agents_dir / f"{name}.py").exists():
        if code is None or _main_source(path) != code:
            raise UserError(f"{path} already exists and holds a different agent; choose another --name or "
                            "pass --force to replace it")
        return path
    refuse_shadowing(name, path)
    return path


def place_java(code: str, name: str, agents_dir: Path, force: bool, provenance: Provenance) -> Path:
    """Install ``code`` as the Java agent folder ``agents_dir/NAME``, built and checked by its first
    match (a :data:`~apdp.codegen.ingest.Place`)."""
    from apdp.agents.java.install import Origin, install

    path = check_free_java(name, agents_dir, code, force)
    found = agent_class(code)
    if found is None:
        raise ExtractError("the code defines no class that implements logist.behavior.AuctionBehavior")
    package, simple = found
    class_name = f"{package}.{simple}" if package else simple
    source = "/".join([*package.split("."), f"{simple}.java"]) if package else f"{simple}.java"
    note = (f", written by {provenance.model or 'a model'} (apdp codegen, strategy {provenance.strategy}, "
            f"round {provenance.round})")
    install(Origin("sources", path / "src", class_name), name, agents_dir, compile_now=False, replace=True,
            note=note, sources={source: code})
    return path


def ingest_java(code: str, name: str, **options: Any) -> IngestedAgent:
    """Write ``code`` as the Java agent folder ``agents_dir/NAME`` (built and checked by its first
    match) with its provenance sidecar ``agents_dir/NAME.json``; ``options`` as for
    :func:`~apdp.codegen.ingest.ingest_code`."""
    return ingest_code(code, name, place=place_java, **options)


def ingest_java_reply(reply: str, name: str, **options: Any) -> IngestedAgent:
    """Extract the Java agent from a model's reply and ingest it (see ``ingest_java``)."""
    return ingest_java(extract_java_agent(reply), name, **options)
