"""librdkafka's transactional producer (through confluent-kafka-python, Debian's python3-confluent-kafka) against a
broker: commits two records, aborts one, commits a third, then prints a JSON summary. Usage:
transactional_producer.py BOOTSTRAP TOPIC TRANSACTIONAL_ID"""
import json
import sys

from confluent_kafka import Producer

bootstrap, topic, transactional_id = sys.argv[1:4]
producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": transactional_id,
                     "transaction.timeout.ms": 60000})
producer.init_transactions(30)
outcomes = {"committed": 0, "aborted": 0}
for values, commit in ((["rd-c1", "rd-c2"], True), (["rd-a1"], False), (["rd-c3"], True)):
    producer.begin_transaction()
    for value in values:
        producer.produce(topic, value=value.encode())
    producer.flush(30)
    if commit:
        producer.commit_transaction(30)
        outcomes["committed"] += 1
    else:
        producer.abort_transaction(30)
        outcomes["aborted"] += 1
print(json.dumps(outcomes))
