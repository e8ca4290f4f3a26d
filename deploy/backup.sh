#!/usr/bin/env bash
# The backup service of docker-compose.yml (image mongo:7, which ships mongodump/mongorestore).
#   backup.sh loop            a dump now and every BACKUP_INTERVAL_HOURS hours (the service)
#   backup.sh once            one dump now (before an upgrade)
#   backup.sh restore FILE    replaces the database with the dump in FILE (API stopped first)
#   backup.sh files-once      one archive of the uploaded files now
#   backup.sh restore-files FILE
#                             replaces the object store's data with FILE (s3 stopped first)
# Dumps are gzip archives of DB_NAME in /backups, each beside an archive of the object store's
# data (the uploaded files: a record names a file the bucket must still hold); those older than
# BACKUP_KEEP_DAYS days are deleted after each new one. The password goes through a config file,
# never the command line.
set -euo pipefail

backups="${BACKUP_DIR:-/backups}"
files_data="${FILES_DATA_DIR:-/files-data}"

# The store's volume as files: SeaweedFS keeps the bucket's (encrypted) volumes there.
files_archive() {
  local stamp="$1" file
  [ -d "$files_data" ] || return 0
  file="${backups}/files-${stamp}.tar.gz"
  tar -czf "$file.partial" -C "$files_data" .
  mv "$file.partial" "$file"
  find "$backups" -name "files-*.tar.gz" -mmin "+$((${BACKUP_KEEP_DAYS:-14} * 1440))" -delete
  echo "files archived: $file"
}

restore_files() {
  local archive="$1"
  find "$files_data" -mindepth 1 -delete
  tar -xzf "$archive" -C "$files_data"
  echo "restored $archive into the object store's data"
}

case "${1:-}" in
  files-once)
    files_archive "$(date -u +%Y%m%dT%H%M%SZ)"
    exit 0
    ;;
  restore-files)
    restore_files "${2:?name the archive: backup.sh restore-files /backups/files-<time>.tar.gz}"
    exit 0
    ;;
esac

db="${DB_NAME:-chaplaincy}"
config="$(mktemp)"
trap 'rm -f "$config"' EXIT
cat >"$config" <<CONFIG
uri: mongodb://${MONGO_ROOT_USER}@mongo:27017/?replicaSet=rs0&authSource=admin
password: ${MONGO_ROOT_PASSWORD}
CONFIG

dump() {
  local stamp file
  stamp="$(date -u +%Y%m%dT%H%M%SZ)"
  file="${backups}/${db}-${stamp}.archive.gz"
  mongodump --config="$config" --db="$db" --gzip --archive="$file.partial"
  mv "$file.partial" "$file"
  find "$backups" -name "${db}-*.archive.gz" -mmin "+$((${BACKUP_KEEP_DAYS:-14} * 1440))" -delete
  echo "backup written: $file"
  files_archive "$stamp"
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
    echo "usage: backup.sh once | loop | restore FILE | files-once | restore-files FILE" >&2
    exit 2
    ;;
esac
