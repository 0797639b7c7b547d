// An idempotent kafkajs producer sends argv[4] records, one at a time, to the topic argv[3] on the
// brokers argv[2] (comma-separated), acks=-1, retrying for as long as a leader election takes, and prints
// "acked <value>" for each acknowledged one, so that a test can act while it runs.
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const [brokers, topic, count] = [process.argv[2].split(','), process.argv[3], Number(process.argv[4])];
  const kafka = new Kafka({
    clientId: 'spool-it-failover-producer', brokers, logLevel: logLevel.NOTHING,
    retry: { retries: 30, initialRetryTime: 200, maxRetryTime: 2000 },
  });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (let i = 0; i < count; i++) {
      const value = `js-${i}`;
      await producer.send({ topic, acks: -1, messages: [{ key: `key-${i}`, value }] });
      console.log(`acked ${value}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await producer.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
