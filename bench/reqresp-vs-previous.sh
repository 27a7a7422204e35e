#!/usr/bin/env bash
# Request/response round trips of this build against those of an earlier commit, interleaved: each build's own
# closed-loop driver (bench/Berth.CallLoad) against its own server (bench/Berth.RequestServer), so a change to the
# engine, the client or the request path shows on both sides of the call, as it would in use.
#
#   bash bench/reqresp-vs-previous.sh --previous cbfe5fd                 3 rounds, 1 s warm-up, 4 s measured, 1x1 and 100x1
#   bash bench/reqresp-vs-previous.sh --previous cbfe5fd --rounds 5 --data docs/data/decisions/request-spin.json
#   bash bench/reqresp-vs-previous.sh --previous cbfe5fd --cells "1x1 1x64"   connections x outstanding, space-separated
#
# Each round runs every cell on both builds back to back, this build first in odd rounds and the previous one first in
# even ones, so a round gives one calls/s ratio per cell (this build over the previous). A cell is "met" when the
# median of at least 3 rounds' ratios is at least 0.97x and so is every round, "within noise" when only the median
# is, "not met" when the median is not ("< 3 rounds" with fewer): scripts/paired_rounds.py, the rule of
# docs/RESULTS.md. A pair where either run had a failed call is left out of the ratios.
# The previous commit's driver and server are built once per commit by bench/build-previous-engine.sh.
# Without --data the result file goes to artifacts/reqresp-vs-previous/reqresp-vs-previous.json; its HTML page, rendered
# by Berth.Figures, to artifacts/reqresp-vs-previous/reqresp-vs-previous.html. Needs a clone with history and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

previous=""
rounds=3
warmup=1
duration=4
cells="1x1 100x1"
data=""
command="bash bench/reqresp-vs-previous.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --previous) previous="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --cells) cells="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "reqresp-vs-previous: unknown option $1 (see the header of bench/reqresp-vs-previous.sh)" >&2; exit 2 ;;
    esac
done
if [ -z "$previous" ]; then
    echo "reqresp-vs-previous: --previous COMMIT is required" >&2
    exit 2
fi

out=artifacts/reqresp-vs-previous
mkdir -p "$out"
for project in Berth.RequestServer Berth.CallLoad Berth.Figures; do
    dotnet build "bench/$project/$project.csproj" -c Release -nologo -v quiet > /dev/null
done
# One build per baseline commit, so a run against another commit never reuses the wrong one.
load=$(bash bench/build-previous-engine.sh "$previous" bench/Berth.RequestServer:server bench/Berth.CallLoad:load)
old=$(dirname "$load")
declare -A drivers=(
    [current]=bench/Berth.CallLoad/bin/Release/net10.0/Berth.CallLoad.dll
    [previous]=$old/load/Berth.CallLoad.dll
)
declare -A servers=(
    [current]=bench/Berth.RequestServer/bin/Release/net10.0/Berth.RequestServer.dll
    [previous]=$old/server/Berth.RequestServer.dll
)

results="$out/results.tsv"
: > "$results"
# The run's provenance (scripts/long_results.py): the drivers are this shell's children and the servers theirs.
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"
for round in $(seq "$rounds"); do
    for cell in $cells; do
        connections=${cell%x*}
        outstanding=${cell#*x}
        order="current previous"
        ((round % 2)) || order="previous current"
        for build in $order; do
            line=$(dotnet "${drivers[$build]}" --target berth --server "${servers[$build]}" --connections "$connections" \
                --outstanding "$outstanding" --warmup "$warmup" --duration "$duration" | grep '^{' || true)
            printf '%s\t%s\t%s\t%s\n' "$build" "$connections" "$outstanding" "$line" >> "$results"
            printf '  round %s  %-8s %3s x %-2s %s\n' "$round" "$build" "$connections" "$outstanding" \
                "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1] or "null"); print("{:,.0f} calls/s, p99 {:,.0f} us, failed calls {}".format(r["calls_per_s"], r["p99_us"], r["errors"]) if r else "no result")' "$line")"
        done
    done
done
python3 scripts/long_results.py step-end "$state"

python3 - "$results" "$state" "${data:-$out/reqresp-vs-previous.json}" "$(git rev-parse "$previous^{commit}" | cut -c1-7)" <<'PY'
import json, statistics, sys
sys.path.insert(0, "scripts")
import long_results
from paired_rounds import spread, verdict
results, state, data, previous = sys.argv[1:5]
TARGET = 0.97
runs, cells = {}, []
for line in open(results):
    build, connections, outstanding, result = line.rstrip("\n").split("\t")
    cell = f"{connections} x {outstanding}"
    if cell not in cells:
        cells.append(cell)
    runs.setdefault((cell, build), []).append(json.loads(result) if result else None)
rows = []
for cell in cells:
    now, before = runs.get((cell, "current"), []), runs.get((cell, "previous"), [])
    # A round's pair ran back to back, in either order: this build's nth run beside the previous one's nth.
    ratios = [a["calls_per_s"] / b["calls_per_s"] for a, b in zip(now, before)
              if a and b and a["errors"] == 0 and b["errors"] == 0 and b["calls_per_s"]]
    done = lambda runs_: [r for r in runs_ if r]
    values = lambda runs_, key: [r[key] for r in done(runs_)]
    rows.append([cell, spread(values(now, "calls_per_s")), spread(values(before, "calls_per_s")),
                 " ".join(f"{r:.2f}x" for r in ratios), statistics.median(ratios) if ratios else None,
                 verdict(ratios, TARGET), spread(values(now, "p99_us"), "us"), spread(values(before, "p99_us"), "us"),
                 spread(values(now, "server_bytes_per_call") + values(now, "driver_bytes_per_call"), "bytes"),
                 sum(r["errors"] for r in done(now) + done(before)) + sum(1 for r in now + before if not r)])
    print(f"{cell}: ratio per round {rows[-1][3]}, verdict {rows[-1][5]}")
long_results.write_json(data, {
    "schema": long_results.SCHEMA,
    "provenance": long_results.provenance(state),
    "tables": {"reqresp-vs-previous": {
        "title": f"Request/response round trips over loopback: this build against {previous}, each build's own driver and server",
        "columns": [{"name": "cell", "format": "text"}, {"name": "this build calls/s", "format": "range"},
                    {"name": "previous calls/s", "format": "range"}, {"name": "ratio per round", "format": "text"},
                    {"name": "median ratio", "format": "ratio"}, {"name": f"at least {TARGET:g}x", "format": "verdict"},
                    {"name": "this build p99", "format": "range"}, {"name": "previous p99", "format": "range"},
                    {"name": "this build B/call", "format": "range"}, {"name": "failed calls or runs", "format": "int"}],
        "rows": rows,
        "notes": ["Cells are connections x calls outstanding per connection, closed loop (bench/Berth.CallLoad against "
                  "bench/Berth.RequestServer, one BerthClient per connection, default options). Each round runs a cell "
                  "on both builds back to back, this build first in odd rounds and the previous one first in even ones; "
                  "a round's ratio is that pair's. Ranges are median (min-max) over the rounds. B/call is the server's "
                  "and the driver's allocated bytes per call (GC.GetTotalAllocatedBytes deltas over the window), each run's both."],
    }},
})
print(f"wrote {data}")
PY
dotnet bench/Berth.Figures/bin/Release/net10.0/Berth.Figures.dll html "${data:-$out/reqresp-vs-previous.json}" \
    "$out/reqresp-vs-previous.html" "Request/response: this build against $previous"
