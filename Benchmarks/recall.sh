#!/usr/bin/env bash
# Recall on real bug-fix commits (docs/precision.md): for each public fix of a bug SyncLint names a
# rule after, does that rule fire on the code before the fix, and is it quiet on the fixed code?
#
#   Benchmarks/recall.sh [LIST] [WORK_DIR]    # default LIST: Benchmarks/recall-commits.txt
#                                             # default WORK_DIR: .recall (git-ignored)
#
# LIST has one fix a line: `owner/name  commit  expected_rule` (anything after is a note; `#` starts
# a comment, and a `repository` header line is skipped). Benchmarks/corpus/fixes.tsv has that form, with the
# half as the fourth column: HALF=tune, HALF=test or HALF=fresh runs only the rows of that half, and with the role as
# the seventh: ROLE=round5 runs only the rows of that role (`split` for the original draw's rows, round3, round5, ...),
# so `HALF=fresh ROLE=round5` is round 5's fresh test set (a LIST without halves or roles, such as
# recall-commits.txt, needs HALF and ROLE unset). Repositories come from RECALL_REPOS when set: a folder holding,
# for `owner/name`, a bare mirror `owner+name/repo` or `owner+name.git`, or a clone `owner+name` or `name`;
# otherwise each is cloned bare into WORK_DIR/repos (this needs the network). The parent and the commit are
# exported with `git archive` (nothing in the repository changes), each tree is linted whole as a
# project with every rule on (`--enable-all-rules`), and only findings of the expected rule count.
#
# A finding counts as the bug when it is in a file the fix changed, within NEAR lines (default 30)
# of a changed hunk: on the parent's side for "fired before", on the commit's side for "quiet
# after". Every rule runs, with findings of every confidence. Columns: `fired` is `default` (the rule is on by
# default and a finding near the fix has high confidence, so the default output shows it), `medium` (a default
# rule, but only medium-confidence findings: shown with `--confidence medium`), `opt-in` (it fires only with
# opt-in rules on) or `no`; `quiet` is `yes` (no finding of the rule near the fix
# after it), `partly` (fewer) or `no` (`-` when it did not fire); `before`/`after`
# count the rule's findings near the fix. The apps' code stays in WORK_DIR and is never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-Benchmarks/recall-commits.txt}
work=${2:-.recall}
near=${NEAR:-30}
[[ -f "$list" ]] || { echo "recall.sh: no list of commits at $list" >&2; exit 2; }
mkdir -p "$work/repos" "$work/trees" "$work/findings"
work=$(cd "$work" && pwd)

if [[ -z "${SYNCLINT:-}" ]]; then
    swift build --product synclint >&2
    SYNCLINT="$(swift build --show-bin-path)/synclint"
fi
defaults=$("$SYNCLINT" rules | awk '$3 == "on" { print $1 }')  # columns: id, enabled here, default, ...

git_dir_for() { # owner/name -> a git directory holding its history
    local repository=$1 flat=${1/\//+} candidate
    for candidate in "${RECALL_REPOS:-}/$flat/repo/.git" "${RECALL_REPOS:-}/$flat/repo" "${RECALL_REPOS:-}/$flat.git" \
                     "${RECALL_REPOS:-}/$flat/.git" "${RECALL_REPOS:-}/${repository#*/}/.git"; do
        # A snapshot with a work tree keeps its history in repo/.git; repo itself is then no git directory.
        if [[ -n "${RECALL_REPOS:-}" && -d "$candidate" ]] && git --git-dir="$candidate" rev-parse --git-dir > /dev/null 2>&1; then
            echo "$candidate"; return
        fi
    done
    if [[ ! -d "$work/repos/$flat.git" ]]; then
        git clone --quiet --bare "https://github.com/$repository.git" "$work/repos/$flat.git" >&2
    fi
    echo "$work/repos/$flat.git"
}

# Only what SyncLint reads is exported: Swift sources, Core Data models, entitlements, Xcode
# projects and SyncLint's own configuration (a stored mirror may lack large binary blobs, and
# images or audio change no finding).
export_tree() { # git_dir commit folder
    local list="$3.files" path
    rm -rf "$3" && mkdir -p "$3"
    # NUL-separated names: a path with non-ASCII characters is quoted otherwise, and then not found. Only
    # blobs: a submodule whose folder is named like a file (LLMFarm's `llmfarm_core.swift`) is no file to read.
    git --git-dir="$1" ls-tree -r -z "$2" | grep -z -E '^[0-7]+ blob ' | sed -z 's/^[^\t]*\t//' |
        grep -z -E '\.swift$|\.entitlements$|\.xcodeproj/project\.pbxproj$|\.xcdatamodel/contents$|\.xccurrentversion$|(^|/)\.synclint\.yml$' > "$list" || true
    # git archive complains about a large blob a stored mirror lacks even when no listed file needs it; its
    # complaints are silenced, and every listed file is checked below and read on its own if it is missing.
    xargs -0 -r bash -c 'git --literal-pathspecs --git-dir="$0" archive "$1" -- "${@:3}" 2> /dev/null | tar -x -C "$2"' \
        "$1" "$2" "$3" < "$list" || true
    while IFS= read -r -d '' path; do
        [[ -f "$3/$path" ]] && continue
        mkdir -p "$3/$(dirname "$path")"
        git --git-dir="$1" show "$2:$path" > "$3/$path" || { echo "recall.sh: cannot read $path at $2" >&2; return 1; }
    done < "$list"
    rm -f "$list"
}

# Reads SyncLint's JSON report on stdin and writes two finding lists in the xcode reporter's shape:
# every finding (argv 1) and the high-confidence ones the default output shows (argv 2).
split_by_confidence='
import json, sys
try:
    findings = json.load(sys.stdin)
except ValueError:
    findings = []
with open(sys.argv[1], "w") as every, open(sys.argv[2], "w") as shown:
    for f in findings:
        line = "%s:%d:%d: %s: %s (%s)\n" % (f["file"], f["line"], f["character"], f["severity"].lower(), f["reason"].replace("\n", " "), f["rule_id"])
        every.write(line)
        if f.get("confidence", "high") == "high":
            shown.write(line)
'

# Findings of one rule within $near lines of the hunks on one side (old: before, new: after).
count_near() { # findings_file hunks_file side rule tree
    awk -F'\t' -v side="$3" -v rule="($4)" -v tree="$5/" -v near="$near" '
        FNR == NR { file[NR] = $1; lo[NR] = (side == "old" ? $2 : $4); hi[NR] = (side == "old" ? $3 : $5); n = NR; next }
        index($0, tree) == 1 && substr($0, length($0) - length(rule) + 1) == rule {
            rest = substr($0, length(tree) + 1); split(rest, parts, ":"); path = parts[1]; line = parts[2] + 0
            for (i = 1; i <= n; i++) if (file[i] == path && line >= lo[i] - near && line <= hi[i] + near) { hits++; break }
        }
        END { print hits + 0 }' "$2" "$1"
}

printf '%-28s %-12s %-34s %-7s %-5s %6s %6s\n' repository commit rule fired quiet before after
fired_default=0 fired_any=0 quiet_count=0 total=0 missing=0
declare -A linted # a commit listed for two rules is exported and linted once per run
while IFS= read -r -u 3 row; do
    read -r repository commit rule row_half _ <<< "$row"
    [[ -z "${repository:-}" || "$repository" == \#* || "$repository" == repository ]] && continue
    [[ -n "${HALF:-}" && "${row_half:-}" != "$HALF" ]] && continue
    # The role is fixes.tsv's seventh tab-separated column (the note before it has spaces).
    [[ -n "${ROLE:-}" && "$(awk -F'\t' '{ print $7 }' <<< "$row")" != "$ROLE" ]] && continue
    git_dir=$(git_dir_for "$repository")
    # A commit the repository does not hold (a mistyped id, a mirror older than the fix) is one line and
    # counts as not measured, not as a miss; the other rows and the totals still come out.
    if ! parent=$(git --git-dir="$git_dir" rev-parse --verify --quiet "$commit^{commit}^" 2> /dev/null); then
        echo "recall.sh: $repository has no commit $commit; row skipped" >&2
        missing=$((missing + 1))
        continue
    fi
    key="${repository/\//+}-${commit:0:12}"
    if [[ -z "${linted[$key]:-}" ]]; then
        export_tree "$git_dir" "$parent" "$work/trees/$key/before"
        export_tree "$git_dir" "$commit" "$work/trees/$key/after"
        # Changed hunks per file, tab-separated (a path may hold spaces; git ends such a path with a tab):
        # old start, old end, new start, new end (a pure insertion or deletion
        # has an empty side, kept as the line it sits at).
        git --git-dir="$git_dir" diff --no-renames -U0 "$parent" "$commit" -- '*.swift' '*.xcdatamodel/contents' '*.entitlements' 2> /dev/null |
            awk -v OFS='\t' '/^\+\+\+ b\// { path = substr($0, 7); sub(/\t$/, "", path) }
                 /^@@ / { split($2, o, ","); split($3, w, ","); os = -o[1]; ns = w[1] + 0
                          oc = (o[2] == "" ? 1 : o[2]); nc = (w[2] == "" ? 1 : w[2])
                          print path, os, os + (oc > 0 ? oc - 1 : 0), ns, ns + (nc > 0 ? nc - 1 : 0) }' \
            > "$work/findings/$key.hunks"
        for side in before after; do
            # Every rule and every confidence, as JSON; then two lists of `path:line:col: … (rule)` lines:
            # all findings, and those the default output shows (high confidence).
            "$SYNCLINT" lint --enable-all-rules --confidence medium --no-cache --allow-zero-lintable-files --reporter json \
                "$work/trees/$key/$side" < /dev/null 2> /dev/null |
                python3 -c "$split_by_confidence" "$work/findings/$key.$side.txt" "$work/findings/$key.$side.high.txt" || true
        done
        linted[$key]=1
    fi
    before=$(count_near "$work/findings/$key.before.txt" "$work/findings/$key.hunks" old "$rule" "$work/trees/$key/before")
    before_shown=$(count_near "$work/findings/$key.before.high.txt" "$work/findings/$key.hunks" old "$rule" "$work/trees/$key/before")
    after=$(count_near "$work/findings/$key.after.txt" "$work/findings/$key.hunks" new "$rule" "$work/trees/$key/after")
    fired=no quiet=-
    if (( before > 0 )); then
        if (( before_shown > 0 )) && grep -qx "$rule" <<< "$defaults"; then fired=default; fired_default=$((fired_default + 1));
        elif grep -qx "$rule" <<< "$defaults"; then fired=medium; else fired=opt-in; fi
        fired_any=$((fired_any + 1))
        if (( after == 0 )); then quiet=yes; quiet_count=$((quiet_count + 1)); elif (( after < before )); then quiet=partly; else quiet=no; fi
    fi
    total=$((total + 1))
    printf '%-28s %-12s %-34s %-7s %-5s %6d %6d\n' "$repository" "${commit:0:12}" "$rule" "$fired" "$quiet" "$before" "$after"
done 3< "$list"
echo
skipped=""; (( missing > 0 )) && skipped="; skipped (commit not found): $missing"
echo "fixes: $total; fired with default rules: $fired_default; fired with opt-in rules too: $fired_any; quiet after (of those fired): $quiet_count$skipped"
