"""The study's journal (``DIR/journal.jsonl``): every model call answered and every generation
finished, one JSON object per line, appended and flushed the moment it happens.

A rerun reads it back first: a call already answered is replayed from it (never asked, never paid
twice) and a generation already finished is not run again. A line cut short by a crash is ignored.

Lines: ``{"kind": "call", "job", "key", "text", "model", "usage", "seconds"}`` for an answered call
(``key`` hashes the model, the messages and the temperature), and ``{"kind": "job", "job", "status",
...}`` for a generation's outcome (:mod:`apdp.study.generate`).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from apdp.codegen.client import ChatClient, ChatReply, Message
from apdp.codegen.usage import clean_usage, seconds_figure
from apdp.errors import UserError

JOURNAL = "journal.jsonl"


class CallsStopped(UserError):
    """No new model call may be made: the study is stopping (Ctrl-C, a failure); a rerun continues."""


class CallBudgetSpent(CallsStopped):
    """The run's budget of new model calls is spent (``--max-calls``); a rerun continues."""


def call_key(model: str, messages: Sequence[Message], temperature: float | None) -> str:
    """The hash that identifies one call within a generation."""
    body = {"model": model, "messages": [dict(m) for m in messages], "temperature": temperature}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


class Journal:
    """The append-only journal of one study folder; safe to use from several threads.

    ``max_calls`` caps the new (paid) calls of this run: the next one raises CallBudgetSpent. Once
    ``stopping`` is set, a new call raises CallsStopped (a call already answered is still replayed).
    """

    def __init__(self, path: Path, max_calls: int | None = None) -> None:
        self.path = path
        self.calls: dict[tuple[str, str], dict[str, Any]] = {}
        self.jobs: dict[str, dict[str, Any]] = {}
        self.entries: list[dict[str, Any]] = []
        self.max_calls = max_calls
        self.new_calls = 0
        self.replayed = 0
        self._reserved = 0
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self._read()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def _read(self) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise UserError(f"cannot read the study journal {self.path}: {exc.strerror}") from None
        for line in raw.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut short by a crash
            if isinstance(entry, dict):
                self._index(entry)

    def _index(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        if entry.get("kind") == "call":
            self.calls[(str(entry.get("job")), str(entry.get("key")))] = entry
        elif entry.get("kind") == "job":
            self.jobs[str(entry.get("job"))] = entry

    def append(self, entry: dict[str, Any]) -> None:
        """Write ``entry`` (with the time) as one line, at once."""
        line = {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **entry}
        data = (json.dumps(line, ensure_ascii=False, default=str) + "\n").encode("utf-8")
        with self._lock:
            os.write(self._fd, data)  # one write: a crash leaves whole lines or a cut last one
            self._index(line)

    def answered(self, job: str, key: str) -> dict[str, Any] | None:
        """The recorded answer to call ``key`` of ``job``, or None."""
        with self._lock:
            return self.calls.get((job, key))

    def reserve(self) -> None:
        """Count one new call against the budget; CallBudgetSpent when there is none left."""
        with self._lock:
            if self.stopping.is_set():
                raise CallsStopped("the study is stopping")
            if self.max_calls is not None and self._reserved >= self.max_calls:
                raise CallBudgetSpent(f"the budget of {self.max_calls} new model call(s) is spent")
            self._reserved += 1

    def close(self) -> None:
        """Close the file."""
        os.close(self._fd)


@dataclass
class JournaledClient(ChatClient):
    """A :class:`ChatClient` that answers from the journal what it answered before, and journals
    every new answer before returning it. ``job`` names the generation whose calls these are."""

    journal: Journal | None = field(default=None, repr=False)
    job: str = ""

    def complete(self, messages: Sequence[Message]) -> ChatReply:
        """The recorded reply to ``messages``, else the model's (then recorded)."""
        journal = self.journal
        if journal is None:
            return super().complete(messages)
        key = call_key(self.model, messages, self.temperature)
        known = journal.answered(self.job, key)
        if known is not None:
            journal.replayed += 1
            self._log({"event": "journal_replay", "key": key})
            return ChatReply(str(known.get("text", "")), str(known.get("model") or self.model), {},
                             clean_usage(known.get("usage")), seconds_figure(known.get("seconds")) or 0.0)
        journal.reserve()
        reply = super().complete(messages)
        journal.new_calls += 1
        journal.append({
            "kind": "call", "job": self.job, "key": key, "model": reply.model, "asked": self.model,
            "text": reply.text, "usage": dict(reply.usage) if reply.usage is not None else None,
            "seconds": round(reply.seconds, 3),
        })
        return reply

