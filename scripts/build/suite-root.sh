#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A minimal Debian root of another suite, with the headers of the kernels
# that suite ships and the compiler they were built with, for the build
# matrix: 7.x headers need a newer glibc and gcc than bookworm has, so
# they are built inside a root of their own suite (chroot), never on the
# host, and nothing is installed into the host.
#
#   bookworm      Debian 12's 6.1 (its security updates), generic, rt,
#                 cloud: the 6.1 line on a trixie host
#   trixie        Debian 13: its 6.12 and trixie-backports' 7.x, generic,
#                 rt, cloud
#   sid           the newest kernel, generic, rt, cloud
#   experimental  a sid root with experimental's kernel (make kernels-newest)
#
# The root is made once with debootstrap and cached in
# ~/.cache/fpga-suite/roots/SUITE-KEY (KEY: a hash of what it holds, the
# lists below and LAYOUT, which a change to how a root is made bumps);
# once a day its headers metapackages are brought up to date, so the
# matrix follows Debian's updates.
#
# Prints the root's path; ROOT/kernels lists its kernel releases, one per
# line, in the order above; ROOT/kernel-suites the same with the suite
# each comes from ("KVER SUITE").  SUITE_ROOT_REFRESH=1 brings the headers
# up to date whatever their age.  With --run, runs COMMAND in the root instead
# (in a mount namespace of its own, with /proc).  With --image, unpacks
# the image of kernel KVER into the root's images/KVER (for the VM) and
# prints the path of its vmlinuz.
#
# usage: suite-root.sh SUITE
#        suite-root.sh --run SUITE COMMAND...
#        suite-root.sh --image SUITE KVER
set -eu

mode=root
case "${1:-}" in
--run) mode=run; shift ;;
--image) mode=image; shift ;;
esac
[ $# -ge 1 ] || { echo "usage: $0 [--run|--image] trixie|sid [COMMAND...|KVER]" >&2; exit 2; }
suite=$1
shift
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
LAYOUT=1
FLAVOURS="amd64 rt-amd64 cloud-amd64"
TOOLS="build-essential bc kmod sparse flex bison libelf-dev libssl-dev cpio"

# base: the suite debootstrap makes the root of; extra_suites: the other
# archives its apt reads, as an installed machine of that release does
# (its updates and security archive: a release's kernel is updated there)
# and where else its kernels come from; kernel_suites: where its kernels
# come from (the base's is the newest of base, updates and security);
# target: apt's target release for their headers (experimental's need its
# own compiler and kbuild)
target=""
case "$suite" in
bookworm)
	base=bookworm; extra_suites="bookworm-updates bookworm-security"
	kernel_suites=bookworm ;;
trixie)
	base=trixie
	extra_suites="trixie-updates trixie-security trixie-backports"
	kernel_suites="trixie trixie-backports" ;;
sid) base=sid; extra_suites=""; kernel_suites=sid ;;
experimental)
	base=sid; extra_suites=experimental; kernel_suites=experimental
	target=experimental ;;
*) echo "suite-root.sh: no root for suite '$suite' (bookworm, trixie, sid, experimental)" >&2; exit 2 ;;
esac

cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
key=$(echo "$LAYOUT $suite $extra_suites $FLAVOURS $TOOLS" | sha256sum | cut -c1-12)
root=$cache/roots/$suite-$key

log() { echo "suite-root: $*" >&2; }

# apt in the root, its output in ROOT/setup.log (the tail on failure)
apt_in_root()
{
	in_root "$@" >> "$root/setup.log" 2>&1 || {
		log "$* failed in the $suite root ($root/setup.log):"
		tail -n 15 "$root/setup.log" >&2
		exit 1
	}
}

# Run in the root, in a mount namespace of its own with /proc mounted
in_root()
{
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount -t proc proc "$1/proc" && shift && chroot "$@"' \
		sh "$root" "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive \
		LC_ALL=C.UTF-8 "$@"
}

# The kernel release the headers metapackage $1 depends on in suite $2
# (the base suite's: apt's candidate, from it, its updates or its security
# archive)
kver_in()
{
	if [ "$2" = "$base" ]; then
		set -- "$1"
	else
		set -- -t "$2" "$1"
	fi
	in_root apt-cache depends "$@" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\([0-9][^ ]*\)$/\1/p' | head -n 1
}

# The headers of every flavour of every suite; the list of kernels
install_headers()
{
	apt_in_root apt-get update -q
	if [ -z "$target" ]; then
		pkgs=""
		for f in $FLAVOURS; do
			pkgs="$pkgs linux-headers-$f"
		done
		# shellcheck disable=SC2086
		apt_in_root apt-get install -y -q --no-install-recommends $pkgs
	fi
	: > "$root/kernels.tmp"
	for s in $kernel_suites; do
		for f in $FLAVOURS; do
			kver=$(kver_in "linux-headers-$f" "$s")
			[ -n "$kver" ] || { log "$s has no linux-headers-$f"; exit 1; }
			echo "$kver $s" >> "$root/kernels.tmp"
		done
	done
	# shellcheck disable=SC2046
	apt_in_root apt-get install -y -q --no-install-recommends \
		${target:+-t "$target"} \
		$(sed 's/^\([^ ]*\) .*/linux-headers-\1/' "$root/kernels.tmp")
	checker_stand_ins
	if [ "$base" = trixie ]; then
		newer_sparse
	fi
	mv "$root/kernels.tmp" "$root/kernel-suites"
	cut -d' ' -f1 "$root/kernel-suites" > "$root/kernels"
	touch "$root/.refreshed"
}

# Debian's 7.x kbuild lacks scripts/checker-valid.sh, without which C=1
# silently runs no sparse.  Stand in for it where it is missing, with the
# test that matters to those headers: the checker must know
# __typeof_unqual__, which bookworm's and trixie's sparse (0.6.4) do not
# (7.x's headers use it)
checker_stand_ins()
{
	for common in "$root"/usr/src/linux-headers-*-common; do
		valid=$common/scripts/checker-valid.sh
		[ -e "$valid" ] || ! grep -qs checker-valid.sh "$common/Makefile" &&
			continue
		cat > "$valid" <<'EOF'
#!/bin/sh
# fpga-suite's stand-in (scripts/build/suite-root.sh): 1 if the checker,
# with these flags, takes what these headers use
out=$(printf 'int a;\n__typeof_unqual__(a) b;\n' | "$@" - 2>&1) &&
	! echo "$out" | grep -q error && echo 1
EOF
		chmod +x "$valid"
	done
}

# sid's sparse (0.6.5), unpacked into ROOT/opt/sparse (not installed: it
# would pull sid's compiler in), for the kernels whose headers 0.6.4 cannot
# read; ROOT/checker names it
newer_sparse()
{
	echo "deb $mirror sid main" > "$root/etc/apt/sources.list.d/sid.list"
	printf 'Package: *\nPin: release n=sid\nPin-Priority: 1\n' \
		> "$root/etc/apt/preferences.d/sid"
	apt_in_root apt-get update -q
	rm -rf "$root/opt/sparse" "$root/tmp/sparse-deb"
	mkdir -p "$root/tmp/sparse-deb"
	apt_in_root sh -c 'cd /tmp/sparse-deb && apt-get download sparse/sid &&
		dpkg-deb -x sparse_*.deb /opt/sparse'
	rm -rf "$root/tmp/sparse-deb"
	echo /opt/sparse/usr/bin/sparse > "$root/checker"
}

if [ ! -e "$root/.complete" ]; then
	command -v debootstrap > /dev/null ||
		{ log "debootstrap missing (make deps)"; exit 1; }
	log "making the $suite root in $root (a few minutes, once)"
	rm -rf "$root.tmp" "$root"
	mkdir -p "$(dirname "$root")"
	debootstrap --variant=minbase --include="$(echo "$TOOLS" | tr ' ' ,)" \
		"$base" "$root.tmp" "$mirror" > "$root.tmp.log" 2>&1 ||
		{ log "debootstrap failed ($root.tmp.log)"; tail -5 "$root.tmp.log" >&2; exit 1; }
	for s in $extra_suites; do
		case "$s" in
		*-security) echo "deb ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} $s main" ;;
		*) echo "deb $mirror $s main" ;;
		esac > "$root.tmp/etc/apt/sources.list.d/$s.list"
	done
	# A mirror's sid may lag behind its Release file's validity
	echo 'Acquire::Check-Valid-Until "false";' \
		> "$root.tmp/etc/apt/apt.conf.d/99fpga-suite"
	mv "$root.tmp" "$root"
	# 6.12's headers pull its image in, whose initramfs nobody boots
	apt_in_root dpkg-divert --local --rename --add /usr/sbin/update-initramfs
	ln -s /bin/true "$root/usr/sbin/update-initramfs"
	rm -f "$root.tmp.log"
	install_headers
	touch "$root/.complete"
elif [ "$mode" = root ] && { [ "${SUITE_ROOT_REFRESH:-0}" = 1 ] ||
     [ -z "$(find "$root/.refreshed" -mmin -1440 2>/dev/null)" ] ||
     [ ! -e "$root/kernel-suites" ]; }; then
	log "bringing the $suite root's headers up to date"
	install_headers
fi

# The image of kernel $1 unpacked (not installed) into ROOT/images/KVER:
# linux-image-KVER, or from 7.x on linux-binary- (vmlinuz),
# linux-modules- and linux-base-KVER (modules.order, modules.builtin); its
# modules.dep made by the root's depmod.  Prints
# the path of vmlinuz; the module tree is ROOT/images/KVER/lib/modules.
unpack_image()
{
	kver=$1
	dir=/images/$kver
	if [ ! -e "$root$dir/.complete" ]; then
		log "unpacking the image of $kver in the $suite root"
		rm -rf "$root$dir"
		mkdir -p "$root$dir/debs"
		if in_root apt-cache show "linux-binary-$kver" > /dev/null 2>&1; then
			pkgs="linux-binary-$kver linux-modules-$kver linux-base-$kver"
		else
			pkgs="linux-image-$kver"
		fi
		# shellcheck disable=SC2086
		apt_in_root sh -c "cd $dir/debs && apt-get download $pkgs &&
			for d in *.deb; do dpkg-deb -x \$d $dir; done"
		rm -rf "$root$dir/debs"
		# merged /usr: the tools look in lib/modules
		[ -e "$root$dir/lib" ] || ln -s usr/lib "$root$dir/lib"
		apt_in_root depmod -b "$dir" "$kver"
		touch "$root$dir/.complete"
	fi
	for f in "$root$dir/boot/vmlinuz-$kver" "$root$dir/usr/lib/modules/$kver/vmlinuz"; do
		[ -e "$f" ] && { echo "$f"; return 0; }
	done
	log "no vmlinuz in $root$dir"
	return 1
}

case "$mode" in
run) in_root "$@" ;;
image) unpack_image "$1" ;;
*) echo "$root" ;;
esac
