#!/usr/bin/env python3
"""Load for `sheaf serve` (issue 26's budgets), Python 3 standard library only.

Starts `sheaf serve --port 0 --no-sync` on a vault (made with generate_vault.py, `sheaf init`
and `sheaf index` first), opens the printed URL once for the cookie, waits until the in-process
watcher has caught up, then measures on 127.0.0.1:
  - a note page (server-side render: markdown, links, backlinks), one client, N notes;
  - search as you type: the fragment route for each prefix of words typed letter by letter;
  - 50 concurrent clients browsing note pages (threads of this process; each request times the
    whole round trip, so the client's own Python overhead is in the figures);
  - the server's peak and current RSS (/proc/PID/status: VmHWM, VmRSS).
With --wrk, also `wrk` (Debian's package) with serve_wrk.lua, --clients connections for
--wrk-seconds each: random note pages with the cookie; the server's own static stylesheet
(/assets/sheaf.css) as a reference the same server answers without the vault; and nginx (a
config of its own, one worker, on another port) serving the same notes' raw files, the
reference of a server that only reads the file.
Every loop is bounded in count and time; the server is stopped (SIGTERM) at the end.
"""
import argparse
import http.client
import os
import random
import re
import signal
import statistics
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse


def quantile(samples, q):
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vault")
    ap.add_argument("--sheaf", required=True)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--per-client", type=int, default=40)
    ap.add_argument("--wrk", action="store_true", help="also run wrk (serve_wrk.lua) and its references")
    ap.add_argument("--wrk-seconds", type=int, default=20)
    a = ap.parse_args()

    server = subprocess.Popen([a.sheaf, "serve", "--port", "0", "--no-sync"], cwd=a.vault,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = None
    deadline = time.time() + 120
    for line in server.stdout:
        if line.startswith("Open "):
            url = line.split()[1]
            break
        if time.time() > deadline:
            break
    assert url, "no URL"
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname, parts.port
    c = http.client.HTTPConnection(host, port, timeout=30)
    c.request("GET", "/?" + parts.query)
    r = c.getresponse()
    r.read()
    cookie = r.getheader("Set-Cookie").split(";")[0]
    headers = {"Cookie": cookie, "Host": f"{host}:{port}"}
    # The watcher catches up (one scan) before it vouches; wait until stderr says it did.
    caught_up = threading.Event()
    def drain():
        for line in server.stderr:
            if "rescanned" in line:
                caught_up.set()
    threading.Thread(target=drain, daemon=True).start()
    caught_up.wait(120)

    notes = []
    for root, dirs, files in os.walk(a.vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        notes += [os.path.relpath(os.path.join(root, f), a.vault) for f in files if f.endswith(".md")]
    random.Random(1).shuffle(notes)
    paths = ["/n/" + urllib.parse.quote(p) for p in notes]

    def get(conn, path):
        t = time.perf_counter()
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        assert resp.status == 200, (path, resp.status)
        return (time.perf_counter() - t) * 1000, body

    conn = http.client.HTTPConnection(host, port, timeout=30)
    for p in paths[:20]:
        get(conn, p)  # warm
    page_ms = [get(conn, p)[0] for p in paths[20:20 + a.pages]]

    words = set()
    for p in notes[:40]:
        with open(os.path.join(a.vault, p), encoding="utf-8", errors="replace") as f:
            words.update(w.lower() for w in re.findall(r"[A-Za-z]{6,}", f.read()))
    typed = []
    for w in sorted(words)[:40]:
        typed += [w[:i] for i in range(2, len(w) + 1)]
    search_ms = [get(conn, "/search?fragment=1&q=" + urllib.parse.quote(q))[0] for q in typed]

    lock = threading.Lock()
    concurrent = []
    def client(k):
        cc = http.client.HTTPConnection(host, port, timeout=60)
        mine = []
        for i in range(a.per_client):
            mine.append(get(cc, paths[(k * 97 + i * 13) % len(paths)])[0])
        with lock:
            concurrent.extend(mine)
    started = time.time()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    wall = time.time() - started

    wrk_lines = []
    if a.wrk:
        wrk_lines = run_wrk(a, f"http://{host}:{port}", cookie, paths, notes)

    status = open(f"/proc/{server.pid}/status").read()
    hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024
    server.send_signal(signal.SIGTERM)
    server.wait(60)

    print(f"notes: {len(notes)}")
    print(f"note page, 1 client, {len(page_ms)} pages: median {statistics.median(page_ms):.2f} ms, p95 {quantile(page_ms, .95):.2f} ms")
    print(f"search as you type, {len(search_ms)} prefixes: median {statistics.median(search_ms):.2f} ms, p95 {quantile(search_ms, .95):.2f} ms")
    print(f"{a.clients} clients x {a.per_client} note pages: p50 {quantile(concurrent, .5):.1f} ms, p95 {quantile(concurrent, .95):.1f} ms, "
          f"{len(concurrent) / wall:.0f} pages/s")
    print(f"server RSS: peak {hwm:.1f} MB, now {rss:.1f} MB")
    for line in wrk_lines:
        print(line)


def run_wrk(a, base, cookie, paths, notes):
    """wrk against note pages, the server's stylesheet and nginx serving the raw notes."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "serve_wrk.lua")
    work = tempfile.mkdtemp(prefix="serve-wrk-")
    def wrk(name, url, urls, cookie_value):
        listing = os.path.join(work, f"urls-{len(os.listdir(work))}.txt")
        with open(listing, "w") as f:
            f.write("\n".join(urls) + "\n")
        out = subprocess.run(["wrk", "-t2", f"-c{a.clients}", f"-d{a.wrk_seconds}s", "--timeout", "10s", "-s", script,
                              url, "--", listing, cookie_value], capture_output=True, text=True, timeout=a.wrk_seconds + 60)
        line = next((l for l in out.stdout.splitlines() if l.startswith("wrk: ")), out.stdout + out.stderr)
        return f"{name}: {line[5:] if line.startswith('wrk: ') else line}"
    lines = [wrk("wrk note pages", base, paths, cookie),
             wrk("wrk /assets/sheaf.css (same server)", base, ["/assets/sheaf.css"], cookie)]
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if os.path.exists(nginx):
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            nginx_port = s.getsockname()[1]
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 1024; }}
http {{ access_log off; default_type text/plain;
  server {{ listen 127.0.0.1:{nginx_port}; root {os.path.abspath(a.vault)}; }} }}
""")
        proc = subprocess.Popen([nginx, "-c", conf, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 10  # until nginx listens
            while time.time() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", nginx_port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            raw = ["/" + urllib.parse.quote(p) for p in notes]
            lines.append(wrk("wrk nginx raw note files", f"http://127.0.0.1:{nginx_port}", raw, ""))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
    shutil.rmtree(work, ignore_errors=True)
    return lines


if __name__ == "__main__":
    main()
