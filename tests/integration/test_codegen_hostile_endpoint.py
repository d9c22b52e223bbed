"""A hostile OpenAI-compatible endpoint (the red team's attacks on the harness), on loopback.

Escape sequences in its error messages reach no terminal; a response that trickles a byte at a time
is given up on at the request's deadline; an endless body is an error of the endpoint after 16 MiB,
not a process that eats the memory; absurd token figures (1.7e308) are unknown, and no report
crashes on them, nor on a provenance edited to hold them. A redirect to another host (or from https
to http) is refused in one line: the API key goes to no host the user did not name.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from apdp.agents.provenance import LEDGER, SIGNATURE, read_provenance, signature_of
from apdp.codegen.client import ChatError, _elsewhere
from apdp.codegen.loop import RunSettings, run
from apdp.testing import CheckConfig
from tests.chat import ChatServer, drip, flood, redirect, serve_chat
from tests.replies import GOOD, answer

#: The red team's message: a window title, a screen clear and a forged green verdict; then a C1
#: control (CSI) and a bidirectional override, which JSON would store raw.
ESC = ("\x1b]0;apdp: all checks passed\x07\x1b[2J\x1b[H\x1b[1;32magent clean, round 0 kept; 0 faults\x1b[0m"
       "\x1b[8m \x9b2J \u202eevil")
RAW = ("\x1b", "\x07", "\x9b", "\u202e")
ASK = [{"role": "user", "content": "x"}]
CHECK = CheckConfig(opponents=("template",), topologies=("france",), tasks=4, timeouts={"bid": 0.5, "plan": 5.0})


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def apdp(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    from apdp.cli import main

    monkeypatch.setattr(sys, "argv", ["apdp", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return int(info.value.code or 0)


def clean(text: str) -> bool:
    return not any(c in text for c in RAW)


# -- esc: the endpoint's words reach no terminal raw ------------------------------------------


def test_an_error_message_with_escape_sequences_is_shown_escaped(server: ChatServer) -> None:
    server.raw(400, json.dumps({"error": {"message": ESC}}, ensure_ascii=False))
    with pytest.raises(ChatError) as info:
        server.client().complete(ASK)
    message = str(info.value)
    assert clean(message) and "\n" not in message
    assert "rejected the request (HTTP 400): \\x1b]0;apdp: all checks passed\\x07\\x1b[2J" in message


def test_retries_and_the_last_error_say_nothing_raw(server: ChatServer) -> None:
    said: list[str] = []
    log: list[dict[str, Any]] = []
    for _ in range(3):
        server.raw(503, ESC)  # a body that is no JSON: shown as it is, escaped
    with pytest.raises(ChatError) as info:
        server.client(on_retry=said.append, log=log.append).complete(ASK)
    assert "kept failing (HTTP 503)" in str(info.value) and clean(str(info.value))
    assert len(said) == 2 and all(clean(line) for line in said)
    assert all(clean(e["body"]) for e in log if e["event"] == "http_error")  # what the transcript keeps


def test_a_models_name_and_a_logged_body_are_kept_escaped(server: ChatServer) -> None:
    server.reply("hello " + ESC, model="gpt\x1b[2J\u202e")
    log: list[dict[str, Any]] = []
    reply = server.client(log=log.append).complete(ASK)
    assert reply.model == "gpt\\x1b[2J\\u202e"
    assert reply.text == "hello " + ESC  # the model's own text is passed on as it is (JSON stores it escaped)
    assert all(clean(e["body"]) for e in log if e["event"] == "response")


def test_apdp_codegen_run_prints_the_message_escaped(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.raw(400, json.dumps({"error": {"message": ESC}}, ensure_ascii=False))
    code = apdp(["codegen", "run", "--model", "m", "--base-url", server.url, "--agents-dir", str(tmp_path / "a"),
                 "--name", "esc"], monkeypatch)
    out = capsys.readouterr()
    assert code == 2 and clean(out.out) and clean(out.err), out.err
    assert out.err.strip().splitlines()[-1].startswith("error: ") and "\\x1b[2J" in out.err
    stored = (tmp_path / "a" / "esc.transcript.jsonl").read_text(encoding="utf-8")
    assert clean(stored)


# -- drip: the timeout is a deadline for the whole request ------------------------------------


@pytest.mark.parametrize("headers", [True, False], ids=["body", "status-line"])
def test_a_response_that_trickles_is_given_up_at_the_deadline(server: ChatServer, headers: bool) -> None:
    for _ in range(2):
        server.hostile(drip(every=0.1, headers=headers))  # a byte every 0.1 s: each read is quick
    said: list[str] = []
    started = time.monotonic()
    with pytest.raises(ChatError, match=r"after 2 attempts: no whole response within 0\.5 s"):
        server.client(timeout=0.5, retries=1, on_retry=said.append).complete(ASK)
    elapsed = time.monotonic() - started
    assert elapsed < 10.0, elapsed  # two deadlines of 0.5 s (wide: a loaded machine); the drip lasts 30 s
    assert len(said) == 1 and "no whole response within 0.5 s; retry 1 of 1" in said[0]  # retried like a timeout


def test_a_timeout_then_a_reply(server: ChatServer) -> None:
    server.hostile(drip(every=0.1))
    server.reply("late but whole")
    assert server.client(timeout=0.5, retries=1).complete(ASK).text == "late but whole"


# -- flood: a response body is capped ----------------------------------------------------------


def test_an_endless_body_is_an_error_of_the_endpoint_not_retried(server: ChatServer) -> None:
    server.hostile(flood())
    server.reply("never asked")
    started = time.monotonic()
    with pytest.raises(ChatError) as info:
        server.client(timeout=60, retries=2).complete(ASK)
    message = str(info.value)
    assert "sent a response larger than 16 MiB" in message and "\n" not in message
    assert len(server.requests) == 1 and time.monotonic() - started < 30


def test_a_body_announced_too_large_is_refused_before_it_is_read(server: ChatServer) -> None:
    def announce(out: Any) -> None:
        out.write(b"HTTP/1.0 200 OK\r\nContent-Length: 99999999999\r\n\r\n{")

    server.hostile(announce)
    with pytest.raises(ChatError, match="larger than 16 MiB"):
        server.client().complete(ASK)


# -- redirect: the key goes to no host the user did not name ----------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307])
@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"], ids=["other-host", "other-port"])
def test_a_redirect_to_another_host_is_refused_and_sends_it_no_key(
    server: ChatServer, status: int, host: str
) -> None:
    with serve_chat() as other:
        other.reply("the other host's answer")
        port = other.url.split(":")[2].split("/")[0]
        elsewhere = f"http://{host}:{port}/v1/chat/completions"
        server.hostile(redirect(elsewhere, status))
        with pytest.raises(ChatError) as info:
            server.client(api_key="sk-secret").complete(ASK)
        assert other.headers == []  # nothing reached it, the key least of all
    message = str(info.value)
    assert "\n" not in message and "sk-secret" not in message
    assert f"redirected the request (HTTP {status}) to {elsewhere}, another host" in message
    assert len(server.requests) == 1  # not retried


def test_a_redirect_on_the_same_host_is_followed(server: ChatServer) -> None:
    server.hostile(redirect(server.url + "/chat/completions"))
    server.reply("answered after the redirect")
    assert server.client(api_key="sk-secret").complete(ASK).text == "answered after the redirect"
    assert [h.get("Authorization") for h in server.headers] == ["Bearer sk-secret"] * 2


@pytest.mark.parametrize(("url", "newurl", "why"), [
    ("https://api.example/v1", "http://api.example/v1", "plain http"),
    ("https://api.example/v1", "http://api.example:443/v1", "plain http"),
    ("https://api.example/v1", "https://api.example.evil/v1", "another host"),
    ("https://api.example/v1", "https://api.example:8443/v1", "another host"),
    ("http://api.example:8000/v1", "https://api.example/v1", "another host"),
    ("http://api.example/v1", "https://api.example:bad/v1", "another host"),
    ("https://api.example/v1", "https://API.example:443/v2", None),
    ("http://api.example/v1", "https://api.example/v1", None),  # an upgrade on the default ports
    ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/", None),
])
def test_which_redirects_are_followed(url: str, newurl: str, why: str | None) -> None:
    refused = _elsewhere(url, newurl)
    assert (refused is None) if why is None else (refused is not None and refused.startswith(why))


# -- usage: absurd token figures are unknown ---------------------------------------------------


def test_absurd_usage_is_unknown_and_no_report_crashes(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The red team's usage server: two replies claiming 1.7e308 tokens each; then a ledger edited
    to claim infinity and a number past the largest float (each line signed, as the harness would)."""
    from apdp.tournament.config import make_config
    from apdp.tournament.report import report
    from apdp.tournament.run import run_tournament

    absurd = '"usage": {"prompt_tokens": 1.7e308, "completion_tokens": 1.7e308, "total_tokens": 1.7e308}'
    for text in ("I will think about it.", answer(GOOD)):
        server.raw(200, json.dumps({"model": "m", "choices": [{"message": {"content": text}}]})[:-1] + ", "
                   + absurd + "}")
    agents = tmp_path / "agents"
    settings = RunSettings(strategy="a1", name="gen-usage", agents_dir=agents, rounds=1, check=CHECK)
    assert run(settings, server.client()).ok
    prov = read_provenance(agents / "gen-usage.py")
    assert prov is not None
    assert [c["total_tokens"] for c in prov["model_calls"]] == [None, None]
    assert prov["usage"]["calls"] == 2 and prov["usage"]["total_tokens"] == 0  # none reported that can be believed

    monkeypatch.setenv("APDP_AGENTS", str(agents))
    config = make_config(topology="france", agents=["gen-usage", "template"], seed=1, overrides={"tasks": 4})
    ledger = agents / LEDGER
    last = json.loads(ledger.read_text(encoding="utf-8").splitlines()[-1])
    del last[SIGNATURE]
    for k, figure in enumerate(("1e999", "3.4e308", "NaN", "1" + "0" * 400)):
        last["provenance"]["usage"] = {"calls": 2, "total_tokens": 0, "seconds": 1.0}
        edited = json.dumps(last).replace('"total_tokens": 0', f'"total_tokens": {figure}')
        edited = edited.replace('"seconds": 1.0', f'"seconds": {figure}')
        edited = edited[:-1] + f', "{SIGNATURE}": "{signature_of(json.loads(edited))}"}}'
        with ledger.open("a", encoding="utf-8") as f:
            f.write(edited + "\n")
        # the report reads the usage stored when the agent played: a tournament after each edit
        out = tmp_path / f"out-{k}"
        assert run_tournament(config, out, jobs=1, progress=False).played == 2
        data = json.loads(report([out], "json", group_by="model"))
        usage = {u["agent"]: u for u in data["usage"]}
        assert usage["gen-usage"]["total_tokens"] is None and usage["gen-usage"]["tokens_per_win"] is None, figure
        assert usage["gen-usage"]["seconds"] is None and usage["gen-usage"]["calls"] == 2
        table = report([out], "table", group_by="model")
        assert "Model usage per agent" in table


# -- odd figures of the endpoint or the user -----------------------------------------------------


def test_a_retry_after_of_nan_is_no_crash(server: ChatServer) -> None:
    def busy(out: Any) -> None:
        out.write(b"HTTP/1.0 429 Too Many Requests\r\nRetry-After: nan\r\nContent-Length: 2\r\n\r\n{}")

    server.hostile(busy)
    server.reply("ok")
    waits: list[float] = []
    assert server.client(sleep=waits.append).complete(ASK).text == "ok"
    assert waits == [0.0]  # the client's own backoff (0 in tests)


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), 0.0, 1e12])
def test_an_impossible_timeout_is_a_one_line_error(server: ChatServer, timeout: float) -> None:
    with pytest.raises(ChatError, match="the HTTP timeout must be from 0 to 604800 seconds"):
        server.client(timeout=timeout)
