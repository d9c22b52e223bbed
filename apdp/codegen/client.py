"""A minimal OpenAI-compatible chat-completions client over HTTP (standard library only).

``POST {base_url}/chat/completions`` with ``{"model", "messages"}``; the key comes from
``OPENAI_API_KEY`` as the standard clients read it (none is sent when it is unset, for local
servers). Each request has a deadline, for all of it: connecting, sending, and the whole response
(an endpoint that sends a byte every few seconds is given up on when it passes). 5xx, 429, timeouts
and connection errors are retried with exponential backoff; everything else fails at once with one
line that says what to fix. A response larger than :data:`MAX_RESPONSE_BYTES` is the endpoint's
error (never read into memory whole). A redirect is followed only to the same host and port (or
from http to https on it): the key goes to no host the user did not name. The endpoint's text that
apdp prints or keeps (its error messages, the model's name, the bodies in the transcript) has its
control characters escaped (:func:`apdp.text.clean_text`): it moves no cursor and clears no screen.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import http.client
import json
import math
import os
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from apdp.codegen.usage import clean_usage
from apdp.errors import UserError
from apdp.text import clean_line, clean_text

Message = Mapping[str, str]
#: The largest response body read: a model's reply is far smaller; a larger body is the endpoint's error.
MAX_RESPONSE_BYTES = 16 * 2**20
#: The part of an HTTP error's body read (for its message: one line of it is shown).
MAX_ERROR_BYTES = 64 * 2**10
#: The longest deadline of a request, in seconds (a week).
MAX_TIMEOUT = 7 * 86400
#: The bytes read at a time.
_CHUNK = 64 * 2**10
#: Receives one dict per HTTP attempt (request, response or error), for the transcript.
ExchangeLog = Callable[[dict[str, Any]], None]


class ChatError(UserError):
    """The chat endpoint could not give a reply; the message is one line."""


@dataclass(frozen=True, slots=True)
class ChatReply:
    """A model's answer: its text, the model that answered and the raw response.

    ``usage`` is the response's token counts (:func:`~apdp.codegen.usage.clean_usage`: a figure that
    is not a sane whole number is None; the whole ``usage`` is None when the server sent none);
    ``seconds`` the wall time of the whole call, retries included.
    """

    text: str
    model: str
    raw: Mapping[str, Any]
    usage: Mapping[str, Any] | None = None
    seconds: float = 0.0


def endpoint_url(base_url: str) -> str:
    """The chat-completions URL of ``base_url`` (kept as is when it already ends with it)."""
    parsed = urllib.parse.urlparse(base_url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ChatError(f"bad --base-url {base_url!r}: give an http(s) URL such as https://api.openai.com/v1")
    url = base_url.rstrip("/")
    return url if url.endswith("/chat/completions") else url + "/chat/completions"


@dataclass
class ChatClient:
    """Chat completions from one model at one endpoint.

    ``timeout`` is the deadline of each HTTP request in seconds (connecting, sending and the whole
    response; at most :data:`MAX_TIMEOUT`); ``retries`` is the number of extra attempts
    after a retryable failure, waiting ``backoff * 2**attempt`` seconds (or the server's
    ``Retry-After`` when shorter than a minute) before each; ``on_retry`` is told each one, in a line
    that says what failed and when the next attempt comes.
    """

    base_url: str
    model: str
    api_key: str | None = field(default_factory=lambda: os.environ.get("OPENAI_API_KEY"))
    timeout: float = 300.0
    retries: int = 4
    backoff: float = 2.0
    temperature: float | None = None
    log: ExchangeLog | None = None
    sleep: Callable[[float], None] = time.sleep
    on_retry: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        self.url = endpoint_url(self.base_url)
        if not 0 < self.timeout <= MAX_TIMEOUT:  # NaN too; infinity would overflow the timers
            raise ChatError(f"the HTTP timeout must be from 0 to {MAX_TIMEOUT} seconds, got {self.timeout}")

    def complete(self, messages: Sequence[Message]) -> ChatReply:
        """The model's reply to ``messages``; ChatError (one line) when there is none."""
        body: dict[str, Any] = {"model": self.model, "messages": [dict(m) for m in messages]}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        first = time.monotonic()
        for attempt in range(self.retries + 1):
            self._log({"event": "request", "attempt": attempt, "url": self.url, "body": body})
            request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
            started = time.monotonic()
            deadline = _Deadline(self.timeout)
            try:
                with _opener(deadline).open(request, timeout=self.timeout) as response:
                    payload = _read_body(response, self.url, deadline)
                    status = int(response.status)
            except urllib.error.HTTPError as exc:
                text = _read_error(exc)
                self._log(_entry("http_error", attempt, started, status=exc.code, body=clean_text(text)))
                retryable = exc.code == 429 or exc.code >= 500
                if not retryable or attempt == self.retries:
                    raise ChatError(_http_message(self.url, exc.code, text)) from None
                self._retry(attempt, f"HTTP {exc.code}", self._wait(attempt, exc.headers.get("Retry-After")))
                continue
            except _TooLarge as exc:
                self._log(_entry("response_too_large", attempt, started, error=str(exc)))
                raise ChatError(str(exc)) from None
            except _Redirected as exc:
                self._log(_entry("redirect_refused", attempt, started, error=str(exc)))
                raise ChatError(str(exc)) from None
            except (OSError, http.client.HTTPException) as exc:  # URLError, timeouts, resets are OSErrors
                reason = getattr(exc, "reason", exc)
                if deadline.expired or isinstance(reason, TimeoutError):
                    reason = f"no whole response within {self.timeout:g} s"
                why = clean_line(reason, 200)
                self._log(_entry("connection_error", attempt, started, error=why))
                if isinstance(reason, socket.gaierror):
                    raise ChatError(f"cannot resolve the host of {self.url}: check --base-url") from None
                if attempt == self.retries:
                    raise ChatError(f"cannot reach {self.url} after {attempt + 1} attempts: {why}") from None
                self._retry(attempt, why, self._wait(attempt, None))
                continue
            finally:
                deadline.cancel()
            text = payload.decode("utf-8", errors="replace")
            self._log(_entry("response", attempt, started, status=status, body=clean_text(text)))
            reply = _parse_reply(self.url, text, self.model)
            return dataclasses.replace(reply, seconds=time.monotonic() - first)
        raise AssertionError("unreachable")  # pragma: no cover

    def _retry(self, attempt: int, why: str, wait: float) -> None:
        """Say that attempt ``attempt`` failed for ``why`` and wait ``wait`` seconds for the next."""
        if self.on_retry is not None:
            self.on_retry(f"{self.url}: {clean_line(why, 200)}; retry {attempt + 1} of {self.retries} in {wait:g} s")
        self.sleep(wait)

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        wait: float = self.backoff * 2**attempt
        if retry_after is not None:
            with contextlib.suppress(ValueError):
                seconds = float(retry_after)
                if math.isfinite(seconds):  # "nan" would reach time.sleep
                    wait = min(max(seconds, 0.0), 60.0)
        return wait

    def _log(self, entry: dict[str, Any]) -> None:
        if self.log is not None:
            self.log({"model": self.model, **entry})


def _entry(event: str, attempt: int, started: float, **fields: Any) -> dict[str, Any]:
    return {
        "event": event,
        "attempt": attempt,
        "seconds": round(time.monotonic() - started, 3),
        **fields,
    }


class _TooLarge(Exception):
    """The endpoint sent a body larger than MAX_RESPONSE_BYTES (the message is one line)."""


class _Redirected(Exception):
    """The endpoint redirected the request to another host, or from https to http (one line)."""


class _SameHost(urllib.request.HTTPRedirectHandler):
    """urllib's redirects, to the same host and port only (or from http to https on the same host):
    the request carries the API key, which goes to no host the user did not name, nor over plain
    http after https; a redirect elsewhere is :class:`_Redirected`, never followed."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str,
                         headers: Any, newurl: str) -> urllib.request.Request | None:
        why = _elsewhere(req.full_url, newurl)
        if why is None:
            return super().redirect_request(req, fp, code, msg, headers, newurl)
        fp.close()
        raise _Redirected(f"{req.full_url} redirected the request (HTTP {code}) to {clean_line(newurl, 200)}, "
                          f"{why}; give the endpoint's own address as --base-url")


def _elsewhere(url: str, newurl: str) -> str | None:
    """Why a redirect from ``url`` to ``newurl`` is not followed; None when it goes to the same host
    and port (or from http to https on the default ports)."""
    old, new = urllib.parse.urlsplit(url), urllib.parse.urlsplit(newurl)
    if old.scheme == "https" and new.scheme != "https":
        return "plain http: the API key is never sent unencrypted once https was asked for"
    defaults = {"http": 80, "https": 443}
    try:
        ports = (old.port or defaults.get(old.scheme), new.port or defaults.get(new.scheme))
    except ValueError:  # a port that is no number
        ports = (None, -1)
    upgrade = (old.scheme, new.scheme, *ports) == ("http", "https", 80, 443)
    if (old.hostname or "").lower() != (new.hostname or "").lower() or not (ports[0] == ports[1] or upgrade):
        return "another host: the API key goes only to the host of --base-url"
    return None


class _Deadline:
    """The end of one HTTP request: when it passes, the request's sockets are shut down, so that
    whatever read or write is blocked on them (the connection's setup, the headers, the body) fails
    at once, however the endpoint trickles its bytes."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket | None) -> None:
        """Shut ``sock`` down when the deadline passes (at once if it has)."""
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def cancel(self) -> None:
        """The request is over: forget it."""
        self._timer.cancel()
        with self._lock:
            self._sockets.clear()


def _shut(sock: socket.socket) -> None:
    # socket.socket's own shutdown, also for a TLS socket (whose shutdown would drop its TLS state
    # under a thread that is reading): the blocked read then sees the end of the stream
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _Watched(http.client.HTTPConnection):
    """An HTTP connection whose sockets its request's deadline watches."""

    def __init__(self, *args: Any, deadline: _Deadline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline = deadline
        create = self._create_connection  # type: ignore[has-type]  # set by HTTPConnection.__init__

        def create_and_watch(*a: Any, **k: Any) -> socket.socket:
            sock: socket.socket = create(*a, **k)
            deadline.watch(sock)  # from the first byte: a proxy's tunnel too
            return sock

        self._create_connection = create_and_watch

    def connect(self) -> None:
        super().connect()
        self._deadline.watch(self.sock)  # the TLS socket of an HTTPS connection


class _WatchedHTTPS(_Watched, http.client.HTTPSConnection):
    """An HTTPS connection whose sockets its request's deadline watches."""


class _Watching:
    """A urllib handler whose connections (of class ``connection``) its request's deadline watches."""

    connection: type[_Watched]

    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def do_open(self, http_class: Any, req: urllib.request.Request, **kwargs: Any) -> http.client.HTTPResponse:
        # https_open passes the TLS settings in kwargs
        opened: http.client.HTTPResponse = super().do_open(  # type: ignore[misc]
            functools.partial(self.connection, deadline=self._deadline), req, **kwargs)
        return opened


class _HTTPHandler(_Watching, urllib.request.HTTPHandler):
    connection = _Watched


class _HTTPSHandler(_Watching, urllib.request.HTTPSHandler):
    connection = _WatchedHTTPS


def _opener(deadline: _Deadline) -> urllib.request.OpenerDirector:
    """urllib's usual opener (proxies from the environment, redirects on the same host only), its
    connections watched by ``deadline``."""
    return urllib.request.build_opener(_HTTPHandler(deadline), _HTTPSHandler(deadline), _SameHost())


def _read_body(response: http.client.HTTPResponse, url: str, deadline: _Deadline) -> bytes:
    """The response's body, read a chunk at a time: _TooLarge past MAX_RESPONSE_BYTES, TimeoutError
    when the deadline cut it short."""
    limit = MAX_RESPONSE_BYTES
    too_large = f"{url} sent a response larger than {limit // 2**20} MiB: no chat reply is that long"
    length = response.getheader("Content-Length")
    if length is not None and length.strip().isdigit() and int(length) > limit:
        raise _TooLarge(too_large)
    chunks: list[bytes] = []
    size = 0
    while chunk := response.read1(_CHUNK):
        size += len(chunk)
        if size > limit:
            raise _TooLarge(too_large)
        chunks.append(chunk)
    if deadline.expired:  # the end of the stream was the deadline's doing
        raise TimeoutError("deadline")
    return b"".join(chunks)


def _read_error(exc: urllib.error.HTTPError) -> str:
    """The start of an HTTP error's body (what one line can show of it and more)."""
    try:
        return exc.read(MAX_ERROR_BYTES).decode("utf-8", errors="replace")
    except (OSError, http.client.HTTPException):  # reset, or cut short by the deadline
        return ""
    finally:
        exc.close()


def _http_message(url: str, status: int, body: str) -> str:
    detail = _error_detail(body)
    if status in (401, 403):
        return f"{url} refused the API key (HTTP {status}){detail}: set OPENAI_API_KEY to a valid key"
    if status == 404:
        return f"no chat-completions endpoint at {url} (HTTP 404){detail}: check --base-url"
    if status == 429 or status >= 500:
        return f"{url} kept failing (HTTP {status}){detail}; try again later"
    return f"{url} rejected the request (HTTP {status}){detail}"


def _error_detail(body: str) -> str:
    """The server's own error message, shortened to fit on the line."""
    try:
        data = json.loads(body)
        message = data["error"]["message"] if isinstance(data["error"], dict) else data["error"]
    except (ValueError, KeyError, TypeError):
        message = body
    message = clean_line(" ".join(str(message).split()), 160)  # the endpoint's words: no escape sequence
    return f": {message}" if message else ""


def _parse_reply(url: str, text: str, model: str) -> ChatReply:
    try:
        data = json.loads(text)
    except ValueError:
        raise ChatError(f"malformed response from {url}: not JSON ({' '.join(text.split())[:80]!r})") from None
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ChatError(
            f"malformed response from {url}: no choices[0].message.content ({' '.join(text.split())[:80]!r})"
        ) from None
    if not isinstance(content, str):
        raise ChatError(f"malformed response from {url}: the message content is not text")
    answered = clean_line(data["model"], 200) if isinstance(data.get("model"), str) else model
    return ChatReply(content, answered, data, clean_usage(data.get("usage")))
