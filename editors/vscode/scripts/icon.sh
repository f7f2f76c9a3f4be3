#!/usr/bin/env bash
# Makes images/icon.png (128x128, what the Marketplace and Open VSX show) from images/icon.svg.
# Run by hand after editing the SVG: bash editors/vscode/scripts/icon.sh
# Needs (Debian 12): apt-get install librsvg2-bin imagemagick
set -euo pipefail
images=$(cd "$(dirname "$0")/../images" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rsvg-convert --width 128 --height 128 --format png "$images/icon.svg" --output "$tmp/big.png"
# No metadata (a timestamp would make each run a new file); mv replaces a link instead of writing through it.
convert "$tmp/big.png" -strip "PNG32:$tmp/icon.png"
mv -fT "$tmp/icon.png" "$images/icon.png"
identify "$images/icon.png"
