#!/usr/bin/env bash
# Makes the base images the container test builds on, without any registry: a Debian bookworm
# root file system (debootstrap --variant=minbase) plus this machine's own Node.js installation.
#   one-hub-test-base:<node version>   runtime (BASE)
#   one-hub-test-build:<node version>  the same plus python3, make and g++ (BUILD_BASE)
# The root file systems are cached in $ONE_HUB_TEST_CACHE (default /var/cache/one-hub-test), so a
# second run only re-imports them. Prints the two image names. Needs root, debootstrap and podman.
set -euo pipefail
CACHE="${ONE_HUB_TEST_CACHE:-/var/cache/one-hub-test}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE_BIN="$(readlink -f "$(command -v node)")"
PREFIX="$(dirname "$(dirname "$NODE_BIN")")"
VERSION="$("$NODE_BIN" -p 'process.versions.node')"
BASE="one-hub-test-base:$VERSION"
BUILD="one-hub-test-build:$VERSION"
mkdir -p "$CACHE"

if [ ! -d "$CACHE/rootfs-minbase" ]; then
  rm -rf "$CACHE/rootfs-minbase.tmp"
  debootstrap --variant=minbase bookworm "$CACHE/rootfs-minbase.tmp" "$MIRROR" >&2
  mv "$CACHE/rootfs-minbase.tmp" "$CACHE/rootfs-minbase"
fi
if [ ! -d "$CACHE/rootfs-build" ]; then
  rm -rf "$CACHE/rootfs-build.tmp"
  cp -a "$CACHE/rootfs-minbase" "$CACHE/rootfs-build.tmp"
  chroot "$CACHE/rootfs-build.tmp" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null && apt-get clean && rm -rf /var/lib/apt/lists/*' >&2
  mv "$CACHE/rootfs-build.tmp" "$CACHE/rootfs-build"
fi

# Node as the official images lay it out: /usr/local/{bin,lib/node_modules,include/node}.
NODE_DIR="$(mktemp -d)"
trap 'rm -rf "$NODE_DIR"' EXIT
mkdir -p "$NODE_DIR/usr/local/bin" "$NODE_DIR/usr/local/lib/node_modules" "$NODE_DIR/usr/local/include"
cp "$NODE_BIN" "$NODE_DIR/usr/local/bin/node"
NPM_DIR="$PREFIX/lib/node_modules/npm"
[ -d "$NPM_DIR" ] || NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
cp -a "$NPM_DIR" "$NODE_DIR/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$NODE_DIR/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$NODE_DIR/usr/local/bin/npx"
# The headers, so node-gyp compiles native modules without downloading them.
[ -d "$PREFIX/include/node" ] && cp -a "$PREFIX/include/node" "$NODE_DIR/usr/local/include/node"
# The machine's certificate authorities (a TLS-inspecting proxy's among them), for npm inside builds.
CA="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
mkdir -p "$NODE_DIR/usr/local/etc"
if [ -f "$CA" ]; then cp "$CA" "$NODE_DIR/usr/local/etc/host-ca.crt"; else : > "$NODE_DIR/usr/local/etc/host-ca.crt"; fi

import_image() {
  local image="$1" rootfs="$2"
  if podman image exists "$image"; then return; fi
  # The Node files are named one by one: a directory the root file system has already must not
  # appear twice in the layer.
  local extra=(./usr/local/bin/node ./usr/local/bin/npm ./usr/local/bin/npx ./usr/local/lib/node_modules ./usr/local/etc/host-ca.crt)
  [ -d "$NODE_DIR/usr/local/include/node" ] && extra+=(./usr/local/include/node)
  tar -C "$rootfs" -c . -C "$NODE_DIR" "${extra[@]}" | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV npm_config_nodedir=/usr/local' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/etc/host-ca.crt' \
    --change 'CMD ["node"]' - "$image" >&2
}
import_image "$BASE" "$CACHE/rootfs-minbase"
import_image "$BUILD" "$CACHE/rootfs-build"
echo "$BASE $BUILD"
