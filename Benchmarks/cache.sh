#!/usr/bin/env bash
# The results cache: cold, warm and one-file-edited runs of `synclint lint` on a folder, in release.
#
#   Benchmarks/cache.sh [DIR] [RUNS]      # default: /work/apps (the ten calibration apps, ~447k lines), 3 runs
#   RULES=all Benchmarks/cache.sh ...     # every rule on (default: the default rules, as a user runs it)
#   BIN=.build/debug Benchmarks/cache.sh  # time an existing build instead of building in release
#   EDIT=Cork/Cork/Models/Brew.swift Benchmarks/cache.sh
#                                         # the file to edit, relative to DIR (default: a mid-sized Swift file)
#   REALTIME=1 Benchmarks/cache.sh      # each timed run under `chrt -f 1` (root): on a machine other jobs keep busy,
#                                         # the runs then see the cores as an idle machine would (other jobs wait)
#   SYNCLINT_CACHE_CODEC=json Benchmarks/cache.sh
#                                         # entries in JSON or binary property lists (plist) instead of the
#                                         # compact encoding SyncLint uses (compact), to compare the three
#
# DIR is copied (without `.git` folders) into a scratch folder, so edits never touch it. Each kind of run
# is timed RUNS times (median wall time, peak memory from /usr/bin/time -v):
#   no cache   `--no-cache`: the pipeline as it was before the cache;
#   cold       an empty cache folder: everything parsed and walked, and every entry written;
#   warm       nothing changed: the whole-run entry is reported, no per-file entry or source read;
#   warm-state nothing changed, whole-run entries removed before each run but the run state (and its pointer) kept: every file
#              decoded from the one run-state entry, nothing parsed, the index rebuilt and every finding resolved
#              (what an edit costs besides the edited file);
#   warm-files the same with the run state removed too: every per-file entry read and decoded (what a run over
#              other paths, or the first run after another configuration, costs);
#   edited     one file changed (a line appended, the file replaced) before each run, the run state kept.
# The outputs of no-cache, cold, warm and edited-then-restored runs are compared byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/work/apps}
runs=${2:-3}
scratch=${SCRATCH:-.build-release}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }

if [[ -n "${BIN:-}" ]]; then
    bin=$BIN
else
    swift build -c release --scratch-path "$scratch" --product synclint >&2
    bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
fi
rules=()
[[ "${RULES:-default}" == all ]] && rules=(--enable-all-rules)
priority=()
[[ -n "${REALTIME:-}" ]] && priority=(chrt -f 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
tar -C "$dir" --exclude=.git -cf - . | tar -C "$work/src" -xf -
src=$work/src
lines=$(find "$src" -name '*.swift' -not -path '*/.*' -print0 | xargs -0 cat | wc -l)
files=$(find "$src" -name '*.swift' -not -path '*/.*' | wc -l)
if [[ -n "${EDIT:-}" ]]; then
    edit=$src/$EDIT
else
    # The median-sized Swift file: neither a one-liner nor the largest.
    edit=$(find "$src" -name '*.swift' -not -path '*/.*' -printf '%s %p\n' | sort -n | awk '{ p[NR] = $2 } END { print p[int((NR + 1) / 2)] }')
fi
cp "$edit" "$work/original.swift"
echo "$files Swift files, $lines lines; edited file: ${edit#$src/} ($(wc -l <"$edit") lines); rules: ${RULES:-default}" >&2

# Runs synclint once; prints "wall_seconds peak_kib" and leaves its output in $work/out.
measure() {
    local log=$work/time.log
    "${priority[@]}" /usr/bin/time -v "$bin/synclint" lint "${rules[@]}" --quiet "$@" "$src" >"$work/out" 2>"$log" || true
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%.3f %d\n", wall, rss }' "$log"
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# Replaces the edited file (a new inode, as editors that save atomically do) with the original plus $1 lines.
edit_file() {
    cp "$work/original.swift" "$edit.new"
    for ((i = 0; i < $1; i++)); do echo "// edited $i" >>"$edit.new"; done
    mv "$edit.new" "$edit"
}

declare -A walls peaks
run_kind() {
    local kind=$1 wall rss values=() peak=0
    for ((n = 1; n <= runs; n++)); do
        case $kind in
            nocache) read -r wall rss < <(measure --no-cache) ;;
            cold) rm -rf "$work/cache"; read -r wall rss < <(measure --cache-path "$work/cache") ;;
            warm) read -r wall rss < <(measure --cache-path "$work/cache") ;;
            warm-state) find "$work"/cache/*/runs -type f ! -name '*.state' ! -name '*.latest' -delete; read -r wall rss < <(measure --cache-path "$work/cache") ;;
            warm-files) rm -rf "$work"/cache/*/runs; read -r wall rss < <(measure --cache-path "$work/cache") ;;
            edited) edit_file "$n"; read -r wall rss < <(measure --cache-path "$work/cache") ;;
        esac
        values+=("$wall"); (( rss > peak )) && peak=$rss
    done
    walls[$kind]=$(printf '%s\n' "${values[@]}" | median)
    peaks[$kind]=$((peak / 1024))
}

run_kind nocache; cp "$work/out" "$work/out.nocache"
run_kind cold; cp "$work/out" "$work/out.cold"
run_kind warm; cp "$work/out" "$work/out.warm"
"${priority[@]}" "$bin/synclint" lint "${rules[@]}" --quiet --timings --cache-path "$work/cache" "$src" 2>"$work/warm-timings" >/dev/null || true
run_kind warm-state; cp "$work/out" "$work/out.warm-state"
find "$work"/cache/*/runs -type f ! -name '*.state' ! -name '*.latest' -delete
"${priority[@]}" "$bin/synclint" lint "${rules[@]}" --quiet --timings --cache-path "$work/cache" "$src" 2>"$work/warm-state-timings" >/dev/null || true
run_kind warm-files; cp "$work/out" "$work/out.warm-files"
rm -rf "$work"/cache/*/runs
# This run also writes the run state again (there was none), which the edited runs use.
"${priority[@]}" "$bin/synclint" lint "${rules[@]}" --quiet --timings --cache-path "$work/cache" "$src" 2>"$work/warm-files-timings" >/dev/null || true
run_kind edited
edit_file 0
measure --cache-path "$work/cache" >/dev/null; cp "$work/out" "$work/out.restored"
edit_file 1
"${priority[@]}" "$bin/synclint" lint "${rules[@]}" --quiet --timings --cache-path "$work/cache" "$src" 2>"$work/edited-timings" >/dev/null || true
edit_file 0

same=identical
for kind in cold warm warm-state warm-files restored; do cmp -s "$work/out.nocache" "$work/out.$kind" || same="DIFFERENT ($kind)"; done
cache_size=$(du -sh "$work/cache" | cut -f1)
echo "median of $runs runs each; $(wc -l <"$work/out.nocache") findings; outputs no-cache/cold/warm/warm-state/warm-files/restored: $same; cache $cache_size" >&2
for kind in nocache cold warm warm-state warm-files edited; do
    printf '%-10s %8.3f s  %5.1f%% of no-cache  %5.1f%% of cold  peak %d MiB\n' "$kind" "${walls[$kind]}" \
        "$(awk "BEGIN { print 100 * ${walls[$kind]} / ${walls[nocache]} }")" \
        "$(awk "BEGIN { print 100 * ${walls[$kind]} / ${walls[cold]} }")" "${peaks[$kind]}" >&2
done
echo "where a warm run's time goes (--timings):" >&2
grep -E '^  (total|discover|read |read\+|index merge|rules:|report)|^  cache ' "$work/warm-timings" >&2 || true
echo "where a warm run's time goes without the whole-run entry, from the run state (--timings):" >&2
grep -E '^  (total|discover|read |read\+|index merge|rules:|report)|^  cache ' "$work/warm-state-timings" >&2 || true
echo "where a warm run's time goes without the whole-run entry or the run state (--timings):" >&2
grep -E '^  (total|discover|read |read\+|index merge|rules:|report)|^  cache ' "$work/warm-files-timings" >&2 || true
echo "where a one-file-edited run's time goes (--timings):" >&2
grep -E '^  (total|discover|read |parse|walk|read\+|index merge|rules:|report)|^  cache ' "$work/edited-timings" >&2 || true
