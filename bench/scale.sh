#!/usr/bin/env bash
# bench/scale.sh [PARTITIONS...]: Apache Kafka 4.4.0 (one KRaft node, broker and controller) and Spool
# on this machine with many partitions: by default 1000 and 10000 (add 50000 to try that too). For each
# count and broker, one after the other on a fresh data directory:
#   create PARTITIONS as PARTITIONS/PER_TOPIC topics of PER_TOPIC partitions, stop the broker (SIGTERM);
#   clean start-up: launch until a Metadata request is answered (StartupProbe), idle RSS after
#     IDLE_SETTLE_S, Metadata for all topics (median of 5, ScaleProbe);
#   load: acks=1 records of RECORD_SIZE bytes at LOAD_RATE/s round robin over every partition (more
#     than either broker takes here: it is busy when killed); once every partition has acknowledged one,
#     LOAD_S more seconds, then SIGKILL the broker under the load;
#   restart after SIGKILL: launch until served, peak RSS (VmHWM) until then;
#   CreateTopics of 1000 partitions (100 topics x 10, one request), then stop (SIGTERM).
# Prints one table, Spool/Kafka, against issue 16's targets. About 3 min for 1000 partitions and 7 for
# 10000 on 2 cores.
#
# Env: SPOOL_BENCH_CACHE (/tmp/spool-bench: Kafka jars, probes, results), BENCH_OUT (this run's
#      results and data; default CACHE/results/scale-<utc time>; data directories deleted after each
#      broker's run unless KEEP_DATA=1), PER_TOPIC (10), LOAD_RATE (10000), LOAD_S (20), RECORD_SIZE (100),
#      IDLE_SETTLE_S (10), START_TIMEOUT_S (600), KAFKA_PORT (19392), KAFKA_CONTROLLER_PORT (19393),
#      SPOOL_PORT (19492), RAISE_MAP_COUNT=1 (as root: raise vm.max_map_count for the run when Kafka's
#      two mapped indexes per partition need more, said in the output, restored at the end),
#      BROKERS ("spool kafka": those to run, in that order), SPOOL_BENCH_OFFLINE=1 (mvn -o).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=compare/lib.sh
. "$HERE/compare/lib.sh"

COUNTS=("$@"); [ $# -gt 0 ] || COUNTS=(1000 10000)
PER_TOPIC="${PER_TOPIC:-10}"
for n in "${COUNTS[@]}"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] && [ $((n % PER_TOPIC)) = 0 ] \
    || { echo "usage: bench/scale.sh [PARTITIONS...], each a multiple of PER_TOPIC ($PER_TOPIC)" >&2; exit 2; }
done
CACHE="${SPOOL_BENCH_CACHE:-/tmp/spool-bench}"
LIBS="$CACHE/kafka-4.4.0/libs"
PROBE="$CACHE/probe"
OUT="${BENCH_OUT:-$CACHE/results/scale-$(date -u +%Y%m%dT%H%M%SZ)}"
LOAD_RATE="${LOAD_RATE:-10000}"; LOAD_S="${LOAD_S:-20}"; RECORD_SIZE="${RECORD_SIZE:-100}"
IDLE_SETTLE_S="${IDLE_SETTLE_S:-10}"; START_TIMEOUT_S="${START_TIMEOUT_S:-600}"
KAFKA_PORT="${KAFKA_PORT:-19392}"; KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19393}"
SPOOL_PORT="${SPOOL_PORT:-19492}"
mkdir -p "$OUT"
: >"$OUT/kafka.tsv"; : >"$OUT/spool.tsv"
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/run.log" >&2; }
die() { log "FAILED: $*"; exit 1; }

fetch_kafka "$CACHE" "$LIBS" "$OUT/fetch.log" || die "could not fetch Kafka 4.4.0 (see $OUT/fetch.log)"
build_probes "$LIBS" "$PROBE" || die "javac of the probes"
SPOOL_HOME="$CACHE/spool-home"
snapshot_spool "$ROOT" "$SPOOL_HOME" >"$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
ports_free "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$SPOOL_PORT" || die "a port is in use"

# Limits for the largest count: a file per partition stays open (Kafka's and Spool's logs), and Kafka
# maps two indexes per partition it recovers (vm.max_map_count counts every mapping of the process).
MAX=$(printf '%s\n' "${COUNTS[@]}" | sort -n | tail -n 1)
FILES=$((2 * MAX + 10000)); MAPS=$((2 * MAX + 10000)); MAP_COUNT="$(cat /proc/sys/vm/max_map_count)"
[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge "$FILES" ] || ulimit -Hn "$FILES" 2>/dev/null || true
ulimit -n "$(ulimit -Hn)"
log "results in $OUT; partitions: ${COUNTS[*]} ($PER_TOPIC a topic); open files limit $(ulimit -n)"
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge "$FILES" ] \
  || log "WARNING: open files limit $(ulimit -n) < $FILES: a broker may fail at $MAX partitions"
if [ "$MAP_COUNT" -lt "$MAPS" ]; then
  if [ "${RAISE_MAP_COUNT:-0}" = 1 ]; then
    sysctl -q -w vm.max_map_count="$MAPS" || die "could not raise vm.max_map_count"
    log "RAISED vm.max_map_count from $MAP_COUNT to $MAPS for this run (restored at its end)"
  else
    log "WARNING: vm.max_map_count $MAP_COUNT < $MAPS: Kafka may fail at $MAX partitions (RAISE_MAP_COUNT=1 raises it)"
    MAP_COUNT=""
  fi
else MAP_COUNT=""; fi

BROKER_PID=""; LOAD_PID=""
cleanup() {
  [ -z "$LOAD_PID" ] || kill "$LOAD_PID" 2>/dev/null || true
  stop_pid "$BROKER_PID" || true
  [ -z "$MAP_COUNT" ] || { sysctl -q -w vm.max_map_count="$MAP_COUNT" && log "vm.max_map_count back to $MAP_COUNT"; }
}
trap cleanup EXIT

port_of() { if [ "$1" = kafka ]; then echo "$KAFKA_PORT"; else echo "$SPOOL_PORT"; fi; }
probe() { tool ScaleProbe "$@"; }
mb() { awk -v k="$1" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.1f", k / 1024; else print "NA" }'; }

# start NAME DIR [KEY]: NAME's broker on DIR/data until it serves; KEY, if given, gets the seconds.
start() {
  local cmd=(spool_server "$SPOOL_HOME" "$SPOOL_PORT" "$2/data")
  if [ "$1" = kafka ]; then
    kafka_prepare "$2" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" || { log "kafka storage format failed (see $2)"; return 1; }
    cmd=(kafka_server "$2")
  fi
  LAUNCHED_PID=""
  if ! launch_served "$2" "127.0.0.1:$(port_of "$1")" "$START_TIMEOUT_S" "${cmd[@]}"; then
    BROKER_PID="$LAUNCHED_PID"
    log "$1 did not serve within $START_TIMEOUT_S s (see $2)"
    return 1
  fi
  BROKER_PID="$LAUNCHED_PID"
  [ -z "${3:-}" ] || printf '%s\t%s\n' "$3" "$SERVED_S" >>"$OUT/$1.tsv"
}

# stop NAME KEY: SIGTERM; KEY gets the seconds until the process is gone (KEY_sigkill 1 if it took SIGKILL).
stop() {
  local t0; t0="$(date +%s%3N)"
  stop_pid "$BROKER_PID" 300 || printf '%s_sigkill\t1\n' "$2" >>"$OUT/$1.tsv"
  printf '%s\t%s\n' "$2" "$(awk -v a="$t0" -v b="$(date +%s%3N)" 'BEGIN{printf "%.1f", (b - a) / 1000}')" >>"$OUT/$1.tsv"
  BROKER_PID=""
}

# run NAME N: the measurements of NAME's broker with N partitions; figures as nN_* in NAME.tsv.
run() {
  local name="$1" n="$2" k="n$2_" dir="$OUT/$1-$2" results="$OUT/$1.tsv" topics=$(($2 / PER_TOPIC)) bootstrap load_job
  bootstrap="127.0.0.1:$(port_of "$name")"
  mkdir -p "$dir"
  log "$name, $n partitions: creating $topics topics x $PER_TOPIC"
  start "$name" "$dir" || return 1
  probe create "$bootstrap" scale "$topics" "$PER_TOPIC" "${k}setup_create" >>"$results" 2>>"$dir/probe.err" \
    && probe metadata "$bootstrap" scale "$n" "$START_TIMEOUT_S" 0 - 2>>"$dir/probe.err" \
    || { log "$name: creating $n partitions failed (see $dir/probe.err)"; return 1; }
  stop "$name" "${k}first_stop_s"

  start "$name" "$dir" "${k}startup_s" || return 1
  log "$name: clean start-up $SERVED_S s with $n partitions"
  sleep "$IDLE_SETTLE_S"
  printf '%srss_idle_mb\t%s\n' "$k" "$(mb "$(rss_kb "$BROKER_PID")")" >>"$results"
  probe metadata "$bootstrap" scale "$n" 60 5 "${k}metadata" >>"$results" 2>>"$dir/probe.err" \
    || log "$name: Metadata for all topics failed (see $dir/probe.err)"

  log "$name: load at $LOAD_RATE records/s over $n partitions, SIGKILL $LOAD_S s after each has data"
  probe load "$bootstrap" scale "$topics" "$PER_TOPIC" "$LOAD_RATE" "$RECORD_SIZE" $((LOAD_S + 2)) "${k}load" \
    >"$dir/load.log" 2>&1 &
  load_job=$!
  for _ in $(seq 1 3300); do
    grep -q '^ALL_WRITTEN' "$dir/load.log" || ! kill -0 "$load_job" 2>/dev/null && break
    sleep 0.1
  done
  LOAD_PID="$(awk '$1 == "PID" {print $2}' "$dir/load.log")"
  grep -q '^ALL_WRITTEN' "$dir/load.log" || { log "$name: the load did not reach every partition (see $dir/load.log)"; return 1; }
  sleep "$LOAD_S"
  kill -KILL "$BROKER_PID"; wait "$BROKER_PID" 2>/dev/null || true; BROKER_PID=""
  wait "$load_job" || log "$name: the load exited with an error (see $dir/load.log)"
  LOAD_PID=""
  grep "^${k}load_" "$dir/load.log" >>"$results" || true

  start "$name" "$dir" "${k}restart_s" || return 1
  printf '%srss_peak_mb\t%s\n' "$k" "$(mb "$(proc_kb "$BROKER_PID" VmHWM)")" >>"$results"
  log "$name: restart after SIGKILL $SERVED_S s"
  probe create "$bootstrap" extra 100 10 "${k}create_1000" >>"$results" 2>>"$dir/probe.err" \
    || log "$name: CreateTopics of 1000 partitions failed (see $dir/probe.err)"
  stop "$name" "${k}stop_s"
  [ "${KEEP_DATA:-0}" = 1 ] || rm -rf "$dir/data"
}

# Spool's first two starts of a build write and adopt its class-data archive (bin/spool): unmeasured.
for i in 1 2; do
  mkdir -p "$OUT/spool-prime"
  start spool "$OUT/spool-prime" || die "spool did not start"
  warm="$(cds_mapped "$BROKER_PID")"
  stop spool "priming_${i}_stop_s"
  [ "$warm" = 1 ] && break
done
printf 'cds_warm\t%s\n' "$warm" >>"$OUT/spool.tsv"
rm -rf "$OUT/spool-prime/data"

# Spool goes first at each count: Kafka failing at a count (limits) leaves Spool's figures.
for n in "${COUNTS[@]}"; do
  for name in ${BROKERS:-spool kafka}; do
    run "$name" "$n" || log "$name, $n partitions: FAILED, its figures are missing"
    stop_pid "$BROKER_PID" || true; BROKER_PID=""
  done
done

{
  echo "Apache Kafka 4.4.0 vs Spool ($(git -C "$ROOT" log -1 --format=%h)), $(date -u +%F\ %H:%MZ), $(nproc) cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  print_table "$OUT/kafka.tsv" "$OUT/spool.tsv" <(for n in "${COUNTS[@]}"; do
    printf '%s\n' "n${n}_startup_s|$n partitions: clean start-up|s|lo|0.25" \
      "n${n}_restart_s|$n: start-up after SIGKILL under load|s|lo|0.25" \
      "n${n}_rss_idle_mb|$n: RSS idle after start-up|MB|lo|0.25" \
      "n${n}_rss_peak_mb|$n: peak RSS (VmHWM) until served|MB|lo|0.25" \
      "n${n}_metadata_ms|$n: Metadata, all topics|ms|lo|" \
      "n${n}_metadata_kb|$n: Metadata answer size|KB||" \
      "n${n}_create_1000_ms|$n: CreateTopics, 100 x 10 partitions|ms|lo|" \
      "n${n}_load_acked|$n: records acked under the load|rec||" \
      "n${n}_stop_s|$n: clean shutdown (SIGTERM)|s|lo|"
  done)
  r="$(kv "$OUT/spool.tsv" n10000_restart_s)"
  [ -z "$r" ] || echo "absolute target: Spool restarts 10000 partitions after SIGKILL in $r s:" \
    "$(awk -v r="$r" 'BEGIN { print (r < 10 ? "< 10 s met" : "< 10 s MISSED") }')"
  echo "(one run each; Spool's class-data archive mapped: $(kv "$OUT/spool.tsv" cds_warm) (1 = yes); raw results in $OUT)"
} | tee "$OUT/table.txt"
