"""The chat client and the generation loop against a scripted chat-completions server on loopback.

The server (tests/chat.py) speaks the OpenAI chat-completions API on 127.0.0.1 and answers from a
script: never a real model. Check matches are small (5 tasks, bid limit 0.5 s, one opponent, one
network); only the timeout test depends on time, with a 3 s sleep against a 0.5 s limit.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from apdp.agents.provenance import read_provenance
from apdp.codegen.client import ChatClient, ChatError
from apdp.codegen.loop import RunSettings, run
from apdp.codegen.prompts import prompt_hash, strategy_prompt
from apdp.errors import UserError
from apdp.testing import CheckConfig
from tests.chat import ChatServer
from tests.replies import GOOD, answer

BETTER = GOOD.replace("+ 500.0", "+ 400.0").replace("class Good", "class Better")

SLOW = '''\
import time

from apdp import Agent


class Slow(Agent):
    """Ignores the bid time limit."""

    def bid(self, task):
        time.sleep(3.0)
        return 1000.0

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''



@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


CHECK = CheckConfig(opponents=("template",), topologies=("france",), tasks=5, timeouts={"bid": 0.5, "plan": 5.0})


def settings(tmp_path: Path, strategy: str = "a1", rounds: int = 2, **kw: Any) -> RunSettings:
    return RunSettings(
        strategy=strategy,
        name=kw.pop("name", "gen-agent"),
        agents_dir=tmp_path / "agents",
        rounds=rounds,
        check=CHECK,
        **kw,
    )


def transcript(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def events(path: Path) -> list[str]:
    return [e["event"] for e in transcript(path)]


# -- the client ------------------------------------------------------------------------------


def test_client_sends_model_messages_and_key(server: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    server.reply("hello", model="served-model")
    reply = ChatClient(server.url, "m1").complete([{"role": "user", "content": "hi"}])
    assert reply.text == "hello" and reply.model == "served-model"
    assert server.requests[0] == {"model": "m1", "messages": [{"role": "user", "content": "hi"}]}
    assert server.headers[0]["Authorization"] == "Bearer sk-test"


def test_client_retries_500_and_429(server: ChatServer) -> None:
    log: list[dict[str, Any]] = []
    server.raw(500, '{"error": {"message": "overloaded"}}')
    server.raw(429, '{"error": "slow down"}')
    server.reply("ok")
    assert server.client(log=log.append).complete([{"role": "user", "content": "x"}]).text == "ok"
    assert [e.get("status") for e in log if e["event"] != "request"] == [500, 429, 200]


def test_client_gives_up_after_retries(server: ChatServer) -> None:
    for _ in range(3):
        server.raw(503, "busy")
    with pytest.raises(ChatError, match=r"kept failing \(HTTP 503\)"):
        server.client().complete([{"role": "user", "content": "x"}])


@pytest.mark.parametrize("status", [401, 403])
def test_client_refused_key_is_one_line(server: ChatServer, status: int) -> None:
    server.raw(status, '{"error": {"message": "Incorrect API key provided"}}')
    with pytest.raises(ChatError) as info:
        server.client().complete([{"role": "user", "content": "x"}])
    message = str(info.value)
    assert "refused the API key" in message and "OPENAI_API_KEY" in message
    assert "\n" not in message and len(server.requests) == 1


@pytest.mark.parametrize(
    ("body", "expected"),
    [("<html>oops</html>", "not JSON"), ('{"choices": []}', "no choices"), ("{}", "no choices")],
)
def test_client_malformed_response(server: ChatServer, body: str, expected: str) -> None:
    server.raw(200, body)
    with pytest.raises(ChatError, match=f"malformed response .*{expected}"):
        server.client().complete([{"role": "user", "content": "x"}])


def test_client_bad_urls(server: ChatServer) -> None:
    with pytest.raises(ChatError, match="bad --base-url"):
        ChatClient("ftp://example.org", "m")
    with pytest.raises(ChatError, match="bad --base-url"):
        ChatClient("localhost:8000", "m")
    with pytest.raises(ChatError, match=r"no chat-completions endpoint .*HTTP 404"):
        ChatClient(server.url + "/wrong", "m", retries=0).complete([{"role": "user", "content": "x"}])
    closed = server.url.rsplit(":", 1)[0] + ":9"  # discard port: nothing listens
    said: list[str] = []
    with pytest.raises(ChatError, match=r"cannot reach .* after 3 attempts"):
        ChatClient(closed, "m", retries=2, backoff=0.0, timeout=2, on_retry=said.append).complete(
            [{"role": "user", "content": "x"}])
    assert len(said) == 2 and all(":9/chat/completions: " in line for line in said), said  # each retry said
    assert "retry 1 of 2 in 0 s" in said[0] and "retry 2 of 2" in said[1] and "refused" in said[0].lower()


# -- the loop --------------------------------------------------------------------------------


def test_a1_working_agent(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(GOOD))
    result = run(settings(tmp_path), server.client())
    assert result.ok and result.rounds == 0
    assert result.agent is not None
    path = result.agent.path
    assert path == tmp_path / "agents" / "gen-agent.py"
    assert path.read_text().endswith(GOOD)
    a1 = strategy_prompt("a1")
    assert server.user_messages(0) == [a1.text]
    prov = read_provenance(path)
    assert prov is not None
    assert prov["model"] == "test-model" and prov["strategy"] == "a1" and prov["round"] == 0
    assert prov["prompt_hash"] == a1.sha256 and prov["check"] == "passed"
    assert result.transcript == tmp_path / "agents" / "gen-agent.transcript.jsonl"
    assert events(result.transcript) == ["start", "request", "response", "ingest", "check", "end"]


def test_timeout_bug_then_fix(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(SLOW))
    server.reply(answer(GOOD))
    result = run(settings(tmp_path), server.client())
    assert result.ok and result.rounds == 1
    feedback = server.user_messages(1)[-1]
    assert "Timeouts" in feedback and "in bid on task 0" in feedback and "0.5 s" in feedback
    # the repair request replays the conversation: prompt, the buggy reply, the report
    assert [m["role"] for m in server.requests[1]["messages"]] == ["user", "assistant", "user"]
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None and prov["round"] == 1
    checks = [e for e in transcript(result.transcript) if e["event"] == "check"]
    assert [c["ok"] for c in checks] == [False, True]
    assert checks[0]["details"]["problems"][0]["category"] == "timeout"


def test_reply_without_code_is_sent_back(server: ChatServer, tmp_path: Path) -> None:
    server.reply("I would use a genetic algorithm for this.")
    server.reply(answer(GOOD))
    result = run(settings(tmp_path), server.client())
    assert result.ok and result.rounds == 1
    assert "no fenced ```python code block" in server.user_messages(1)[-1]
    assert "extract_error" in events(result.transcript)


def test_reply_without_agent_class_and_no_rounds_left(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer("x = 1\n"))
    result = run(settings(tmp_path, rounds=0), server.client())
    assert not result.ok and result.agent is None and result.report is None
    assert not (tmp_path / "agents" / "gen-agent.py").exists()
    assert events(result.transcript)[-2:] == ["extract_error", "end"]


def test_malformed_response_stops_with_one_line(server: ChatServer, tmp_path: Path) -> None:
    server.raw(200, "this is not JSON")
    with pytest.raises(UserError, match="malformed response"):
        run(settings(tmp_path), server.client())
    log = transcript(tmp_path / "agents" / "gen-agent.transcript.jsonl")
    assert log[-1]["event"] == "error" and "malformed" in log[-1]["error"]


def test_http_500_then_success(server: ChatServer, tmp_path: Path) -> None:
    server.raw(500, '{"error": {"message": "internal error"}}')
    server.reply(answer(GOOD))
    result = run(settings(tmp_path), server.client())
    assert result.ok and result.rounds == 0
    kinds = [(e["event"], e.get("status")) for e in transcript(result.transcript)]
    assert ("http_error", 500) in kinds and ("response", 200) in kinds


def test_ir_improves_after_clean_check(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(GOOD))
    server.reply(answer(BETTER))
    result = run(settings(tmp_path, "ir"), server.client())
    assert result.ok and result.rounds == 1
    ask = server.user_messages(1)[-1]
    assert "shall we enter the tournament? We need to win!" in ask and "self-play on france" in ask
    assert "class Better" in (tmp_path / "agents" / "gen-agent.py").read_text()
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None and prov["strategy"] == "ir" and prov["round"] == 1


def test_ir_without_new_code_keeps_the_agent(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(GOOD))
    server.reply("Let's enter the tournament!")
    result = run(settings(tmp_path, "ir"), server.client())
    assert result.ok and "class Good" in (tmp_path / "agents" / "gen-agent.py").read_text()
    assert "no_improvement" in events(result.transcript)


def test_ir_failed_improvement_restores_clean_agent(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(GOOD))
    server.reply(answer(SLOW))
    server.reply(answer(SLOW))
    result = run(settings(tmp_path, "ir", rounds=1), server.client())
    assert result.ok
    text = (tmp_path / "agents" / "gen-agent.py").read_text()
    assert "class Good" in text
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None and prov["round"] == 0 and "improvement failed" in prov["note"]
    assert events(result.transcript)[-2:] == ["restore", "end"]


def test_cr_critic_then_generator(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(GOOD))
    server.reply("1. Bid your marginal cost.\n2. Use both vehicles.")
    server.reply(answer(BETTER))
    critic = server.client(model="critic-model")
    result = run(settings(tmp_path, "cr"), server.client(), critic)
    assert result.ok and result.rounds == 1
    assert [r["model"] for r in server.requests] == ["test-model", "critic-model", "test-model"]
    assert "class Good" in server.user_messages(1)[0]  # the critic sees the agent
    assert "Use both vehicles" in server.user_messages(2)[-1]
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None and prov["critic_model"] == "critic-model" and prov["strategy"] == "cr"
    roles = {e.get("role") for e in transcript(result.transcript)}
    assert {"generator", "critic"} <= roles


def test_gen_optimises_the_prompt_first(server: ChatServer, tmp_path: Path) -> None:
    optimised = "Write the best APDP agent. Follow every rule."
    server.reply(f"Sure:\n```markdown\n{optimised}\n```\n")
    server.reply(answer(GOOD))
    result = run(settings(tmp_path, "gen"), server.client())
    assert result.ok
    assert strategy_prompt("a1").text in server.user_messages(0)[0]
    assert server.user_messages(1) == [optimised + "\n"]
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None and prov["prompt_hash"] == prompt_hash(optimised + "\n")
    assert prov["base_prompt_hash"] == strategy_prompt("a1").sha256


def test_run_refuses_an_existing_agent(server: ChatServer, tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "gen-agent.py").write_text("# mine\n")
    with pytest.raises(UserError, match="already exists"):
        run(settings(tmp_path), server.client())
    assert server.requests == []
    server.reply(answer(GOOD))
    assert run(settings(tmp_path, force=True), server.client()).ok


# -- the command -----------------------------------------------------------------------------


def apdp(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    from apdp.cli import main

    monkeypatch.setattr(sys, "argv", ["apdp", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return int(info.value.code or 0)


CHECK_ARGS = ["--tasks", "5", "--bid-timeout", "0.5", "--opponent", "template", "--topology", "france"]


def test_cli_run(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.reply(answer(SLOW))
    server.reply(answer(GOOD))
    agents = tmp_path / "agents"
    base = ["codegen", "run", "--model", "m", "--base-url", server.url, "--agents-dir", str(agents)]
    code = apdp([*base, "--name", "cli-agent", "--backoff", "0", *CHECK_ARGS], monkeypatch)
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "clean, round 1 kept; 2 round(s) played" in out.out and "round 0: check failed" in out.err
    assert (agents / "cli-agent.transcript.jsonl").is_file()

    server.reply("no code, sorry")
    code = apdp([*base, "--name", "other", "--rounds", "0", *CHECK_ARGS], monkeypatch)
    assert code == 1

    server.reply(answer(SLOW))  # still faulty after its repairs: kept, but out of play
    code = apdp([*base, "--name", "faulty", "--rounds", "0", "--backoff", "0", *CHECK_ARGS], monkeypatch)
    out = capsys.readouterr()
    rejected = agents / "rejected"
    assert code == 1 and f"moved out of play to {rejected / 'faulty.py'}" in out.out, out.out
    assert not (agents / "faulty.py").exists() and not (agents / "faulty.json").exists()
    assert {p.name for p in rejected.iterdir()} >= {"faulty.py", "faulty.json", "faulty.transcript.jsonl"}
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    from apdp.agents.discovery import available_agents
    from apdp.agents.provenance import read_provenance

    names = {a.name for a in available_agents()}
    assert "cli-agent" in names and "faulty" not in names  # no tournament plays it
    assert (read_provenance(rejected / "faulty.py") or {}).get("model") == "m"  # still the model's code

    server.raw(200, "{not json")
    code = apdp([*base, "--name", "third", *CHECK_ARGS], monkeypatch)
    err = capsys.readouterr().err
    assert code == 2 and err.strip().splitlines()[-1].startswith("error: ")
    assert "malformed response" in err


def test_cli_run_bad_usage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = ["codegen", "run", "--model", "m", "--agents-dir", str(tmp_path)]
    assert apdp([*base, "--base-url", "nope"], monkeypatch) == 2
    assert apdp([*base, "--base-url", "http://127.0.0.1:9", "--strategy", "zz"], monkeypatch) == 2


# -- model usage -----------------------------------------------------------------------------


def tokens(prompt: int, completion: int) -> dict[str, int]:
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def test_provenance_keeps_each_calls_tokens_and_time(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(SLOW), usage=tokens(1200, 300))
    server.reply(answer(GOOD), model="served-model", usage=tokens(1700, 280))
    result = run(settings(tmp_path), server.client())
    assert result.ok
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None
    calls = prov["model_calls"]
    assert [(c["role"], c["model"], c["prompt_tokens"], c["completion_tokens"], c["total_tokens"]) for c in calls] == [
        ("generator", "scripted", 1200, 300, 1500), ("generator", "served-model", 1700, 280, 1980)]
    assert all(0 <= c["seconds"] < 30 for c in calls)
    usage = prov["usage"]
    assert (usage["calls"], usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"]) == (
        2, 2900, 580, 3480)
    assert usage["seconds"] == pytest.approx(sum(c["seconds"] for c in calls), abs=0.01)


def test_usage_counts_failed_improvements_and_missing_usage(server: ChatServer, tmp_path: Path) -> None:
    server.reply(answer(GOOD), usage=tokens(1000, 200))
    server.reply("1. Bid lower.", usage=tokens(500, 50))  # the critic
    server.reply(answer(SLOW))  # a server that reports no usage for this call
    result = run(settings(tmp_path, "cr", rounds=0), server.client(), server.client(model="critic-model"))
    assert result.ok
    prov = read_provenance(tmp_path / "agents" / "gen-agent.py")
    assert prov is not None and prov["round"] == 0  # the improvement failed: round 0 kept
    assert [c["role"] for c in prov["model_calls"]] == ["generator", "critic", "generator"]
    assert prov["model_calls"][2]["total_tokens"] is None
    assert prov["usage"]["calls"] == 3 and prov["usage"]["total_tokens"] == 1750


def test_report_by_model_shows_tokens_per_agent(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.report import report
    from apdp.tournament.run import run_tournament

    server.reply(answer(GOOD), usage=tokens(1000, 500))
    assert run(settings(tmp_path, name="gen-good"), server.client()).ok
    monkeypatch.setenv("APDP_AGENTS", str(tmp_path / "agents"))
    config = make_config(topology="france", agents=["gen-good", "template"], seed=1, overrides={"tasks": 4})
    assert run_tournament(config, tmp_path / "out", jobs=1, progress=False).played == 2
    data = json.loads(report([tmp_path / "out"], "json", group_by="model"))
    usage = {u["agent"]: u for u in data["usage"]}
    assert usage["gen-good"]["total_tokens"] == 1500 and usage["gen-good"]["calls"] == 1
    assert usage["gen-good"]["model"] == "test-model"
    wins = usage["gen-good"]["wins"]
    assert usage["gen-good"]["tokens_per_win"] == (1500 / wins if wins else None)
    assert usage["template"]["total_tokens"] is None
    table = report([tmp_path / "out"], "table", group_by="model")
    assert "Model usage per agent" in table
    line = next(row for row in table.splitlines() if row.startswith("gen-good"))
    assert "1500" in line and "test-model" in line
    # from another folder, with the agent's file gone: the usage stored with the results (it was empty)
    monkeypatch.delenv("APDP_AGENTS")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    shutil.rmtree(tmp_path / "agents")
    again = {u["agent"]: u for u in json.loads(report([tmp_path / "out"], "json", group_by="model"))["usage"]}
    assert again["gen-good"] == usage["gen-good"] and again["template"]["total_tokens"] is None
