"""The options of a Java agent's JVM (apart from its class data archive's, which names its folder:
:func:`apdp.agents.java.archive.archive_option`)."""

from __future__ import annotations

#: The JIT's thresholds for short runs: a method is compiled after 1000 calls, not 200, and
#: optimised (C2) after 50000, not 5000, so that a match's few hundred requests cost no compiling
#: of code that runs a few times only; loops keep the JVM's thresholds (a long loop is compiled as
#: soon as by default), and a method that keeps running is compiled a few milliseconds later.
JIT_OPTIONS = (
    "-XX:Tier3InvocationThreshold=1000", "-XX:Tier3MinInvocationThreshold=500", "-XX:Tier3CompileThreshold=10000",
    "-XX:Tier4InvocationThreshold=50000", "-XX:Tier4MinInvocationThreshold=6000",
    "-XX:Tier4CompileThreshold=150000",
)
#: The JVM's options: the JDK's own collector (G1: the JDK's archive holds its module graph for G1
#: only, which spares each start some 15 ms) with one collector thread, no shared-memory statistics
#: file, the JVM's own messages and logs on standard error (standard output carries the protocol)
#: but those of its class data archive (none, or one it cannot use, is passed over in silence), the
#: JIT's thresholds for short runs, no display.
OPTIONS = (
    "-XX:+UseG1GC", "-XX:ParallelGCThreads=1", "-XX:ConcGCThreads=1", "-XX:-UsePerfData",
    "-XX:+DisplayVMOutputToStderr", "-Xlog:disable",
    "-Xlog:all=warning:stderr", "-Xlog:cds*=off:stderr", *JIT_OPTIONS, "-Xshare:auto", "-Djava.awt.headless=true",
)
