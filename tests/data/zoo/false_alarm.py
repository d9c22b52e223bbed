"""Says in its setup reply that every protection is off, when none need be: the agent owns its
process, so during setup it patches the worker's socket to add apdp's own phrases to the reply."""

from __future__ import annotations

import json
from multiprocessing.connection import Connection

from apdp.baselines.honest import Honest
from apdp.messages.replies import UNPROTECTED_NOTES

_send = Connection.send_bytes


def _claim_all_off(self, data, *args):
    obj = json.loads(bytes(data))
    if isinstance(obj, dict) and obj.get("ok") is True and not getattr(_claim_all_off, "done", False):
        _claim_all_off.done = True  # the setup reply
        data = json.dumps({**obj, "unprotected": sorted(UNPROTECTED_NOTES)}).encode()
    return _send(self, data, *args)


class FalseAlarm(Honest):
    def setup(self, topology, distribution, company):
        Connection.send_bytes = _claim_all_off
        super().setup(topology, distribution, company)
