#!/usr/bin/env bash
# Where the time per message goes in one throughput cell of `berth zmq bench` (default 64 B PUSH/PULL, the default
# Send(ReadOnlySpan<byte>) and Receive(ZmqMessage)) against the C program in the `send` style, which does the same
# work: shares of CPU samples (perf record -e cpu-clock) per thread (sender, receiver, libzmq's I/O thread) by where
# the code lives and by user-space frame, and system calls per message (strace -c -f). Attribution, not timing: shares
# and counts only, so it may run on a busy machine (the provenance says how busy). docs/decisions/zmq-per-message.md
# reads it.
#
#   bash bench/profile-zmq-small.sh --data docs/data/decisions/zmq-per-message.json
#   bash bench/profile-zmq-small.sh --size 1024 --pattern router-dealer --data FILE
#
# Berth runs as `berth zmq cell` (rounds one after another in one process); perf attaches after its second round, once
# the JIT has settled. Needs gcc, libzmq3-dev, python3, strace and perf (root or a permissive perf_event_paranoid).
set -euo pipefail
cd "$(dirname "$0")/.."

size=64
pattern=push-pull
count=2000000
data=""
command="bash bench/profile-zmq-small.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --pattern) pattern="$2"; shift 2 ;;
        --count) count="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "profile-zmq-small: unknown option $1 (see the header of bench/profile-zmq-small.sh)" >&2; exit 2 ;;
    esac
done
if [ -z "$data" ]; then
    echo "profile-zmq-small: --data FILE is required" >&2
    exit 2
fi
program=push_pull_thr
[ "$pattern" = router-dealer ] && program=router_dealer_thr

out=artifacts/profile-zmq-small
mkdir -p "$out"
native=$(bash bench/native/zmq/build.sh)
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
cli=(dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll zmq cell --pattern "$pattern" --size "$size" --count "$count")
warmup=$((count / 10 > 3000 ? count / 10 : 3000))
# The C program runs under the malloc thresholds `berth zmq bench` gives every process (BenchMallocSettings).
tunables=glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=2097152

state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"
# Write-xor-execute off, so perf finds the JIT's code under the names the perf map gives it.
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 "${cli[@]}" --rounds 10 > "$out/berth.log" 2>&1 &
berth=$!
until grep -q '^round=2 ' "$out/berth.log"; do
    kill -0 "$berth" 2> /dev/null || { echo "profile-zmq-small: berth zmq cell ended early: $(cat "$out/berth.log")" >&2; exit 1; }
    sleep 0.1
done
perf record -e cpu-clock -g -p "$berth" -o "$out/berth.data" > "$out/perf.log" 2>&1 || true
wait "$berth"
if ! grep -q 'samples' "$out/perf.log"; then
    echo "profile-zmq-small: perf recorded nothing from berth zmq cell: $(cat "$out/perf.log")" >&2
    exit 1
fi
GLIBC_TUNABLES=$tunables perf record -e cpu-clock -g -o "$out/c.data" -- "$native/$program" "$size" $((count * 4)) "$warmup" send > "$out/c.log" 2> /dev/null
strace -f -c -o "$out/berth-strace.txt" "${cli[@]}" --rounds 1 > /dev/null
GLIBC_TUNABLES=$tunables strace -f -c -o "$out/c-strace.txt" "$native/$program" "$size" "$count" "$warmup" send > /dev/null
for side in berth c; do
    perf script -i "$out/$side.data" -F pid,tid,comm,ip,sym,dso -G 2> "$out/$side-script.log" > "$out/$side.txt"
done
python3 scripts/long_results.py step-end "$state"

python3 - "$out" "$state" "$data" "$size" "$pattern" "$count" "$warmup" <<'PY'
import re
import sys
sys.path.insert(0, "scripts")
import long_results
import perf_shares
out, state, data, size, pattern, count, warmup = sys.argv[1:8]
messages = int(count) + int(warmup)
ROLES = ["sender", "receiver", "libzmq I/O thread"]
KINDS = ["own code", "the .NET runtime (coreclr, System.Native, other)", "libzmq", "libc and the loader", "kernel"]


def role(comm, pid, tid, side):
    """The thread's part in the cell: libzmq names its I/O thread, the bench names Berth's sender (the kernel keeps
    15 characters of a thread name), and the C program's receiver is its main thread."""
    if comm.startswith("ZMQbg/IO"):
        return "libzmq I/O thread"
    if side == "berth":
        return "sender" if comm.startswith("zmq-bench-send") else "receiver" if pid == tid else None
    return "receiver" if pid == tid else "sender"


def kind(dso):
    """perf_shares' kinds of code, with libzmq on its own, the perf map's JIT code, and the C program's own code."""
    if dso.startswith("libzmq"):
        return "libzmq"
    if dso.startswith("perf-") and dso.endswith(".map"):
        return "own code"
    if dso in ("push_pull_thr", "router_dealer_thr"):
        return "own code"
    place = perf_shares.place(dso)
    return "own code" if place == "JIT-compiled .NET code" else place


def samples(side):
    """Per role: sample count, samples per kind of code, samples per user-space frame."""
    totals = {r: 0 for r in ROLES}
    places = {r: {} for r in ROLES}
    frames = {r: {} for r in ROLES}
    for line in open(f"{out}/{side}.txt"):
        match = re.match(r"\s*(.+?)\s+(\d+)/(\d+)\s+[0-9a-f]+\s+(.*?)\s*\(([^()]*)\)\s*$", line)
        if not match:
            continue
        comm, pid, tid, symbol, dso = match.groups()
        r = role(comm, pid, tid, side)
        if r is None:
            continue
        dso = dso.split("/")[-1]
        code = kind(dso)
        totals[r] += 1
        places[r][code] = places[r].get(code, 0) + 1
        if code != "kernel":
            method = re.search(r"([\w.`+<>\[\],]+::[\w.`<>|]+)\(", symbol)
            name = method.group(1) if method else symbol if symbol != "[unknown]" else f"[unknown] ({dso})"
            frames[r][name] = frames[r].get(name, 0) + 1
    return totals, places, frames


rows, top = [], []
for side, name in (("berth", "Berth.Zmq Default"), ("c", "C libzmq (send)")):
    totals, places, frames = samples(side)
    all_samples = sum(totals.values())
    for r in ROLES:
        if not totals[r]:
            continue
        rows.append([name, r, round(totals[r] / all_samples, 4)] +
                    [round(places[r].get(k, 0) / totals[r], 4) for k in KINDS])
        for frame, n in sorted(frames[r].items(), key=lambda item: -item[1])[:8]:
            top.append([name, r, frame, round(n / totals[r], 4)])


def syscalls(path):
    calls = {}
    for line in open(path):
        fields = line.split()
        if len(fields) >= 5 and fields[0][0].isdigit() and fields[-1] != "total":
            calls[fields[-1]] = int(fields[3])
    return calls


berth_calls, c_calls = syscalls(f"{out}/berth-strace.txt"), syscalls(f"{out}/c-strace.txt")
names = [n for n in ("poll", "epoll_wait", "getpid", "read", "write", "sendto", "recvfrom", "futex") if n in berth_calls or n in c_calls]
calls = [[n, f"{berth_calls.get(n, 0) / messages:.4f}", f"{c_calls.get(n, 0) / messages:.4f}"] for n in names]

cell = f"{size} B {pattern.replace('-', '/').upper()}"
long_results.write_json(data, {
    "schema": long_results.SCHEMA,
    "provenance": long_results.provenance(state),
    "tables": {
        "threads": {
            "title": f"{cell}: where each thread's CPU samples fell (perf record -e cpu-clock), Berth.Zmq's default calls against the C program in the send style",
            "columns": [{"name": "program", "format": "text"}, {"name": "thread", "format": "text"},
                        {"name": "share of the program's samples", "format": "percent"},
                        {"name": "own code (JIT-compiled .NET, or the C program)", "format": "percent"}, {"name": ".NET runtime", "format": "percent"},
                        {"name": "libzmq", "format": "percent"}, {"name": "libc", "format": "percent"}, {"name": "kernel", "format": "percent"}],
            "rows": rows,
            "notes": ["The last five columns are shares of that thread's own samples; what they leave is in other libraries and the vDSO.",
                      "Berth: rounds 3 to 10 of `berth zmq cell` (after the JIT settled); C: one run of four times as many messages."],
        },
        "frames": {
            "title": "The user-space frames with the largest own share of each thread's samples (kernel frames left out; libzmq has no symbols, so its frames show as [unknown])",
            "columns": [{"name": "program", "format": "text"}, {"name": "thread", "format": "text"},
                        {"name": "frame", "format": "text"}, {"name": "share of the thread's samples", "format": "percent"}],
            "rows": top,
        },
        "syscalls": {
            "title": f"{cell}: system calls per message, all threads (strace -c -f, one run of {count} messages after a warm-up of {warmup})",
            "columns": [{"name": "syscall", "format": "text"}, {"name": "Berth.Zmq Default", "format": "text"}, {"name": "C libzmq (send)", "format": "text"}],
            "rows": calls,
            "notes": ["strace slows every thread, so libzmq batches differently than without it; Berth's count includes the .NET runtime's start."],
        },
    },
})
print(f"wrote {data}")
PY
