#!/usr/bin/env python3
"""Page faults of 64 KB PUSH/PULL runs under glibc's default malloc and under berth zmq bench's fixed thresholds.

  python3 bench/zmq-malloc-faults.py [--netzmq SRC] [--runs N] --data FILE

Runs bench/native/zmq's push_pull_thr (and Net.Zmq's program, built by bench/peers/build-netzmq.sh SRC, with --netzmq)
N times per setting, interleaved, each with the bench's warm-up, and takes the minor page faults each program counts
while its clock runs: a count, which a busy machine does not distort the way it distorts a rate. Writes a
berth-result/1 file (docs/RESULTS.md) with the table `faults`; docs/decisions/zmq-bimodal.md explains it.
"""
import argparse
import os
import statistics
import subprocess
import sys
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import long_results  # noqa: E402  (the provenance helpers of the other Python producer)

SIZE = 65536
COUNT = 20000
# The warm-up berth zmq bench gives a cell of 20,000 messages (ZmqBenchmark.cs).
WARM_UP = 3000
# The same two values as src/Berth.Cli/Zmq/BenchMallocSettings.cs.
BENCH_TUNABLES = "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=2097152"
SETTINGS = [("glibc defaults", None), ("berth zmq bench thresholds", BENCH_TUNABLES)]


def own_ticks():
    with open(f"/proc/{os.getpid()}/stat", encoding="utf-8") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15])  # utime, stime, and the reaped children's cutime, cstime


def run_counting(command, tunables):
    """The minor page faults COMMAND reports for its clocked part (after its warm-up) under TUNABLES, or glibc's defaults."""
    environment = dict(os.environ)
    environment.pop("GLIBC_TUNABLES", None)
    if tunables:
        environment["GLIBC_TUNABLES"] = tunables
    output = subprocess.run(command, capture_output=True, text=True, env=environment, check=True).stdout
    values = dict(pair.split("=", 1) for pair in output.split())
    return int(values["minor_faults"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--netzmq", help="a Net.Zmq checkout; its program runs beside the C one")
    parser.add_argument("--runs", type=int, default=10, help="runs per program and setting (default 10)")
    parser.add_argument("--data", required=True, help="the result file to write")
    arguments = parser.parse_args()

    os.chdir(os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
    build = subprocess.run(["bash", "bench/native/zmq/build.sh"], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    size = [str(SIZE), str(COUNT), str(WARM_UP)]
    programs = [("C libzmq", [os.path.join(build, "push_pull_thr"), *size])]
    if arguments.netzmq:
        folder = subprocess.run(["bash", "bench/peers/build-netzmq.sh", arguments.netzmq], capture_output=True, text=True, check=True).stdout.strip()
        programs += [(f"Net.Zmq ({strategy})", [os.path.join(folder, "NetZmqPerf"), "push_pull_thr", str(SIZE), str(COUNT), strategy, str(WARM_UP)])
                     for strategy in ["message", "span"]]

    command = "python3 bench/zmq-malloc-faults.py" + (f" --netzmq {arguments.netzmq}" if arguments.netzmq else "") + f" --runs {arguments.runs} --data {arguments.data}"
    with open("/proc/loadavg", encoding="utf-8") as file:
        load = [float(value) for value in file.read().split()[:3]]
    date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    total_before, busy_before = long_results.cpu_ticks()
    measured_before = own_ticks()

    counts = {}
    for round_number in range(arguments.runs):
        print(f"  round {round_number + 1}/{arguments.runs}", file=sys.stderr)
        for name, argv in programs:
            for setting, tunables in SETTINGS:
                counts.setdefault((name, setting), []).append(run_counting(argv, tunables))

    total_after, busy_after = long_results.cpu_ticks()
    total = total_after - total_before
    share = max(0.0, (busy_after - busy_before - (own_ticks() - measured_before)) / total) if total > 0 else None

    rows = []
    for name, _ in programs:
        for setting, _ in SETTINGS:
            runs = counts[(name, setting)]
            per_message = sorted(value / COUNT for value in runs)
            rows.append([
                name, setting, len(runs),
                {"min": min(runs), "median": statistics.median(runs), "max": max(runs), "unit": "int"},
                " ".join(f"{value:.2f}" for value in per_message),
            ])

    table = {
        "title": f"Minor page faults while the clock runs, PUSH/PULL of {COUNT:,} frames of 64 KB after a warm-up of {WARM_UP:,}, tcp loopback, one process with two threads",
        "columns": [
            {"name": "program", "format": "text"},
            {"name": "malloc", "format": "text"},
            {"name": "runs", "format": "int"},
            {"name": "faults per run", "format": "range"},
            {"name": "faults per frame, every run (sorted)", "format": "text"},
        ],
        "rows": rows,
        "notes": [f"Each program counts its own faults (getrusage, /proc/self/stat) from its first counted frame to its last. The bench's thresholds are GLIBC_TUNABLES={BENCH_TUNABLES}."],
    }
    provenance = {
        "date": date, "commit": long_results.git("rev-parse", "HEAD"),
        "dirty": long_results.git("status", "--porcelain", "--untracked-files=no") != "", "machine": long_results.machine(),
        "loadAtStart": load, "otherCpuShare": share, "quiet": share is not None and share < long_results.QUIET_OTHER_CPU_SHARE,
        "command": command, "source": None,
    }
    long_results.write_json(arguments.data, {"schema": long_results.SCHEMA, "provenance": provenance, "tables": {"faults": table}})
    print(f"data: {arguments.data}")


if __name__ == "__main__":
    main()
