#!/bin/sh
# A base image for the Dockerfile on a machine that reaches Debian's packages but no image
# registry: Debian 12 (debootstrap, minbase) with this machine's Node.js and npm and the `node`
# user (uid 1000) that the official node images have, trusting the certificate authorities this
# machine added. Run as root, then build with it:
#
#   scripts/docker-base.sh openvibe-node:20-bookworm
#   docker build --build-arg NODE_IMAGE=openvibe-node:20-bookworm -t openvibe .
#
# The Debian mirror is the one this machine's apt uses (DEBIAN_MIRROR overrides it).
set -eu
tag="${1:-openvibe-node:20-bookworm}"
mirror="${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}"
[ -n "$mirror" ] || { echo "docker-base: set DEBIAN_MIRROR to a Debian mirror URL" >&2; exit 2; }
node_bin="$(command -v node)"
npm_dir="$(npm root -g)/npm"
[ -d "$npm_dir" ] || { echo "docker-base: npm not found at $npm_dir" >&2; exit 2; }

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=ca-certificates,libstdc++6 bookworm "$root" "$mirror"
install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# Certificate authorities this machine added (a TLS-inspecting proxy, say) are trusted inside too.
extra_ca=""
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates
  extra_ca="NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt"
fi
chroot "$root" useradd --create-home --uid 1000 --user-group --shell /bin/sh node
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  ${extra_ca:+--change "ENV $extra_ca"} \
  --change 'CMD ["node"]' - "$tag"
docker run --rm "$tag" node --version
