#!/usr/bin/env bash
# Pipelined bursts through this build's `berth serve` and through the previous engine's (commit 1d6416c: a 64 KiB
# receive ring rented per connection up front and kept while idle, handlers on the thread pool), each its own
# process, driven by the same C load generator, interleaved. Shows what receiving only while data is in flight
# costs or saves on traffic that never lets the ring sit idle.
#
#   bash bench/engine-vs-previous.sh                 3 rounds, 1 s warm-up, 4 s measured per cell
#   bash bench/engine-vs-previous.sh --rounds 5
#   bash bench/engine-vs-previous.sh --previous f2b8af0   another commit's engine as the baseline
#
# Each workload is marked "ok" when this build's median is at least 0.97x the previous engine's.
# Needs a clone with history (the previous engine is built from git into artifacts/previous-engine), gcc and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

previous=1d6416c
rounds=3
warmup=1
duration=4
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --previous) previous="$2"; shift 2 ;;
        *) echo "engine-vs-previous: unknown option $1 (see the header of bench/engine-vs-previous.sh)" >&2; exit 2 ;;
    esac
done

# One build per baseline commit, so a run against another commit never reuses the wrong engine.
out=artifacts/previous-engine/$(git rev-parse --short "$previous^{commit}")
mkdir -p "$out"
bash bench/native/load/build.sh artifacts/compare > /dev/null
if [ ! -f "$out/cli/Berth.Cli.dll" ]; then
    rm -rf "$out/src"
    git worktree add -f --detach "$out/src" "$previous" > /dev/null 2>&1
    dotnet build "$out/src/src/Berth.Cli/Berth.Cli.csproj" -c Release -nologo -v quiet -o "$out/cli" > /dev/null
    git worktree remove --force "$out/src"
fi
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null

declare -A servers=(
    [current]="dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll serve --port 0"
    [previous]="dotnet $out/cli/Berth.Cli.dll serve --port 0"
)
cells=("64 100" "1024 100" "16384 10" "65536 1" "65536 100")
results="$out/results.tsv"
: > "$results"

for round in $(seq "$rounds"); do
    for cell in "${cells[@]}"; do
        read -r size connections <<< "$cell"
        for server in current previous; do
            log="$out/$server.log"
            # shellcheck disable=SC2086 # the command line is split on purpose
            ${servers[$server]} > "$log" 2>&1 &
            pid=$!
            port=""
            for _ in $(seq 100); do
                port=$(grep -o 'listening on [0-9.]*:[0-9]*' "$log" | head -1 | sed 's/.*://') && [ -n "$port" ] && break
                sleep 0.1
            done
            line=$(artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
                --warmup "$warmup" --duration "$duration" | grep '^{' || true)
            kill "$pid" 2> /dev/null || true
            wait "$pid" 2> /dev/null || true
            printf '%s\t%s\t%s\t%s\n' "$server" "$size" "$connections" "$line" >> "$results"
            printf '  round %s  %-8s %6s B x %-3s %s\n' "$round" "$server" "$size" "$connections" \
                "$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print("{:,.0f} msg/s, errors {}".format(r["msg_per_s"], r["errors"]))' "$line")"
        done
    done
done

python3 - "$results" <<'EOF'
import json, statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
cells = []
for server, size, connections, line in rows:
    if (size, connections) not in cells:
        cells.append((size, connections))
def rates(server, size, connections):
    return [json.loads(r[3])["msg_per_s"] for r in rows if r[0] == server and r[1] == size and r[2] == connections]
print("\n| workload | this build msg/s (median [min-max]) | previous engine msg/s | ratio of medians | at least 0.97x |")
print("| --- | ---: | ---: | ---: | --- |")
for size, connections in cells:
    now, before = rates("current", size, connections), rates("previous", size, connections)
    fmt = lambda v: f"{statistics.median(v):,.0f} [{min(v):,.0f}-{max(v):,.0f}]"
    label = f"{int(size) // 1024} KB" if int(size) >= 1024 else f"{size} B"
    ratio = statistics.median(now) / statistics.median(before)
    print(f"| {label} x {connections} | {fmt(now)} | {fmt(before)} | {ratio:.2f}x | {'ok' if ratio >= 0.97 else 'BELOW'} |")
EOF
