#!/usr/bin/env python3
# Real three-way merges of markdown files, mined from git histories, for the merge driver's
# benchmark (Benchmarks/merge_driver.sh): git runs a merge driver exactly on these, a path both
# parents of a merge commit changed since their merge base. Python 3 standard library only.
#
#   python3 Benchmarks/merge_corpus.py --out /tmp/merge-corpus REPO.git [REPO.git ...]
#
# For each merge commit M (two parents P1, P2, merge base B) and each *.md / *.markdown path that
# differs between B and P1 and between B and P2 (and between P1 and P2), writes the three blobs
# to OUT/cases/NNNNN/{base,ours,theirs} (base empty when the path is new on both sides, as git
# gives a driver) and one line to OUT/manifest.tsv: case, repository, merge commit, path. The
# same (base, ours, theirs) triple is kept once. --per-repo caps the cases taken from one history
# (newest merges first) so one busy repository does not make the whole mix.
import argparse
import os
import shutil
import subprocess
import sys


def git(repo, *args, input=None):
    return subprocess.run(["git", "--git-dir", repo, *args], input=input, capture_output=True, check=False).stdout


def changed_notes(repo, a, b):
    """Paths of notes whose blob differs between two commits: {path: blob of b}."""
    out = git(repo, "diff-tree", "-r", "--no-renames", "-z", a, b)
    fields = out.split(b"\0")
    result = {}
    i = 0
    while i + 1 < len(fields):
        meta, path = fields[i], fields[i + 1]
        i += 2
        parts = meta.decode().lstrip(":").split(" ")
        if len(parts) < 5:
            continue
        new_mode, new_blob, status = parts[1], parts[3], parts[4]
        name = path.decode("utf-8", "surrogateescape")
        if not name.lower().endswith((".md", ".markdown")) or new_mode != "100644" or status == "D":
            continue
        result[name] = new_blob
    return result


def blob_at(repo, commit, path):
    out = git(repo, "rev-parse", "--verify", "-q", f"{commit}:{path}").strip()
    return out.decode() if out else None


class Blobs:
    """One `git cat-file --batch` per repository."""

    def __init__(self, repo):
        self.proc = subprocess.Popen(["git", "--git-dir", repo, "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, blob):
        self.proc.stdin.write(blob.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        size = int(header[2])
        data = self.proc.stdout.read(size)
        self.proc.stdout.read(1)
        return data

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="folder for the corpus (emptied first)")
    parser.add_argument("--per-repo", type=int, default=150, help="at most this many cases from one history")
    parser.add_argument("repos", nargs="+", help="git directories (bare or .git)")
    args = parser.parse_args()

    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.join(args.out, "cases"))
    seen = set()
    count = 0
    with open(os.path.join(args.out, "manifest.tsv"), "w", encoding="utf-8") as manifest:
        manifest.write("case\trepository\tmerge\tpath\n")
        for repo in args.repos:
            name = repo.rstrip("/")
            taken = 0
            blobs = Blobs(repo)
            merges = git(repo, "rev-list", "--all", "--merges", "--parents").decode().split("\n")
            for line in merges:
                if taken >= args.per_repo:
                    break
                ids = line.split()
                if len(ids) != 3:
                    continue
                merge, p1, p2 = ids
                base = git(repo, "merge-base", p1, p2).decode().split()
                if not base:
                    continue
                ours_changed = changed_notes(repo, base[0], p1)
                if not ours_changed:
                    continue
                theirs_changed = changed_notes(repo, base[0], p2)
                for path in sorted(set(ours_changed) & set(theirs_changed)):
                    o, t = ours_changed[path], theirs_changed[path]
                    if o == t:
                        continue  # both made the same change: git needs no driver
                    b = blob_at(repo, base[0], path)
                    if (b, o, t) in seen:
                        continue
                    seen.add((b, o, t))
                    folder = os.path.join(args.out, "cases", f"{count:05d}")
                    os.makedirs(folder)
                    for side, blob in (("base", b), ("ours", o), ("theirs", t)):
                        with open(os.path.join(folder, side), "wb") as f:
                            f.write(blobs.read(blob) if blob else b"")
                    manifest.write(f"{count:05d}\t{name}\t{merge}\t{path}\n")
                    count += 1
                    taken += 1
                    if taken >= args.per_repo:
                        break
            blobs.close()
            print(f"{name}: {taken} cases", file=sys.stderr)
    print(f"{count} cases in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
