#!/usr/bin/env bash
# Pipelined bursts through this build's `berth serve` and through the previous engine's (commit 1d6416c: a 64 KiB
# receive ring rented per connection up front and kept while idle, handlers on the thread pool), each its own
# process, driven by the same C load generator, interleaved. Shows what receiving only while data is in flight
# costs or saves on traffic that never lets the ring sit idle.
#
#   bash bench/engine-vs-previous.sh                 3 rounds, 1 s warm-up, 4 s measured per cell
#   bash bench/engine-vs-previous.sh --rounds 5
#   bash bench/engine-vs-previous.sh --previous f2b8af0   another commit's engine as the baseline
#   bash bench/engine-vs-previous.sh --data docs/data/tcp/engine-vs-previous.json   also writes a berth-result/1 file
#   bash bench/engine-vs-previous.sh --cells "65536 1" --rounds 20 --duration 2   one workload ("SIZE CONNECTIONS",
#                                                           comma-separated for more), e.g. to look at its spread
#   bash bench/engine-vs-previous.sh --pin none     leave CPU placement to the scheduler (see below)
#
# CPU placement is the harness's, the same for both servers: by default the load generator runs on CPU 0 and each
# server on CPU 1 (taskset; --pin LOAD_CPUS:SERVER_CPUS for others, --pin none for none). Left to the scheduler, a
# server's busy thread and the load generator's thread share one CPU in some runs and get one each in others, and a
# copy-bound workload (64 KB x 1) then lands in one of two modes far apart, on either engine
# (docs/decisions/tcp-64k-rounds.md). A pinned server sees one CPU, so it runs one event loop.
#
# Each round runs every workload as a back-to-back pair, so a round gives one ratio per workload; the pair's order
# alternates from round to round (this build first in odd rounds, the previous engine first in even ones), so
# neither server always runs right after the other. A workload is "met" when the median of at least 3 rounds' ratios
# is at least 0.97x and so is every round, "within noise" when only the median is, "not met" when the median is not
# ("< 3 rounds" with fewer).
# Needs a clone with history (the previous engine is built from git into artifacts/previous-engine), gcc, taskset
# and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

previous=1d6416c
rounds=3
warmup=1
duration=4
data=""
cells=("64 100" "1024 100" "16384 10" "65536 1" "65536 100")
pin="0:1"
command="bash bench/engine-vs-previous.sh $*"
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --previous) previous="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --cells) IFS=, read -r -a cells <<< "$2"; shift 2 ;;
        --pin) pin="$2"; shift 2 ;;
        *) echo "engine-vs-previous: unknown option $1 (see the header of bench/engine-vs-previous.sh)" >&2; exit 2 ;;
    esac
done

# One build per baseline commit, so a run against another commit never reuses the wrong engine.
cli=$(bash bench/build-previous-engine.sh "$previous")
out=$(dirname "$cli")
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null

declare -A servers=(
    [current]="dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll serve --port 0"
    [previous]="dotnet $cli/Berth.Cli.dll serve --port 0"
)
# The same CPU lists for whichever server runs (header: CPU placement).
[ "$pin" = none ] && pin=""
load_pin=()
server_pin=()
if [ -n "$pin" ]; then
    IFS=: read -r load_cpus server_cpus <<< "$pin"
    [ -n "$load_cpus" ] && [ -n "$server_cpus" ] || { echo "engine-vs-previous: --pin takes LOAD_CPUS:SERVER_CPUS, e.g. 0:1, or none" >&2; exit 2; }
    load_pin=(taskset -c "$load_cpus")
    server_pin=(taskset -c "$server_cpus")
fi
results="$out/results.tsv"
: > "$results"
# The run's provenance (scripts/long_results.py): the servers and the load generator are this shell's children, so
# the CPU they used is what it reaped; everything else over the rounds is the others' share.
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"

for round in $(seq "$rounds"); do
    for cell in "${cells[@]}"; do
        read -r size connections <<< "$cell"
        order="current previous"
        ((round % 2)) || order="previous current"
        for server in $order; do
            log="$out/$server.log"
            # Emptied here, not by the server's redirection: that one runs in the child, and the wait below could
            # otherwise read the port of this server's previous run from the old log.
            : > "$log"
            # shellcheck disable=SC2086 # the command line is split on purpose
            "${server_pin[@]}" ${servers[$server]} > "$log" 2>&1 &
            pid=$!
            port=""
            for _ in $(seq 100); do
                port=$(grep -o 'listening on [0-9.]*:[0-9]*' "$log" | head -1 | sed 's/.*://') && [ -n "$port" ] && break
                sleep 0.1
            done
            line=$("${load_pin[@]}" artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
                --warmup "$warmup" --duration "$duration" | grep '^{' || true)
            kill "$pid" 2> /dev/null || true
            wait "$pid" 2> /dev/null || true
            printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$server" "$size" "$connections" "$line" >> "$results"
            printf '  round %s  %-8s %6s B x %-3s %s\n' "$round" "$server" "$size" "$connections" \
                "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1] or "null"); print("failed: no result (see its log above)" if r is None else "{:,.0f} msg/s, errors {}".format(r["msg_per_s"], r["errors"]))' "$line")"
        done
    done
done

python3 scripts/long_results.py step-end "$state"
python3 - "$results" "$state" "$(git rev-parse "$previous^{commit}")" "$data" "$pin" <<'EOF'
import json, statistics, sys
sys.path.insert(0, "scripts")
import long_results
results, state, previous, data, pin = sys.argv[1:6]
TARGET, ROUNDS = 0.97, 3
rows = [line.rstrip("\n").split("\t") for line in open(results)]
cells = []
for _, _, size, connections, _ in rows:
    if (size, connections) not in cells:
        cells.append((size, connections))
def rates(server, size, connections):
    """The server's rate per round, keyed by round, so that a round's two runs pair whatever their order."""
    return {r[0]: json.loads(r[4])["msg_per_s"] if r[4] else 0.0 for r in rows if r[1] == server and r[2] == size and r[3] == connections}
def verdict(ratios):
    if len(ratios) < ROUNDS:
        return "< 3 rounds"
    if statistics.median(ratios) < TARGET:
        return "not met"
    return "met" if min(ratios) >= TARGET else "within noise"
def spread(values):
    return {"min": min(values), "median": statistics.median(values), "max": max(values), "unit": "count"}
table = []
print("\n| workload | this build msg/s (median [min-max]) | previous engine msg/s | ratio per round | median ratio | at least 0.97x |")
print("| --- | ---: | ---: | --- | ---: | --- |")
for size, connections in cells:
    current, previous_rates = rates("current", size, connections), rates("previous", size, connections)
    # A failed run counts as 0 msg/s: against this build it stays in the verdict; a failed baseline leaves its round unpaired.
    paired = [r for r in current if previous_rates.get(r, 0) > 0]
    now, before = [current[r] for r in paired], [previous_rates[r] for r in paired]
    # A round's pair ran back to back, so its ratio compares the two servers under the same conditions.
    ratios = [a / b for a, b in zip(now, before)]
    label = (f"{int(size) // 1024} KB" if int(size) >= 1024 else f"{size} B") + f" x {connections}"
    per_round = " ".join(f"{r:.2f}x" for r in ratios)
    table.append([label, spread(now), spread(before), per_round, statistics.median(ratios), verdict(ratios)])
    fmt = lambda v: f"{statistics.median(v):,.0f} [{min(v):,.0f}-{max(v):,.0f}]"
    print(f"| {label} | {fmt(now)} | {fmt(before)} | {per_round} | {statistics.median(ratios):.2f}x | {verdict(ratios)} |")
if data:
    long_results.write_json(data, {
        "schema": long_results.SCHEMA,
        "provenance": long_results.provenance(state),
        "tables": {"engine-vs-previous": {
            "title": f"This build against the engine of {previous[:7]}: pipelined bursts (pipeline 16), one C load generator",
            "columns": [{"name": "workload", "format": "text"}, {"name": "this build msg/s", "format": "range"},
                        {"name": "previous msg/s", "format": "range"}, {"name": "ratio per round", "format": "text"},
                        {"name": "median ratio", "format": "ratio"}, {"name": "at least 0.97x", "format": "verdict"}],
            "rows": table,
            "notes": ["Each round runs a workload on both servers back to back, this build first in odd rounds and the previous "
                      "engine first in even ones; a round's ratio is that pair's."
                      + (f" The load generator ran on CPU(s) {pin.split(':')[0]} and each server on CPU(s) {pin.split(':')[1]} (taskset)."
                         if pin else " CPU placement was left to the scheduler (--pin none).")],
        }},
    })
    print(f"wrote {data}")
EOF
