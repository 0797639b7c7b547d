// Over SASL_SSL with SCRAM (argv: broker, topic, mechanism such as scram-sha-512, user, password, CA file):
// produces three records, reads them back in a group and prints them as JSON.
const fs = require('fs');
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const [broker, topic, mechanism, username, password, ca] = process.argv.slice(2);
  const kafka = new Kafka({
    clientId: 'spool-it-sasl', brokers: [broker], logLevel: logLevel.WARN,
    ssl: { ca: [fs.readFileSync(ca, 'utf-8')] },
    sasl: { mechanism, username, password },
  });
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: `${topic}-group` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const values = [];
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${values.length} records in 60 s`)), 60000);
    consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value.toString());
        if (values.length === 3) {
          clearTimeout(timer);
          resolve();
        }
      },
    }).catch(reject);
  });
  await consumer.disconnect();
  console.log(JSON.stringify(values));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
