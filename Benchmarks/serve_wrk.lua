-- wrk script for `sheaf serve` (serve_load.py --wrk runs it): every request GETs a random URL of
-- a list, carrying the server's cookie, and `done` prints the latency percentiles the budgets
-- name (wrk's own --latency table has no p95).
-- Arguments (after `--`): a file of URL paths, one a line; the Cookie header's value ("" for none).

local paths = {}
local cookie = ""

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then paths[#paths + 1] = line end
  end
  cookie = args[2] or ""
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

function request()
  local headers = {}
  if cookie ~= "" then headers["Cookie"] = cookie end
  return wrk.format("GET", paths[math.random(#paths)], headers)
end

function done(summary, latency, requests)
  local errors = summary.errors.status + summary.errors.connect + summary.errors.read
                 + summary.errors.write + summary.errors.timeout
  io.write(string.format("wrk: %d requests in %.1f s, %.0f/s, errors %d; latency p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6), errors,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
