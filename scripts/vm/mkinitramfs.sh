#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the test VM's initramfs: busybox-static, the real kmod tools, the
# subset of Debian's module tree our modules need (resolved from
# modules.dep, with our DKMS-installed modules in updates/dkms), perf from
# linux-perf, our user tools and the installed kselftests.  Every binary
# comes with the shared libraries ldd lists.
#
# usage: mkinitramfs.sh KVER OUTPUT STAGE_DIR...
#   each STAGE_DIR is copied over the root (e.g. a DESTDIR of make install)
#   MODULES_DIR=DIR: take our modules from a build tree instead of the DKMS
#   install (quick iteration without touching the host's DKMS state)
#   MODROOT=DIR: the kernel's module tree is DIR/lib/modules/KVER (a
#   kernel of our own, e.g. the debug kernel's modules_install, or one
#   unpacked in a suite's root) rather than the host's /lib/modules/KVER
#   MODULES_BUILT_AS=DIR: where MODULES_DIR was when it was built (a build
#   in a suite's root, whose modules.order names absolute paths there)
#   STRIP_MODULES=1: MODULES_DIR's modules without their debug sections,
#   as DKMS installs them (strip -g): the benchmarks' module load times
#   then read the files a user's system loads
set -eu

[ $# -ge 2 ] || { echo "usage: $0 KVER OUTPUT [STAGE_DIR...]" >&2; exit 2; }
kver=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
modroot=${MODROOT:-}
moddir=/lib/modules/$kver
hostmoddir=$modroot$moddir

# Debian modules the tests use directly, besides what ours depend on.
EXTRA_MODULES="uio drm drm_shmem_helper vgem configfs vfio_iommu_type1"

[ -d "$hostmoddir" ] || { echo "$0: $hostmoddir missing (make deps)" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/bin "$root"/sbin "$root"/usr/bin "$root"/usr/sbin \
	"$root"/lib "$root"/lib64 "$root"/proc "$root"/sys "$root"/dev \
	"$root"/tmp "$root"/run "$root"/etc "$root"/root "$root"/var/tmp \
	"$root"/usr/share/fpga-suite

cp /bin/busybox "$root"/bin/busybox
# Relative links, so that nothing on the host is reachable through them.
for applet in $(/bin/busybox --list-full); do
	[ -e "$root/$applet" ] ||
		ln -s "$(echo "$applet" | sed 's|[^/]*/|../|g; s|[^/]*$||')bin/busybox" \
			"$root/$applet"
done

# Copy the shared libraries an ELF file needs, at their own paths.
copy_libs()
{
	ldd "$1" 2>/dev/null | awk '/=> \// { print $3 } /^\t\// { print $1 }' |
	while read -r lib; do
		if [ ! -e "$root$lib" ]; then
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		fi
	done
}

copy_elf()
{
	mkdir -p "$root$(dirname "$1")"
	cp -L --remove-destination "$1" "$root$1"
	copy_libs "$1"
}

# /bin/sh is dash: busybox's shell runs its own applets (modprobe, ...)
# before anything in PATH, and the tests must use the real kmod tools.
copy_elf /usr/bin/dash
ln -sf ../usr/bin/dash "$root/bin/sh"

copy_elf /usr/bin/kmod
for tool in modprobe insmod rmmod lsmod depmod modinfo; do
	ln -sf ../usr/bin/kmod "$root/sbin/$tool"
	rm -f "$root/usr/sbin/$tool" "$root/bin/$tool" "$root/usr/bin/$tool"
done
perf=$(readlink -f /usr/bin/perf)
copy_elf "$perf"
[ "$perf" = /usr/bin/perf ] || ln -sf "$(basename "$perf")" "$root/usr/bin/perf"
# lm-sensors' library, which sensors_test loads to see the FME's hwmon
# devices as "sensors" does, if the host has it (libsensors5)
for lib in /usr/lib/*/libsensors.so.5; do
	[ ! -e "$lib" ] || copy_elf "$lib"
done

# Modules: ours from the DKMS install path, and the closure of their
# dependencies and of EXTRA_MODULES in Debian's tree.
mkdir -p "$root$moddir"
cp "$hostmoddir"/modules.order "$hostmoddir"/modules.builtin \
	"$hostmoddir"/modules.builtin.modinfo "$root$moddir"/
ours=""
# What the last build of MODULES_DIR made: kbuild's modules.order (.ko or
# .o, absolute or relative by kernel version; absolute as the build saw
# them: MODULES_BUILT_AS, if set, is where MODULES_DIR was then, e.g. in a
# suite's root), not every .ko in the tree, where a module whose folder
# moved leaves its old build behind
built_modules()
{
	[ -r "$MODULES_DIR/modules.order" ] || {
		find "$MODULES_DIR" -name '*.ko'
		return
	}
	sed -e 's/\.ko$//' -e 's/\.o$//' "$MODULES_DIR/modules.order" |
	while read -r m; do
		case "$m" in
		/*) [ -z "${MODULES_BUILT_AS:-}" ] ||
			m=$MODULES_DIR${m#"$MODULES_BUILT_AS"}
		    echo "$m.ko" ;;
		*) echo "$MODULES_DIR/$m.ko" ;;
		esac
	done
}
if [ -n "${MODULES_DIR:-}" ]; then
	# KUnit modules (debug kernel only) are not part of the DKMS set
	mkdir -p "$root$moddir/updates/dkms" "$root$moddir/updates/kunit"
	built_modules | while read -r ko; do
		case "$ko" in
		*_kunit.ko) cp "$ko" "$root$moddir/updates/kunit/" ;;
		*) cp "$ko" "$root$moddir/updates/dkms/"
		   [ "${STRIP_MODULES:-0}" != 1 ] ||
			strip -g "$root$moddir/updates/dkms/${ko##*/}" ;;
		esac
	done
	# What they need of the kernel's own modules (fpga_region where the
	# kernel has it), not each other (the tree holds its own build of them)
	deps=$(built_modules | xargs modinfo -F depends | tr ',' '\n' |
		sort -u | grep -vxF "$(built_modules | xargs -n1 basename |
		sed 's/\.ko$//')")
elif [ -d "$hostmoddir/updates/dkms" ]; then
	ours=$(find "$hostmoddir/updates/dkms" -name '*.ko*' -exec basename {} \; |
		sed 's/\.ko.*//')
fi
for mod in $ours ${deps:-} $EXTRA_MODULES; do
	modprobe ${modroot:+-d "$modroot"} -S "$kver" --show-depends "$mod" \
		2>/dev/null | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
	guest=${ko#"$modroot"}
	mkdir -p "$root$(dirname "$guest")"
	cp "$ko" "$root$guest"
done

# Our tools, libraries, tests (each stage dir laid over the root).
for stage in "$@"; do
	[ -d "$stage" ] || continue
	# --remove-destination: never write through a busybox symlink
	cp -a --remove-destination "$stage"/. "$root"/
	find "$stage" -type f -perm -u+x | while read -r f; do
		if head -c 4 "$f" | grep -q ELF; then
			copy_libs "$f"
		fi
	done
done

cp --remove-destination "$here"/init "$root"/init
cp --remove-destination "$here"/timeout "$root"/usr/bin/timeout
chmod +x "$root"/init "$root"/usr/bin/timeout

(cd "$root" && find . | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs: $out ($(du -h "$out" | cut -f1))"
