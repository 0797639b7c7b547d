// Connects a kafkajs admin client to the broker given as argv[2] and prints what it sees as JSON.
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const kafka = new Kafka({ clientId: 'spool-it', brokers: [process.argv[2]], logLevel: logLevel.WARN });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    const cluster = await admin.describeCluster();
    console.log(JSON.stringify({ topics, cluster }));
  } finally {
    await admin.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
