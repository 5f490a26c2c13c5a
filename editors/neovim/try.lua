-- Drives `syclify lsp` from a real Neovim (headless), as a user's editor
-- would: scripts/try-neovim runs it. Works with Neovim 0.7 (Debian 12's:
-- vim.lsp.start_client) and 0.8+ (vim.lsp.start). Prints what the editor
-- received and ends with `:cquit 1` at the first thing missing.
--
-- Environment: SYCLIFY_TRY_FILE (a CUDA file to open), SYCLIFY_BIN (the
-- syclify binary; default `syclify` on PATH).
local file = assert(os.getenv("SYCLIFY_TRY_FILE"), "SYCLIFY_TRY_FILE")
local bin = os.getenv("SYCLIFY_BIN") or "syclify"

local function say(s)
  io.stdout:write(s .. "\n")
end
local function fail(s)
  io.stderr:write("FAIL: " .. s .. "\n")
  vim.cmd("cquit 1")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local config = { name = "syclify", cmd = { bin, "lsp" }, root_dir = vim.fn.fnamemodify(file, ":p:h") }
local id
if vim.lsp.start then
  id = vim.lsp.start(config)
else
  id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, id)
end
if not id then
  fail("the client did not start")
end
say("neovim " .. tostring(vim.version().major) .. "." .. tostring(vim.version().minor) .. "." .. tostring(vim.version().patch))

-- diagnostics after the open
local function diagnostics()
  return vim.diagnostic.get(buf)
end
if not vim.wait(15000, function() return #diagnostics() > 0 end, 20) then
  fail("no diagnostics within 15 s of the open")
end
local first = diagnostics()
for _, d in ipairs(first) do
  say(string.format("diagnostic %d:%d [%s] %s", d.lnum + 1, d.col + 1, tostring(d.code), d.message))
end

-- hover on the first `cudaMalloc`
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local row, col
for i, l in ipairs(lines) do
  local c = l:find("cudaMalloc", 1, true)
  if c then
    row, col = i - 1, c
    break
  end
end
if not row then
  fail("the file has no cudaMalloc to hover")
end
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col } }
local hovers = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000) or {}
local hover
for _, r in pairs(hovers) do
  if r.result and r.result.contents then
    hover = r.result.contents.value or vim.inspect(r.result.contents)
  end
end
if not hover then
  fail("no hover on cudaMalloc")
end
local shown = {}
for l in hover:gmatch("[^\n]+") do
  if not l:match("^```") and #shown < 2 then
    table.insert(shown, l)
  end
end
say("hover: " .. table.concat(shown, " / "))

-- code actions over the whole file
local range = { start = { line = 0, character = 0 }, ["end"] = { line = #lines, character = 0 } }
local actions = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = range,
  context = { diagnostics = {} },
}, 10000) or {}
local titles = {}
for _, r in pairs(actions) do
  for _, a in ipairs(r.result or {}) do
    table.insert(titles, a.title)
  end
end
if #titles == 0 then
  fail("no code actions")
end
say("code actions: " .. table.concat(titles, " | "))

-- an edit: the lines with diagnostics removed, bottom up; the diagnostics
-- follow (none of those lines' codes is left)
local rows = {}
for _, d in ipairs(first) do
  rows[d.lnum] = true
end
local sorted = {}
for r in pairs(rows) do
  table.insert(sorted, r)
end
table.sort(sorted, function(a, b) return a > b end)
for _, r in ipairs(sorted) do
  vim.api.nvim_buf_set_lines(buf, r, r + 1, false, { "" })
end
local settled = vim.wait(15000, function() return #diagnostics() < #first end, 20)
if not settled then
  fail("the diagnostics did not follow the edit (still " .. #diagnostics() .. ")")
end
say(string.format("after the edit: %d diagnostics (were %d)", #diagnostics(), #first))

vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
say("OK")
vim.cmd("qall!")
