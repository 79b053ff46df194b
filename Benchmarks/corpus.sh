#!/usr/bin/env bash
# The measuring corpus of docs/precision.md: public apps at pinned commits (Benchmarks/corpus/apps.tsv)
# and real bug-fix commits (Benchmarks/corpus/fixes.tsv), each row in the tune or the test half, or in the
# fresh half: apps and fixes added in a later round from repositories nobody had seen (role round3 and so
# on), test by construction, since no rule was ever changed looking at them; they are never drawn.
#
#   Benchmarks/corpus.sh [--half tune|test|fresh|reserve|all] [--role ROLE] [--apps-dir DIR] [--lint]
#   Benchmarks/corpus.sh --draw              # recompute the seeded split and compare it with the files
#
# Each app is exported at its pinned commit into APPS_DIR/<folder>/<name> (default .corpus-apps, git-ignored),
# unless that folder is already there. The folder is the row's half, and for the fresh apps of round 5 on
# (role roundN, N >= 5) the half plus the round's number: round 5's go to fresh5/, kept apart from the
# apps judged before (round 3's stay in fresh/, where they were exported before roles had folders).
# --role ROLE selects only the rows of that role (apps.tsv's fourth column, fixes.tsv's seventh: calibration,
# fresh or reserve apps and `split` fixes of the original draw, round3, round5, ...); with --role and no
# --half, every half is searched. `--half fresh --role round5` exports round 5's apps to APPS_DIR/fresh5.
# Repositories come from CORPUS_REPOS (or RECALL_REPOS) when set: a folder holding, for `owner/name`, a bare
# mirror `owner+name/repo` (or `owner+name/repo/.git`, `owner+name.git`), or a clone `owner+name` or `name`;
# otherwise each is cloned bare into APPS_DIR/repos (this needs the network). Only what SyncLint reads is
# exported, as Benchmarks/recall.sh does: Swift sources, entitlements, Xcode projects, Core Data models and
# .synclint.yml (a stored mirror may lack large binary blobs, and images change no finding). Nothing in a
# repository changes.
#
# It prints the lines of Swift per app and the totals per folder: lines as SyncLint reads them (its
# discovery skips .build, DerivedData, Pods, Carthage and node_modules). The fixes are counted per folder
# from fixes.tsv; Benchmarks/recall.sh runs them (`HALF=test Benchmarks/recall.sh Benchmarks/corpus/fixes.tsv`,
# `HALF=fresh ROLE=round5 ...` for round 5's).
#
# SyncLint does not run by default. With --lint, each folder is linted in one run, each app as its own
# project, with the default rules (`swift build` first, or SYNCLINT=path); findings go to
# APPS_DIR/findings-<folder>.txt and a count per app is added to the table. Judging stays a person's job.
#
# --draw recomputes the split from the two files with the documented seed (docs/precision.md, "The
# corpus") and reports any row whose half differs from the draw: the split was made by this code, before
# any rule work, and the files must keep agreeing with it. Rows of the fresh half take no part in the draw
# (neither in its strata nor in its check): they were chosen after it, all as test. The apps' code is never
# committed here.
set -euo pipefail
cd "$(dirname "$0")/.."
apps_tsv=Benchmarks/corpus/apps.tsv
fixes_tsv=Benchmarks/corpus/fixes.tsv
seen_list=Benchmarks/recall-commits.txt
seed=21
half=
role=
apps_dir=.corpus-apps
lint=0
draw=0

usage() { sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; }
while (( $# > 0 )); do
    case "$1" in
        --half) half=${2:?--half needs tune, test, fresh, reserve or all}; shift 2 ;;
        --role) role=${2:?--role needs a role (calibration, fresh, reserve, split, round3, round5, ...)}; shift 2 ;;
        --apps-dir) apps_dir=${2:?--apps-dir needs a folder}; shift 2 ;;
        --lint) lint=1; shift ;;
        --draw) draw=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "corpus.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
# Without --half: the tune and test halves, as before roles existed; with --role, every half.
[[ -z "$half" ]] && { [[ -n "$role" ]] && half=all || half=both; }
case "$half" in both|tune|test|fresh|reserve|all) ;; *) echo "corpus.sh: --half takes tune, test, fresh, reserve or all, not '$half'" >&2; exit 2 ;; esac
for file in "$apps_tsv" "$fixes_tsv" "$seen_list"; do
    [[ -f "$file" ]] || { echo "corpus.sh: missing $file" >&2; exit 2; }
done

# --- The split ------------------------------------------------------------------------------------
# Repositories the rules were already tuned on stay in the tune half: the calibration apps, and every
# repository with a fix in Benchmarks/recall-commits.txt (the issue's miss classes were read off those
# fixes). Every other repository is drawn, in three strata so that the halves stay alike:
#   A. fresh apps that sync with CloudKit, by lines of Swift (largest first);
#   B. the other fresh apps, by lines of Swift;
#   C. repositories that only contribute fixes, by number of fixes (most first).
# Within a stratum, neighbours are paired (1-2, 3-4, ...) and one draw of Python's random.Random(seed)
# per pair sends the first of the pair to test when it is below 0.5, else the second; a last, unpaired
# repository goes to test when its draw is below 0.5. Ties sort by repository name. Reserve apps (kept
# for later rounds, "add fresh apps every round") take no part.
if (( draw )); then
    command -v python3 > /dev/null || { echo "corpus.sh: --draw needs python3" >&2; exit 2; }
    python3 - "$apps_tsv" "$fixes_tsv" "$seen_list" "$seed" << 'PYTHON'
import random, sys
apps_path, fixes_path, seen_path, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def rows(path):
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith('#') and not line.startswith('repository\t'):
                yield line.rstrip('\n').split('\t')

# Rows of the fresh half were added after the draw, from repositories it never saw; they are test by
# construction and take no part in it.
apps = {r[0]: r for r in rows(apps_path) if r[2] != 'fresh'}   # repository, commit, half, role, cloudkit, frameworks, lines, ...
fixes = [r for r in rows(fixes_path) if r[3] != 'fresh']       # repository, commit, rule, half, bug_at, note
seen = set()
with open(seen_path) as f:
    for line in f:
        parts = line.split()
        if parts and not parts[0].startswith('#'):
            seen.add(parts[0])

forced = {repo for repo, r in apps.items() if r[3] == 'calibration'} | seen
fix_count = {}
for r in fixes:
    fix_count[r[0]] = fix_count.get(r[0], 0) + 1

strata = [
    sorted((repo for repo, r in apps.items() if r[3] == 'fresh' and r[4] == 'yes' and repo not in forced),
           key=lambda repo: (-int(apps[repo][6]), repo)),
    sorted((repo for repo, r in apps.items() if r[3] == 'fresh' and r[4] != 'yes' and repo not in forced),
           key=lambda repo: (-int(apps[repo][6]), repo)),
    sorted((repo for repo in fix_count if repo not in apps and repo not in forced),
           key=lambda repo: (-fix_count[repo], repo)),
]
rng = random.Random(seed)
drawn = {repo: 'tune' for repo in forced}
for stratum in strata:
    for i in range(0, len(stratum), 2):
        pair = stratum[i:i + 2]
        first_to_test = rng.random() < 0.5
        if len(pair) == 2:
            drawn[pair[0]], drawn[pair[1]] = ('test', 'tune') if first_to_test else ('tune', 'test')
        else:
            drawn[pair[0]] = 'test' if first_to_test else 'tune'

mismatches = 0
for repo, r in sorted(apps.items()):
    expected = 'reserve' if r[3] == 'reserve' else drawn[repo]
    if r[2] != expected:
        print(f"apps.tsv: {repo} is in {r[2]}, the draw says {expected}")
        mismatches += 1
for r in fixes:
    expected = drawn.get(r[0])
    if expected is None:
        print(f"fixes.tsv: {r[0]} {r[1]} has no drawn half (a reserve app's repository?)")
        mismatches += 1
    elif r[3] != expected:
        print(f"fixes.tsv: {r[0]} {r[1]} is in {r[3]}, the draw says {expected}")
        mismatches += 1
for name, stratum in zip('ABC', strata):
    print(f"stratum {name}: " + ', '.join(f"{repo}={drawn[repo]}" for repo in stratum))
print(f"forced tune: {', '.join(sorted(forced))}")
print("the files agree with the draw" if mismatches == 0 else f"{mismatches} rows disagree with the draw")
sys.exit(1 if mismatches else 0)
PYTHON
    exit $?
fi

# --- Checkouts and counts --------------------------------------------------------------------------
mkdir -p "$apps_dir"
apps_dir=$(cd "$apps_dir" && pwd)
repos=${CORPUS_REPOS:-${RECALL_REPOS:-}}

git_dir_for() { # owner/name -> a git directory holding its history
    local repository=$1 flat=${1/\//+} candidate
    if [[ -n "$repos" ]]; then
        for candidate in "$repos/$flat/repo/.git" "$repos/$flat/repo" "$repos/$flat.git" \
                         "$repos/$flat/.git" "$repos/${repository#*/}/.git"; do
            if [[ -d "$candidate" ]] && git --git-dir="$candidate" rev-parse --git-dir > /dev/null 2>&1; then
                echo "$candidate"; return
            fi
        done
    fi
    if [[ ! -d "$apps_dir/repos/$flat.git" ]]; then
        mkdir -p "$apps_dir/repos"
        git clone --quiet --bare "https://github.com/$repository.git" "$apps_dir/repos/$flat.git" >&2
    fi
    echo "$apps_dir/repos/$flat.git"
}

export_tree() { # git_dir commit folder: only what SyncLint reads, as recall.sh exports it
    local partial="$3.partial" list="$3.files" path
    rm -rf "$partial" && mkdir -p "$partial"
    # NUL-separated names: a path with non-ASCII characters ("Oscar°/...") is quoted otherwise. Only blobs: a
    # submodule whose folder is named like a file (LLMFarm's `llmfarm_core.swift`) is a commit, not a file.
    git --git-dir="$1" ls-tree -r -z "$2" | grep -z -E '^[0-7]+ blob ' | sed -z 's/^[^\t]*\t//' |
        grep -z -E '\.swift$|\.entitlements$|\.xcodeproj/project\.pbxproj$|\.xcdatamodel/contents$|\.xccurrentversion$|(^|/)\.synclint\.yml$' > "$list" || true
    # git archive complains about a large blob a stored mirror lacks even when no listed file needs it;
    # so its complaints are silenced, and every listed file is checked below and read on its own if missing.
    xargs -0 -r bash -c 'git --literal-pathspecs --git-dir="$0" archive "$1" -- "${@:3}" 2> /dev/null | tar -x -C "$2"' \
        "$1" "$2" "$partial" < "$list" || true
    while IFS= read -r -d '' path; do
        [[ -f "$partial/$path" ]] && continue
        mkdir -p "$partial/$(dirname "$path")"
        git --git-dir="$1" show "$2:$path" > "$partial/$path" ||
            { echo "corpus.sh: cannot read $path at $2 in $1" >&2; return 1; }
    done < "$list"
    rm -f "$list"
    mv "$partial" "$3"
}

swift_lines() { # folder -> lines of Swift in the files SyncLint's discovery reads
    find "$1" \( -name .build -o -name DerivedData -o -name Pods -o -name Carthage -o -name node_modules \) -prune \
        -o -type f -name '*.swift' -print0 | xargs -0 -r cat | wc -l
}

selected() { # half role -> whether this run covers the row
    [[ -n "$role" && "$2" != "$role" ]] && return 1
    case "$half" in
        all) return 0 ;;
        both) [[ "$1" == tune || "$1" == test ]] ;;
        *) [[ "$1" == "$half" ]] ;;
    esac
}

folder_of() { # half role -> the folder under APPS_DIR (fresh5 for role round5 of half fresh)
    if [[ "$2" =~ ^round([0-9]+)$ ]] && (( BASH_REMATCH[1] >= 5 )); then
        echo "$1${BASH_REMATCH[1]}"
    else
        echo "$1"
    fi
}

declare -A half_lines half_apps half_cloudkit paths_of
printf '%-44s %-8s %-9s %10s\n' app folder cloudkit lines
while IFS=$'\t' read -r -u 3 repository commit row_half row_role cloudkit _frameworks _lines _rest; do
    [[ -z "$repository" || "$repository" == \#* || "$repository" == repository ]] && continue
    selected "$row_half" "$row_role" || continue
    row_folder=$(folder_of "$row_half" "$row_role")
    folder="$apps_dir/$row_folder/${repository/\//+}"
    if [[ ! -d "$folder" ]]; then
        git_dir=$(git_dir_for "$repository")
        if ! git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2> /dev/null; then
            echo "corpus.sh: $repository has no commit $commit (fetch it again?)" >&2; exit 1
        fi
        export_tree "$git_dir" "$commit" "$folder"
    fi
    lines=$(swift_lines "$folder")
    printf '%-44s %-8s %-9s %10d\n' "$repository" "$row_folder" "$cloudkit" "$lines"
    half_lines[$row_folder]=$(( ${half_lines[$row_folder]:-0} + lines ))
    half_apps[$row_folder]=$(( ${half_apps[$row_folder]:-0} + 1 ))
    [[ "$cloudkit" == yes ]] && half_cloudkit[$row_folder]=$(( ${half_cloudkit[$row_folder]:-0} + 1 ))
    paths_of[$row_folder]+="$folder"$'\n'
done 3< "$apps_tsv"

# The folders in a stable order: the halves, then any numbered ones (fresh5, ...).
mapfile -t folders < <(printf '%s\n' "${!half_apps[@]}" |
    awk 'NF { o = index("tune test fresh reserve", $0); print (o ? o : 100) "\t" $0 }' | sort -k1,1n -k2,2 | cut -f2)
(( ${#folders[@]} > 0 )) || echo "corpus.sh: no app of half '$half'${role:+ and role '$role'} in $apps_tsv" >&2

# Fixes per folder: a fix's folder comes from its half and role (fixes.tsv's seventh column), as an app's does.
fixes_by_folder=$(awk -F'\t' '$1 !~ /^#/ && $1 != "repository" && NF >= 4 {
        f = $4; if ($7 ~ /^round[0-9]+$/ && substr($7, 6) + 0 >= 5) f = f substr($7, 6)
        if (role == "" || $7 == role) print f "\t" $1 }' role="$role" "$fixes_tsv")
echo
printf '%-8s %6s %9s %11s %7s %12s\n' folder apps cloudkit lines fixes repositories
for h in "${folders[@]}"; do
    fixes=$(awk -F'\t' -v h="$h" '$1 == h' <<< "$fixes_by_folder" | wc -l)
    fix_repos=$(awk -F'\t' -v h="$h" '$1 == h { print $2 }' <<< "$fixes_by_folder" | sort -u | wc -l)
    printf '%-8s %6d %9d %11d %7d %12d\n' "$h" "${half_apps[$h]}" "${half_cloudkit[$h]:-0}" "${half_lines[$h]}" "$fixes" "$fix_repos"
done

if (( lint )); then
    if [[ -z "${SYNCLINT:-}" ]]; then
        swift build --product synclint >&2
        SYNCLINT="$(swift build --show-bin-path)/synclint"
    fi
    for h in "${folders[@]}"; do
        [[ -z "${paths_of[$h]:-}" ]] && continue
        mapfile -t paths < <(printf '%s' "${paths_of[$h]}")
        "$SYNCLINT" lint --no-cache "${paths[@]}" > "$apps_dir/findings-$h.txt" 2> "$apps_dir/warnings-$h.txt" || true
        echo
        echo "$h: $(wc -l < "$apps_dir/findings-$h.txt") findings with the default rules ($apps_dir/findings-$h.txt)"
        for path in "${paths[@]}"; do
            printf '  %-44s %6d\n' "$(basename "$path")" "$(grep -c "^$path/" "$apps_dir/findings-$h.txt" || true)"
        done
    done
fi
