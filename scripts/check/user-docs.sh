#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What users read names no internal issue: README.md, the man page, the
# package's description and the tools' help have no tracker to look
# "issue 41" up in.  What is and is not done is said in words there; the
# history stays in Documentation/testing.md and the changelog.
#   scripts/check/user-docs.sh [FILE...]   (default: the files users read)
set -u
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || set -- README.md user/fpgactl.8 debian/control \
	user/fpgactl/*.c
if grep -nE '\b[Ii]ssues? #?[0-9]+\b' "$@"; then
	echo "user-docs: the lines above name internal issues; say what is or is not done in words" >&2
	exit 1
fi
echo "user-docs: $# files name no internal issue"
