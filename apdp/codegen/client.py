"""A minimal OpenAI-compatible chat-completions client over HTTP (standard library only).

``POST {base_url}/chat/completions`` with ``{"model", "messages"}``; the key comes from
``OPENAI_API_KEY`` as the standard clients read it (none is sent when it is unset, for local
servers). Each request has a time limit; 5xx, 429, timeouts and connection errors are retried with
exponential backoff; everything else fails at once with one line that says what to fix.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from apdp.codegen.usage import clean_usage
from apdp.errors import UserError

Message = Mapping[str, str]
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

    ``timeout`` bounds each HTTP request in seconds; ``retries`` is the number of extra attempts
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
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    payload = response.read()
                    status = int(response.status)
            except urllib.error.HTTPError as exc:
                text = _read_error(exc)
                self._log(_entry("http_error", attempt, started, status=exc.code, body=text))
                retryable = exc.code == 429 or exc.code >= 500
                if not retryable or attempt == self.retries:
                    raise ChatError(_http_message(self.url, exc.code, text)) from None
                self._retry(attempt, f"HTTP {exc.code}", self._wait(attempt, exc.headers.get("Retry-After")))
                continue
            except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException) as exc:
                reason = getattr(exc, "reason", exc)
                self._log(_entry("connection_error", attempt, started, error=str(reason)))
                if isinstance(reason, socket.gaierror):
                    raise ChatError(f"cannot resolve the host of {self.url}: check --base-url") from None
                if attempt == self.retries:
                    raise ChatError(f"cannot reach {self.url} after {attempt + 1} attempts: {reason}") from None
                self._retry(attempt, str(reason), self._wait(attempt, None))
                continue
            text = payload.decode("utf-8", errors="replace")
            self._log(_entry("response", attempt, started, status=status, body=text))
            reply = _parse_reply(self.url, text, self.model)
            return dataclasses.replace(reply, seconds=time.monotonic() - first)
        raise AssertionError("unreachable")  # pragma: no cover

    def _retry(self, attempt: int, why: str, wait: float) -> None:
        """Say that attempt ``attempt`` failed for ``why`` and wait ``wait`` seconds for the next."""
        if self.on_retry is not None:
            self.on_retry(f"{self.url}: {why[:200]}; retry {attempt + 1} of {self.retries} in {wait:g} s")
        self.sleep(wait)

    def _wait(self, attempt: int, retry_after: str | None) -> float:
        wait: float = self.backoff * 2**attempt
        if retry_after is not None:
            with contextlib.suppress(ValueError):
                wait = min(max(float(retry_after), 0.0), 60.0)
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


def _read_error(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


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
    message = " ".join(str(message).split())
    return f": {message[:160]}" if message else ""


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
    answered = data.get("model") if isinstance(data.get("model"), str) else model
    return ChatReply(content, answered, data, clean_usage(data.get("usage")))
