#!/bin/sh
# One-time setup of the docker-compose stack (README "Self-hosting with docker-compose"):
#   sh scripts/setup-compose.sh [DOMAIN] [--no-start]
# Writes .env with a generated SESSION_SECRET and database and S3 passwords (readable by you
# only), builds and starts the stack, and prints the admin and public PINs once. The station
# stores the PINs hashed on this first start; change them later on the dashboard.
# --no-start writes .env and builds only: for a station restored from an export (its PINs come
# with the archive; see README "Moving to docker-compose").
# Needs only a POSIX shell and Docker with Compose v2. Refuses to touch an existing .env (its
# secrets open the existing database and storage).
set -eu

domain=${1:-localhost}
start=${2:-}
env_file=.env
if [ -n "$start" ] && [ "$start" != --no-start ]; then
  echo "Usage: sh scripts/setup-compose.sh [DOMAIN] [--no-start]" >&2
  exit 1
fi

if [ -e "$env_file" ]; then
  echo "$env_file already exists: this stack is set up. Start it with: docker compose up -d" >&2
  exit 1
fi
case $domain in
  *[!A-Za-z0-9.-]* | "" | .* | *..*)
    echo "Not a host name: $domain (e.g. radio.example.org, or localhost)" >&2
    exit 1
    ;;
esac

# Random material from the kernel: hex for secrets, digits and an unambiguous alphabet for PINs.
hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
admin_pin=$(od -An -N4 -tu4 /dev/urandom | awk '{ printf "%06d", $1 % 1000000 }')
public_pin=$(od -An -N5 -tu1 /dev/urandom | awk '{ a = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; for (i = 1; i <= NF; i++) printf "%s", substr(a, $i % 32 + 1, 1) }')

# Ports other than 80/443 (and a bind address) given in the environment are kept in .env too.
public_url=https://$domain
[ "${HTTPS_PORT:-443}" = 443 ] || public_url=$public_url:$HTTPS_PORT

umask 077
cat >"$env_file" <<EOF
# Written by scripts/setup-compose.sh. Keep it secret and keep it: these open the database and storage.
DOMAIN=$domain
PUBLIC_URL=$public_url
SESSION_SECRET=$(hex 32)
POSTGRES_PASSWORD=$(hex 24)
S3_ACCESS_KEY=station$(hex 6)
S3_SECRET_KEY=$(hex 24)
EOF
for variable in PUBLISH_ADDRESS HTTP_PORT HTTPS_PORT; do
  eval "value=\${$variable:-}"
  [ -z "$value" ] || echo "$variable=$value" >>"$env_file"
done
echo "Wrote $env_file for $public_url"
if [ "$start" = --no-start ]; then
  docker compose build
  echo "Built; not started. Restore the archive now (README \"Restore\"), then: docker compose up -d --wait"
  exit 0
fi

# The PINs go to the first start only, not into .env: the station stores them hashed.
ADMIN_PIN=$admin_pin PUBLIC_PIN=$public_pin docker compose up -d --build --wait
# Recreate the app without them in its environment (the stored hashes are what count now).
docker compose up -d --wait

cat <<EOF

The station is on the air at $public_url
  Admin PIN:  $admin_pin
  Public PIN: $public_pin
Note them now: they are shown only this once (change them on the dashboard under "PINs").
EOF
