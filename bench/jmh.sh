#!/usr/bin/env bash
# bench/jmh.sh [JMH ARGS...]: builds the JMH benchmarks (bench/, with the modules it uses) and runs
# them: codec (CodecBenchmark), network layer (DispatcherBenchmark), the whole request path of an
# embedded broker (BrokerRoundTripBenchmark), the log (AppendBenchmark, ReadBenchmark, ...).
# With no arguments everything runs; otherwise the arguments go to JMH, e.g.
#   bench/jmh.sh Codec -wi 1 -i 3 -r 2s      bench/jmh.sh -l (list)
# See BENCHMARKS.md and bench/README.md. SPOOL_BENCH_OFFLINE=1 builds with mvn -o.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
mvn -B -q ${SPOOL_BENCH_OFFLINE:+-o} -pl bench -am package -DskipTests >&2
exec java -jar bench/target/benchmarks.jar "$@"
