# SPDX-License-Identifier: GPL-2.0-only
#
# KTAP output for the shell tests (sourced, not run): the plan, a result
# line per test, with skips, and the counts for the closing line.

KSFT_SKIP=4
num=0
passed=0
failed=0
skipped=0
COUNT_ONLY=""		# set: results are only counted (ktap_run)

# diag TEXT: a KTAP diagnostic line per line of TEXT
diag()
{
	echo "$*" | sed 's/^/# /'
}

# ktap_plan COUNT [DIRECTIVE]: the header and the plan line
ktap_plan()
{
	echo "TAP version 13"
	echo "1..$1${2:+ # $2}"
}

# ktap_skip_all REASON: nothing can run here; exits KSFT_SKIP
ktap_skip_all()
{
	ktap_plan 0 "SKIP $1"
	exit $KSFT_SKIP
}

# ktap_result STATUS DESCRIPTION [REASON]: one result line, counted;
# STATUS 0 is ok, KSFT_SKIP a skip for REASON, anything else not ok
ktap_result()
{
	num=$((num + 1))
	[ -n "$COUNT_ONLY" ] && return 0
	if [ "$1" = 0 ]; then
		echo "ok $num $2"
		passed=$((passed + 1))
	elif [ "$1" = $KSFT_SKIP ]; then
		echo "ok $num $2 # SKIP $3"
		skipped=$((skipped + 1))
	else
		echo "not ok $num $2"
		failed=$((failed + 1))
	fi
}

# t DESCRIPTION COMMAND...: one test; COMMAND returns 0, 1, or KSFT_SKIP
# with the reason in $WHY.  Returns what COMMAND returned.
t()
{
	ktap_desc=$1
	shift
	[ -n "$COUNT_ONLY" ] && { ktap_result 0 "$ktap_desc"; return 0; }
	WHY=""
	"$@"
	ktap_rc=$?
	ktap_result $ktap_rc "$ktap_desc" "$WHY"
	return $ktap_rc
}

# ktap_run FUNCTION: FUNCTION's tests (its calls of t) counted first for
# the plan, then run
ktap_run()
{
	COUNT_ONLY=1
	"$1"
	COUNT_ONLY=""
	ktap_plan "$num"
	num=0
	"$1"
}

# ktap_done: the totals line; the exit status of the test program: 1 if
# a test failed, KSFT_SKIP if none passed
ktap_done()
{
	echo "# Totals: pass:$passed fail:$failed xfail:0 xpass:0 skip:$skipped error:0"
	[ "$failed" -eq 0 ] || return 1
	[ "$passed" -gt 0 ] || return $KSFT_SKIP
}

# ktap_no_setup TOTAL: setup (test 1) failed: tests 2..TOTAL fail unrun,
# then the totals line; exits 1
ktap_no_setup()
{
	while [ "$num" -lt "$1" ]; do
		ktap_result 1 "skipped: no setup"
	done
	ktap_done
	exit 1
}
