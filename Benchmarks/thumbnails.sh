#!/usr/bin/env bash
# Thumbnails of the benchmark photo set (docs/budgets.md): every JPEG and PNG of
# Debian's mate-backgrounds package, plus a JPEG with EXIF orientation 6 and a WebP made from one
# of them. Times `sheaf index` on a fresh vault holding the set (walk, hashing, header probes and
# thumbnails, one per core) against `vipsthumbnail` on the same files in the same run, both at
# 256 px, JPEG Q 80 without metadata, with peak RSS from /usr/bin/time -v. Budget: <= 0.9x
# vipsthumbnail's time, peak RSS < 200 MB.
#
# Usage: Benchmarks/thumbnails.sh [RUNS]   (default 3 runs each, alternating; best and median shown)
set -euo pipefail
runs=${1:-3}
root=$(cd "$(dirname "$0")/.." && pwd)

need=()
for p in mate-backgrounds libvips-tools time python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "building sheaf (release)..." >&2
(cd "$root" && swift build -c release --product sheaf 2>&1 && swift build -c release --product sheaf-thumbnailer 2>&1) | grep -v "prohibited flag" | tail -1 >&2
sheaf="$root/.build/release/sheaf"

work=$(mktemp -d /tmp/sheaf-thumb-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
photos="$work/photos"
mkdir -p "$photos"
dpkg -L mate-backgrounds | grep -Ei '\.(jpe?g|png)$' | while read -r f; do
  cp "$f" "$photos/$(basename "$(dirname "$f")")-$(basename "$f")"
done
first_jpeg=$(ls "$photos"/*.jpg | head -1)
vips copy "$first_jpeg" "$photos/webp-from-jpeg.webp"
# The same picture with an EXIF APP1 segment holding orientation 6 (rotate 90 degrees to view).
python3 - "$first_jpeg" "$photos/orientation-6.jpg" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) \
    + struct.pack(">HHIHH", 0x0112, 3, 1, 6, 0) + struct.pack(">I", 0)
body = b"Exif\x00\x00" + tiff
open(sys.argv[2], "wb").write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + data[2:])
PY

count=$(ls "$photos" | wc -l)
mp=$(for f in "$photos"/*; do vipsheader -f width "$f" | tr '\n' ' '; vipsheader -f height "$f"; done \
     | awk '{ m = $1 * $2 / 1e6; if (min == "" || m < min) min = m; if (m > max) max = m; t += m }
            END { printf "%.2f-%.2f megapixels, %.0f in all", min, max, t }')
bytes=$(du -sb "$photos" | cut -f1)
echo "photo set: $count files ($(ls "$photos" | sed 's/.*\.//' | sort | uniq -c | awk '{printf "%s%d %s", sep, $1, $2; sep=", "}')), $mp, $((bytes / 1000000)) MB"

vault="$work/vault"
mkdir -p "$vault"
cp "$photos"/* "$vault/"
"$sheaf" init "$vault" >/dev/null
out="$work/vipsthumbnail-out"

measure() {  # command...: prints "seconds maxrss_kb"
  local log="$work/time.log"
  /usr/bin/time -v "$@" >/dev/null 2>"$log" || { cat "$log" >&2; exit 1; }
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}' | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print $NF}')
  echo "$wall $rss"
}

cat /dev/null > "$work/sheaf.txt"; cat /dev/null > "$work/vips.txt"
for i in $(seq "$runs"); do
  rm -rf "$out"; mkdir -p "$out"
  measure vipsthumbnail -s 256 -o "$out/%s.jpg[Q=80,strip]" "$photos"/* >> "$work/vips.txt"
  rm -rf "$vault/.sheaf/thumbnails" "$vault/.sheaf/index.sqlite"*
  measure "$sheaf" index --vault "$vault" >> "$work/sheaf.txt"
done
echo "runs (seconds, KB): sheaf $(tr "\n" ";" < "$work/sheaf.txt") vipsthumbnail $(tr "\n" ";" < "$work/vips.txt")" >&2
made=$(ls "$vault/.sheaf/thumbnails" | wc -l)
[ "$made" -eq "$count" ] || { echo "sheaf made $made thumbnails of $count" >&2; exit 1; }
largest=$(ls -S "$vault/.sheaf/thumbnails" | head -1)

summary() {  # file: best and median seconds, max RSS
  sort -n "$1" | awk '{ s[NR] = $1; if ($2 > r) r = $2 } END { printf "%.2f %.2f %d", s[1], s[int((NR + 1) / 2)], r / 1024 }'
}
read -r sb sm sr <<<"$(summary "$work/sheaf.txt")"
read -r vb vm vr <<<"$(summary "$work/vips.txt")"
echo "vipsthumbnail: best ${vb} s, median ${vm} s, peak RSS ${vr} MB"
echo "sheaf index:   best ${sb} s, median ${sm} s, peak RSS ${sr} MB"
awk -v s="$sm" -v v="$vm" 'BEGIN { printf "ratio (median): %.2fx vipsthumbnail (budget <= 0.9x)\n", s / v }'
echo "largest thumbnail: $(stat -c %s "$vault/.sheaf/thumbnails/$largest") bytes; $(nproc) cores"
