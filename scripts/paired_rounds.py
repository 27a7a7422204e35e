"""Judges targets for the Python producers (bench/paired-echo.sh, bench/reqresp_vs_grpc.py, bench/sessions.sh).

Each round measures two things back to back under the same conditions and gives one ratio. The rule is the one
docs/RESULTS.md ("Verdicts") states for paired rounds, and src/Berth.Results' TargetVerdict.MedianOfRounds implements
the same rule for the C# producers: "met" when the median of at least 3 rounds' ratios reaches the target and so does
every round, "within noise" when only the median does, "not met" when the median does not, "< 3 rounds" with fewer,
"n/a" with none. A limit on a value is judged on the value's whole range, as TargetVerdict.AtMost does.
"""
import statistics

MINIMUM_ROUNDS = 3


def verdict(ratios, target, higher_is_better=True):
    """The verdict of the rounds' ratios against target: reached at or above it, or at or below it when lower is better."""
    if not ratios:
        return "n/a"
    if len(ratios) < MINIMUM_ROUNDS:
        return f"< {MINIMUM_ROUNDS} rounds"
    reaches = (lambda r: r >= target) if higher_is_better else (lambda r: r <= target)
    if not reaches(statistics.median(ratios)):
        return "not met"
    return "met" if all(reaches(r) for r in ratios) else "within noise"


def at_most(values, limit):
    """The verdict of a value that should stay at or under limit: "met" when its highest run does, "not met" when even
    its lowest run is over it, "within noise" otherwise, "n/a" when it was not measured."""
    if not values:
        return "n/a"
    if max(values) <= limit:
        return "met"
    return "not met" if min(values) > limit else "within noise"


def spread(values, unit="count"):
    """A range cell of berth-result/1 (min, median, max in unit), or None when nothing was measured."""
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values), "unit": unit}
