#!/usr/bin/env bash
# Re-renders every generated block in README.md and docs/**/*.md from the committed result files under docs/data/
# (the format and the markers are described in docs/RESULTS.md).
#
#   bash scripts/render-docs.sh           rewrite the blocks in place
#   bash scripts/render-docs.sh --check   write nothing; fail, listing the documents, when a block differs from its
#                                         data or names a missing file or table, or a data file lacks provenance
set -euo pipefail
cd "$(dirname "$0")/.."
# The build's own output only when it fails, so the check's output is the list of documents.
if ! build=$(dotnet build bench/Berth.Figures -c Release -nologo -v quiet 2>&1); then
    echo "$build" >&2
    exit 1
fi
dotnet bench/Berth.Figures/bin/Release/net10.0/Berth.Figures.dll render --root . "$@"
