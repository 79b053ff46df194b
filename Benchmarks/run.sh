#!/usr/bin/env bash
# SyncLint against the parse-only floor on a folder, in release.
#
#   Benchmarks/run.sh DIR [RUNS]          # e.g. Benchmarks/run.sh .build/checkouts 5
#   DOUBLE=1 Benchmarks/run.sh DIR [RUNS] # also on two copies of DIR, for the doubling figure
#   RULES=default Benchmarks/run.sh ...   # the default rules, as a user runs it (default: all rules)
#   VS=/path/to/other/synclint Benchmarks/run.sh DIR [RUNS]
#                                         # also times another synclint build (an earlier commit's,
#                                         # built the same way) on DIR, alternating, and prints the ratio
#
# Builds both executables in release (the first build of swift-syntax in release takes 10+ minutes
# on 2 cores), then runs the floor and `synclint lint --enable-all-rules` alternately RUNS times
# (default 5) and prints each one's median wall time, their ratio, and each one's peak memory
# (maximum resident set size from /usr/bin/time -v).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: Benchmarks/run.sh DIR [RUNS]}
runs=${2:-5}
scratch=${SCRATCH:-.build-release}  # SCRATCH=DIR reuses another release build folder
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }

swift build -c release --scratch-path "$scratch" --product synclint >&2
swift build -c release --scratch-path "$scratch" --product synclint-floor >&2
bin=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
rules=(--enable-all-rules)
[[ "${RULES:-all}" == default ]] && rules=()

# Runs a command once; prints "wall_seconds peak_kib".
measure() {
    local log
    log=$(mktemp)
    /usr/bin/time -v "$@" >/dev/null 2>"$log" || true
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%.3f %d\n", wall, rss }' "$log"
    rm -f "$log"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bench() {
    local target=$1 label=$2
    local floor_walls=() lint_walls=() floor_rss=0 lint_rss=0
    "$bin/synclint-floor" "$target" >&2   # warm-up, and the counts
    "$bin/synclint" lint "${rules[@]}" --no-cache "$target" >/dev/null 2>&1 || true
    for _ in $(seq "$runs"); do
        read -r wall rss < <(measure "$bin/synclint-floor" "$target")
        floor_walls+=("$wall"); (( rss > floor_rss )) && floor_rss=$rss
        read -r wall rss < <(measure "$bin/synclint" lint "${rules[@]}" --no-cache "$target")
        lint_walls+=("$wall"); (( rss > lint_rss )) && lint_rss=$rss
    done
    local floor_median lint_median
    floor_median=$(printf '%s\n' "${floor_walls[@]}" | median)
    lint_median=$(printf '%s\n' "${lint_walls[@]}" | median)
    printf '%-22s floor %7.3f s  synclint %7.3f s  ratio %.2f  peak floor %d MiB  synclint %d MiB\n' \
        "$label" "$floor_median" "$lint_median" "$(awk "BEGIN { print $lint_median / $floor_median }")" \
        $((floor_rss / 1024)) $((lint_rss / 1024)) >&2
    echo "$lint_median"
}

echo "median of $runs runs each, alternating; rules: ${RULES:-all}" >&2
if [[ -n "${VS:-}" ]]; then
    this_walls=() other_walls=()
    "$VS" lint "${rules[@]}" "$dir" >/dev/null 2>&1 || true   # warm-up
    for _ in $(seq "$runs"); do
        read -r wall _ < <(measure "$bin/synclint" lint "${rules[@]}" "$dir"); this_walls+=("$wall")
        read -r wall _ < <(measure "$VS" lint "${rules[@]}" "$dir"); other_walls+=("$wall")
    done
    this_median=$(printf '%s\n' "${this_walls[@]}" | median)
    other_median=$(printf '%s\n' "${other_walls[@]}" | median)
    printf 'this build %.3f s  other build %.3f s  ratio this/other %.2f\n' "$this_median" "$other_median" \
        "$(awk "BEGIN { print $this_median / $other_median }")" >&2
fi
# The table row goes to stderr from inside `bench`; `tee /dev/stderr` would truncate a stderr redirected to a file.
single=$(bench "$dir" "$dir")
if [[ -n "${DOUBLE:-}" ]]; then
    twice=$(mktemp -d)
    trap 'rm -rf "$twice"' EXIT
    cp -R "$dir" "$twice/copy1"
    cp -R "$dir" "$twice/copy2"
    double=$(bench "$twice" "two copies of $dir")
    printf 'doubling: synclint on twice the code took %.2f times as long\n' "$(awk "BEGIN { print $double / $single }")" >&2
fi
