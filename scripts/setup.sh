#!/usr/bin/env bash
# Installs the native parts Berth needs beside the .NET SDK: libzmq (runtime and headers, for
# Berth.Zmq and the C reference benchmarks), gcc, and JeroMQ with a Java runtime (an independent ZeroMQ peer for the
# interop tests), and iproute2 (`ip`, for the network fault tests' namespaces). Idempotent: does nothing when everything is present.
set -euo pipefail

packages=(libzmq5 libzmq3-dev gcc libjeromq-java openjdk-17-jdk-headless iproute2)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v dotnet >/dev/null || { echo "setup: the .NET SDK 10 is required (dotnet not on PATH)" >&2; exit 1; }
