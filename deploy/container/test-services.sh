#!/usr/bin/env bash
# Stand-ins for the official postgres and redis images that docker-compose.yml names, made without
# any registry: the Debian root file system of test-base.sh plus Debian's postgresql / redis-server
# packages and a small entry point that behaves like the official images' for what the compose file
# uses (POSTGRES_USER/PASSWORD/DB and the data directory; redis-server reachable from other
# containers, data in /data).
#   one-hub-test-postgres:<version>   one-hub-test-redis:<version>
# The root file systems are cached in $ONE_HUB_TEST_CACHE (default /var/cache/one-hub-test) next to
# test-base.sh's, so a second run only re-imports them. Prints the two image names. Run test-base.sh
# first (it makes the minbase root file system). Needs root and podman.
set -euo pipefail
CACHE="${ONE_HUB_TEST_CACHE:-/var/cache/one-hub-test}"
HERE="$(cd "$(dirname "$0")" && pwd)"
[ -d "$CACHE/rootfs-minbase" ] || { echo "no $CACHE/rootfs-minbase: run test-base.sh first" >&2; exit 1; }

# A root file system: minbase plus Debian packages, services kept from starting inside the chroot.
make_rootfs() {
  local name="$1" prepare="$2"; shift 2
  [ -d "$CACHE/rootfs-$name" ] && return
  rm -rf "$CACHE/rootfs-$name.tmp"
  cp -a "$CACHE/rootfs-minbase" "$CACHE/rootfs-$name.tmp"
  printf '#!/bin/sh\nexit 101\n' > "$CACHE/rootfs-$name.tmp/usr/sbin/policy-rc.d"
  chmod +x "$CACHE/rootfs-$name.tmp/usr/sbin/policy-rc.d"
  chroot "$CACHE/rootfs-$name.tmp" sh -c "$prepare && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $* >/dev/null && apt-get clean && rm -rf /var/lib/apt/lists/*" >&2
  rm "$CACHE/rootfs-$name.tmp/usr/sbin/policy-rc.d"
  mv "$CACHE/rootfs-$name.tmp" "$CACHE/rootfs-$name"
}
# No cluster at install time: the entry point makes one in the volume on first start.
make_rootfs postgres 'mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf' postgresql
make_rootfs redis 'true' redis-server

PG_BIN="$(ls -d "$CACHE"/rootfs-postgres/usr/lib/postgresql/*/bin | sort -V | tail -1)"
PG_VERSION="$(basename "$(dirname "$PG_BIN")")"
REDIS_VERSION="$(chroot "$CACHE/rootfs-redis" redis-server --version | sed -E 's/.* v=([0-9.]+).*/\1/')"
POSTGRES="one-hub-test-postgres:$PG_VERSION"
REDIS="one-hub-test-redis:$REDIS_VERSION"

import_image() {
  local image="$1" rootfs="$2" entrypoint="$3"; shift 3
  if podman image exists "$image"; then return; fi
  local layer
  layer="$(mktemp -d)"
  mkdir -p "$layer/usr/local/bin"
  cp "$HERE/$entrypoint" "$layer/usr/local/bin/docker-entrypoint.sh"
  chmod 755 "$layer/usr/local/bin/docker-entrypoint.sh"
  tar -C "$rootfs" -c . -C "$layer" ./usr/local/bin/docker-entrypoint.sh | podman import \
    --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' "$@" - "$image" >&2
  rm -rf "$layer"
}
import_image "$POSTGRES" "$CACHE/rootfs-postgres" postgres-entrypoint.sh \
  --change "ENV PATH=/usr/lib/postgresql/$PG_VERSION/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'CMD ["postgres"]'
import_image "$REDIS" "$CACHE/rootfs-redis" redis-entrypoint.sh \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'WORKDIR /data' \
  --change 'CMD ["redis-server"]'
echo "$POSTGRES $REDIS"
