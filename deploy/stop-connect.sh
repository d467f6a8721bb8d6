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
. "$root/deploy/process-lib.sh"
stop_pid_file "$dir/worker.pid"
if $wipe; then
  rm -rf "$dir"
fi
