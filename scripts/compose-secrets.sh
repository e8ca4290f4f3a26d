#!/usr/bin/env bash
# `npm run compose:secrets` (or `bash scripts/compose-secrets.sh [file]`): fills .env with the
# secrets docker-compose.yml needs, each only when it is not set yet, so a second run changes
# nothing (new database passwords after the first start would lock the API out of its data).
# Starts .env from .env.example when there is none. Needs only bash and /dev/urandom.
set -euo pipefail

file="${1:-.env}"
if [ ! -f "$file" ]; then
  cp "$(dirname "$0")/../.env.example" "$file"
  echo "created $file from .env.example"
fi
chmod 600 "$file"

hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
base64_of() { head -c "$1" /dev/urandom | base64 | tr -d '\n'; }

set_once() {
  local name="$1" value="$2"
  if grep -Eq "^${name}=.+" "$file"; then
    echo "kept ${name}"
  elif grep -Eq "^${name}=$" "$file"; then
    # Only base64 and hex characters: safe in a sed replacement with | as the delimiter.
    sed -i.bak "s|^${name}=\$|${name}=${value}|" "$file" && rm -f "$file.bak"
    echo "set ${name}"
  else
    printf '%s=%s\n' "$name" "$value" >>"$file"
    echo "set ${name}"
  fi
}

set_once JWT_SECRET "$(hex 32)"
set_once DATA_KEY "$(base64_of 32)"
set_once MONGO_ROOT_PASSWORD "$(hex 24)"
set_once MONGO_APP_PASSWORD "$(hex 24)"
set_once REDIS_PASSWORD "$(hex 24)"
set_once S3_ACCESS_KEY_ID "files-$(hex 16)"
set_once S3_SECRET_ACCESS_KEY "$(hex 24)"
# A replica-set key file: 6 to 1024 base64 characters.
set_once MONGO_REPLICA_KEY "$(base64_of 756)"

echo "Now set DOMAIN, SMTP_URL, APP_URL, CORS_ORIGINS, ADMIN_EMAIL and ADMIN_PASSWORD in $file by hand."
