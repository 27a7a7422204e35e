#!/usr/bin/env bash
# The typed echo (`berth serve --typed`: each frame read as a generated contract, an int32 sequence and a Utf8Field
# payload, and sent back through the generated writer) against the raw frame echo (`berth serve`), each its own
# process, driven by the same C load generator with pipelined bursts like `berth bench --compare`. The load sends the
# typed layout to both (`--message-id 1`), so both echo the same bytes and the ratio is what the typed layer costs.
#
#   bash bench/typed-vs-raw.sh                 3 rounds, 1 s warm-up, 4 segments of 1 s per server and cell
#   bash bench/typed-vs-raw.sh --rounds 5 --duration 8
#   bash bench/typed-vs-raw.sh --data docs/data/messages/typed-echo.json   the berth-result/1 file there (by default
#                                                                           artifacts/typed-vs-raw/typed-echo.json)
#   bash bench/typed-vs-raw.sh --html /tmp/typed-echo.html                  the HTML page there (by default
#                                                                           artifacts/typed-vs-raw/typed-echo.html)
#
# Each round starts both servers for every workload and alternates the load between them in short segments (typed
# first in odd rounds, raw first in even ones); a workload is "met" when the median of at
# least 3 rounds' ratios is at least 0.9x and so is every round, "within noise" when only the median is, "not met"
# when the median is not ("< 3 rounds" with fewer): bench/paired-echo.sh runs the rounds and judges them. Needs gcc
# and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
warmup=1
segments=4
duration=1
data=artifacts/typed-vs-raw/typed-echo.json
html=artifacts/typed-vs-raw/typed-echo.html
command="bash bench/typed-vs-raw.sh${*:+$(printf ' %q' "$@")}"
while (($#)); do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --warmup) warmup="$2"; shift 2 ;;
        --duration) duration="$2"; shift 2 ;;
        --segments) segments="$2"; shift 2 ;;
        --data) data="$2"; shift 2 ;;
        --html) html="$2"; shift 2 ;;
        *) echo "typed-vs-raw: unknown option $1 (see the header of bench/typed-vs-raw.sh)" >&2; exit 2 ;;
    esac
done

bash bench/native/load/build.sh artifacts/compare > /dev/null
dotnet build src/Berth.Cli/Berth.Cli.csproj -c Release -nologo -v quiet > /dev/null
dotnet build bench/Berth.Figures -c Release -nologo -v quiet > /dev/null

serve="dotnet src/Berth.Cli/bin/Release/net10.0/Berth.Cli.dll serve --port 0"
bash bench/paired-echo.sh --out artifacts/typed-vs-raw --command "$command" --rounds "$rounds" --warmup "$warmup" \
    --segments "$segments" --duration "$duration" --target 0.9 --cells "64 100;1024 100" --data "$data" --table typed-vs-raw \
    --title "Typed echo against the raw frame echo: pipelined bursts (pipeline 16), one C load generator" \
    --note "Each round starts berth serve --typed and berth serve for a workload, warms each up for ${warmup} s, then alternates the load between them, ${segments} segments of ${duration} s on each (typed first in odd rounds, raw first in even ones); a round's ratio is that of the two servers' mean msg/s. Both get the same frames from berth-load --message-id 1: the id, an int32 sequence and an ASCII string filling the frame (55 bytes of string in a 64 B frame, 1,014 in a 1 KB one), echoed byte for byte (any mismatch counts as an error and drops that round's pair)." \
    --first "typed" --first-server "$serve --typed" --first-load "--message-id 1" \
    --second "raw" --second-server "$serve" --second-load "--message-id 1"
# The page is the result file seen through the report model berth bench writes its pages with (src/Berth.Results/Reports).
mkdir -p "$(dirname "$html")"
dotnet bench/Berth.Figures/bin/Release/net10.0/Berth.Figures.dll html "$data" "$html" "Typed echo against the raw frame echo"
