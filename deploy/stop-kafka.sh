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
. "$root/deploy/process-lib.sh"
stop_pid_file "$dir/broker.pid"
if $wipe; then
  rm -rf "$dir"
fi
