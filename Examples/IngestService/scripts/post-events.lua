-- wrk script: every request POSTs the same JSON Lines body to /events.
--   BODY=/tmp/ingest-10mb.jsonl wrk -t2 -c2 -d30s -s scripts/post-events.lua http://127.0.0.1:8080/events
-- The body is read once into memory (make it with scripts/gen-jsonl at the repository root).
local path = os.getenv("BODY") or "/tmp/ingest-10mb.jsonl"
local file = assert(io.open(path, "rb"))
wrk.method = "POST"
wrk.body = file:read("*all")
wrk.headers["Content-Type"] = "application/x-ndjson"
file:close()

done = function(summary, latency, requests)
  local mb = #wrk.body * summary.requests / 1e6
  io.write(string.format("%d requests of %d bytes: %.1f MB in %.2f s = %.1f MB/s\n",
    summary.requests, #wrk.body, mb, summary.duration / 1e6, mb / (summary.duration / 1e6)))
end
