#!/usr/bin/env bash
# Berth's own client against the C load generator, both driving the C epoll echo: `berth load` and
# bench/native/load in interleaved rounds. A round runs each workload four times, each against a fresh C echo: berth
# load, C, C, berth load in odd rounds and the mirror in even ones, so a drift of the machine's speed during the round
# weighs on both clients alike (docs/RESULTS.md, "How far a round moves on its own"); its ratio is that of the two
# clients' means.
#   sessions  10,000 connections, one 10 KiB request per second each (--rate 1, the same body size for both clients),
#             each round trip timed from when its request was due; target: berth load's p99 within 1.5x the C client's
#   closed    64 B x 100 connections, pipeline 16, as fast as echoes return; target: berth load >= 0.9x the C client's msg/s
# Both clients run the same number of threads (--threads, default 1, the C load generator's default): the C client with
# --threads N, berth load with N epoll loops (BERTH_EPOLL_LOOPS=N), so neither has a core's worth of threads more than
# the other on a machine whose cores the echo shares.
# Writes a berth-result/1 file (docs/RESULTS.md) with every round, its ratio and the median ratio, and prints it.
#
#   bash bench/client-vs-c.sh                                   3 rounds, 10,000 sessions, 5 s warm-up + 10 s per run
#   bash bench/client-vs-c.sh --rounds 5 --data docs/data/tcp/client-vs-c.json
#   bash bench/client-vs-c.sh --rounds 1 --connections 200 --warmup 0.5 --duration 1    a smoke run, not a measurement
#   bash bench/client-vs-c.sh --threads 2                       both clients on two threads
#
# Needs gcc (bash scripts/setup.sh --compare) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
invocation="bash bench/client-vs-c.sh${*:+ $*}"

rounds=3
connections=10000
warmup=5
duration=10
threads=1
data=artifacts/client-vs-c/result.json
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "client-vs-c: unknown option $1 (see the header of bench/client-vs-c.sh)" >&2; exit 2 ;;
    esac
done

out=artifacts/client-vs-c
mkdir -p "$out" "$(dirname "$data")"
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
berth=(dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll)
# Both clients raise their own soft limit; the echo needs one descriptor per session too.
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true

date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
stat_start=$(head -1 /proc/stat)
self_start=$(cut -d' ' -f14-17 "/proc/$$/stat")
rows="$out/rounds.tsv"
: > "$rows"

source bench/lib/listening-port.sh
# Starts a fresh C echo, waits for its "listening on HOST:PORT" line, sets $echo_pid and $port.
start_echo() {
    local log=$1
    rm -f "$log"
    artifacts/compare/berth-echo --port 0 --threads "$(nproc)" > "$log" 2>&1 &
    echo_pid=$!
    port=$(listening_port "$log" "$echo_pid" "client-vs-c: the C echo") || exit 1
}

stop_echo() {
    kill "$echo_pid" 2> /dev/null || true
    wait "$echo_pid" 2> /dev/null || true
}

# run WORKLOAD CLIENT ROUND RUN: one run against a fresh echo; appends "workload client round msg/s p50 p99 errors idle".
run() {
    local workload=$1 client=$2 round=$3 args file="$out/$1-$2-$3-$4"
    if [ "$workload" = sessions ]; then
        args=(--connections "$connections" --rate 1 --size 10240 --pipeline 16)
    else
        args=(--connections 100 --size 64 --pipeline 16)
    fi
    start_echo "$file.echo.log"
    if [ "$client" = berth ]; then
        BERTH_EPOLL_LOOPS="$threads" "${berth[@]}" load --port "$port" "${args[@]}" --warmup "$warmup" --duration "$duration" --data "$file.json" > "$file.out" 2>&1 || true
        python3 - "$file.json" "$workload" "$client" "$round" >> "$rows" <<'PY'
import json, sys
table = json.load(open(sys.argv[1]))["tables"]["load"]
row = dict(zip([c["name"] for c in table["columns"]], table["rows"][0]))
print("\t".join(sys.argv[2:5] + [str(row[k]) for k in ("msg/s", "p50", "p99", "errors", "idle heap per conn")]))
PY
    else
        artifacts/compare/berth-load --port "$port" "${args[@]}" --threads "$threads" --warmup "$warmup" --duration "$duration" > "$file.out" 2>&1 || true
        python3 - "$file.out" "$workload" "$client" "$round" >> "$rows" <<'PY'
import json, sys
r = json.loads([line for line in open(sys.argv[1]) if line.startswith("{")][-1])
print("\t".join(sys.argv[2:5] + [str(r["msg_per_s"]), str(r["p50_us"]), str(r["p99_us"]), str(r["errors"]), "None"]))
PY
    fi
    stop_echo
    tail -1 "$rows"
}

echo "client-vs-c: $rounds round(s); $connections sessions at 1 req/s, and 64 B x 100 closed loop; $threads client thread(s); load average $load_at_start"
for round in $(seq "$rounds"); do
    # The client that goes first alternates, so neither always meets the machine in the same state.
    if ((round % 2)); then clients=(berth c c berth); else clients=(c berth berth c); fi
    for workload in sessions closed; do
        for at in 0 1 2 3; do
            run "$workload" "${clients[$at]}" "$round" "$at"
        done
    done
done

python3 - "$rows" "$data" "$invocation" "$date" "$load_at_start" "$stat_start" "$self_start" "$$" "$out" "$threads" <<'PY'
import glob, json, statistics, subprocess, sys
sys.path.insert(0, "scripts")
from paired_rounds import verdict
rows_path, data, command, date, load, stat_start, self_start, pid, out, threads = sys.argv[1:11]

def cpu(line):
    ticks = [int(v) for v in line.split()[1:]]
    return sum(ticks), sum(ticks) - ticks[3] - ticks[4]

def own(fields):
    return sum(int(v) for v in fields.split())

all0, busy0 = cpu(stat_start)
all1, busy1 = cpu(open("/proc/stat").readline())
self_end = " ".join(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[11:15])
share = max(0.0, ((busy1 - busy0) - (own(self_end) - own(self_start))) / max(1, all1 - all0))
rows = [line.rstrip("\n").split("\t") for line in open(rows_path)]
number = lambda v: None if v == "None" else float(v)
machine = None
for row in rows:
    if row[1] == "berth":
        machine = json.load(open(sorted(glob.glob(f"{out}/{row[0]}-berth-{row[2]}-*.json"))[0]))["provenance"]["machine"]
        break
commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip() or "unknown"
dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip() != ""

def table(workload, title, value, fmt, target, higher_is_better, text):
    out_rows, ratios = [], []
    for r in sorted({row[2] for row in rows if row[0] == workload}, key=int):
        runs = {client: [row for row in rows if row[0] == workload and row[1] == client and row[2] == r] for client in ("berth", "c")}
        values = {client: [number(row[value]) for row in runs[client]] for client in runs}
        # A client that failed a run (no result) has no value for the round, and the round's pair is not counted.
        means = {client: statistics.mean(v) if v and None not in v else None for client, v in values.items()}
        b, cv = means["berth"], means["c"]
        ratio = round(b / cv, 4) if b and cv else None
        if ratio is not None:
            ratios.append(ratio)
        idle = [number(row[7]) for row in runs["berth"] if number(row[7]) is not None]
        errors = sum(int(float(row[6])) for client in runs for row in runs[client])
        out_rows.append([f"round {r}", b, cv, ratio, errors, statistics.mean(idle) if idle else None])
    median = statistics.median(ratios) if ratios else None
    out_rows.append(["median", None, None, median, None, None])
    return {
        "title": title,
        "columns": [
            {"name": "round", "format": "text"}, {"name": "berth load", "format": fmt}, {"name": "C load generator", "format": fmt},
            {"name": "ratio", "format": "ratio"}, {"name": "errors", "format": "int"}, {"name": "berth load idle heap per conn", "format": "bytes"},
        ],
        "rows": out_rows,
        "notes": [f"{text} Verdict: {verdict(ratios, target, higher_is_better)}.",
                  "A round runs each client twice against a fresh C echo each time (berth load, C, C, berth load in odd rounds, the mirror in even ones); its values are each client's mean over its two runs.",
                  f"Both clients ran {threads} thread(s): the C load generator with --threads {threads}, berth load with {threads} epoll loop(s) (BERTH_EPOLL_LOOPS={threads})."],
    }

sessions = table("sessions", "Sessions at one 10 KiB request per second against the C echo: p99 from when each request was due",
                 5, "us", 1.5, False,
                 "Ratio: berth load's p99 over the C client's. Target: p99 within 1.5x the C client's, judged on the rounds' ratios (docs/RESULTS.md, Verdicts).")
closed = table("closed", "64 B x 100 connections, pipeline 16, closed loop against the C echo: msg/s",
               3, "count", 0.9, True,
               "Ratio: berth load's msg/s over the C client's. Target: at least 0.9x the C load generator, judged on the rounds' ratios (docs/RESULTS.md, Verdicts).")
result = {
    "schema": "berth-result/1",
    "provenance": {
        "date": date, "commit": commit, "dirty": dirty, "machine": machine or "unknown",
        "loadAtStart": [float(v) for v in load.split()], "otherCpuShare": round(share, 4), "quiet": share < 0.05,
        "command": command, "source": None,
    },
    "tables": {"sessions": sessions, "closed": closed},
}
json.dump(result, open(data, "w"), indent=2, ensure_ascii=False)
print(json.dumps(result["tables"], indent=1, ensure_ascii=False))
print(f"data: {data}; other processes used {share:.1%} of the CPU (quiet means under 5%)")
PY
