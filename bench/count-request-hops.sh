#!/usr/bin/env bash
# Thread switches and system calls per request/response round trip, on the client (bench/Berth.CallLoad driving one
# BerthClient per connection) and on the server (bench/Berth.RequestServer), beside the C load generator against the
# C echo with the same connections, frames in flight and frame size, and beside the same C pair built to poll epoll for
# up to 50 us before it sleeps (berth-load-spin, berth-echo-spin). Counts only, no timings, so it may run on a busy
# machine; compare the two pairs within one run.
#
#   bash bench/count-request-hops.sh                     cells 1x1 and 100x1 (connections x outstanding)
#   bash bench/count-request-hops.sh --cells "1x1 1x64"
#   bash bench/count-request-hops.sh --cells 1x1 --data docs/data/decisions/request-hops.json   also writes a
#                                                        berth-result/1 file (docs/decisions/request-hops.md shows it)
#
# Per call: perf's software counters and tracepoints over the same 3 s inside the measured window of each side's
# process, and the voluntary and involuntary context switches of every thread that switched over those 3 s
# (/proc/PID/task/TID/status), divided by the server's sends in them: with one call in flight per connection (the
# default cells) every reply is its own send, so that is the calls; with more in flight replies share sends and the
# figures are per server send instead. A thread hop shows as a futex wake and
# a voluntary switch of the thread woken; an event loop that waits for the network shows as epoll_wait.
# Needs perf with the syscalls tracepoints, and root or a perf_event_paranoid that lets perf attach.
set -euo pipefail
cd "$(dirname "$0")/.."

cells="1x1 100x1"
data=""
command="bash bench/count-request-hops.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --cells) cells="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        *) echo "count-request-hops: unknown option $1 (see the header of bench/count-request-hops.sh)" >&2; exit 2 ;;
    esac
done

for project in Berth.RequestServer Berth.CallLoad; do
    dotnet build "bench/$project/$project.csproj" -c Release -nologo -v quiet > /dev/null
done
bash bench/native/echo/build.sh artifacts/compare > /dev/null
bash bench/native/load/build.sh artifacts/compare > /dev/null
bytes=$(dotnet bench/Berth.CallLoad/bin/Release/net10.0/Berth.CallLoad.dll --request-bytes)
out=artifacts/count-request-hops
mkdir -p "$out"
counts="$out/counts.jsonl"
: > "$counts"
state="$out/run.json"
python3 scripts/long_results.py run-start "$state" "$command"
for cell in $cells; do
    for pair in berth c c-spin; do
        python3 - "$pair" "${cell%x*}" "${cell#*x}" "$bytes" "$counts" <<'PY'
import json, os, re, subprocess, sys, time
pair, connections, outstanding, size, counts_path = sys.argv[1:6]
calls_ = ["epoll_wait", "futex", "recvfrom", "recvmsg", "sendmsg", "sendto", "writev", "sched_yield", "getsockopt", "ioctl"]
events = ["context-switches", "raw_syscalls:sys_enter"] + [f"syscalls:sys_enter_{c}" for c in calls_]
if pair == "berth":
    driver = subprocess.Popen(["dotnet", "bench/Berth.CallLoad/bin/Release/net10.0/Berth.CallLoad.dll", "--target", "berth",
                               "--server", "bench/Berth.RequestServer/bin/Release/net10.0/Berth.RequestServer.dll",
                               "--connections", connections, "--outstanding", outstanding, "--warmup", "3", "--duration", "6"],
                              stdout=subprocess.PIPE, text=True)
    time.sleep(5)
    server = int(subprocess.run(["pgrep", "-P", str(driver.pid), "-f", "Berth.RequestServer"], capture_output=True, text=True, check=True).stdout.split()[0])
    echo = None
else:
    spin = "-spin" if pair == "c-spin" else ""
    echo = subprocess.Popen([f"artifacts/compare/berth-echo{spin}", "--port", "0", "--threads", str(os.cpu_count())], stdout=subprocess.PIPE, text=True)
    port = re.search(r":(\d+)", echo.stdout.readline()).group(1)
    driver = subprocess.Popen([f"artifacts/compare/berth-load{spin}", "--port", port, "--connections", connections, "--pipeline", outstanding,
                               "--size", size, "--warmup", "3", "--duration", "6"], stdout=subprocess.PIPE, text=True)
    time.sleep(5)
    server = echo.pid
sides = {"client": driver.pid, "server": server}

def switches(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            comm = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            status = dict(l.split(":\t") for l in open(f"/proc/{pid}/task/{tid}/status").read().splitlines() if ":\t" in l)
            out[tid] = (comm, int(status["voluntary_ctxt_switches"]), int(status["nonvoluntary_ctxt_switches"]))
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out

before = {side: switches(pid) for side, pid in sides.items()}
perfs = {side: subprocess.Popen(["perf", "stat", "-x", ",", "-e", ",".join(events), "-p", str(pid), "--", "sleep", "3"],
                                stderr=subprocess.PIPE, text=True) for side, pid in sides.items()}
stats = {side: p.communicate()[1] for side, p in perfs.items()}
after = {side: switches(pid) for side, pid in sides.items()}
result = json.loads([l for l in driver.stdout.read().splitlines() if l.startswith("{")][-1])
driver.wait()
if echo:
    echo.kill()
    echo.wait()
counted = {}
for side, text in stats.items():
    counted[side] = {}
    for line in text.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[0].replace(".", "").isdigit():
            counted[side][fields[2].replace("syscalls:sys_enter_", "").replace("raw_syscalls:sys_enter", "all syscalls")] = float(fields[0])
calls = sum(counted["server"].get(call, 0) for call in ("sendmsg", "sendto", "writev")) or 1
name = {"berth": "Berth (CallLoad, RequestServer)", "c": "C (berth-load, berth-echo)", "c-spin": "C spinning (berth-load-spin, berth-echo-spin)"}[pair]
print(f"{name}, {connections} x {outstanding}, {size} B request bodies: {result.get('errors')} errors; per server send")
for side, counts in counted.items():
    print(f"  {side}: " + ", ".join(f"{key} {value / calls:.3f}" for key, value in counts.items() if value))
    loop_sleeps = 0.0
    for tid, (comm, voluntary, involuntary) in sorted(after[side].items()):
        if tid in before[side]:
            v, n = voluntary - before[side][tid][1], involuntary - before[side][tid][2]
            if comm.startswith(("Berth epoll", "berth-")):
                loop_sleeps += v
            if v + n > calls / 1000:
                print(f"    thread {comm:18} voluntary {v / calls:.3f}, involuntary {n / calls:.3f}")
    with open(counts_path, "a") as file:
        file.write(json.dumps({"pair": name, "cell": f"{connections} x {outstanding}", "side": side, "errors": result.get("errors"),
                               "per_send": {key: value / calls for key, value in counts.items()},
                               "loop_sleeps_per_send": loop_sleeps / calls}) + "\n")
PY
    done
done

python3 scripts/long_results.py step-end "$state"
if [ -n "$data" ]; then
    python3 - "$counts" "$state" "$data" <<'PY'
import json, sys
sys.path.insert(0, "scripts")
import long_results
counts, state, data = sys.argv[1:4]
records = [json.loads(line) for line in open(counts)]
calls = ["recvfrom", "recvmsg", "sendmsg", "sendto", "writev", "epoll_wait", "sched_yield", "futex", "getsockopt", "ioctl", "all syscalls", "context-switches"]
tables = {}
for cell in dict.fromkeys(r["cell"] for r in records):
    rows = [[r["pair"], r["side"]] + [f"{r['per_send'].get(c, 0):.3f}" for c in calls] + [f"{r['loop_sleeps_per_send']:.3f}", r["errors"]]
            for r in records if r["cell"] == cell]
    tables["c" + cell.replace(" x ", "x")] = {
        "title": f"System calls and switches per server send at {cell} (connections x calls in flight), Berth against the C pairs",
        "columns": [{"name": "pair", "format": "text"}, {"name": "side", "format": "text"}]
                   + [{"name": c.replace("context-switches", "context switches"), "format": "text"} for c in calls]
                   + [{"name": "event-loop thread sleeps", "format": "text"}, {"name": "failed calls", "format": "int"}],
        "rows": rows,
        "notes": ["Counted by perf stat (syscall tracepoints, context-switches) over the same 3 s inside each side's measured "
                  "window, and the voluntary switches of the event-loop threads (/proc/PID/task/TID/status), divided by the "
                  "server's sends in those seconds: with one call in flight per connection, one per call. Client: "
                  "Berth.CallLoad or the C load generator; server: Berth.RequestServer or the C echo. The spinning C pair "
                  "(berth-load-spin, berth-echo-spin) polls epoll_wait with timeout 0 for up to 50 us before it sleeps. "
                  "Counts, not timings; a loaded machine changes the spinning sides' empty polls and sleeps (the provenance "
                  "says whether the run was quiet)."],
    }
long_results.write_json(data, {"schema": long_results.SCHEMA, "provenance": long_results.provenance(state), "tables": tables})
print(f"wrote {data}")
PY
fi
