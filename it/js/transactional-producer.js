// A transactional kafkajs producer (transactional id argv[3]) connects to the broker argv[2] and starts a
// transaction. The broker has no transaction coordinator, so this must fail, and fail soon: prints
// {failed, type, retriable, elapsedMs, message} as JSON and exits 0 when it did, exits 2 when it did not.
// (kafkajs reports any FindCoordinator error but COORDINATOR_NOT_AVAILABLE, which it retries, as
// KafkaJSGroupCoordinatorNotFound: it drops the broker's error.)
const { Kafka, logLevel } = require('kafkajs');

async function main() {
  const [broker, transactionalId] = [process.argv[2], process.argv[3]];
  const kafka = new Kafka({ clientId: 'spool-it-transactional', brokers: [broker], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ transactionalId, idempotent: true, maxInFlightRequests: 1 });
  const started = Date.now();
  try {
    await producer.connect();
    const transaction = await producer.transaction();
    await transaction.abort();
  } catch (error) {
    console.log(JSON.stringify({
      failed: true, type: error.type || error.name, retriable: error.retriable, elapsedMs: Date.now() - started,
      message: error.message,
    }));
    return;
  } finally {
    await producer.disconnect();
  }
  console.log('the transactional producer connected and began a transaction');
  process.exit(2);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
