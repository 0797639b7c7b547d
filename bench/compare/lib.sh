# Functions of the side-by-side benchmark (sourced by bench/side-by-side.sh, bench/client-floor.sh and
# selftest.sh). Results are "key<TAB>value" lines, one file per broker; print_table joins two such files.

# The G1 flags of Kafka's kafka-run-class.sh, for its broker and its perf tools alike.
# shellcheck disable=SC2034 # used by the scripts that source this file
KAFKA_JVM="-XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true"
COMPARE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# tool CLASS ARGS...: a Kafka 4.4.0 main class from $LIBS in a JVM of its own, with the perf tool scripts'
# settings (512 MB heap, KAFKA_JVM), warnings only, killed after RUN_TIMEOUT_S (600); PROBE, when set, is
# on the class path too.
tool() {
  # shellcheck disable=SC2086
  timeout -k 10 "${RUN_TIMEOUT_S:-600}" java -Xmx512M $KAFKA_JVM \
    -Dlog4j2.configurationFile="$COMPARE_DIR/log4j2-tools.xml" -cp "$LIBS/*${PROBE:+:$PROBE}" "$@"
}

# Kafka's stock broker heap (kafka-server-start.sh).
# shellcheck disable=SC2034
KAFKA_HEAP="-Xmx1G -Xms1G"

# fetch_kafka CACHE LIBS LOG: Apache Kafka 4.4.0 (broker, tools, clients, a log4j2 binding) from Maven
# Central into LIBS through kafka-pom.xml, unless it is there; mvn -o with SPOOL_BENCH_OFFLINE=1
# (MAVEN_OPTS reaches mvn, e.g. -Dmaven.repo.local=DIR). Output to LOG; status 1 on failure.
fetch_kafka() {
  [ -f "$2/kafka_2.13-4.4.0.jar" ] && [ -f "$2/kafka-tools-4.4.0.jar" ] && return 0
  mkdir -p "$2"
  (cd "$1" && mvn -q -B ${SPOOL_BENCH_OFFLINE:+-o} -Dstyle.color=never -f "$COMPARE_DIR/kafka-pom.xml" \
      dependency:copy-dependencies -DoutputDirectory="$2" -DincludeScope=runtime) >"$3" 2>&1
}

# build_probes LIBS DIR: the probes (*Probe.java here) compiled into DIR against LIBS when a source is
# newer than its class.
build_probes() {
  local src
  for src in "$COMPARE_DIR"/*Probe.java; do
    if [ "$src" -nt "$2/$(basename "$src" .java).class" ]; then
      mkdir -p "$2" && javac -nowarn -cp "$1/*" -d "$2" "$COMPARE_DIR"/*Probe.java
      return
    fi
  done
}

# snapshot_spool ROOT HOME: a copy of ROOT's built broker (bin/spool, broker/target) in HOME, so that a
# rebuild during a run changes nothing under it; same place and file times for the same build, so that
# bin/spool's class-data archive of the build is reused. (The build is reproducible: a rebuild of
# unchanged sources gives the same bytes, which are not copied again.) Builds ROOT first when it is not.
snapshot_spool() {
  local root="$1" home="$2" jar
  if ! ls "$root"/broker/target/spool-broker-*.jar >/dev/null 2>&1 || [ ! -d "$root/broker/target/lib" ]; then
    (cd "$root" && mvn -B -q ${SPOOL_BENCH_OFFLINE:+-o} -DskipTests -pl broker -am install) || return 1
  fi
  mkdir -p "$home/bin" "$home/broker/target/lib"
  jar="$(ls "$root"/broker/target/spool-broker-*.jar | grep -v -e sources -e javadoc | head -n 1)"
  same_files "$home/bin" "$root/bin/spool" || { rm -f "$home"/bin/*; cp "$root/bin/spool" "$home/bin/"; }
  same_files "$home/broker/target/lib" "$root"/broker/target/lib/*.jar \
    || { rm -f "$home"/broker/target/lib/*; cp "$root"/broker/target/lib/*.jar "$home/broker/target/lib/"; }
  cmp -s "$jar" "$home/broker/target/$(basename "$jar")" \
    || { rm -f "$home"/broker/target/*.jar; cp "$jar" "$home/broker/target/"; }
}

same_files() { # same_files DIR FILES...: DIR holds exactly FILES' names with the same bytes
  [ "$(ls "$1" | sort)" = "$(shift; for f in "$@"; do basename "$f"; done | sort)" ] || return 1
  local d="$1" f; shift
  for f in "$@"; do cmp -s "$f" "$d/$(basename "$f")" || return 1; done
}

# ports_free PORT...: status 1, naming it on stderr, when something listens on one of them on 127.0.0.1.
ports_free() {
  local p
  for p in "$@"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "port 127.0.0.1:$p is in use" >&2; return 1; fi
  done
}

# stop_pid PID [GRACE_S]: SIGTERM, then SIGKILL after GRACE_S (60); nothing when PID is empty or gone.
# Status 1 when it took SIGKILL.
stop_pid() {
  local pid="$1" i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for i in $(seq 1 $((${2:-60} * 10))); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  return 1
}

# kafka_prepare DIR PORT CONTROLLER_PORT: DIR/server.properties of a single KRaft node (broker and
# controller in one process, on 127.0.0.1, data in DIR/data), as the stock config but for the
# replication factors of one broker; DIR/data formatted unless it is already (output to DIR/format.log).
kafka_prepare() {
  local dir="$1" cid
  mkdir -p "$dir"
  cat >"$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$3
listeners=PLAINTEXT://127.0.0.1:$2,CONTROLLER://127.0.0.1:$3
advertised.listeners=PLAINTEXT://127.0.0.1:$2
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  [ -f "$dir/data/meta.properties" ] && return 0
  cid="$(tool kafka.tools.StorageTool random-uuid 2>/dev/null)" || return 1
  tool kafka.tools.StorageTool format -t "$cid" -c "$dir/server.properties" >"$dir/format.log" 2>&1
}

# kafka_server DIR: becomes (exec) the Kafka broker kafka_prepare set up in DIR, with the stock JVM
# settings; its log goes to DIR/server.log.
kafka_server() {
  # shellcheck disable=SC2086
  exec java $KAFKA_HEAP $KAFKA_JVM -Dlog4j2.configurationFile="$COMPARE_DIR/log4j2-kafka-server.xml" \
    -Dkafka.logs.dir="$1" -cp "$LIBS/*" kafka.Kafka "$1/server.properties"
}

# spool_server HOME PORT DATA [--override KEY=VALUE...]: becomes (exec) the Spool broker of HOME
# (bin/spool), on 127.0.0.1:PORT with its data in DATA.
spool_server() {
  exec "$1/bin/spool" server --override "listeners=PLAINTEXT://127.0.0.1:$2" --override "log.dirs=$3" "${@:4}"
}

# cds_mapped PID: 1 if the JVM PID maps bin/spool's class-data archive, else 0 (see bin/spool).
cds_mapped() { tr '\0' ' ' <"/proc/$1/cmdline" | grep -c SharedArchiveFile || true; }

# launch_served DIR BOOTSTRAP TIMEOUT_S CMD...: starts CMD, which must become the broker (exec), in the
# background (output appended to DIR/broker.out) and times it with StartupProbe (on PROBE): a warmed-up
# probe that sends Metadata from the launch on. The launch waits LAUNCH_SETTLE_S (3) after the probe's
# JVM start, so that the broker starts on a settled machine. Sets LAUNCHED_PID and SERVED_S (launch to
# first served request, s); status 1 when nothing is served within TIMEOUT_S (DIR/probe.log says why).
launch_served() {
  local dir="$1" bootstrap="$2" timeout_s="$3" fifo="$1/probe.fifo" probe_pid fd t0 t1
  shift 3
  rm -f "$fifo" && mkfifo "$fifo"
  tool StartupProbe "$bootstrap" "$timeout_s" <"$fifo" >"$dir/probe.log" 2>&1 &
  probe_pid=$!
  exec {fd}>"$fifo"
  for _ in $(seq 1 600); do
    grep -q '^WARM' "$dir/probe.log" || ! kill -0 "$probe_pid" 2>/dev/null && break
    sleep 0.1
  done
  if ! grep -q '^WARM' "$dir/probe.log"; then exec {fd}>&-; rm -f "$fifo"; return 1; fi
  sleep "${LAUNCH_SETTLE_S:-3}"
  t0="$(date +%s%3N)"
  "$@" >>"$dir/broker.out" 2>&1 </dev/null &
  LAUNCHED_PID=$!
  echo go >&"$fd"; exec {fd}>&-
  rm -f "$fifo"
  wait "$probe_pid" || return 1
  t1="$(awk '/^SERVED/{print $2}' "$dir/probe.log")"
  SERVED_S="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", (b - a) / 1000}')"
}

# parse_producer PREFIX LOG: the summary line ProducerPerformance prints for the whole run, e.g.
#   200000 records sent, 19998.0 records/sec (1.91 MB/sec), 3.10 ms avg latency, 250.00 ms max
#   latency, 2 ms 50th, 5 ms 95th, 31 ms 99th, 120 ms 99.9th.
# With --warmup-records it also prints "N steady state records sent, ..." for the records after the
# warm-up: those figures come out as PREFIX_steady_*.
parse_producer() {
  awk -v p="$1" '/records sent,/ && /99\.9th/ { if (/steady state/) steady = $0; else line = $0 }
    END {
      if (line == "") exit 1
      figures(p, line)
      if (steady != "") figures(p "_steady", steady)
    }
    function figures(p, line,    n, part, i, w, mb) {
      n = split(line, part, ", ")
      for (i = 1; i <= n; i++) {
        split(part[i], w, " ")
        if (part[i] ~ /records sent/) printf "%s_records\t%s\n", p, w[1]
        else if (part[i] ~ /records\/sec/) { mb = part[i]; sub(/.*\(/, "", mb); sub(/ MB.*/, "", mb)
          printf "%s_rps\t%s\n%s_mbs\t%s\n", p, w[1], p, mb }
        else if (part[i] ~ /avg latency/) printf "%s_avg_ms\t%s\n", p, w[1]
        else if (part[i] ~ /max latency/) printf "%s_max_ms\t%s\n", p, w[1]
        else if (part[i] ~ /50th/) printf "%s_p50_ms\t%s\n", p, w[1]
        else if (part[i] ~ /95th/) printf "%s_p95_ms\t%s\n", p, w[1]
        else if (part[i] ~ /99th/) printf "%s_p99_ms\t%s\n", p, w[1]
        else if (part[i] ~ /99\.9th/) printf "%s_p999_ms\t%s\n", p, w[1]
      }
    }' "$2"
}

# parse_consumer PREFIX LOG: ConsumerPerformance's CSV (header line, then one line of figures);
# columns found by their header names. _rps/_mbs include the group join; _fetch_* do not.
parse_consumer() {
  awk -v p="$1" -F', *' '
    $1 == "start.time" { for (i = 1; i <= NF; i++) col[$i] = i; next }
    ("nMsg.sec" in col) && NF >= 10 && $col["nMsg.sec"] ~ /^[0-9.]+$/ { row = $0 }
    END {
      if (row == "") exit 1
      split(row, f, ", *")
      printf "%s_records\t%s\n%s_mb\t%s\n", p, f[col["data.consumed.in.nMsg"]], p, f[col["data.consumed.in.MB"]]
      printf "%s_rps\t%s\n%s_mbs\t%s\n", p, f[col["nMsg.sec"]], p, f[col["MB.sec"]]
      printf "%s_fetch_rps\t%s\n%s_fetch_mbs\t%s\n", p, f[col["fetch.nMsg.sec"]], p, f[col["fetch.MB.sec"]]
      printf "%s_rebalance_ms\t%s\n", p, f[col["rebalance.time.ms"]]
    }' "$2"
}

# parse_client_metrics PREFIX LOG: from the client metrics a tool prints with --print-metrics
# ("group:name:{client-id=...}  : value"), the ones that show where a record's time went:
#   PREFIX_queue_ms             producer: time a record waits in its batch (linger.ms), avg
#   PREFIX_request_ms           producer: Produce round trip as the client sees it, avg
#   PREFIX_metadata_wait_ms     producer: time send() waited for the first metadata, in all
#   PREFIX_fetch_latency_ms     consumer: Fetch round trip, avg
#   PREFIX_io_wait_ratio        consumer: share of its time the client waited for the network
parse_client_metrics() {
  awk -v p="$1" -F' +: +' '
    function name(line) { sub(/:\{client-id=[^,}]*\}$/, "", line); return line }
    $2 !~ /^[0-9.]+$/ || $1 !~ /:\{client-id=[^,}]*\}$/ { next }
    { n = name($1) }
    n == "producer-metrics:record-queue-time-avg" { printf "%s_queue_ms\t%s\n", p, $2 }
    n == "producer-metrics:request-latency-avg" { printf "%s_request_ms\t%s\n", p, $2 }
    n == "producer-metrics:metadata-wait-time-ns-total" { printf "%s_metadata_wait_ms\t%.1f\n", p, $2 / 1e6 }
    n == "consumer-fetch-manager-metrics:fetch-latency-avg" { printf "%s_fetch_latency_ms\t%s\n", p, $2 }
    n == "consumer-metrics:io-wait-ratio" { printf "%s_io_wait_ratio\t%s\n", p, $2 }' "$2"
}

# pid_cpu_ticks PID: "ALL KERNEL": user+system and system clock ticks of every thread of PID so far
# (0 0 if gone).
pid_cpu_ticks() {
  if [ -r "/proc/$1/stat" ]; then sed 's/^.*) //' "/proc/$1/stat" | awk '{print $12 + $13, $13}'; else echo 0 0; fi
}

# machine_busy_ticks: user+nice+system+irq+softirq ticks of the whole machine.
machine_busy_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8; exit}' /proc/stat; }

# proc_kb PID FIELD: a kB figure of /proc/PID/status (VmRSS: resident set size, VmHWM: its peak), NA if gone.
proc_kb() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status" 2>/dev/null || echo NA; }
rss_kb() { proc_kb "$1" VmRSS; }

# kv FILE KEY: the value of KEY in FILE (empty when absent).
kv() { awk -F'\t' -v k="$2" '$1 == k {v = $2} END {print v}' "$1"; }

# print_trials KAFKA_TSV SPOOL_TSV KEY...: each KEY's trials (KEY_trials) for both brokers, a line each.
print_trials() {
  local k="$1" s="$2" key; shift 2
  for key in "$@"; do
    printf '%-18s Kafka %-34s Spool %s\n' "$key" "$(kv "$k" "${key}_trials")" "$(kv "$s" "${key}_trials")"
  done
}

# print_table KAFKA_TSV SPOOL_TSV ROWS: one row per figure, both brokers, ratio Spool/Kafka, target.
# A line of the file ROWS: key|label|unit|better|target, where better is "hi" (higher is better) or
# "lo", and target a ratio ("" = none).
print_table() {
  awk -F'\t' -v kafka="$1" -v spool="$2" -v rows="$3" '
    BEGIN {
      while ((getline l < kafka) > 0) { split(l, a, "\t"); K[a[1]] = a[2] }
      while ((getline l < spool) > 0) { split(l, a, "\t"); S[a[1]] = a[2] }
      n = 0
      while ((getline l < rows) > 0) {
        split(l, a, "|"); n++; key[n] = a[1]; label[n] = a[2]; unit[n] = a[3]; better[n] = a[4]; target[n] = a[5]
      }
      printf "%-40s %-6s %12s %12s %8s  %s\n", "figure", "unit", "Kafka 4.4.0", "Spool", "S/K", "target"
      for (i = 1; i <= n; i++) {
        k = key[i]; kv = K[k]; sv = S[k]; r = "NA"; verdict = ""
        if (kv ~ /^[0-9.]+$/ && sv ~ /^[0-9.]+$/ && kv + 0 > 0) {
          r = sprintf("%.2f", sv / kv)
          if (target[i] != "") {
            ok = (better[i] == "hi") ? (sv / kv >= target[i]) : (sv / kv <= target[i])
            verdict = (better[i] == "hi" ? ">= " : "<= ") target[i] (ok ? " met" : " MISSED")
          }
        } else if (target[i] != "") verdict = (better[i] == "hi" ? ">= " : "<= ") target[i]
        printf "%-40s %-6s %12s %12s %8s  %s\n", label[i], unit[i], fmt(kv), fmt(sv), r, verdict
      }
    }
    function fmt(v) {
      if (v !~ /^[0-9.]+$/) return (v == "" ? "NA" : v)
      if (v + 0 >= 1000) return sprintf("%.0f", v)
      if (v + 0 >= 10) return sprintf("%.1f", v)
      if (v + 0 < 0.1) return sprintf("%.3f", v)
      return sprintf("%.2f", v)
    }'
}

# fold_trials TRIAL_TSV...: for every key of the trials' files (one file a trial, in trial order),
# "key<TAB>median" and "key_trials<TAB>v1 v2 ..." (each trial's value, NA where a trial has none: its
# run failed). A median of an even count is the mean of the middle two.
fold_trials() {
  awk -F'\t' '
    FILENAME != file { file = FILENAME; for (i = 1; i < ARGC; i++) if (ARGV[i] == file) t = i }
    $2 ~ /^[0-9.]+$/ { if (!($1 in n)) order[++keys] = $1; v[$1, ++n[$1]] = $2 + 0; at[$1, t] = $2 }
    END {
      for (k = 1; k <= keys; k++) {
        key = order[k]; m = n[key]; shown = ""
        for (i = 1; i <= m; i++) s[i] = v[key, i]
        for (i = 2; i <= m; i++) for (j = i; j > 1 && s[j - 1] > s[j]; j--) { x = s[j]; s[j] = s[j - 1]; s[j - 1] = x }
        med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
        for (i = 1; i < ARGC; i++) shown = shown (i > 1 ? " " : "") (((key, i) in at) ? at[key, i] : "NA")
        printf "%s\t%.10g\n%s_trials\t%s\n", key, med, key, shown
      }
    }' "$@"
}
