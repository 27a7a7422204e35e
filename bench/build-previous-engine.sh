#!/usr/bin/env bash
# Builds projects as they were at a commit into artifacts/previous-engine/<short hash>/<folder> (once per commit and
# project) and prints the folder of the last one. Used by bench/engine-vs-previous.sh, bench/profile-small-messages.sh,
# bench/profile-client.sh, bench/count-small-messages.sh and bench/reqresp-vs-previous.sh. Needs a clone with history.
#
#   bash bench/build-previous-engine.sh COMMIT        `berth` (src/Berth.Cli) into .../cli
#   bash bench/build-previous-engine.sh COMMIT bench/Berth.RequestServer:server bench/Berth.CallLoad:load
#   bash bench/build-previous-engine.sh --native COMMIT     `berth` published as NativeAOT, as CI publishes it, into
#                                                           .../native (bench/aot-vs-jit.sh --previous)
#
# A project that does not build at that commit is named, with its build log, and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
native=""
if [ "$1" = --native ]; then
    native=yes
    shift
fi
commit=$1
shift
if [ -n "$native" ]; then
    set -- src/Berth.Cli:native
fi
(($#)) || set -- src/Berth.Cli:cli
out=artifacts/previous-engine/$(git rev-parse --short "$commit^{commit}")
mkdir -p "$out"
checked_out=""
for spec in "$@"; do
    project=${spec%:*}
    folder=$out/${spec#*:}
    name=$(basename "$project")
    built=$folder/$name.dll
    [ -z "$native" ] || built=$folder/berth
    if [ ! -f "$built" ]; then
        if [ -z "$checked_out" ]; then
            rm -rf "$out/src"
            git worktree add -f --detach "$out/src" "$commit" > /dev/null 2>&1
            checked_out=yes
        fi
        if [ -n "$native" ]; then
            build=(publish -r linux-x64 -p:PublishAot=true)
        else
            build=(build)
        fi
        if ! dotnet "${build[@]}" "$out/src/$project/$name.csproj" -c Release -nologo -v quiet -o "$folder" > "$out/build.log" 2>&1; then
            echo "build-previous-engine: $project of $commit did not build; see $out/build.log" >&2
            git worktree remove --force "$out/src"
            exit 1
        fi
    fi
done
[ -z "$checked_out" ] || git worktree remove --force "$out/src"
echo "$folder"
