#!/bin/sh
# Coverage-guided fuzzing with libFuzzer: the harness in Fuzz/LibFuzzer, built with
# `-sanitize=fuzzer,address` in its own scratch folder (.build-fuzz), never by `swift build`/`swift test`.
#
#   Benchmarks/fuzz-libfuzzer.sh                      # project mode, one hour
#   Benchmarks/fuzz-libfuzzer.sh configuration 600    # MODE SECONDS: project | configuration | model
#   Benchmarks/fuzz-libfuzzer.sh model 600 -runs=1000000   # further arguments go to libFuzzer
#   BUILD_ONLY=1 Benchmarks/fuzz-libfuzzer.sh         # build the harness and stop
#   Benchmarks/fuzz-libfuzzer.sh project 0 FILE...    # run inputs again (paths from the repository root)
#   Benchmarks/fuzz-libfuzzer.sh project 0 -minimize_crash=1 -runs=2000 FILE   # minimise a crash
#
# The first build is a full sanitizer build of swift-syntax: 13 minutes on a busy shared 2-core machine;
# later builds relink. The campaign runs under `nice -n 10`, one process, started again after each crash
# or time-out until the time is up. Everything it writes is under
# .build-fuzz/campaign/MODE/: the seeds (copied afresh from Examples/, the test fixtures and the rules'
# examples on each run; never committed), the corpus it grows (kept between runs), crash-*/timeout-*
# files, and fuzz.log with libFuzzer's figures. A crash becomes a regression fixture in
# Tests/SyncLintKitTests/Fixtures/Fuzz/ (see the README there).
set -eu
MODE=${1:-project}
SECONDS_TO_RUN=${2:-3600}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/.."
REPOSITORY=$(pwd)
SCRATCH=.build-fuzz
case "$MODE" in project|configuration|model) ;; *) echo "fuzz-libfuzzer: unknown mode '$MODE'; use project, configuration or model" >&2; exit 2 ;; esac

# -Xcc: Yams' C half (libyaml) is instrumented too, so the configuration mode sees its coverage.
# The linker's "Cannot export local symbol '__asan_..." warnings (hundreds, harmless) are left out.
mkdir -p "$SCRATCH"
status=0
SYNCLINT_LIBFUZZER=1 swift build --scratch-path "$SCRATCH" --product synclint-libfuzzer \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address > "$SCRATCH/build.log" 2>&1 || status=$?
grep -v "Cannot export local symbol" "$SCRATCH/build.log" || true
[ "$status" -eq 0 ] || { echo "fuzz-libfuzzer: the build failed (exit status $status)" >&2; exit "$status"; }
HARNESS="$REPOSITORY/$SCRATCH/debug/synclint-libfuzzer"
[ -n "${BUILD_ONLY:-}" ] && exit 0
# Leaks count as crashes, except Foundation's own (lsan.supp).
export LSAN_OPTIONS="suppressions=$REPOSITORY/Fuzz/LibFuzzer/lsan.supp:print_suppressions=0"
# A file among the arguments: run (or with -minimize_crash=1, minimise) those inputs, no campaign.
for argument in "$@"; do
    if [ -f "$argument" ]; then SYNCLINT_FUZZ_MODE=$MODE exec "$HARNESS" "$@"; fi
done

WORK="$REPOSITORY/$SCRATCH/campaign/$MODE"
SEEDS="$WORK/seeds"
rm -rf "$SEEDS" "$SEEDS.dict"
mkdir -p "$SEEDS" "$WORK/corpus" "$WORK/artifacts"
FOLDERS="Examples Tests/SyncLintKitTests/Fixtures"
# Copies a file as a seed under a name made of its path.
seed() { cp "$1" "$SEEDS/$(echo "$1" | tr '/ ' '__')"; }
case "$MODE" in
project)
    find $FOLDERS -name '*.swift' -type f | while read -r file; do seed "$file"; done
    # Each sample app and fixture project as one input (`//>> PATH` starts a file, see ProjectInput.swift),
    # with its models, entitlements, Xcode project and configuration, so checks across files have seeds.
    # (Not Examples/ whole: 34 kB that takes 40 s a run with the sanitizers.)
    for project in Examples/*/ Examples/*/*/ Tests/SyncLintKitTests/Fixtures/*/*/; do
        out="$SEEDS/project_$(echo "$project" | tr '/ ' '__')"
        find "$project" -type f \( -name '*.swift' -o -name '*.entitlements' -o -name contents \
            -o -name project.pbxproj -o -name .synclint.yml \) | sort | while read -r file; do
            printf '//>> %s\n' "${file#"$project"}" | sed 's#>> /#>> #'
            cat "$file"
            echo
        done > "$out"
        [ -s "$out" ] || rm -f "$out"
    done ;;
configuration)
    find $FOLDERS -name '*.yml' -type f | while read -r file; do seed "$file"; done
    # The README's YAML examples, one seed each.
    awk -v dir="$SEEDS" '/^```yaml/ { n++; on = 1; next } /^```/ { on = 0 } on { print > (dir "/readme-yaml-" n) }' README.md ;;
model)
    find $FOLDERS -path '*.xcdatamodel/contents' -type f | while read -r file; do seed "$file"; done ;;
esac
# The rules' examples, and a dictionary of the words each mode's inputs are made of (seeds.dict).
SYNCLINT_FUZZ_MODE=$MODE SYNCLINT_FUZZ_WRITE_RULE_SEEDS="$SEEDS" "$HARNESS"
echo "fuzz-libfuzzer: $(ls "$SEEDS" | wc -l) seeds, corpus $(ls "$WORK/corpus" | wc -l) inputs, $SECONDS_TO_RUN s in $WORK"

cd "$WORK"
# -timeout: the deterministic fuzz test's bound is 20 s a mutant without sanitizers; ASan is 2-3x slower.
# -rss_limit_mb: a lint of a few files stays far below; more is a leak or a blow-up.
# -max_len: the largest seed (a sample app with its model) is 11 kB; longer inputs only run slower.
# One process, not -fork: a fork job replays part of the corpus before it mutates, which at a few
# inputs a second is most of its time. libFuzzer stops at a crash, so it is started again (the corpus
# it grew is kept) until the time is up.
deadline=$(( $(date +%s) + SECONDS_TO_RUN ))
: > "$WORK/fuzz.log"
while left=$(( deadline - $(date +%s) )); [ "$left" -gt 0 ]; do
    status=0
    SYNCLINT_FUZZ_MODE=$MODE nice -n 10 "$HARNESS" -max_total_time="$left" -timeout=60 -rss_limit_mb=4096 \
        -max_len=12000 -print_final_stats=1 -dict="$SEEDS.dict" -artifact_prefix="$WORK/artifacts/" \
        "$@" "$WORK/corpus" "$SEEDS" >> "$WORK/fuzz.log" 2>&1 || status=$?
    [ "$status" -eq 0 ] && break
    echo "fuzz-libfuzzer: libFuzzer stopped with exit status $status; $(ls "$WORK/artifacts" | wc -l) file(s) in $WORK/artifacts"
done
grep -E '^#[0-9]+[[:space:]]+(DONE|INITED)|^stat::|^SUMMARY|^artifact_prefix|Test unit written' "$WORK/fuzz.log" || true
