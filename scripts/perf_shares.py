"""Where `perf record -e cpu-clock` samples fell, from `perf report` text, for the profile producers
(bench/profile-small-messages.sh, bench/profile-client.sh): shares by kind of code, and the user-space frames with
the largest own share."""
import re


def place(dso):
    """The kind of code a perf report's shared object name stands for."""
    if dso.startswith("[kernel"):
        return "kernel"
    if dso.startswith("[JIT]") or dso.startswith("memfd:doublemapper"):
        return "JIT-compiled .NET code"
    if dso in ("berth", "Berth.Cli"):
        return "NativeAOT-compiled code (the berth binary)"
    if dso.startswith("berth-echo"):
        return "the C echo's own code"
    if dso.startswith("libc.so") or dso.startswith("ld-linux"):
        return "libc and the loader"
    if dso.startswith("[vdso"):
        return "vDSO (clock reads)"
    return "the .NET runtime (coreclr, System.Native, other)"


def places(dso_report):
    """Rows of [kind of code, share of samples], largest first, from `perf report --sort dso` output."""
    shares = {}
    for line in open(dso_report):
        match = re.match(r"\s+([\d.]+)%\s+(.+?)\s*$", line)
        if match:
            kind = place(match.group(2))
            shares[kind] = shares.get(kind, 0) + float(match.group(1)) / 100
    return [[name, round(share, 4)] for name, share in sorted(shares.items(), key=lambda item: -item[1])]


def frames(symbol_report, limit=15):
    """Rows of [frame, share of samples] for the user-space frames with the largest own share, from
    `perf report --sort sym` output; kernel frames are left out."""
    rows = []
    for line in open(symbol_report):
        match = re.match(r"\s+([\d.]+)%\s+(.+?)\s+\[([.k])\]\s+(.+?)\s*$", line)
        if not match or match.group(3) == "k":
            continue
        symbol = match.group(4)
        method = re.search(r"([\w.`+<>\[\],]+::[\w.`<>|]+)\(", symbol)
        name = method.group(1) if method else symbol
        rows.append([re.sub(r"^\[[^\]]*\]\s*", "", name), round(float(match.group(1)) / 100, 4)])
        if len(rows) == limit:
            break
    return rows
