// On the broker argv[2], creates topic argv[3], produces 6 records to partition 0 with timestamps
// 1000..1005 and asks kafkajs admin (ListOffsets v3, read_committed) for the offsets of the topic and
// for the first offset at or after times 1003 and 5000. Prints what it saw as JSON.
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const [broker, topic] = [process.argv[2], process.argv[3]];
  const kafka = new Kafka({ clientId: 'spool-it-offsets', brokers: [broker], logLevel: logLevel.WARN });
  const admin = kafka.admin();
  await admin.connect();
  const producer = kafka.producer();
  await producer.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    const messages = [];
    for (let i = 0; i < 6; i++) {
      messages.push({ partition: 0, key: `key-${i}`, value: `value-${i}`, timestamp: `${1000 + i}` });
    }
    await producer.send({ topic, acks: -1, messages });
    const offsets = await admin.fetchTopicOffsets(topic);
    const at1003 = await admin.fetchTopicOffsetsByTimestamp(topic, 1003);
    const at5000 = await admin.fetchTopicOffsetsByTimestamp(topic, 5000);
    console.log(JSON.stringify({ offsets, at1003, at5000 }));
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
