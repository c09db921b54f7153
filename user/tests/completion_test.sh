#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fpgactl's bash completion: what it offers after each kind of word, with
# ports, simulated cards and PMUs from a fake sysfs tree.  Needs the
# bash-completion package (its _init_completion).
set -u
here=$(cd "$(dirname "$0")" && pwd)
completion=${FPGACTL_COMPLETION:-$here/../fpgactl.bash-completion}
. /usr/share/bash-completion/bash_completion || exit 1
. "$completion" || exit 1

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bus/fpga_dfl/devices/fpga-port.0" \
	"$T/bus/fpga_dfl/devices/fpga-port.3" \
	"$T/bus/fpga_dfl/devices/fpga-fme.0" \
	"$T/bus/fpga_sim/devices/fpga_sim5" \
	"$T/bus/event_source/devices/fpga_pmu_0"
export FPGA_SYSFS_ROOT=$T

failed=0
n=0

# offers LINE EXPECTED: completing LINE (to its end) offers exactly EXPECTED
# (space-separated, any order)
offers()
{
	local line=$1 want got

	n=$((n + 1))
	read -r -a COMP_WORDS <<< "$line"
	[ "${line% }" != "$line" ] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	_fpgactl fpgactl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort | tr '\n' ' ')
	want=$(printf '%s\n' $2 | sed '/^$/d' | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		echo "ok $n '$line'"
	else
		echo "not ok $n '$line': offered '$got', expected '$want'"
		failed=$((failed + 1))
	fi
}

offers "fpgactl " "list info ps reset mmio dma errors irq perf trace sim gbs pr buf bind monitor metrics cdi help"
offers "fpgactl mm" "mmio"
offers "fpgactl --" "--json --pretty --version --help"
offers "fpgactl mmio " "read write dump"
offers "fpgactl mmio read " "0 3"
offers "fpgactl -j mmio read " "0 3"
offers "fpgactl mmio read 0 0x0 --width " "32 64"
offers "fpgactl mmio read 3 " ""
offers "fpgactl dma loopback --size 4K " "0 3"
offers "fpgactl dma loopback 0 --alloc " "anon vgem"
offers "fpgactl dma loopback 0 --a" "--alloc"
offers "fpgactl list --j" "--json"
offers "fpgactl list -p --j" "--json"
offers "fpgactl info " "0 3 fpga-fme.0"
offers "fpgactl sim " "add del"
offers "fpgactl sim del " "5"
offers "fpgactl sim add " ""
offers "fpgactl sim add 1 " "board"
offers "fpgactl sim add 1 board " "sim n3000"
offers "fpgactl sim add 1 board n3000 " ""
offers "fpgactl sim add 1 board n3000 2 " ""
offers "fpgactl perf " "0 3 fpga_pmu_0"
offers "fpgactl bind " "0 3"
offers "fpgactl ps " "0 3"
offers "fpgactl ps 3 " ""
offers "fpgactl p" "ps perf pr"
offers "fpgactl bind 3 " "uio port"
offers "fpgactl irq wait 0 --" "--vector --timeout --json --pretty --help"
offers "fpgactl help " "list info ps reset mmio dma errors irq perf trace sim gbs pr buf bind monitor metrics cdi help"
offers "fpgactl gbs " "make show"
offers "fpgactl gbs make " "afu interface name payload out"
offers "fpgactl gbs make afu " "nlb0 nlb3 helb"
offers "fpgactl gbs make afu nlb0 out x.gbs " "interface name payload"
offers "fpgactl gbs make afu nlb0 interface " ""
offers "fpgactl gbs show $T/" "$T/bus"
offers "fpgactl pr " "fpga-fme.0"
offers "fpgactl pr fpga-fme.0 $T/b" "$T/bus"
offers "fpgactl pr fpga-fme.0 x.gbs " "port force"
offers "fpgactl pr fpga-fme.0 x.gbs force " "port"
offers "fpgactl pr fpga-fme.0 x.gbs port " ""
offers "fpgactl perf 0 -- " ""
offers "fpgactl me" "metrics"
offers "fpgactl metrics --" "--output --json --pretty --help"
offers "fpgactl metrics --output $T/b" "$T/bus"
offers "fpgactl metrics -o $T/b" "$T/bus"
offers "fpgactl metrics --output x " ""
offers "fpgactl cd" "cdi"
offers "fpgactl cdi --" "--output --json --pretty --help"
offers "fpgactl cdi --output $T/b" "$T/bus"
offers "fpgactl cdi -o $T/b" "$T/bus"
offers "fpgactl cdi --output x " ""

echo "# completion: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
