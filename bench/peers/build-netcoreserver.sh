#!/usr/bin/env bash
# Builds Berth's framed echo on NetCoreServer (bench/peers/NetCoreServerEcho) against a NetCoreServer source folder, for
# berth bench --compare --netcoreserver SRC. NetCoreServer is not on the package registry; fetch its source
# (https://github.com/chronoxor/NetCoreServer) anywhere outside this repository.
# usage: build-netcoreserver.sh SRC [OUT]; OUT defaults to artifacts/compare/netcoreserver-echo (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -ge 1 ] && [ -f "$1/source/NetCoreServer/NetCoreServer.csproj" ] \
    || { echo "usage: $0 NETCORESERVER_SOURCE [OUT] (a folder with source/NetCoreServer/NetCoreServer.csproj)" >&2; exit 2; }
src="$(cd "$1" && pwd)"
out="${2:-$here/../../artifacts/compare/netcoreserver-echo}"
dotnet build "$here/NetCoreServerEcho/Berth.NetCoreServerEcho.csproj" -c Release -nologo -v quiet \
    -p:NetCoreServerSource="$src" -o "$out"
echo "$out/Berth.NetCoreServerEcho.dll"
