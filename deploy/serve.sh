#!/usr/bin/env bash
# Start the chat server with the settings in ENV_FILE: what the systemd unit runs
# (textbook-chat.service), and what to run by hand or under another supervisor.
#
#   deploy/serve.sh /etc/textbook-chat/env [serve options, e.g. --port 8000 --workers 2]
#
# The process becomes `textbook-chat serve` (exec, through run.sh), so SIGTERM from the
# supervisor stops it as Ctrl-C does: its index replica is removed; a question cut off is marked
# interrupted at the next start.
set -euo pipefail
env_file="${1:?usage: serve.sh ENV_FILE [serve options]}"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$here/run.sh" "$env_file" serve "$@"
