# SPDX-License-Identifier: GPL-2.0-only
# The root directory of a container in the VM, for the container tests
# and make demo (sourced): nothing to download, a few mounts.

# container_cgroup: cgroup v2 mounted, where crun puts each container and
# its device filter (the VM's init mounts none)
container_cgroup()
{
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 cgroup2 /sys/fs/cgroup
}

# container_rootfs DIR UID FPGA_GID: DIR becomes a container's root: the
# VM's binaries and libraries bound read-only, its own /etc naming the
# user UID ("worker") and group fpga (FPGA_GID), a /out anyone may write
# (the host reads what the container leaves there)
container_rootfs()
{
	mkdir -p "$1/etc" "$1/tmp" "$1/out" "$1/dev" "$1/proc" "$1/sys" \
		"$1/run" || return 1
	for d in usr bin sbin lib lib64; do
		[ -d "/$d" ] || continue
		mkdir -p "$1/$d" &&
			mount --bind "/$d" "$1/$d" &&
			mount -o remount,bind,ro "$1/$d" || return 1
	done
	printf '%s\n' "root:x:0:0:root:/root:/bin/sh" \
		"worker:x:$2:$2:worker:/tmp:/bin/sh" > "$1/etc/passwd"
	printf '%s\n' "root:x:0:" "worker:x:$2:" "fpga:x:$3:worker" \
		> "$1/etc/group"
	chmod 1777 "$1/tmp" "$1/out"
}

# container_rootfs_remove DIR: its mounts undone (the files stay)
container_rootfs_remove()
{
	for d in usr bin sbin lib lib64; do
		umount "$1/$d" 2>/dev/null
	done
	return 0
}
