// A transactional kafkajs producer (transactional id argv[4]) on the broker argv[2] writes to topic argv[3]: one
// transaction of "kafkajs-c1", "kafkajs-c2" that it commits, then one of "kafkajs-a1" that it aborts. Prints
// {committed, aborted} as JSON and exits 0 when both ended as asked; exits 1 on any error.
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const [broker, topic, transactionalId] = [process.argv[2], process.argv[3], process.argv[4]];
  const kafka = new Kafka({ clientId: 'spool-it-transactional', brokers: [broker], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ transactionalId, idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const committed = await producer.transaction();
    await committed.send({ topic, messages: [{ value: 'kafkajs-c1' }, { value: 'kafkajs-c2' }] });
    await committed.commit();
    const aborted = await producer.transaction();
    await aborted.send({ topic, messages: [{ value: 'kafkajs-a1' }] });
    await aborted.abort();
    console.log(JSON.stringify({ committed: 2, aborted: 1 }));
  } finally {
    await producer.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
