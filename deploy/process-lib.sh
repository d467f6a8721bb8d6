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
