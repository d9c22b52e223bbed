"""Files named after the modules apdp's processes import, to run apdp from: each leaves a mark when
imported where it can write (a confined agent process cannot), so a mark is a module found in the
working folder by a process outside the sandbox."""

from __future__ import annotations

from pathlib import Path

#: Modules the zygote, a worker pool's fork server and resource tracker, the workers (local or Ray)
#: import, early or late.
SHADOWED = (
    "apdp", "numpy", "glob", "tempfile", "threading", "warnings", "weakref", "signal", "random", "json",
    "shutil", "selectors", "queue", "traceback", "struct", "pickle", "socket", "subprocess", "logging",
    "inspect", "dataclasses", "typing", "enum", "functools", "contextlib", "hashlib", "secrets", "ctypes",
    "sqlite3", "zlib", "tomllib", "pathlib", "fnmatch", "resource", "heapq", "bisect", "copy", "textwrap",
)


def plant_namesakes(folder: Path, marks: Path) -> None:
    """A file ``<module>.py`` in ``folder`` for each of :data:`SHADOWED`, marking ``marks/<module>``."""
    folder.mkdir(parents=True, exist_ok=True)
    marks.mkdir(parents=True, exist_ok=True)
    for name in SHADOWED:
        (folder / f"{name}.py").write_text(
            "import os\n"
            "try:\n"
            f"    os.close(os.open({str(marks / name)!r}, os.O_CREAT | os.O_WRONLY, 0o600))\n"
            "except OSError:\n"
            "    pass\n"
        )
