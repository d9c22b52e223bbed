"""The Logist platform's public API as ``logist-api.txt`` lists it (``javap -public -constants`` of
the platform's 2018 jar), for the Java tests: parse the listing, turn it into Java stub sources
(a jar of class files that declare each type and member as the listing does, and nothing else),
compare apdp's own classes with it, and count which members a compiled agent uses.

The listing is the reference: ``LISTING`` is tests/data/java/logist-api.txt, a copy of the shared
reference file (``../shared/reference/logist-api.txt``).
"""

from __future__ import annotations

import re
import struct
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tests.paths import JAVA

LISTING = JAVA / "logist-api.txt"
#: Packages the listing has and apdp leaves out: the platform's own window (they need the Repast toolkit).
LEFT_OUT = ("logist.gui.",)

_HEADER = re.compile(
    r"^public (?P<mods>(?:(?:abstract|final) )*)(?P<kind>class|interface) (?P<name>[\w.$]+)(?P<params><.*?>)?"
    r"(?: extends (?P<extends>.*?))?(?: implements (?P<implements>.*?))? \{$"
)


@dataclass(frozen=True)
class Member:
    """A field, constructor or method of a listed type, as javap writes it (``line``)."""

    line: str
    kind: str  # "field", "constructor" or "method"
    modifiers: tuple[str, ...]
    type_params: str  # "<T>" or ""
    type: str  # a field's type, a method's return type ("" for a constructor)
    name: str
    params: tuple[str, ...]
    throws: tuple[str, ...]
    value: str | None  # a constant's value

    @property
    def is_static(self) -> bool:
        return "static" in self.modifiers


@dataclass
class TypeDecl:
    """A listed class or interface."""

    name: str  # binary name: logist.topology.Topology$City
    kind: str  # "class" or "interface"
    modifiers: tuple[str, ...]
    type_params: str
    extends: tuple[str, ...]
    implements: tuple[str, ...]
    header: str
    members: list[Member] = field(default_factory=list)

    @property
    def package(self) -> str:
        return self.name.rsplit(".", 1)[0]

    @property
    def simple(self) -> str:
        return self.name.rsplit(".", 1)[1].rsplit("$", 1)[-1]

    @property
    def outer(self) -> str | None:
        """The binary name of the enclosing type of a nested type."""
        return self.name.rsplit("$", 1)[0] if "$" in self.name else None

    @property
    def is_enum(self) -> bool:
        return self.extends[:1] == (f"java.lang.Enum<{self.name}>",)

    @property
    def internal(self) -> str:
        return self.name.replace(".", "/")


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside angle brackets, each part stripped."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


def _member(line: str, owner: TypeDecl) -> Member:
    body = line.strip().removesuffix(";")
    value = None
    if " = " in body:
        body, value = body.split(" = ", 1)
    throws: tuple[str, ...] = ()
    if " throws " in body:
        body, thrown = body.split(" throws ", 1)
        throws = tuple(split_top(thrown))
    words = body.split(" ")
    assert words[0] == "public", line
    modifiers = []
    i = 1
    while words[i] in ("static", "final", "abstract", "synchronized", "native", "transient", "volatile"):
        modifiers.append(words[i])
        i += 1
    rest = " ".join(words[i:])
    type_params = ""
    if rest.startswith("<"):
        depth = 0
        for k, c in enumerate(rest):
            depth += c == "<"
            depth -= c == ">"
            if depth == 0:
                type_params, rest = rest[: k + 1], rest[k + 1 :].strip()
                break
    if "(" not in rest:  # a field
        type_, name = rest.rsplit(" ", 1)
        return Member(line.strip(), "field", tuple(modifiers), "", type_, name, (), (), value)
    head, params = rest.split("(", 1)
    params = params.rsplit(")", 1)[0]
    param_list = tuple(split_top(params))
    if head == owner.name:
        return Member(line.strip(), "constructor", tuple(modifiers), type_params, "", "<init>", param_list, throws,
                      None)
    type_, name = head.rsplit(" ", 1)
    return Member(line.strip(), "method", tuple(modifiers), type_params, type_, name, param_list, throws, None)


def parse_listing(text: str) -> list[TypeDecl]:
    """The types of a javap listing, in order."""
    types: list[TypeDecl] = []
    current: TypeDecl | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if current is None:
            match = _HEADER.match(line)
            if match:
                current = TypeDecl(
                    match["name"], match["kind"], tuple(match["mods"].split()), match["params"] or "",
                    tuple(split_top(match["extends"] or "")), tuple(split_top(match["implements"] or "")), line,
                )
                types.append(current)
        elif line == "}":
            current = None
        elif line.strip():
            current.members.append(_member(line, current))
    return types


def listed_types(path: Path = LISTING) -> list[TypeDecl]:
    """The listing's types, less the packages apdp leaves out (:data:`LEFT_OUT`)."""
    return [t for t in parse_listing(path.read_text(encoding="utf-8")) if not t.name.startswith(LEFT_OUT)]


# ---- comparing compiled classes with the listing ----

def javap(jdk_bin: Path, classpath: Path, names: Sequence[str]) -> dict[str, tuple[str, set[str]]]:
    """``javap -public -constants`` of ``names`` on ``classpath``: name -> (header, member lines)."""
    done = subprocess.run([str(jdk_bin / "javap"), "-public", "-constants", "-cp", str(classpath), *names],
                          capture_output=True, text=True, check=True, timeout=600)
    out: dict[str, tuple[str, set[str]]] = {}
    for t in parse_listing(done.stdout):
        out[t.name] = (t.header, {m.line for m in t.members})
    return out


def public_classes(jar: Path, prefix: str = "logist/") -> list[str]:
    """The binary names of the public classes under ``prefix`` in ``jar`` (read from the class files)."""
    names = []
    with zipfile.ZipFile(jar) as z:
        for entry in z.namelist():
            if entry.startswith(prefix) and entry.endswith(".class"):
                data = z.read(entry)
                access = _access_flags(data)
                inner = _inner_public(data, entry[:-6])
                if (access & 0x0001) and inner is not False:
                    names.append(entry[:-6].replace("/", "."))
    return sorted(names)


def _constant_pool(data: bytes) -> tuple[dict[int, tuple[int, object]], int]:
    """The constant pool (index -> (tag, value)) and the offset after it."""
    count = struct.unpack_from(">H", data, 8)[0]
    pool: dict[int, tuple[int, object]] = {}
    at, i = 10, 1
    sizes = {3: 4, 4: 4, 5: 8, 6: 8, 8: 2, 16: 2, 19: 2, 20: 2, 15: 3, 17: 4, 18: 4}
    while i < count:
        tag = data[at]
        if tag == 1:
            (length,) = struct.unpack_from(">H", data, at + 1)
            pool[i] = (1, data[at + 3 : at + 3 + length].decode("utf-8", "replace"))
            at += 3 + length
        elif tag == 7:
            pool[i] = (7, struct.unpack_from(">H", data, at + 1)[0])
            at += 3
        elif tag in (9, 10, 11, 12):
            pool[i] = (tag, struct.unpack_from(">HH", data, at + 1))
            at += 5
        else:
            at += 1 + sizes[tag]
        i += 2 if tag in (5, 6) else 1
    return pool, at


def _access_flags(data: bytes) -> int:
    _, at = _constant_pool(data)
    return int(struct.unpack_from(">H", data, at)[0])


def _inner_public(data: bytes, internal: str) -> bool | None:
    """For a nested class, whether its InnerClasses entry says public (None: not nested)."""
    pool, at = _constant_pool(data)

    def utf8(index: int) -> str:
        return str(pool[index][1])

    at += 6
    (count,) = struct.unpack_from(">H", data, at)
    at += 2 + 2 * count
    for _ in range(2):  # fields, methods
        (count,) = struct.unpack_from(">H", data, at)
        at += 2
        for _ in range(count):
            at += 6
            (attributes,) = struct.unpack_from(">H", data, at)
            at += 2
            for _ in range(attributes):
                (length,) = struct.unpack_from(">I", data, at + 2)
                at += 6 + length
    (attributes,) = struct.unpack_from(">H", data, at)
    at += 2
    for _ in range(attributes):
        name, length = struct.unpack_from(">HI", data, at)
        if utf8(name) == "InnerClasses":
            (entries,) = struct.unpack_from(">H", data, at + 6)
            for k in range(entries):
                inner, _, _, flags = struct.unpack_from(">HHHH", data, at + 8 + 8 * k)
                if inner and utf8(int(pool[inner][1])) == internal:  # type: ignore[arg-type]
                    return bool(flags & 0x0001)
        at += 6 + length
    return None


# ---- the signature stub: Java sources that declare exactly the listing ----

def _java_type(type_: str) -> str:
    """A javap type as Java source writes it (``Topology$City`` -> ``Topology.City``; varargs kept)."""
    return type_.replace("$", ".")


def _default(type_: str) -> str:
    """A value of ``type_`` for a stub's final field that javac cannot fold into a constant."""
    base = type_.split("<")[0]
    return {
        "int": "Integer.parseInt(\"0\")", "long": "Long.parseLong(\"0\")", "double": "Double.parseDouble(\"0\")",
        "float": "Float.parseFloat(\"0\")", "boolean": "Boolean.parseBoolean(\"false\")",
        "short": "Short.parseShort(\"0\")", "byte": "Byte.parseByte(\"0\")", "char": "\"0\".charAt(0)",
    }.get(base, "null")


def _cast_default(type_: str) -> str:
    return f"({_java_type(type_.removesuffix('...') + ('[]' if type_.endswith('...') else ''))}) " + (
        {"int": "0", "long": "0L", "double": "0.0", "float": "0f", "boolean": "false", "short": "(short) 0",
         "byte": "(byte) 0", "char": "'0'"}.get(type_, "null")
    )


_STUB_BODY = "{ throw new UnsupportedOperationException(\"signature stub\"); }"


def _is_bridge(member: Member, decl: TypeDecl) -> bool:
    """A bridge method javac generates itself: same name and parameters as another method of the
    type with a more specific return type."""
    if member.kind != "method":
        return False
    twins = [m for m in decl.members if m is not member and m.kind == "method" and m.name == member.name
             and m.params == member.params]
    return any(t.type != member.type for t in twins) and member.type == "java.lang.Object"


def _member_source(member: Member, decl: TypeDecl, types: dict[str, TypeDecl]) -> str:
    mods = [m for m in member.modifiers if m != "abstract" or decl.kind == "class"]
    if decl.kind == "interface":
        mods = [m for m in mods if m != "abstract"]
    prefix = " ".join(["public", *mods])
    params = ", ".join(f"{_java_type(p)} p{k}" for k, p in enumerate(member.params))
    throws = f" throws {', '.join(member.throws)}" if member.throws else ""
    if member.kind == "field":
        value = member.value if member.value is not None else _default(member.type)
        if member.value is not None and member.type == "long":
            value = value.rstrip("l") + "L"
        return f"    {prefix} {_java_type(member.type)} {member.name} = {value};"
    if member.kind == "constructor":
        call = _super_call(decl, types)
        return f"    {prefix} {decl.simple}({params}){throws} {{ {call}throw new UnsupportedOperationException(); }}"
    tp = f"{member.type_params} " if member.type_params else ""
    if "abstract" in member.modifiers:
        return f"    {prefix} {tp}{_java_type(member.type)} {member.name}({params}){throws};"
    return f"    {prefix} {tp}{_java_type(member.type)} {member.name}({params}){throws} {_STUB_BODY}"


def _super_call(decl: TypeDecl, types: dict[str, TypeDecl]) -> str:
    """``super(...);`` when the listed super class has no constructor without arguments."""
    parent = decl.extends[0].split("<")[0] if decl.extends and decl.kind == "class" else ""
    if parent not in types:
        return ""
    constructors = [m for m in types[parent].members if m.kind == "constructor"]
    if not constructors or any(not m.params for m in constructors):
        return ""
    return "super(" + ", ".join(_cast_default(p) for p in constructors[0].params) + "); "


def _type_source(decl: TypeDecl, types: dict[str, TypeDecl], nested: dict[str, list[TypeDecl]], indent: str,
                 top: bool) -> list[str]:
    mods = [m for m in decl.modifiers if not (decl.is_enum and m == "final")]
    static = [] if top or decl.kind == "interface" or decl.is_enum else ["static"]
    kind = "enum" if decl.is_enum else decl.kind
    words = ["public", *static, *mods, kind, decl.simple + _java_type(decl.type_params)]
    if decl.extends and not decl.is_enum and decl.extends[0] != "java.lang.Object":
        keyword = "extends"
        words += [keyword, ", ".join(_java_type(e) for e in decl.extends)]
    if decl.implements:
        words += ["implements", ", ".join(_java_type(i) for i in decl.implements)]
    lines = [indent + " ".join(words) + " {"]
    members = [m for m in decl.members if not _is_bridge(m, decl)]
    if decl.is_enum:
        constants = [m.name for m in members if m.kind == "field" and m.type == decl.name]
        lines.append(indent + "    " + ", ".join(constants) + ";")
        members = [m for m in members if m.kind != "field" and m.name not in ("values", "valueOf")]
    elif decl.kind == "class" and not any(m.kind == "constructor" for m in members):
        call = _super_call(decl, types)
        lines.append(f"{indent}    {decl.simple}() {{ {call}}}")  # package-private: no public constructor
    for member in members:
        lines.append(indent + _member_source(member, decl, types))
    for inner in nested.get(decl.name, []):
        lines += _type_source(inner, types, nested, indent + "    ", top=False)
    lines.append(indent + "}")
    return lines


def stub_sources(types: Sequence[TypeDecl]) -> dict[str, str]:
    """Java sources (relative path -> text) declaring exactly ``types``: every member as listed,
    bodies that throw. A nested type's enclosing type that the listing does not show (not public:
    ``logist.ScoreBoard``) and a super class it does not show (``logist.simulation.MovingObject``)
    are declared package-private."""
    by_name = {t.name: t for t in types}
    nested: dict[str, list[TypeDecl]] = {}
    tops: list[TypeDecl] = []
    for t in types:
        if t.outer is None:
            tops.append(t)
        else:
            nested.setdefault(t.outer, []).append(t)
    sources: dict[str, str] = {}
    for outer in sorted(set(nested) - set(by_name)):  # enclosing types that are not public
        package, simple = outer.rsplit(".", 1)
        lines = [f"package {package};", "", f"final class {simple} {{", f"    private {simple}() {{}}"]
        for inner in nested[outer]:
            lines += _type_source(inner, by_name, nested, "    ", top=False)
        lines.append("}")
        sources[f"{outer.replace('.', '/')}.java"] = "\n".join(lines) + "\n"
    for t in tops:
        parent = t.extends[0].split("<")[0] if t.extends and t.kind == "class" else ""
        if parent.startswith("logist.") and parent not in by_name and parent not in sources:
            package, simple = parent.rsplit(".", 1)
            sources[f"{parent.replace('.', '/')}.java"] = (
                f"package {package};\n\nabstract class {simple} {{\n    {simple}() {{}}\n}}\n"
            )
        lines = [f"package {t.package};", "", *_type_source(t, by_name, nested, "", top=True)]
        sources[f"{t.name.replace('.', '/')}.java"] = "\n".join(lines) + "\n"
    return sources


def build_stub_jar(jdk_bin: Path, out: Path, types: Sequence[TypeDecl] | None = None) -> Path:
    """Compile :func:`stub_sources` of the listing into the jar ``out``."""
    decls = list(types) if types is not None else listed_types()
    with tempfile.TemporaryDirectory(prefix="logist-stub-") as tmp:
        src, classes = Path(tmp) / "src", Path(tmp) / "classes"
        for rel, text in stub_sources(decls).items():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_text(text, encoding="utf-8")
        files = sorted(str(p) for p in src.rglob("*.java"))
        done = subprocess.run([str(jdk_bin / "javac"), "-proc:none", "-nowarn", "-d", str(classes), *files],
                              capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0:
            raise AssertionError(f"the signature stub does not compile:\n{done.stdout}{done.stderr}")
        write_jar(classes, out)
    return out


def write_jar(classes: Path, out: Path) -> Path:
    """A jar of the class files under ``classes``."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nCreated-By: apdp tests\n")
        for path in sorted(classes.rglob("*.class")):
            z.write(path, str(path.relative_to(classes)))
    return out


# ---- which members a compiled agent uses ----

_PRIMITIVES = {"int": "I", "long": "J", "double": "D", "float": "F", "boolean": "Z", "short": "S", "byte": "B",
               "char": "C", "void": "V"}


def descriptor_of(type_: str, variables: dict[str, str]) -> str:
    """The erased descriptor of a javap type (``variables``: type variable -> its erasure)."""
    type_ = type_.strip()
    if type_.endswith("..."):
        return "[" + descriptor_of(type_[:-3], variables)
    if type_.endswith("[]"):
        return "[" + descriptor_of(type_[:-2], variables)
    base = type_.split("<")[0].strip()
    if base in _PRIMITIVES:
        return _PRIMITIVES[base]
    if base in variables:
        return variables[base]
    return f"L{base.replace('.', '/')};"


def _variables(type_params: str, outer: dict[str, str]) -> dict[str, str]:
    out = dict(outer)
    for param in split_top(type_params[1:-1]) if type_params else []:
        name, _, bound = param.partition(" extends ")
        out[name.strip()] = descriptor_of(bound, out) if bound else "Ljava/lang/Object;"
    return out


@dataclass(frozen=True)
class MemberKey:
    """A member by its owner's internal name, name and erased descriptor."""

    owner: str
    name: str
    descriptor: str

    def __str__(self) -> str:
        return f"{self.owner.replace('/', '.')}.{self.name}{self.descriptor}"


def member_keys(types: Iterable[TypeDecl]) -> dict[MemberKey, TypeDecl]:
    """Every member of ``types`` (bridge methods aside) by its key."""
    out: dict[MemberKey, TypeDecl] = {}
    for t in types:
        class_vars = _variables(t.type_params, {})
        for m in t.members:
            if _is_bridge(m, t):
                continue
            variables = _variables(m.type_params, class_vars)
            if m.kind == "field":
                desc = descriptor_of(m.type, variables)
            else:
                ret = "V" if m.kind == "constructor" else descriptor_of(m.type, variables)
                desc = "(" + "".join(descriptor_of(p, variables) for p in m.params) + ")" + ret
            out[MemberKey(t.internal, m.name, desc)] = t
    return out


def references(data: bytes) -> set[MemberKey]:
    """The fields and methods a class file refers to (Fieldref, Methodref, InterfaceMethodref)."""
    pool, _ = _constant_pool(data)
    out = set()
    for tag, value in pool.values():
        if tag in (9, 10, 11):
            class_index, nat = value  # type: ignore[misc]
            owner = str(pool[int(pool[class_index][1])][1])  # type: ignore[call-overload]
            name_index, type_index = pool[nat][1]  # type: ignore[misc]
            out.add(MemberKey(owner, str(pool[name_index][1]), str(pool[type_index][1])))
    return out


def declarations(data: bytes) -> tuple[str, list[str], list[tuple[str, str]]]:
    """A class file's name, its super class and interfaces, and the methods it declares (name,
    descriptor)."""
    pool, at = _constant_pool(data)

    def utf8(index: int) -> str:
        return str(pool[index][1])

    def class_name(index: int) -> str:
        return utf8(int(pool[index][1]))  # type: ignore[call-overload]

    _, this, parent = struct.unpack_from(">HHH", data, at)
    at += 6
    (count,) = struct.unpack_from(">H", data, at)
    supers = [class_name(parent)] if parent else []
    supers += [class_name(struct.unpack_from(">H", data, at + 2 + 2 * k)[0]) for k in range(count)]
    at += 2 + 2 * count
    methods = []
    for kind in ("fields", "methods"):
        (count,) = struct.unpack_from(">H", data, at)
        at += 2
        for _ in range(count):
            _, name, descriptor, attributes = struct.unpack_from(">HHHH", data, at)
            at += 8
            for _ in range(attributes):
                (length,) = struct.unpack_from(">I", data, at + 2)
                at += 6 + length
            if kind == "methods":
                methods.append((utf8(name), utf8(descriptor)))
    return class_name(this), supers, methods


def covered(class_files: Iterable[bytes], types: Sequence[TypeDecl]) -> set[MemberKey]:
    """The listed members that ``class_files`` use: a field or method they refer to (the listed
    member it resolves to, through the listed super types: ``Agent.name()`` is
    ``AgentStatistics.name()``), or a listed method they implement (``AuctionBehavior.askPrice``).
    Constants (``Measures.DISTANCE_UNITS_PER_KM``) are folded into the code that reads them and are
    never found."""
    keys = member_keys(types)
    by_name = {t.internal: t for t in types}
    files = list(class_files)
    agent_supers = {name: supers for name, supers, _ in (declarations(d) for d in files)}

    def supers_of(internal: str) -> list[str]:
        t = by_name.get(internal)
        if t is None:
            return agent_supers.get(internal, [])
        return [s.split("<")[0].replace(".", "/") for s in (*t.extends, *t.implements)]

    def resolve(owner: str, name: str, descriptor: str) -> MemberKey | None:
        todo, seen = [owner], set()
        while todo:
            current = todo.pop(0)
            if current in seen:
                continue
            seen.add(current)
            key = MemberKey(current, name, descriptor)
            if key in keys:
                return key
            todo += supers_of(current)
        return None

    found: set[MemberKey] = set()
    for data in files:
        for ref in references(data):
            key = resolve(ref.owner, ref.name, ref.descriptor)
            if key is not None:
                found.add(key)
        _, supers, methods = declarations(data)
        for method, descriptor in methods:
            if method == "<init>":
                continue
            for parent in supers:
                key = resolve(parent, method, descriptor)
                if key is not None:
                    found.add(key)
    return found


def unreachable(types: Sequence[TypeDecl]) -> set[MemberKey]:
    """Listed members no agent can use: constants (folded into the code that reads them) and the
    members of public types nested in a type that is not public (``logist.ScoreBoard$Game``)."""
    listed = {t.name for t in types}
    out = set()
    for key, t in member_keys(types).items():
        member = next(m for m in t.members if m.name == key.name and not _is_bridge(m, t))
        constant = member.kind == "field" and member.value is not None
        if constant or (t.outer is not None and t.outer not in listed):
            out.add(key)
    return out
