#!/bin/sh
# Regenerates public/icons/*.png from the logo (needs ImageMagick). The PNGs are committed, so the
# build does not need ImageMagick. "any" icons are the rounded logo; maskable ones fill the square,
# with the mark inside the central safe zone, since launchers cut their own shape.
set -eu
cd "$(dirname "$0")/../public"
any='<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1652f0" stroke="none"/><path d="M14 40c8-14 16-18 36-20-10 6-14 12-16 22-4-6-10-6-20-2z" fill="#fff" stroke="none"/></svg>'
maskable='<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#1652f0" stroke="none"/><g transform="translate(32 32) scale(0.62) translate(-32 -31)"><path d="M14 40c8-14 16-18 36-20-10 6-14 12-16 22-4-6-10-6-20-2z" fill="#fff" stroke="none"/></g></svg>'
render() { printf '%s' "$1" | convert -background none -density 1200 svg:- -resize "$2x$2" -depth 8 -strip "PNG32:$3"; }
mkdir -p icons
for size in 192 512; do
  render "$any" "$size" "icons/icon-$size.png"
  render "$maskable" "$size" "icons/maskable-$size.png"
done
render "$maskable" 180 icons/apple-touch-icon.png
