#!/usr/bin/env bash
# Keeps a Vetrina catalog in sync with a source of truth (docs/admin.md):
#   sync-catalog.sh full   FILE   nightly: import a whole catalog file, unpublishing what it lacks
#   sync-catalog.sh stock  CSV    delta: "sku,quantity" lines  -> POST /admin/v1/inventory
#   sync-catalog.sh prices CSV    delta: "sku,currency,amount[,region]" lines (amount in
#                                 minor units, or "null" to remove) -> POST /admin/v1/prices
# Needs curl and jq. VETRINA_URL (default http://127.0.0.1:3000) and VETRINA_ADMIN_TOKEN.
# Deltas go in requests of 1,000 rows (the API's limit); each request is all or nothing.
set -euo pipefail

BASE=${VETRINA_URL:-http://127.0.0.1:3000}
TOKEN=${VETRINA_ADMIN_TOKEN:?set VETRINA_ADMIN_TOKEN to a token of the server\'s ADMIN_TOKENS}
BATCH=1000

# POSTs stdin to $1; prints the answer; fails (listing the refused rows) unless its status
# is $2 (default 200).
post() {
  local answer status
  answer=$(curl -sS -w '\n%{http_code}' -X POST "$BASE$1" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @-)
  status=${answer##*$'\n'}
  answer=${answer%$'\n'*}
  if [ "$status" != "${2:-200}" ]; then
    echo "$1 answered $status:" >&2
    echo "$answer" | jq -r '.error.message, (.error.details.rows // .error.details.problems // [] | .[] | "  \(.)")' >&2
    return 1
  fi
  echo "$answer"
}

# Sends the lines of CSV file $2 to route $1, $BATCH rows per request, each line turned
# into a row by the jq expression $3 (which sees the line's fields as $f).
send_rows() {
  local route=$1 file=$2 row=$3 dir batch n=0
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' RETURN
  grep -v '^[[:space:]]*$' "$file" | split -l "$BATCH" - "$dir/batch-"
  for batch in "$dir"/batch-*; do
    jq -R -s -c "{rows: [split(\"\\n\")[] | select(length > 0) | split(\",\") as \$f | $row]}" "$batch" | post "$route" > /dev/null
    n=$((n + 1))
    echo "$route: batch $n written ($(wc -l < "$batch") rows)"
  done
}

case ${1:-} in
  full)
    # The import runs as a job: started (202), then read until it has ended.
    job=$(post '/admin/v1/imports?unpublish_missing=true' 202 < "${2:?catalog file}" | jq -r .job.id)
    while :; do
      answer=$(curl -sS "$BASE/admin/v1/imports/$job" -H "Authorization: Bearer $TOKEN")
      [ "$(jq -r .job.finished_at <<< "$answer")" = null ] || break
      jq -r '.job | "import \(.id): \(.phase), \(.progress.written) of \(.progress.total_products // "?") products written"' <<< "$answer"
      sleep 2
    done
    jq -r '.job.report // empty | "imported: products \(.products.created) created, \(.products.updated) updated; unpublished \(.unpublished | length); region conflicts \(.regions.conflicts | length); catalog version \(.catalog_version)"' <<< "$answer"
    if [ "$(jq -r .job.status <<< "$answer")" != succeeded ]; then
      jq -r '.job | "import \(.id) \(.status): \(.error.message // "cancelled")", (.error.details.problems // [] | .[] | "  \(.)")' <<< "$answer" >&2
      exit 1
    fi
    ;;
  stock)
    send_rows /admin/v1/inventory "${2:?csv file}" '{sku: $f[0], inventory_quantity: ($f[1] | tonumber)}'
    ;;
  prices)
    send_rows /admin/v1/prices "${2:?csv file}" \
      '{sku: $f[0], currency: $f[1], amount: (if $f[2] == "null" then null else ($f[2] | tonumber) end)} + (if ($f[3] // "") != "" then {region: $f[3]} else {} end)'
    ;;
  *)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
