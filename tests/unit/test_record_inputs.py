"""A record is anyone's file: reading it opens no file it names, builds no network too large to build,
and reads no file too large, too deep or not a file (found by the attack round of issue 32)."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

import pytest

from apdp.check.verify import UnreadableRecord, read_record
from apdp.game.topology import TopologyError
from apdp.pages.replay import replay_html
from apdp.referee.record import MAX_RECORD_CITIES, record_topology
from tests.paths import ROOT


def chain(cities: int) -> dict[str, object]:
    """A network of ``cities`` cities in a line, in a record's form."""
    names = [f"c{i}" for i in range(cities)]
    return {"name": "chain", "cities": [{"name": n, "x": i, "y": 0} for i, n in enumerate(names)],
            "roads": [{"from": a, "to": b, "km": 1.0} for a, b in itertools.pairwise(names)]}


def test_a_record_names_a_network_never_a_file(tmp_path: Path) -> None:
    copy = tmp_path / "france.toml"
    shutil.copy(ROOT / "topologies" / "france.toml", copy)  # a real network: it was loaded from the path
    for named in (str(copy), "/dev/zero", "/proc/self/fd/0", "x.xml", "../topologies/france.toml"):
        with pytest.raises(TopologyError, match="a record names a network by its name"):
            record_topology({"topology": named})
        with pytest.raises(TopologyError):
            replay_html({"topology": named})
    assert record_topology({"topology": "fr"}).name == "france"


def test_a_record_embeds_no_network_too_large_to_build() -> None:
    assert len(record_topology({"network": chain(50)}).cities) == 50
    with pytest.raises(TopologyError, match=f"more than a record may embed \\({MAX_RECORD_CITIES} cities"):
        record_topology({"network": chain(MAX_RECORD_CITIES + 1)})


def test_a_record_file_is_a_regular_file_of_bounded_depth(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(UnreadableRecord, match="nested too deep"):
        read_record(deep)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    os.chmod(fifo, 0o600)
    held = os.open(fifo, os.O_RDWR)  # a writer exists: a read would wait for its end for ever
    try:
        with pytest.raises(UnreadableRecord, match="not a regular file"):
            read_record(fifo)
    finally:
        os.close(held)
    good = tmp_path / "r.json"
    good.write_text(json.dumps({"format": "apdp-record/1"}))
    assert read_record(good) == {"format": "apdp-record/1"}
