#!/usr/bin/env bash
# Starts one real Apache Kafka 4.4.0 broker (KRaft: broker and controller in one process) on
# 127.0.0.1 from the Maven Central jars, in the background. Idempotent: a broker that answers is
# reused. "Running" means answering on its port: a broker killed with SIGKILL can linger as a
# zombie that kill -0 calls alive (PID 1 here does not reap orphans promptly), so the pid alone
# never decides.
#
#   deploy/start-kafka.sh [--port 9092] [--controller-port 9093] [--dir target/local-kafka]
#
# Prints the bootstrap address on stdout when the broker answers. Stop it with deploy/stop-kafka.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
port=9092
cport=9093
dir="$root/target/local-kafka"
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --controller-port) cport="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    *) echo "start-kafka: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
log="$dir/broker.log"

. "$here/process-lib.sh"
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if [ -f "$dir/broker.pid" ]; then
  pid="$(cat "$dir/broker.pid")"
  if alive "$pid" && [ -f "$dir/port" ] && answers "$(cat "$dir/port")"; then
    echo "127.0.0.1:$(cat "$dir/port")"
    exit 0
  fi
  # Not answering: dead, a zombie, or hung. Not reused; a new broker takes its place on the same data.
  if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -f "$dir/broker.pid"
fi

classpath_file="$root/target/local-kafka-classpath.txt"
if [ ! -s "$classpath_file" ]; then
  echo "start-kafka: resolving the Kafka 4.4.0 broker from Maven Central (first time only) ..." >&2
  quiet_mvn -f "$here/kafka/pom.xml" dependency:build-classpath -Dmdep.outputFile="$classpath_file"
fi
cp="$(cat "$classpath_file")"

cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
group.streams.initial.rebalance.delay.ms=0
log.cleaner.dedupe.buffer.size=2097152
auto.create.topics.enable=false
PROPS

if [ ! -f "$dir/data/meta.properties" ]; then
  java -cp "$cp" kafka.tools.StorageTool format --standalone -t "$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null)" \
    -c "$dir/server.properties" > "$dir/format.log" 2>&1 || { cat "$dir/format.log" >&2; exit 1; }
fi

nohup java -Xmx512m -XX:+UseSerialGC -cp "$cp" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn kafka.Kafka "$dir/server.properties" \
  > "$log" 2>&1 &
echo $! > "$dir/broker.pid"
echo "$port" > "$dir/port"

await_answer "$dir/broker.pid" "$port" "$log" "start-kafka: the broker" 60
echo "127.0.0.1:$port"
