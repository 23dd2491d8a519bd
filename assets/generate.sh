#!/usr/bin/env sh
# Rasterises the hand-written SVG sources (icon.svg, tray/*.svg) into every file the
# packaging config and the tray use. The outputs are committed; run this after editing an SVG.
# Needs (Debian/Ubuntu): apt-get install -y librsvg2-bin icnsutils imagemagick
set -eu
cd "$(dirname "$0")"
for tool in rsvg-convert png2icns convert; do
  command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y librsvg2-bin icnsutils imagemagick" >&2; exit 1; }
done
mkdir -p icons
for s in 16 24 32 48 64 128 256 512 1024; do rsvg-convert -w $s -h $s icon.svg -o icons/${s}x${s}.png; done
cp icons/512x512.png icon.png
# macOS: 16–1024 (png2icns picks the icon type from each PNG's size).
png2icns icon.icns icons/16x16.png icons/32x32.png icons/128x128.png icons/256x256.png icons/512x512.png icons/1024x1024.png >/dev/null
# Windows: 16–256 in one .ico.
convert icons/16x16.png icons/24x24.png icons/32x32.png icons/48x48.png icons/64x64.png icons/128x128.png icons/256x256.png icon.ico
# Tray: 16 px and @2x everywhere, 22 px for Linux panels; templates (black + alpha) for macOS.
for f in tray/*.svg; do
  b=${f%.svg}
  rsvg-convert -w 16 -h 16 "$f" -o "$b.png"
  rsvg-convert -w 32 -h 32 "$f" -o "$b@2x.png"
  case "$b" in
    *Template) ;;
    *) rsvg-convert -w 22 -h 22 "$f" -o "$b-22.png" ;;
  esac
done
