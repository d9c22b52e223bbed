"""A scripted chat-completions server on loopback: it speaks the OpenAI chat-completions API on
127.0.0.1 (an ephemeral port) and answers from a script, never a real model."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, BinaryIO

from apdp.codegen.client import ChatClient


def completion(text: str, model: str = "scripted", usage: dict[str, int] | None = None) -> str:
    """The body of a chat-completions response whose message is ``text``."""
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }
    if usage is not None:
        body["usage"] = usage
    return json.dumps(body)


#: Answers a request: its JSON body -> (status, body). It may sleep.
Responder = Callable[[dict[str, Any]], tuple[int, str]]
#: A hostile step of the script: writes the whole raw response (status line, headers, body) itself.
RawWriter = Callable[[BinaryIO], None]

_HEAD = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"
_START = b'{"choices": [{"message": {"content": "'


def drip(every: float = 0.2, headers: bool = True, until: float = 30.0) -> RawWriter:
    """A response that trickles one byte every ``every`` seconds (for ``until`` seconds at most), after
    the headers (or from the status line on: ``headers=False``)."""

    def write(out: BinaryIO) -> None:
        out.write(_HEAD + _START if headers else b"")
        trickle = (b"" if headers else _HEAD + _START) + b"a" * 10**6
        end = time.monotonic() + until
        for byte in trickle:
            if time.monotonic() > end:
                return
            out.flush()
            time.sleep(every)
            out.write(bytes([byte]))

    return write


def redirect(location: str, status: int = 302) -> RawWriter:
    """A response that sends the client to ``location``."""

    def write(out: BinaryIO) -> None:
        out.write(f"HTTP/1.0 {status} Moved\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode())

    return write


def flood(limit: int = 2**30) -> RawWriter:
    """A response with an endless body (no Content-Length), ``limit`` bytes at most, sent as fast as
    the client reads."""

    def write(out: BinaryIO) -> None:
        out.write(_HEAD + _START)
        chunk = b"A" * 2**20
        for _ in range(limit // len(chunk)):
            out.write(chunk)

    return write


@dataclass
class ChatServer:
    """A scripted chat-completions endpoint; each step is (status, body) or a reply text."""

    url: str
    script: list[tuple[int, str] | RawWriter] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    #: Answers a request when the script is empty.
    responder: Responder | None = None

    def reply(self, text: str, model: str = "scripted", usage: dict[str, int] | None = None) -> None:
        self.script.append((200, completion(text, model, usage)))

    def raw(self, status: int, body: str) -> None:
        self.script.append((status, body))

    def hostile(self, writer: RawWriter) -> None:
        """A step whose response ``writer`` writes raw (:func:`drip`, :func:`flood`)."""
        self.script.append(writer)

    def user_messages(self, k: int) -> list[str]:
        """The user messages of request ``k``."""
        return [m["content"] for m in self.requests[k]["messages"] if m["role"] == "user"]

    def client(self, model: str = "test-model", **kw: Any) -> ChatClient:
        """A chat client of this server that retries at once (no backoff)."""
        return ChatClient(self.url, model, backoff=0.0, retries=kw.pop("retries", 2), **kw)


@contextmanager
def serve_chat(responder: Responder | None = None) -> Iterator[ChatServer]:
    """A :class:`ChatServer` answering on loopback until the block ends (by ``responder`` when its
    script is exhausted)."""
    state = ChatServer(url="", responder=responder)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            request = json.loads(self.rfile.read(length)) if length else {"method": self.command}
            state.requests.append(request)
            state.headers.append(dict(self.headers))
            if self.path != "/v1/chat/completions":
                status, body = 404, '{"error": {"message": "not found"}}'
            elif state.script and callable(state.script[0]):
                writer = state.script.pop(0)
                assert callable(writer)
                with suppress(OSError):  # the client hung up: what it was meant to do
                    writer(self.wfile)
                return
            elif state.script:
                step = state.script.pop(0)
                assert not callable(step)
                status, body = step
            elif state.responder is not None:
                status, body = state.responder(request)
            else:
                status, body = 400, '{"error": {"message": "the test script is exhausted"}}'
            data = body.encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting (a slow reply)

        do_GET = do_POST  # where a redirect of a POST leads a client (its body is {"method": "GET"})

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
