// Produces keyed records with headers (a repeated header name, a null-free set kafkajs allows) to the
// topic argv[3] on the broker argv[2], acks=-1, gzip-compressed, and from an idempotent producer, and
// prints the offsets the broker assigned as JSON.
const { Kafka, logLevel, CompressionTypes } = require('kafkajs');

async function main() {
  const kafka = new Kafka({ clientId: 'spool-it-producer', brokers: [process.argv[2]], logLevel: logLevel.WARN });
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  try {
    const messages = [];
    for (let i = 0; i < 5; i++) {
      messages.push({ key: `key-${i}`, value: `value-${i}`, headers: { h: [`a${i}`, `b${i}`], single: 'x' } });
    }
    const plain = await producer.send({ topic: process.argv[3], acks: -1, messages });
    const gzipped = await producer.send({
      topic: process.argv[3], acks: -1, compression: CompressionTypes.GZIP,
      messages: [{ key: 'key-gz', value: 'value-gz' }],
    });
    const idempotentProducer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await idempotentProducer.connect();
    let idempotent;
    try {
      idempotent = await idempotentProducer.send({
        topic: process.argv[3], acks: -1, messages: [{ key: 'key-i0', value: 'value-i0' }, { key: 'key-i1', value: 'value-i1' }],
      });
    } finally {
      await idempotentProducer.disconnect();
    }
    console.log(JSON.stringify({ plain, gzipped, idempotent }));
  } finally {
    await producer.disconnect();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
