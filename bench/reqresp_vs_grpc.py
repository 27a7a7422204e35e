#!/usr/bin/env python3
"""Judges and writes what bench/reqresp-vs-grpc.sh measured.

  reqresp_vs_grpc.py RESULTS_TSV STATE DATA

RESULTS_TSV holds one line per run: round, target (berth or grpc), connections, outstanding, Berth.CallLoad's JSON line.
Prints each cell's verdicts and writes the tables as a berth-result/1 file, DATA; bench/reqresp-vs-grpc.sh renders
its HTML page from that file with Berth.Figures, as the other producers' pages are.
Targets are judged on paired rounds by scripts/paired_rounds.py (the rule of docs/RESULTS.md).
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import long_results  # noqa: E402
from paired_rounds import spread, verdict  # noqa: E402

CALLS_TARGET = 5.0  # Berth's calls/s at least this many times gRPC's
P99_TARGET = 0.3  # Berth's p99 at most this share of gRPC's


def load(path):
    runs = {}
    cells = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            round_, target, connections, outstanding, result = line.rstrip("\n").split("\t")
            cell = (int(connections), int(outstanding))
            if cell not in cells:
                cells.append(cell)
            runs.setdefault((cell, target), []).append((int(round_), json.loads(result)))
    # A round's pair ran back to back: Berth's nth run beside gRPC's nth.
    return cells, {key: [r for _, r in sorted(value, key=lambda item: item[0])] for key, value in runs.items()}


def package_version(name):
    """The version Directory.Packages.props pins, so the notes name what ran."""
    props = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Directory.Packages.props")
    match = re.search(rf'Include="{re.escape(name)}" Version="([^"]+)"', open(props, encoding="utf-8").read())
    return match.group(1) if match else "unknown"


def tables(cells, runs):
    throughput, latency, cost = [], [], []
    for cell in cells:
        berth, grpc = runs[(cell, "berth")], runs[(cell, "grpc")]
        label = f"{cell[0]} x {cell[1]}"
        values = lambda runs_, key: [r[key] for r in runs_]
        # A pair where either run had a failed call is left out of the ratios (its runs still show in the ranges and
        # the failed calls column), as bench/paired-echo.sh leaves out a pair with echo errors.
        pairs = [(b, g) for b, g in zip(berth, grpc) if b["errors"] == 0 and g["errors"] == 0]
        calls = [b["calls_per_s"] / g["calls_per_s"] for b, g in pairs]
        p99 = [b["p99_us"] / g["p99_us"] for b, g in pairs]
        throughput.append([label, spread(values(berth, "calls_per_s"), "count"), spread(values(grpc, "calls_per_s"), "count"),
                           " ".join(f"{r:.2f}x" for r in calls), statistics.median(calls) if calls else None,
                           verdict(calls, CALLS_TARGET, higher_is_better=True)])
        latency.append([label, spread(values(berth, "p50_us"), "us"), spread(values(grpc, "p50_us"), "us"),
                        spread(values(berth, "p99_us"), "us"), spread(values(grpc, "p99_us"), "us"),
                        " ".join(f"{r:.2f}x" for r in p99), statistics.median(p99) if p99 else None,
                        verdict(p99, P99_TARGET, higher_is_better=False)])
        # CPU seconds per million calls, printed in ms: the server's own CPU over the window, not the driver's.
        cpu = lambda runs_: spread([r["server_cpu_s_per_million"] * 1000 for r in runs_], "ms")
        cost.append([label, cpu(berth), cpu(grpc),
                     spread(values(berth, "server_bytes_per_call"), "bytes"), spread(values(berth, "driver_bytes_per_call"), "bytes"),
                     spread(values(grpc, "server_bytes_per_call"), "bytes"), spread(values(grpc, "driver_bytes_per_call"), "bytes"),
                     sum(r["errors"] for r in berth + grpc)])
    notes = ["Cells are connections x calls outstanding per connection, closed loop. Each round runs a cell on Berth, "
             "then at once on gRPC; a round's ratio is that pair's. Ranges are median (min-max) over the rounds.",
             f"gRPC: Grpc.AspNetCore {package_version('Grpc.AspNetCore')} and Grpc.Net.Client "
             f"{package_version('Grpc.Net.Client')} with their defaults (one GrpcChannel per connection, "
             "Kestrel's 100 streams per HTTP/2 connection, no compression), HTTP/2 without TLS, server GC as the Web SDK "
             "sets it, no logging providers. Berth: BerthServer and one BerthClient per connection with default options, "
             "workstation non-concurrent GC as berth serve has. The driver, one program for both, keeps the console defaults."]
    return {
        "throughput": {
            "title": "Request/response round trips over loopback: calls/s, Berth against gRPC unary calls",
            "columns": [{"name": "cell", "format": "text"}, {"name": "Berth calls/s", "format": "range"},
                        {"name": "gRPC calls/s", "format": "range"}, {"name": "ratio per round", "format": "text"},
                        {"name": "median ratio", "format": "ratio"}, {"name": "at least 5x", "format": "verdict"}],
            "rows": throughput,
            "notes": notes,
        },
        "latency": {
            "title": "Request/response round trips over loopback: round-trip time, Berth against gRPC unary calls",
            "columns": [{"name": "cell", "format": "text"}, {"name": "Berth p50", "format": "range"},
                        {"name": "gRPC p50", "format": "range"}, {"name": "Berth p99", "format": "range"},
                        {"name": "gRPC p99", "format": "range"}, {"name": "p99 ratio per round", "format": "text"},
                        {"name": "median p99 ratio", "format": "ratio"}, {"name": "at most 0.3x", "format": "verdict"}],
            "rows": latency,
            "notes": ["Round-trip time as the driver's caller sees it (request issued to reply in hand), HdrHistogram "
                      "over the measured window."],
        },
        "cost": {
            "title": "Request/response round trips over loopback: server CPU per million calls and allocation per call",
            "columns": [{"name": "cell", "format": "text"}, {"name": "Berth server CPU per million calls", "format": "range"},
                        {"name": "gRPC server CPU per million calls", "format": "range"},
                        {"name": "Berth server B/call", "format": "range"}, {"name": "Berth driver B/call", "format": "range"},
                        {"name": "gRPC server B/call", "format": "range"}, {"name": "gRPC driver B/call", "format": "range"},
                        {"name": "failed calls", "format": "int"}],
            "rows": cost,
            "notes": ["CPU is the server process's utime + stime over the window. Bytes per call are each process's "
                      "GC.GetTotalAllocatedBytes(precise) delta over the window divided by the window's calls, "
                      "everything the process allocated included."],
        },
    }


def main():
    results, state, data = sys.argv[1:4]
    cells, runs = load(results)
    all_tables = tables(cells, runs)
    for name in ("throughput", "latency"):
        table = all_tables[name]
        print(f"\n{table['title']}")
        for row in table["rows"]:
            print(f"  {row[0]}: ratio per round {row[-3]}, verdict {row[-1]}")
    long_results.write_json(data, {"schema": long_results.SCHEMA, "provenance": long_results.provenance(state),
                                   "tables": all_tables})
    print(f"wrote {data}")


if __name__ == "__main__":
    main()
