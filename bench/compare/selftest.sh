#!/usr/bin/env bash
# bench/compare/selftest.sh: checks, in a second, that the side-by-side benchmark reads the perf
# tools' output and prints its table (saved tool output in testdata/; no broker, no Kafka jars).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/lib.sh"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "selftest: $*" >&2; exit 1; }
expect() { # expect FILE KEY VALUE
  [ "$(kv "$1" "$2")" = "$3" ] || fail "$2: expected '$3', got '$(kv "$1" "$2")'"
}

parse_producer c "$HERE/testdata/producer.log" >"$TMP/p.tsv" || fail "producer line not found"
expect "$TMP/p.tsv" c_records 20000
expect "$TMP/p.tsv" c_rps 11280.315849
expect "$TMP/p.tsv" c_mbs 1.08
expect "$TMP/p.tsv" c_avg_ms 197.21
expect "$TMP/p.tsv" c_max_ms 1163.00
expect "$TMP/p.tsv" c_p50_ms 202
expect "$TMP/p.tsv" c_p99_ms 376
expect "$TMP/p.tsv" c_p999_ms 376

parse_producer c "$HERE/testdata/producer-warmup.log" >"$TMP/w.tsv" || fail "producer lines with warm-up not found"
expect "$TMP/w.tsv" c_records 30000
expect "$TMP/w.tsv" c_p99_ms 54
expect "$TMP/w.tsv" c_steady_records 20000
expect "$TMP/w.tsv" c_steady_p99_ms 11
expect "$TMP/w.tsv" c_steady_p999_ms 16
[ -z "$(kv "$TMP/p.tsv" c_steady_p99_ms)" ] || fail "steady-state figures from a run without warm-up"

parse_consumer d "$HERE/testdata/consumer.log" >"$TMP/c.tsv" || fail "consumer figures not found"
expect "$TMP/c.tsv" d_records 270000
expect "$TMP/c.tsv" d_mb 68.6646
expect "$TMP/c.tsv" d_rps 57692.3077
expect "$TMP/c.tsv" d_mbs 14.6719
expect "$TMP/c.tsv" d_fetch_mbs 41.0428
expect "$TMP/c.tsv" d_rebalance_ms 3007

parse_client_metrics c "$HERE/testdata/producer-metrics.log" >"$TMP/pm.tsv"
expect "$TMP/pm.tsv" c_queue_ms 5.041
expect "$TMP/pm.tsv" c_request_ms 1.027
expect "$TMP/pm.tsv" c_metadata_wait_ms 257.8
[ "$(grep -c request_ms "$TMP/pm.tsv")" = 1 ] || fail "a per-node metric was read as the client's"
parse_producer c "$HERE/testdata/producer-metrics.log" >"$TMP/pp.tsv" || fail "producer summary beside metrics not found"
expect "$TMP/pp.tsv" c_p99_ms 10
expect "$TMP/pp.tsv" c_steady_p99_ms 8
parse_client_metrics d "$HERE/testdata/consumer-metrics.log" >"$TMP/cm.tsv"
expect "$TMP/cm.tsv" d_fetch_latency_ms 7.397
expect "$TMP/cm.tsv" d_io_wait_ratio 0.007
parse_consumer d "$HERE/testdata/consumer-metrics.log" >"$TMP/cc.tsv" || fail "consumer figures beside metrics not found"
expect "$TMP/cc.tsv" d_rps 1245556.7343

read -r all kernel < <(pid_cpu_ticks $$)
[ "$all" -ge "$kernel" ] && [ "$kernel" -ge 0 ] || fail "pid_cpu_ticks: '$all $kernel'"
[ "$(pid_cpu_ticks 999999999)" = "0 0" ] || fail "pid_cpu_ticks of no process: '$(pid_cpu_ticks 999999999)'"

echo "no summary here" >"$TMP/empty.log"
if parse_producer x "$TMP/empty.log" >/dev/null; then fail "a log without a summary line parsed"; fi
if parse_consumer x "$TMP/empty.log" >/dev/null; then fail "a log without figures parsed"; fi

printf 'c_p99_ms\t100\nd_rps\t1000\nstartup_s\t5\n' >"$TMP/k.tsv"
printf 'c_p99_ms\t40\nd_rps\t1200\n' >"$TMP/s.tsv"
printf '%s\n' 'startup_s|start-up to first served request|s|lo|0.1' 'rss_after_mb|resident memory|MB|lo|' \
  'c_p99_ms|c) latency p99|ms|lo|0.5' 'd_rps|d) consumer, everything back|rec/s|hi|1.3' >"$TMP/rows"
print_table "$TMP/k.tsv" "$TMP/s.tsv" "$TMP/rows" >"$TMP/table.txt"
grep -Eq '^c\) latency p99 +ms +100\.0 +40\.0 +0\.40  <= 0\.5 met$' "$TMP/table.txt" || fail "p99 row: $(grep p99 "$TMP/table.txt")"
grep -Eq '^d\) consumer, everything back +rec/s +1000 +1200 +1\.20  >= 1\.3 MISSED$' "$TMP/table.txt" \
  || fail "consumer row: $(grep 'rec/s' "$TMP/table.txt" | head -3)"
grep -Eq '^start-up to first served request +s +5\.00 +NA +NA  <= 0\.1$' "$TMP/table.txt" || fail "missing figure row"
grep -Eq '^resident memory +MB +NA +NA +NA  $' "$TMP/table.txt" || fail "row without target: $(grep resident "$TMP/table.txt")"
[ "$(wc -l <"$TMP/table.txt")" = 5 ] || fail "table: a header and the 4 rows expected, got $(cat "$TMP/table.txt")"
printf 'c_p99_ms\t19\nstartup_s\t2.4\n' >"$TMP/t1.tsv"
printf 'c_p99_ms\t17\nstartup_s\t2.2\nd_rps\t900\n' >"$TMP/t2.tsv"
printf 'c_p99_ms\t48\nstartup_s\t2.6\nd_rps\t1000\n' >"$TMP/t3.tsv"
fold_trials "$TMP/t1.tsv" "$TMP/t2.tsv" "$TMP/t3.tsv" >"$TMP/m.tsv"
expect "$TMP/m.tsv" c_p99_ms 19
expect "$TMP/m.tsv" c_p99_ms_trials "19 17 48"
expect "$TMP/m.tsv" startup_s 2.4
expect "$TMP/m.tsv" d_rps 950
printf 'd_rps\t1204405.4416\n' >"$TMP/big.tsv"
fold_trials "$TMP/big.tsv" >"$TMP/bm.tsv"
expect "$TMP/bm.tsv" d_rps 1204405.442
expect "$TMP/m.tsv" d_rps_trials "NA 900 1000"
: >"$TMP/t4.tsv" # a trial whose run failed wrote nothing
fold_trials "$TMP/t1.tsv" "$TMP/t4.tsv" "$TMP/t3.tsv" >"$TMP/f.tsv"
expect "$TMP/f.tsv" c_p99_ms 33.5
expect "$TMP/f.tsv" c_p99_ms_trials "19 NA 48"
echo "bench/compare/selftest.sh: ok"
