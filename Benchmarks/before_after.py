#!/usr/bin/env python3
# Before and after in one run when two sheaf binaries cannot share a vault (another index
# schema: each would rebuild the other's index, as `sheaf-bench floors --baseline` warns). Each
# binary gets its own copy of VAULT (and its own 200-note vault), samples alternate which goes
# first, medians with the range, printed as a markdown table. Standard library only.
#   python3 Benchmarks/before_after.py BEFORE AFTER VAULT [WORK]   (VAULT: generate_vault.py --seed 1)
import subprocess, time, statistics, sys, os, shutil
before, after, src = sys.argv[1], sys.argv[2], sys.argv[3]
work = sys.argv[4] if len(sys.argv) > 4 else '/tmp/sheaf-before-after'
os.makedirs(work, exist_ok=True)
generator = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'generate_vault.py')
def prep(name, binary):
    d = f'{work}/{name}'
    if os.path.exists(d): shutil.rmtree(d)
    shutil.copytree(src, d, symlinks=True)
    # `housekeep` waits for the gc the first commit started detached (it holds the writer
    # lock: a walk sampled meanwhile waited for it, 4-5 s at 10k notes).
    for c in (['init'], ['index'], ['commit'], ['housekeep']):
        subprocess.run([binary] + c, cwd=d, capture_output=True)
    return d
def t(cmd, cwd):
    s = time.perf_counter(); subprocess.run(cmd, cwd=cwd, capture_output=True); return time.perf_counter() - s
vb, va = prep('b', before), prep('a', after)
small = {}
for name, binary in (('b', before), ('a', after)):
    d = f'{work}/s200{name}'
    if os.path.exists(d): shutil.rmtree(d)
    subprocess.run(['python3', generator, '--notes', '200', '--seed', '1', d], capture_output=True)
    for c in (['init'], ['index']): subprocess.run([binary] + c, cwd=d, capture_output=True)
    small[name] = d
rows = {}
def row(label, fb, fa, n=11):
    xs, ys = [], []
    for i in range(n):
        if i % 2: xs.append(fb()); ys.append(fa())
        else: ys.append(fa()); xs.append(fb())
    mb, ma = statistics.median(xs)*1000, statistics.median(ys)*1000
    print(f'| {label} | {mb:.0f} ms ({min(xs)*1000:.0f}-{max(xs)*1000:.0f}) | {ma:.0f} ms ({min(ys)*1000:.0f}-{max(ys)*1000:.0f}) | {ma/mb:.2f} |', flush=True)
print('| work | before | after | after/before |')
print('|---|---|---|---|')
row('no-change walk (`sheaf index`)', lambda: t([before, 'index'], vb), lambda: t([after, 'index'], va))
row('`sheaf search running`, no watcher', lambda: t([before, 'search', 'running'], vb), lambda: t([after, 'search', 'running'], va))
row('`sheaf search with`, no watcher', lambda: t([before, 'search', 'with'], vb), lambda: t([after, 'search', 'with'], va))
row('`sheaf search running`, 200 notes', lambda: t([before, 'search', 'running'], small['b']), lambda: t([after, 'search', 'running'], small['a']), n=21)
row('`sheaf --version`', lambda: t([before, '--version'], '/tmp'), lambda: t([after, '--version'], '/tmp'), n=41)
counter = [0]
def mv(binary, d):
    counter[0] += 1; k = counter[0]
    folder = d + '/Areas'
    open(f'{folder}/AB target {k}.md', 'w').write(f'# AB target {k}\n\nmoved\n')
    open(f'{folder}/AB link {k}.md', 'w').write(f'# Link {k}\n\nsee [[AB target {k}]]\n')
    subprocess.run([binary, 'commit'], cwd=d, capture_output=True)
    subprocess.run([binary, 'index'], cwd=d, capture_output=True)
    return t([binary, 'mv', f'Areas/AB target {k}.md', f'AB target {k} moved'], d)
row('`sheaf mv`, 1 linking note', lambda: mv(before, vb), lambda: mv(after, va), n=9)
