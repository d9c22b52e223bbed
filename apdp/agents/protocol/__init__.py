"""The agent protocol ``apdp-agent/1``: JSON lines between the referee's side and an agent program.

Its messages are :mod:`apdp.messages`' calls and replies, one JSON object per line: a call's
``to_json`` on the program's stdin, the reply on its stdout, read by
:func:`apdp.messages.replies.decode_reply`. The format is documented in ``docs/protocol.md``; its
JSON Schema is :data:`SCHEMA_PATH`.
"""

from __future__ import annotations

from pathlib import Path

from apdp.messages.calls import PROTOCOL

__all__ = ["PROTOCOL", "SCHEMA_PATH", "ProtocolError"]

#: The JSON Schema of every request and reply.
SCHEMA_PATH = Path(__file__).with_name("apdp-agent-1.schema.json")


class ProtocolError(Exception):
    """An agent program's reply broke the protocol, or reported an error."""
