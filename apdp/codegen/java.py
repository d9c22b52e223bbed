"""Java agents from the LLM harness (``--language java``), as the study generated them: a Logist
``AuctionBehavior`` class asked for with the Java template and the Logist API in the prompt
(``apdp/prompts/*_java.md``), taken from the reply's fenced ```java block, and installed as an agent
folder (:mod:`apdp.agents.java.install`) that the check builds in the sandbox, so that a compile error is
reported back to the model like any other fault.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from apdp.agents.provenance import Provenance
from apdp.codegen.extract import FENCE, ExtractError, NextMatch, NoAgentError, NoCodeError
from apdp.codegen.ingest import IngestedAgent, agent_path, ingest_code, refuse_shadowing
from apdp.codegen.prompts import Prompt, render
from apdp.errors import UserError
from apdp.scenario import Limits, Timeouts

#: The Java template agent the Java prompts include verbatim.
JAVA_TEMPLATE = (Path(__file__).resolve().parent.parent / "agents" / "java" / "template" / "template"
                 / "AuctionTemplate.java")

_JAVA_TAGS = {"", "java"}
#: The word ``package`` first on its line (after white space), and the white space after it; the name
#: runs to the first ``;``.
_PACKAGE = re.compile(r"^[^\S\n]*+package\s++", re.MULTILINE)
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
#: A class's header is ``class NAME``, first on its line or after modifiers (public, final, abstract,
#: each followed by white space) the first of which is first on its line. Scanned as runs of modifiers
#: (``chain``), with or without ``class NAME`` after them, and ``class NAME`` alone, each character in
#: one run: a run that does not end in a header is passed over once, not again from each of its lines
#: (which was quadratic; issue 32). ``lead``: the run starts its line.
_HEADER = re.compile(
    r"(?P<lead>^[ \t]*+)?(?P<chain>(?:(?:public|final|abstract)\s++)++)"
    r"(?:class(?=\s++(?P<name>[A-Za-z_$][\w$]*+)))?"
    r"|(?P<alone>^[ \t]*+)?class(?=\s++(?P<alone_name>[A-Za-z_$][\w$]*+))",
    re.MULTILINE,
)
_MODIFIER = re.compile(r"(public|final|abstract)(\s+)")
#: After a header's name, before its first ``{`` or ``;``: ``implements``, then ``AuctionBehavior``.
_STOP = re.compile(r"[{;]")
_IMPLEMENTS = re.compile(r"\bimplements\b")
_BEHAVIOR = re.compile(r"\bAuctionBehavior\b")


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
    return [m.group("body") for m in FENCE.finditer(reply) if m.group("lang").lower() in _JAVA_TAGS]


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
    found = _agent_classes(bare)
    if not found:
        return None
    name = next((name for name, public in found if public), found[0][0])
    package = _package(bare)
    dotted = re.sub(r"\s+", "", package) if package is not None else ""
    if package is not None and not _java_name(dotted):
        raise ExtractError(f"the code's package declaration {package.strip()[:80]!r} is not a "
                           "Java package name; use names such as 'agents.mine'")
    if not _java_name(name):
        raise ExtractError(f"the agent class's name {name!r} is a Java keyword; rename the class")
    return (dotted, name)


def _package(bare: str) -> str | None:
    """The name of the first ``package`` declaration of ``bare`` (up to its ``;``), if any."""
    start = _PACKAGE.search(bare)
    end = bare.find(";", start.end()) if start else -1
    return bare[start.end():end] if start and end >= 0 else None


def _headers(bare: str) -> Iterator[tuple[int, int, str, bool]]:
    """Each class header of ``bare``: where its ``class`` starts, where its name ends, the name, and
    whether ``public`` is among its modifiers."""
    for run in _HEADER.finditer(bare):
        if run.group("chain") is None:
            if run.group("alone") is not None:
                yield (run.start() + len(run.group("alone")), run.end("alone_name"), run.group("alone_name"), False)
            continue
        if run.group("name") is None:
            continue
        first, public = run.group("lead") is not None, False  # first: a modifier so far starts its line
        for modifier in _MODIFIER.finditer(run.group("chain")):
            public = public or (first and modifier.group(1) == "public")
            first = first or _ends_line(modifier.group(2))
        if first:  # the header starts at a modifier first on its line, or at `class` itself
            yield (run.end() - len("class"), run.end("name"), run.group("name"), public)


def _ends_line(space: str) -> bool:
    """Whether white space ``space`` holds a newline followed by nothing but spaces and tabs."""
    return "\n" in space and not space[space.rindex("\n") + 1:].strip(" \t")


def _agent_classes(bare: str) -> list[tuple[str, bool]]:
    """The classes of ``bare`` whose header says ``implements ... AuctionBehavior`` before its first
    ``{`` or ``;``, with whether each is public; one pass over the text (a header that reads through
    a later one, up to its ``AuctionBehavior``, hides it)."""
    stop, implements, behavior = NextMatch(_STOP, bare), NextMatch(_IMPLEMENTS, bare), NextMatch(_BEHAVIOR, bare)
    found: list[tuple[str, bool]] = []
    read_to = 0
    for start, name_end, name, public in _headers(bare):
        if start < read_to:
            continue
        said = implements(name_end) + len("implements")
        end = behavior(said) + len("AuctionBehavior") if said <= len(bare) else len(bare) + 1
        if end <= stop(name_end):
            found.append((name, public))
            read_to = end
    return found


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
