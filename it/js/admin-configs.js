// kafkajs admin against the broker argv[2] on a new topic argv[3]: creates it with a config, describes
// its configs and the broker's (DescribeConfigs), replaces its overrides with the legacy AlterConfigs
// (cleanup.policy=compact), produces 5 records to partition 0, tries to delete those below offset 2
// (DeleteRecords: refused on a compact-only topic, as by Kafka), makes the policy compact,delete, deletes
// them and fetches the topic's offsets (ListOffsets). Prints what it saw as JSON.
const { Kafka, logLevel, ConfigResourceTypes } = require('kafkajs');

async function main() {
  const [broker, topic] = [process.argv[2], process.argv[3]];
  const kafka = new Kafka({ clientId: 'spool-it-admin', brokers: [broker], logLevel: logLevel.WARN });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const created = await admin.createTopics({
      topics: [{ topic, numPartitions: 2, configEntries: [{ name: 'retention.ms', value: '100000' }] }],
    });
    const describe = () => admin.describeConfigs({
      includeSynonyms: true,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }, { type: ConfigResourceTypes.BROKER, name: '1' }],
    });
    const before = await describe();
    const alter = (cleanupPolicy) => admin.alterConfigs({
      validateOnly: false,
      resources: [{
        type: ConfigResourceTypes.TOPIC,
        name: topic,
        configEntries: [{ name: 'cleanup.policy', value: cleanupPolicy }, { name: 'max.message.bytes', value: '20000' }],
      }],
    });
    const deleteBelowTwo = () => admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: '2' }] });
    await alter('compact');
    const after = await describe();
    const producer = kafka.producer();
    await producer.connect();
    try {
      const messages = [0, 1, 2, 3, 4].map((i) => ({ key: `key-${i}`, value: `value-${i}`, partition: 0 }));
      await producer.send({ topic, acks: -1, messages });
    } finally {
      await producer.disconnect();
    }
    let refused = 'nothing';
    try {
      await deleteBelowTwo();
    } catch (error) {
      // kafkajs's retrier wraps the per-partition errors (KafkaJSDeleteTopicRecordsError) as the cause.
      const partitions = (error.cause || error).partitions;
      refused = partitions ? partitions.map(({ error: cause }) => cause.type).join(',') : String(error);
    }
    await alter('compact,delete');
    await deleteBelowTwo();
    const offsets = await admin.fetchTopicOffsets(topic);
    console.log(JSON.stringify({ created, before, after, offsets, refused }));
  } finally {
    await admin.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
