# The one wait for a server's port, sourced by the scripts under bench/ that start a server and then drive it.
# A server prints 'listening on HOST:PORT' once it accepts connections. The caller empties the log before starting
# the server, so a port left in it by an earlier run is never read as this one's.
#
#   source bench/lib/listening-port.sh
#   : > "$log"; server --port 0 > "$log" 2>&1 & pid=$!
#   port=$(listening_port "$log" "$pid" "sessions: kestrel") || exit 1

# listening_port LOG PID WHAT: prints the port of LOG's first 'listening on HOST:PORT' line, looking every 0.1 s for
# up to 10 s. Fails when the time runs out or PID exits without printing one, with "WHAT did not start" on stderr,
# the log's path and its last three lines.
listening_port() {
    local log=$1 pid=$2 what=$3 port alive
    for _ in $(seq 100); do
        # Whether the server lives is read before its log, so the last lines of a server that just exited are read.
        alive=yes
        kill -0 "$pid" 2> /dev/null || alive=""
        port=$(grep -o 'listening on [^ ]*:[0-9][0-9]*' "$log" 2> /dev/null | head -1 | sed 's/.*://') || true
        if [ -n "$port" ]; then
            echo "$port"
            return 0
        fi
        [ -n "$alive" ] || break
        sleep 0.1
    done
    echo "$what did not start ($log): $(tail -3 "$log" 2> /dev/null)" >&2
    return 1
}
