-- Neovim's init for scripts/screenshots.sh: the setup of docs/editors.md (vim.lsp.start_client on
-- config.pbtxt and configs/*.pbtxt), starting the tritonc this checkout built ($TRITONC_BIN), plus
-- the few display settings that make a terminal picture readable. Nothing here answers for the server:
-- the diagnostics, hover and code actions in the pictures are what `tritonc lsp --stdio` sent.
local bin, root = os.getenv('TRITONC_BIN'), os.getenv('REPO')

vim.o.termguicolors = true
vim.o.background = 'dark'
vim.cmd('colorscheme desert')
-- desert draws floats in Pmenu's magenta; a dark grey reads better in a picture.
vim.api.nvim_set_hl(0, 'NormalFloat', { fg = '#ffffff', bg = '#1c1c1c' })
vim.api.nvim_set_hl(0, 'FloatBorder', { fg = '#87afff', bg = '#1c1c1c' })
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.showmode = false
vim.o.ruler = false
vim.o.swapfile = false
vim.o.shortmess = vim.o.shortmess .. 'I'
vim.diagnostic.config({ virtual_text = { spacing = 2 }, signs = true, underline = true, severity_sort = true })
vim.lsp.handlers['textDocument/hover'] = vim.lsp.with(vim.lsp.handlers.hover, { border = 'rounded', max_width = 90 })

vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { 'config.pbtxt', '*/configs/*.pbtxt' },
  callback = function(args)
    -- Neovim has no pbtxt syntax; `conf` colours the comments and strings (the extension's grammar
    -- does this in VS Code).
    vim.bo[args.buf].syntax = 'conf'
    local id = vim.lsp.start_client({ name = 'tritonc', cmd = { 'node', bin, 'lsp', '--stdio' }, root_dir = root })
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
