"""What the referee has read of an agent's conversation: bytes cut into whole messages as they come,
each with the time it was whole.

Messages are framed as by ``multiprocessing.connection`` (a 4-byte big-endian length, or -1 and an
8-byte length). A message's time is that of the read that completed it, so a reply read later (the
referee waited on another agent meanwhile) still counts the time the agent took to send it.
"""

from __future__ import annotations

import struct
from collections import deque

from apdp.messages.sizes import READ_REPLY_BYTES
from apdp.messages.strict import BadMessage


def frame_at(buffer: bytearray, offset: int) -> tuple[int, int] | None:
    """(header length, size) of the whole message at ``offset`` of ``buffer``, if it is all there;
    BadMessage for a length no reply may have."""
    if len(buffer) < offset + 4:
        return None
    (size,) = struct.unpack_from("!i", buffer, offset)
    header = 4
    if size == -1:
        if len(buffer) < offset + 12:
            return None
        (size,) = struct.unpack_from("!Q", buffer, offset + 4)
        header = 12
    if size > READ_REPLY_BYTES or size < 0:
        raise BadMessage(f"a reply of more than {READ_REPLY_BYTES} bytes")
    return (header, size) if len(buffer) >= offset + header + size else None


class Inbox:
    """The bytes read from one agent's process, not yet taken as replies."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._whole = 0  # bytes at the start of the buffer that are whole messages
        self._times: deque[float] = deque()  # when each of those messages was whole
        #: Whether the bytes after the whole messages start with a length no reply may have.
        self.bad = False

    def add(self, chunk: bytes, now: float) -> None:
        """Bytes just read (at ``now``)."""
        self._buffer += chunk
        while not self.bad:
            try:
                frame = frame_at(self._buffer, self._whole)
            except BadMessage:  # said when that message is taken (:meth:`take`), not before
                self.bad = True
                break
            if frame is None:
                break
            self._whole += frame[0] + frame[1]
            self._times.append(now)

    def __len__(self) -> int:
        """Whole messages waiting."""
        return len(self._times)

    def arrival(self, index: int) -> float:
        """When the waiting message ``index`` (0: the first) was whole."""
        return self._times[index]

    def take(self) -> tuple[bytes, float] | None:
        """The first whole message and when it was whole, or None; BadMessage if the bytes there
        cannot be a message."""
        if not self._times:
            if self.bad:
                frame_at(self._buffer, 0)  # raises
            return None
        header, size = frame_at(self._buffer, 0) or (0, 0)
        message = bytes(self._buffer[header : header + size])
        del self._buffer[: header + size]
        self._whole -= header + size
        return message, self._times.popleft()
