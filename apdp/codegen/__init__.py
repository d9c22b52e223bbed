"""The LLM code-generation harness: prompts, extraction, ingest, a chat client and the repair loop.

``apdp codegen`` (see :mod:`apdp.cli.codegen`) drives it; the check gate it applies is
:mod:`apdp.testing`, the same one students use on their own agents.
"""
