#!/usr/bin/env python3
# git's merge driver against its floor, `git merge-file -p`, over a corpus of real merges
# (Benchmarks/merge_corpus.py). Each case is run as git runs the driver `sheaf
# install-merge-driver` registers (`sheaf-merge-file --driver-path %P %O %A %B`, in the work
# tree's root, the result replacing %A), alternating with the floor, case by case. Python 3
# standard library only.
#
#   python3 Benchmarks/merge_driver.py --corpus /tmp/merge-corpus --driver .build/release/sheaf-merge-file \
#       [--baseline /path/to/old/sheaf-merge-file] [--runs 5]
#
# The driver finds `sheaf` beside itself for what it hands over; a --baseline binary is run from
# a folder of its own holding it and a link to the `sheaf` beside --driver. Prints per-case
# median times, the ratio of the summed medians over the whole mix, the cases handed over to
# `sheaf merge-file` (counted by a `sheaf` that notes its call, in a pass that is not timed) and
# why (the driver's own words under SHEAF_MERGE_FILE_TRACE=1), and whether the outputs agree
# with git's where git's merge is clean.
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def load(corpus):
    cases = []
    with open(os.path.join(corpus, "manifest.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            case, repo, merge, path = line.rstrip("\n").split("\t")
            folder = os.path.join(corpus, "cases", case)
            sides = {}
            for side in ("base", "ours", "theirs"):
                with open(os.path.join(folder, side), "rb") as g:
                    sides[side] = g.read()
            cases.append({"case": case, "repo": repo, "path": path, **sides})
    return cases


class Tree:
    """A work tree for one case: git's temporary files in its root, the note's folder made."""

    def __init__(self, root, case):
        self.root = root
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, os.path.dirname(case["path"])), exist_ok=True)
        self.case = case
        for name, side in ((".merge_file_O", "base"), (".merge_file_B", "theirs")):
            with open(os.path.join(root, name), "wb") as f:
                f.write(case[side])
        self.reset()

    def reset(self):
        with open(os.path.join(self.root, ".merge_file_A"), "wb") as f:
            f.write(self.case["ours"])
        # Conflict files a run left beside the note: the next run must find the same names free.
        folder = os.path.join(self.root, os.path.dirname(self.case["path"]))
        for name in os.listdir(folder):
            if ".conflict-" in name:
                os.remove(os.path.join(folder, name))

    def driver_argv(self, driver):
        return [driver, "--driver-path", self.case["path"], ".merge_file_O", ".merge_file_A", ".merge_file_B"]

    def floor_argv(self, git):
        return [git, "merge-file", "-p", ".merge_file_A", ".merge_file_O", ".merge_file_B"]

    def result(self):
        with open(os.path.join(self.root, ".merge_file_A"), "rb") as f:
            return f.read()


class Done:
    def __init__(self, returncode, stdout):
        self.returncode, self.stdout = returncode, stdout


def timed(argv, cwd, env=None):
    """Wall and CPU (user + system, from wait4) seconds of one run, and what it gave."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, Done(process.returncode, out.read())


def counting_folder(work, driver, sheaf, name):
    """A folder holding `driver` and a `sheaf` that appends one line to a log, then runs the real one."""
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    shutil.copy2(driver, os.path.join(folder, "sheaf-merge-file"))
    log = os.path.join(folder, "handed-over.log")
    script = os.path.join(folder, "sheaf")
    with open(script, "w") as f:
        f.write(f"#!/bin/sh\necho x >> '{log}'\nexec '{sheaf}' \"$@\"\n")
    os.chmod(script, 0o755)
    return os.path.join(folder, "sheaf-merge-file"), log


def handed_over(tree, driver, log):
    before = os.path.getsize(log) if os.path.exists(log) else 0
    tree.reset()
    subprocess.run(tree.driver_argv(driver), cwd=tree.root, capture_output=True)
    return (os.path.getsize(log) if os.path.exists(log) else 0) > before


def ms(seconds):
    return f"{seconds * 1000:.2f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--driver", required=True, help="sheaf-merge-file, with sheaf beside it")
    parser.add_argument("--baseline", help="another sheaf-merge-file, timed in the same runs")
    parser.add_argument("--runs", type=int, default=5, help="runs per case and program (median)")
    parser.add_argument("--git", default="git")
    parser.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    args = parser.parse_args()

    driver = os.path.abspath(args.driver)
    sheaf = os.path.join(os.path.dirname(driver), "sheaf")
    if not os.access(sheaf, os.X_OK):
        sys.exit(f"no sheaf beside {driver}")
    work = args.work or tempfile.mkdtemp(prefix="sheaf-merge-bench-")
    os.makedirs(work, exist_ok=True)
    programs = {"driver": driver}
    if args.baseline:
        # The baseline hands over to the same `sheaf` as the driver: only the drivers differ.
        folder = os.path.join(work, "baseline-bin")
        os.makedirs(folder, exist_ok=True)
        programs["baseline"] = os.path.join(folder, "sheaf-merge-file")
        shutil.copy2(args.baseline, programs["baseline"])
        if not os.path.exists(os.path.join(folder, "sheaf")):
            os.symlink(sheaf, os.path.join(folder, "sheaf"))
    counting = {name: counting_folder(work, path, sheaf, "count-" + name) for name, path in programs.items()}

    cases = load(args.corpus)
    medians = {name: [] for name in ["floor", *programs]}
    cpu_medians = {name: [] for name in medians}
    handed = {name: 0 for name in programs}
    handed_times = {name: [] for name in programs}
    kept_times = {name: [] for name in programs}
    reasons = {}
    agree = disagree = git_conflicts = 0
    disagreeing = []
    trace_env = dict(os.environ, SHEAF_MERGE_FILE_TRACE="1")
    overlapped = []  # per case: the driver wrote a conflict file (exit 1)
    for case in cases:
        tree = Tree(os.path.join(work, "tree"), case)
        samples = {name: [] for name in medians}
        cpu_samples = {name: [] for name in medians}
        floor_out = None
        for run in range(args.runs):
            # Alternating, and each program first in turn.
            order = ["floor", *programs]
            order = order[run % len(order):] + order[:run % len(order)]
            for name in order:
                tree.reset()
                if name == "floor":
                    seconds, cpu, done = timed(tree.floor_argv(args.git), tree.root)
                    floor_out = done
                else:
                    seconds, cpu, _ = timed(tree.driver_argv(programs[name]), tree.root)
                samples[name].append(seconds)
                cpu_samples[name].append(cpu)
        for name in medians:
            medians[name].append(statistics.median(samples[name]))
            cpu_medians[name].append(statistics.median(cpu_samples[name]))
        # Untimed: was the case handed over, why, and does the result agree with git's?
        for name, (copy, log) in counting.items():
            if handed_over(tree, copy, log):
                handed[name] += 1
                handed_times[name].append(medians[name][-1])
            else:
                kept_times[name].append(medians[name][-1])
        tree.reset()
        traced = subprocess.run(tree.driver_argv(driver), cwd=tree.root, env=trace_env, capture_output=True)
        overlapped.append(traced.returncode == 1)
        for line in traced.stderr.decode("utf-8", "replace").splitlines():
            if line.startswith("sheaf-merge-file: handing over: "):
                reason = line[len("sheaf-merge-file: handing over: "):]
                reasons[reason] = reasons.get(reason, 0) + 1
        if floor_out.returncode == 0:
            if tree.result() == floor_out.stdout:
                agree += 1
            else:
                disagree += 1
                disagreeing.append(case["case"])
        else:
            git_conflicts += 1

    total_floor = sum(medians["floor"])
    repos = sorted({c["repo"] for c in cases})
    print(f"## Merge driver over {len(cases)} real merges ({args.runs} runs each, alternating)\n")
    print("Repositories: " + ", ".join(os.path.basename(os.path.dirname(r)) if r.endswith("/repo") else r for r in repos) + "\n")
    total_floor_cpu = sum(cpu_medians["floor"])
    print("| program | median per case (ms) | p90 per case (ms) | sum of medians (s) | ratio to floor | CPU: sum of medians (s), ratio | handed over | median of those handed over (ms) | median of the rest (ms) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in medians:
        values = sorted(medians[name])
        p90 = values[int(len(values) * 0.9)] if values else 0
        total = sum(values)
        label = {"floor": "`git merge-file -p` (floor)", "driver": "sheaf-merge-file", "baseline": "baseline sheaf-merge-file"}[name]
        cpu = sum(cpu_medians[name])
        if name == "floor":
            print(f"| {label} | {ms(statistics.median(values))} | {ms(p90)} | {total:.2f} | 1.00x | {cpu:.2f}, 1.00x | - | - | - |")
        else:
            h, k = handed_times[name], kept_times[name]
            print(f"| {label} | {ms(statistics.median(values))} | {ms(p90)} | {total:.2f} | {total / total_floor:.2f}x | "
                  f"{cpu:.2f}, {cpu / total_floor_cpu:.2f}x | "
                  f"{handed[name]} | {ms(statistics.median(h)) if h else '-'} | {ms(statistics.median(k)) if k else '-'} |")
    print()
    # The same sums over the cases with an overlap (a conflict file written, fsynced) and the rest.
    for label, wanted in (("with an overlap (conflict file)", True), ("without", False)):
        picked = [i for i, o in enumerate(overlapped) if o == wanted]
        if not picked:
            continue
        floor = sum(medians["floor"][i] for i in picked)
        parts = [f"{name} {sum(medians[name][i] for i in picked) / floor:.2f}x" for name in programs]
        print(f"Cases {label}: {len(picked)}; floor {floor:.2f} s; " + ", ".join(parts))
    print()
    print(f"Where `git merge-file` is clean ({agree + disagree} cases) the driver's note is git's in {agree}"
          f"{'; differs in ' + ', '.join(disagreeing) if disagreeing else ''}; git reports a conflict in {git_conflicts}.")
    if reasons:
        print("\nHanded over by sheaf-merge-file, and why:\n")
        for reason, n in sorted(reasons.items(), key=lambda r: -r[1]):
            print(f"- {n}: {reason}")
    try:
        load_avg = open("/proc/loadavg").read().split()[:3]
        print(f"\nLoad average at the end: {' '.join(load_avg)}; {os.cpu_count()} cores.")
    except OSError:
        pass


if __name__ == "__main__":
    main()
