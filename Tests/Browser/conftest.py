# A served copy of samples/ with a folder of hostile notes and a canary, and a headless Chromium
# (Debian's, through chromium-driver) that opened the URL `sheaf serve` printed.
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = pathlib.Path(os.environ.get("SHEAF_TEST_OUTPUT", ROOT / ".build" / "test-output")) / "browser"

# Each of these, if it ran, would set the canary: the page's title or window.__pwned.
CANARY = "document.title='PWNED';window.__pwned=1"
HOSTILE = {
    "script.md": f"<script>{CANARY}</script>\n\ntext <script>{CANARY}</script>\n",
    "handlers.md": f'<img src=x onerror="{CANARY}">\n\n<div onmouseover="{CANARY}">hover</div>\n\n<details open ontoggle="{CANARY}">x</details>\n',
    "links.md": f"[one](javascript:{CANARY}) <javascript:{CANARY}> [[javascript:{CANARY}]] [[Ideas|<img src=x onerror={CANARY}>]]\n",
    "svg.md": f'<svg onload="{CANARY}"><script>{CANARY}</script></svg>\n\n![[evil.svg]]\n',
    "css.md": "<style>body{background:url(https://evil.example/x.png)}</style>\n\n<p style=\"display:none\">hidden</p>\n\n![t](https://evil.example/track.png)\n",
    "broken.md": f"<img src=x onerror={CANARY}//\n\n<scr<script>ipt>{CANARY}</script>\n\n</textarea><script>{CANARY}</script>\n",
    f"<img src=x onerror={CANARY.replace('/', '')}>.md": "a hostile name\n",
    # A quote with a combining mark after it: one Character, which Character-wise escaping
    # (swift-mustache's own) left as it was, ending the attribute the name stood in.
    f'x"\u0301 tabindex=0 autofocus onfocus={CANARY} x=".md': "a name with a combining quote\n",
    "hub.md": f'[<button id=HH onclick="{CANARY}">Open in Obsidian</button>](obsidian://show-plugin?id=x) [x<img src=x onerror="{CANARY}">](https://example.org)\n\n'
              f'![Screenshot|400](https://evil.example/x.png)\n\n<iframe src="https://evil.example/embed/x" allowfullscreen></iframe>\n\n'
              f'<span style="background:url(https://evil.example/x.png)">styled</span> <span class="git-footer">[Copy](javascript:{CANARY} "x")</span>\n',
    "properties.md": f'---\ntitle: "<script>{CANARY}</script>"\ntags: ["<b onmouseover={CANARY}>x</b>"]\nnote: "<img src=x onerror={CANARY}>"\n---\nbody\n',
    # cmark-gfm 0.29 is quadratic on `![[]()` repeated: the page shows the note as escaped text.
    "costly.md": f"<script>{CANARY}</script> [[Ideas]]\n\n" + "![[]()" * 20_000 + "\n",
}


def start(sheaf, vault, env, extra=()):
    """`sheaf serve` on any free port in `vault`: the process and the URL it printed."""
    server = subprocess.Popen([sheaf, "serve", "--port", "0", "--no-sync", *extra], cwd=vault, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = None
    timer = threading.Timer(60, server.kill)
    timer.start()
    for line in server.stdout:
        if line.startswith("Open "):
            url = line.split()[1]
            break
    timer.cancel()
    assert url, "sheaf serve printed no URL: " + server.stderr.read()
    return server, url


def chromium(*flags):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900", *flags]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    return driver


@pytest.fixture(scope="session")
def served():
    sheaf = os.environ["SHEAF_BIN"]
    temp = tempfile.mkdtemp(prefix="sheaf-browser-")
    vault = pathlib.Path(temp) / "samples"
    shutil.copytree(ROOT / "samples", vault)
    for name, text in HOSTILE.items():
        (vault / "Hostile").mkdir(exist_ok=True)
        (vault / "Hostile" / name).write_text(text)
    (vault / "Hostile" / "evil.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" onload="{CANARY}"><script>{CANARY}</script></svg>')
    env = dict(os.environ, HOME=temp, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run([sheaf, "init"], cwd=vault, env=env, check=True, capture_output=True)
    server, url = start(sheaf, vault, env)
    yield {"url": url, "base": url.split("/?")[0], "vault": vault, "names": list(HOSTILE), "env": env}
    server.terminate()
    server.wait(timeout=30)
    shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="session")
def browser(served):
    driver = chromium()
    driver.get(served["url"])
    yield driver
    driver.quit()


def screenshot(driver, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))
