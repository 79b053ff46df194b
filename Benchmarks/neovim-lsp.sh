#!/usr/bin/env bash
# Neovim as the editor of `synclint lsp`, headless: opens a view with a `.task` that has no `id:` in a
# scratch project and checks that the diagnostic arrives from synclint with its rule id, then that an
# edit in the buffer (not saved) clears it. Needs Neovim 0.7 or later (Debian: `apt-get install neovim`);
# not part of `swift test`.
#
#   Benchmarks/neovim-lsp.sh [SYNCLINT]     # default: the debug build, .build/debug/synclint
set -euo pipefail
cd "$(dirname "$0")/.."
synclint=$(realpath "${1:-.build/debug/synclint}")
command -v nvim >/dev/null || { echo "needs nvim (apt-get install neovim)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/project"
echo '// swift-tools-version: 6.0' > "$scratch/project/Package.swift"
echo 'opt_in_rules: [task_without_id]' > "$scratch/project/.synclint.yml"   # the checked rule is opt-in
cat > "$scratch/project/ItemView.swift" <<'SWIFT'
import SwiftUI
struct ItemView: View {
    let item: Item
    var body: some View {
        Text(item.title).task { await load(item) }
    }
}
@Model final class Item { var title: String = "" }
SWIFT
cat > "$scratch/check.lua" <<LUA
local file = "$scratch/project/ItemView.swift"
-- start_client and buf_attach_client work from Neovim 0.7 (Debian 12's) on; vim.lsp.start is 0.8+.
local client = vim.lsp.start_client({ name = "synclint", cmd = { "$synclint", "lsp" }, root_dir = "$scratch/project" })
vim.cmd("edit " .. file)
vim.lsp.buf_attach_client(0, client)
local function synclint_diagnostics()
  return vim.tbl_filter(function(d) return d.source == "synclint" end, vim.diagnostic.get(0))
end
if not vim.wait(60000, function() return #synclint_diagnostics() > 0 end, 50) then
  io.stderr:write("FAIL: no diagnostics from synclint within 60 s\n")
  vim.cmd("cquit 1")
end
local d = synclint_diagnostics()[1]
d.code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
io.stdout:write(string.format("diagnostic: %s:%d:%d %s [%s]\n", file, d.lnum + 1, d.col + 1, d.message, d.code))
if d.code ~= "task_without_id" or d.lnum ~= 4 or d.col ~= 24 then
  io.stderr:write("FAIL: expected task_without_id at 5:25\n")
  vim.cmd("cquit 1")
end
-- Edit the buffer without saving: the finding must go.
vim.api.nvim_buf_set_text(0, 4, 29, 4, 29, { "(id: item.id)" })
if not vim.wait(60000, function() return #synclint_diagnostics() == 0 end, 50) then
  io.stderr:write("FAIL: the diagnostic stayed after the edit\n")
  vim.cmd("cquit 1")
end
io.stdout:write("OK: diagnostics arrive, and an unsaved edit clears them\n")
vim.cmd("qall!")
LUA
nvim --headless --clean -u NONE -c "luafile $scratch/check.lua"
