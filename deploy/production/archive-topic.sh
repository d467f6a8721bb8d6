#!/usr/bin/env bash
# NOT EXERCISED BY THE TESTS: jolt.archive.v2 on tiered storage (brokers set up as in
# archive-broker.properties). Kept for ever (retention -1), a week of it on the brokers' disks, the
# rest in the remote store; LogAppendTime, so that "as of time T" is the broker's time index.
# Creates the topic, or moves an existing one to tiered storage (the same settings, altered).
set -euo pipefail
bootstrap="${1:?usage: archive-topic.sh BOOTSTRAP [--command-config client.properties]}"
shift
configs="remote.storage.enable=true,local.retention.ms=604800000,local.retention.bytes=-2,retention.ms=-1,retention.bytes=-1"
configs="$configs,cleanup.policy=delete,message.timestamp.type=LogAppendTime,min.insync.replicas=2"
if kafka-topics.sh --bootstrap-server "$bootstrap" "$@" --describe --topic jolt.archive.v2 >/dev/null 2>&1; then
  kafka-configs.sh --bootstrap-server "$bootstrap" "$@" --alter --entity-type topics --entity-name jolt.archive.v2 --add-config "$configs"
else
  # Partitions are for ever on a keyed topic (an identity's partition is murmur2(key) mod partitions): choose
  # the live side's count (jolt.topics.partitions) and do not change it later.
  kafka-topics.sh --bootstrap-server "$bootstrap" "$@" --create --topic jolt.archive.v2 --partitions 12 --replication-factor 3 \
    $(printf -- '--config %s ' ${configs//,/ })
fi
