#!/usr/bin/env bash
# The calibration run of docs/precision.md: SyncLint's default rules on public SwiftUI / SwiftData /
# Core Data apps at pinned commits, with findings per rule and per 1,000 lines of Swift.
#
#   Benchmarks/calibrate.sh [APPS_DIR]     # default APPS_DIR: .calibration-apps (git-ignored)
#
# Each app is cloned into APPS_DIR at its commit unless a checkout is already there (no network is
# needed for checkouts you made yourself). The apps are linted in one run, each as a project of its
# own, with the debug build (`swift build` first); the findings go to APPS_DIR/findings.txt, and a
# table per app and per rule is printed. Judging each finding stays a person's job: docs/precision.md
# records the verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
apps_dir=${1:-.calibration-apps}
mkdir -p "$apps_dir"

# name  repository  commit
apps="
Aidoku                 Aidoku/Aidoku                    eb812a56593631c03997de6b5d343b2dbd3bea62
Cork                   buresdv/Cork                     75c5c61211a8282e5124bfcd8cf821eb56ece7bf
IceCubesApp            Dimillian/IceCubesApp            0fc41d2ced2e3e735bd9c42d5ae6dea16e63d618
enchanted              AugustDev/enchanted              2aa9d14026b4335bd1df60de51e22f1bbcc23438
jotjot                 momomo-agent/jotjot              d28b5eb5a582291980b219f378dc34daddd60152
mastodon-ios           mastodon/mastodon-ios            a9e088a9c7b88720fed5eefdd2dc1606b5f21dc8
MovieSwiftUI           Dimillian/MovieSwiftUI           72eb4ae7117fbf893be533c9a277c47a7287d87e
onebusaway-ios         OneBusAway/onebusaway-ios        c9dadbd8f192a30485f49cfef7b6d4b4e22397f1
sample-backyard-birds  apple/sample-backyard-birds      1843d5655bf884b501e2889ad9862ec58978fdbe
simplenote-ios         Automattic/simplenote-ios        d3e2599cd16485a4b75a4a62882056351c18a0c7
"

paths=()
while read -r name repository commit; do
    [[ -z "$name" ]] && continue
    if [[ ! -d "$apps_dir/$name" ]]; then
        git clone --quiet "https://github.com/$repository.git" "$apps_dir/$name"
        git -C "$apps_dir/$name" checkout --quiet "$commit"
    fi
    paths+=("$apps_dir/$name")
done <<< "$apps"

swift build --product synclint >&2
bin=$(swift build --show-bin-path)
"$bin/synclint" lint --no-cache "${paths[@]}" > "$apps_dir/findings.txt" 2> "$apps_dir/warnings.txt" || true

total_lines=0
printf '%-24s %9s %9s %10s\n' app lines findings per-1k
for path in "${paths[@]}"; do
    lines=$(find "$path" -name '*.swift' -print0 | xargs -0 cat 2>/dev/null | wc -l)
    findings=$(grep -c "^$(cd "$path" && pwd)/" "$apps_dir/findings.txt" || true)
    total_lines=$((total_lines + lines))
    printf '%-24s %9d %9d %10.2f\n' "$(basename "$path")" "$lines" "$findings" "$(awk "BEGIN { print $findings * 1000 / $lines }")"
done
total=$(wc -l < "$apps_dir/findings.txt")
printf '%-24s %9d %9d %10.2f\n\n' total "$total_lines" "$total" "$(awk "BEGIN { print $total * 1000 / $total_lines }")"
grep -o '([a-z_]*)$' "$apps_dir/findings.txt" | tr -d '()' | sort | uniq -c | sort -rn
