#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stage tree for the VM's initramfs with the kernel's ynl netlink CLI
# (tools/net/ynl of Debian's linux-source-6.12, unmodified), our spec and
# the kernel's nlctrl spec, and what of Debian's Python 3 they need, so
# that selftests/fpga/ynl_test.py drives the family "fpga" as a user would.
#
# The Python modules are the closure modulefinder finds from cli.py and the
# test (python-stage.sh), not the whole standard library.
#
# usage: ynl-stage.sh DIR   (DIR is replaced)
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/build/linux-source.sh" 6.12)
ynl=$src/tools/net/ynl
share=/usr/share/fpga-suite/ynl

rm -rf "$out.tmp"
mkdir -p "$out.tmp$share/specs" "$out.tmp/usr/bin"
cp "$ynl/cli.py" "$out.tmp$share/"
cp -r "$ynl/lib" "$out.tmp$share/"
rm -f "$out.tmp$share"/lib/*.[ch] "$out.tmp$share/lib/Makefile"
cp "$top/Documentation/netlink/specs/fpga.yaml" \
	"$src/Documentation/netlink/specs/nlctrl.yaml" "$out.tmp$share/specs/"

# Python and the modules cli.py and the test need; jsonschema only for
# schema validation, and the tests pass --no-schema
"$top/scripts/build/python-stage.sh" "$out.tmp" --path "$ynl" \
	--exclude jsonschema "$ynl/cli.py" "$top/selftests/fpga/ynl_test.py"

rm -rf "$out"
mv "$out.tmp" "$out"
echo "ynl-stage: $out ($(du -sh "$out" | cut -f1))"
