#!/usr/bin/env bash
# Shows that tests check what their names say: each patch under tests/mutations/ removes one behaviour, and names
# (in its header: Project, Filter) the tests that must then fail. In a throwaway clone of the committed HEAD, this
# applies one patch at a time, builds the test project, runs the filter and expects the run to FAIL; it then undoes
# the patch. A mutation whose tests still pass "survived". Ends with "N passed, N failed" over the mutations and exits
# non-zero when any survived (or did not apply or build).
#
# Not part of scripts/test.sh: it builds and runs once per mutation, far too slow for every change.
# That every patch still applies is checked in every test run, so in CI, with no build per patch: by
# MutationPatchTests.Every_mutation_patch_applies_to_the_current_code in tests/Berth.Tests (git apply --check).
#
#   bash scripts/mutations.sh                       every patch
#   bash scripts/mutations.sh tests/mutations/X.patch ...   only these
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

patches=("$@")
[ ${#patches[@]} -gt 0 ] || patches=(tests/mutations/*.patch)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone --quiet --shared "$repo" "$scratch/repo"
cd "$scratch/repo"

header() { sed -n "s/^$1: //p" "$2" | head -n 1; }

passed=0
failed=0
for patch in "${patches[@]}"; do
    file="$repo/$patch"
    [ -e "$file" ] || file=$patch
    name=$(basename "$patch" .patch)
    project=$(header Project "$file")
    filter=$(header Filter "$file")
    if ! git apply "$file"; then
        echo "mutation $name: FAILED (the patch does not apply)"
        failed=$((failed + 1))
        continue
    fi

    log="$scratch/$name.log"
    if ! dotnet build "$project" -c Release >"$log" 2>&1; then
        echo "mutation $name: FAILED (does not build; log follows)"
        tail -n 20 "$log"
        failed=$((failed + 1))
    elif dotnet test "$project" -c Release --no-build --filter "$filter" >>"$log" 2>&1; then
        echo "mutation $name: FAILED (survived: $filter passed with the mutation)"
        failed=$((failed + 1))
    elif grep -q "No test matches the given testcase filter" "$log"; then
        echo "mutation $name: FAILED (no test matches $filter)"
        failed=$((failed + 1))
    else
        echo "mutation $name: ok, killed by $(grep -o 'Failed [A-Za-z0-9_.]*' "$log" | sort -u | sed 's/^Failed //' | paste -sd ' ')"
        passed=$((passed + 1))
    fi

    git checkout --quiet -- .
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
