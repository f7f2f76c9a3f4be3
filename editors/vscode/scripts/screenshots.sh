#!/usr/bin/env bash
# Takes the README's pictures (images/diagnostics.png, hover.png, quick-fix.png, fixed.png) from a real editor:
# Neovim in an xterm under Xvfb, with `tritonc lsp --stdio` attached as docs/editors.md sets it up,
# on a copy of the repository's model_repository/ with one deliberate error (the input named "inptu",
# one letter off the ONNX model's "input"). VS Code cannot run on the build machines; the extension
# starts this same server, so these are the server's real diagnostics, hover and quick fixes.
#
# Run by hand, not in CI: bash editors/vscode/scripts/screenshots.sh [output-dir]
# Needs (Debian 12): apt-get install neovim xvfb xterm imagemagick fonts-dejavu-core
# and the CLI built at the repository root: node scripts/build.mjs --no-types
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$here/../images}

for tool in nvim Xvfb xterm import convert node; do
  command -v "$tool" >/dev/null || { echo "screenshots.sh: $tool is not installed (apt-get install neovim xvfb xterm imagemagick fonts-dejavu-core)" >&2; exit 1; }
done
[ -f "$root/dist/cli.cjs" ] || { echo "screenshots.sh: build tritonc first: (cd $root && node scripts/build.mjs --no-types)" >&2; exit 1; }
mkdir -p "$out"

work=$(mktemp -d)
xvfb_pid='' xterm_pid=''
cleanup() {
  # Only the processes this script started, by their ids.
  if [ -n "$xterm_pid" ]; then kill "$xterm_pid" 2>/dev/null || true; fi
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cp -r "$root/model_repository" "$work/model_repository"
config=$work/model_repository/classifier/config.pbtxt
sed -i 's/name: "input"/name: "inptu"/' "$config"
grep -q 'name: "inptu"' "$config" || { echo "screenshots.sh: model_repository/classifier/config.pbtxt has no input named \"input\" to misspell" >&2; exit 1; }

# Xvfb picks a free display and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1200x800x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || { echo "screenshots.sh: Xvfb did not start:" >&2; cat "$work/xvfb.log" >&2; exit 1; }
DISPLAY=:$(head -n1 "$work/display")
export DISPLAY

sock=$work/nvim.sock
(cd "$work/model_repository" && REPO=$work/model_repository TRITONC_BIN=$root/bin/tritonc.js \
  exec xterm -geometry 118x24+0+0 -fa 'DejaVu Sans Mono' -fs 10 -bg '#333333' -fg '#ffffff' -b 4 \
    -e nvim --clean -u "$here/screenshots.lua" --listen "$sock" classifier/config.pbtxt) &
xterm_pid=$!

# Neovim 0.7 headless writes the value on stderr.
ask() { nvim --clean --headless --server "$sock" --remote-expr "$1" 2>&1; }
send() { nvim --clean --headless --server "$sock" --remote-send "$1"; }
# Waits (up to 20 s) until the Vim expression $1 is true (luaeval gives v:true).
wait_for() {
  for _ in $(seq 200); do [ "$(ask "$1" || true)" = true ] && return 0; sleep 0.1; done
  echo "screenshots.sh: timed out waiting for $1 (last answer: $(ask "$1" || true))" >&2; exit 1
}
# The xterm's window (xterm gives its id to the program it runs), cut to its own size, as a small PNG.
shot() {
  sleep 0.5
  import -window "$window" "$work/shot.png"
  convert "$work/shot.png" -strip -colors 96 "PNG8:$work/small.png"
  # mv replaces whatever is at the destination, a link included, instead of writing through it.
  mv -fT "$work/small.png" "$out/$1"
  echo "$out/$1: $(identify -format '%wx%h' "$out/$1"), $(stat -c %s "$out/$1") bytes"
}

wait_for 'luaeval("#vim.lsp.get_active_clients() > 0")'
# shellcheck disable=SC2016 # $WINDOWID is for Neovim to expand, not this shell
window=$(ask '$WINDOWID')
# The server lints on open; its io-name findings are the ones the pictures are about.
wait_for 'luaeval("#vim.tbl_filter(function(d) return d.user_data.lsp.code == \"io-name\" end, vim.diagnostic.get(0)) >= 2")'

# (a) Diagnostics: signs and virtual text, cursor on the misspelt name.
send '<Esc><Cmd>call cursor(8, 12)<CR>:echo<CR>'
shot diagnostics.png

# (b) Hover on max_batch_size: the field's type, Triton's default and the value Triton will use.
send '<Esc><Cmd>call cursor(5, 3)<CR><Cmd>lua vim.lsp.buf.hover()<CR>'
wait_for 'luaeval("#vim.tbl_filter(function(w) return vim.api.nvim_win_get_config(w).relative ~= \"\" end, vim.api.nvim_list_wins()) > 0")'
shot hover.png

# (c) The code actions on the misspelt name (Neovim 0.7 lists them with inputlist()).
send '<Esc><Cmd>call cursor(8, 12)<CR>'
wait_for 'luaeval("#vim.tbl_filter(function(w) return vim.api.nvim_win_get_config(w).relative ~= \"\" end, vim.api.nvim_list_wins()) == 0")'
send ':lua vim.lsp.buf.code_action()<CR>'
sleep 2
shot quick-fix.png

# (d) The first action chosen: the server's edit applied, and both io-name findings gone.
send '1<CR>'
wait_for 'luaeval("#vim.tbl_filter(function(d) return d.user_data.lsp.code == \"io-name\" end, vim.diagnostic.get(0)) == 0")'
send ':echo<CR>'
shot fixed.png
send '<Esc>:qa!<CR>'
