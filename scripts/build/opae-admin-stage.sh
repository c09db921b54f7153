#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stage tree for the VM's initramfs with OPAE's opae.admin, the Python
# package of fpgaport (and of fpgasupdate, rsu, ...), from the unmodified
# snapshot (scripts/build/opae-tarball.sh): the package where Debian puts
# one, /usr/lib/python3/dist-packages, the console scripts of TOOLS as pip
# writes them from its pyproject.toml, and what of Debian's Python 3 they
# need.  opae.admin uses only the standard library: the modules are the
# closure modulefinder finds from those scripts (as ynl-stage.sh does for
# ynl), not the whole library.
#
# Cached apart from OPAE's C build (opae-build.sh), so that neither redoes
# the other: keyed by the snapshot, this script and the Python; a second
# or so to make.
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
key=$( (cat "$tarball" "$0"; $python -VV; echo "$TOOLS") | sha256sum | cut -c1-12)
# Not opae-*: opae-build.sh keeps one build of those and removes the others
dir=$cache/opae.admin-$key
root=$dir/root
[ -f "$dir/done" ] && { echo "$root"; exit 0; }

pyver=$($python -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
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

cp -L "$(readlink -f $python)" "$tmp/root/usr/bin/$pyver"
ln -s "$pyver" "$tmp/root/usr/bin/python3"

# The console scripts, and every module file of their closure in
# Debian's Python, at its own path
$python - "$tmp/src/pyproject.toml" "$tmp/root" "$site" $TOOLS \
	> "$tmp/modules" <<'EOF'
import modulefinder
import sys
import tomllib

pyproject, root, site, tools = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with open(pyproject, 'rb') as f:
    scripts = tomllib.load(f)['project']['scripts']
finder = modulefinder.ModuleFinder(path=[root + site] + sys.path)
# opae is a namespace package (no __init__.py), which modulefinder
# does not find by itself
finder.add_module('opae').__path__ = [root + site + '/opae']
for tool in tools:
    module, func = scripts[tool].split(':')
    path = root + '/usr/bin/' + tool
    with open(path, 'w') as f:
        f.write(f'''#!/usr/bin/python3
# -*- coding: utf-8 -*-
import re
import sys
from {module} import {func}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({func}())
''')
    finder.run_script(path)
for name in ('site', 'encodings.utf_8', 'encodings.ascii',
             'encodings.latin_1'):
    finder.import_hook(name)
for mod in finder.modules.values():
    path = mod.__file__
    if path and path.startswith('/usr/lib/'):
        print(path)
EOF
while read -r f; do
	mkdir -p "$tmp/root$(dirname "$f")"
	cp "$f" "$tmp/root$f"
done < "$tmp/modules"
for t in $TOOLS; do
	chmod 0755 "$tmp/root/usr/bin/$t"
done
# The extension modules executable, as shared objects are on many
# systems: mkinitramfs.sh then copies the libraries each needs (libffi,
# libcrypto, ...), as for every executable ELF file of a stage
find "$tmp/root/usr/lib/$pyver" -name '*.so' -exec chmod 0755 {} +
# The landmark Python finds its platform directory by
mkdir -p "$tmp/root/usr/lib/$pyver/lib-dynload"

mkdir -p "$dir"
mv "$tmp/root" "$root"
rm -rf "$tmp"
touch "$dir/done"
echo "opae-admin-stage: $TOOLS in $root ($(du -sh "$root" | cut -f1))" >&2
echo "$root"
