# SPDX-License-Identifier: GPL-2.0-only
#
# KTAP output for the shell tests (sourced, not run): a result line per
# test function, with skips, and the counts for the closing line.

KSFT_SKIP=4
num=0
passed=0
failed=0
skipped=0

# diag TEXT: a KTAP diagnostic line per line of TEXT
diag()
{
	echo "$*" | sed 's/^/# /'
}

# t DESCRIPTION FUNCTION: one test; FUNCTION returns 0, 1, or KSFT_SKIP
# with the reason in $WHY
t()
{
	num=$((num + 1))
	if $2; then
		echo "ok $num $1"
		passed=$((passed + 1))
	elif [ $? = $KSFT_SKIP ]; then
		echo "ok $num $1 # SKIP $WHY"
		skipped=$((skipped + 1))
	else
		echo "not ok $num $1"
		failed=$((failed + 1))
	fi
}

# ktap_done: the totals line; the exit status of the test program
ktap_done()
{
	echo "# Totals: pass:$passed fail:$failed xfail:0 xpass:0 skip:$skipped error:0"
	[ "$failed" -eq 0 ]
}

# ktap_no_setup TOTAL: setup (test 1) failed: tests 2..TOTAL fail unrun,
# then the totals line; exits 1
ktap_no_setup()
{
	while [ "$num" -lt "$1" ]; do
		num=$((num + 1))
		echo "not ok $num skipped: no setup"
		failed=$((failed + 1))
	done
	ktap_done
	exit 1
}
