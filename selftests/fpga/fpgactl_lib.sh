# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers shared by the fpgactl_*_test.sh scripts (sourced, not run):
# run a command and check its exit status, stderr and stdout, printing
# KTAP diagnostics.  The caller sets T, a scratch directory, and defines
# why_not (below).

. "$(dirname "$0")/ktap_lib.sh"

# needs REQUIRES COMMAND...: for t: COMMAND, or a skip for the reason
# "why_not REQUIRES" prints (each script's own; nothing: COMMAND can run)
needs()
{
	WHY=$(why_not "$1")
	shift
	[ -n "$WHY" ] && return $KSFT_SKIP
	"$@"
}

# run CMD...: $RC, stdout in $T/out, stderr in $T/err
run()
{
	"$@" > "$T/out" 2> "$T/err"
	RC=$?
}

# show: what the last command printed
show()
{
	diag "stdout:"
	diag "$(head -n 20 "$T/out")"
	diag "stderr:"
	diag "$(head -n 20 "$T/err")"
}

# expect RC STDERR_PATTERN CMD...: the command exits RC, and its stderr
# matches the pattern (an empty pattern matches anything)
expect()
{
	want=$1
	pat=$2
	shift 2
	run "$@"
	if [ "$RC" != "$want" ]; then
		diag "'$*' exited $RC, expected $want"
		show
		return 1
	fi
	if [ -n "$pat" ] && ! grep -q -e "$pat" "$T/err"; then
		diag "'$*': stderr does not say '$pat'"
		show
		return 1
	fi
	return 0
}

# out_has PATTERN: the last command's stdout matches
out_has()
{
	grep -q -e "$1" "$T/out" && return 0
	diag "stdout does not match '$1'"
	show
	return 1
}

# usage STDERR_PATTERN CMD...: a usage error (exit status 2)
usage()
{
	expect 2 "$@"
}
