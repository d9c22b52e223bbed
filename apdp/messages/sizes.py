"""How large what passes between an agent and the referee may be: every cap once, named for where it holds.

A fault's message and traceback (and a build's output) pass three places, each with its own cap:

- apdp's worker, in the agent's process, **sends** at most ``SENT_*`` characters (it cuts the
  agent's exception there: the end of a traceback, where its last line is);
- the referee **reads** at most ``READ_*``, twice what the worker sends: an agent owns its process
  and may write replies of its own, and a longer text is a reply outside the protocol (a
  ``bad_reply`` fault), whereas a text the worker sent always passes;
- a match record **keeps** at most ``KEPT_*`` of what was read (cut, never refused, there): as much
  as the worker sends, so a record loses nothing of apdp's own worker's texts.

A whole reply is read up to :data:`READ_REPLY_BYTES` (the worker answers a longer one with a fault
of its own), and an agent program's reply line, read by the worker, up to :data:`PROGRAM_LINE_BYTES`.
What an agent prints is bounded by the scenario's ``limits.output_kb``; :data:`OUTPUT_NOTES_BYTES`
is the room read beyond it for the worker's notes that a stream reached that limit.
"""

from __future__ import annotations

#: Longest fault message a record keeps, in characters.
KEPT_MESSAGE = 2_000
#: Longest traceback a record keeps, in characters.
KEPT_TRACEBACK = 8_000

#: Longest fault message apdp's worker sends (an agent program's error included), in characters.
SENT_MESSAGE = KEPT_MESSAGE
#: Longest traceback apdp's worker sends (its end), in characters.
SENT_TRACEBACK = KEPT_TRACEBACK
#: Longest build output apdp's worker sends (its end), in characters.
SENT_BUILD_OUTPUT = 8_000

#: Longest fault message (or bad-value message, or agent program's error) the referee reads, in characters.
READ_MESSAGE = 2 * SENT_MESSAGE
#: Longest traceback the referee reads, in characters.
READ_TRACEBACK = 2 * SENT_TRACEBACK
#: Longest build output the referee reads, in characters.
READ_BUILD_OUTPUT = 2 * SENT_BUILD_OUTPUT

#: Largest reply read from an agent's process, in bytes: a plan of 50 tasks takes about 20 KiB.
READ_REPLY_BYTES = 1 << 20
#: Longest reply line the worker reads from an agent program, in bytes.
PROGRAM_LINE_BYTES = 16 * 1024 * 1024
#: Bytes of an agent's output read beyond ``limits.output_kb``: the worker's notes that its stdout
#: or stderr reached the limit.
OUTPUT_NOTES_BYTES = 256
