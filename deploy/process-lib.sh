# Shared by the local start/stop scripts (sourced, not run).

# A process that exists and is not a zombie (a process killed with SIGKILL can linger as one, and
# PID 1 here does not reap orphans promptly, so kill -0 alone would call it alive).
alive() {
  if [ -r "/proc/$1/stat" ]; then
    [ "$(sed -e 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != "Z" ]
  else
    kill -0 "$1" 2>/dev/null
  fi
}

# Waits until the process a pid file names answers (the caller's answers() on port $2), at most $5
# seconds; exits 1, with the log's tail, if it dies or stays silent. $3: its log, $4: what it is.
await_answer() {
  local file="$1" port="$2" log="$3" what="$4" seconds="$5"
  for _ in $(seq 1 $((seconds * 10))); do
    if ! alive "$(cat "$file")"; then
      echo "$what exited; see $log" >&2
      tail -20 "$log" >&2
      exit 1
    fi
    if answers "$port"; then
      return 0
    fi
    sleep 0.1
  done
  echo "$what did not answer on 127.0.0.1:$port within $seconds s; see $log" >&2
  exit 1
}

# Stops the process a pid file names with SIGTERM (a clean shutdown), SIGKILL after 30 s, and removes the file.
stop_pid_file() {
  local file="$1" pid
  [ -f "$file" ] || return 0
  pid="$(cat "$file")"
  if alive "$pid"; then
    kill -TERM "$pid"
    for _ in $(seq 1 300); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$file"
}

# Maven, quietly: its output (Debian's Maven 3.8 prints colour codes even in batch mode) is shown,
# plain, only when it fails.
quiet_mvn() {
  local said
  if ! said=$(mvn -q -B "$@" 2>&1); then
    printf '%s\n' "$said" | sed 's/\x1b\[[0-9;]*m//g' >&2
    return 1
  fi
}
