#!/usr/bin/env bash
# Installs what a job needs beside the .NET SDK, and nothing more. Only what is missing is installed, from
# Debian's packages, with sudo only when not root; when everything is present nothing needs root.
#
#   bash scripts/setup.sh            the TCP benchmark (berth bench) and the TCP library: the .NET SDK 10 only
#   bash scripts/setup.sh --compare  + gcc: berth bench --compare builds the C echo server and load generator
#   bash scripts/setup.sh --zmq      + libzmq5: Berth.Zmq, berth zmq echo, the ZeroMQ samples
#   bash scripts/setup.sh --native   + libzmq5, libzmq3-dev, gcc: berth zmq bench and the C programs in bench/native
#   bash scripts/setup.sh --aot      + clang, zlib1g-dev: a NativeAOT publish (berth, the samples; docs/AOT.md)
#   bash scripts/setup.sh --java     + a JDK 17 and JeroMQ: the Java programs in bench/java, the interop tests' peer
#   bash scripts/setup.sh --balancer + haproxy, nginx-light and its stream module: tests/Berth.Balancer.Tests and
#                                    berth rolling-restart
#   bash scripts/setup.sh --tests    all of the above and iproute2 (`ip`, for the network fault tests' namespaces):
#                                    what scripts/test.sh and scripts/report.sh run
set -euo pipefail

packages=()
while (($#)); do
    case "$1" in
        --compare) packages+=(gcc) ;;
        --zmq) packages+=(libzmq5) ;;
        --native) packages+=(libzmq5 libzmq3-dev gcc) ;;
        --aot) packages+=(clang zlib1g-dev) ;;
        --java) packages+=(openjdk-17-jdk-headless libjeromq-java) ;;
        --balancer) packages+=(haproxy nginx-light libnginx-mod-stream) ;;
        --tests) packages+=(libzmq5 libzmq3-dev gcc openjdk-17-jdk-headless libjeromq-java iproute2 clang zlib1g-dev haproxy nginx-light libnginx-mod-stream) ;;
        *) echo "setup: unknown option $1 (see the header of scripts/setup.sh)" >&2; exit 2 ;;
    esac
    shift
done

if ! dotnet --list-sdks 2>/dev/null | grep -q '^10\.'; then
    echo "setup: the .NET SDK 10 is required (https://dot.net/download); dotnet --list-sdks shows none" >&2
    exit 1
fi

missing=()
for p in $(printf '%s\n' "${packages[@]}" | sort -u); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: missing ${missing[*]}; install them as root (apt-get install ${missing[*]})" >&2; exit 1; }
    sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
