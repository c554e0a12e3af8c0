#!/usr/bin/env python3
"""`sheaf lsp` latency, as an editor sees it (Python 3 standard library only).

    python3 Benchmarks/lsp_latency.py --sheaf .build/release/sheaf --vault /tmp/sheaf-bench/v10000

Copies VAULT (a `generate_vault.py` vault) to WORK/lsp-<name>, runs `sheaf init` and `sheaf
index` there, then starts `sheaf lsp --vault COPY` and speaks the protocol to it over pipes:

- completion: a buffer holding `[[QUERY`, the query a prefix (1-8 characters) of a random note's
  title, changed (didChange) then completed, SAMPLES times; the time from sending the completion
  request to its reply, and the whole keystroke (didChange + completion);
- diagnostics: a 2,000-line note (text, and a link every third line: to titles, some with a
  #heading, some broken), opened once, then changed SAMPLES times (one character appended);
  the time from the didChange to the publishDiagnostics of that version;
- idle: the server's CPU over 10 s with nothing asked (its own watcher included).

Prints a markdown table: p50, p95 and max of each, and the idle CPU.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time


class Server:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            line = line.strip()
            if not line:
                if length is not None:
                    break
                continue
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id:
                return message

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def wait_for(self, method, test):
        while True:
            message = self.receive()
            if message.get("method") == method and test(message["params"]):
                return message


def percentiles(samples):
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return pick(0.5) * 1000, pick(0.95) * 1000, ordered[-1] * 1000


def titles(vault):
    out = []
    for folder, _, files in os.walk(vault):
        if "/." in folder:
            continue
        out += [f[:-3] for f in files if f.endswith(".md")]
    return sorted(out)


def main():
    parser = argparse.ArgumentParser(description="sheaf lsp latency")
    parser.add_argument("--sheaf", required=True)
    parser.add_argument("--vault", required=True)
    parser.add_argument("--work", default="/tmp/sheaf-bench")
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    sheaf = os.path.abspath(args.sheaf)
    copy = os.path.join(args.work, "lsp-" + os.path.basename(os.path.normpath(args.vault)))
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(args.vault, copy)
    subprocess.run([sheaf, "init", copy], check=True, capture_output=True)
    subprocess.run([sheaf, "index"], check=True, capture_output=True, cwd=copy)
    names = titles(copy)
    rng = random.Random(1)

    server = Server([sheaf, "lsp", "--vault", copy])
    server.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + copy, "capabilities": {}})
    server.notify("initialized", {})
    uri = "file://" + copy + "/Bench.md"
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": "[["}})
    version = 1
    server.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}})  # warm

    asked, keystroke = [], []
    for _ in range(args.samples):
        query = rng.choice(names)[: rng.randint(1, 8)]
        version += 1
        start = time.perf_counter()
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                  "contentChanges": [{"text": "[[" + query}]})
        sent = time.perf_counter()
        reply = server.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                           "position": {"line": 0, "character": 2 + len(query.encode("utf-16-le")) // 2}})
        done = time.perf_counter()
        assert "result" in reply, reply
        asked.append(done - sent)
        keystroke.append(done - start)

    lines = []
    for i in range(2000):
        if i % 3 == 0:
            name = rng.choice(names)
            kind = rng.random()
            link = f"[[{name}#Overview]]" if kind < 0.2 else f"[[{name} missing]]" if kind < 0.3 else f"[[{name}]]"
            lines.append(f"Line {i} of the long note, with a link {link} and some words after it.")
        else:
            lines.append(f"Line {i} of the long note: words, words, more words to read and to scan through.")
    text = "\n".join(lines) + "\n"
    long_uri = "file://" + copy + "/Long.md"
    version = 1
    server.notify("textDocument/didOpen", {"textDocument": {"uri": long_uri, "languageId": "markdown", "version": version, "text": text}})
    first = server.wait_for("textDocument/publishDiagnostics", lambda p: p["uri"] == long_uri)
    found = len(first["params"]["diagnostics"])
    diagnostics = []
    for _ in range(args.samples):
        version += 1
        text += "x"
        start = time.perf_counter()
        server.notify("textDocument/didChange", {"textDocument": {"uri": long_uri, "version": version}, "contentChanges": [{"text": text}]})
        server.wait_for("textDocument/publishDiagnostics", lambda p, v=version: p["uri"] == long_uri and p.get("version") == v)
        diagnostics.append(time.perf_counter() - start)

    ticks = os.sysconf("SC_CLK_TCK")
    def cpu():
        with open(f"/proc/{server.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks
    before = cpu()
    time.sleep(10)
    idle = (cpu() - before) / 10 * 100

    server.request("shutdown", None)
    server.notify("exit", None)
    server.process.wait(timeout=10)

    print(f"| `sheaf lsp`, {len(names)} notes, {args.samples} samples each | p50 | p95 | max |")
    print("|---|---|---|---|")
    print("| completion after `[[QUERY` (request to reply) | %.1f ms | %.1f ms | %.1f ms |" % percentiles(asked))
    print("| a keystroke: didChange + completion | %.1f ms | %.1f ms | %.1f ms |" % percentiles(keystroke))
    print(f"| diagnostics of a 2,000-line note ({found} found), didChange to publish | %.1f ms | %.1f ms | %.1f ms |" % percentiles(diagnostics))
    print(f"| idle server CPU over 10 s | {idle:.1f} % | | |")


if __name__ == "__main__":
    sys.exit(main())
