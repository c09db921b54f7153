#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The netlink spec Documentation/netlink/specs/fpga.yaml against the
# kernel's tools (Debian's linux-source-6.12): it must validate against
# the kernel's schema for its protocol, and the uapi header the kernel's
# ynl-gen-c makes of it must name the same constants, with the same
# values, as include/uapi/linux/fpga-netlink.h (ours keeps its kernel-doc,
# so the two are compared by value, not as text).  The policies are
# compared in the VM, with what the kernel reports (selftests/fpga/ynl_test.py).
#
# usage: ynl-check.sh [WORKDIR]   (default build/ynl-check)
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$top/build/ynl-check}
src=$("$top/scripts/build/linux-source.sh" 6.12)
python=/usr/bin/python3

# ynl-gen-c wants a kernel tree: the schemas one level above the spec,
# MAINTAINERS at the top
rm -rf "$work"
mkdir -p "$work/tree/Documentation/netlink/specs"
cp "$src"/Documentation/netlink/*.yaml "$work/tree/Documentation/netlink/"
cp "$top/Documentation/netlink/specs/fpga.yaml" \
	"$work/tree/Documentation/netlink/specs/"
: > "$work/tree/MAINTAINERS"

# Validation against the schema happens as the spec is loaded
"$python" "$src/tools/net/ynl/ynl-gen-c.py" --mode uapi --header \
	--spec "$work/tree/Documentation/netlink/specs/fpga.yaml" \
	-o "$work/fpga-netlink-gen.h"

# Every constant of the generated header, printed by a program built
# against either header
{
	echo '#include <stdio.h>'
	echo '#include HEADER'
	echo 'int main(void)'
	echo '{'
	sed -n -e 's/^#define \([A-Z0-9_]*\)[[:space:]]\{1,\}".*/\tprintf("%s %s\\n", "\1", \1);/p' \
		-e 's/^#define \([A-Z0-9_]*\)[[:space:]]\{1,\}[0-9].*/\tprintf("%s %lld\\n", "\1", (long long)\1);/p' \
		-e 's/^\t\([A-Z_][A-Z0-9_]*\)\( = .*\)\{0,1\},\{0,1\}$/\tprintf("%s %lld\\n", "\1", (long long)\1);/p' \
		"$work/fpga-netlink-gen.h"
	echo '	return 0;'
	echo '}'
} > "$work/constants.c"

n=$(grep -c printf "$work/constants.c")
[ "$n" -gt 40 ] || { echo "ynl-check: only $n constants found in the generated header" >&2; exit 1; }
cc -Wall -Werror -DHEADER='"fpga-netlink-gen.h"' -I"$work" \
	-o "$work/constants-spec" "$work/constants.c"
"$work/constants-spec" > "$work/constants-spec.txt"
if ! cc -Wall -Werror -DHEADER="\"$top/include/uapi/linux/fpga-netlink.h\"" \
		-o "$work/constants-ours" "$work/constants.c" ||
	! "$work/constants-ours" > "$work/constants-ours.txt" ||
	! cmp -s "$work/constants-spec.txt" "$work/constants-ours.txt"; then
	echo "ynl-check: include/uapi/linux/fpga-netlink.h differs from the spec (< spec, > header):" >&2
	diff "$work/constants-spec.txt" "$work/constants-ours.txt" >&2 || true
	exit 1
fi
echo "ynl-check: the spec validates, and the uapi header has its $n constants"
