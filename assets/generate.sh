#!/usr/bin/env sh
# Rasterises the SVG sources into every size the packaging config references.
# Needs: apt-get install -y librsvg2-bin icnsutils imagemagick
set -eu
cd "$(dirname "$0")"
for s in 16 24 32 48 64 128 256 512 1024; do rsvg-convert -w $s -h $s icon.svg -o icons/${s}x${s}.png; done
cp icons/512x512.png icon.png
png2icns icon.icns icons/16x16.png icons/32x32.png icons/128x128.png icons/256x256.png icons/512x512.png icons/1024x1024.png >/dev/null
convert icons/16x16.png icons/24x24.png icons/32x32.png icons/48x48.png icons/64x64.png icons/128x128.png icons/256x256.png icon.ico
for f in tray/*.svg; do
  b=${f%.svg}
  case "$b" in
    *Template) rsvg-convert -w 16 -h 16 "$f" -o "$b.png"; rsvg-convert -w 32 -h 32 "$f" -o "$b@2x.png" ;;
    *) rsvg-convert -w 16 -h 16 "$f" -o "$b.png"; rsvg-convert -w 32 -h 32 "$f" -o "$b@2x.png"; rsvg-convert -w 22 -h 22 "$f" -o "$b-22.png" ;;
  esac
done
cp icon.svg ../src/renderer/public/bell.svg
