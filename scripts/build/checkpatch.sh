#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# checkpatch.pl over every kernel source of the suite: any error, warning
# or check fails.  checkpatch is Debian's linux-source of the host's line
# (scripts/build/host-release.sh: 6.1 on bookworm, 6.12 on trixie), or of
# SERIES.
#
# usage: checkpatch.sh [SERIES]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/build/linux-source.sh" "$@")
files=$(cd "$top" && find kernel include selftests/*/*_module selftests/bench/peer \
	-name '*.[ch]' ! -name '*.mod.c' | sort)
# One finding is dropped, and only it: 6.12's checkpatch asks for a const
# struct bus_type, which bus_register() takes from 6.3 on; 6.1's
# bus_register() takes a non-const one, so the suite's buses cannot be
# const while it builds for 6.1.
bus_type='[^ ]*:[0-9]*: WARNING:CONST_STRUCT: struct bus_type should normally be const'
# shellcheck disable=SC2086
out=$(cd "$top" && perl "$src/scripts/checkpatch.pl" --no-tree --strict \
	--terse --show-types -f $files 2>&1 |
	grep -v -x -e 'total: .*' -e "$bus_type" || true)
if [ -n "$out" ]; then
	echo "$out"
	echo "checkpatch: findings above"
	exit 1
fi
echo "checkpatch: $(echo "$files" | wc -l) files clean"
