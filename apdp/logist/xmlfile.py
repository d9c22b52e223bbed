"""Reading the Logist platform's XML files: safely, in their encoding, with one-line errors."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from xml.parsers import expat

from apdp.errors import UserError
from apdp.reading import ReadRefused, read_regular


class LogistFileError(UserError):
    """A Logist configuration, settings or topology file is missing or broken."""


#: The largest Logist file read (the course's largest topology is under 100 KiB).
MAX_XML_BYTES = 16 * 2**20


def read_xml(path: Path, kind: str) -> ET.Element:
    """The root element of the XML file ``path`` (a ``kind`` of file, named in errors).

    The encoding is the file's own declaration (the platform's files say ISO-8859-1); a file that
    declares none and is not UTF-8 is read as ISO-8859-1. Entity declarations are refused, so that
    a file cannot expand to anything but what it holds.
    """
    try:
        data = read_regular(path, MAX_XML_BYTES)
    except ReadRefused as exc:
        raise LogistFileError(f"{path}: cannot read {kind}: {exc}") from None
    prolog = data[: data.find(b"?>") + 2] if data.lstrip().startswith(b"<?xml") else b""
    text: bytes | str = data
    if b"encoding" not in prolog:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("iso-8859-1")
    if b"<!ENTITY" in data or _declares_entities(text):  # the second: in any encoding (UTF-16 hid the first)
        raise LogistFileError(f"{path}: {kind} declares XML entities, which are not supported")
    try:
        return ET.fromstring(text)
    except ET.ParseError as exc:
        raise LogistFileError(f"{path}: {kind} is not valid XML ({exc})") from None
    except (LookupError, ValueError) as exc:  # an unknown encoding name
        raise LogistFileError(f"{path}: {kind} cannot be decoded ({exc})") from None


class _EntityDeclared(Exception):
    pass


def _declares_entities(text: bytes | str) -> bool:
    """Whether the document declares an entity, as the XML parser reads it (whatever its encoding);
    the parse stops at the first declaration, before anything could expand."""
    parser = expat.ParserCreate()

    def declared(*_args: object) -> None:
        raise _EntityDeclared

    parser.EntityDeclHandler = declared
    try:
        parser.Parse(text, True)
    except _EntityDeclared:
        return True
    except (expat.ExpatError, ValueError, LookupError):  # not XML: the parse below says so
        return False
    return False


def settings_of(element: ET.Element) -> dict[str, str]:
    """The ``key="value"`` attributes of every ``<set .../>`` child, in order (a later one wins)."""
    out: dict[str, str] = {}
    for child in element.findall("set"):
        out.update(child.attrib)
    return out
