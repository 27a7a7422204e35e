#!/usr/bin/env bash
# Where a Berth server's time per message goes under pipelined messages: syscalls per send (strace -c) and
# the shares of CPU samples (perf record -e cpu-clock) by where the code lives and by user-space frame. Attribution,
# not timing: shares and counts only, so it may run on a busy machine (the provenance says how busy).
#
#   bash bench/profile-small-messages.sh --data docs/data/decisions/small-messages-after.json
#   bash bench/profile-small-messages.sh --previous cddf557 --size 1024 --data FILE   that commit's build, 1 KB frames
#   bash bench/profile-small-messages.sh --executable artifacts/aot-vs-jit/native/berth --data FILE   a published berth,
#       e.g. the NativeAOT binary bench/aot-vs-jit.sh publishes (docs/AOT.md, where the native build loses msg/s)
#   bash bench/profile-small-messages.sh --c-echo --size 65536 --data FILE   the C echo (bench/native/echo, one thread
#       per CPU as the comparison runs it) under the same load, for the same tables side by side
#
# Runs `berth serve` (this build's, or the one of --previous COMMIT, built by bench/build-previous-engine.sh) driven by the C load generator: --connections
# (default 100), pipeline 16, --size (default 64) bytes. Needs gcc, python3, strace and perf, and root or a
# perf_event_paranoid that lets perf and strace attach to the server.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib/listening-port.sh

cli=src/Berth.Cli/bin/Release/net10.0
executable=""
c_echo=false
size=64
connections=100
data=""
command="bash bench/profile-small-messages.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --previous) cli=$(bash bench/build-previous-engine.sh "$2"); shift 2 ;;
        --executable) executable="$2"; shift 2 ;;
        --c-echo) c_echo=true; shift ;;
        --size) size="$2"; shift 2 ;;
        --connections) connections="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "profile-small-messages: unknown option $1 (see the header of bench/profile-small-messages.sh)" >&2; exit 2 ;;
    esac
done
if [ -z "$data" ]; then
    echo "profile-small-messages: --data FILE is required" >&2
    exit 2
fi

out=artifacts/profile-small-messages
mkdir -p "$out"
bash bench/native/load/build.sh artifacts/compare > /dev/null
if $c_echo; then
    bash bench/native/echo/build.sh artifacts/compare > /dev/null
elif [ -z "$executable" ] && [ "$cli" = src/Berth.Cli/bin/Release/net10.0 ]; then
    dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
fi

state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"
# Write-xor-execute off, so perf finds the JIT's code under the names the perf map gives it.
server_command=(dotnet "$cli/Berth.Cli.dll" serve --port 0)
if [ -n "$executable" ]; then
    server_command=("$executable" serve --port 0)
fi
if $c_echo; then
    server_command=(artifacts/compare/berth-echo --port 0 --threads "$(nproc)")
fi
: > "$out/serve.log"
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 "${server_command[@]}" > "$out/serve.log" 2>&1 &
server=$!
port=$(listening_port "$out/serve.log" "$server" "profile-small-messages: the server") || exit 1
artifacts/compare/berth-load --port "$port" --connections "$connections" --pipeline 16 --size "$size" \
    --warmup 1 --duration 9 > "$out/load.json" &
load=$!
sleep 2
timeout -s INT 3 strace -c -f -p "$server" -o "$out/strace.txt" > /dev/null 2>&1 || true
sleep 0.5
perf record -e cpu-clock -g -p "$server" -o "$out/perf.data" -- sleep 3 > /dev/null 2>&1
wait "$load"
kill "$server" 2> /dev/null || true
wait "$server" 2> /dev/null || true
perf report -i "$out/perf.data" --stdio --no-children -g none --sort dso 2> /dev/null > "$out/dso.txt"
perf report -i "$out/perf.data" --stdio --no-children -g none --sort dso,sym 2> /dev/null > "$out/sym.txt"
python3 scripts/long_results.py step-end "$state"

python3 - "$out" "$state" "$data" "$size" "$connections" "$cli" "$executable" "$c_echo" <<'PY'
import sys
sys.path.insert(0, "scripts")
import long_results
import perf_shares
out, state, data, size, connections, cli, executable, c_echo = sys.argv[1:9]

calls = {}
for line in open(f"{out}/strace.txt"):
    fields = line.split()
    if len(fields) >= 5 and fields[0][0].isdigit() and fields[-1] != "total":
        errors = int(fields[4]) if len(fields) == 6 else 0
        calls[fields[-1]] = (int(fields[3]), errors)
# Berth sends with sendmsg, the C echo with sendto (send); either is one reply batch.
send_call = "sendto" if c_echo == "true" else "sendmsg"
sends = calls.get(send_call, (0, 0))[0]
syscalls = [[name, count, errors, count / sends if sends else None]
            for name, (count, errors) in sorted(calls.items(), key=lambda item: -item[1][0])
            if name in ("recvfrom", "sendmsg", "sendto", "epoll_wait", "epoll_ctl", "getsockopt", "futex")]

shares = perf_shares.places(f"{out}/dso.txt")
frames = perf_shares.frames(f"{out}/sym.txt")

workload = f"{size} B x {connections} connections, pipeline 16"
build = f"the executable {executable}" if executable else "the build of " + (cli.split("/")[-2] if "previous-engine" in cli else "this commit")
server = "the C echo (bench/native/echo, one thread per CPU)" if c_echo == "true" else f"berth serve ({build})"
long_results.write_json(data, {
    "schema": long_results.SCHEMA,
    "provenance": long_results.provenance(state),
    "tables": {
        "syscalls": {
            "title": f"{server}: system calls over 3 s of {workload} (strace -c -f)",
            "columns": [{"name": "syscall", "format": "text"}, {"name": "calls", "format": "int"},
                        {"name": "errors", "format": "int"}, {"name": f"per {send_call}", "format": "text"}],
            "rows": [[n, c, e, "–" if r is None else f"{r:.3f}"] for n, c, e, r in syscalls],
            "notes": [f"One {send_call} carries the replies to one received batch; strace slows the server, so batches are larger than without it."],
        },
        "places": {
            "title": f"{server}: where the CPU samples fell over 3 s of {workload} (perf record -e cpu-clock)",
            "columns": [{"name": "code", "format": "text"}, {"name": "share of samples", "format": "percent"}],
            "rows": shares,
            "notes": ["The kernel share includes the switch back into a thread that waited in epoll_wait, counted when the thread resumes."],
        },
        "frames": {
            "title": "The user-space frames with the largest own share of samples (kernel frames left out)",
            "columns": [{"name": "frame", "format": "text"}, {"name": "share of samples", "format": "percent"}],
            "rows": frames,
        },
    },
})
print(f"wrote {data}")
PY
