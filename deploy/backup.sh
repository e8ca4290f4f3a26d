#!/usr/bin/env bash
# The backup service of docker-compose.yml (image mongo:7, which ships mongodump/mongorestore).
#   backup.sh loop            a dump now and every BACKUP_INTERVAL_HOURS hours (the service)
#   backup.sh once            one dump now (before an upgrade)
#   backup.sh restore FILE    replaces the database with the dump in FILE (API stopped first)
# Dumps are gzip archives of DB_NAME in /backups; those older than BACKUP_KEEP_DAYS days are
# deleted after each new one. The password goes through a config file, never the command line.
set -euo pipefail

db="${DB_NAME:-chaplaincy}"
config="$(mktemp)"
trap 'rm -f "$config"' EXIT
cat >"$config" <<CONFIG
uri: mongodb://${MONGO_ROOT_USER}@mongo:27017/?replicaSet=rs0&authSource=admin
password: ${MONGO_ROOT_PASSWORD}
CONFIG

dump() {
  local file
  file="/backups/${db}-$(date -u +%Y%m%dT%H%M%SZ).archive.gz"
  mongodump --config="$config" --db="$db" --gzip --archive="$file.partial"
  mv "$file.partial" "$file"
  find /backups -name "${db}-*.archive.gz" -mmin "+$((${BACKUP_KEEP_DAYS:-14} * 1440))" -delete
  echo "backup written: $file"
}

case "${1:-loop}" in
  once) dump ;;
  loop)
    while true; do
      dump || echo "backup failed; trying again at the next interval" >&2
      sleep "$((${BACKUP_INTERVAL_HOURS:-24} * 3600))"
    done
    ;;
  restore)
    archive="${2:?name the archive: backup.sh restore /backups/<file>.archive.gz}"
    mongorestore --config="$config" --nsInclude="${db}.*" --drop --gzip --archive="$archive"
    echo "restored $archive into $db"
    ;;
  *)
    echo "usage: backup.sh once | loop | restore FILE" >&2
    exit 2
    ;;
esac
