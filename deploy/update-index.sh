#!/usr/bin/env bash
# Bring the index up to date with a freshly built site, then check that every indexed page and
# anchor is in the build that will be deployed. Exit status: 0 when both hold, non-zero otherwise
# (the CI job fails). A running `serve` answers from the new index within a second: no restart.
#
#   deploy/update-index.sh ENV_FILE SITE_DIR [DEPLOYED_BUILD]
#
# ENV_FILE holds the server's settings (the data folder; as for serve.sh). SITE_DIR is the
# Docusaurus site, already built into SITE_DIR/build (npm ci && npm run build); DEPLOYED_BUILD
# is the folder that is published (default: SITE_DIR/build). BOOK_ID, when set, names the book
# (default: the site's projectName); only its pages are checked.
set -euo pipefail
env_file="${1:?usage: update-index.sh ENV_FILE SITE_DIR [DEPLOYED_BUILD]}"
site="${2:?usage: update-index.sh ENV_FILE SITE_DIR [DEPLOYED_BUILD]}"
deployed="${3:-$site/build}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${TEXTBOOK_CHAT_BIN:-$here/../.venv/bin/textbook-chat}"
book=(${BOOK_ID:+--book-id "$BOOK_ID"})
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
"$bin" ingest "$site" --build-dir "$site/build" "${book[@]}"
"$bin" pages --check-build "$deployed" "${book[@]}"
