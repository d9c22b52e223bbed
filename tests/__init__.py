"""apdp's tests, one folder per layer (its name is the tests' pytest marker, see conftest.py), the
data they play with in ``data/``, and what several of them share: ``paths``, ``matches``,
``command`` and ``chat``."""
