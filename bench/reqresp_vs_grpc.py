#!/usr/bin/env python3
"""Judges and writes what bench/reqresp-vs-grpc.sh measured.

  reqresp_vs_grpc.py RESULTS_TSV STATE DATA

RESULTS_TSV holds one line per run: round, target (berth, grpc, or one of the C pairs: c-sleeping for berth-load
against berth-echo, c-spinning for berth-load-spin against berth-echo-spin), connections, outstanding, then
Berth.CallLoad's JSON line or, for a C pair, berth-load's. A round's C limit is the faster of its two C pairs.
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
C_PAIRS = {"c-sleeping": "sleeping", "c-spinning": "spinning"}  # target in the results file: its name in the tables
MATCHING_LIMIT = 0.95  # where CALLS_TARGET x gRPC is above the C limit, Berth at this share of the limit's calls/s matches it


def load(path):
    runs = {}
    cells = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            round_, target, connections, outstanding, result = line.rstrip("\n").split("\t")
            cell = (int(connections), int(outstanding))
            if cell not in cells:
                cells.append(cell)
            result = json.loads(result)
            if target in C_PAIRS:
                # berth-load counts echoed frames; with one frame per call they are the limit's round trips.
                result["calls_per_s"] = result["msg_per_s"]
                result["pair"] = C_PAIRS[target]
            runs.setdefault((cell, target), []).append((int(round_), result))
    # A round's runs ran back to back: Berth's nth run beside gRPC's nth and the C limit's nth.
    runs = {key: [r for _, r in sorted(value, key=lambda item: item[0])] for key, value in runs.items()}
    for cell in cells:
        runs[(cell, "c")] = [faster_pair(pairs) for pairs in zip(*(runs.get((cell, target), []) for target in C_PAIRS))]
    return cells, runs


def faster_pair(pairs):
    """The round's C limit: the pair with more round trips per second, a pair with a failed call only if both had one."""
    return max(pairs, key=lambda r: (r["errors"] == 0, r["calls_per_s"]))


def package_version(name):
    """The version Directory.Packages.props pins, so the notes name what ran."""
    props = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Directory.Packages.props")
    match = re.search(rf'Include="{re.escape(name)}" Version="([^"]+)"', open(props, encoding="utf-8").read())
    return match.group(1) if match else "unknown"


def limit_verdict(berth_vs_c, c_vs_grpc):
    """The "limit" column: where CALLS_TARGET x gRPC is above the C limit, Berth judged against the limit instead."""
    if not c_vs_grpc:
        return "n/a"
    if statistics.median(c_vs_grpc) >= CALLS_TARGET:
        return f"C is {statistics.median(c_vs_grpc):.2f}x gRPC: the {CALLS_TARGET:g}x target stands"
    return f"{verdict(berth_vs_c, MATCHING_LIMIT, higher_is_better=True)} (at least {MATCHING_LIMIT:g}x C)"


def tables(cells, runs):
    throughput, latency, cost = [], [], []
    for cell in cells:
        berth, grpc, c = runs[(cell, "berth")], runs[(cell, "grpc")], runs.get((cell, "c"), [])
        label = f"{cell[0]} x {cell[1]}"
        values = lambda runs_, key: [r[key] for r in runs_]
        ratios = lambda pairs_, key: [top[key] / bottom[key] for top, bottom in pairs_]
        # A pair where either run had a failed call is left out of the ratios (its runs still show in the ranges and
        # the failed calls column), as bench/paired-echo.sh leaves out a pair with echo errors.
        clean = lambda tops, bottoms: [(t, b) for t, b in zip(tops, bottoms) if t["errors"] == 0 and b["errors"] == 0]
        pairs = clean(berth, grpc)
        calls = ratios(pairs, "calls_per_s")
        p99 = ratios(pairs, "p99_us")
        c_vs_grpc = ratios(clean(c, grpc), "calls_per_s")
        berth_vs_c = ratios(clean(berth, c), "calls_per_s")
        median = lambda ratios_: statistics.median(ratios_) if ratios_ else None
        throughput.append([label, spread(values(berth, "calls_per_s"), "count"), spread(values(grpc, "calls_per_s"), "count"),
                           " ".join(f"{r:.2f}x" for r in calls), median(calls),
                           verdict(calls, CALLS_TARGET, higher_is_better=True),
                           spread(values(c, "calls_per_s"), "count"), " ".join(values(c, "pair")), median(c_vs_grpc),
                           " ".join(f"{r:.2f}x" for r in berth_vs_c), median(berth_vs_c),
                           limit_verdict(berth_vs_c, c_vs_grpc)])
        latency.append([label, spread(values(berth, "p50_us"), "us"), spread(values(grpc, "p50_us"), "us"),
                        spread(values(berth, "p99_us"), "us"), spread(values(grpc, "p99_us"), "us"),
                        " ".join(f"{r:.2f}x" for r in p99), median(p99),
                        verdict(p99, P99_TARGET, higher_is_better=False),
                        spread(values(c, "p50_us"), "us"), spread(values(c, "p99_us"), "us")])
        # CPU seconds per million calls, printed in ms: the server's own CPU over the window, not the driver's.
        cpu = lambda runs_: spread([r["server_cpu_s_per_million"] * 1000 for r in runs_], "ms")
        cost.append([label, cpu(berth), cpu(grpc),
                     spread(values(berth, "server_bytes_per_call"), "bytes"), spread(values(berth, "driver_bytes_per_call"), "bytes"),
                     spread(values(grpc, "server_bytes_per_call"), "bytes"), spread(values(grpc, "driver_bytes_per_call"), "bytes"),
                     sum(r["errors"] for r in berth + grpc + [r for t in C_PAIRS for r in runs.get((cell, t), [])])])
    notes = ["Cells are connections x calls outstanding per connection, closed loop. Each round runs a cell on Berth, "
             "on gRPC and on the C limit back to back, the first of the three rotating by one each round; a round's "
             "ratio is that round's pair. Ranges are median (min-max) over the rounds.",
             "The C limit: the C load generator (bench/native/load, one thread) against a fresh C epoll echo "
             "(bench/native/echo, one thread per core) with the cell's connections, the cell's outstanding count as "
             "frames in flight per connection, and frames of Berth's request size (envelope and message): the loopback "
             "round trip with nothing but the sockets. Each round runs two such pairs back to back, the programs that "
             "sleep in epoll_wait (berth-load, berth-echo) and the same programs polling for up to 50 us before they "
             "sleep (berth-load-spin, berth-echo-spin), and the round's limit is the faster of the two (C pair per "
             "round names it). Where C/gRPC is under 5x, no server can reach 5x gRPC on this "
             f"machine, and the limit column judges Berth/C against {MATCHING_LIMIT:g}x instead (docs/RESULTS.md, "
             "Verdicts); the at least 5x column keeps its verdict.",
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
                        {"name": "median ratio", "format": "ratio"}, {"name": "at least 5x", "format": "verdict"},
                        {"name": "C calls/s", "format": "range"}, {"name": "C pair per round", "format": "text"},
                        {"name": "C/gRPC", "format": "ratio"},
                        {"name": "Berth/C per round", "format": "text"}, {"name": "median Berth/C", "format": "ratio"},
                        {"name": "limit", "format": "verdict"}],
            "rows": throughput,
            "notes": notes,
        },
        "latency": {
            "title": "Request/response round trips over loopback: round-trip time, Berth against gRPC unary calls",
            "columns": [{"name": "cell", "format": "text"}, {"name": "Berth p50", "format": "range"},
                        {"name": "gRPC p50", "format": "range"}, {"name": "Berth p99", "format": "range"},
                        {"name": "gRPC p99", "format": "range"}, {"name": "p99 ratio per round", "format": "text"},
                        {"name": "median p99 ratio", "format": "ratio"}, {"name": "at most 0.3x", "format": "verdict"},
                        {"name": "C p50", "format": "range"}, {"name": "C p99", "format": "range"}],
            "rows": latency,
            "notes": ["Round-trip time as the driver's caller sees it (request issued to reply in hand), HdrHistogram "
                      "over the measured window; for the C limit, from a frame's send to its echo in hand, in the load "
                      "generator's log-linear histogram."],
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
                      "everything the process allocated included. Failed calls count every run of the cell, both C pairs' included."],
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
            print(f"  {row[0]}: ratio per round {row[3 if name == 'throughput' else 5]}, verdict {row[5 if name == 'throughput' else 7]}")
            if name == "throughput":
                c_vs_grpc = "n/a" if row[8] is None else f"{row[8]:.2f}x"
                print(f"    C pair per round {row[7]}, C/gRPC {c_vs_grpc}, Berth/C per round {row[9]}, limit {row[11]}")
    long_results.write_json(data, {"schema": long_results.SCHEMA, "provenance": long_results.provenance(state),
                                   "tables": all_tables})
    print(f"wrote {data}")


if __name__ == "__main__":
    main()
