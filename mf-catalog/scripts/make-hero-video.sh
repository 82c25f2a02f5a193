#!/bin/sh
# Makes the About page's hero clip from the hero poster drawn in this repository: a slow push in and
# back out over the range scene, 8 seconds at 24 fps, 960x540, VP9 in WebM, no audio track. The zoom
# returns to where it started, so the loop has no jump, and the first frame is the poster itself.
# Needs ffmpeg built with librsvg and libvpx (Debian's `ffmpeg` package). Run from mf-catalog/.
set -eu
assets=src/features/about/assets
frames=192 # 8 s x 24 fps
ffmpeg -y -loglevel error \
  -loop 1 -framerate 24 -t 8 -i "$assets/hero-poster.svg" \
  -vf "scale=3200:1800,zoompan=z='1+0.08*sin(PI*on/$frames)':x='(iw-iw/zoom)*(0.5+0.2*sin(PI*on/$frames))':y='(ih-ih/zoom)/2':d=1:s=960x540:fps=24,format=yuv420p" \
  -frames:v "$frames" -an -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -deadline good -cpu-used 4 \
  "$assets/hero.webm"
ls -l "$assets/hero.webm"
