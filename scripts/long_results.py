#!/usr/bin/env python3
"""Turns what scripts/long.sh ran into result files (berth-result/1) under docs/data/reliability/.

  long_results.py run-start STATE COMMAND          commit, dirty, machine of the whole run
  long_results.py step-start STATE RUN COMMAND     date, load and CPU counters before one step
  long_results.py step-end STATE                   CPU used by others over the step, quiet or not
  long_results.py fuzz LOG OUT STATE               the fuzz runner's report lines as a table
  long_results.py guided TARGET STATS OUT STATE    AFL++'s fuzzer_stats of one target as a table
  long_results.py tests TRX OUT STATE              every test result of a trx file, and the witness lines
  long_results.py promises TSV DATA_DIR OUT STATE  the table of promises from DATA_DIR/long-{tests,fuzz,soak}.json

berth soak writes long-soak.json itself (--data), with the provenance it measures.

The steps' own CPU is what the shell running long.sh has reaped from its children (cutime + cstime of that shell),
so every process a step starts and waits for counts as measured; all other CPU over the step counts as others'.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from datetime import datetime, timezone

SCHEMA = "berth-result/1"
# A step is quiet when processes other than its own used less than this share of all cores over it: the one
# threshold of docs/RESULTS.md (Provenance.QuietOtherCpuShare in src/Berth.Results).
QUIET_OTHER_CPU_SHARE = 0.05


def read_json(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def write_json(path, value):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        json.dump(value, file, indent=2, ensure_ascii=False)
        file.write("\n")


def git(*args):
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()


def machine():
    info = {}
    with open("/proc/cpuinfo", encoding="utf-8") as file:
        for line in file:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    with open("/proc/meminfo", encoding="utf-8") as file:
        kib = int(next(line for line in file if line.startswith("MemTotal")).split()[1])
    system = "Linux"
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release", encoding="utf-8") as file:
            fields = dict(line.rstrip("\n").split("=", 1) for line in file if "=" in line)
        system = fields.get("PRETTY_NAME", system).strip('"')
    runtimes = subprocess.run(["dotnet", "--list-runtimes"], capture_output=True, text=True).stdout
    versions = re.findall(r"^Microsoft\.NETCore\.App (\S+)", runtimes, re.MULTILINE)
    dotnet = f".NET {versions[-1]}" if versions else ".NET unknown"
    return (f"{info.get('model name', 'unknown CPU')} (family {info.get('cpu family', '?')}), {os.cpu_count()} vCPU, "
            f"{round(kib / 1048576)} GiB, {system}, kernel {os.uname().release}, {dotnet}")


def cpu_ticks():
    """All cores' ticks since boot, and the busy part of them (everything but idle and iowait)."""
    with open("/proc/stat", encoding="utf-8") as file:
        fields = [int(value) for value in file.readline().split()[1:]]
    total = sum(fields[:8])  # guest times are already inside user and nice
    return total, total - fields[3] - fields[4]


def reaped_ticks(pid):
    with open(f"/proc/{pid}/stat", encoding="utf-8") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return int(fields[13]) + int(fields[14])  # cutime and cstime, counted from the state field


def started(run, command):
    total, busy = cpu_ticks()
    with open("/proc/loadavg", encoding="utf-8") as file:
        load = [float(value) for value in file.read().split()[:3]]
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": run["commit"],
        "dirty": run["dirty"],
        "machine": run["machine"],
        "loadAtStart": load,
        "command": command,
        "counters": {"total": total, "busy": busy, "measured": reaped_ticks(os.getppid())},
    }


def run_start(state_path, command):
    """The whole run: its commit (and whether the work tree differed from it) holds for every step."""
    run = {"commit": git("rev-parse", "HEAD"), "dirty": git("status", "--porcelain", "--untracked-files=no") != "", "machine": machine()}
    write_json(state_path, started(run, command))


def step_start(state_path, run_path, command):
    write_json(state_path, started(read_json(run_path), command))


def step_end(state_path):
    state = read_json(state_path)
    start = state.pop("counters")
    total, busy = cpu_ticks()
    measured = reaped_ticks(os.getppid()) - start["measured"]
    elapsed = total - start["total"]
    share = None
    if elapsed > 0:
        share = round(max(0.0, (busy - start["busy"] - measured) / elapsed), 4)
    state["otherCpuShare"] = share
    state["quiet"] = share is not None and share < QUIET_OTHER_CPU_SHARE
    state["source"] = None
    write_json(state_path, state)


def provenance(state_path):
    state = read_json(state_path)
    keys = ["date", "commit", "dirty", "machine", "loadAtStart", "otherCpuShare", "quiet", "command", "source"]
    return {key: state.get(key) for key in keys}


FUZZ_LINE = re.compile(r"^([\w-]+): ([\d,]+) cases, seed (\d+), ([\d.]+) s \(([\d,]+) cases/s\), (\d+) failed, "
                       r"(\d+) cases allocated beyond what is documented")


def fuzz(log_path, out_path, state_path):
    rows = []
    with open(log_path, encoding="utf-8") as file:
        for line in file:
            match = FUZZ_LINE.match(line.strip())
            if match:
                target, cases, seed, _, rate, failed, allocating = match.groups()
                rows.append([target, int(cases.replace(",", "")), int(seed), int(failed), int(allocating),
                             int(rate.replace(",", ""))])
    if not rows:
        sys.exit(f"no fuzz report line in {log_path}")
    table = {
        "columns": [{"name": "target", "format": "text"}, {"name": "cases", "format": "int"},
                    {"name": "seed", "format": "int"}, {"name": "failed", "format": "int"},
                    {"name": "cases allocating beyond what is documented", "format": "int"},
                    {"name": "cases/s", "format": "int"}],
        "rows": rows,
        "notes": ["cases/s is the speed of this run on this machine, not a benchmark"],
    }
    write_json(out_path, {"schema": SCHEMA, "provenance": provenance(state_path), "tables": {"fuzz": table}})


def guided(target, stats_path, out_path, state_path):
    with open(stats_path, encoding="utf-8") as file:
        stats = dict((part.strip() for part in line.split(":", 1)) for line in file if ":" in line)
    names = [("run_time", "run time s"), ("execs_done", "executions"), ("execs_per_sec", "executions/s"),
             ("corpus_count", "corpus"), ("edges_found", "edges"), ("saved_crashes", "crashes"),
             ("saved_hangs", "hangs")]
    table = {
        "columns": [{"name": "target", "format": "text"}] + [{"name": label, "format": "int"} for _, label in names],
        "rows": [[target] + [round(float(stats[key])) for key, _ in names]],
    }
    write_json(out_path, {"schema": SCHEMA, "provenance": provenance(state_path), "tables": {"guided": table}})


WITNESS_LINE = re.compile(r"^(.+): witness echoed (\d+) frames during the attack, p50 ([\d.]+) ms, p99 ([\d.]+) ms")
MEMORY_LINE = re.compile(r"^(at start|after warming up|after round \d+ of [\d,]+ resets|after the attack mix): ([\d.]+) MB$")


def tests(trx_path, out_path, state_path):
    namespace = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
    root = ElementTree.parse(trx_path).getroot()
    results, witness, memory = [], [], []
    for result in root.iterfind(".//t:UnitTestResult", namespace):
        name = result.get("testName")
        results.append([name, result.get("outcome")])
        output = result.find("t:Output/t:StdOut", namespace)
        for line in (output.text or "").splitlines() if output is not None else []:
            match = WITNESS_LINE.match(line.strip())
            if match:
                attack, frames, p50, p99 = match.groups()
                witness.append([attack, name.rsplit(".", 1)[-1], int(frames), float(p50), float(p99)])
            match = MEMORY_LINE.match(line.strip())
            if match:
                memory.append([match.group(1), float(match.group(2))])
    results.sort()
    witness.sort()
    tables = {
        "results": {"columns": [{"name": "test", "format": "text"}, {"name": "outcome", "format": "text"}],
                    "rows": results},
        "witness": {
            "columns": [{"name": "attack", "format": "text"}, {"name": "test", "format": "text"},
                        {"name": "witness frames", "format": "int"}, {"name": "witness p50 ms", "format": "text"},
                        {"name": "witness p99 ms", "format": "text"}],
            "rows": [[a, t, f, f"{p50:.2f}", f"{p99:.2f}"] for a, t, f, p50, p99 in witness],
            "notes": ["the witness's round trips while each attack ran: an observation, not a timing target"],
        },
        "memory-return": {
            "columns": [{"name": "berth serve, resident memory", "format": "text"}, {"name": "MiB", "format": "text"}],
            "rows": [[phase, f"{value:.1f}"] for phase, value in memory],
            "notes": ["MemoryReturnTests: the RSS of a berth serve child process once settled after each phase"],
        },
    }
    write_json(out_path, {"schema": SCHEMA, "provenance": provenance(state_path), "tables": tables})


def test_result(tests_file, proof):
    """passed/failed over every test whose name contains the proof (a trailing '*' is a class or prefix)."""
    token = proof.rstrip("*")
    outcomes = [outcome for name, outcome in tests_file["tables"]["results"]["rows"] if token in name]
    if not outcomes:
        return "not run"
    passed = outcomes.count("Passed")
    if passed == len(outcomes):
        return f"passed ({passed}/{len(outcomes)})"
    return f"FAILED ({len(outcomes) - passed} of {len(outcomes)})"


def promises(tsv_path, data_dir, out_path, state_path):
    sources = {name: read_json(os.path.join(data_dir, f"long-{name}.json")) for name in ("tests", "fuzz", "soak")}
    rows = []
    with open(tsv_path, encoding="utf-8") as file:
        for line in file:
            if not line.strip() or line.startswith("#"):
                continue
            promise, kind, proof, checks = line.rstrip("\n").split("\t")
            source = sources[kind]
            if kind == "tests":
                result = test_result(source, proof)
            elif kind == "fuzz":
                fuzz_rows = source["tables"]["fuzz"]["rows"]
                failed = sum(row[3] + row[4] for row in fuzz_rows)
                cases = " + ".join(f"{row[1]:,} {row[0]}" for row in fuzz_rows)
                result = f"passed ({cases} cases)" if failed == 0 else f"FAILED ({failed} cases)"
            else:
                missed = [row[0] for row in source["tables"]["summary"]["rows"] if row[2] != "met"]
                result = "passed" if not missed else "FAILED (" + "; ".join(missed) + ")"
            rows.append([promise, f"`{proof}`", checks, result, source["provenance"]["date"][:10],
                         source["provenance"]["commit"][:7] + (" (dirty)" if source["provenance"]["dirty"] else "")])
    table = {
        "columns": [{"name": "promise", "format": "text"}, {"name": "test or command", "format": "text"},
                    {"name": "what it checks", "format": "text"}, {"name": "last result", "format": "text"},
                    {"name": "date", "format": "text"}, {"name": "commit", "format": "text"}],
        "rows": rows,
    }
    write_json(out_path, {"schema": SCHEMA, "provenance": provenance(state_path), "tables": {"promises": table}})


def main(args):
    commands = {
        "run-start": run_start, "step-start": step_start, "step-end": step_end, "fuzz": fuzz,
        "tests": tests, "guided": guided, "promises": promises,
    }
    if not args or args[0] not in commands:
        sys.exit(__doc__)
    commands[args[0]](*args[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
