#!/usr/bin/env bash
# bench/side-by-side.sh [--short]
# Apache Kafka 4.4.0 and Spool on this machine, the same workloads against each, alternating, with
# Kafka's own ProducerPerformance and ConsumerPerformance; prints one table with the ratio
# Spool/Kafka. See BENCHMARKS.md. --short runs every workload with 10x fewer records (a smoke run).
#
# Env: SPOOL_BENCH_CACHE (default /tmp/spool-bench: Kafka jars, the probe, results),
#      BENCH_OUT (results of this run; default CACHE/results/<utc time>),
#      KAFKA_PORT (19192), KAFKA_CONTROLLER_PORT (19193), SPOOL_PORT (19292), PARTITIONS (6),
#      IDLE_SETTLE_S (10; 3 in --short), RUN_TIMEOUT_S (600 per tool run),
#      LAUNCH_SETTLE_S (3: the pause before each broker's launch),
#      WORKLOAD_SETTLE_S (5; 1 in --short: the pause before each workload run),
#      TRIALS (3; 1 in --short: how often start-up and workloads c, c0 and d are measured, the
#      order alternating; the table shows each figure's median, the trials are listed under it).
# Both brokers listen on 127.0.0.1 only and keep their data under BENCH_OUT.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=compare/lib.sh
. "$HERE/compare/lib.sh"

SCALE=1
case "${1:-}" in
  --short) SCALE=10;;
  "") ;;
  *) echo "usage: bench/side-by-side.sh [--short]" >&2; exit 2;;
esac
CACHE="${SPOOL_BENCH_CACHE:-/tmp/spool-bench}"
LIBS="$CACHE/kafka-4.4.0/libs"
OUT="${BENCH_OUT:-$CACHE/results/$(date -u +%Y%m%dT%H%M%SZ)$([ "$SCALE" = 1 ] || echo -short)}"
KAFKA_PORT="${KAFKA_PORT:-19192}"; KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19193}"
SPOOL_PORT="${SPOOL_PORT:-19292}"
PARTITIONS="${PARTITIONS:-6}"
IDLE_SETTLE_S="${IDLE_SETTLE_S:-$([ "$SCALE" = 1 ] && echo 10 || echo 3)}"
RUN_TIMEOUT_S="${RUN_TIMEOUT_S:-600}"
LAUNCH_SETTLE_S="${LAUNCH_SETTLE_S:-3}"
WORKLOAD_SETTLE_S="${WORKLOAD_SETTLE_S:-$([ "$SCALE" = 1 ] && echo 5 || echo 1)}"
TRIALS="${TRIALS:-$([ "$SCALE" = 1 ] && echo 3 || echo 1)}"
[ "$TRIALS" -ge 1 ] 2>/dev/null || { echo "TRIALS must be a number of at least 1, not '$TRIALS'" >&2; exit 2; }
HZ="$(getconf CLK_TCK)"

NA=$((2000000 / SCALE)); NB=$((500000 / SCALE)); NC=$((200000 / SCALE)); NE=$((1000000 / SCALE))
RATE_C=20000; GROUPS_E=4
# Kafka runs with its stock JVM settings: kafka-server-start.sh (KAFKA_HEAP in lib.sh) and
# kafka-run-class.sh (G1 flags, KAFKA_JVM); the perf tools' scripts use a 512 MB heap.

mkdir -p "$OUT/kafka" "$OUT/spool" "$OUT/tools"
KT="$OUT/kafka.tsv"; ST="$OUT/spool.tsv"; : >"$KT"; : >"$ST"
# tsv NAME: the results file figures go to: NAME's own, or during a trial (TRIAL set) the trial's.
tsv() { echo "$OUT/$1${TRIAL:+.trial-$TRIAL}.tsv"; }
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/run.log" >&2; }
die() { log "FAILED: $*"; exit 1; }

# --- Kafka jars (Maven Central, cached), the probe, a snapshot of the Spool build --------------
[ -f "$LIBS/kafka_2.13-4.4.0.jar" ] || log "fetching Apache Kafka 4.4.0 from Maven Central into $LIBS"
fetch_kafka "$CACHE" "$LIBS" "$OUT/fetch.log" || die "could not fetch Kafka 4.4.0 (see $OUT/fetch.log)"
PROBE="$CACHE/probe"
build_probes "$LIBS" "$PROBE" || die "javac of the probes"
SPOOL_HOME="$CACHE/spool-home"
snapshot_spool "$ROOT" "$SPOOL_HOME" >"$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
(cd "$ROOT" && git log -1 --format='%h %s' && git status --short -- broker protocol log | head -20) >"$OUT/spool-version.txt" 2>&1

ports_free "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" "$SPOOL_PORT" || die "a port is in use"
{ date -u +%FT%TZ; echo "nproc $(nproc)"; grep -m1 'model name' /proc/cpuinfo; free -m | sed -n 2p; uname -r
  java -version 2>&1 | head -1; echo "scale 1/$SCALE"; } >"$OUT/machine.txt"

KAFKA_PID=""; SPOOL_PID=""
stop_broker() { stop_pid "$1" || true; } # stop_broker PID: SIGTERM, then SIGKILL after 60 s
cleanup() { stop_broker "$KAFKA_PID"; stop_broker "$SPOOL_PID"; stop_broker "${LAUNCHED_PID:-}"; }
trap cleanup EXIT

# launch NAME CMD...: start CMD (which must exec into the broker) while a warmed-up probe waits for
# the first served request (launch_served in lib.sh); sets LAUNCHED_PID and writes startup_s (unless
# RECORD_STARTUP=0: a restart). Both brokers launch on a settled machine (LAUNCH_SETTLE_S): not in the
# wake of the probe's JVM start, Kafka's storage format tool, or the other broker's shutdown.
launch() {
  local name="$1"
  shift
  : >"$OUT/$name/broker.out"
  launch_served "$OUT/$name" "127.0.0.1:$(port_of "$name")" 120 "$@" \
    || die "$name did not serve a request within 120 s (see $OUT/$name/)"
  [ "${RECORD_STARTUP:-1}" = 0 ] || printf '%s\t%s\n' "${STARTUP_KEY:-startup_s}" "$SERVED_S" >>"$(tsv "$name")"
}

start_kafka() {
  kafka_prepare "$OUT/kafka" "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" || die "kafka storage format (see $OUT/kafka/format.log)"
  launch kafka kafka_server "$OUT/kafka"
  KAFKA_PID="$LAUNCHED_PID"
}

start_spool() {
  # group.initial.rebalance.delay.ms=0 as in Kafka's stock config/server.properties (and kafka_prepare)
  launch spool spool_server "$SPOOL_HOME" "$SPOOL_PORT" "$OUT/spool/data" --override group.initial.rebalance.delay.ms=0
  SPOOL_PID="$LAUNCHED_PID"
}

# The table's rows (print_table in lib.sh): key|label|unit|better|target
table_rows() {
  cat <<'ROWS'
startup_s|start-up to first served request|s|lo|0.1
rss_idle_mb|resident memory, idle|MB|lo|0.25
rss_after_mb|resident memory, after the run|MB|lo|
a_rps|a) 100 B acks=1 unthrottled|rec/s|hi|1.3
a_mbs|a) 100 B acks=1 unthrottled|MB/s|hi|1.3
a_cpu_s|a) broker CPU|s|lo|0.5
a_kernel_cpu_s|a) broker CPU, of it in the kernel|s|lo|
b_rps|b) 1000 B acks=all unthrottled|rec/s|hi|1.3
b_mbs|b) 1000 B acks=all unthrottled|MB/s|hi|1.3
b_cpu_s|b) broker CPU|s|lo|0.5
b_kernel_cpu_s|b) broker CPU, of it in the kernel|s|lo|
c_rps|c) 100 B acks=all at fixed rate|rec/s||
c_avg_ms|c) latency avg|ms|lo|
c_p50_ms|c) latency p50|ms|lo|
c_p99_ms|c) latency p99|ms|lo|0.5
c_p999_ms|c) latency p99.9|ms|lo|
c_steady_p99_ms|c) p99 after the first 10% (warm-up)|ms|lo|
c_steady_p999_ms|c) p99.9 after the first 10% (warm-up)|ms|lo|
c_cpu_s|c) broker CPU|s|lo|0.5
c_kernel_cpu_s|c) broker CPU, of it in the kernel|s|lo|
c_queue_ms|c) client: record waits in batch, avg|ms|lo|
c_request_ms|c) client: Produce round trip, avg|ms|lo|
c_metadata_wait_ms|c) client: first send waits for metadata|ms|lo|
c0_p50_ms|c0) as c, linger.ms=0: latency p50|ms|lo|
c0_p99_ms|c0) as c, linger.ms=0: latency p99|ms|lo|
c0_p999_ms|c0) as c, linger.ms=0: latency p99.9|ms|lo|
c0_steady_p99_ms|c0) p99 after the first 10% (warm-up)|ms|lo|
c0_request_ms|c0) client: Produce round trip, avg|ms|lo|
c0_cpu_s|c0) broker CPU|s|lo|
d_rps|d) consumer, everything back|rec/s|hi|1.3
d_mbs|d) consumer, everything back|MB/s|hi|1.3
d_fetch_mbs|d) consumer, without group join|MB/s|hi|
d_fetch_latency_ms|d) client: Fetch round trip, avg|ms|lo|
d_io_wait_ratio|d) client: time waiting on network|share|lo|
d_cpu_s|d) broker CPU|s|lo|0.5
d_kernel_cpu_s|d) broker CPU, of it in the kernel|s|lo|
e_producer_rps|e) fan-out: producer|rec/s|hi|
e_consumer_min_rps|e) fan-out: slowest of 4 groups|rec/s|hi|
e_delivered_rps|e) fan-out: records delivered|rec/s|hi|
e_cpu_s|e) broker CPU|s|lo|0.5
e_kernel_cpu_s|e) broker CPU, of it in the kernel|s|lo|
cpu_s_per_gb|broker CPU per GB produced+consumed|s/GB|lo|0.5
ROWS
}

pid_of() { if [ "$1" = kafka ]; then echo "$KAFKA_PID"; else echo "$SPOOL_PID"; fi; }
port_of() { if [ "$1" = kafka ]; then echo "$KAFKA_PORT"; else echo "$SPOOL_PORT"; fi; }

# measured NAME KEY CMD...: runs CMD, adds KEY_cpu_s (broker CPU seconds), KEY_kernel_cpu_s (the
# kernel's share of them), KEY_machine_cpu_s (all processes) and KEY_wall_s.
measured() {
  local name="$1" key="$2" pid c0 c1 k0 k1 t0 t1 m0 m1 rc
  shift 2
  # Each run starts on a settled machine: the broker that ran before goes on working for a while
  # (collecting, compiling its run's code), and whichever broker ran second paid for it.
  sleep "$WORKLOAD_SETTLE_S"
  pid="$(pid_of "$name")"
  read -r c0 k0 < <(pid_cpu_ticks "$pid"); m0="$(machine_busy_ticks)"; t0="$(date +%s%3N)"
  "$@"; rc=$?
  read -r c1 k1 < <(pid_cpu_ticks "$pid"); m1="$(machine_busy_ticks)"; t1="$(date +%s%3N)"
  if [ "$rc" != 0 ]; then # a failed run's figures would count in a median: none, only the failure
    printf '%s_failed\t1\n' "$key" >>"$(tsv "$name")"
    return "$rc"
  fi
  awk -v k="$key" -v hz="$HZ" -v c0="$c0" -v c1="$c1" -v k0="$k0" -v k1="$k1" \
      -v m0="$m0" -v m1="$m1" -v t0="$t0" -v t1="$t1" 'BEGIN {
    printf "%s_cpu_s\t%.2f\n%s_kernel_cpu_s\t%.2f\n", k, (c1 - c0) / hz, k, (k1 - k0) / hz
    printf "%s_machine_cpu_s\t%.2f\n%s_wall_s\t%.2f\n", k, (m1 - m0) / hz, k, (t1 - t0) / 1000 }' \
    >>"$(tsv "$name")"
}

create_topic() { # create_topic NAME TOPIC
  tool org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$(port_of "$1")" --create \
    --topic "$2" --partitions "$PARTITIONS" --replication-factor 1 >>"$OUT/$1/topics.log" 2>&1 \
    || die "$1: create topic $2 (see $OUT/$1/topics.log)"
}

producer() { # producer NAME KEY TOPIC RECORDS SIZE RATE ACKS [WARMUP_RECORDS [PROPERTY=VALUE...]]
  local name="$1" key="$2" log="$OUT/tools/$1-$2-producer${TRIAL:+-$TRIAL}.log"
  log "$name $key: ProducerPerformance $4 x $5 B, throughput $6, acks=$7 ${*:9}"
  # --warmup-records only adds a second summary, of the records after the warm-up (the main one is of all);
  # the latency runs (those with a warm-up) also print the client's metrics at the end, where a record's time went
  measured "$name" "$key" tool org.apache.kafka.tools.ProducerPerformance \
    --bootstrap-server "127.0.0.1:$(port_of "$name")" --topic "$3" --num-records "$4" --record-size "$5" \
    ${8:+--warmup-records "$8" --print-metrics} \
    --throughput "$6" --command-property "acks=$7" "client.id=bench-$key" "${@:9}" >"$log" 2>&1 \
    || log "$name $key: producer exited with an error (see $log)"
  parse_producer "$key" "$log" >>"$(tsv "$name")" || log "$name $key: no summary line in $log"
  parse_client_metrics "$key" "$log" >>"$(tsv "$name")"
  grep '99.9th' "$log" | tail -1 >&2
}

consumer_cmd() { # consumer_cmd NAME TOPIC RECORDS GROUP LOG [TOOL ARGS...]
  tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "127.0.0.1:$(port_of "$1")" \
    --topic "$2" --num-records "$3" --group "$4" --timeout 30000 --command-property "client.id=$4" "${@:6}" >"$5" 2>&1
}

consume_all() { # consume_all NAME
  local name="$1" log="$OUT/tools/$1-d-consumer${TRIAL:+-$TRIAL}.log" total=$((NA + NB))
  log "$name d: ConsumerPerformance reads $total records"
  # d measures reads from the page cache, as Kafka's design expects of a consumer: this machine's page
  # cache loses files within minutes though 20 GB are free (a run's segments were 90% resident 6 minutes
  # after they were written, 40% after 20), so each trial first reads the broker's segments once, unmeasured.
  cat "$OUT/$name"/data/bench-*/*.log >/dev/null
  measured "$name" d consumer_cmd "$name" bench "$total" "bench-d${TRIAL:+-$TRIAL}" "$log" --print-metrics \
    || log "$name d: consumer exited with an error (see $log)"
  parse_consumer d "$log" >>"$(tsv "$name")" || log "$name d: no figures in $log"
  parse_client_metrics d "$log" >>"$(tsv "$name")"
  grep -E "^[0-9]{4}-[0-9]{2}-[0-9]{2} " "$log" | tail -1 >&2
}

fan_out_once() { # fan_out_once NAME: GROUPS_E consumer groups and one producer at once
  local name="$1" pids=() i rc=0
  for i in $(seq 1 "$GROUPS_E"); do
    consumer_cmd "$name" fanout "$NE" "fanout-$i" "$OUT/tools/$name-e-consumer-$i.log" &
    pids+=($!)
  done
  tool org.apache.kafka.tools.ProducerPerformance --bootstrap-server "127.0.0.1:$(port_of "$name")" \
    --topic fanout --num-records "$NE" --record-size 100 --throughput -1 --command-property acks=1 \
    client.id=bench-e >"$OUT/tools/$name-e-producer.log" 2>&1 || rc=1
  for i in "${pids[@]}"; do wait "$i" || rc=1; done
  return "$rc"
}

fan_out() { # fan_out NAME
  local name="$1" i min="" total=0 wall
  log "$name e: fan-out, ProducerPerformance $NE x 100 B acks=1 and $GROUPS_E ConsumerPerformance groups"
  measured "$name" e fan_out_once "$name" \
    || log "$name e: a fan-out tool exited with an error (see $OUT/tools/$name-e-*)"
  parse_producer e_producer "$OUT/tools/$name-e-producer.log" >>"$OUT/$name.tsv"
  for i in $(seq 1 "$GROUPS_E"); do
    parse_consumer "e_consumer_$i" "$OUT/tools/$name-e-consumer-$i.log" >>"$OUT/$name.tsv"
    r="$(kv "$OUT/$name.tsv" "e_consumer_${i}_rps")"; n="$(kv "$OUT/$name.tsv" "e_consumer_${i}_records")"
    [ -n "$r" ] && { [ -z "$min" ] || awk -v a="$r" -v b="$min" 'BEGIN{exit !(a < b)}'; } && min="$r"
    total=$((total + ${n:-0}))
  done
  wall="$(kv "$OUT/$name.tsv" e_wall_s)"
  printf 'e_consumer_min_rps\t%s\ne_delivered_rps\t%s\n' "${min:-NA}" \
    "$(awk -v t="$total" -v w="$wall" 'BEGIN{printf "%.1f", (w > 0 ? t / w : 0)}')" >>"$OUT/$name.tsv"
}

rss_row() { # rss_row NAME KEY
  printf '%s\t%s\n' "$2" "$(awk -v k="$(rss_kb "$(pid_of "$1")")" 'BEGIN{printf "%.1f", k / 1024}')" >>"$(tsv "$1")"
}

# start_measured NAME: a start whose start-up time and idle RSS count; the broker is stopped again.
# Each broker starts with the other one stopped: neither starts beside the other's first seconds (a
# JVM 10 s after its start still compiles and collects).

# stop_started NAME LOG_SUFFIX: stops a broker started on its own and keeps its output as broker-SUFFIX.out.
stop_started() {
  stop_broker "$(pid_of "$1")"
  if [ "$1" = kafka ]; then KAFKA_PID=""; else SPOOL_PID=""; fi
  mv "$OUT/$1/broker.out" "$OUT/$1/broker-$2.out"
}

start_measured() {
  log "$1: measured start (trial $TRIAL)"
  if [ "$1" = kafka ]; then start_kafka; else start_spool; fi
  [ "$1" = kafka ] || printf 'cds_warm\t%s\n' "$(cds_mapped "$SPOOL_PID")" >>"$(tsv spool)"
  sleep "$IDLE_SETTLE_S"; rss_row "$1" rss_idle_mb
  log "$1: start-up $(kv "$(tsv "$1")" startup_s) s, idle RSS $(kv "$(tsv "$1")" rss_idle_mb) MB"
  stop_started "$1" "measured-start-$TRIAL"
}

# prime_spool: bin/spool writes a build's class-data archive when the build's first start exits and adopts
# it at the next start (after checking it with a JVM run of its own); every later start maps it. The
# measured starts are of a primed build, as are all but the first two starts of an installed one; the
# first start's time (and whether it already found an archive) goes to the footer.
prime_spool() {
  local i warm
  for i in 1 2; do
    log "spool: priming start $i (unmeasured)"
    STARTUP_KEY="priming_${i}_startup_s" start_spool
    warm="$(cds_mapped "$SPOOL_PID")"
    printf 'priming_%s_cds_warm\t%s\n' "$i" "$warm" >>"$ST"
    stop_started spool "priming-$i"
    [ "$warm" = 1 ] && break
  done
}

# c and c0 write to a topic of their own, so that d reads back exactly a's and b's records in any trial
latency() { producer "$1" c latency "$NC" 100 "$RATE_C" all $((NC / 10)); }
latency_without_linger() { producer "$1" c0 latency "$NC" 100 "$RATE_C" all $((NC / 10)) linger.ms=0; }

# trials FUNCTION FIRST: FUNCTION BROKER for both brokers in each of TRIALS trials, FIRST going first
# in odd trials and second in even ones; then each figure's median and its trials go to the broker's
# results (fold_trials) from the trials' own files, kept in trials/.
trials() {
  local fn="$1" first="$2" second=kafka t b files
  [ "$first" = kafka ] && second=spool
  for t in $(seq 1 "$TRIALS"); do
    if [ $((t % 2)) = 1 ]; then TRIAL=$t "$fn" "$first"; TRIAL=$t "$fn" "$second"
    else TRIAL=$t "$fn" "$second"; TRIAL=$t "$fn" "$first"; fi
  done
  mkdir -p "$OUT/trials"
  for b in kafka spool; do
    files=()
    for t in $(seq 1 "$TRIALS"); do
      files+=("$OUT/trials/$b-$fn-$t.tsv")
      mv "$OUT/$b.trial-$t.tsv" "${files[-1]}"
    done
    fold_trials "${files[@]}" >>"$OUT/$b.tsv"
  done
}

# --- the run ---------------------------------------------------------------------------------
log "results in $OUT (records: a $NA, b $NB, c $NC at $RATE_C/s, e $NE x $GROUPS_E groups; $TRIALS trials)"
prime_spool
trials start_measured kafka
log "starting Spool and Kafka, unmeasured, for the workloads"
RECORD_STARTUP=0 start_spool
sleep "$IDLE_SETTLE_S"
RECORD_STARTUP=0 start_kafka
sleep "$IDLE_SETTLE_S" # as long as Spool idled: neither broker runs a workload in its first seconds
for b in kafka spool; do create_topic "$b" bench; create_topic "$b" latency; create_topic "$b" fanout; done

# Each workload runs against one broker and then the other; who goes first alternates.
producer kafka a bench "$NA" 100 -1 1;            producer spool a bench "$NA" 100 -1 1
producer spool b bench "$NB" 1000 -1 all;         producer kafka b bench "$NB" 1000 -1 all
trials latency kafka
trials latency_without_linger spool
trials consume_all spool
fan_out kafka;                                    fan_out spool
sleep 2
for b in kafka spool; do
  rss_row "$b" rss_after_mb
  # CPU per GB moved: produced (a, b, c, e) plus consumed (d, and e four times over)
  awk -F'\t' -v na="$NA" -v nb="$NB" -v nc="$NC" -v ne="$NE" -v g="$GROUPS_E" '
    {v[$1] = $2}
    END { bytes = na * 100 + nb * 1000 + nc * 100 + (na * 100 + nb * 1000) + ne * 100 * (1 + g)
          cpu = v["a_cpu_s"] + v["b_cpu_s"] + v["c_cpu_s"] + v["d_cpu_s"] + v["e_cpu_s"]
          printf "cpu_s_per_gb\t%.2f\n", cpu / (bytes / 1e9) }' "$OUT/$b.tsv" >>"$OUT/$b.tsv"
done
stop_broker "$SPOOL_PID"; stop_broker "$KAFKA_PID"

{
  echo "Apache Kafka 4.4.0 vs Spool ($(git -C "$ROOT" log -1 --format=%h)), $(date -u +%F\ %H:%MZ), $(nproc) cores, scale 1/$SCALE"
  print_table "$KT" "$ST" <(table_rows)
  echo "trials (the table shows their medians):"
  print_trials "$KT" "$ST" startup_s rss_idle_mb c_p99_ms c_cpu_s d_rps d_cpu_s c_steady_p99_ms c0_p99_ms \
    c0_steady_p99_ms
  echo "(medians of $TRIALS trials: start-up, idle RSS, c, c0, d; every trial's figures are in kafka.tsv and"
  echo " spool.tsv as KEY_trials, NA where a trial's run failed)"
  priming="$(kv "$ST" priming_1_startup_s) s (archive mapped: $(kv "$ST" priming_1_cds_warm))"
  [ -z "$(kv "$ST" priming_2_startup_s)" ] \
    || priming="$priming, $(kv "$ST" priming_2_startup_s) s (archive mapped: $(kv "$ST" priming_2_cds_warm))"
  echo "(Spool's class-data archive mapped, per measured start: $(kv "$ST" cds_warm_trials) (1 = yes); before"
  echo " them, Spool's unmeasured priming starts: $priming)"
  # every measured run once: a, b and e from the results, the trials' runs from their own files (not the medians)
  machine_cpu="$(awk -F'\t' '$1 ~ /_machine_cpu_s$/ && (FILENAME ~ /\/trials\// || $1 ~ /^[abe]_/) {s += $2}
    END {printf "%.0f", s}' "$KT" "$ST" "$OUT"/trials/*.tsv)"
  echo "(machine CPU during the measured runs, all processes: $machine_cpu s; raw results in $OUT)"
} | tee "$OUT/table.txt"
