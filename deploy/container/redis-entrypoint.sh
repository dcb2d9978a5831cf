#!/bin/sh
# Entry point of the test's Redis stand-in (test-services.sh): like the official image, a
# redis-server started without a config file accepts other containers (protected mode off; a later
# --protected-mode in the command wins) and keeps its data in the working directory /data.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
