#!/usr/bin/env bash
# Starts one real Apache Kafka Connect 4.4.0 worker (distributed mode, exactly-once source support
# enabled) from the Maven Central jars, in the background, with the jolt sync connector's plugin
# directory on its plugin.path. Needs a broker (deploy/start-kafka.sh) and the plugin, which the
# build makes: mvn -B package -DskipTests (target/jolt-stream-*-connect-plugin/).
#
#   deploy/start-connect.sh --bootstrap 127.0.0.1:9092 [--port 8083] [--dir target/local-connect]
#                           [--plugin-path DIR] [--group jolt-connect] [--jvm-option OPT ...]
#
# Prints the worker's REST URL on stdout when it answers. Stop it with deploy/stop-connect.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
bootstrap=""
port=8083
dir="$root/target/local-connect"
plugin_path=""
group="jolt-connect"
jvm_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bootstrap) bootstrap="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --plugin-path) plugin_path="$2"; shift 2 ;;
    --group) group="$2"; shift 2 ;;
    --jvm-option) jvm_options+=("$2"); shift 2 ;;
    *) echo "start-connect: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$bootstrap" ] || { echo "start-connect: --bootstrap HOST:PORT is required" >&2; exit 2; }
if [ -z "$plugin_path" ]; then
  plugin_path="$(ls -d "$root"/target/jolt-stream-*-connect-plugin 2>/dev/null | head -1 || true)"
  [ -n "$plugin_path" ] || { echo "start-connect: no plugin under target/; build it first: mvn -B package -DskipTests" >&2; exit 1; }
fi
mkdir -p "$dir"
log="$dir/worker.log"
. "$here/process-lib.sh"
# Answers when GET / is 200 (the REST server is up and the worker has started), without curl.
answers() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && head -1 <&3 | grep -q ' 200') 2>/dev/null
}

if [ -f "$dir/worker.pid" ] && alive "$(cat "$dir/worker.pid")" && answers "$port"; then
  echo "http://127.0.0.1:$port"
  exit 0
fi

classpath_file="$root/target/local-connect-classpath.txt"
if [ ! -s "$classpath_file" ]; then
  echo "start-connect: resolving the Kafka Connect 4.4.0 worker from Maven Central (first time only) ..." >&2
  quiet_mvn -f "$here/connect/pom.xml" dependency:build-classpath -Dmdep.outputFile="$classpath_file"
fi

cat > "$dir/worker.properties" <<PROPS
bootstrap.servers=$bootstrap
group.id=$group
listeners=http://127.0.0.1:$port
rest.advertised.host.name=127.0.0.1
rest.advertised.port=$port
plugin.path=$plugin_path
# KIP-618: a source task's records and offsets commit in one transaction
exactly.once.source.support=enabled
config.storage.topic=$group-configs
offset.storage.topic=$group-offsets
status.storage.topic=$group-status
config.storage.replication.factor=1
offset.storage.replication.factor=1
status.storage.replication.factor=1
offset.storage.partitions=5
key.converter=org.apache.kafka.connect.storage.StringConverter
value.converter=org.apache.kafka.connect.converters.ByteArrayConverter
offset.flush.interval.ms=1000
scheduled.rebalance.max.delay.ms=5000
PROPS

nohup java -Xmx512m -cp "$(cat "$classpath_file")" -Dorg.slf4j.simpleLogger.defaultLogLevel=info \
  -Dorg.slf4j.simpleLogger.showDateTime=true "${jvm_options[@]}" \
  org.apache.kafka.connect.cli.ConnectDistributed "$dir/worker.properties" >> "$log" 2>&1 &
echo $! > "$dir/worker.pid"

await_answer "$dir/worker.pid" "$port" "$log" "start-connect: the worker" 120
echo "http://127.0.0.1:$port"
