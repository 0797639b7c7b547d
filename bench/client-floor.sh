#!/usr/bin/env bash
# bench/client-floor.sh [LOG_DIR]: workloads of bench/side-by-side.sh run against NullBroker, which
# answers every request at once: c and c0 (ProducerPerformance, 200,000 x 100 B at 20,000/s,
# acks=all; c0 with linger.ms=0; every Produce acknowledged and dropped) and d (ConsumerPerformance
# reading back topic "bench" of LOG_DIR, a log directory a broker wrote; by default Spool's of the
# newest side-by-side run). Its figures are what the clients and the loopback cost on this machine:
# the floor under any broker's figures, Spool's and Kafka's alike. See BENCHMARKS.md, "The clients'
# floor". Needs the Kafka jars bench/side-by-side.sh fetches.
#
# Env: SPOOL_BENCH_CACHE (default /tmp/spool-bench), TRIALS (3), SPOOL_BENCH_OFFLINE=1 (mvn -o).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=compare/lib.sh
. "$HERE/compare/lib.sh"
CACHE="${SPOOL_BENCH_CACHE:-/tmp/spool-bench}"
LIBS="$CACHE/kafka-4.4.0/libs"
TRIALS="${TRIALS:-3}"
OUT="$CACHE/results/floor-$(date -u +%Y%m%dT%H%M%SZ)"
LOG_DIR="${1:-$( (ls -d "$CACHE"/results/2*/spool/data 2>/dev/null || true) | sort | tail -n 1)}"
[ -d "$LOG_DIR/bench-0" ] \
  || { echo "no topic bench in '$LOG_DIR': give a log directory a side-by-side run wrote" >&2; exit 1; }
[ -f "$LIBS/kafka-tools-4.4.0.jar" ] \
  || { echo "no Kafka jars in $LIBS: run bench/side-by-side.sh --short once" >&2; exit 1; }
mkdir -p "$OUT"

(cd "$ROOT" && mvn -B -q ${SPOOL_BENCH_OFFLINE:+-o} -pl bench -am package -DskipTests) >"$OUT/build.log" 2>&1 \
  || { echo "build failed (see $OUT/build.log)" >&2; exit 1; }
java -cp "$ROOT/bench/target/benchmarks.jar" dev.spool.bench.NullBroker 0 "$LOG_DIR" >"$OUT/null-broker.out" 2>&1 &
BROKER_PID=$!
trap 'kill "$BROKER_PID" 2>/dev/null; wait "$BROKER_PID" 2>/dev/null || true' EXIT
# up to a minute: NullBroker first walks every batch header of LOG_DIR
for _ in $(seq 1 600); do grep -q '^listening on' "$OUT/null-broker.out" && break; sleep 0.1; done
PORT="$(awk '/^listening on/ {print $3}' "$OUT/null-broker.out")"
[ -n "$PORT" ] || { echo "NullBroker did not start (see $OUT/null-broker.out)" >&2; exit 1; }
RECORDS_D="$(awk '$1 == "topic" && $2 == "bench:" {print $3}' "$OUT/null-broker.out")"

run() { # run KEY TRIAL [PROPERTY=VALUE...]: c or c0
  local log="$OUT/$1-$2.log"
  sleep 5 # as the harness: each run starts on a settled machine
  tool org.apache.kafka.tools.ProducerPerformance --bootstrap-server "127.0.0.1:$PORT" --topic latency \
    --num-records 200000 --record-size 100 --warmup-records 20000 --throughput 20000 --print-metrics \
    --command-property acks=all "client.id=floor-$1" "${@:3}" >"$log" 2>&1 || echo "$1 trial $2 failed (see $log)" >&2
  parse_producer "$1" "$log" >"$OUT/$1-$2.tsv" || true
  parse_client_metrics "$1" "$log" >>"$OUT/$1-$2.tsv"
}
consume() { # consume TRIAL: d, as the harness runs it (the segments read into the page cache first)
  local log="$OUT/d-$1.log"
  cat "$LOG_DIR"/bench-*/*.log >/dev/null
  sleep 5
  tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "127.0.0.1:$PORT" --topic bench \
    --num-records "$RECORDS_D" --group "floor-d-$1" --timeout 30000 --print-metrics \
    --command-property "client.id=floor-d-$1" >"$log" 2>&1 || echo "d trial $1 failed (see $log)" >&2
  parse_consumer d "$log" >"$OUT/d-$1.tsv" || true
  parse_client_metrics d "$log" >>"$OUT/d-$1.tsv"
}
for t in $(seq 1 "$TRIALS"); do
  run c "$t"
  run c0 "$t" linger.ms=0
  consume "$t"
done

for key in c c0 d; do
  files=()
  for t in $(seq 1 "$TRIALS"); do files+=("$OUT/$key-$t.tsv"); done
  fold_trials "${files[@]}" >"$OUT/$key.tsv"
done
echo "NullBroker (answers at once, stores nothing), $(date -u +%FT%TZ), $(nproc) cores: median, then the trials"
for key in c_p50_ms c_p99_ms c_p999_ms c_steady_p99_ms c_queue_ms c_request_ms c_metadata_wait_ms \
           c0_p50_ms c0_p99_ms c0_p999_ms c0_steady_p99_ms c0_request_ms \
           d_mbs d_fetch_mbs d_rebalance_ms d_fetch_latency_ms d_io_wait_ratio; do
  file="$OUT/${key%%_*}.tsv"
  printf '%-20s %8s   %s\n' "$key" "$(kv "$file" "$key")" "$(kv "$file" "${key}_trials")"
done
echo "(d read $LOG_DIR; raw logs in $OUT)"
