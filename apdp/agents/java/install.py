"""Installing a Logist agent as an apdp agent folder (``apdp logist add``, ``apdp logist import``).

A Logist agent is one class implementing one of ``logist.behavior``'s behaviours: its kind is the
first of ``ReactiveBehavior``, ``DeliberativeBehavior``, ``CentralizedBehavior`` and
``AuctionBehavior`` it implements, as the platform tests them (:data:`BEHAVIORS`), recorded in its
agent.toml (:func:`apdp.agents.java.names.installed_behavior`). It is given as sources (a
source root folder: the class and whatever it uses from there are compiled against apdp's host),
as compiled classes (a folder of ``.class`` files) or as a ``.jar``. It becomes::

    agents/NAME/
      agent.toml                      how to build and run it (a comment line marks it as ours)
      src/...                         the sources the class uses (sources only)
      lib/apdp-logist-host.jar        apdp's Java host: the Logist API and apdp.host.Main
                                      (then the platform's libraries, where installed: see
                                      apdp.agents.java.libraries)
      lib/java.sh                     starts the JDK's tools within the agent's memory limit
      lib/classes/, lib/agent/*.jar   the compiled classes (classes or jar only)
      .build/classes/                 the compiled sources (built here; again when a source changes)

Compiling runs none of the agent's code (no annotation processing); it runs in the sandbox like
any agent's build when a source changes after the install.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from apdp.agents.files import MAX_FILE_BYTES, copy_tree_of, copy_within
from apdp.agents.java.archive import archive_option, ensure_archive
from apdp.agents.java.classfile import MAX_CLASS_BYTES, ClassFileError, ClassPath, read_class, read_class_file
from apdp.agents.java.compiler import BASE_OPTIONS, first_error, javac, unmappable
from apdp.agents.java.host import AUCTION_BEHAVIOR, HOST_JAR, MAIN_CLASS, host_jar
from apdp.agents.java.jars import MAX_JAR_BYTES
from apdp.agents.java.jdk import Jdk, find_jdk
from apdp.agents.java.jvm import OPTIONS
from apdp.agents.java.libraries import class_path, compile_hint, missing_libraries
from apdp.agents.java.names import BY_NAME, agent_name, behavior_line, default_name, source_line, target_folder
from apdp.agents.java.names import MARKER as MARKER  # where apdp's other modules look for it
from apdp.agents.program import PROGRAM_FILE, mark_built, read_program
from apdp.errors import UserError

#: The JVM's options (apdp.agents.java.jvm), then its class data archive's (apdp.agents.java.archive).
JVM_OPTIONS = (*OPTIONS, archive_option())
_LAUNCHER = Path(__file__).resolve().parent / "java.sh"
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_CLASS = re.compile(r"^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$")
#: How much of a source file is read to find its package line.
_MOST_HEAD = 1 << 20
#: The behaviours of ``logist.behavior`` (internal names) and the kind of agent each makes, in the
#: platform's order (``AgentImpl.forClass``): a class is of the first kind it implements.
BEHAVIORS = {
    "logist/behavior/ReactiveBehavior": "reactive",
    "logist/behavior/DeliberativeBehavior": "deliberative",
    "logist/behavior/CentralizedBehavior": "centralized",
    AUCTION_BEHAVIOR: "auction",
}


class NotALogistAgent(UserError):
    """A class that is no Logist agent: it implements none of ``logist.behavior``'s behaviours."""


@dataclass(frozen=True, slots=True)
class LogistAgent:
    """An installed Logist agent: its name, folder and class, and notes for the user (one line
    each: a library it uses that is not installed)."""

    name: str
    folder: Path
    class_name: str
    notes: tuple[str, ...] = ()
    #: Its kind: ``auction``, or the exercise it plays (``reactive``, ``deliberative``, ``centralized``).
    behavior: str = "auction"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a class comes from: a source root, a folder of classes, or a jar."""

    kind: Literal["sources", "classes", "jar"]
    root: Path
    class_name: str

    @property
    def internal(self) -> str:
        """The class's name as in class files (``pkg/Name``)."""
        return self.class_name.replace(".", "/")


def _declared_package(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            text = f.read(_MOST_HEAD).decode("utf-8", errors="replace")  # a package line comes first
    except OSError:
        return ""
    match = _PACKAGE.search(text)
    return match.group(1) if match else ""


def _source_root(path: Path, package: str) -> Path:
    root = path.parent
    for _ in package.split(".") if package else []:
        root = root.parent
    return root


def _pick(found: list[Origin], source: Path, class_name: str) -> Origin:
    if len(found) == 1:
        return found[0]
    preferred = [o for o in found if o.root in (source, source / "src")]
    if len(preferred) == 1:
        return preferred[0]
    places = ", ".join(sorted({f"{o.class_name} in {o.root}" for o in found})[:4])
    raise UserError(f"{class_name} is ambiguous in {source} ({places}); give the source root folder "
                    "or the class's full name")


def _search_folder(source: Path, class_name: str) -> list[Origin]:
    simple = class_name.rsplit(".", 1)[-1]
    wanted_package = class_name.rsplit(".", 1)[0] if "." in class_name else None
    found: list[Origin] = []
    for path in sorted(source.rglob(f"{simple}.java")):
        if not path.is_file():  # a FIFO or a device would never be read to its end
            continue
        package = _declared_package(path)
        if wanted_package is None or package == wanted_package:
            full = f"{package}.{simple}" if package else simple
            found.append(Origin("sources", _source_root(path, package), full))
    if found:
        return found
    for path in sorted(source.rglob(f"{simple}.class")):
        if not path.is_file():
            continue
        try:
            name = read_class(read_class_file(path)).name  # ClassFileTooLarge: one line, not read
        except (OSError, ClassFileError):
            continue
        package = name.rsplit("/", 1)[0].replace("/", ".") if "/" in name else ""
        if wanted_package is None or package == wanted_package:
            found.append(Origin("classes", _source_root(path, package), name.replace("/", ".")))
    return found


def resolve(source: Path, class_name: str) -> Origin:
    """Where ``class_name`` (full, or simple when unambiguous) is in ``source``; UserError if not."""
    if not _CLASS.match(class_name):
        raise UserError(f"{class_name!r} is not a Java class name (e.g. template.AuctionTemplate)")
    if not source.exists():
        raise UserError(f"{source}: no such folder or .jar")
    source = source.resolve()
    if source.is_file():
        if source.suffix != ".jar":
            raise UserError(f"{source}: give a source root folder, a folder of classes or a .jar")
        return _in_jar(source, class_name)
    if "." in class_name:
        rel = class_name.replace(".", "/")
        if (source / f"{rel}.java").is_file():
            return Origin("sources", source, class_name)
        if (source / f"{rel}.class").is_file():
            return Origin("classes", source, class_name)
    found = _search_folder(source, class_name)
    if not found:
        raise UserError(f"no class {class_name} in {source}: no {class_name.rsplit('.', 1)[-1]}.java or .class "
                        "there declares it")
    return _pick(found, source, class_name)


def _in_jar(jar: Path, class_name: str) -> Origin:
    from apdp.agents.java.jars import UNREADABLE, AgentJar

    try:
        with AgentJar(jar) as z:  # a jar past the caps is refused here, before a member is inflated
            names = [n[:-6] for n in z.names() if n.endswith(".class")]
    except UNREADABLE as exc:
        raise UserError(f"{jar}: not a readable .jar ({exc})") from None
    internal = class_name.replace(".", "/")
    matches = [n for n in names if n == internal or ("." not in class_name and n.rsplit("/", 1)[-1] == internal)]
    if not matches:
        raise UserError(f"no class {class_name} in {jar}")
    if len(matches) > 1:
        raise UserError(f"{class_name} is ambiguous in {jar} ({', '.join(m.replace('/', '.') for m in matches[:4])}); "
                        "give the class's full name")
    return Origin("jar", jar, matches[0].replace("/", "."))


def _check_class(entries: list[Path], origin: Origin) -> str:
    """The kind of agent ``origin``'s class is, on the class path ``entries`` (:data:`BEHAVIORS`);
    UserError unless it is a Logist agent the host can create (each class read once, each jar opened
    once: see ClassPath)."""
    with ClassPath(entries) as classpath:
        return _check_classpath(classpath, origin)


def _check_classpath(classpath: ClassPath, origin: Origin) -> str:
    info = classpath.info(origin.internal)
    if info is None:
        raise UserError(f"no class {origin.class_name} in {origin.root}")
    kind = next((k for interface, k in BEHAVIORS.items() if classpath.implements(origin.internal, interface)), None)
    if kind is None:
        raise NotALogistAgent(f"{origin.class_name} implements none of logist.behavior's ReactiveBehavior, "
                              "DeliberativeBehavior, CentralizedBehavior and AuctionBehavior: it is not a Logist agent")
    if not info.instantiable:
        raise UserError(f"{origin.class_name} is abstract, an interface or not public: the host cannot create it")
    if not info.public_no_arg_constructor:
        raise UserError(f"{origin.class_name} has no public constructor without arguments: the host cannot "
                        "create it")
    return kind


def _compile(jdk: Jdk, origin: Origin, host: Path, out: Path) -> tuple[str, list[Path]]:
    """Compile the class and what it uses from its source root into ``out``: the encoding that
    worked and the sources compiled (relative to the root). UserError with javac's first error."""
    main = origin.root / f"{origin.internal}.java"
    options = ["-d", str(out), "-cp", os.pathsep.join(map(str, [host, *class_path()])),
               "-sourcepath", str(origin.root)]
    done = javac(jdk, options, [main])
    encoding = "UTF-8"
    if not done.ok and unmappable(done.output):
        encoding = "ISO-8859-1"
        done = javac(jdk, options, [main], encoding=encoding)
    if not done.ok:
        hint = compile_hint(done.output)
        raise UserError(f"{origin.class_name} does not compile against the Logist API: "
                        f"{first_error(done.output, origin.root)}{'; ' + hint if hint else ''}")
    used: set[Path] = set()
    for path in out.rglob("*.class"):
        info = read_class(read_class_file(path))
        if info.source_file:
            package = info.name.rsplit("/", 1)[0] if "/" in info.name else ""
            rel = Path(package) / info.source_file
            if (origin.root / rel).is_file():
                used.add(rel)
    return encoding, sorted(used)


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in values) + "]"


def agent_toml(jdk: Jdk, origin: Origin, name: str, *, encoding: str = "UTF-8", note: str = "",
               source: str | None = None, behavior: str = "auction") -> str:
    """The agent.toml of a Logist agent. Its class path: the host, the agent's classes, then the
    platform's libraries that are installed (an agent's own copy of one comes first). ``source``:
    what it was installed from (an absolute path), recorded: an install from it again may replace it.
    ``behavior``: its kind (:data:`BEHAVIORS`), recorded."""
    launcher = ["/bin/sh", "{dir}/lib/java.sh"]
    host = f"{{dir}}/lib/{HOST_JAR}"
    libraries = [str(jar) for jar in class_path()]
    lines = [
        f"{MARKER}: class {origin.class_name}{note}.",
        *([source_line(source)] if source is not None else []),
        behavior_line(behavior),
        "# It runs in its own JVM through apdp's Java host (lib/apdp-logist-host.jar: the Logist API);",
        "# lib/java.sh gives the JVM's heap the agent's memory limit less 256 MiB (at least half of it).",
        "# ready: the host says when its JVM runs, before it loads the agent: setup is timed from there.",
        "ready = true",
    ]
    if origin.kind == "sources":
        agent = "{dir}/.build/classes"
        main = f"{{dir}}/src/{origin.internal}.java"
        build = [*launcher, str(jdk.javac), *BASE_OPTIONS, "-encoding", encoding,
                 "-d", "{dir}/.build/classes", "-cp", ":".join([host, *libraries]), "-sourcepath", "{dir}/src", main]
        lines.append(f"build = {_toml_list(build)}")
    elif origin.kind == "classes":
        agent = "{dir}/lib/classes"
    else:
        agent = "{dir}/lib/agent/*"
    classpath = ":".join([host, agent, *libraries])
    command = [*launcher, str(jdk.java), *JVM_OPTIONS, "-cp", classpath, MAIN_CLASS, origin.class_name, name]
    lines.append(f"command = {_toml_list(command)}")
    return "\n".join(lines) + "\n"


def _swap(staging: Path, target: Path) -> None:
    """Put ``staging`` in place of ``target`` (an older install is removed)."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.rename(target, old)
    os.rename(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def install(origin: Origin, name: str, agents_dir: Path, *, compile_now: bool = True, replace: bool = False,
            note: str = "", sources: Mapping[str, str] | None = None, source: str | None = None,
            rename: str = BY_NAME) -> LogistAgent:
    """Install ``origin`` as agent ``name`` in ``agents_dir``.

    ``compile_now`` compiles the sources here (UserError with the compiler's first error, or when
    the class is no auction agent) and marks the folder built; without it the first match builds
    it in the sandbox, and a compile error is that agent's fault (the LLM harness's check).
    ``sources`` (relative path -> text) is written as the source root instead of copying one.
    A name that is another agent's is refused (:class:`apdp.agents.java.names.NameTaken`, ``rename``
    saying how to choose another), unless that agent was installed from ``source`` (recorded in its
    agent.toml) or ``replace``.
    """
    if not compile_now and origin.kind == "sources" and sources is None:
        raise ValueError("an install that does not compile writes its sources: give them")
    jdk = find_jdk()
    host = host_jar(jdk)
    name = agent_name(name)
    claim = functools.partial(target_folder, agents_dir, name, source=source, replace=replace, rename=rename)
    try:
        agents_dir.mkdir(parents=True, exist_ok=True)
        return _install(jdk, host, origin, name, agents_dir, compile_now, claim, note, sources, source)
    except OSError as exc:
        raise UserError(f"cannot install {name!r} in {agents_dir}: {exc.strerror or exc}") from None


def _install(jdk: Jdk, host: Path, origin: Origin, name: str, agents_dir: Path, compile_now: bool,
             claim: Callable[[], Path], note: str, sources: Mapping[str, str] | None,
             source: str | None) -> LogistAgent:
    target = claim()  # refused before anything is compiled or copied
    notes: list[str] = []
    with tempfile.TemporaryDirectory(dir=agents_dir, prefix=f".{name}.installing-") as tmp:
        staging = Path(tmp) / name
        lib = staging / "lib"
        lib.mkdir(parents=True)
        shutil.copyfile(host, lib / HOST_JAR)
        shutil.copyfile(_LAUNCHER, lib / "java.sh")
        encoding = "UTF-8"
        behavior = "auction"  # an install that does not compile: its first match finds out
        if origin.kind == "sources":
            src = staging / "src"
            if sources is not None:
                for file, text in sources.items():
                    written = _source_within(src, file)
                    written.parent.mkdir(parents=True, exist_ok=True)
                    written.write_text(text, encoding="utf-8")
            if compile_now:
                classes = staging / ".build" / "classes"
                root = origin.root if sources is None else src
                encoding, used = _compile(jdk, Origin("sources", root, origin.class_name), host, classes)
                behavior = _check_class([classes, lib / HOST_JAR], origin)
                if sources is None:
                    for rel in used:
                        (src / rel).parent.mkdir(parents=True, exist_ok=True)
                        copy_within(origin.root / rel, origin.root, src / rel, MAX_FILE_BYTES)
        elif origin.kind == "classes":
            copy_tree_of(origin.root, lib / "classes", ".class", MAX_CLASS_BYTES)
            behavior = _check_class([lib / "classes", lib / HOST_JAR], origin)
            notes += _library_notes(origin, [lib / "classes"])
        else:
            (lib / "agent").mkdir()
            copy_within(origin.root, origin.root.parent, lib / "agent" / origin.root.name, MAX_JAR_BYTES)
            behavior = _check_class([lib / "agent" / origin.root.name, lib / HOST_JAR], origin)
            notes += _library_notes(origin, [lib / "agent" / origin.root.name])
        (staging / PROGRAM_FILE).write_text(agent_toml(jdk, origin, name, encoding=encoding, note=note,
                                                       source=source, behavior=behavior), encoding="utf-8")
        _swap(staging, claim())  # again: another install may have taken the name meanwhile
    if compile_now and origin.kind == "sources":
        mark_built(read_program(target))
    if compile_now or origin.kind != "sources":  # otherwise its first match builds it, then the archive
        why = ensure_archive(read_program(target))
        if why is not None:
            notes.append(f"{name}: {why}; its JVM starts without one, slower")
    return LogistAgent(name, target, origin.class_name, tuple(notes), behavior)


def _library_notes(origin: Origin, roots: list[Path]) -> list[str]:
    """One line per library the compiled classes need and this machine lacks (they install: only
    the code that uses the library fails, with a NoClassDefFoundError, as its fault)."""
    return [f"{origin.class_name}: {lib.hint(example)}" for lib, example in missing_libraries(roots)]


def _source_within(src: Path, relative: str) -> Path:
    """``src / relative`` for a source file given by name, refusing any name that would leave ``src``
    (absolute, ``..``, empty parts) or is not a ``.java`` file."""
    parts = relative.split("/")
    if (not relative.endswith(".java") or relative.startswith("/") or "\\" in relative
            or any(part in ("", ".", "..") for part in parts)):
        raise UserError(f"bad source file name {relative[:80]!r}: use a relative path such as 'pkg/Agent.java'")
    path = src.joinpath(*parts)
    if not path.resolve().is_relative_to(src.resolve()):
        raise UserError(f"source file {relative[:80]!r} would be written outside the agent's folder")
    return path


def add_agent(source: Path, class_name: str, *, name: str | None = None, agents_dir: Path = Path("agents"),
              params: Mapping[str, str] | None = None, replace: bool = False) -> LogistAgent:
    """``apdp logist add``: install ``class_name`` from ``source`` (UserError says what is wrong). An
    agent of the same name is replaced only when it was installed from the same ``source``, or with
    ``replace``."""
    find_jdk()  # no JDK: say so before anything else
    origin = resolve(source, class_name)
    chosen = agent_name(name) if name is not None else default_name(origin.class_name)
    if name is not None and chosen != name:
        raise UserError(f"bad agent name {name!r}: use a letter then letters, digits, '-' or '_' (max 64)")
    agent = install(origin, chosen, agents_dir, note=f", from {source}", source=str(source.resolve()),
                    replace=replace)
    if params:
        from apdp.agents.java.params import set_params

        set_params(agents_dir, agent.name, params)
    return agent
