-- Neovim 0.7's own LSP client against `sheaf lsp`, headless: the configuration README.md gives,
-- then open a note, complete a link, rename the note it links to. Run by test_neovim.py as
-- `nvim --headless --clean -c 'luafile test.lua'` with SHEAF_BIN and SHEAF_NVIM_VAULT set;
-- exits 0 when every step did what an editor's user would see, else prints why and exits 1.
local sheaf = os.getenv("SHEAF_BIN")
local vault = os.getenv("SHEAF_NVIM_VAULT")

local function fail(why)
  io.stdout:write("FAIL: " .. why .. "\n")
  vim.cmd("cquit 1")
end

local function check(ok, why)
  if not ok then fail(why) end
end

-- README.md, "In your editor" (with this build's sheaf).
local sheaf_clients = {}
vim.api.nvim_create_autocmd("FileType", {
  pattern = "markdown",
  callback = function(args)
    local dot = vim.fn.finddir(".sheaf", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h") .. ";")
    if dot == "" then return end
    local root = vim.fn.fnamemodify(dot, ":p:h:h")
    sheaf_clients[root] = sheaf_clients[root]
      or vim.lsp.start_client({ name = "sheaf", cmd = { sheaf, "lsp", "--vault", root }, root_dir = root })
    vim.lsp.buf_attach_client(args.buf, sheaf_clients[root])
  end,
})

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(vault .. "/Draft.md"))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == "markdown", "the note is not markdown")
  local client
  check(vim.wait(20000, function()
    client = vim.lsp.get_client_by_id(sheaf_clients[vault] or -1)
    return client ~= nil and client.initialized
  end, 20), "the server did not start")

  -- Type a link and ask for completion, as <C-x><C-o> does.
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "See [[backup str" })
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 0, character = 16 } }
  local reply = client.request_sync("textDocument/completion", params, 20000, buf)
  check(reply and reply.result, "no completion: " .. vim.inspect(reply))
  local items = reply.result.items or reply.result
  check(items[1] and items[1].label == "Backup strategy", "first completion: " .. vim.inspect(items[1]))
  vim.lsp.util.apply_text_edits({ items[1].textEdit }, buf, "utf-16")
  local line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  check(line == "See [[Backup strategy]]", "after completion: " .. line)

  -- Rename the note the link reaches, from the link.
  reply = client.request_sync("textDocument/rename", {
    textDocument = params.textDocument, position = { line = 0, character = 8 }, newName = "Backup plan",
  }, 20000, buf)
  check(reply and reply.result, "no rename: " .. vim.inspect(reply))
  vim.lsp.util.apply_workspace_edit(reply.result, "utf-16")
  line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  check(line == "See [[Backup plan|Backup strategy]]", "the draft after the rename: " .. line)
  vim.cmd("silent wall")
  check(vim.fn.filereadable(vault .. "/Projects/Home server/Backup plan.md") == 1, "the note was not renamed")
  check(vim.fn.filereadable(vault .. "/Projects/Home server/Backup strategy.md") == 0, "the old name is still there")
  local setup = table.concat(vim.fn.readfile(vault .. "/Projects/Home server/Setup log.md"), "\n")
  check(setup:find("[[Backup plan|Backup strategy]]", 1, true) ~= nil, "Setup log's link was not rewritten:\n" .. setup)
end)
if not ok then fail(tostring(err)) end
io.stdout:write("ok: completed a link and renamed a note in Neovim " .. tostring(vim.version().minor) .. "\n")
vim.cmd("qall!")
