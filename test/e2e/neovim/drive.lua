-- Driven by test/e2e/neovim.test.ts: Neovim (headless) opens a config, starts `tritonc lsp --stdio`
-- with vim.lsp.start_client, waits for the diagnostics, applies the first quick fix, formats, writes
-- the file, and records what it saw in $OUT as JSON.
local repo, bin, out = os.getenv('REPO'), os.getenv('TRITONC_BIN'), os.getenv('OUT')
local result = { diagnostics = {}, actions = 0 }
local function finish()
  local f = io.open(out, 'w')
  f:write(vim.json.encode(result))
  f:close()
  vim.cmd('qa!')
end

vim.cmd('edit ' .. repo .. '/classifier/config.pbtxt')
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = 'tritonc', cmd = { 'node', bin, 'lsp', '--stdio' }, root_dir = repo })
vim.lsp.buf_attach_client(buf, id)
vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local lsp = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local raw = d.user_data and d.user_data.lsp or {}
  table.insert(result.diagnostics, { code = raw.code, message = d.message, line = d.lnum })
  if raw.data then table.insert(lsp, raw) end
end
if #lsp == 0 then return finish() end

local client = vim.lsp.get_client_by_id(id)
local uri = vim.uri_from_bufnr(buf)
local encoding = client.offset_encoding or 'utf-16'
local actions = client.request_sync('textDocument/codeAction', { textDocument = { uri = uri }, range = lsp[1].range, context = { diagnostics = { lsp[1] } } }, 10000, buf)
local list = (actions and actions.result) or {}
result.actions = #list
if list[1] and list[1].edit then
  result.applied = list[1].title
  vim.lsp.util.apply_workspace_edit(list[1].edit, encoding)
end
local edits = client.request_sync('textDocument/formatting', { textDocument = { uri = uri }, options = { tabSize = 2, insertSpaces = true } }, 10000, buf)
if edits and edits.result then vim.lsp.util.apply_text_edits(edits.result, buf, encoding) end
vim.cmd('write')
finish()
