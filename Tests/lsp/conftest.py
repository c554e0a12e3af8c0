# The end-to-end suite of `sheaf lsp`: pytest-lsp starts the real server (the `sheaf` that
# SHEAF_BIN names, else this checkout's debug build) and speaks the protocol to it as an editor
# does, on a copy of the samples vault made by `sheaf init`.
import atexit
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHEAF = os.environ.get("SHEAF_BIN") or str(ROOT / ".build" / "debug" / "sheaf")


def make_vault(name: str) -> pathlib.Path:
    """A copy of samples/ made a vault by `sheaf init` (its own git repository and index) and
    indexed by `sheaf index` (which makes the images' thumbnails)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix=f"sheaf-lsp-{name}-")) / "vault"
    shutil.copytree(ROOT / "samples", folder, symlinks=True)
    # Hostile notes: a title with an escape sequence, a bell and shell syntax; bytes that are not UTF-8.
    # A right-to-left override too: it would reorder the rest of a menu line (regression).
    (folder / "Inbox" / "Hostile.md").write_bytes("# Evil \x1b]2;pwned\x07 $(touch pwned) `id`\u202edm.txe\n\nbody\n".encode())
    (folder / "Inbox" / "Bad bytes.md").write_bytes(b"# Bad \xff\xfe bytes\n[[Nowhere]]\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    subprocess.run([SHEAF, "init", str(folder)], check=True, capture_output=True, env=env)
    subprocess.run([SHEAF, "index"], check=True, capture_output=True, env=env, cwd=folder)  # thumbnails too
    return folder


# One vault the read-only tests share, and one the tests that change files use.
VAULT = make_vault("read")
CHANGING = make_vault("changing")
# A vault that `sheaf watch` watches already: the server leaves the watching to it.
WATCHED = make_vault("watched")
WATCHER_LOG = WATCHED.parent / "watch.log"
with open(WATCHER_LOG, "w") as log:
    WATCHER = subprocess.Popen([SHEAF, "watch", "--no-sync", "--vault", str(WATCHED)], stdout=subprocess.DEVNULL, stderr=log)
atexit.register(lambda: (WATCHER.terminate(), WATCHER.wait()))
while "watching" not in WATCHER_LOG.read_text() and WATCHER.poll() is None:
    time.sleep(0.02)  # its first line says it watches


def uri(vault: pathlib.Path, path: str) -> str:
    return (vault / path).as_uri()


def server(vault: pathlib.Path) -> ClientServerConfig:
    return ClientServerConfig(server_command=[SHEAF, "lsp", "--vault", str(vault)])


async def start(client: LanguageClient, vault: pathlib.Path):
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=vault.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=vault.as_uri(), name="vault")]))


@pytest_lsp.fixture(config=server(VAULT))
async def client(lsp_client: LanguageClient):
    await start(lsp_client, VAULT)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=server(CHANGING))
async def changing(lsp_client: LanguageClient):
    await start(lsp_client, CHANGING)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=server(WATCHED))
async def watched(lsp_client: LanguageClient):
    await start(lsp_client, WATCHED)
    yield
    await lsp_client.shutdown_session()
