#!/usr/bin/env bash
# Paired rounds of two echo servers under the C load generator, shared by bench/engine-vs-previous.sh and
# bench/typed-vs-raw.sh. Each round runs every workload on both servers at once: each server its own process started
# afresh, both warmed up for --warmup seconds, then the load generator alternates between them, --segments times on
# each, measuring --duration seconds a time (first, second, second, first, ... in odd rounds, mirrored in even ones), so a
# round gives one ratio per workload: the first server's mean msg/s over the second's. This machine's speed drifts by
# a quarter within a minute (docs/RESULTS.md, "How far a round moves on its own"); alternating in seconds-long
# segments lets both servers share each drift, where one back-to-back pair of longer runs did not. Each segment
# opens its connections afresh and measures after SEGMENT_RAMP seconds, once their pipelines are full.
# A workload is "met" when the median of at least 3 rounds' ratios reaches the target and so does every round,
# "within noise" when only the median does, "not met" when the median does not ("< 3 rounds" with fewer): the rule of
# docs/RESULTS.md, judged by scripts/paired_rounds.py.
#
#   bash bench/paired-echo.sh --out DIR --command TEXT --rounds N --warmup S --segments N --duration S --target RATIO
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
segments=4
segment_ramp=0.25
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
        --segments) segments="$2" ;;
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

# One load run of SECONDS measured after RAMP seconds against SERVER's port: its JSON line, or nothing.
measure() {
    local server=$1 size=$2 connections=$3 ramp=$4 seconds=$5
    # shellcheck disable=SC2086 # the load's extra arguments are split on purpose
    "${load_pin[@]}" artifacts/compare/berth-load --port "${ports[$server]:-0}" --connections "$connections" --pipeline 16 \
        --size "$size" --warmup "$ramp" --duration "$seconds" ${loads[$server]} | grep '^{' || true
}

for round in $(seq "$rounds"); do
    for cell in "${cells[@]}"; do
        read -r size connections <<< "$cell"
        declare -A pids=() ports=()
        for server in first second; do
            log="$out/$server.log"
            # Emptied before the server starts, so the wait below never reads the port of the previous run's server.
            : > "$log"
            # shellcheck disable=SC2086 # the command line is split on purpose
            "${server_pin[@]}" ${servers[$server]} > "$log" 2>&1 &
            pids[$server]=$!
            # A server that did not start has no result for this round (the load finds no port); the pair is not counted.
            ports[$server]=$(listening_port "$log" "${pids[$server]}" "paired-echo: ${names[$server]}") || true
        done
        for server in first second; do
            measure "$server" "$size" "$connections" 0 "$warmup" > /dev/null
        done
        # The segments alternate first, second, second, first, ... (mirrored in even rounds), so a change in the
        # machine's speed during the round weighs on both servers alike.
        for segment in $(seq "$segments"); do
            order="first second"
            if (((round + segment) % 2)); then order="second first"; fi
            for server in $order; do
                line=$(measure "$server" "$size" "$connections" "$segment_ramp" "$duration")
                printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$server" "$size" "$connections" "$line" >> "$results"
                printf '  round %s  %-12s %6s B x %-3s %s\n' "$round" "${names[$server]}" "$size" "$connections" \
                    "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1] or "null"); print("{:,.0f} msg/s, errors {}".format(r["msg_per_s"], r["errors"]) if r else "no result")' "$line")"
            done
        done
        for server in first second; do
            kill "${pids[$server]}" 2> /dev/null || true
            wait "${pids[$server]}" 2> /dev/null || true
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
for _, server, size, connections, line in rows:
    if (size, connections) not in cells:
        cells.append((size, connections))
def rates(server, size, connections):
    # A round's rate is the mean of its segments'; a server that failed a segment (no JSON line, or echo errors) has
    # no rate for that round, and the round's pair is not counted.
    by_round = {}
    for r in rows:
        if r[1] == server and r[2] == size and r[3] == connections:
            result = json.loads(r[4]) if r[4] else None
            by_round.setdefault(r[0], []).append(result["msg_per_s"] if result and result["errors"] == 0 else None)
    return [statistics.mean(v) if None not in v else None for v in by_round.values()]
table = []
print(f"\n| workload | {first} msg/s (median [min-max]) | {second} msg/s | ratio per round | median ratio | at least {TARGET:g}x |")
print("| --- | ---: | ---: | --- | ---: | --- |")
for size, connections in cells:
    now, anchor = rates("first", size, connections), rates("second", size, connections)
    # A round's segments ran alternately on both servers: the first server's nth round beside the second's nth.
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
