#!/usr/bin/env bash
# Builds bench/peers/NetZmqPerf (Berth's perf program written against Net.Zmq's API) from a Net.Zmq source folder,
# for `berth zmq bench --netzmq SRC`. Net.Zmq's sources stay where they are and are never committed here; the build
# goes to bench/peers/build/netzmq (ignored by git). Prints the folder holding the NetZmqPerf program.
# usage: bench/peers/build-netzmq.sh SRC      (SRC: a checkout of github.com/ulala-x/net-zmq)
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1/src/Net.Zmq/Net.Zmq.csproj" ]; then
    echo "usage: $0 SRC (a Net.Zmq checkout holding src/Net.Zmq/Net.Zmq.csproj)" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
source=$(cd "$1" && pwd)
out="$here/build/netzmq"
# Net.Zmq targets net8.0; building it for net10.0 needs no other targeting pack and runs it on the same runtime as Berth.
dotnet build "$here/NetZmqPerf/NetZmqPerf.csproj" -c Release -nologo -v quiet \
    -p:NetZmqSource="$source" -p:TargetFramework=net10.0 -o "$out" >&2
echo "$out"
