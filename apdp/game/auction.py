"""The auction: reverse first-price sealed bid, lowest bid wins and is paid its own bid."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

#: The largest bid (a thousand billion): revenues and profits stay finite and exact enough for every
#: reader, whatever an agent bids. Above it is a ``bad_bid``.
MAX_BID = 1e12
#: How messages write it.
MAX_BID_TEXT = "1e12"
#: The Logist platform's bids are any Java ``long``: from -2**63 to 2**63 (as the nearest floats).
LOGIST_BID_LIMIT = float(2**63)
#: Java's ``Long.MAX_VALUE``: the course's "not interested" bid. Under apdp's rule it is no fault: it
#: stays in the record as the integer it is and loses its auction whatever the others bid (it
#: never wins, so no revenue ever counts it). Under the platform's rule it is a bid like any other.
LONG_MAX = 2**63 - 1

#: Which bids are valid: apdp's own rule (a price from 0 to :data:`MAX_BID`; a negative bid is nearly
#: always a bug, and the fault says so) or, in a match of a Logist configuration, the platform's
#: (any number within a Java long's range, negative included: it pays to take the task).
BidRule = Literal["apdp", "logist"]


def check_bid(value: object, rule: BidRule = "apdp") -> str | None:
    """Why ``value`` is not a valid bid under ``rule``, or None if it is (None abstains): apdp's
    rule takes a number from 0 to :data:`MAX_BID`, or the integer :data:`LONG_MAX` (which loses),
    the Logist platform's any Java long (an integer from -2**63 to 2**63 - 1, or a number within
    :data:`LOGIST_BID_LIMIT` in size, which the referee rounds to one: :func:`as_long`)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"a bid must be a number or None (abstain), got {type(value).__name__} {value!r:.60}"
    if rule == "logist":
        if isinstance(value, int) and not -(2**63) <= value <= LONG_MAX:  # before a float overflows
            return f"a bid must be a Java long, got an integer of {len(str(abs(value)))} digits"
        if not math.isfinite(value):
            return f"a bid must be finite, got {value!r}"
        if abs(value) > LOGIST_BID_LIMIT:
            return f"a bid must be a Java long (at most 2**63 in size), got {value:.6g}"
        return None
    if isinstance(value, int) and value == LONG_MAX:
        return None
    if isinstance(value, int) and not -MAX_BID <= value <= MAX_BID:  # before a float overflows
        return f"a bid must be at most {MAX_BID_TEXT}, got an integer of {len(str(abs(value)))} digits"
    if not math.isfinite(value):
        return f"a bid must be finite, got {value!r}"
    if value < 0:
        return f"a bid must be >= 0, got {value!r}"
    if value > MAX_BID:
        return f"a bid must be at most {MAX_BID_TEXT}, got {value:.6g}"
    return None


def _in_the_running(bid: float | None, rule: BidRule) -> bool:
    """Whether ``bid`` may win under ``rule``: any bid but an abstention, and under apdp's rule
    not :data:`LONG_MAX` (the integer: "not interested")."""
    if bid is None:
        return False
    return rule == "logist" or not (isinstance(bid, int) and bid == LONG_MAX)


def lowest_bidders(bids: Sequence[float | None], rule: BidRule = "apdp") -> list[int]:
    """The agents whose bid is the lowest (several on a tie, none if everybody abstained)."""
    offered = [b for b in bids if b is not None and _in_the_running(b, rule)]
    if not offered:
        return []
    low = min(offered)
    return [i for i, b in enumerate(bids) if _in_the_running(b, rule) and b == low]


def auction_winner(bids: Sequence[float | None], tie_breaker: np.random.Generator | None,
                   rule: BidRule = "apdp") -> int | None:
    """The winner of one auction under the bid ``rule``: the lowest bid; a tie is broken by
    ``tie_breaker``, or, when it is None, goes to the agent listed first (the Logist platform's rule).

    The generator is drawn from only when there is a tie, so that the draws depend on the bids alone.
    """
    low = lowest_bidders(bids, rule)
    if not low:
        return None
    if len(low) == 1 or tie_breaker is None:
        return low[0]
    return low[int(tie_breaker.integers(len(low)))]


def as_long(bid: float | None) -> int | None:
    """A bid as the Logist platform's rule keeps it: a Java ``long``, a float rounded to the nearest
    whole number (halves up, as Java's ``Math.round``) and held within the long's range."""
    if bid is None or isinstance(bid, int):
        return bid
    return max(-(2**63), min(LONG_MAX, math.floor(bid + 0.5)))
