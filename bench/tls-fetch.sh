#!/usr/bin/env bash
# bench/tls-fetch.sh: consumer throughput over TLS and over PLAINTEXT, Apache Kafka 4.4.0 and Spool on this
# machine, one broker at a time, with Kafka's ConsumerPerformance (BENCHMARKS.md, "TLS"). Each broker gets
# RECORDS x 1000 B on 6 partitions (ProducerPerformance, PLAINTEXT, acks=1), then TRIALS reads of everything
# over each listener, alternating; prints the median MB/s of each and the ratios.
#
# Env: SPOOL_BENCH_CACHE (default /tmp/spool-bench: Kafka jars, results), RECORDS (300000), TRIALS (3),
#      KAFKA_PORT (19192; controller +1, TLS +2), SPOOL_PORT (19292; TLS +1).
# Both brokers listen on 127.0.0.1 only and keep their data under the run's directory.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=compare/lib.sh
. "$HERE/compare/lib.sh"

CACHE="${SPOOL_BENCH_CACHE:-/tmp/spool-bench}"
LIBS="$CACHE/kafka-4.4.0/libs"
OUT="$CACHE/results/tls-$(date -u +%Y%m%dT%H%M%SZ)"
RECORDS="${RECORDS:-300000}"; TRIALS="${TRIALS:-3}"
KAFKA_PORT="${KAFKA_PORT:-19192}"; KAFKA_TLS_PORT=$((KAFKA_PORT + 2))
SPOOL_PORT="${SPOOL_PORT:-19292}"; SPOOL_TLS_PORT=$((SPOOL_PORT + 1))
PASS=bench-secret
mkdir -p "$OUT/kafka" "$OUT/spool" "$OUT/tools" "$OUT/tls"
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/run.log" >&2; }
die() { log "FAILED: $*"; exit 1; }
PID=""
trap 'stop_pid "$PID" || true' EXIT

fetch_kafka "$CACHE" "$LIBS" "$OUT/fetch.log" || die "could not fetch Kafka 4.4.0 (see $OUT/fetch.log)"
SPOOL_HOME="$CACHE/spool-home"
snapshot_spool "$ROOT" "$SPOOL_HOME" >"$OUT/build.log" 2>&1 || die "build (see $OUT/build.log)"
ports_free "$KAFKA_PORT" $((KAFKA_PORT + 1)) "$KAFKA_TLS_PORT" "$SPOOL_PORT" "$SPOOL_TLS_PORT" || die "a port is in use"

# A test authority, the brokers' key (CN=localhost, 127.0.0.1) and the clients' trust store, all PKCS12.
kt() { keytool "$@" >>"$OUT/tls/keytool.log" 2>&1 || die "keytool $* (see $OUT/tls/keytool.log)"; }
(cd "$OUT/tls" || exit 1
  kt -genkeypair -alias ca -dname "CN=Bench CA" -keyalg EC -groupname secp256r1 -validity 2 -ext bc:c \
    -keystore ca.p12 -storetype PKCS12 -storepass $PASS
  kt -exportcert -alias ca -keystore ca.p12 -storepass $PASS -rfc -file ca.pem
  kt -importcert -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass $PASS -noprompt
  kt -genkeypair -alias server -dname CN=localhost -keyalg EC -groupname secp256r1 -validity 2 \
    -keystore server.p12 -storetype PKCS12 -storepass $PASS
  kt -certreq -alias server -keystore server.p12 -storepass $PASS -file server.csr
  kt -gencert -alias ca -keystore ca.p12 -storepass $PASS -infile server.csr -outfile server.pem -rfc \
    -ext SAN=ip:127.0.0.1,dns:localhost
  kt -importcert -alias ca -file ca.pem -keystore server.p12 -storepass $PASS -noprompt
  kt -importcert -alias server -file server.pem -keystore server.p12 -storepass $PASS -noprompt)
TLS_SERVER="ssl.keystore.type=PKCS12 ssl.keystore.location=$OUT/tls/server.p12 ssl.keystore.password=$PASS"
printf 'security.protocol=SSL\nssl.truststore.type=PKCS12\nssl.truststore.location=%s\nssl.truststore.password=%s\n' \
  "$OUT/tls/truststore.p12" "$PASS" >"$OUT/tls/client.properties"
: >"$OUT/tls/plaintext.properties"

# read_all NAME LISTENER PORT TRIAL: one ConsumerPerformance read of every record; its MB/s to NAME.tsv.
read_all() {
  local log="$OUT/tools/$1-$2-$4.log"
  tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "127.0.0.1:$3" --topic bench \
    --num-records "$RECORDS" --group "bench-$2-$4" --timeout 30000 --command-config "$OUT/tls/$2.properties" \
    >"$log" 2>&1 || log "$1 $2: consumer exited with an error (see $log)"
  parse_consumer "$2" "$log" | awk -F'\t' -v l="$2" '$1 == l "_fetch_mbs" {print}' >>"$OUT/$1.tsv"
  log "$1 $2 trial $4: $(tail -1 "$OUT/$1.tsv" | cut -f2) MB/s"
}

# measure NAME PLAIN_PORT TLS_PORT: fills the broker, then reads everything TRIALS times over each listener.
measure() {
  tool org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$2" --create --topic bench \
    --partitions 6 --replication-factor 1 >"$OUT/$1/topics.log" 2>&1 || die "$1: create topic"
  tool org.apache.kafka.tools.ProducerPerformance --bootstrap-server "127.0.0.1:$2" --topic bench \
    --num-records "$RECORDS" --record-size 1000 --throughput -1 --command-property acks=1 \
    >"$OUT/tools/$1-fill.log" 2>&1 || die "$1: fill (see $OUT/tools/$1-fill.log)"
  cat "$OUT/$1"/data/bench-*/*.log >/dev/null # reads from the page cache, as in side-by-side.sh's d
  local trial
  for trial in $(seq 1 "$TRIALS"); do
    read_all "$1" plaintext "$2" "$trial"
    read_all "$1" client "$3" "$trial"
  done
}

wait_served() { # wait_served PORT: until something listens there (120 s)
  for _ in $(seq 1 1200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

log "Kafka 4.4.0: PLAINTEXT :$KAFKA_PORT, TLS :$KAFKA_TLS_PORT"
kafka_prepare "$OUT/kafka" "$KAFKA_PORT" $((KAFKA_PORT + 1)) || die "kafka storage format"
sed -i -e "s#^listeners=.*#listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,SSL://127.0.0.1:$KAFKA_TLS_PORT,CONTROLLER://127.0.0.1:$((KAFKA_PORT + 1))#" \
  -e "s#^advertised.listeners=.*#advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,SSL://127.0.0.1:$KAFKA_TLS_PORT#" \
  -e "s#^listener.security.protocol.map=.*#listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL#" \
  "$OUT/kafka/server.properties"
tr ' ' '\n' <<<"$TLS_SERVER" >>"$OUT/kafka/server.properties"
kafka_server "$OUT/kafka" >"$OUT/kafka/broker.out" 2>&1 &
PID=$!
wait_served "$KAFKA_TLS_PORT" || die "Kafka did not listen (see $OUT/kafka/)"
measure kafka "$KAFKA_PORT" "$KAFKA_TLS_PORT"
stop_pid "$PID"; PID=""

log "Spool: PLAINTEXT :$SPOOL_PORT, TLS :$SPOOL_TLS_PORT"
overrides=(--override "listeners=PLAINTEXT://127.0.0.1:$SPOOL_PORT,SSL://127.0.0.1:$SPOOL_TLS_PORT")
for setting in $TLS_SERVER; do overrides+=(--override "$setting"); done
spool_server "$SPOOL_HOME" "$SPOOL_PORT" "$OUT/spool/data" "${overrides[@]}" >"$OUT/spool/broker.out" 2>&1 &
PID=$!
wait_served "$SPOOL_TLS_PORT" || die "Spool did not listen (see $OUT/spool/)"
measure spool "$SPOOL_PORT" "$SPOOL_TLS_PORT"
stop_pid "$PID"; PID=""

median() { awk -F'\t' -v k="$2" '$1 == k {print $2}' "$1" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
printf '\n| consumer, %s x 1000 B, MB/s (median of %s) | Spool | Kafka 4.4.0 | Spool / Kafka |\n| --- | --- | --- | --- |\n' \
  "$RECORDS" "$TRIALS"
for listener in plaintext client; do
  s="$(median "$OUT/spool.tsv" "${listener}_fetch_mbs")"; k="$(median "$OUT/kafka.tsv" "${listener}_fetch_mbs")"
  printf '| %s | %s | %s | %s |\n' "$([ $listener = client ] && echo TLS || echo PLAINTEXT)" "$s" "$k" \
    "$(awk -v s="$s" -v k="$k" 'BEGIN {printf "%.2f", s / k}')"
done
log "results in $OUT"
