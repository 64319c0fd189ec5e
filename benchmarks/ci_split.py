"""Adds up the files ``benchmarks/ci_durations.py`` wrote (one a pytest process) and prints
where a test run's time went: wall and CPU of each process, the CPU spent compiling in the
test processes themselves, the child processes' CPU, and the files and tests that cost most.

    python benchmarks/ci_split.py benchmarks/results/ci_tests_NAME*.json [--top 25] [--out F]

(the ``.jsonl`` files instead, for a run stopped before its end: the tests' own lines, the
totals their sums.)
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--out", help="write the summary as JSON here")
    args = parser.parse_args()
    workers, tests = [], []
    for name in args.files:
        with open(name) as f:
            if name.endswith(".jsonl"):  # the lines of a run stopped early: no totals
                lines = [json.loads(line) for line in f if line.strip()]
                tests += lines
                workers.append({"worker": name.rsplit(".", 2)[-2], "tests": len(lines),
                                "loadavg": None, **{key: round(sum(t[key] for t in lines), 2)
                                                    for key in ("wall_s", "cpu_s",
                                                                "children_cpu_s",
                                                                "compile_cpu_s")}})
                continue
            data = json.load(f)
        workers.append(data["totals"])
        tests += data["tests"]
    total = {key: round(sum(w[key] for w in workers), 2)
             for key in ("cpu_s", "children_cpu_s", "compile_cpu_s", "tests")}
    total["wall_s_max"] = max(w["wall_s"] for w in workers)
    for w in workers:
        print(f"{w['worker']:>6}: wall {w['wall_s']:8.1f} s, cpu {w['cpu_s']:8.1f} s (compiling "
              f"{w['compile_cpu_s']:7.1f}), children {w['children_cpu_s']:7.1f} s, "
              f"{w['tests']} tests, load {w['loadavg']}")
    print(f" total: cpu {total['cpu_s']:.1f} s (compiling {total['compile_cpu_s']:.1f}), "
          f"children {total['children_cpu_s']:.1f} s, {total['tests']} tests")
    by_file = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0])
    for t in tests:
        row = by_file[t["nodeid"].split("::")[0]]
        row[0] += t["wall_s"]
        row[1] += t["cpu_s"]
        row[2] += t["compile_cpu_s"]
        row[3] += t["children_cpu_s"]
        row[4] += 1
    files = sorted(by_file.items(), key=lambda kv: -(kv[1][1] + kv[1][3]))
    print("\nfiles by CPU (own + children):  wall  cpu  compiling  children  tests")
    for name, (wall, cpu, comp, child, n) in files[:args.top]:
        print(f"  {name:45s} {wall:7.1f} {cpu:7.1f} {comp:7.1f} {child:7.1f} {n:5d}")
    ranked = sorted(tests, key=lambda t: -(t["cpu_s"] + t["children_cpu_s"]))
    print("\ntests by CPU (own + children):  wall  cpu  compiling  children")
    for t in ranked[:args.top]:
        print(f"  {t['nodeid'][:90]:90s} {t['wall_s']:6.1f} {t['cpu_s']:6.1f} "
              f"{t['compile_cpu_s']:6.1f} {t['children_cpu_s']:6.1f}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"workers": workers, "total": total,
                       "files": {k: dict(zip(("wall_s", "cpu_s", "compile_cpu_s",
                                              "children_cpu_s", "tests"), v))
                                 for k, v in files},
                       "top_tests": ranked[:args.top]}, f, indent=1)


if __name__ == "__main__":
    main()
