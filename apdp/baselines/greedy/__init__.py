"""The study's baselines' machinery: schedules priced and filled by greedy insertion.

``Schedule`` (one vehicle's stops, greedy insertion, marginal cost), ``GreedyFleet`` (a company's
schedules: the fleet's marginal cost and where a won task goes), ``prior_cost`` and
``uniform_tasks`` (the synthetic-task prior), ``GreedyAgent`` (the base of honest, model-opponent,
risk-seeking and exp-cost-fixed-bid). The rules, to the letter, are in each module's docstring.
"""

from apdp.baselines.greedy.agent import GreedyAgent
from apdp.baselines.greedy.fleet import GreedyFleet
from apdp.baselines.greedy.prior import prior_cost, uniform_tasks
from apdp.baselines.greedy.schedule import Schedule

__all__ = ["GreedyAgent", "GreedyFleet", "Schedule", "prior_cost", "uniform_tasks"]
