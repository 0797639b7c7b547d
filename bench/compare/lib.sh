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

# rss_kb PID: resident set size in kB.
rss_kb() { awk '/^VmRSS:/{print $2}' "/proc/$1/status" 2>/dev/null || echo NA; }

# kv FILE KEY: the value of KEY in FILE (empty when absent).
kv() { awk -F'\t' -v k="$2" '$1 == k {v = $2} END {print v}' "$1"; }

# print_trials KAFKA_TSV SPOOL_TSV KEY...: each KEY's trials (KEY_trials) for both brokers, a line each.
print_trials() {
  local k="$1" s="$2" key; shift 2
  for key in "$@"; do
    printf '%-18s Kafka %-34s Spool %s\n' "$key" "$(kv "$k" "${key}_trials")" "$(kv "$s" "${key}_trials")"
  done
}

# print_table KAFKA_TSV SPOOL_TSV: one row per figure, both brokers, ratio Spool/Kafka, target.
# A row: key, label, unit, "hi" (higher is better) or "lo", target ratio ("" = none).
print_table() {
  awk -F'\t' -v kafka="$1" -v spool="$2" '
    BEGIN {
      while ((getline l < kafka) > 0) { split(l, a, "\t"); K[a[1]] = a[2] }
      while ((getline l < spool) > 0) { split(l, a, "\t"); S[a[1]] = a[2] }
      n = 0
      row("startup_s", "start-up to first served request", "s", "lo", 0.1)
      row("rss_idle_mb", "resident memory, idle", "MB", "lo", 0.25)
      row("rss_after_mb", "resident memory, after the run", "MB", "lo", "")
      row("a_rps", "a) 100 B acks=1 unthrottled", "rec/s", "hi", 1.3)
      row("a_mbs", "a) 100 B acks=1 unthrottled", "MB/s", "hi", 1.3)
      row("a_cpu_s", "a) broker CPU", "s", "lo", 0.5)
      row("a_kernel_cpu_s", "a) broker CPU, of it in the kernel", "s", "lo", "")
      row("b_rps", "b) 1000 B acks=all unthrottled", "rec/s", "hi", 1.3)
      row("b_mbs", "b) 1000 B acks=all unthrottled", "MB/s", "hi", 1.3)
      row("b_cpu_s", "b) broker CPU", "s", "lo", 0.5)
      row("b_kernel_cpu_s", "b) broker CPU, of it in the kernel", "s", "lo", "")
      row("c_rps", "c) 100 B acks=all at fixed rate", "rec/s", "", "")
      row("c_avg_ms", "c) latency avg", "ms", "lo", "")
      row("c_p50_ms", "c) latency p50", "ms", "lo", "")
      row("c_p99_ms", "c) latency p99", "ms", "lo", 0.5)
      row("c_p999_ms", "c) latency p99.9", "ms", "lo", "")
      row("c_steady_p99_ms", "c) p99 after the first 10% (warm-up)", "ms", "lo", "")
      row("c_steady_p999_ms", "c) p99.9 after the first 10% (warm-up)", "ms", "lo", "")
      row("c_cpu_s", "c) broker CPU", "s", "lo", 0.5)
      row("c_kernel_cpu_s", "c) broker CPU, of it in the kernel", "s", "lo", "")
      row("c_queue_ms", "c) client: record waits in batch, avg", "ms", "lo", "")
      row("c_request_ms", "c) client: Produce round trip, avg", "ms", "lo", "")
      row("c_metadata_wait_ms", "c) client: first send waits for metadata", "ms", "lo", "")
      row("c0_p50_ms", "c0) as c, linger.ms=0: latency p50", "ms", "lo", "")
      row("c0_p99_ms", "c0) as c, linger.ms=0: latency p99", "ms", "lo", "")
      row("c0_p999_ms", "c0) as c, linger.ms=0: latency p99.9", "ms", "lo", "")
      row("c0_steady_p99_ms", "c0) p99 after the first 10% (warm-up)", "ms", "lo", "")
      row("c0_request_ms", "c0) client: Produce round trip, avg", "ms", "lo", "")
      row("c0_cpu_s", "c0) broker CPU", "s", "lo", "")
      row("d_rps", "d) consumer, everything back", "rec/s", "hi", 1.3)
      row("d_mbs", "d) consumer, everything back", "MB/s", "hi", 1.3)
      row("d_fetch_mbs", "d) consumer, without group join", "MB/s", "hi", "")
      row("d_fetch_latency_ms", "d) client: Fetch round trip, avg", "ms", "lo", "")
      row("d_io_wait_ratio", "d) client: time waiting on network", "share", "lo", "")
      row("d_cpu_s", "d) broker CPU", "s", "lo", 0.5)
      row("d_kernel_cpu_s", "d) broker CPU, of it in the kernel", "s", "lo", "")
      row("e_producer_rps", "e) fan-out: producer", "rec/s", "hi", "")
      row("e_consumer_min_rps", "e) fan-out: slowest of 4 groups", "rec/s", "hi", "")
      row("e_delivered_rps", "e) fan-out: records delivered", "rec/s", "hi", "")
      row("e_cpu_s", "e) broker CPU", "s", "lo", 0.5)
      row("e_kernel_cpu_s", "e) broker CPU, of it in the kernel", "s", "lo", "")
      row("cpu_s_per_gb", "broker CPU per GB produced+consumed", "s/GB", "lo", 0.5)
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
    function row(k, l, u, b, t) { n++; key[n] = k; label[n] = l; unit[n] = u; better[n] = b; target[n] = t }
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
