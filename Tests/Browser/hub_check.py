#!/usr/bin/env python3
"""Every note page of a real vault, served by `sheaf serve`, checked for anything that could run
or load from elsewhere; then a sample of them in headless Chromium.

Made for the obsidian-community/obsidian-hub vault (thousands of real notes, many with raw HTML),
which is not in this repository, so this is not part of CI (the hostile corpus is). Usage:

    Tests/Browser/hub_check.py --vault /tmp/hub [--sheaf .build/debug/sheaf] [--sample 300]

The vault is `sheaf init`ed in place if it is not a vault yet. Step one reads every note page with
the standard library's HTML parser: no <script> but the server's own, no on* attribute, no
javascript:/vbscript:/data: URL, no style element or attribute, no frame, object or embed, and no
src/href/srcset/poster/data/action to another origin. Step two (needs Selenium, as
Tests/Browser/run installs it: run this with .build/browser-venv/bin/python) opens a random
sample plus every note whose source holds raw HTML other than the hub's generated footer and
button (which nearly every note has, so the sample holds many of them) in Chromium and checks the console (no blocked
script, no uncaught error), the resources fetched (this origin only) and the scripts present.
Prints the counts; exits 1 when any page has a problem.
"""
import argparse
import functools
import html.parser
import http.cookiejar
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request

print = functools.partial(print, flush=True)  # (each count as soon as it is known, even into a file)

URL_ATTRIBUTES = {"src", "href", "srcset", "poster", "data", "action", "formaction", "xlink:href", "background", "cite", "longdesc", "ping"}
RESOURCE_TAGS = {"img", "iframe", "frame", "link", "style", "script", "source", "video", "audio", "embed", "object", "track", "image", "use", "input", "form"}
FORBIDDEN_TAGS = {"style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "svg", "math"}
RAW_HTML = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?/?>")
# The hub's generated fragments, in nearly every note: the footer's span and the plugin pages'
# "Open in Obsidian" button. A note whose raw HTML is more than these is opened in Chromium.
HUB_BOILERPLATE = re.compile(r'<span class="git-footer">.*?</span>|<button id=HH>Open in Obsidian</button>', re.S)


def bad_scheme(value):
    cleaned = re.sub(r"[\x00-\x20]", "", value).lower()
    return cleaned.startswith(("javascript:", "vbscript:", "data:text/html", "livescript:"))


def remote(value):
    v = value.strip().lower()
    return v.startswith("//") or re.match(r"^[a-z][a-z0-9+.-]*:", v) is not None


class PageCheck(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.in_head = True

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)

    def check(self, tag, attrs):
        if tag == "body":
            self.in_head = False
        values = dict(attrs)
        if tag == "script" and not (values.get("src") == "/assets/sheaf.js" and self.in_head):
            self.problems.append(f"<script {attrs}>")
        if tag in FORBIDDEN_TAGS and not (tag == "meta" and self.in_head):
            self.problems.append(f"<{tag}>")
        if tag == "link" and not (self.in_head and values.get("href") == "/assets/sheaf.css"):
            self.problems.append(f"<link {attrs}>")
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=>")
            if name == "style":
                self.problems.append(f"<{tag} style=>")
            if name in URL_ATTRIBUTES and bad_scheme(value):
                self.problems.append(f"<{tag} {name}={value[:60]!r}>")
            if name in URL_ATTRIBUTES and tag in RESOURCE_TAGS and tag not in ("form", "input") and remote(value):
                self.problems.append(f"remote <{tag} {name}={value[:60]!r}>")
            if name in ("srcset",) and any(remote(part.strip().split(" ")[0]) for part in value.split(",")):
                self.problems.append(f"remote <{tag} srcset>")


def serve(sheaf, vault):
    env = dict(os.environ, HOME=tempfile.mkdtemp(prefix="sheaf-hub-home-"), GIT_CONFIG_NOSYSTEM="1")
    if not (vault / ".sheaf").exists():
        subprocess.run([sheaf, "init"], cwd=vault, env=env, check=True, capture_output=True)
    server = subprocess.Popen([sheaf, "serve", "--port", "0", "--no-sync"], cwd=vault, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    timer = threading.Timer(600, server.kill)
    timer.start()
    url = None
    for line in server.stdout:
        if line.startswith("Open "):
            url = line.split()[1]
            break
    timer.cancel()
    if not url:
        sys.exit("sheaf serve printed no URL")
    return server, url


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vault", required=True, type=pathlib.Path)
    parser.add_argument("--sheaf", default=".build/debug/sheaf")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-pages", action="store_true", help="skip the HTML parser's pass")
    args = parser.parse_args()
    vault = args.vault.resolve()
    notes = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md")
                   if not any(part.startswith(".") for part in p.relative_to(vault).parts))
    raw_html, unusual_html = [], []
    for path in notes:
        source = (vault / path).read_text(errors="replace")
        if RAW_HTML.search(source):
            raw_html.append(path)
            if RAW_HTML.search(HUB_BOILERPLATE.sub("", source)):
                unusual_html.append(path)
    server, url = serve(os.path.abspath(args.sheaf), vault)
    base = url.split("/?")[0]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(url).read()
    counts = {"pages": 0, "clean": 0, "missing": 0, "other": 0, "with problems": 0}
    problems = {}
    try:
        for number, path in enumerate([] if args.no_pages else notes, 1):
            if number % 500 == 0:
                print(f"  {number} of {len(notes)} pages", file=sys.stderr, flush=True)
            page = base + "/n/" + "/".join(urllib.parse.quote(part, safe="") for part in path.split("/"))
            try:
                body = opener.open(page, timeout=60).read().decode("utf-8", "replace")
            except urllib.error.HTTPError as error:
                counts["missing" if error.code == 404 else "other"] += 1
                continue
            counts["pages"] += 1
            check = PageCheck()
            check.feed(body)
            if check.problems:
                counts["with problems"] += 1
                problems[path] = check.problems[:5]
            else:
                counts["clean"] += 1
        print(f"notes: {len(notes)}; pages read: {counts['pages']}, clean: {counts['clean']}, "
              f"with problems: {counts['with problems']}, not served (404): {counts['missing']}, other status: {counts['other']}; "
              f"notes holding raw HTML: {len(raw_html)}, more than the hub's footer and button: {len(unusual_html)}")
        for path, found in list(problems.items())[:20]:
            print(f"  {path}: {found}")
        browser_failures = 0 if args.no_browser else browse(base, url, notes, unusual_html, args)
    finally:
        server.terminate()
        server.wait(timeout=60)
    sys.exit(1 if problems or browser_failures else 0)


def browse(base, url, notes, unusual_html, args):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    import shutil
    sample = sorted(set(random.Random(args.seed).sample(notes, min(args.sample, len(notes)))) | set(unusual_html))
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    failures = {}
    try:
        driver.get(url)
        driver.get_log("browser")
        for path in sample:
            driver.get(base + "/n/" + "/".join(urllib.parse.quote(part, safe="") for part in path.split("/")))
            found = []
            if not driver.find_elements("css selector", "article.note .body"):
                found.append("not a note page: " + driver.title)
            if driver.execute_script("return window.__pwned !== undefined"):
                found.append("canary set")
            scripts = driver.execute_script("return Array.from(document.scripts).map(s => s.src)")
            if scripts != [base + "/assets/sheaf.js"]:
                found.append(f"scripts {scripts}")
            fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            found += [f"fetched {u}" for u in fetched if not u.startswith(base + "/")]
            found += [e["message"][:160] for e in driver.get_log("browser")
                      if "Content Security Policy" in e["message"] or "Uncaught" in e["message"]]
            if found:
                failures[path] = found[:5]
    finally:
        driver.quit()
    print(f"chromium: {len(sample)} pages opened (every one of the {len(unusual_html)} with raw HTML beyond the hub's "
          f"footer and button, and a random {args.sample}), with problems: {len(failures)}")
    for path, found in list(failures.items())[:20]:
        print(f"  {path}: {found}")
    return len(failures)


if __name__ == "__main__":
    main()
