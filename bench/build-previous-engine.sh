#!/usr/bin/env bash
# Builds `berth` as it was at a commit into artifacts/previous-engine/<short hash>/cli (once per commit) and prints
# that folder. Used by bench/engine-vs-previous.sh and bench/profile-small-messages.sh. Needs a clone with history.
set -euo pipefail
cd "$(dirname "$0")/.."
out=artifacts/previous-engine/$(git rev-parse --short "$1^{commit}")
mkdir -p "$out"
if [ ! -f "$out/cli/Berth.Cli.dll" ]; then
    rm -rf "$out/src"
    git worktree add -f --detach "$out/src" "$1" > /dev/null 2>&1
    dotnet build "$out/src/src/Berth.Cli/Berth.Cli.csproj" -c Release -nologo -v quiet -o "$out/cli" > /dev/null
    git worktree remove --force "$out/src"
fi
echo "$out/cli"
