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
if [ -f "$dir/broker.pid" ]; then
  pid="$(cat "$dir/broker.pid")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 300); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
  rm -f "$dir/broker.pid"
fi
if $wipe; then
  rm -rf "$dir"
fi
