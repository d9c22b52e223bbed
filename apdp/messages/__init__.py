"""What crosses between the referee and an agent: one frozen type per call and per reply.

:mod:`apdp.messages.calls` holds the calls the referee makes (``setup``, ``bid``,
``auction_result``, ``plan``); :mod:`apdp.messages.replies` the agent's answers; :mod:`apdp.messages.strict`
the strict JSON reading both rest on. Each type has one encoding (``to_json``) and one decoder, and the
same types serve every route a call takes: the referee's pipe to the Python worker, the
``apdp-agent/1`` protocol to an agent program, and that protocol's reference host.
"""
