# One run in Debian's Neovim (0.7, its built-in LSP client, headless): nvim/test.lua opens a note,
# completes a link and renames a note, with the configuration README.md gives.
import os
import pathlib
import subprocess

from conftest import SHEAF, make_vault


def test_neovim_completes_a_link_and_renames_a_note():
    vault = make_vault("nvim")
    script = pathlib.Path(__file__).parent / "nvim" / "test.lua"
    env = dict(os.environ, SHEAF_BIN=SHEAF, SHEAF_NVIM_VAULT=str(vault), HOME=str(vault.parent))
    run = subprocess.run(["nvim", "--headless", "--clean", "-c", f"luafile {script}"], env=env,
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok: completed a link and renamed a note" in run.stdout + run.stderr
