#!/usr/bin/env bash
# Bring the index up to date with a freshly built site, then check that every indexed page and
# anchor of this site's book is in the build that will be deployed. Exit status: 0 when both
# hold, non-zero otherwise (the CI job fails). A running `serve` answers from the new index
# without a restart.
#
#   deploy/update-index.sh ENV_FILE SITE_DIR [DEPLOYED_BUILD]
#
# ENV_FILE holds the server's settings (the data folder; as for serve.sh). SITE_DIR is the
# Docusaurus site, already built into SITE_DIR/build (npm ci && npm run build); DEPLOYED_BUILD
# is the folder that is published (default: SITE_DIR/build). BOOK_ID names the book; by default
# the site's projectName, as `ingest` and the widget's plugin take it. Only that book is indexed
# and checked: other books in the same index (other sites) are left alone.
set -euo pipefail
env_file="${1:?usage: update-index.sh ENV_FILE SITE_DIR [DEPLOYED_BUILD]}"
site="${2:?usage: update-index.sh ENV_FILE SITE_DIR [DEPLOYED_BUILD]}"
deployed="${3:-$site/build}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${TEXTBOOK_CHAT_BIN:-$here/../.venv/bin/textbook-chat}"
if [ -z "${BOOK_ID:-}" ]; then  # the id `ingest` gives the book: the site's projectName, else its folder's name
    BOOK_ID="$("$(dirname "$bin")/python" -c '
import sys
from server.ingest.site import BookError, detect_site
try:
    site = detect_site(sys.argv[1], build_dir=sys.argv[2])
except BookError as exc:
    sys.exit(f"update-index.sh: {exc}")
if site.project_name:  # what default_book_id returns first, without importing the indexer (quicker)
    print(site.project_name)
else:
    from server.ingest.indexer import default_book_id
    print(default_book_id(site))' "$site" "$site/build")"
fi
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
"$bin" ingest "$site" --build-dir "$site/build" --book-id "$BOOK_ID"
"$bin" pages --check-build "$deployed" --book-id "$BOOK_ID"
