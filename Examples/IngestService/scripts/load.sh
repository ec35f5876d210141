#!/usr/bin/env bash
# The README's load figures: one run, release build, the same bodies into the discarding store, SQLite and
# PostgreSQL, with 1 and with 4 uploads at once (curl, each body streamed from a file), fresh ids per
# upload (so every record is really inserted), each row with the CPU time per 1,000 records of the service
# and of PostgreSQL's processes (from /proc), then the server's peak RSS for one large upload into SQLite.
# Keys on: each run adds a key (IngestService keys add) and every upload sends it.
#
#   Examples/IngestService/scripts/load.sh [MB per upload, default 200] [MB of the large upload, default 1000]
#
# Needs a release build (swift build -c release --product IngestService; INGEST_LOAD_BIN=PATH for another
# binary) and, for PostgreSQL, INGEST_LOAD_DATABASE_URL (an empty database: its tables are dropped first).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
mb=${1:-200}
large_mb=${2:-1000}
work=${INGEST_LOAD_DIR:-/tmp/ingest-load}
bin=${INGEST_LOAD_BIN:-"$here/.build/release/IngestService"}
port=18080
mkdir -p "$work"

# Bodies: one generated file, and variants with every status id moved by k * 10^9.
if [[ ! -f "$work/body-0.jsonl" ]]; then
  "$root/scripts/gen-jsonl" "$mb" -o "$work/body-0.jsonl" --corrupt 0.001 2>/dev/null
  for k in 1 2 3 4 5 6 7 8; do
    python3 - "$work/body-0.jsonl" "$work/body-$k.jsonl" "$k" <<'PY'
import re, sys
src, dst, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
pattern = re.compile(rb'"id":(\d+),"id_str":"\d+"')
def move(m):
    new = int(m.group(1)) + k * 10**9
    return b'"id":%d,"id_str":"%d"' % (new, new)
with open(src, 'rb') as f, open(dst, 'wb') as out:
    for line in f:
        out.write(pattern.sub(move, line, count=1))
PY
  done
fi
records=$(grep -c . "$work/body-0.jsonl")
bytes=$(stat -c %s "$work/body-0.jsonl")

start_server() {
  # Its standard error (a JSON line per upload, whatever --log-level says) goes to server.log.
  "$bin" --port $port --log-level error "$@" 2>>"$work/server.log" &
  server=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/metrics" && return 0; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}
stop_server() { kill -TERM "$server"; wait "$server" || true; }
# A new API key in the store the server will use (keys on, as in production): the last line of `keys add`.
new_key() {
  local store=()
  for a in "$@"; do [[ $a != --discard ]] && store+=("$a"); done
  "$bin" keys add load "${store[@]}" | tail -1
}

# POSTs body-FIRST … body-(FIRST+N-1) at once; prints wall seconds.
upload() {
  local first=$1 n=$2 t0 t1
  t0=$(date +%s.%N)
  for ((i = first; i < first + n; i++)); do
    curl -sS -X POST -T "$work/body-$i.jsonl" -H 'Content-Type: application/x-ndjson' -H "Authorization: Bearer $key" \
      -o "$work/answer-$i.json" "http://127.0.0.1:$port/events" &
  done
  wait
  t1=$(date +%s.%N)
  for ((i = first; i < first + n; i++)); do grep -q '"accepted"' "$work/answer-$i.json" || { cat "$work/answer-$i.json"; exit 1; }; done
  echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

# CPU time (user + system, clock ticks) of the processes given, from /proc/PID/stat.
ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() {
  local total=0 pid t
  for pid in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) || t=0
    total=$((total + ${t:-0}))
  done
  echo "$total"
}
# The database's processes: every `postgres` process on the machine for the PostgreSQL store (run no other
# cluster meanwhile); none for SQLite (in the service's process) and the discarding store.
database_pids() { [[ $store == postgres ]] && pgrep -x postgres || true; }

row() { # store, uploads, seconds, service ticks, database ticks
  awk -v s="$1" -v n="$2" -v t="$3" -v r="$records" -v b="$bytes" -v st="$4" -v dt="$5" -v hz="$ticks_per_second" \
    'BEGIN { k = n * r / 1000; printf "| %s | %d | %.2f s | %.0f | %.1f | %.0f | %.0f |\n",
             s, n, t, n * r / t, n * b / 1e6 / t, st * 1000 / hz / k, dt * 1000 / hz / k }'
}

# One row: N uploads at once from body FIRST on, with the CPU the service and the database spent meanwhile.
measure() { # store, uploads, first body
  local service0 database0 seconds
  service0=$(cpu_ticks "$server")
  database0=$(cpu_ticks $(database_pids))
  seconds=$(upload "$3" "$2")
  row "$1" "$2" "$seconds" $(($(cpu_ticks "$server") - service0)) $(($(cpu_ticks $(database_pids)) - database0))
}

echo "bodies: $records records, $bytes bytes each"
echo "| store | uploads at once | wall | records/s | MB/s | CPU ms per 1,000 records: service | database |"
echo "|:--|--:|--:|--:|--:|--:|--:|"
stores=(discard sqlite)
[[ -n "${INGEST_LOAD_DATABASE_URL:-}" ]] && stores+=(postgres)
for store in "${stores[@]}"; do
  case $store in
    discard) rm -f "$work/keys.sqlite"*; args=(--discard --sqlite-path "$work/keys.sqlite") ;;  # keys from SQLite
    sqlite) rm -f "$work/load.sqlite"*; args=(--sqlite-path "$work/load.sqlite") ;;
    postgres)
      psql "$INGEST_LOAD_DATABASE_URL" -q -c 'DROP TABLE IF EXISTS events, rejected_records, api_keys, schema_version' 2>/dev/null
      args=(--database-url "$INGEST_LOAD_DATABASE_URL") ;;
  esac
  key=$(new_key "${args[@]}")
  start_server "${args[@]}"
  measure "$store" 1 0
  measure "$store" 4 1
  stop_server
done

# The large upload: the server's peak RSS (VmHWM) into SQLite. The body is made while it is sent
# (gen-jsonl to stdout, curl -T - sends it chunked), so no file of that size is written.
rm -f "$work/large.sqlite"*
key=$(new_key --sqlite-path "$work/large.sqlite")
start_server --sqlite-path "$work/large.sqlite"
t0=$(date +%s.%N)
"$root/scripts/gen-jsonl" "$large_mb" --corrupt 0.001 2>/dev/null |
  curl -sS -X POST -T - -H 'Content-Type: application/x-ndjson' -H "Authorization: Bearer $key" \
    -o "$work/answer-large.json" "http://127.0.0.1:$port/events"
t1=$(date +%s.%N)
hwm=$(awk '/VmHWM/ {print $2}' /proc/$server/status)
stop_server
echo "large upload into SQLite: $(grep -o '"bytes":[0-9]*' "$work/answer-large.json") in $(echo "$t0 $t1" | awk '{printf "%.1f", $2-$1}') s, server peak RSS $((hwm / 1024)) MiB"
head -c 200 "$work/answer-large.json"; echo
rm -f "$work/large.sqlite"*
