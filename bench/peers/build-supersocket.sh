#!/usr/bin/env bash
# Builds Berth's framed echo on SuperSocket (bench/peers/SuperSocketEcho) against a SuperSocket source folder, for
# berth bench --compare --supersocket SRC. SuperSocket is not on the package registry; fetch its source
# (https://github.com/kerryjiang/SuperSocket) anywhere outside this repository.
# usage: build-supersocket.sh SRC [OUT]; OUT defaults to artifacts/compare/supersocket-echo (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -ge 1 ] && [ -f "$1/src/SuperSocket.Server/SuperSocket.Server.csproj" ] \
    || { echo "usage: $0 SUPERSOCKET_SOURCE [OUT] (a folder with src/SuperSocket.Server/SuperSocket.Server.csproj)" >&2; exit 2; }
src="$(cd "$1" && pwd)"
out="${2:-$here/../../artifacts/compare/supersocket-echo}"
# Only this runtime's framework: the source targets several older ones whose reference packs need not be installed.
dotnet build "$here/SuperSocketEcho/Berth.SuperSocketEcho.csproj" -c Release -nologo -v quiet \
    -p:SuperSocketSource="$src" -p:DotNetTargetFrameworks=net10.0 -o "$out"
echo "$out/Berth.SuperSocketEcho.dll"
