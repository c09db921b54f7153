#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A benchmark that dies midway leaves the VM as it found it: scale_bench
# moves every card model thread (fpga_simN) to one CPU while it lists, and
# must put them back when "fpgactl list" fails there (an fpgactl of our
# own that fails, first on PATH), or the tests after it run with their
# cards' logic squeezed onto one CPU.

. "$(dirname "$0")/ktap_lib.sh"

BENCH=$(dirname "$0")/../bench/scale_bench
SIM=/sys/bus/fpga_sim/devices
tmp=$(mktemp -d)
cards_before=$(ls "$SIM" 2>/dev/null)

cleanup()
{
	# The cards the benchmark made and left when it died
	for c in $(ls "$SIM" 2>/dev/null); do
		case " $(echo $cards_before) " in *" $c "*) continue ;; esac
		echo "${c#fpga_sim}" > /sys/bus/fpga_sim/del_device
	done
	rm -rf "$tmp"
	modprobe -r fpga_fme fpga_port fpga_sim 2>/dev/null
}
trap cleanup EXIT

# The model threads whose allowed CPUs are not all online CPUs
pinned_models()
{
	online=$(cat /sys/devices/system/cpu/online)
	for comm in /proc/[0-9]*/comm; do
		case "$(cat "$comm" 2>/dev/null)" in fpga_sim[0-9]*) ;; *) continue ;; esac
		status=${comm%/comm}/status
		allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$status" 2>/dev/null)
		[ -z "$allowed" ] || [ "$allowed" = "$online" ] ||
			echo "${comm%/comm} $(cat "$comm"): $allowed"
	done
}

t_list_fails()
{
	[ -x "$BENCH" ] || { WHY="no $BENCH"; return $KSFT_SKIP; }
	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\necho "fpgactl: made to fail" >&2\nexit 1\n' > "$tmp/bin/fpgactl"
	chmod +x "$tmp/bin/fpgactl"
	BENCH_ROUNDS=1 PATH="$tmp/bin:$PATH" "$BENCH" > "$tmp/log" 2>&1
	rc=$?
	diag "$(tail -n 3 "$tmp/log")"
	[ "$rc" -ne 0 ] && grep -q "fpgactl list failed" "$tmp/log" || {
		diag "scale_bench did not stop at its list series (exit $rc)"
		return 1
	}
	left=$(pinned_models)
	[ -z "$left" ] || { diag "still pinned: $left"; return 1; }
	# It ran with cards: there were model threads to put back
	[ "$(ls "$SIM" | wc -l)" -gt "$(echo $cards_before | wc -w)" ] || {
		diag "no card of the benchmark's was left to look at"
		return 1
	}
}

modprobe fpga_sim || ktap_skip_all "no fpga_sim"
ktap_plan 1
t "scale_bench stopped in its list series puts the model threads back on every CPU" t_list_fails
ktap_done
