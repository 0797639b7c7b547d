#!/usr/bin/env bash
# bench/cluster-startup.sh [--short]
# Start-up and idle memory of a 3-node cluster, Spool against Apache Kafka 4.4.0, on this machine, plus a
# single Spool node for reference (BENCHMARKS.md's figures). Per trial:
#   single  one Spool node without cluster settings, timed as side-by-side.sh does (launch to the first
#           answered Metadata request, StartupProbe) and by its "started" log line;
#   cluster 3 combined nodes (process.roles=broker,controller, static controller.quorum.voters) launched
#           at the same moment: Spool (bin/spool server) and Kafka (kafka.Kafka with kafka-server-start.sh's
#           heap and kafka-run-class.sh's G1 flags; data dirs formatted with the same cluster id, untimed).
# A node's start-up: from its launch to the time stamp of its log line saying it started, Spool's "started
# in N ms, listening on", Kafka's "[KafkaRaftServer nodeId=N] Kafka Server started" (both written once the
# active controller has unfenced the node). Idle RSS: each node's VmRSS IDLE_SETTLE_S (10) s after the last
# node started. All nodes then get SIGTERM at once. Before each launch: LAUNCH_SETTLE_S, then a wait (at most
# QUIET_WAIT_S) until the machine is idle; a cluster start during which other processes took more than
# BUSY_CORES on average runs again (at most BUSY_RETRIES times) and the least disturbed attempt counts.
# Spool is primed first (unmeasured starts, as in side-by-side.sh, until bin/spool maps its class-data
# archive); single and cluster nodes each have an archive of their own, written by a start of their kind.
# TRIALS (3; 1 with --short); the single node runs first in each trial, then the clusters, Kafka first in
# odd trials. Table: medians over nodes and trials; raw.tsv: every counted node, discarded.tsv the others.
#
# Env: SPOOL_BENCH_CACHE (/tmp/spool-bench: Kafka jars, probe, Spool snapshot, results), BENCH_OUT (this
#      run's directory; default CACHE/results/cluster-<utc time>), PORT_BASE (19500; ~40 ports on 127.0.0.1,
#      the next block of 100 if one is taken), IDLE_SETTLE_S (10), LAUNCH_SETTLE_S (5), QUIET_WAIT_S (180),
#      QUIET_CORES (0.3), BUSY_CORES (0.35), BUSY_RETRIES (2), START_TIMEOUT_S (120), STOP_TIMEOUT_S (60,
#      then SIGKILL), TRIALS, KEEP_DATA=1 (keep data dirs; logs are always kept), SPOOL_BENCH_OFFLINE=1,
#      WORKLOAD=1: after each measured cluster's idle RSS, a replicated produce workload (produce_workload:
#      a topic of 3 partitions x 3 replicas, min.insync.replicas 2; ProducerPerformance acks=all for
#      throughput, then at 500 records/s for latency), its figures in workload.tsv and a second table;
#      FAILOVER=kill-leader|stop-leader|kill-quorum: after the idle RSS (and the workload), FailoverProbe fails
#      a node of the running cluster that way and measures how long a producer and a consumer wait (failover.tsv
#      and a third table); one kind per run of the script. NODE_SETTINGS="k=v k=v": settings both systems' nodes
#      get on top of the above (Spool --override, Kafka's server.properties), e.g. tuned session timeouts.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=compare/lib.sh
. "$HERE/compare/lib.sh"

TRIALS_DEFAULT=3
case "${1:-}" in
  --short) TRIALS_DEFAULT=1;;
  "") ;;
  *) echo "usage: bench/cluster-startup.sh [--short]" >&2; exit 2;;
esac
TRIALS="${TRIALS:-$TRIALS_DEFAULT}"
[ "$TRIALS" -ge 1 ] 2>/dev/null || { echo "TRIALS must be a number of at least 1, not '$TRIALS'" >&2; exit 2; }
CACHE="${SPOOL_BENCH_CACHE:-/tmp/spool-bench}"
LIBS="$CACHE/kafka-4.4.0/libs"
PROBE="$CACHE/probe"
OUT="${BENCH_OUT:-$CACHE/results/cluster-$(date -u +%Y%m%dT%H%M%SZ)$([ "$TRIALS" = 1 ] && echo -short)}"
IDLE_SETTLE_S="${IDLE_SETTLE_S:-10}"; LAUNCH_SETTLE_S="${LAUNCH_SETTLE_S:-5}"
START_TIMEOUT_S="${START_TIMEOUT_S:-120}"; STOP_TIMEOUT_S="${STOP_TIMEOUT_S:-60}"
CLUSTER_ID="U3Bvb2xDbHVzdGVySXRUZQ" # as it/SpoolCluster.java; a valid Kafka cluster id too (16 bytes)
NODES=3
# Every JVM logs in UTC, and the log time stamps are read back as UTC.
export TZ=UTC

mkdir -p "$OUT"
RAW="$OUT/raw.tsv"; DISCARDED="$OUT/discarded.tsv"
printf 'trial\tsystem\tnode\tstartup_s\trss_idle_mb\tspool_internal_ms\tserved_s\tcds_mapped\tloadavg\tother_cpu_s\n' \
  | tee "$DISCARDED" >"$RAW"
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/run.log" >&2; }
die() { log "FAILED: $*"; exit 1; }
now_ms() { local t="${EPOCHREALTIME/./}"; echo "${t:0:-3}"; } # no fork: launch times stay close together
HZ="$(getconf CLK_TCK)"
# wait_quiet: until the whole machine used less than QUIET_CORES (0.3) cores over 2 s, at most QUIET_WAIT_S
# (180) s: other work on the machine (builds, tests) slows a start-up of several JVMs more than anything.
wait_quiet() {
  local deadline=$(( $(now_ms) + ${QUIET_WAIT_S:-180} * 1000 )) m0 m1
  while :; do
    m0="$(machine_busy_ticks)"; sleep 2; m1="$(machine_busy_ticks)"
    awk -v d=$((m1 - m0)) -v hz="$HZ" -v q="${QUIET_CORES:-0.3}" 'BEGIN{exit !(d / hz / 2 < q)}' && return 0
    if [ "$(now_ms)" -ge "$deadline" ]; then
      log "the machine is still busy after ${QUIET_WAIT_S:-180} s ($(awk -v d=$((m1 - m0)) -v hz="$HZ" 'BEGIN{printf "%.1f", d / hz / 2}') cores): going on"
      return 0
    fi
  done
}

# --- Kafka jars, the probe, a snapshot of the Spool build (as side-by-side.sh) -----------------------
fetch_kafka "$CACHE" "$LIBS" "$OUT/fetch.log" || die "could not fetch Kafka 4.4.0 (see $OUT/fetch.log)"
build_probes "$LIBS" "$PROBE" || die "javac of the probes"
SPOOL_HOME="$CACHE/spool-home"
snapshot_spool "$ROOT" "$SPOOL_HOME" >"$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
(cd "$ROOT" && git log -1 --format='%h %s' | cut -c1-120 \
  && echo "broker jar built $(date -u -r "$(ls broker/target/spool-broker-*.jar | head -n 1)" +%FT%TZ); uncommitted:" \
  && git status --short -- broker protocol log | head -20) >"$OUT/spool-version.txt" 2>&1

# --- ports: single node; Spool cluster (client, controller, Raft = controller + 1); Kafka cluster ----
# Block layout from BASE: +0 single; +10+N Spool client; +20+2N Spool controller (+21+2N its Raft port);
# +30+N Kafka client; +40+2N Kafka controller.
pick_ports() {
  local base="${PORT_BASE:-19500}" b n ports
  for b in $(seq "$base" 100 $((base + 1000))); do
    ports=("$b")
    for n in $(seq 1 "$NODES"); do
      ports+=($((b + 10 + n)) $((b + 20 + 2 * n)) $((b + 21 + 2 * n)) $((b + 30 + n)) $((b + 40 + 2 * n)))
    done
    if ports_free "${ports[@]}" 2>/dev/null; then BASE="$b"; return 0; fi
  done
  return 1
}
pick_ports || die "no free block of ports from ${PORT_BASE:-19500}"
SINGLE_PORT="$BASE"
spool_port() { echo $((BASE + 10 + $1)); }
spool_cport() { echo $((BASE + 20 + 2 * $1)); }
kafka_port() { echo $((BASE + 30 + $1)); }
kafka_cport() { echo $((BASE + 40 + 2 * $1)); }
voters() { # voters spool|kafka: controller.quorum.voters
  local n v=""
  for n in $(seq 1 "$NODES"); do v="$v${v:+,}$n@127.0.0.1:$("${1}_cport" "$n")"; done
  echo "$v"
}

{ date -u +%FT%TZ; echo "nproc $(nproc)"; grep -m1 'model name' /proc/cpuinfo; free -m | sed -n 2p; uname -r
  java -version 2>&1 | head -1; echo "ports from $BASE"; } >"$OUT/machine.txt"

# --- process bookkeeping: every pid started is stopped at the end (and on any exit) -----------------
RUNNING=() # pids of the nodes of the current run
stop_all() { # SIGTERM to every pid in RUNNING at once, SIGKILL to those left after STOP_TIMEOUT_S
  local pid i left t0
  [ ${#RUNNING[@]} -gt 0 ] || return 0
  t0="$(now_ms)"
  for pid in "${RUNNING[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for i in $(seq 1 $((STOP_TIMEOUT_S * 10))); do
    left=0
    for pid in "${RUNNING[@]}"; do kill -0 "$pid" 2>/dev/null && left=1; done
    [ "$left" = 0 ] && break
    sleep 0.1
  done
  for pid in "${RUNNING[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then log "pid $pid still running ${STOP_TIMEOUT_S} s after SIGTERM: SIGKILL"; kill -KILL "$pid"; fi
    wait "$pid" 2>/dev/null
  done
  STOPPED_S="$(awk -v a="$t0" -v b="$(now_ms)" 'BEGIN{printf "%.1f", (b - a) / 1000}')"
  RUNNING=()
}
cleanup() { stop_all; [ -z "${LAUNCHED_PID:-}" ] || stop_pid "$LAUNCHED_PID" 5 || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# log_stamp_ms FILE REGEX: epoch ms of the time stamp of FILE's first line matching REGEX (Spool's
# "2026-12-02T03:04:05.678 INFO ..." or Kafka's "[2026-12-02 03:04:05,678] INFO ..."); empty if none.
log_stamp_ms() {
  local stamp
  stamp="$(grep -m1 -E "$2" "$1" 2>/dev/null | grep -oE '^\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:]{8}[.,][0-9]{3}')" || return 0
  stamp="${stamp#\[}"; stamp="${stamp/T/ }"; stamp="${stamp/,/.}"
  date -u -d "$stamp" +%s%3N
}
SPOOL_STARTED='started in [0-9]+ ms, listening on'
KAFKA_STARTED='\] INFO \[KafkaRaftServer nodeId=[0-9]+\] Kafka Server started'
started_log() { if [ "$1" = kafka ]; then echo "$2/server.log"; else echo "$2/broker.out"; fi; }
started_regex() { if [ "$1" = kafka ]; then echo "$KAFKA_STARTED"; else echo "$SPOOL_STARTED"; fi; }

# --- the cluster runs ---------------------------------------------------------------------------
# kafka_node_prepare DIR N: DIR/server.properties of Kafka node N of the cluster (the stock settings
# but for the listeners, ids and data dir) and DIR/data formatted with CLUSTER_ID (untimed).
kafka_node_prepare() {
  local dir="$1" n="$2"
  mkdir -p "$dir"
  cat >"$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=$n
controller.quorum.voters=$(voters kafka)
listeners=PLAINTEXT://127.0.0.1:$(kafka_port "$n"),CONTROLLER://127.0.0.1:$(kafka_cport "$n")
advertised.listeners=PLAINTEXT://127.0.0.1:$(kafka_port "$n")
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
group.initial.rebalance.delay.ms=0
$(printf '%s\n' ${NODE_SETTINGS:-})
PROPS
  tool kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$dir/server.properties" >"$dir/format.log" 2>&1
}

# spool_node DIR N: becomes (exec) Spool cluster node N, its data in DIR/data, its class-data archive
# in the cluster's own CDS directory.
spool_node() {
  SPOOL_CDS_DIR="$OUT/cds-cluster" exec "$SPOOL_HOME/bin/spool" server \
    --override process.roles=broker,controller --override "node.id=$2" --override "cluster.id=$CLUSTER_ID" \
    --override "controller.quorum.voters=$(voters spool)" --override controller.listener.names=CONTROLLER \
    --override "listeners=PLAINTEXT://127.0.0.1:$(spool_port "$2"),CONTROLLER://127.0.0.1:$(spool_cport "$2")" \
    --override listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT \
    --override "log.dirs=$1/data" --override group.initial.rebalance.delay.ms=0 $(node_overrides)
}

# node_overrides: NODE_SETTINGS as Spool's --override arguments.
node_overrides() {
  local setting
  for setting in ${NODE_SETTINGS:-}; do printf -- '--override %s ' "$setting"; done
}

# produce_workload SYSTEM DIR TRIAL: on the running cluster, a topic of 3 partitions x 3 replicas with
# min.insync.replicas 2, then Kafka's ProducerPerformance with acks=all: WORKLOAD_RECORDS (300000) x 100 B
# as fast as it goes (throughput), then 5000 x 100 B at 500 records/s with linger.ms=0 (each record's
# acks=all latency: replication to the followers and back). Figures to OUT/workload.tsv, with the CPU
# the nodes (PIDS...) used during the throughput run per MB the producer sent (user + system, all nodes).
produce_workload() {
  local system="$1" dir="$2" trial="$3" bootstrap="" n pid c k ticks0=0 ticks1=0
  shift 3
  for n in $(seq 1 "$NODES"); do bootstrap="$bootstrap${bootstrap:+,}127.0.0.1:$("${system}_port" "$n")"; done
  tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create --topic replicated \
    --partitions 3 --replication-factor 3 --config min.insync.replicas=2 >"$dir/topic.log" 2>&1 \
    || die "$system: creating the workload's topic (see $dir/topic.log)"
  sleep 2
  log "$system workload: ${WORKLOAD_RECORDS:-300000} x 100 B, acks=all, unthrottled"
  for pid in "$@"; do read -r c k < <(pid_cpu_ticks "$pid"); ticks0=$((ticks0 + c)); done
  tool org.apache.kafka.tools.ProducerPerformance --topic replicated --num-records "${WORKLOAD_RECORDS:-300000}" \
    --record-size 100 --throughput -1 --producer-props "bootstrap.servers=$bootstrap" acks=all \
    >"$dir/produce-throughput.log" 2>&1 || die "$system: ProducerPerformance (see $dir/produce-throughput.log)"
  for pid in "$@"; do read -r c k < <(pid_cpu_ticks "$pid"); ticks1=$((ticks1 + c)); done
  log "$system workload: 5000 x 100 B, acks=all, 500 records/s"
  tool org.apache.kafka.tools.ProducerPerformance --topic replicated --num-records 5000 --record-size 100 \
    --throughput 500 --producer-props "bootstrap.servers=$bootstrap" acks=all linger.ms=0 \
    >"$dir/produce-latency.log" 2>&1 || die "$system: ProducerPerformance (see $dir/produce-latency.log)"
  { parse_producer throughput "$dir/produce-throughput.log"; parse_producer latency "$dir/produce-latency.log"
    awk -v t=$((ticks1 - ticks0)) -v hz="$HZ" -v mb="$(( ${WORKLOAD_RECORDS:-300000} * 100 ))" \
      'BEGIN {printf "throughput_cpu_ms_per_mb\t%.1f\n", t / hz * 1000 / (mb / 1e6)}'; } \
    | sed "s/^/$trial\t$system\t/" >>"$OUT/workload.tsv"
}

# failover_probe SYSTEM DIR TRIAL PIDS...: FailoverProbe on the running cluster (node n's pid the n-th of PIDS),
# failing a node as FAILOVER says; its figures to OUT/failover.tsv.
failover_probe() {
  local system="$1" dir="$2" trial="$3" bootstrap="" n nodes=""
  shift 3
  for n in $(seq 1 "$NODES"); do
    bootstrap="$bootstrap${bootstrap:+,}127.0.0.1:$("${system}_port" "$n")"
    nodes="$nodes${nodes:+,}$n=${!n}"
  done
  log "$system failover: $FAILOVER"
  tool FailoverProbe "$bootstrap" "$FAILOVER" "$nodes" >"$dir/failover.out" 2>"$dir/failover.log" \
    || die "$system: FailoverProbe (see $dir/failover.log)"
  sed "s/^/$trial\t$system\t/" "$dir/failover.out" >>"$OUT/failover.tsv"
}

# cluster_run SYSTEM TAG [MEASURED]: a fresh cluster of NODES nodes of SYSTEM (spool|kafka) in
# OUT/TAG, all launched at once; waits until every node logged that it started, then IDLE_SETTLE_S;
# appends each node's figures to raw.tsv when MEASURED is a trial number; stops every node.
cluster_run() {
  local system="$1" tag="$2" trial="${3:-}" dir="$OUT/$2" n pid t_log load all cds_all=1
  local -a pids t0s
  log "$system cluster: $tag"
  mkdir -p "$dir"
  ports_free $(for n in $(seq 1 "$NODES"); do
                 if [ "$system" = kafka ]; then echo "$(kafka_port "$n") $(kafka_cport "$n")"
                 else echo "$(spool_port "$n") $(spool_cport "$n") $(($(spool_cport "$n") + 1))"; fi; done) \
    || die "$system cluster: a port is in use"
  if [ "$system" = kafka ]; then
    for n in $(seq 1 "$NODES"); do
      kafka_node_prepare "$dir/node-$n" "$n" || die "kafka storage format (see $dir/node-$n/format.log)"
    done
  else
    for n in $(seq 1 "$NODES"); do mkdir -p "$dir/node-$n"; done
  fi
  sleep "$LAUNCH_SETTLE_S"
  wait_quiet
  load="$(cut -d' ' -f1 /proc/loadavg)"
  local m0; m0="$(machine_busy_ticks)"
  for n in $(seq 1 "$NODES"); do
    t0s[$n]="$(now_ms)"
    if [ "$system" = kafka ]; then kafka_server "$dir/node-$n" >"$dir/node-$n/broker.out" 2>&1 </dev/null &
    else spool_node "$dir/node-$n" "$n" >"$dir/node-$n/broker.out" 2>&1 </dev/null &
    fi
    pids[$n]=$!
    RUNNING+=("$!")
  done
  # wait for every node's "started" line (the time comes from the line's stamp, not from this loop, which
  # forks little: two processes every 0.2 s, since other processes' CPU is measured meanwhile)
  local re files=() found=() deadline=$((SECONDS + START_TIMEOUT_S))
  re="$(started_regex "$system")"
  for n in $(seq 1 "$NODES"); do files+=("$(started_log "$system" "$dir/node-$n")"); done
  while :; do
    for n in "${!pids[@]}"; do
      kill -0 "${pids[$n]}" 2>/dev/null || die "$system node $n (pid ${pids[$n]}) exited before it started (see $dir/node-$n/)"
    done
    grep -lsE "$re" "${files[@]}" >"$dir/started.lst"; mapfile -t found <"$dir/started.lst"
    if [ "${#found[@]}" = "$NODES" ]; then
      # CPU used on the machine from the launch until all started, less the nodes' own: other processes'
      local m1 own=0 c k; m1="$(machine_busy_ticks)"
      for n in "${!pids[@]}"; do read -r c k < <(pid_cpu_ticks "${pids[$n]}"); own=$((own + c)); done
      OTHER_CPU="$(awk -v d=$((m1 - m0 - own)) -v hz="$HZ" 'BEGIN{printf "%.1f", (d < 0 ? 0 : d) / hz}')"
      break
    fi
    [ "$SECONDS" -lt "$deadline" ] || die "$system cluster: not every node started within $START_TIMEOUT_S s (see $dir/)"
    sleep 0.2
  done
  local -a startup internal cds
  for n in $(seq 1 "$NODES"); do
    t_log="$(log_stamp_ms "$(started_log "$system" "$dir/node-$n")" "$(started_regex "$system")")"
    startup[$n]="$(awk -v a="${t0s[$n]}" -v b="$t_log" 'BEGIN{printf "%.3f", (b - a) / 1000}')"
    if [ "$system" = spool ]; then
      internal[$n]="$(grep -m1 -oE 'started in [0-9]+ ms' "$dir/node-$n/broker.out" | grep -oE '[0-9]+')"
      cds[$n]="$(cds_mapped "${pids[$n]}")"; [ "${cds[$n]}" = 1 ] || cds_all=0
    else internal[$n]=NA; cds[$n]=NA; fi
  done
  sleep "$IDLE_SETTLE_S"
  local msg=""
  for n in $(seq 1 "$NODES"); do
    kill -0 "${pids[$n]}" 2>/dev/null || die "$system node $n died while idle (see $dir/node-$n/)"
    local rss; rss="$(awk -v k="$(rss_kb "${pids[$n]}")" 'BEGIN{printf "%.1f", k / 1024}')"
    msg="$msg node $n: ${startup[$n]} s, $rss MB;"
    [ -z "$trial" ] || printf '%s\t%s-cluster\t%s\t%s\t%s\t%s\tNA\t%s\t%s\t%s\n' "$trial" "$system" "$n" \
      "${startup[$n]}" "$rss" "${internal[$n]}" "${cds[$n]}" "$load" "$OTHER_CPU" >>"$dir/rows.tsv"
  done
  [ -z "$trial" ] || [ "${WORKLOAD:-0}" != 1 ] || produce_workload "$system" "$dir" "$trial" "${pids[@]}"
  [ -z "$trial" ] || [ -z "${FAILOVER:-}" ] || failover_probe "$system" "$dir" "$trial" "${pids[@]}"
  stop_all
  log "$system cluster $tag:$msg stopped in $STOPPED_S s (load before launch $load; other processes' CPU until all started $OTHER_CPU s)"
  CLUSTER_CDS_ALL="$cds_all"
  # other processes' CPU per second of the start (to the slowest node): cores taken from the nodes
  OTHER_CORES="$(printf '%s\n' "${startup[@]}" | sort -n | tail -n 1 | awk -v o="$OTHER_CPU" '{printf "%.2f", o / $1}')"
  [ "${KEEP_DATA:-0}" = 1 ] || for n in $(seq 1 "$NODES"); do rm -rf "$dir/node-$n/data"; done
}

# measured_cluster SYSTEM TRIAL: cluster_run whose figures count (raw.tsv). When other processes took more
# than BUSY_CORES (0.35) cores on average during the start, it runs again, at most BUSY_RETRIES (2) times;
# the attempt with the least such CPU counts, the others go to discarded.tsv.
measured_cluster() {
  local system="$1" trial="$2" a tag best="" best_cores="" tags=()
  for a in $(seq 0 "${BUSY_RETRIES:-2}"); do
    tag="$system-$trial"; [ "$a" = 0 ] || tag="$tag-again-$a"
    cluster_run "$system" "$tag" "$trial"
    tags+=("$tag")
    if [ -z "$best" ] || awk -v c="$OTHER_CORES" -v b="$best_cores" 'BEGIN{exit !(c < b)}'; then
      best="$tag"; best_cores="$OTHER_CORES"
    fi
    awk -v c="$OTHER_CORES" -v m="${BUSY_CORES:-0.35}" 'BEGIN{exit !(c <= m)}' && break
    [ "$a" = "${BUSY_RETRIES:-2}" ] || log "$system cluster $tag: other processes took $OTHER_CORES cores during the start: once more"
  done
  for tag in "${tags[@]}"; do
    if [ "$tag" = "$best" ]; then cat "$OUT/$tag/rows.tsv" >>"$RAW"; else cat "$OUT/$tag/rows.tsv" >>"$DISCARDED"; fi
  done
  [ ${#tags[@]} = 1 ] || log "$system cluster, trial $trial: counting $best (other processes: $best_cores cores)"
}

# single_run TAG [TRIAL]: one Spool node with bin/spool's defaults (its own CDS directory), timed by
# StartupProbe as in side-by-side.sh (launch_served; LAUNCH_SETTLE_S before the launch) and by its log
# line; idle RSS IDLE_SETTLE_S later; stopped.
single_run() {
  local tag="$1" trial="${2:-}" dir="$OUT/$1" t_log startup internal rss load
  log "spool single node: $tag"
  mkdir -p "$dir"; : >"$dir/broker.out"
  ports_free "$SINGLE_PORT" || die "single node: port $SINGLE_PORT in use"
  wait_quiet
  load="$(cut -d' ' -f1 /proc/loadavg)"
  launch_served "$dir" "127.0.0.1:$SINGLE_PORT" "$START_TIMEOUT_S" \
    env SPOOL_CDS_DIR="$OUT/cds-single" "$SPOOL_HOME/bin/spool" server \
      --override "listeners=PLAINTEXT://127.0.0.1:$SINGLE_PORT" --override "log.dirs=$dir/data" \
      --override group.initial.rebalance.delay.ms=0 \
    || die "single node did not serve within $START_TIMEOUT_S s (see $dir/)"
  RUNNING+=("$LAUNCHED_PID"); local pid="$LAUNCHED_PID"; LAUNCHED_PID=""
  for _ in $(seq 1 50); do grep -qE "$SPOOL_STARTED" "$dir/broker.out" && break; sleep 0.1; done
  t_log="$(log_stamp_ms "$dir/broker.out" "$SPOOL_STARTED")"
  # launch_served's launch time is not kept; the log line's start-up is log stamp - (probe's served time - SERVED_S)
  local served_ms; served_ms="$(awk '/^SERVED/{print $2}' "$dir/probe.log")"
  startup="$(awk -v s="$SERVED_S" -v b="$served_ms" -v l="$t_log" 'BEGIN{printf "%.3f", (l - (b - s * 1000)) / 1000}')"
  internal="$(grep -m1 -oE 'started in [0-9]+ ms' "$dir/broker.out" | grep -oE '[0-9]+')"
  SINGLE_CDS="$(cds_mapped "$pid")"
  sleep "$IDLE_SETTLE_S"
  kill -0 "$pid" 2>/dev/null || die "single node died while idle (see $dir/)"
  rss="$(awk -v k="$(rss_kb "$pid")" 'BEGIN{printf "%.1f", k / 1024}')"
  [ -z "$trial" ] || printf '%s\tspool-single\t1\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$trial" "$startup" "$rss" \
    "$internal" "$SERVED_S" "$SINGLE_CDS" "$load" NA >>"$RAW"
  stop_all
  log "spool single $tag: log line $startup s, served $SERVED_S s, $rss MB, archive mapped $SINGLE_CDS"
  [ "${KEEP_DATA:-0}" = 1 ] || rm -rf "$dir/data"
}

# --- the run ------------------------------------------------------------------------------------
log "results in $OUT; ports from $BASE; $TRIALS trial(s); Spool $(head -1 "$OUT/spool-version.txt")"
cat "$LIBS"/*.jar >/dev/null # Kafka's jars in the page cache before its first timed start, as Spool's are
# Priming (unmeasured): until the single node, and every node of a Spool cluster, maps its archive.
for i in 1 2 3; do single_run "prime-single-$i"; [ "$SINGLE_CDS" = 1 ] && break; done
[ "$SINGLE_CDS" = 1 ] || log "WARNING: the single node does not map a class-data archive after 3 starts"
for i in 1 2 3; do cluster_run spool "prime-cluster-$i"; [ "$CLUSTER_CDS_ALL" = 1 ] && break; done
[ "$CLUSTER_CDS_ALL" = 1 ] || log "WARNING: not every Spool cluster node maps a class-data archive after 3 starts"

for t in $(seq 1 "$TRIALS"); do
  single_run "single-$t" "$t"
  if [ $((t % 2)) = 1 ]; then measured_cluster kafka "$t"; measured_cluster spool "$t"
  else measured_cluster spool "$t"; measured_cluster kafka "$t"; fi
done

# --- warnings and errors in the nodes' logs (measured runs) --------------------------------------
{
  for f in "$OUT"/{single,spool,kafka}-*/broker.out "$OUT"/kafka-*/node-*/server.log "$OUT"/spool-*/node-*/broker.out; do
    [ -f "$f" ] || continue
    printf '%s: %s WARN, %s ERROR lines\n' "${f#"$OUT"/}" "$(grep -cE '(\] | )WARN ' "$f")" "$(grep -cE '(\] | )ERROR ' "$f")"
  done
  echo
  echo "distinct WARN/ERROR messages (time stamps, ids and numbers blanked), with counts:"
  cat "$OUT"/single-*/broker.out "$OUT"/spool-*/node-*/broker.out "$OUT"/kafka-*/node-*/server.log 2>/dev/null \
    | grep -E '(\] | )(WARN|ERROR) ' | sed -E 's/^\[?[0-9-]+[T ][0-9:.,]+\]? //; s/[0-9]+/N/g' | cut -c1-220 \
    | sort | uniq -c | sort -rn | head -40
} >"$OUT/log-warnings.txt"

# --- table: medians over nodes and trials ---------------------------------------------------------
med() { # med SYSTEM COLUMN: median of COLUMN over raw.tsv's rows of SYSTEM
  awk -F'\t' -v s="$1" -v c="$2" 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    $2 == s && $col[c] ~ /^[0-9.]+$/ {v[++n] = $col[c] + 0}
    END {if (!n) {print "NA"; exit}
         for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {x = v[j]; v[j] = v[j - 1]; v[j - 1] = x}
         print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2}' "$RAW"
}
slowest_med() { # slowest_med SYSTEM: median over trials of the slowest node's start-up (the cluster's)
  awk -F'\t' -v s="$1" 'NR > 1 && $2 == s && (!($1 in m) || $4 + 0 > m[$1]) {m[$1] = $4 + 0}
    END {for (t in m) v[++n] = m[t]; if (!n) {print "NA"; exit}
         for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {x = v[j]; v[j] = v[j - 1]; v[j - 1] = x}
         print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2}' "$RAW"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{if (a ~ /^[0-9.]+$/ && b + 0 > 0) printf "%.2f", a / b; else print "NA"}'; }
trials_of() { # trials_of SYSTEM COLUMN: per trial, the nodes' values
  awk -F'\t' -v s="$1" -v c="$2" 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
    $2 == s {v[$1] = v[$1] (v[$1] == "" ? "" : " ") $col[c]; if (!($1 in seen)) {seen[$1]; order[++n] = $1}}
    END {for (i = 1; i <= n; i++) printf "%s[%s]", (i > 1 ? " " : ""), v[order[i]]}' "$RAW"
}
SS="$(med spool-single startup_s)"; SSV="$(med spool-single served_s)"; SR="$(med spool-single rss_idle_mb)"
CS="$(med spool-cluster startup_s)"; KS="$(med kafka-cluster startup_s)"
CR="$(med spool-cluster rss_idle_mb)"; KR="$(med kafka-cluster rss_idle_mb)"
CW="$(slowest_med spool-cluster)"; KW="$(slowest_med kafka-cluster)"
{
  echo "Spool $(head -1 "$OUT/spool-version.txt" | cut -c1-60) vs Apache Kafka 4.4.0, $(date -u +%F\ %H:%MZ), $(nproc) cores, $TRIALS trial(s)"
  echo
  echo "| figure | Spool | Kafka 4.4.0 | Spool/Kafka |"
  echo "| --- | --- | --- | --- |"
  echo "| single node: start-up, launch to first served request (as BENCHMARKS.md) | $SSV s | | |"
  echo "| single node: start-up, launch to \"started\" log line | $SS s | | |"
  echo "| single node: idle RSS | $SR MB | | |"
  echo "| 3-node cluster, per node: start-up, launch to \"started\" log line | $CS s | $KS s | $(ratio "$CS" "$KS") |"
  echo "| 3-node cluster: slowest node's start-up (cluster ready) | $CW s | $KW s | $(ratio "$CW" "$KW") |"
  echo "| 3-node cluster, per node: idle RSS | $CR MB | $KR MB | $(ratio "$CR" "$KR") |"
  echo
  echo "Medians: single node over $TRIALS trial(s); cluster rows over $NODES nodes x $TRIALS trial(s) (slowest node: over trials)."
  echo "Per trial, [node 1 node 2 node 3] (cluster) or [the node] (single):"
  echo "- single start-up, served:   $(trials_of spool-single served_s)"
  echo "- single start-up, log line: $(trials_of spool-single startup_s)"
  echo "- single idle RSS MB:        $(trials_of spool-single rss_idle_mb)"
  echo "- Spool cluster start-up s:  $(trials_of spool-cluster startup_s)"
  echo "- Kafka cluster start-up s:  $(trials_of kafka-cluster startup_s)"
  echo "- Spool cluster idle RSS MB: $(trials_of spool-cluster rss_idle_mb)"
  echo "- Kafka cluster idle RSS MB: $(trials_of kafka-cluster rss_idle_mb)"
  echo "- Spool's own \"started in N ms\" (JVM start excluded), cluster: $(trials_of spool-cluster spool_internal_ms); single: $(trials_of spool-single spool_internal_ms)"
  echo "- class-data archive mapped (1 = yes), cluster: $(trials_of spool-cluster cds_mapped); single: $(trials_of spool-single cds_mapped)"
  first() { sed -E 's/\[([0-9.NA]+)( [0-9.NA]+)*\]/\1/g'; }
  echo "- load average (1 min) before each launch, single: $(trials_of spool-single loadavg | first); Spool cluster: $(trials_of spool-cluster loadavg | first); Kafka cluster: $(trials_of kafka-cluster loadavg | first)"
  echo "- CPU s of other processes from the launch until all nodes started, Spool cluster: $(trials_of spool-cluster other_cpu_s | first); Kafka cluster: $(trials_of kafka-cluster other_cpu_s | first)"
  if [ "$(wc -l <"$DISCARDED")" -gt 1 ]; then
    echo "- discarded attempts (other processes busier during the start than in the counted one), start-up per node: $(awk -F'\t' -v n="$NODES" '
      NR > 1 {a = int((NR - 2) / n); if (!(a in v)) {o[++k] = a; h[a] = "trial " $1 " " $2}; v[a] = v[a] (v[a] == "" ? "" : " ") $4; c[a] = $10}
      END {for (i = 1; i <= k; i++) printf "%s%s [%s] with %s s of other CPU", (i > 1 ? "; " : ""), h[o[i]], v[o[i]], c[o[i]]}' "$DISCARDED")"
  fi
  echo
  echo "Raw figures: $RAW; logs: $OUT/*/; warnings and errors in the logs: $OUT/log-warnings.txt"
} | tee "$OUT/table.md"

# --- the workload's table (WORKLOAD=1): medians over trials ---------------------------------------
if [ -f "$OUT/workload.tsv" ]; then
  wmed() { # wmed SYSTEM KEY
    awk -F'\t' -v s="$1" -v k="$2" '$2 == s && $3 == k {v[++n] = $4 + 0}
      END {if (!n) {print "NA"; exit}
           for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {x = v[j]; v[j] = v[j - 1]; v[j - 1] = x}
           print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2}' "$OUT/workload.tsv"
  }
  {
    echo
    echo "| 3 partitions x 3 replicas, min ISR 2, acks=all | Spool | Kafka 4.4.0 | Spool/Kafka |"
    echo "| --- | --- | --- | --- |"
    for row in "throughput_rps|throughput, records/s" "throughput_mbs|throughput, MB/s" \
               "throughput_p99_ms|throughput run, p99 latency ms" \
               "throughput_cpu_ms_per_mb|throughput run, the nodes' CPU ms per MB sent" "latency_avg_ms|500 records/s: avg latency ms" \
               "latency_p50_ms|500 records/s: p50 latency ms" "latency_p99_ms|500 records/s: p99 latency ms"; do
      key="${row%%|*}"; a="$(wmed spool "$key")"; b="$(wmed kafka "$key")"
      echo "| ${row#*|} | $a | $b | $(ratio "$a" "$b") |"
    done
    echo
    echo "Medians over $TRIALS trial(s) (every measured attempt); raw: $OUT/workload.tsv"
  } | tee -a "$OUT/table.md"
fi

# --- the failover table (FAILOVER=KIND): medians over trials -------------------------------------------
if [ -f "$OUT/failover.tsv" ]; then
  {
    echo
    echo "| $FAILOVER, 1 partition x 3 replicas, min ISR 2 | Spool | Kafka 4.4.0 | Spool/Kafka |"
    echo "| --- | --- | --- | --- |"
    for row in "produce_ms|to the first acknowledged record sent after it, ms" \
               "consume_ms|to the first such record read, ms" "produce_stall_ms|longest gap between acknowledgements, ms"; do
      key="${FAILOVER}_${row%%|*}"
      a="$(awk -F'\t' -v k="$key" '$2 == "spool" && $3 == k {print $4}' "$OUT/failover.tsv" | sort -n | awk '{v[NR]=$1} END {print NR ? v[int((NR + 1) / 2)] : "NA"}')"
      b="$(awk -F'\t' -v k="$key" '$2 == "kafka" && $3 == k {print $4}' "$OUT/failover.tsv" | sort -n | awk '{v[NR]=$1} END {print NR ? v[int((NR + 1) / 2)] : "NA"}')"
      echo "| ${row#*|} | $a | $b | $(ratio "$a" "$b") |"
    done
    echo
    echo "Medians over $TRIALS trial(s); raw: $OUT/failover.tsv"
  } | tee -a "$OUT/table.md"
fi
