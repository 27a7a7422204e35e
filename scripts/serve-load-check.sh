#!/usr/bin/env bash
# A short real run of an installed berth: `berth serve --port 0` in the background, `berth load` against the
# port it reports for about a second, then SIGTERM to the server, which must stop cleanly.
#   bash scripts/serve-load-check.sh PATH-TO-BERTH
set -uo pipefail
berth=$1
log=$(mktemp)
"$berth" serve --host 127.0.0.1 --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -f "$log"' EXIT

port=""
for _ in $(seq 1 300); do
    port=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
[ -n "$port" ] || { echo "berth serve did not report a port:"; cat "$log"; exit 1; }

"$berth" load --host 127.0.0.1 --port "$port" --connections 2 --size 64 --warmup 0 --duration 1
load_status=$?

kill -TERM "$server"
wait "$server"
serve_status=$?
cat "$log"
[ "$load_status" -eq 0 ] || { echo "berth load exited $load_status"; exit 1; }
[ "$serve_status" -eq 0 ] || { echo "berth serve exited $serve_status after SIGTERM"; exit 1; }
grep -qi 'stopped' "$log" || { echo "berth serve did not report stopping"; exit 1; }
