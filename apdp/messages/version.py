"""The protocol an agent program speaks, as its setup call names it (the auction's and the exercises')."""

from __future__ import annotations

PROTOCOL = "apdp-agent/1"
