#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stage tree for the VM's initramfs with OPAE's opae.admin, the Python
# package of fpgaport (and of fpgasupdate, rsu, ...), from the unmodified
# snapshot (scripts/build/opae-tarball.sh): the package where Debian puts
# one, /usr/lib/python3/dist-packages, the console scripts of TOOLS as pip
# writes them from its pyproject.toml, and what of Debian's Python 3 they
# need.  opae.admin uses only the standard library: the modules are the
# closure modulefinder finds from those scripts (python-stage.sh), not the
# whole library.
#
# Cached apart from OPAE's C build (opae-build.sh), so that neither redoes
# the other: keyed by the snapshot, this script, python-stage.sh and the
# Python; a few seconds to make.
#
# usage: opae-admin-stage.sh   make it if needed; print its root
#   FPGA_SUITE_CACHE=DIR  the cache (default ~/.cache/fpga-suite)
#   OPAE_TARBALL=FILE     the snapshot (as opae-tarball.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
# The tools staged, by their console script's name
TOOLS="fpgaport"
python=/usr/bin/python3
tarball=$("$here/opae-tarball.sh")
key=$( (cat "$tarball" "$0" "$here/python-stage.sh"; $python -VV; echo "$TOOLS") |
	sha256sum | cut -c1-12)
# Not opae-*: opae-build.sh keeps one build of those and removes the others
dir=$cache/opae.admin-$key
root=$dir/root
[ -f "$dir/done" ] && { echo "$root"; exit 0; }

site=/usr/lib/python3/dist-packages
mkdir -p "$cache"
rm -rf "$cache"/opae.admin-*
tmp=$dir.tmp
mkdir -p "$tmp/src" "$tmp/root$site" "$tmp/root/usr/bin" \
	"$tmp/root/usr/share/doc/opae.admin"
tar -xJf "$tarball" -C "$tmp/src" --strip-components=3 --wildcards \
	'*/python/opae.admin/opae' '*/python/opae.admin/pyproject.toml' \
	'*/python/opae.admin/LICENSE'
cp -r "$tmp/src/opae" "$tmp/root$site/"
cp "$tmp/src/LICENSE" "$tmp/root/usr/share/doc/opae.admin/"

# The console scripts, as pip writes them
$python - "$tmp/src/pyproject.toml" "$tmp/root/usr/bin" $TOOLS <<'EOF'
import sys
import tomllib

pyproject, bindir, tools = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(pyproject, 'rb') as f:
    scripts = tomllib.load(f)['project']['scripts']
for tool in tools:
    module, func = scripts[tool].split(':')
    with open(bindir + '/' + tool, 'w') as f:
        f.write(f'''#!/usr/bin/python3
# -*- coding: utf-8 -*-
import re
import sys
from {module} import {func}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({func}())
''')
EOF
set --
for t in $TOOLS; do
	chmod 0755 "$tmp/root/usr/bin/$t"
	set -- "$@" "$tmp/root/usr/bin/$t"
done
# Python, and the modules they need
"$here/python-stage.sh" "$tmp/root" --path "$tmp/root$site" "$@"

mkdir -p "$dir"
mv "$tmp/root" "$root"
rm -rf "$tmp"
touch "$dir/done"
echo "opae-admin-stage: $TOOLS in $root ($(du -sh "$root" | cut -f1))" >&2
echo "$root"
