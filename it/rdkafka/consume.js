// A librdkafka consumer with KIP-848's group protocol (group.protocol=consumer) in group argv[4] reads topic argv[3]
// on the broker argv[2] from the committed offsets (earliest when none) until it has argv[5] records, commits the
// offsets after them synchronously, leaves the group and prints what it read as JSON: [{partition, offset, value}].
// librdkafka's version, its errors and the assignments it is given go to stderr.
const Kafka = require('node-rdkafka');

const [broker, topic, groupId, wanted] = [process.argv[2], process.argv[3], process.argv[4], Number(process.argv[5])];
const TIMEOUT_MS = 30000;

console.error(`librdkafka ${Kafka.librdkafkaVersion}`);
const consumer = new Kafka.KafkaConsumer({
  'bootstrap.servers': broker,
  'client.id': 'spool-it-librdkafka-consumer',
  'group.id': groupId,
  'group.protocol': 'consumer',
  'enable.auto.commit': false,
  // node-rdkafka then (un)assigns incrementally, as the consumer protocol requires, and emits 'rebalance'.
  'rebalance_cb': true,
}, { 'auto.offset.reset': 'earliest' });

const seen = [];
const timer = setTimeout(() => fail(new Error(`only ${seen.length} of ${wanted} records within ${TIMEOUT_MS} ms`)),
  TIMEOUT_MS);

function fail(error) {
  console.error(error);
  process.exit(1);
}

// The offset after the last record read of each partition: where the group resumes.
function nextOffsets() {
  const next = new Map();
  for (const record of seen) {
    next.set(record.partition, Math.max(next.get(record.partition) ?? 0, record.offset + 1));
  }
  return [...next].map(([partition, offset]) => ({ topic, partition, offset }));
}

function finish() {
  clearTimeout(timer);
  try {
    consumer.commitSync(nextOffsets());
  } catch (error) {
    fail(error);
  }
  consumer.disconnect((error) => {
    if (error) {
      fail(error);
    }
    console.log(JSON.stringify(seen));
  });
}

function consumeRest() {
  consumer.consume(wanted - seen.length, (error, records) => {
    if (error) {
      fail(error);
    }
    for (const record of records) {
      seen.push({ partition: record.partition, offset: record.offset, value: record.value.toString() });
    }
    if (seen.length >= wanted) {
      finish();
    } else {
      setImmediate(consumeRest);
    }
  });
}

consumer.on('event.error', (error) => console.error(`error: ${error.message} (${error.code})`));
consumer.on('rebalance', (event, partitions) =>
  console.error(`rebalance: ${event.message} ${JSON.stringify(partitions.map((p) => p.partition))}`));
consumer.on('ready', () => {
  consumer.subscribe([topic]);
  consumeRest();
});
consumer.connect({}, (error) => {
  if (error) {
    fail(error);
  }
});
