#!/bin/sh
# The image's entrypoint (Dockerfile): one image, several roles. Runs as PID 1's child under tini,
# so signals reach the role's process directly (exec) and it drains on SIGTERM.
#   web        the web server (scripts/web-server.mjs: Next.js) on $PORT (default 3000), all interfaces
#   workers    the BullMQ worker host (workers/index.ts, compiled into dist/server by the build)
#   migrate    apply prisma/migrations to DATABASE_URL
#   backup     npm run backup (add --out FILE)      restore ARCHIVE    npm run restore
#   anything else is run as a command (e.g. `sh`)
set -e
role="${1:-web}"
[ "$#" -gt 0 ] && shift
case "$role" in
  web) exec node scripts/web-server.mjs --hostname 0.0.0.0 --port "${PORT:-3000}" ;;
  workers) exec node --conditions=react-server dist/server/workers.mjs "$@" ;;
  migrate) exec node dist/server/db.mjs migrate "$@" ;;
  backup) exec node --conditions=react-server dist/server/backup.mjs backup "$@" ;;
  restore) exec node --conditions=react-server dist/server/backup.mjs restore "$@" ;;
  *) exec "$role" "$@" ;;
esac
