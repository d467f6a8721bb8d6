#!/usr/bin/env bash
# Stops the broker deploy/start-kafka.sh started (SIGTERM: a controlled shutdown), and waits for it.
#   deploy/stop-kafka.sh [--dir target/local-kafka] [--wipe]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/target/local-kafka"
wipe=false
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --wipe) wipe=true; shift ;;
    *) echo "stop-kafka: unknown option $1" >&2; exit 2 ;;
  esac
done
# A process that exists and is not a zombie (a broker killed with SIGKILL may linger as one).
alive() {
  if [ -r "/proc/$1/stat" ]; then
    [ "$(sed -e 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != "Z" ]
  else
    kill -0 "$1" 2>/dev/null
  fi
}
if [ -f "$dir/broker.pid" ]; then
  pid="$(cat "$dir/broker.pid")"
  if alive "$pid"; then
    kill -TERM "$pid"
    for _ in $(seq 1 300); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$dir/broker.pid"
fi
if $wipe; then
  rm -rf "$dir"
fi
