#!/usr/bin/env python3
"""Scores the analyzer on folders of real posted error output (corpus/wild and the like).

    scripts/wild_score.py [--binary build/aoti-analyze] [--quiet] FOLDER [FOLDER...]

Each case is a folder with the posted output and an expected.json whose rank1 names the check the
thread's root cause calls for (and strings its finding must quote). Prints, per folder, how many
cases get that check at rank 1 and how many get no finding at all, then each miss.
"""
import argparse
import json
import pathlib
import subprocess
import sys


def finding_text(value):
    """Every string in the finding (title, message, evidence, next steps), as the corpus test reads it."""
    if isinstance(value, str):
        return value + "\n"
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return "".join(finding_text(item) for item in items)


def score(binary, folder, quiet=False):
    cases = sorted(p.parent for p in pathlib.Path(folder).glob("*/expected.json"))
    hits, silent, misses = 0, 0, []
    for case in cases:
        expected = json.loads((case / "expected.json").read_text())
        run = subprocess.run([binary, "--format", "json", str(case)], capture_output=True, text=True)
        try:
            findings = json.loads(run.stdout)["findings"]
        except (ValueError, KeyError):
            findings = []
        want = expected["rank1"]["check"]
        got = findings[0]["check"] if findings else "no findings"
        hit = got == want and all(s in finding_text(findings[0])
                                  for s in expected["rank1"].get("contains", []))
        hits += hit
        silent += not findings
        if not hit:
            misses.append(f"  {case.name}: want {want}, got {got}")
    print(f"{folder}: rank 1 right on {hits}/{len(cases)}, no finding on {silent}")
    if not quiet:
        for miss in misses:
            print(miss)
    return hits, len(cases), silent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default="build/aoti-analyze")
    parser.add_argument("--quiet", action="store_true",
                        help="the figures only, not the misses (for a set-aside folder)")
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args()
    for folder in args.folders:
        score(args.binary, folder, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
