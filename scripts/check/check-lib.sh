# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by check.sh and check-debug.sh: counting, steps with logs, a run of
# kselftests in the VM, and runs that must fail.  The caller sets logs,
# vm_kernel and vm_initrd, and may set vm_append (kernel parameters) and
# vm_silence (seconds without output after which a guest is hung; run-vm's
# default if unset).

passed=0
failed=0
# Every failure and why, again at the end: a long run's tail is what a
# CI report shows
failures=$logs/failures.txt
: > "$failures"

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1" | tee -a "$failures"; }

# step NAME COMMAND...: one test, and its wall time; output kept in
# $logs/NAME.log.  Returns non-zero when it failed.
step()
{
	name=$1
	shift
	step_start=$(date +%s)
	if "$@" > "$logs/$name.log" 2>&1; then
		pass "$name ($(( $(date +%s) - step_start )) s)"
	else
		fail "$name (log: $logs/$name.log)"
		tail -n 20 "$logs/$name.log" | sed 's/^/     | /' |
			tee -a "$failures"
		return 1
	fi
}

# vm_tests NAME TIMEOUT TESTS: the kselftests TESTS (empty: the default
# collections) in one VM; each result counts.  TIMEOUT empty: the hard
# limit is the sum of the tests' own limits (run-vm derives it).
vm_tests()
{
	vm_out=$logs/$1-run.txt
	scripts/vm/run-vm --kernel "$vm_kernel" --initrd "$vm_initrd" \
		--log-dir "$logs" --name "$1" ${2:+--timeout "$2"} --tests "$3" \
		${vm_silence:+--silence "$vm_silence"} --append "${vm_append:-}" |
		tee "$vm_out"
	# FAIL lines with the "     | " diagnostics run-vm puts under them
	awk '/^FAIL /{f=1; print; next} f && /^     \| /{print; next} {f=0}' \
		"$vm_out" >> "$failures"
	summary=$(sed -n 's/^run-vm: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$vm_out")
	if [ -z "$summary" ]; then
		fail "$1 (no summary)"
	else
		passed=$((passed + ${summary% *}))
		failed=$((failed + ${summary#* }))
	fi
}

# expect_failure_start NAME TEST PATTERN [TIMEOUT [SILENCE]]: a VM run, in
# the background, that must fail saying PATTERN; expect_failure_wait counts
# every one started.  They are short and mostly boot, so they run side by
# side.  TIMEOUT and SILENCE empty: run-vm's (derived) hard limit and
# vm_silence.
expect_failure_start()
{
	out=$logs/harness-$1.txt
	silence=${5:-${vm_silence:-}}
	(
		if scripts/vm/run-vm --kernel "$vm_kernel" --initrd "$vm_initrd" \
			--log-dir "$logs" --name "harness-$1" ${4:+--timeout "$4"} \
			${silence:+--silence "$silence"} \
			--tests "$2" --append "${vm_append:-}" > "$out" 2>&1; then
			echo "fail harness detects $1 (the run passed)"
		elif grep -q "$3" "$out"; then
			echo "pass harness detects $1"
		else
			echo "fail harness detects $1 (no '$3' in $out)"
		fi
	) > "$logs/harness-$1.verdict" &
	verdicts="${verdicts:-} $logs/harness-$1.verdict"
}

expect_failure_wait()
{
	wait
	for v in ${verdicts:-}; do
		read -r verdict what < "$v" || what="$v: no verdict"
		if [ "$verdict" = pass ]; then pass "$what"; else fail "$what"; fi
	done
	verdicts=""
}

# finish START: the closing lines; the exit status of the whole check
finish()
{
	if [ -s "$failures" ]; then
		echo "== failures"
		cat "$failures"
	fi
	echo "== $(basename "$0" .sh) took $(( $(date +%s) - $1 )) s"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
