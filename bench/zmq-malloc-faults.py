#!/usr/bin/env python3
"""Page faults of 64 KB PUSH/PULL runs under glibc's default malloc and under berth zmq bench's fixed thresholds.

  python3 bench/zmq-malloc-faults.py [--netzmq SRC] [--runs N] --data FILE

Runs bench/native/zmq's push_pull_thr (and Net.Zmq's program, built by bench/peers/build-netzmq.sh SRC, with --netzmq)
N times per setting, interleaved, and reads each run's minor page faults from the kernel (wait4's rusage), a count
that a busy machine does not distort the way it distorts a rate. A run of 2,000 messages gives the faults of start-up
and of the first fill of the queues (up to both high-water marks in flight); what a 20,000-message run has beyond
that, per extra message, is what the allocator costs in steady state. Writes a berth-result/1 file (docs/RESULTS.md)
with the table `faults`; docs/decisions/zmq-bimodal.md renders it.
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
SHORT = 2000
LONG = 20000
# The same two values as src/Berth.Cli/Zmq/BenchMallocSettings.cs.
BENCH_TUNABLES = "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=2097152"
SETTINGS = [("glibc defaults", None), ("berth zmq bench thresholds", BENCH_TUNABLES)]


def own_ticks():
    with open(f"/proc/{os.getpid()}/stat", encoding="utf-8") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15])  # utime, stime, and the reaped children's cutime, cstime


def run_counting(command, tunables):
    """Minor page faults of one run of COMMAND (which must print msgs_per_sec), from wait4's rusage of that child alone."""
    environment = dict(os.environ)
    environment.pop("GLIBC_TUNABLES", None)
    if tunables:
        environment["GLIBC_TUNABLES"] = tunables
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(write_end, 1)
        os.close(read_end)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.execvpe(command[0], command, environment)
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as pipe:
        output = pipe.read()
    _, status, usage = os.wait4(pid, 0)
    if status != 0 or "msgs_per_sec=" not in output:
        sys.exit(f"{' '.join(command)} failed (status {status})")
    return usage.ru_minflt


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--netzmq", help="a Net.Zmq checkout; its program runs beside the C one")
    parser.add_argument("--runs", type=int, default=10, help="runs of 20,000 messages per program and setting (default 10)")
    parser.add_argument("--data", required=True, help="the result file to write")
    arguments = parser.parse_args()

    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    os.chdir(root)
    build = subprocess.run(["bash", "bench/native/zmq/build.sh"], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    programs = [("C libzmq", [os.path.join(build, "push_pull_thr")])]
    if arguments.netzmq:
        folder = subprocess.run(["bash", "bench/peers/build-netzmq.sh", arguments.netzmq], capture_output=True, text=True, check=True).stdout.strip()
        programs += [(f"Net.Zmq ({strategy})", [os.path.join(folder, "NetZmqPerf"), "push_pull_thr"]) for strategy in ["message", "span"]]

    command = "python3 bench/zmq-malloc-faults.py" + (f" --netzmq {arguments.netzmq}" if arguments.netzmq else "") + f" --runs {arguments.runs} --data {arguments.data}"
    run = {"commit": long_results.git("rev-parse", "HEAD"), "dirty": long_results.git("status", "--porcelain", "--untracked-files=no") != "", "machine": long_results.machine()}
    with open("/proc/loadavg", encoding="utf-8") as file:
        load = [float(value) for value in file.read().split()[:3]]
    date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    total_before, busy_before = long_results.cpu_ticks()
    measured_before = own_ticks()

    def argv(program, count):
        name, base = program
        strategy = [name.split("(")[1].rstrip(")")] if name.startswith("Net.Zmq") else []
        return base + [str(SIZE), str(count)] + strategy

    counts = {}
    for round_number in range(arguments.runs):
        print(f"  round {round_number + 1}/{arguments.runs}", file=sys.stderr)
        for program in programs:
            for setting, tunables in SETTINGS:
                counts.setdefault((program[0], setting, LONG), []).append(run_counting(argv(program, LONG), tunables))
                if round_number < max(3, arguments.runs // 2):
                    counts.setdefault((program[0], setting, SHORT), []).append(run_counting(argv(program, SHORT), tunables))

    total_after, busy_after = long_results.cpu_ticks()
    measured = own_ticks() - measured_before
    total = total_after - total_before
    share = max(0.0, (busy_after - busy_before - measured) / total) if total > 0 else None

    rows = []
    for program, _ in programs:
        for setting, _ in SETTINGS:
            long_runs = counts[(program, setting, LONG)]
            start = statistics.median(counts[(program, setting, SHORT)])
            extra = sorted(max(0.0, (value - start) / (LONG - SHORT)) for value in long_runs)
            rows.append([
                program, setting, len(long_runs),
                {"min": min(long_runs), "median": statistics.median(long_runs), "max": max(long_runs), "unit": "int"},
                start,
                f"{statistics.median(extra):.2f} ({extra[0]:.2f}–{extra[-1]:.2f})",
            ])

    table = {
        "title": f"Minor page faults of PUSH/PULL, 64 KB frames, tcp loopback, one process with two threads ({arguments.runs} interleaved runs per row)",
        "columns": [
            {"name": "program", "format": "text"},
            {"name": "malloc", "format": "text"},
            {"name": "runs", "format": "int"},
            {"name": f"faults per run of {LONG:,} messages", "format": "range"},
            {"name": f"faults of a {SHORT:,}-message run (median)", "format": "int"},
            {"name": "faults per message beyond it", "format": "text"},
        ],
        "rows": rows,
        "notes": [f"Faults are the kernel's count for the whole process (wait4). The bench's thresholds are GLIBC_TUNABLES={BENCH_TUNABLES}."],
    }
    provenance = {
        "date": date, "commit": run["commit"], "dirty": run["dirty"], "machine": run["machine"], "loadAtStart": load,
        "otherCpuShare": share, "quiet": share is not None and share < long_results.QUIET_OTHER_CPU_SHARE,
        "command": command, "source": None,
    }
    long_results.write_json(arguments.data, {"schema": long_results.SCHEMA, "provenance": provenance, "tables": {"faults": table}})
    print(f"data: {arguments.data}")


if __name__ == "__main__":
    main()
