#!/usr/bin/env python3
"""Blind judging of SyncLint's findings on a folder of corpus apps (docs/precision.md, "How a round is judged").

    Benchmarks/judge.py sample SET_DIR OUT_DIR --synclint BIN --judges A,B,C [--seed 21] [--all-up-to 15] [--high-per-rule 8]
    Benchmarks/judge.py second OUT_DIR --count 30 [--seed 21]
    Benchmarks/judge.py tabulate OUT_DIR [--record Benchmarks/corpus/verdicts/roundN.tsv]

`sample` lints each app folder of SET_DIR (e.g. .corpus-apps/fresh13) as its own project, as a user would, three times:
the default rules, the default rules with `--confidence medium`, and every rule with `--confidence medium` (JSON
reports kept in OUT_DIR/findings/). It picks the findings to judge: every default finding, every finding of a rule with
at most --all-up-to findings on the set (both tiers), and --high-per-rule high findings of each larger rule (drawn with
the seed). It writes one file per judge (OUT_DIR/judge-A.md, ...), each app's findings to one judge so that a judge
reads an app once, with the tier and the default/opt-in status hidden; and OUT_DIR/sample.tsv, which keeps them.

Judges answer in OUT_DIR/verdicts-A.tsv, one line per finding: `id<TAB>right|wrong|unsure<TAB>reason`.

`second` draws --count of the judged findings (tiers hidden) into OUT_DIR/judge-second.md for a judge who has seen no
first verdict; its answers go to OUT_DIR/verdicts-second.tsv. `tabulate` prints right / wrong / unsure per rule and
tier, the default rules' precision with its Wilson 95% lower bound, the second judgement's agreement and each
disagreement; with --record it writes every verdict (app folder, file, line, rule, tier, verdict, reason; no code; the
commit is the app's row in Benchmarks/corpus/apps.tsv) to
a file that is committed, so that later rounds can match findings against what was judged.
"""
import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
from collections import defaultdict

FIELDS = ["id", "judge", "app", "file", "line", "column", "rule", "tier", "default", "message"]


def lint(binary, app_dir, extra):
    command = [binary, "lint", "--no-cache", "--quiet", "--reporter", "json", *extra, app_dir]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        print(f"judge.py: {os.path.basename(app_dir)}: synclint exited {result.returncode}: {result.stderr.strip()[:300]}",
              file=sys.stderr)
    try:
        return json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        print(f"judge.py: {os.path.basename(app_dir)}: report is not JSON", file=sys.stderr)
        return []


def key(finding):
    return (finding["file"], finding["line"], finding["character"], finding["rule_id"], finding.get("message_id", ""))


def sample(args):
    os.makedirs(os.path.join(args.out, "findings"), exist_ok=True)
    apps = sorted(entry for entry in os.listdir(args.set_dir) if os.path.isdir(os.path.join(args.set_dir, entry)))
    everything = []  # (app, finding, is_default)
    for app in apps:
        app_dir = os.path.join(args.set_dir, app)
        runs = {
            "default": lint(args.synclint, app_dir, []),
            "default-medium": lint(args.synclint, app_dir, ["--confidence", "medium"]),
            "all": lint(args.synclint, app_dir, ["--enable-all-rules", "--confidence", "medium"]),
        }
        for name, findings in runs.items():
            with open(os.path.join(args.out, "findings", f"{app}.{name}.json"), "w") as handle:
                json.dump(findings, handle, indent=1)
        defaults = {key(f) for f in runs["default-medium"]}
        for finding in runs["all"]:
            everything.append((app, finding, key(finding) in defaults))
        print(f"{app}: {len(runs['default'])} default, {len(runs['default-medium'])} default with medium, "
              f"{len(runs['all'])} with every rule", file=sys.stderr)

    by_rule = defaultdict(list)
    for entry in everything:
        by_rule[entry[1]["rule_id"]].append(entry)
    rng = random.Random(args.seed)
    chosen = []
    for rule in sorted(by_rule):
        entries = by_rule[rule]
        if len(entries) <= args.all_up_to:
            chosen += entries
            continue
        chosen += [entry for entry in entries if entry[2]]
        high = sorted((entry for entry in entries if not entry[2] and entry[1]["confidence"] == "high"),
                      key=lambda entry: key(entry[1]))
        chosen += rng.sample(high, min(args.high_per_rule, len(high)))

    judges = args.judges.split(",")
    per_app = defaultdict(list)
    for entry in chosen:
        per_app[entry[0]].append(entry)
    load = {judge: 0 for judge in judges}
    assignment = {}
    for app in sorted(per_app, key=lambda app: -len(per_app[app])):
        judge = min(judges, key=lambda judge: (load[judge], judge))
        assignment[app] = judge
        load[judge] += len(per_app[app])

    rows = []
    number = 0
    for app in sorted(per_app):
        for app_name, finding, is_default in sorted(per_app[app], key=lambda entry: key(entry[1])):
            number += 1
            relative = os.path.relpath(finding["file"], os.path.join(args.set_dir, app))
            rows.append({"id": f"F{number:03d}", "judge": assignment[app], "app": app, "file": relative,
                         "line": finding["line"], "column": finding["character"], "rule": finding["rule_id"],
                         "tier": finding["confidence"], "default": "yes" if is_default else "no",
                         "message": finding["reason"], "notes": finding.get("notes", [])})
    with open(os.path.join(args.out, "sample.tsv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS, delimiter="\t", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    for judge in judges:
        write_judge_file(os.path.join(args.out, f"judge-{judge}.md"), [row for row in rows if row["judge"] == judge],
                         args.set_dir)
    print(f"{len(everything)} findings on {len(apps)} apps; {len(rows)} to judge: "
          + ", ".join(f"{judge} {load[judge]}" for judge in judges), file=sys.stderr)


def write_judge_file(path, rows, set_dir):
    with open(path, "w") as handle:
        handle.write(f"# {len(rows)} findings to judge (apps under {os.path.abspath(set_dir)})\n\n")
        for row in rows:
            handle.write(f"### {row['id']}\n- app: {row['app']}\n- where: {row['file']}:{row['line']}:{row['column']}\n"
                         f"- rule: {row['rule']}\n- message: {row['message']}\n")
            for note in row.get("notes", []) or []:
                handle.write(f"- note: {os.path.relpath(note['file'], os.path.join(set_dir, row['app']))}:"
                             f"{note['line']}: {note['reason']}\n")
            handle.write("\n")


def read_rows(out):
    with open(os.path.join(out, "sample.tsv"), newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def read_verdicts(path):
    verdicts = {}
    if not os.path.exists(path):
        return verdicts
    with open(path) as handle:
        for line in handle:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and parts[0].startswith("F") and parts[1].strip() in ("right", "wrong", "unsure"):
                verdicts[parts[0]] = (parts[1].strip(), parts[2].strip() if len(parts) > 2 else "")
    return verdicts


def second(args):
    rows = read_rows(args.out)
    rng = random.Random(args.seed + 1)
    drawn = sorted(rng.sample(rows, min(args.count, len(rows))), key=lambda row: row["id"])
    set_dir = args.set_dir or "(the set's folder)"
    write_judge_file(os.path.join(args.out, "judge-second.md"), drawn, set_dir)
    print(f"{len(drawn)} findings drawn for the second judgement", file=sys.stderr)


def wilson_lower(right, total, z=1.96):
    if total == 0:
        return 0.0
    p = right / total
    centre = p + z * z / (2 * total)
    margin = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return (centre - margin) / (1 + z * z / total)


def tabulate(args):
    rows = read_rows(args.out)
    verdicts = {}
    for judge in sorted({row["judge"] for row in rows}):
        verdicts.update(read_verdicts(os.path.join(args.out, f"verdicts-{judge}.tsv")))
    missing = [row["id"] for row in rows if row["id"] not in verdicts]
    if missing:
        print(f"not judged yet: {len(missing)} ({', '.join(missing[:12])}{'…' if len(missing) > 12 else ''})")
    table = defaultdict(lambda: defaultdict(int))
    for row in rows:
        if row["id"] in verdicts:
            table[(row["rule"], row["tier"], row["default"])][verdicts[row["id"]][0]] += 1
    print("| rule | tier | default | right | wrong | unsure |\n|---|---|---|---|---|---|")
    for (rule, tier, default), counts in sorted(table.items()):
        print(f"| `{rule}` | {tier} | {default} | {counts['right']} | {counts['wrong']} | {counts['unsure']} |")
    for label, test in (("default findings, high", lambda r: r["default"] == "yes" and r["tier"] == "high"),
                        ("opt-in findings, high", lambda r: r["default"] == "no" and r["tier"] == "high"),
                        ("medium findings", lambda r: r["tier"] == "medium")):
        judged = [verdicts[r["id"]][0] for r in rows if test(r) and r["id"] in verdicts]
        right, wrong = judged.count("right"), judged.count("wrong")
        decided = right + wrong
        share = f"{100 * right / decided:.0f}%, Wilson lower bound {100 * wilson_lower(right, decided):.0f}%" if decided else "none"
        print(f"{label}: {right} right, {wrong} wrong, {judged.count('unsure')} unsure ({share})")
    seconds = read_verdicts(os.path.join(args.out, "verdicts-second.tsv"))
    if seconds:
        agree = [i for i in seconds if i in verdicts and seconds[i][0] == verdicts[i][0]]
        print(f"second judgement: {len(agree)} of {len(seconds)} agree")
        by_id = {row["id"]: row for row in rows}
        for i in sorted(seconds):
            if i in verdicts and seconds[i][0] != verdicts[i][0]:
                row = by_id[i]
                print(f"  {i} {row['rule']} {row['app']} {row['file']}:{row['line']}: first {verdicts[i][0]} "
                      f"({verdicts[i][1]}), second {seconds[i][0]} ({seconds[i][1]})")
    if args.record:
        os.makedirs(os.path.dirname(args.record) or ".", exist_ok=True)
        with open(args.record, "w") as handle:
            handle.write("# Verdicts of one judged round (Benchmarks/judge.py tabulate --record). One finding a row: the app\n"
                         "# (owner+name folder), its file and line, rule, tier, whether the rule was on by default, the\n"
                         "# verdict of the first judge, its reason, and the second judgement where one was made.\n")
            handle.write("app\tfile\tline\trule\ttier\tdefault\tverdict\treason\tsecond\n")
            for row in rows:
                if row["id"] not in verdicts:
                    continue
                verdict, reason = verdicts[row["id"]]
                second_verdict = seconds.get(row["id"], ("", ""))[0]
                reason = reason.replace("\t", " ")
                handle.write(f"{row['app']}\t{row['file']}\t{row['line']}\t{row['rule']}\t{row['tier']}\t{row['default']}\t"
                             f"{verdict}\t{reason}\t{second_verdict}\n")
        print(f"recorded {sum(1 for row in rows if row['id'] in verdicts)} verdicts in {args.record}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("sample")
    one.add_argument("set_dir")
    one.add_argument("out")
    one.add_argument("--synclint", required=True)
    one.add_argument("--judges", required=True)
    one.add_argument("--seed", type=int, default=21)
    one.add_argument("--all-up-to", type=int, default=15)
    one.add_argument("--high-per-rule", type=int, default=8)
    two = commands.add_parser("second")
    two.add_argument("out")
    two.add_argument("--count", type=int, default=30)
    two.add_argument("--seed", type=int, default=21)
    two.add_argument("--set-dir")
    three = commands.add_parser("tabulate")
    three.add_argument("out")
    three.add_argument("--record")
    args = parser.parse_args()
    {"sample": sample, "second": second, "tabulate": tabulate}[args.command](args)


if __name__ == "__main__":
    main()
