#!/usr/bin/env bash
# Runs sitebench on each application that setup.sh installed: the five crawlers, first contact
# (a new undust for every crawl), default options, 3000 fetches, concurrency 4. Prints the
# tables and writes each app's rows.json, distinct.svg, fetch logs and what undust learned under
# OUT/APP, and the grouping of plain colly's fetches of already-fetched pages under
# OUT/APP/dups-colly.txt.
#
#   run.sh [-o OUT] [-apps "wordpress fossil gitweb"] [-- more sitebench run flags]
#
# e.g. run.sh -o /tmp/faults -- -crawler colly,colly+undust -faults 0.05
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
STATE=${SITEBENCH_STATE:-/var/lib/sitebench}
out=${TMPDIR:-/tmp}/sitebench-realapps
apps="wordpress fossil gitweb"
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    -apps) apps=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: run.sh [-o OUT] [-apps LIST] [-- sitebench run flags]" >&2; exit 2 ;;
  esac
done
for app in $apps; do
  [ -s "$STATE/apps/$app/seed" ] || { echo "run.sh: $app is not set up: run setup.sh first" >&2; exit 1; }
done
bin=$(mktemp -d)/sitebench
trap 'rm -rf "$(dirname "$bin")"' EXIT
(cd "$here/.." && go build -o "$bin" .)
mkdir -p "$out"
for app in $apps; do
  d=$STATE/apps/$app
  ignore=()
  [ ! -s "$d/ignore" ] || ignore=(-ignore "$(cat "$d/ignore")")
  echo "== $app"
  mkdir -p "$out/$app"
  nice "$bin" run -seed "$(cat "$d/seed")" -truth "$(cat "$d/truth")" "${ignore[@]}" \
    -articles "$d/articles" -out "$out/$app" "$@" | tee "$out/$app/table.txt"
  if [ -s "$out/$app/fetches-colly.tsv" ]; then
    "$bin" dups -log "$out/$app/fetches-colly.tsv" > "$out/$app/dups-colly.txt"
  fi
done
echo "run.sh: tables, plots, JSON and fetch logs in $out"
