#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A kasan report the host must catch (debug kernel; see sanitizer_bug.sh)
exec "$(dirname "$0")/sanitizer_bug.sh" kasan
