"""The course's other exercises: the reactive, deliberative and centralized worlds of the Logist
platform, as it runs them (``shared/reference/logist-exercises.md``), with no agent processes.

* :mod:`~apdp.exercises.configuration`: a course configuration (``<tasks>`` with ``<no-task>``,
  companies, settings) and the platform's random stream (:class:`~apdp.exercises.distribution.TaskStream`);
* :mod:`~apdp.exercises.topology`: distances in units, Floyd–Warshall paths, ``City.neighbors()`` order;
* :mod:`~apdp.exercises.clock`: the event clock (steps of 10^9 ns, speeds, pickup and delivery waits);
* :mod:`~apdp.exercises.round`: one round of any mix of agents, its history and statistics;
  :mod:`~apdp.exercises.reactive`, :mod:`~apdp.exercises.deliberative`, :mod:`~apdp.exercises.centralized`:
  each kind of agent's seat, driven by a controller callback (the agent side);
* references for scoring: :mod:`~apdp.exercises.reactive_mdp` (value iteration),
  :mod:`~apdp.exercises.optimal_plan` (exact search) and :mod:`~apdp.exercises.naive_plan` (the
  course templates' plan); :mod:`~apdp.exercises.scores`: each exercise's score against them.
"""
