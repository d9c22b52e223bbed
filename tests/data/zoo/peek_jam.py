"""Answers every call on time but reads the requests with MSG_PEEK only, never consuming them, so
the referee's send buffer fills up (about 200 requests: a match of some 200+ tasks). A referee whose
writes had no deadline blocked for ever there: the match, and its tournament, never ended.

It takes over the worker's loop from inside its first bid() (it owns its process) and then bids
a fixed high price (wins nothing, so its plans are empty and valid).
"""
from __future__ import annotations

import json
import os
import pickle
import socket
import stat
import struct

from apdp import Agent


def _frame(obj) -> bytes:
    data = json.dumps(obj).encode()
    return struct.pack("!i", len(data)) + data


def _is_socket(fd: int) -> bool:
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False


class PeekJam(Agent):
    def setup(self, topology, distribution, company):
        self.vehicles = len(company.vehicles)

    def bid(self, task):
        fd = next(n for n in map(int, os.listdir("/proc/self/fd")) if n > 2 and _is_socket(n))
        sock = socket.socket(fileno=os.dup(fd))
        os.write(fd, _frame({"bid": 1e9}))  # this call's reply, sent by hand
        seen = 0  # bytes of the stream already answered (never consumed)
        while True:
            data = sock.recv(1 << 24, socket.MSG_PEEK)
            if not data:
                os._exit(0)
            while len(data) >= seen + 4:
                (size,) = struct.unpack_from("!i", data, seen)
                if len(data) < seen + 4 + size:
                    break
                request = pickle.loads(data[seen + 4: seen + 4 + size])
                seen += 4 + size
                calls = [request.first, request.second] if hasattr(request, "first") else [request]
                for call in calls:
                    name = type(call).__name__
                    if name == "BidCall":
                        os.write(fd, _frame({"bid": 1e9}))
                    elif name == "PlanCall":
                        os.write(fd, _frame({"plans": [[] for _ in call.vehicles]}))
                    else:
                        os.write(fd, _frame({"ok": True}))
            # wait for more bytes than we have seen
            import select
            p = select.poll(); p.register(fd, select.POLLIN)
            while len(sock.recv(1 << 24, socket.MSG_PEEK)) <= seen:
                import time; time.sleep(0.001)

    def auction_result(self, task, winner, bids):
        pass

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
