#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stage tree for the VM's initramfs with the kernel's ynl netlink CLI
# (tools/net/ynl of Debian's linux-source-6.12, unmodified), our spec and
# the kernel's nlctrl spec, and what of Debian's Python 3 they need, so
# that selftests/fpga/ynl_test.py drives the family "fpga" as a user would.
#
# The Python modules are the closure modulefinder finds from cli.py and the
# test (plus the codecs Python loads by name at startup), not the whole
# standard library: a few MB instead of 50 in every boot of the VM.
#
# usage: ynl-stage.sh DIR   (DIR is replaced)
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/build/linux-source.sh" 6.12)
ynl=$src/tools/net/ynl
python=/usr/bin/python3
pyver=$($python -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
share=/usr/share/fpga-suite/ynl

rm -rf "$out.tmp"
mkdir -p "$out.tmp$share/specs" "$out.tmp/usr/bin"
cp "$ynl/cli.py" "$out.tmp$share/"
cp -r "$ynl/lib" "$out.tmp$share/"
rm -f "$out.tmp$share"/lib/*.[ch] "$out.tmp$share/lib/Makefile"
cp "$top/Documentation/netlink/specs/fpga.yaml" \
	"$src/Documentation/netlink/specs/nlctrl.yaml" "$out.tmp$share/specs/"

cp -L "$(readlink -f $python)" "$out.tmp/usr/bin/$pyver"
ln -s "$pyver" "$out.tmp/usr/bin/python3"

# Every module file of the closure, at its own path
$python - "$ynl" "$top/selftests/fpga/ynl_test.py" <<'EOF' |
import modulefinder
import sys

ynl, test = sys.argv[1], sys.argv[2]
sys.path.insert(0, ynl)
finder = modulefinder.ModuleFinder(path=sys.path, excludes=[
    # only schema validation needs it, and the tests pass --no-schema
    'jsonschema',
])
for script in (ynl + '/cli.py', test):
    finder.run_script(script)
for name in ('site', 'encodings.utf_8', 'encodings.ascii',
             'encodings.latin_1'):
    finder.import_hook(name)
for mod in finder.modules.values():
    path = mod.__file__
    if path and path.startswith('/usr/lib/'):
        print(path)
EOF
while read -r f; do
	mkdir -p "$out.tmp$(dirname "$f")"
	cp "$f" "$out.tmp$f"
done
# The landmark Python finds its platform directory by
mkdir -p "$out.tmp/usr/lib/$pyver/lib-dynload"

rm -rf "$out"
mv "$out.tmp" "$out"
echo "ynl-stage: $out ($(du -sh "$out" | cut -f1))"
