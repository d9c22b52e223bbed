"""Why an agent wins: its bidding apart from its planning (``apdp analyze``).

Every finished match of a results store is looked at again with apdp's reference planner, the
shared planning library (:mod:`apdp.baselines.planning`) under a fixed work budget, so that the
figures depend on the store alone, never on the machine or its load:

* **reference plan** of an agent in a match: the tasks it won, on its company's vehicles, planned
  by two searches of :data:`~apdp.analysis.figures.REFERENCE_ITERATIONS` LNS iterations each (seeded
  from the match's seed), one from the planner's cheapest-insertion start and one from the agent's
  own plan (its stops in its order, driven along shortest paths); the cheaper plan is the reference,
  so it never costs more than the agent's own stops. Its cost is the referee's
  (:func:`apdp.game.plan.company_cost`).
* **planning gap** = the agent's plan cost / the reference plan cost - 1 (0.12: its plans cost 12%
  more than needed). Matches where it won nothing have no gap.
* **reference marginal cost** of a task for an agent: the cost of cheapest insertion of the task
  (pickup and delivery, capacity respected; :func:`apdp.baselines.planning.cheapest_insertion`)
  into the reference fleet, which holds the tasks the agent had won before that auction, each
  inserted at its cheapest place in auction order. Cheapest insertion (an exact sweep over every
  pickup and delivery position), not LNS: it takes no search, so all the auctions of a tournament are
  priced in a moment. It is not the baselines' greedy insertion (:mod:`apdp.baselines.greedy`: the
  pickup first, then the delivery after it), which can price a task otherwise.
* **markup** = bid / the agent's own reference marginal cost - 1, for every auction it bid in (an
  abstention has none). Auctions where that marginal cost is 0 (under
  :data:`~apdp.analysis.figures.ZERO_COST`: the task lies on the fleet's way) or where no vehicle
  of its company can carry the task have no markup; they are counted (``zero_cost``).
* **money left on the table**: in each auction it won, the next-lowest bid minus its own (what it
  could have asked and still won); auctions nobody else bid in have none. Per match, their sum.
* **counterfactual**: the agent's revenue minus its reference plan cost, against the best actual
  profit of its opponents. A match it lost that it would have won, or drawn, with the reference
  plans (the same bids) is **lost on planning**.

Matches with a fault (of either agent) or a referee error are left out of every figure and
counted (``faulted``, ``referee_errors``); so are records that do not read as a match (``unreadable``).
:mod:`apdp.analysis.figures` computes a match's figures, :mod:`apdp.analysis.summary` an agent's,
:mod:`apdp.analysis.run` reads stores and runs on many cores.
"""
