"""The study's five baseline agents (one module each), stronger LNS versions, and their libraries.

The study's: ``naive``, ``exp-cost-fixed-bid``, ``honest``, ``model-opponent``, ``risk-seeking``;
all but naive price tasks by greedy insertion into their schedules (:mod:`apdp.baselines.greedy`).
Stronger opponents built on the planning library (:mod:`apdp.baselines.planning`, LNS):
``exp-cost-fixed-bid-lns``, ``honest-lns``, ``model-opponent-lns``, ``risk-seeking-lns``.
Students may import either library in their own agents.
"""
