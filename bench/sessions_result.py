#!/usr/bin/env python3
"""Judges and writes what bench/sessions.sh measured.

  sessions_result.py RESULTS_TSV STATE DATA

RESULTS_TSV holds one line per run: round, connections, server, client (dotnet for berth load, c for the C load
generator), p50 ms, p99 ms, errors, the server's resident bytes at the end of the run ("None" and "no-result" where
the client wrote no result). STATE is the run's provenance (scripts/long_results.py). Prints the table of ranges and
the targets, and writes the tables runs, sessions and targets as a berth-result/1 file, DATA.

The targets are limits on the C load generator's p99 against `berth serve` (inline handlers, the default), judged
on every round's run by scripts/paired_rounds.py's at_most (the rule of docs/RESULTS.md): the C client, because a
.NET client holding as many sockets on the same cores measures itself as much as the server.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import long_results  # noqa: E402
from paired_rounds import at_most, spread  # noqa: E402

# p99 limits in ms by sessions: docs/TCP.md's target at 10,000, and no regression at 1,000 (issue 21).
P99_LIMITS_MS = {1000: 5.0, 10000: 20.0}
JUDGED_SERVER = "berth-inline"
JUDGED_CLIENT = "c"
SERVERS = {
    "berth-inline": "berth serve",
    "berth-threadpool": "berth serve --scheduling threadpool",
    "c-epoll": "C epoll echo",
    "kestrel": "Kestrel",
}
CLIENTS = {"dotnet": "berth load (.NET)", "c": "C load generator"}


def number(text):
    return None if text == "None" else float(text)


def load(path):
    runs = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            round_, connections, server, client, p50, p99, errors, rss = line.rstrip("\n").split("\t")
            runs.append({
                "round": int(round_), "connections": int(connections), "server": server, "client": client,
                "p50": number(p50), "p99": number(p99), "errors": None if errors == "no-result" else int(float(errors)),
                "rss": None if rss == "None" else int(float(rss)),
            })
    return runs


def measured(runs, key):
    return [run[key] for run in runs if run[key] is not None]


def errors_cell(runs):
    missing = sum(1 for run in runs if run["errors"] is None)
    errors = sum(measured(runs, "errors"))
    return errors if not missing else f"{errors}, {missing} run(s) without a result"


def runs_table(runs):
    return {
        "title": "Every run",
        "columns": [{"name": "round", "format": "int"}, {"name": "sessions", "format": "int"},
                    {"name": "server", "format": "text"}, {"name": "client", "format": "text"},
                    {"name": "p50", "format": "ms"}, {"name": "p99", "format": "ms"},
                    {"name": "errors", "format": "int"}, {"name": "server RSS", "format": "bytes"}],
        "rows": [[run["round"], run["connections"], SERVERS[run["server"]], CLIENTS[run["client"]], run["p50"],
                  run["p99"], "no result" if run["errors"] is None else run["errors"], run["rss"]] for run in runs],
    }


def groups(runs):
    keys = []
    for run in runs:
        key = (run["connections"], run["client"], run["server"])
        if key not in keys:
            keys.append(key)
    return [(key, [run for run in runs if (run["connections"], run["client"], run["server"]) == key]) for key in keys]


def sessions_table(runs, rounds):
    rows = []
    for (connections, client, server), group in groups(runs):
        rows.append([connections, SERVERS[server], CLIENTS[client], spread(measured(group, "p50"), "ms"),
                     spread(measured(group, "p99"), "ms"), errors_cell(group), spread(measured(group, "rss"), "bytes")])
    return {
        "title": "Sessions at one request per second, p50 and p99 from when each request was due: "
                 f"median (min-max) of {rounds} round(s)",
        "columns": [{"name": "sessions", "format": "int"}, {"name": "server", "format": "text"},
                    {"name": "client", "format": "text"}, {"name": "p50", "format": "range"},
                    {"name": "p99", "format": "range"}, {"name": "errors", "format": "int"},
                    {"name": "server RSS at the end", "format": "range"}],
        "rows": rows,
        "notes": ["Each server runs as its own fresh process for each run. berth load sends random 4-16 KiB bodies; the "
                  "C load generator sends 10 KiB bodies from one epoll thread. Server RSS is the server's VmRSS when "
                  "the run ends."],
    }


def targets_table(runs):
    rows = []
    for connections, limit in sorted(P99_LIMITS_MS.items()):
        judged = [run for run in runs if run["connections"] == connections and run["server"] == JUDGED_SERVER
                  and run["client"] == JUDGED_CLIENT]
        p99s = measured(judged, "p99")
        errors = sum(measured(judged, "errors"))
        missing = len(judged) - len(p99s)
        verdict = at_most(p99s, limit)
        if errors:
            verdict = f"not met ({errors} errors)"
        elif missing:
            verdict = f"not met ({missing} run(s) without a result)"
        rows.append([connections, f"p99 at most {limit:g} ms", spread(p99s, "ms"), len(p99s), verdict])
    return {
        "title": "Targets: p99 of one request per second per session, the C load generator against berth serve",
        "columns": [{"name": "sessions", "format": "int"}, {"name": "target", "format": "text"},
                    {"name": "p99", "format": "range"}, {"name": "runs", "format": "int"},
                    {"name": "verdict", "format": "verdict"}],
        "rows": rows,
        "notes": ["Judged on the C load generator's p99 against berth serve (inline handlers, the default) in every "
                  "round: met when the highest run is within the limit, not met when even the lowest is over it, "
                  "within noise otherwise; a run with errors or without a result is not met, and n/a means no run at "
                  "that many sessions. The C client judges because a .NET client holding as many sockets on the same "
                  "cores measures itself as much as the server."],
    }


def main(results_path, state_path, data_path):
    runs = load(results_path)
    rounds = max((run["round"] for run in runs), default=0)
    tables = {"targets": targets_table(runs), "sessions": sessions_table(runs, rounds), "runs": runs_table(runs)}
    print("\n| sessions | server | client | runs | p50 ms (median) | p99 ms (median) [min-max] | errors | server RSS MB (median) |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for (connections, client, server), group in groups(runs):
        p50, p99, rss = spread(measured(group, "p50")), spread(measured(group, "p99")), spread(measured(group, "rss"))
        p50_text = f"{p50['median']:.2f}" if p50 else "-"
        p99_text = f"{p99['median']:.1f} [{p99['min']:.1f}-{p99['max']:.1f}]" if p99 else "-"
        rss_text = f"{rss['median'] / 1048576:.0f}" if rss else "-"
        print(f"| {connections} | {SERVERS[server]} | {CLIENTS[client]} | {len(group)} | {p50_text} | {p99_text} | "
              f"{errors_cell(group)} | {rss_text} |")
    print()
    for row in tables["targets"]["rows"]:
        print(f"{row[0]} sessions, {row[1]}: {row[4]}")
    long_results.write_json(data_path, {"schema": long_results.SCHEMA, "provenance": long_results.provenance(state_path),
                                        "tables": tables})
    print(f"wrote {data_path}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
