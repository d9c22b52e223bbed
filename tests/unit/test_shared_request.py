"""An auction's request is pickled once for every seat of its match (apdp.referee.seat.SharedRequest),
and never reused for other calls."""

from __future__ import annotations

import pickle
import struct
from pathlib import Path

import pytest

from apdp.agents.discovery import AgentSource
from apdp.game.task import Task
from apdp.messages.calls import AuctionResultCall, BidCall, TwoCalls
from apdp.referee import seat as seat_module
from apdp.referee.seat import SharedRequest, Terms, seats_of
from apdp.sandbox.process import encode_request
from apdp.scenario import Limits, Timeouts


def _task(k: int) -> Task:
    return Task(k, "A", "B", 3.0)


def _decoded(payload: bytes) -> object:
    (length,) = struct.unpack("!i", payload[:4])
    return pickle.loads(payload[4 : 4 + length])


@pytest.fixture
def pickled(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every request the seats pickle."""
    done: list[object] = []

    def counting(request: object) -> bytes:
        done.append(request)
        return encode_request(request)  # type: ignore[arg-type]

    monkeypatch.setattr(seat_module, "encode_request", counting)
    return done


def test_the_seats_of_an_auction_send_the_same_bytes_pickled_once(pickled: list[object]) -> None:
    shared = SharedRequest()
    told = AuctionResultCall(_task(0), 1, (10.0, 12.0), 2.0)
    call = BidCall(_task(1), 2.0)
    first = shared.encoded(told, call)
    assert shared.encoded(told, call) is first
    assert len(pickled) == 1
    assert _decoded(first) == TwoCalls(told, call)
    alone = BidCall(_task(2), 2.0)
    assert _decoded(shared.encoded(None, alone)) == alone


def test_equal_calls_of_another_auction_are_pickled_anew(pickled: list[object]) -> None:
    shared = SharedRequest()
    told = AuctionResultCall(_task(0), 1, (10.0, 12.0), 2.0)
    shared.encoded(told, BidCall(_task(1), 2.0))
    again = BidCall(_task(1), 2.0)  # equal, but another call: never taken for the one kept
    assert _decoded(shared.encoded(told, again)) == TwoCalls(told, again)
    assert shared.encoded(AuctionResultCall(_task(0), 0, (9.0, 12.0), 2.0), again) != shared.encoded(told, again)
    assert len(pickled) == 4


def test_the_seats_of_a_match_share_their_requests_and_no_other_match_does() -> None:
    sources = [AgentSource("a", Path("a.py")), AgentSource("b", Path("b.py"))]
    terms = Terms(Timeouts(), "apdp", False)
    one = seats_of(sources, Limits(), 64, terms)
    other = seats_of(sources, Limits(), 64, terms)
    assert one[0].requests is one[1].requests
    assert other[0].requests is not one[0].requests
