"""The replay of a match: one self-contained HTML page made from its record (``apdp replay``).

The page shows the network, the auction task by task (bids, winner, price, charts of bids and of
running revenue), every vehicle's plan step by step (route, load, running cost) and the result
(profits, winner, faults, CPU and wall time per phase). Everything it draws is computed here from
the record and the network, so that the page's figures are the referee's: a vehicle's running cost
is kilometres so far x its cost per km, counted as :func:`apdp.game.plan.plan_distance` counts them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from apdp.check.verify import read_record
from apdp.errors import UserError
from apdp.files import write_atomically
from apdp.game.topology import Topology
from apdp.pages.html import page, stage
from apdp.referee.record import record_topology
from apdp.referee.record_format import MatchRecord

#: Step kinds in the page's data.
MOVE, PICKUP, DELIVER = 0, 1, 2
_KINDS = {"move": MOVE, "pickup": PICKUP, "deliver": DELIVER}


class ReplayError(UserError):
    """A record that cannot be replayed (incomplete, or not on the network it names)."""


def labels(names: Sequence[str]) -> list[str]:
    """Agent names for display, with the company index when a name appears twice."""
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def vehicle_steps(
    topology: Topology,
    home: str,
    cost_per_km: float,
    actions: Sequence[Any],
    weights: Mapping[int, float],
) -> list[list[Any]]:
    """One vehicle's plan as steps ``[city index, kind, task id or None, load, running cost]``.

    The first step is the vehicle at home before its first action. A move to a city that is not
    on the network is not driven (as the referee counts it); a move along no road costs the
    shortest distance, as everywhere in apdp.
    """
    index = topology.index
    here = home
    km = 0.0
    load = 0.0
    steps: list[list[Any]] = [[index[home], MOVE, None, 0.0, 0.0]]
    for action in actions:
        if str(action[0]) not in _KINDS:
            raise ValueError(f"unknown action {action[0]!r} in a plan")
        kind = _KINDS[str(action[0])]
        task: int | None = None
        if kind == MOVE:
            city = str(action[1])
            if city in index:
                km += topology.distance(here, city)
                here = city
        else:
            task = int(action[1])
            weight = weights.get(task, 0.0)
            load += weight if kind == PICKUP else -weight
        steps.append([index[here], kind, task, round(load, 9) + 0.0, km * cost_per_km])
    return steps


def replay_data(record: MatchRecord, topology: Topology) -> dict[str, Any]:
    """What the replay page draws, computed from a record and its network.

    Raises ValueError, KeyError or IndexError on a record whose plans or cities are not the
    network's (see :func:`replay_html`, which turns them into one line).
    """
    agents = list(record.agents)
    index = topology.index
    for task in record.tasks:
        for city in (task.pickup, task.delivery):
            if city not in index:
                raise ValueError(f"task {task.id}'s city {city!r} is not on {topology.name}")
    weights = {t.id: float(t.weight) for t in record.tasks}
    routes: list[list[list[list[Any]]] | None] = []
    for company, plans in zip(record.companies, record.plans, strict=True):
        if plans is None:
            routes.append(None)
            continue
        vehicles = company.vehicles
        routes.append([
            vehicle_steps(topology, v.home, float(v.cost_per_km), plan, weights)
            for v, plan in zip(vehicles, [*plans, *([[]] * len(vehicles))], strict=False)
        ])
    for company in record.companies:
        for vehicle in company.vehicles:
            if vehicle.home not in index:
                raise ValueError(f"{vehicle.name}'s home {vehicle.home!r} is not on {topology.name}")
    return {
        "title": f"{topology.title or topology.name}, seed {record.seed}: {' vs '.join(agents)}",
        "topology": {
            "name": topology.name,
            "title": topology.title,
            "cities": [[c, *topology.coordinates[c]] for c in topology.cities],
            "roads": [[index[r.a], index[r.b], r.distance] for r in topology.roads],
        },
        "seed": str(record.seed),  # a string: a JavaScript number rounds an integer above 2**53
        "agents": labels(agents),
        "companies": [
            {
                "name": c.name,
                "vehicles": [
                    {"name": v.name, "home": index[v.home], "capacity": float(v.capacity),
                     "cost_per_km": float(v.cost_per_km)}
                    for v in c.vehicles
                ],
            }
            for c in record.companies
        ],
        "tasks": [[t.id, index[t.pickup], index[t.delivery], float(t.weight)] for t in record.tasks],
        "auctions": [
            {"task": a.task, "bids": [None if b is None else float(b) for b in a.bids], "winner": a.winner}
            for a in record.auctions
        ],
        "routes": routes,
        "result": record.result.model_dump(exclude_unset=True),
        "timing": record.timing,
        "unprotected": (record.sandbox or {}).get("unprotected") or [],
    }


def _replayable(record: MatchRecord | Mapping[str, Any], source: str) -> MatchRecord:
    """``record`` as its type (a record's JSON is read here); ReplayError, one line, when it is none."""
    if isinstance(record, MatchRecord):
        return record
    try:
        return MatchRecord.read(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        if first["type"] == "missing":
            raise ReplayError(f"{source}: cannot replay it, the record has no {where!r}") from None
        raise ReplayError(f"{source}: cannot replay it, the record is incomplete ({where}: {first['msg']})") from None


_BODY = stage("step") + """\
<aside id="panel">
  <h2>Companies</h2><table id="standing"></table>
  <h2 id="now-title"></h2><div id="now"></div>
</aside>
<section id="charts">
  <div><h2>Bids</h2><svg id="bids-chart" class="chart"></svg></div>
  <div><h2>Bids won (paid on delivery)</h2><svg id="revenue-chart" class="chart"></svg></div>
</section>
<section id="auction-list"><h2>Auctions</h2><div class="scroll"><table id="auctions"></table></div></section>
<section id="result"><h2>Result</h2><table id="result-table"></table><div id="faults"></div>
  <h2>Time per phase (seconds)</h2><table id="timing"></table></section>
</main>"""


def replay_html(record: MatchRecord | Mapping[str, Any], topology: Topology | None = None,
                source: str = "record") -> str:
    """The replay page of ``record`` (a record's JSON, as a file or a store holds it, is read into
    its type first; its network is loaded by name unless given).

    ``source`` names the record in errors. An incomplete record raises ReplayError, one line.
    """
    try:
        topology = topology or record_topology(record.to_json() if isinstance(record, MatchRecord) else dict(record))
        data = replay_data(_replayable(record, source), topology)
    except UserError:
        raise
    except KeyError as exc:
        raise ReplayError(f"{source}: cannot replay it, the record has no {exc}") from None
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        raise ReplayError(f"{source}: cannot replay it, the record is incomplete ({exc})") from None
    return page(f"apdp replay: {data['title']}", _BODY, data, ("common.css", "stage.css", "replay.css"),
                ("common.js", "replay.js"))


def write_replay(record: MatchRecord | Mapping[str, Any], out: str | Path, source: str = "record") -> int:
    """Write the replay page of ``record`` to ``out``; returns its size in bytes."""
    text = replay_html(record, source=source)
    write_atomically(out, text)
    return len(text.encode("utf-8"))


def replay_file(record_path: str | Path, out: str | Path) -> int:
    """Write the replay page of the record file ``record_path``; returns its size in bytes."""
    return write_replay(read_record(record_path), out, source=str(record_path))
