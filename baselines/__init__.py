"""The study's five baseline agents (one module each) and the planning library they share.

Agents: ``naive``, ``exp-cost-fixed-bid``, ``honest``, ``model-opponent``, ``risk-seeking``.
The planner lives in :mod:`baselines.planning`; students may import it in their own agents.
"""
