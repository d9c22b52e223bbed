"""Java agents written for EPFL's Logist platform, played unchanged in apdp.

``src/`` holds apdp's Java host: a clean-room implementation of the Logist platform's whole public
API (packages ``logist.*``, exactly the members of its 2018 jar; tests/data/java/logist-api.txt) and
``apdp.host.Main``, which runs one Logist agent class (an auction agent, or an agent of the reactive,
deliberative or centralized exercise: ``apdp.host.Behavior``) in its own JVM and speaks apdp-agent/1
(``docs/protocol.md``); :mod:`apdp.agents.java.libraries` puts the platform's libraries (Debian's)
on its class path. :mod:`apdp.agents.java.jdk` finds a JDK, :mod:`apdp.agents.java.host`
compiles the host once per version of its sources, :mod:`apdp.agents.java.install` installs a Logist agent
as an agent folder (``apdp logist add`` / ``apdp logist import``).
"""
