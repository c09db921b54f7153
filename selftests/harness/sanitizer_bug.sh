#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: sanitizer_bug.sh kasan|lockdep|kmemleak
# Exits 0 after committing that bug in the kernel: only the sanitizer's report shows it, and the
# host must fail the run because of it.  Debug kernel only.
ko="$(dirname "$0")/harness_sanitize.ko"
[ -e "$ko" ] || { echo "# harness_sanitize.ko is built for the debug kernel only"; exit 4; }
insmod "$ko" bug="$1" || exit 1
rmmod harness_sanitize
exit 0
