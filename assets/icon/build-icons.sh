#!/usr/bin/env bash
# Regenerates the icon files from keyranger.svg. Needs rsvg-convert (librsvg2-bin), ImageMagick's convert and
# png2icns (icnsutils): apt-get install librsvg2-bin imagemagick icnsutils
set -euo pipefail
cd "$(dirname "$0")"
for size in 16 32 48 64 128 256 512 1024; do
    rsvg-convert -w "$size" -h "$size" keyranger.svg -o "keyranger-$size.png"
done
convert keyranger-16.png keyranger-32.png keyranger-48.png keyranger-64.png keyranger-128.png keyranger-256.png \
    keyranger.ico
png2icns keyranger.icns keyranger-16.png keyranger-32.png keyranger-128.png keyranger-256.png keyranger-512.png \
    keyranger-1024.png >/dev/null
