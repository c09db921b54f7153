#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the suite's KUnit suites: load each test module (loading runs its
# suites), then print every suite's results from debugfs as a nested KTAP
# subtest, renumbered, and unload the module.
#
# Exit status: 0 if every suite passed, 1 if a case failed or a suite is
# missing (module not found, not loadable, or KUnit disabled), 4 (skip) on
# a kernel without KUnit's debugfs.
#
# usage: kunit_test.sh [MODULE...]    (default: all of them)
ksft_skip=4
KUNIT_DIR=${KUNIT_DIR:-/sys/kernel/debug/kunit}

# Test module -> its suites; a suite without results is a failure
suites_of()
{
	case "$1" in
	fpga_dfl_kunit) echo fpga_dfl_parser ;;
	fpga_fme_kunit) echo fpga_pmu_config ;;
	fpga_port_kunit) echo fpga_port_region fpga_port_dma ;;
	fpga_sim_kunit) echo fpga_sim_reset fpga_sim_error fpga_sim_layout ;;
	esac
}

modules=${*:-fpga_dfl_kunit fpga_fme_kunit fpga_port_kunit fpga_sim_kunit}

if [ ! -d "$KUNIT_DIR" ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
if [ ! -d "$KUNIT_DIR" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP no $KUNIT_DIR (kernel without CONFIG_KUNIT_DEBUGFS)"
	exit $ksft_skip
fi

total=0
for m in $modules; do
	total=$((total + $(suites_of "$m" | wc -w)))
done

echo "TAP version 13"
echo "1..$total"
n=0
failed=0
for m in $modules; do
	# A fresh run: results of an earlier load go with its unload
	if [ -d "/sys/module/$m" ]; then
		rmmod "$m" 2>/dev/null
	fi
	err=$(modprobe "$m" 2>&1)
	loaded=$?
	for s in $(suites_of "$m"); do
		n=$((n + 1))
		results=$KUNIT_DIR/$s/results
		if [ $loaded -ne 0 ]; then
			echo "# modprobe $m: $err"
			echo "not ok $n $s # module $m not loaded"
			failed=1
			continue
		fi
		if [ ! -r "$results" ]; then
			echo "# no $results: KUnit disabled? (kunit.enable=1 or CONFIG_KUNIT_DEFAULT_ENABLED=y)"
			echo "not ok $n $s # no results"
			failed=1
			continue
		fi
		# The file is "KTAP version 1", "1..1", the suite indented, then
		# "ok 1 SUITE": keep the indented subtest, renumber the result.
		grep '^    ' "$results"
		last=$(grep -v '^ ' "$results" | tail -n 1)
		case "$last" in
		"ok 1 $s"*)
			echo "ok $n $s${last#ok 1 "$s"}"
			;;
		*)
			echo "not ok $n $s"
			failed=1
			;;
		esac
	done
	if [ $loaded -eq 0 ]; then
		rmmod "$m" || failed=1
	fi
done
exit $failed
