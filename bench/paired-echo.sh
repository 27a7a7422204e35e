#!/usr/bin/env bash
# Paired rounds of two echo servers under the C load generator, shared by bench/engine-vs-previous.sh and
# bench/typed-vs-raw.sh. Each round runs every workload as a back-to-back pair (each server its own process started
# afresh; the first server first in odd rounds, the second first in even ones, so neither always runs right after the
# other), so a round gives one ratio per workload: the first server's msg/s over the second's. A workload is "met" when the median of at least 3 rounds' ratios reaches the target and so does every
# round, "within noise" when only the median does, "not met" when the median does not ("< 3 rounds" with fewer): the
# rule of docs/RESULTS.md, judged by scripts/paired_rounds.py.
#
#   bash bench/paired-echo.sh --out DIR --command TEXT --rounds N --warmup S --duration S --target RATIO
#       --cells "64 100;1024 100" --table ID --title TEXT --note TEXT [--data FILE]
#       --first NAME --first-server CMD [--first-load ARGS] --second NAME --second-server CMD [--second-load ARGS]
#       [--pin LOAD_CPUS:SERVER_CPUS]
#
# With --pin the load generator and each server run under those CPU lists (taskset), the same for both servers, so
# the scheduler cannot place one server's busy thread beside the load generator's in one run and apart in the next
# (docs/decisions/tcp-64k-rounds.md). A pinned server sees only its CPUs, so it sizes its event loops to them.
#
# A server command prints 'listening on HOST:PORT' when ready; a load's ARGS are added to berth-load's (e.g. the
# frame layout its server reads). Needs the load generator in artifacts/compare (bench/native/load/build.sh) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh

data=""
first_load=""
second_load=""
pin=""
while (($#)); do
    case "$1" in
        --out) out="$2" ;;
        --command) command="$2" ;;
        --rounds) rounds="$2" ;;
        --warmup) warmup="$2" ;;
        --duration) duration="$2" ;;
        --target) target="$2" ;;
        --cells) cells_text="$2" ;;
        --table) table="$2" ;;
        --title) title="$2" ;;
        --note) note="$2" ;;
        --data) data="$2" ;;
        --first) first="$2" ;;
        --first-server) first_server="$2" ;;
        --first-load) first_load="$2" ;;
        --second) second="$2" ;;
        --second-server) second_server="$2" ;;
        --second-load) second_load="$2" ;;
        --pin) pin="$2" ;;
        *) echo "paired-echo: unknown option $1 (see the header of bench/paired-echo.sh)" >&2; exit 2 ;;
    esac
    shift 2
done

IFS=';' read -r -a cells <<< "$cells_text"
declare -A servers=([first]="$first_server" [second]="$second_server")
declare -A loads=([first]="$first_load" [second]="$second_load")
declare -A names=([first]="$first" [second]="$second")
load_pin=()
server_pin=()
if [ -n "$pin" ]; then
    IFS=: read -r load_cpus server_cpus <<< "$pin"
    [ -n "$load_cpus" ] && [ -n "$server_cpus" ] || { echo "paired-echo: --pin takes LOAD_CPUS:SERVER_CPUS, e.g. 0:1" >&2; exit 2; }
    load_pin=(taskset -c "$load_cpus")
    server_pin=(taskset -c "$server_cpus")
    note="$note The load generator ran on CPU(s) $load_cpus and each server on CPU(s) $server_cpus (taskset)."
fi
mkdir -p "$out"
results="$out/results.tsv"
: > "$results"
# The run's provenance (scripts/long_results.py): the servers and the load generator are this shell's children, so
# the CPU they used is what it reaped; everything else over the rounds is the others' share.
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"

for round in $(seq "$rounds"); do
    for cell in "${cells[@]}"; do
        read -r size connections <<< "$cell"
        order="first second"
        ((round % 2)) || order="second first"
        for server in $order; do
            log="$out/$server.log"
            # Emptied before the server starts, so the wait below never reads the port of the previous run's server.
            : > "$log"
            # shellcheck disable=SC2086 # the command line is split on purpose
            "${server_pin[@]}" ${servers[$server]} > "$log" 2>&1 &
            pid=$!
            # A server that did not start has no result for this run (the load finds no port); the pair is not counted.
            port=$(listening_port "$log" "$pid" "paired-echo: ${names[$server]}") || true
            # shellcheck disable=SC2086 # the load's extra arguments are split on purpose
            line=$("${load_pin[@]}" artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
                --warmup "$warmup" --duration "$duration" ${loads[$server]} | grep '^{' || true)
            kill "$pid" 2> /dev/null || true
            wait "$pid" 2> /dev/null || true
            printf '%s\t%s\t%s\t%s\n' "$server" "$size" "$connections" "$line" >> "$results"
            printf '  round %s  %-12s %6s B x %-3s %s\n' "$round" "${names[$server]}" "$size" "$connections" \
                "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1] or "null"); print("{:,.0f} msg/s, errors {}".format(r["msg_per_s"], r["errors"]) if r else "no result")' "$line")"
        done
    done
done

python3 scripts/long_results.py step-end "$state"
python3 - "$results" "$state" "$data" "$target" "$table" "$title" "$note" "$first" "$second" <<'PY'
import json, statistics, sys
sys.path.insert(0, "scripts")
import long_results
from paired_rounds import spread, verdict
results, state, data, target, table_id, title, note, first, second = sys.argv[1:10]
TARGET = float(target)
rows = [line.rstrip("\n").split("\t") for line in open(results)]
cells = []
for server, size, connections, line in rows:
    if (size, connections) not in cells:
        cells.append((size, connections))
def rates(server, size, connections):
    # A server that failed a run (no JSON line, or echo errors) has no rate for it: the pair is not counted.
    out = []
    for r in rows:
        if r[0] == server and r[1] == size and r[2] == connections:
            result = json.loads(r[3]) if r[3] else None
            out.append(result["msg_per_s"] if result and result["errors"] == 0 else None)
    return out
table = []
print(f"\n| workload | {first} msg/s (median [min-max]) | {second} msg/s | ratio per round | median ratio | at least {TARGET:g}x |")
print("| --- | ---: | ---: | --- | ---: | --- |")
for size, connections in cells:
    now, anchor = rates("first", size, connections), rates("second", size, connections)
    # A round's pair ran back to back, in either order: the first server's nth run beside the second's nth.
    ratios = [a / b for a, b in zip(now, anchor) if a is not None and b]
    now, anchor = [v for v in now if v is not None], [v for v in anchor if v is not None]
    label = (f"{int(size) // 1024} KB" if int(size) >= 1024 else f"{size} B") + f" x {connections}"
    per_round = " ".join(f"{r:.2f}x" for r in ratios)
    median = statistics.median(ratios) if ratios else None
    table.append([label, spread(now), spread(anchor), per_round, median, verdict(ratios, TARGET)])
    fmt = lambda v: f"{statistics.median(v):,.0f} [{min(v):,.0f}-{max(v):,.0f}]" if v else "-"
    print(f"| {label} | {fmt(now)} | {fmt(anchor)} | {per_round} | {median if median is None else f'{median:.2f}x'} | {verdict(ratios, TARGET)} |")
if data:
    long_results.write_json(data, {
        "schema": long_results.SCHEMA,
        "provenance": long_results.provenance(state),
        "tables": {table_id: {
            "title": title,
            "columns": [{"name": "workload", "format": "text"}, {"name": f"{first} msg/s", "format": "range"},
                        {"name": f"{second} msg/s", "format": "range"}, {"name": "ratio per round", "format": "text"},
                        {"name": "median ratio", "format": "ratio"}, {"name": f"at least {TARGET:g}x", "format": "verdict"}],
            "rows": table,
            "notes": [note],
        }},
    })
    print(f"wrote {data}")
PY
