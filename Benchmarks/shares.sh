#!/bin/bash
# The no-change sync of a vault with many shares (docs/sharing.md): 100 note shares and 20 folder
# shares, each with its own bare repository on this machine, against what git alone takes to
# fetch the same 121 repositories (sequentially, and 8 at a time as Sheaf fetches shares).
# Usage: Benchmarks/shares.sh [path/to/sheaf] [work dir]
set -euo pipefail
SHEAF=${1:-.build/release/sheaf}
SHEAF=$(realpath "$SHEAF")
WORK=${2:-/tmp/sheaf-bench-shares}
NOTES=${NOTE_SHARES:-100}
FOLDERS=${FOLDER_SHARES:-20}
rm -rf "$WORK" && mkdir -p "$WORK/remotes"
export HOME="$WORK/home" && mkdir -p "$HOME"
git config --global user.name bench && git config --global user.email bench@example.invalid
V="$WORK/vault"
mkdir -p "$V/Notes"
for i in $(seq 1 "$NOTES"); do printf -- '---\ntags: [shared]\n---\n# Note %s\n\nshared text %s\n' "$i" "$i" > "$V/Notes/Note $i.md"; done
for f in $(seq 1 "$FOLDERS"); do
  mkdir -p "$V/Folder $f"
  for i in 1 2 3 4 5; do printf '# Folder %s note %s\n\ntext\n' "$f" "$i" > "$V/Folder $f/N$i.md"; done
done
git init -q --bare -b main "$WORK/remotes/vault.git"
(cd "$V" && "$SHEAF" init >/dev/null && "$SHEAF" remote add origin "$WORK/remotes/vault.git" && "$SHEAF" sync >/dev/null)
for i in $(seq 1 "$NOTES"); do
  git init -q --bare -b main "$WORK/remotes/n$i.git"
  (cd "$V" && "$SHEAF" -q share "Notes/Note $i.md" --remote "$WORK/remotes/n$i.git" >/dev/null)
done
for f in $(seq 1 "$FOLDERS"); do
  git init -q --bare -b main "$WORK/remotes/f$f.git"
  (cd "$V" && "$SHEAF" -q share "Folder $f" --remote "$WORK/remotes/f$f.git" >/dev/null)
done
(cd "$V" && "$SHEAF" sync >/dev/null)
# The reference: 121 plain clones, fetched by git's CLI.
mkdir -p "$WORK/git"
for r in "$WORK"/remotes/*.git; do git clone -q "$r" "$WORK/git/$(basename "$r" .git)" 2>/dev/null; done
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $NOTES note shares, $FOLDERS folder shares"
hyperfine -N --warmup 2 --runs ${RUNS:-10} --export-markdown "$WORK/table.md" \
  -n "sheaf sync (no change, $((NOTES + FOLDERS)) shares + vault)" "bash -c 'cd \"$V\" && \"$SHEAF\" -q sync'" \
  -n "git fetch, one repository after another" "bash -c 'for d in \"$WORK\"/git/*; do git -C \"\$d\" fetch -q; done'" \
  -n "git fetch, 8 at a time" "bash -c 'ls -d \"$WORK\"/git/* | xargs -P8 -I{} git -C {} fetch -q'"
cat "$WORK/table.md"
