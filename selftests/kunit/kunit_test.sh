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
KUNIT_DIR=${KUNIT_DIR:-/sys/kernel/debug/kunit}

. "$(dirname "$0")/../fpga/ktap_lib.sh"

# Test module -> its suites; a suite without results is a failure
suites_of()
{
	case "$1" in
	fpga_dfl_kunit) echo fpga_dfl_parser fpga_dfl_sriov fpga_dfl_counters ;;
	fpga_fme_kunit) echo fpga_pmu_config ;;
	fpga_port_kunit) echo fpga_port_region fpga_port_dma ;;
	fpga_sim_kunit) echo fpga_sim_reset fpga_sim_error fpga_sim_layout fpga_sim_sensors fpga_sim_pr \
		fpga_sim_board fpga_sim_bmc ;;
	esac
}

modules=${*:-fpga_dfl_kunit fpga_fme_kunit fpga_port_kunit fpga_sim_kunit}

if [ ! -d "$KUNIT_DIR" ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
fi
if [ ! -d "$KUNIT_DIR" ]; then
	ktap_skip_all "no $KUNIT_DIR (kernel without CONFIG_KUNIT_DEBUGFS)"
fi

total=0
for m in $modules; do
	total=$((total + $(suites_of "$m" | wc -w)))
done

ktap_plan $total
unloaded=0
for m in $modules; do
	# A fresh run: results of an earlier load go with its unload
	if [ -d "/sys/module/$m" ]; then
		rmmod "$m" 2>/dev/null
	fi
	err=$(modprobe "$m" 2>&1)
	loaded=$?
	for s in $(suites_of "$m"); do
		results=$KUNIT_DIR/$s/results
		if [ $loaded -ne 0 ]; then
			diag "modprobe $m: $err"
			ktap_result 1 "$s # module $m not loaded"
			continue
		fi
		if [ ! -r "$results" ]; then
			diag "no $results: KUnit disabled? (kunit.enable=1 or CONFIG_KUNIT_DEFAULT_ENABLED=y)"
			ktap_result 1 "$s # no results"
			continue
		fi
		# The file is "KTAP version 1", "1..1", the suite indented, then
		# "ok 1 SUITE": keep the indented subtest, renumber the result.
		grep '^    ' "$results"
		last=$(grep -v '^ ' "$results" | tail -n 1)
		case "$last" in
		"ok 1 $s"*)
			# its directive (a skip) stays on the line
			ktap_result 0 "$s${last#ok 1 "$s"}"
			;;
		*)
			ktap_result 1 "$s"
			;;
		esac
	done
	if [ $loaded -eq 0 ]; then
		rmmod "$m" || unloaded=1
	fi
done
# A module that does not unload fails the run too
ktap_done && exit $unloaded
