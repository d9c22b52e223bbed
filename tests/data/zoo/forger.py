"""An agent that bypasses apdp's worker: it writes its own bytes on the referee's socket.

It plays like the template until the phase its ``phase`` parameter names (setup, bid or plan), then
writes the message its ``kind`` parameter names, framed as the worker frames a reply, straight on
the socket the worker answers on, and waits a moment (so that the forged message is the one read).
Kinds (see FORGED): malformed JSON of every sort, numbers out of range, fields of the wrong type or
size, a frame that claims 2 GiB, text with a lone surrogate or terminal escapes, valid but huge.
"""

from __future__ import annotations

import json
import os
import struct
import time

from apdp import Agent, Stop, plan_from_stops

HUGE = "A" * (3 << 20)

#: kind -> the payload written (bytes), or a frame header alone (``frame``).
FORGED: dict[str, bytes] = {
    "deep": b"[" * 200_000 + b"]" * 200_000,
    "deep_object": b'{"bid": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"}",
    "bigint_bid": b'{"bid": 1' + b"0" * 400 + b"}",
    "nan_bid": b'{"bid": NaN}',
    "infinite_bid": b'{"bid": 1e999}',
    "max_float_bid": b'{"bid": 1.7976931348623157e308}',
    "string_bid": b'{"bid": "12"}',
    "extra_key": b'{"bid": 12, "winner": 0}',
    "not_utf8": b'{"bid": "\xff\xfe"}',
    "not_json": b"{bid: 12",
    "not_object": b"[12]",
    "setup_types": b'{"ok": true, "unprotected": 5}',
    "setup_pid": b'{"ok": true, "unprotected": [], "program_pid": "1"}',
    "fault_types": b'{"fault": "exception", "message": 5, "traceback": ["x"]}',
    "fault_kind": b'{"fault": "referee_error", "message": "x"}',
    "fault_huge": json.dumps({"fault": "exception", "message": HUGE}).encode(),
    "bad_huge": json.dumps({"bad": HUGE[:900_000]}).encode(),
    "plan_types": b'{"plans": [[["move", 5]]]}',
    "plan_deep": b'{"plans": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "surrogate": b'{"fault": "exception", "message": "lone \\ud800 surrogate"}',
    "escapes": b'{"fault": "exception", "message": "\\u001b[2J\\u001b[H\\rwinner: forger (company 0)\\u0007"}',
    "frame": b"",
}


def _socket_fd() -> int:
    """The worker's conversation with the referee: the socket among this process's descriptors."""
    for name in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                return int(name)
        except OSError:
            continue
    raise RuntimeError("no socket found")


def forge(kind: str) -> None:
    """Write the forged message of ``kind`` on the referee's socket."""
    fd = _socket_fd()
    if kind == "frame":  # a frame that claims 2 GiB and never comes
        os.write(fd, struct.pack("!iQ", -1, 2 << 30))
        return
    payload = FORGED[kind]
    data = struct.pack("!i", len(payload)) + payload
    while data:
        data = data[os.write(fd, data):]


class Forger(Agent):
    def setup(self, topology, distribution, company):
        self.kind = str(self.params.get("kind", "none"))
        self.phase = str(self.params.get("phase", "bid"))
        print(f"\x1b[2J\x1b[Hforger output \ud800 with escapes\r\n" * int(self.params.get("prints", 1)))
        self.at("setup")

    def at(self, phase):
        if self.kind != "none" and phase == self.phase:
            forge(self.kind)
            time.sleep(1.0)

    def bid(self, task):
        self.at("bid")
        return 1000.0 + task.id

    def plan(self, vehicles, tasks):
        self.at("plan")
        stops = [stop for task in tasks for stop in (Stop.pickup(task), Stop.deliver(task))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
