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
#: The JVM's start for short runs: the class data archives mapped where they were made (HotSpot
#: maps them elsewhere by default, ASLR for the JVM's own metadata, and then rewrites every pointer
#: in them: 2000 page faults and some 8 ms of each start; within the sandbox, an agent's JVM is
#: the agent's own process, nothing an address layout protects), and a first heap of 32 MiB (the
#: JVM's default, 1/64 of the machine's memory, costs its start the page faults of the collector's
#: tables for it; the heap grows as the agent allocates, up to java.sh's bound, which is at least
#: 32 MiB).
START_OPTIONS = ("-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0", "-Xms32m")
#: The JVM's options: the JDK's own collector (G1: the JDK's archive holds its module graph for G1
#: only, which spares each start some 15 ms) with one collector thread, no shared-memory statistics
#: file, the JVM's own messages and logs on standard error (standard output carries the protocol)
#: but those of its class data archive (none, or one it cannot use, is passed over in silence), the
#: start's options and the JIT's thresholds for short runs, no display.
OPTIONS = (
    "-XX:+UseG1GC", "-XX:ParallelGCThreads=1", "-XX:ConcGCThreads=1", "-XX:-UsePerfData",
    "-XX:+DisplayVMOutputToStderr", "-Xlog:disable",
    "-Xlog:all=warning:stderr", "-Xlog:cds*=off:stderr", *START_OPTIONS, *JIT_OPTIONS, "-Xshare:auto",
    "-Djava.awt.headless=true",
)
