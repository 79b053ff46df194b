#!/usr/bin/env bash
# Fixes on real apps: runs `synclint lint --fix --unsafe-fixes --enable-all-rules` on COPIES of the apps
# in APPS_DIR (each app a project of its own, as calibrate.sh lints them) and checks that
#   1. every file the fixes changed still parses (swift-syntax, no recovery: `synclint-floor --parse-errors`),
#   2. a second run changes nothing,
#   3. only the fixed rules' findings change: every other rule reports the same findings before and after
#      (compared without line and column, which fixes above a finding shift), and each fixed rule reports
#      fewer findings, by at most as many as it fixed.
# Prints files changed, fixes per rule, parse failures, second-run changes and finding changes; exits 1 if a
# check fails. The apps are never written: the copies live in a temporary folder (KEEP=1 keeps it).
#
#   Benchmarks/fix-apps.sh [APPS_DIR]     # default APPS_DIR: .calibration-apps (Benchmarks/calibrate.sh
#                                         # clones the ten apps there; no network is needed once they are)
# Debug build, like calibrate.sh: `swift build` of synclint and synclint-floor first.
set -euo pipefail
cd "$(dirname "$0")/.."
apps_dir=${1:-.calibration-apps}
apps=()
for app in "$apps_dir"/*/; do [[ -d "$app" ]] && apps+=("$(basename "$app")"); done
if (( ${#apps[@]} == 0 )); then
    echo "error: no apps in '$apps_dir'; run Benchmarks/calibrate.sh to clone them, or pass a folder of apps" >&2
    exit 2
fi
apps_dir=$(cd "$apps_dir" && pwd)

swift build --product synclint >&2
swift build --product synclint-floor >&2
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
if [[ -z "${KEEP:-}" ]]; then trap 'rm -rf "$work"' EXIT; else echo "copies kept in $work" >&2; fi

# The copies, without version control folders (nothing reads them, and they are most of the bytes).
paths=()
for app in "${apps[@]}"; do
    mkdir -p "$work/apps/$app"
    (cd "$apps_dir/$app" && tar --exclude=.git -cf - .) | (cd "$work/apps/$app" && tar -xf -)
    paths+=("$work/apps/$app")
done

swift_hashes() { # the Swift files of the copies with a content hash, sorted by path
    (cd "$work/apps" && find . -name '*.swift' -type f -print0 | sort -z | xargs -0 sha1sum)
}
lint() { # lint OUT: every rule's findings, one per line; status 0 or 1 (findings), else the run failed
    local status=0
    "$bin/synclint" lint --no-cache --enable-all-rules "${paths[@]}" > "$1" 2> "$1.err" || status=$?
    if (( status > 1 )); then echo "error: synclint lint failed with status $status" >&2; cat "$1.err" >&2; exit 2; fi
}
fix() { # fix LOG: fixes everything it can (summary line in LOG), then lints what is left (LOG.out)
    local status=0
    "$bin/synclint" lint --fix --unsafe-fixes --enable-all-rules "${paths[@]}" > "$1.out" 2> "$1" || status=$?
    if (( status > 1 )); then echo "error: synclint --fix failed with status $status" >&2; cat "$1" >&2; exit 2; fi
}
# A finding without its line and column ("file: warning: message (rule)"), and line numbers inside
# messages ("declared at File.swift:12") made N, so that lines moved by a fix compare equal.
position_free() { sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /; s/(\.swift):[0-9]+/\1:N/g' "$1" | sort; }
rule_of() { sed -E 's/.*\(([a-z_]+)\)$/\1/'; }

swift_hashes > "$work/hashes.before"
lint "$work/findings.before"
fix "$work/fix1.log"
swift_hashes > "$work/hashes.after"
fix "$work/fix2.log"
swift_hashes > "$work/hashes.second"
# What the second run reports after fixing nothing is the lint of the fixed apps: no third lint needed.
cp "$work/fix2.log.out" "$work/findings.after"

failed=0
files=$(find "$work/apps" -name '*.swift' -type f | wc -l | tr -d ' ')
lines=$(find "$work/apps" -name '*.swift' -type f -print0 | xargs -0 cat | wc -l | tr -d ' ')
changed=$(diff <(cat "$work/hashes.before") "$work/hashes.after" | sed -n 's/^> [0-9a-f]*  \.\///p' || true)
changed_count=$(printf '%s' "$changed" | grep -c . || true)
echo "apps: ${#apps[@]} ($files Swift files, $lines lines) in $apps_dir"
echo "first run: $(grep -h '^fixed ' "$work/fix1.log" || echo 'fixed nothing')"
echo "files changed: $changed_count"
grep -h 'warning: ' "$work/fix1.log" | grep -iv 'could not be read\|not UTF-8\|binary' | sed 's/^/  fix warning: /' || true

# 1. Every changed file parses; a file that did not parse before is told apart.
parse_failures=0
while IFS= read -r file; do
    [[ -z "$file" ]] && continue
    if ! errors=$("$bin/synclint-floor" --parse-errors "$work/apps/$file"); then
        before=$("$bin/synclint-floor" --parse-errors "$apps_dir/$file" | sed 's/.*: //' || true)
        echo "  PARSE FAILURE: $file: ${errors##*: } recoveries after the fix (before: ${before:-0})"
        parse_failures=$((parse_failures + 1))
    fi
done <<< "$changed"
echo "parse failures in changed files: $parse_failures"
(( parse_failures == 0 )) || failed=1

# 2. A second run changes nothing.
second=$(diff "$work/hashes.after" "$work/hashes.second" | grep -c '^>' || true)
echo "second run: $(grep -h '^fixed ' "$work/fix2.log" || echo 'fixed nothing'); files changed: $second"
(( second == 0 )) || { failed=1; diff "$work/hashes.after" "$work/hashes.second" | sed -n 's/^> [0-9a-f]*  \.\//  changed again: /p'; }

# 3. Only the fixed rules' findings change, and each fixed rule by what it fixed.
fixed_rules=$(sed -n 's/^fixed .*(\(.*\))$/\1/p' "$work/fix1.log" | tr ',' '\n' | sed -E 's/^ *([a-z_]+): ([0-9]+)$/\1 \2/')
position_free "$work/findings.before" > "$work/before.keys"
position_free "$work/findings.after" > "$work/after.keys"
others_changed=0
while IFS= read -r line; do
    rule=$(printf '%s\n' "$line" | rule_of)
    if ! printf '%s\n' "$fixed_rules" | grep -q "^$rule "; then
        echo "  OTHER RULE CHANGED: $line"
        others_changed=$((others_changed + 1))
    fi
done < <(diff "$work/before.keys" "$work/after.keys" | grep '^[<>]' || true)
echo "findings of rules without a fix applied that changed: $others_changed"
(( others_changed == 0 )) || failed=1
while read -r rule count; do
    [[ -z "$rule" ]] && continue
    before=$(grep -c "($rule)\$" "$work/findings.before" || true)
    after=$(grep -c "($rule)\$" "$work/findings.after" || true)
    # A finding can take several fixes, one per round (a clause for CancellationError, then one for
    # URLError.cancelled), so a rule reports at most as many fewer findings as it fixed, and some fewer.
    verdict=ok
    (( after < before && before - after <= count )) || { verdict="MISMATCH: $count fixes for $((before - after)) findings"; failed=1; }
    echo "  $rule: fixed $count; findings $before -> $after ($verdict)"
done <<< "$fixed_rules"
echo "findings (all rules): $(wc -l < "$work/findings.before" | tr -d ' ') before, $(wc -l < "$work/findings.after" | tr -d ' ') after"
if [[ -n "${KEEP:-}" ]]; then
    while IFS= read -r file; do
        [[ -n "$file" ]] && diff -u "$apps_dir/$file" "$work/apps/$file" || true
    done <<< "$changed" > "$work/fixes.diff"
fi
exit $failed
