"""A study: generate agents with several models, strategies and samples, play them against the
humans' and baselines' agents, and report who wins and what the working code cost
(``apdp study run STUDY.toml``; :mod:`apdp.study.run`)."""
