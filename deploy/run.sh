#!/usr/bin/env bash
# Run any textbook-chat command with the server's settings in ENV_FILE (its data folder, its
# database, its model): what serve.sh does for `serve`, for the commands an operator runs.
#
#   deploy/run.sh /etc/textbook-chat/env status
#   deploy/run.sh /etc/textbook-chat/env backup /var/backups/textbook-chat/2026-01-31
#
# As root, run it as the service's user (`runuser -u textbook-chat -- deploy/run.sh …`): the
# settings file is readable by that user only, and what the command writes must stay theirs.
set -euo pipefail
env_file="${1:?usage: run.sh ENV_FILE COMMAND [OPTIONS]}"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${TEXTBOOK_CHAT_BIN:-$here/../.venv/bin/textbook-chat}"
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
exec "$bin" "$@"
