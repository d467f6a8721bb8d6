#!/usr/bin/env bash
# Stops the worker deploy/start-connect.sh started (SIGTERM: its tasks stop and commit), and waits for it.
#   deploy/stop-connect.sh [--dir target/local-connect] [--wipe]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/target/local-connect"
wipe=false
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --wipe) wipe=true; shift ;;
    *) echo "stop-connect: unknown option $1" >&2; exit 2 ;;
  esac
done
alive() {
  if [ -r "/proc/$1/stat" ]; then
    [ "$(sed -e 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != "Z" ]
  else
    kill -0 "$1" 2>/dev/null
  fi
}
if [ -f "$dir/worker.pid" ]; then
  pid="$(cat "$dir/worker.pid")"
  if alive "$pid"; then
    kill -TERM "$pid"
    for _ in $(seq 1 300); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$dir/worker.pid"
fi
if $wipe; then
  rm -rf "$dir"
fi
