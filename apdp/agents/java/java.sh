#!/bin/sh
# apdp: start a JDK tool (java or javac) within this process's memory limit.
# The sandbox caps each agent process's data (RLIMIT_DATA: `ulimit -d`, in KiB). A JVM reserves its
# heap up front and dies when the heap grows past that cap, so the heap gets the cap less 256 MiB
# (at least half of it) and the JVM's own memory (code, class data, thread stacks) the rest; an
# agent that fills its heap gets an OutOfMemoryError, reported as its fault.
# Usage: sh java.sh TOOL ARGS...
tool=$1
shift
limit=$(ulimit -d 2>/dev/null)
case $limit in
  ''|unlimited|*[!0-9]*) exec "$tool" "$@" ;;
esac
mb=$((limit / 1024))
heap=$((mb - 256))
if [ "$heap" -lt $((mb / 2)) ]; then heap=$((mb / 2)); fi
if [ "$heap" -lt 32 ]; then heap=32; fi
case $tool in
  *javac) exec "$tool" "-J-Xmx${heap}m" "$@" ;;
  *) exec "$tool" "-Xmx${heap}m" "$@" ;;
esac
