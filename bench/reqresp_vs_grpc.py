#!/usr/bin/env python3
"""Judges and writes what bench/reqresp-vs-grpc.sh measured.

  reqresp_vs_grpc.py RESULTS_TSV STATE HTML [DATA]

RESULTS_TSV holds one line per run: round, target (berth or grpc), connections, outstanding, Berth.CallLoad's JSON line.
Prints the tables, writes them as a self-contained HTML page, and as a berth-result/1 file when DATA is given.
"""
import html
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import long_results  # noqa: E402

ROUNDS = 3
CALLS_TARGET = 5.0  # Berth's calls/s at least this many times gRPC's
P99_TARGET = 0.3  # Berth's p99 at most this share of gRPC's


def verdict(ratios, target, higher_is_better):
    if not ratios:
        return "n/a"
    if len(ratios) < ROUNDS:
        return "< 3 rounds"
    reaches = (lambda r: r >= target) if higher_is_better else (lambda r: r <= target)
    if not reaches(statistics.median(ratios)):
        return "not met"
    return "met" if all(reaches(r) for r in ratios) else "within noise"


def spread(values, unit):
    return {"min": min(values), "median": statistics.median(values), "max": max(values), "unit": unit}


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


def number(value, unit):
    if unit == "count":
        for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
            if abs(value) >= scale:
                return f"{value / scale:.{0 if suffix == 'K' else 2}f}{suffix}"
        return f"{value:.0f}"
    if unit == "ratio":
        return f"{value:.2f}x"
    if unit == "int":
        return f"{value:,.0f}"
    if unit == "bytes":
        for scale, suffix in ((1 << 30, " GiB"), (1 << 20, " MiB"), (1 << 10, " KiB")):
            if abs(value) >= scale:
                return significant(value / scale) + suffix
        return (f"{value:.0f}" if value == int(value) else significant(value)) + " B"
    return significant(value) + {"us": " µs", "ms": " ms"}.get(unit, "")


def significant(value):
    # As src/Berth.Results prints figures: whole numbers from 100, three significant digits from 1, three decimals below.
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return f"{value:.3f}".rstrip("0").rstrip(".")


def cell_text(cell, column):
    if cell is None:
        return "–"
    if isinstance(cell, str):
        return cell
    if isinstance(cell, dict):
        unit = cell["unit"]
        return f"{number(cell['median'], unit)} ({number(cell['min'], unit)}–{number(cell['max'], unit)})"
    return number(cell, column["format"])


def print_markdown(table):
    print(f"\n**{table['title']}**\n")
    print("| " + " | ".join(c["name"] for c in table["columns"]) + " |")
    print("| " + " | ".join("---" for _ in table["columns"]) + " |")
    for row in table["rows"]:
        print("| " + " | ".join(cell_text(cell, column) for cell, column in zip(row, table["columns"])) + " |")


def write_html(path, provenance, all_tables):
    # A small renderer of its own: the report model of src/Berth.Cli is internal to the berth command, which stays
    # free of gRPC, so this page prints the same cells the same way from the same tables.
    e = html.escape
    parts = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Berth against gRPC: request/response</title>",
             "<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
             "code{background:#f6f6f6;padding:2px 4px}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{color:#666}dd{margin:0}</style>",
             "</head><body><h1>Berth against gRPC: request/response</h1><dl>"]
    other = provenance["otherCpuShare"]
    for name, value in [("date", provenance["date"]), ("command", provenance["command"]), ("commit", provenance["commit"]),
                        ("machine", provenance["machine"]), ("load", " ".join(str(v) for v in provenance["loadAtStart"] or [])),
                        ("other CPU", "not measured" if other is None else f"{other:.1%} ({'quiet' if provenance['quiet'] else 'not quiet'})")]:
        parts.append(f"<dt>{e(name)}</dt><dd>{'<code>' + e(value) + '</code>' if name == 'command' else e(str(value))}</dd>")
    parts.append("</dl>")
    for table in all_tables.values():
        parts.append(f"<h2>{e(table['title'])}</h2><table><tr>" + "".join(f"<th>{e(c['name'])}</th>" for c in table["columns"]) + "</tr>")
        for row in table["rows"]:
            parts.append("<tr>" + "".join(f"<td>{e(cell_text(cell, column))}</td>" for cell, column in zip(row, table["columns"])) + "</tr>")
        parts.append("</table>" + "".join(f"<p>{e(note)}</p>" for note in table.get("notes", [])))
    parts.append("</body></html>\n")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write("".join(parts))


def main():
    results, state, html_path = sys.argv[1:4]
    data = sys.argv[4] if len(sys.argv) > 4 else ""
    cells, runs = load(results)
    all_tables = tables(cells, runs)
    for table in all_tables.values():
        print_markdown(table)
    provenance = long_results.provenance(state)
    write_html(html_path, provenance, all_tables)
    print(f"\nwrote {html_path}")
    if data:
        long_results.write_json(data, {"schema": long_results.SCHEMA, "provenance": provenance, "tables": all_tables})
        print(f"wrote {data}")


if __name__ == "__main__":
    main()
