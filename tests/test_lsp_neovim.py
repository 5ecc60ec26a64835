"""A real editor: headless Neovim, configured with the snippet of
docs/lsp.md, opens a damaged record with ``mancala lsp`` as its language
server and shows the problems ``mancala validate`` prints, at the same
places, and besides them the server's hints where a move number is missing
(Debian: ``apt-get install neovim``; skipped without it). The other
editors' snippets of the page are checked for what they say."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DAMAGED = ROOT / "examples" / "broken" / "damaged-records.pmn"
NVIM = shutil.which("nvim") or ("/usr/bin/nvim" if os.path.exists("/usr/bin/nvim") else None)


PAGE = ROOT / "docs" / "lsp.md"


def snippet(heading, language):
    """The first ``language`` block of docs/lsp.md after ``heading``."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(rf"{re.escape(heading)}.*?^```{language}\n(.*?)^```$", text, re.S | re.M)
    assert found, (heading, language)
    return found.group(1)


#: Before the snippet for Neovim 0.8 and newer, where Neovim is older:
#: vim.lsp.start as 0.8 defines it for one buffer (a stand-in for the
#: function the snippet calls, not the snippet: that is the page's own).
BEFORE = r"""
if not vim.lsp.start then
  vim.lsp.start = function(config)
    local id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(0, id)
    return id
  end
end
"""

#: After it: the diagnostics awaited, then written as JSON, and quit.
AFTER = r"""
local out = vim.env.MANCALA_NVIM_OUT
vim.api.nvim_create_autocmd("VimEnter", {callback = function()
  local arrived = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, {lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                         severity = d.severity, code = d.code, message = d.message, source = d.source})
  end
  local file = io.open(out, "w")
  file:write(vim.fn.json_encode({arrived = arrived, diagnostics = found}))
  file:close()
  vim.cmd("qall!")
end})
"""

#: A game without move numbers, after the damaged ones: no problem, two hints.
UNNUMBERED = '[Game "kingulu"]\n\nc1x6 d2 e1^ *\n'
#: Neovim's severities (vim.diagnostic.severity): ERROR 1, WARN 2, INFO 3, HINT 4.
HINT = 4

#: ``FILE:LINE:COL: SEVERITY: [MOVE: ]CODE: MESSAGE`` of ``mancala validate``.
LINE = re.compile(r"(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning): "
                  r"(?:(?P<move>\d+\.(?:\.\.)? \S+): )?(?P<code>[A-Za-z0-9-]+): (?P<message>.*)")


@pytest.mark.skipif(NVIM is None, reason="no Neovim found: install the Debian package 'neovim' to run the editor test")
@pytest.mark.parametrize("heading", ["### Neovim 0.8 or newer", "### Neovim 0.7"])
def test_neovim_shows_the_problems_validate_prints(tmp_path, heading):
    pytest.importorskip("pygls", reason="the language server needs pygls: pip install 'mancala[lsp]' "
                                        "(the test extra has it)")
    init = tmp_path / "init.lua"
    init.write_text((BEFORE if "0.8" in heading else "") + snippet(heading, "lua") + AFTER, encoding="utf-8")
    out = tmp_path / "diagnostics.json"
    record = tmp_path / "records.pmn"
    record.write_text(DAMAGED.read_text(encoding="utf-8") + "\n" + UNNUMBERED, encoding="utf-8")
    damaged_lines = len(DAMAGED.read_text(encoding="utf-8").splitlines())
    # (the snippet starts `mancala lsp`: this Python's mancala first on the PATH)
    env = {**os.environ, "MANCALA_NVIM_OUT": str(out),
           "PATH": f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    done = subprocess.run([NVIM, "--headless", "-n", "-i", "NONE", "-u", str(init), str(record)], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    shown = json.loads(out.read_text(encoding="utf-8"))
    assert shown["arrived"], "no diagnostics came from the server"
    validate = subprocess.run([sys.executable, "-m", "mancala_cli", "validate", "--quiet", str(record)],
                              capture_output=True, text=True, timeout=60)
    expected = []
    for line in validate.stdout.splitlines():
        found = LINE.fullmatch(line)
        assert found, line
        message = f"{found['move']}: {found['message']}" if found["move"] else found["message"]
        expected.append((int(found["line"]), int(found["col"]), 1 if found["severity"] == "error" else 2,
                         found["code"], message))
    assert len(expected) == 5
    # validate's problems are the errors and warnings; the hints are the server's own.
    got = sorted((d["lnum"] + 1, d["col"] + 1, d["severity"], d["code"], d["message"]) for d in shown["diagnostics"]
                 if d["severity"] != HINT)
    assert got == sorted(expected)
    hints = sorted((d["lnum"] + 1, d["col"] + 1, d["end_col"] + 1, d["code"], d["message"])
                   for d in shown["diagnostics"] if d["severity"] == HINT)
    line = damaged_lines + 4  # (after the blank line, the tag line and the blank line)
    assert hints == [(line, 1, 5, "no-move-number", "no move number before 1. c1x6 (canonical PMN writes it)"),
                     (line, 9, 12, "no-move-number", "no move number before 2. e1^ (canonical PMN writes it)")]
    assert {d["source"] for d in shown["diagnostics"]} == {"mancala"}


def test_the_other_editors_snippets_start_mancala_lsp():
    import tomllib

    helix = tomllib.loads(snippet("## Helix", "toml"))
    assert helix["language-server"]["mancala"] == {"command": "mancala", "args": ["lsp"]}
    assert helix["language"][0]["file-types"] == ["pmn"] and helix["language"][0]["language-servers"] == ["mancala"]
    vscode = json.loads(snippet("## VS Code", "json"))
    assert (vscode["glspc.server.command"], vscode["glspc.server.commandArguments"]) == ("mancala", ["lsp"])
    assert vscode["files.associations"]["*.pmn"] in vscode["glspc.server.languageId"]
    assert '"mancala" "lsp"' in snippet("## Emacs (eglot)", "elisp")
    assert 'cmd = { "mancala", "lsp" }' in snippet("nvim-lspconfig", "lua")
