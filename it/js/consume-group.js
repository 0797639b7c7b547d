// A kafkajs consumer in group argv[4] reads topic argv[3] on the broker argv[2] from the committed
// offsets (earliest when none) until it has argv[5] records, commits each one as it goes, leaves the
// group and prints what it read as JSON: [{partition, offset, value}].
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const [broker, topic, groupId, wanted] = [process.argv[2], process.argv[3], process.argv[4], Number(process.argv[5])];
  const kafka = new Kafka({ clientId: 'spool-it-kafkajs-consumer', brokers: [broker], logLevel: logLevel.WARN });
  const consumer = kafka.consumer({ groupId, sessionTimeout: 10000, heartbeatInterval: 500 });
  await consumer.connect();
  const seen = [];
  let done;
  const finished = new Promise((resolve) => { done = resolve; });
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      autoCommitThreshold: 1,
      eachMessage: async ({ partition, message }) => {
        seen.push({ partition, offset: Number(message.offset), value: message.value.toString() });
        if (seen.length >= wanted) {
          done();
        }
      },
    });
    let timer;
    const timeout = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`only ${seen.length} of ${wanted} records within 60 s`)), 60000);
    });
    try {
      await Promise.race([finished, timeout]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await consumer.disconnect();
  }
  console.log(JSON.stringify(seen));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
