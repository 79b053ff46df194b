#!/bin/sh
# A long fuzz campaign: mutants of the sample apps, fixtures and rule examples through the whole
# pipeline (FuzzTests.mutantsNeitherCrashNorHang), with more mutants and a seed of your choice.
#
#   Benchmarks/fuzz.sh                 # 100,000 mutants, seed from the clock (about 20 minutes, debug)
#   Benchmarks/fuzz.sh 500000 42       # mutants, seed
#   FIRST=20000 Benchmarks/fuzz.sh 1 42   # rebuild and run only mutant 20000 of seed 42
#
# A mutant that runs too long is saved to Tests/SyncLintKitTests/Fixtures/Fuzz/ by the test itself.
# A crash ends the test runner; this script then copies the mutant it was running from
# $TMPDIR/synclint-fuzz-current.txt into that folder, so the next `swift test` runs it again.
set -u
MUTANTS=${1:-100000}
SEED=${2:-$(date +%s)}
FIRST=${FIRST:-0}
SCRATCH=${SCRATCH:-.build}
cd "$(dirname "$0")/.." || exit 2
echo "fuzz: $MUTANTS mutants from $FIRST, seed $SEED"
SYNCLINT_FUZZ_SEED=$SEED SYNCLINT_FUZZ_MUTANTS=$MUTANTS SYNCLINT_FUZZ_FIRST=$FIRST \
    swift test --scratch-path "$SCRATCH" --filter 'FuzzTests/mutantsNeitherCrashNorHang'
status=$?
current="${TMPDIR:-/tmp}/synclint-fuzz-current.txt"
if [ "$status" -ne 0 ] && [ -f "$current" ]; then
    name=$(head -n 1 "$current")
    index=$(echo "$name" | sed -n 's/.*mutant \([0-9]*\).*/\1/p')
    case "$name" in *"(model"*) extension=contents ;; *) extension=swift ;; esac
    saved="Tests/SyncLintKitTests/Fixtures/Fuzz/crash-$SEED-${index:-unknown}.$extension"
    sed '1,2d' "$current" > "$saved"
    echo "fuzz: the run ended while linting $name; the mutant is saved as $saved"
fi
exit "$status"
