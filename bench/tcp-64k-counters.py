#!/usr/bin/env python3
"""The kernel's TCP counters beside the rate of each 64 KB x 1 run, for the C echo and Berth's server.

  python3 bench/tcp-64k-counters.py [--runs N] [--warmup S] [--duration S] --data FILE

The 64 KB x 1 cell's rate jumps between two levels from run to run on every server, the C echo included
(docs/decisions/tcp-64k-rounds.md). This runs the C echo and this build's `berth serve` N times each, alternating,
under the C load generator (pipeline 16), and takes the difference of the kernel's TCP counters (nstat) over each
run: retransmitted segments, out-of-order queueing, undone retransmits, zero-window advertisements. The counters
are the machine's, so nothing else may use TCP while it runs. Writes a berth-result/1 file (docs/RESULTS.md) with
the table `runs`.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import long_results  # noqa: E402  (the provenance helpers of the other Python producers)

SIZE = 65536
# The kernel counters shown, in the order of the table's columns (nstat names).
COUNTERS = [
    ("retransmitted segments", "TcpRetransSegs"),
    ("retransmits undone (DSACK)", "TcpExtTCPDSACKUndo"),
    ("segments queued out of order", "TcpExtTCPOFOQueue"),
    ("zero windows advertised", "TcpExtTCPToZeroWindowAdv"),
    ("zero windows wanted", "TcpExtTCPWantZeroWindowAdv"),
]


def counters():
    """The machine's TCP counters now (nstat -a prints absolute values without updating its history)."""
    output = subprocess.run(["nstat", "-a", "-z", "-s"], capture_output=True, text=True, check=True).stdout
    values = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            values[parts[0]] = int(parts[1])
    return values


def start(command):
    """Starts a server that prints 'listening on HOST:PORT'; returns the process and its port."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in process.stdout:
        if "listening on" in line:
            return process, int(line.strip().rsplit(":", 1)[1])
    raise RuntimeError(f"{command[0]} exited before listening")


def run_once(command, load, warmup, duration):
    process, port = start(command)
    try:
        before = counters()
        output = subprocess.run([load, "--port", str(port), "--connections", "1", "--pipeline", "16", "--size", str(SIZE),
                                 "--warmup", str(warmup), "--duration", str(duration)], capture_output=True, text=True, check=True).stdout
        after = counters()
    finally:
        process.kill()
        process.wait()
    result = json.loads([line for line in output.splitlines() if line.startswith("{")][-1])
    return result["msg_per_s"] if result["errors"] == 0 else None, {name: after.get(name, 0) - before.get(name, 0) for _, name in COUNTERS}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=8, help="runs per server (default 8)")
    parser.add_argument("--warmup", type=float, default=1)
    parser.add_argument("--duration", type=float, default=4)
    parser.add_argument("--data", required=True, help="the result file to write")
    arguments = parser.parse_args()

    os.chdir(os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
    subprocess.run(["bash", "bench/native/load/build.sh", "artifacts/compare"], capture_output=True, check=True)
    echo = subprocess.run(["bash", "bench/native/echo/build.sh", "artifacts/compare"], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    subprocess.run(["dotnet", "build", "src/Berth.Cli/Berth.Cli.csproj", "-c", "Release", "-nologo", "-v", "quiet"], capture_output=True, check=True)
    servers = [
        ("C echo", [echo, "--port", "0"]),
        ("Berth (this build)", ["dotnet", "src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll", "serve", "--port", "0"]),
    ]
    load = "artifacts/compare/berth-load"

    command = "python3 bench/tcp-64k-counters.py" + "".join(f" {flag} {value}" for flag, value in
                                                          [("--runs", arguments.runs), ("--warmup", f"{arguments.warmup:g}"),
                                                           ("--duration", f"{arguments.duration:g}"), ("--data", arguments.data)])
    with open("/proc/loadavg", encoding="utf-8") as file:
        load_at_start = [float(value) for value in file.read().split()[:3]]
    date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    total_before, busy_before = long_results.cpu_ticks()
    measured_before = long_results.reaped_ticks(os.getpid())

    runs = []
    for number in range(arguments.runs):
        order = servers if number % 2 == 0 else list(reversed(servers))
        for name, server in order:
            rate, deltas = run_once(server, load, arguments.warmup, arguments.duration)
            runs.append((name, number + 1, rate, deltas))
            print(f"  run {number + 1}/{arguments.runs} {name:20} {rate or 0:>10,.0f} msg/s  " +
                  " ".join(f"{key}={deltas[key]}" for _, key in COUNTERS), file=sys.stderr)
            time.sleep(0.2)

    total_after, busy_after = long_results.cpu_ticks()
    total = total_after - total_before
    measured = long_results.reaped_ticks(os.getpid()) - measured_before
    share = max(0.0, (busy_after - busy_before - measured) / total) if total > 0 else None

    rows = []
    for name, _ in servers:
        mine = sorted((run for run in runs if run[0] == name), key=lambda run: run[2] or 0)
        for _, number, rate, deltas in mine:
            rows.append([name, number, rate, *(deltas[key] for _, key in COUNTERS)])

    table = {
        "title": f"64 KB x 1, pipeline 16, one C load generator: each run's rate and the kernel's TCP counters over it, slowest run first",
        "columns": [
            {"name": "server", "format": "text"},
            {"name": "run", "format": "int"},
            {"name": "msg/s", "format": "count"},
            *({"name": label, "format": "int"} for label, _ in COUNTERS),
        ],
        "rows": rows,
        "notes": ["The counters are the machine's (nstat), taken before and after the load generator's run (its warm-up included); "
                  "the servers ran one at a time, alternating, each started afresh."],
    }
    provenance = {
        "date": date, "commit": long_results.git("rev-parse", "HEAD"),
        "dirty": long_results.git("status", "--porcelain", "--untracked-files=no") != "", "machine": long_results.machine(),
        "loadAtStart": load_at_start, "otherCpuShare": share,
        "quiet": share is not None and share < long_results.QUIET_OTHER_CPU_SHARE,
        "command": command, "source": None,
    }
    long_results.write_json(arguments.data, {"schema": long_results.SCHEMA, "provenance": provenance, "tables": {"runs": table}})
    print(f"data: {arguments.data}")


if __name__ == "__main__":
    main()
