// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga over a port bound to uio_fpga: the same port API, through the
 * UIO device (/dev/uioX) and sysfs instead of /dev/fpga-port.N's ioctls.
 *
 *   region 0          UIO map0 ("afu"), at mmap offset 0
 *   reset             the port's reset attribute in sysfs
 *   user interrupt 0  UIO's interrupt: write 1 to enable, read the count
 *   DMA               no mapping of user memory: the kernel's buffers,
 *                     UIO maps 2.. ("dma0"..), addr = device address
 *
 * Switching drivers (fpga_port_bind) goes through driver_override.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fpga.h"
#include "fpga-int.h"
#include "uio.h"

int fpga_uio_name(const char *port_sysfs, char *out, size_t size)
{
	char dir[512];
	struct dirent *de;
	DIR *d;

	if (fpga_pathf(dir, sizeof(dir), "%s/uio", port_sysfs))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "uio", 3)) {
			fpga_strcpy(out, size, de->d_name);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -ENOENT;
}

static int fpga_uio_map_attr(struct fpga_uio *u, unsigned int i,
			     const char *attr, uint64_t *v)
{
	char path[256];

	if (fpga_pathf(path, sizeof(path), "%s/class/uio/%s/maps/map%u/%s",
		       fpga_sysfs_root(), u->name, i, attr))
		return -ENAMETOOLONG;
	return fpga_sysfs_read_u64(path, v);
}

int fpga_uio_open(const struct fpga_port_ref *ref, struct fpga_uio **out)
{
	struct fpga_uio *u;
	char path[320];
	unsigned int i;
	int ret;

	*out = NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return fpga_set_error(ENOMEM, "out of memory");
	u->fd = -1;
	ret = fpga_uio_name(ref->sysfs, u->name, sizeof(u->name));
	if (ret) {
		ret = fpga_set_error(-ret, "fpga-port.%d is bound to uio_fpga but has no UIO device (%s)",
				     ref->id, strerror(-ret));
		goto err_free;
	}
	for (i = 0; i < FPGA_UIO_MAX_MAPS; i++) {
		if (fpga_uio_map_attr(u, i, "addr", &u->maps[i].addr) ||
		    fpga_uio_map_attr(u, i, "size", &u->maps[i].size))
			break;
	}
	u->num_maps = i;
	if (u->num_maps <= FPGA_UIO_MAP_AFU) {
		ret = fpga_set_error(ENODEV, "%s: no AFU map", u->name);
		goto err_free;
	}
	snprintf(path, sizeof(path), "/dev/%s", u->name);
	u->fd = open(path, O_RDWR | O_CLOEXEC);
	if (u->fd < 0) {
		ret = fpga_set_error(errno, "%s: %s%s", path, strerror(errno),
				     errno == EACCES ? " (run as root)" : "");
		goto err_free;
	}
	*out = u;
	return 0;

err_free:
	free(u);
	return ret;
}

void fpga_uio_close(struct fpga_uio *u)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!u)
		return;
	for (unsigned int i = 0; i < u->num_maps; i++)
		if (u->maps[i].va)
			munmap(u->maps[i].va, (u->maps[i].size + page - 1) &
			       ~(uint64_t)(page - 1));
	if (u->fd >= 0)
		close(u->fd);
	free(u);
}

int fpga_uio_reset(const struct fpga_port_ref *ref)
{
	char path[320];
	int ret;

	snprintf(path, sizeof(path), "%s/reset", ref->sysfs);
	ret = fpga_sysfs_write(path, "1");
	if (ret == -ETIMEDOUT)
		return fpga_set_error(ETIMEDOUT, "fpga-port.%d: reset: the port did not acknowledge the reset (%s)",
				      ref->id, strerror(ETIMEDOUT));
	return ret;
}

int fpga_uio_dma_buffer(struct fpga_uio *u, unsigned int k, void **va,
			uint64_t *iova, uint64_t *size)
{
	unsigned int i = FPGA_UIO_MAP_DMA0 + k;
	long page = sysconf(_SC_PAGESIZE);
	struct fpga_uio_map *m = &u->maps[i];

	if (i >= u->num_maps)
		return fpga_set_error(ENOSPC, "%s: no DMA buffer %u (uio_fpga.dma_buffers is %d)",
				      u->name, k,
				      u->num_maps > FPGA_UIO_MAP_DMA0 ?
				      (int)(u->num_maps - FPGA_UIO_MAP_DMA0) : 0);
	if (!m->va) {
		void *p = mmap(NULL, m->size, PROT_READ | PROT_WRITE,
			       MAP_SHARED, u->fd, (off_t)i * page);

		if (p == MAP_FAILED)
			return fpga_set_error(errno, "%s: mmap of DMA buffer %u: %s",
					      u->name, k, strerror(errno));
		m->va = p;
	}
	*va = m->va;
	*iova = m->addr;
	*size = m->size;
	return 0;
}

int fpga_uio_irq_wait(struct fpga_uio *u, int timeout_ms, uint64_t *count)
{
	struct pollfd pfd = { .fd = u->fd, .events = POLLIN };
	char path[256];
	uint64_t before = 0;
	int32_t on = 1, n;
	int ret;

	/* The total so far, so that we report what came while we waited */
	if (fpga_pathf(path, sizeof(path), "%s/class/uio/%s/event",
		       fpga_sysfs_root(), u->name) ||
	    fpga_sysfs_read_u64(path, &before))
		return -fpga_errno();
	/*
	 * An interrupt that came after open() but before that read is in
	 * @before yet still makes the fd readable: consume it now, or poll()
	 * would return at once and we would report a count of 0.
	 */
	if (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN)) {
		if (read(u->fd, &n, sizeof(n)) != sizeof(n))
			return fpga_set_error(errno, "/dev/%s: read: %s",
					      u->name, strerror(errno));
		before = (uint32_t)n;
	}
	/* uio_fpga's handler leaves the irq disabled: enable it */
	if (write(u->fd, &on, sizeof(on)) != sizeof(on))
		return fpga_set_error(errno, "/dev/%s: enabling the interrupt: %s",
				      u->name, strerror(errno));
	do {
		ret = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return fpga_set_error(errno, "poll: %s", strerror(errno));
	if (!ret)
		return fpga_set_error(ETIMEDOUT, "no interrupt within %d ms",
				      timeout_ms);
	if (read(u->fd, &n, sizeof(n)) != sizeof(n))
		return fpga_set_error(errno, "/dev/%s: read: %s", u->name,
				      strerror(errno));
	*count = (uint32_t)n - (uint32_t)before;
	return 0;
}

/* modprobe @module, quietly; 0 if it ran and succeeded */
static int fpga_modprobe(const char *module)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("modprobe", "modprobe", "-q", module, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -ENOENT;
}

int fpga_port_bind(const struct fpga_port_ref *ref, const char *driver)
{
	char path[512], name[32], cur[64];
	const char *root = fpga_sysfs_root();
	struct stat st;
	int ret;

	snprintf(name, sizeof(name), FPGA_PORT_PREFIX "%d", ref->id);
	if (stat(ref->sysfs, &st))
		return fpga_set_error(ENOENT, "%s: no such port (see 'fpgactl list')",
				      name);
	snprintf(path, sizeof(path), "%s/bus/fpga_dfl/drivers/%s", root, driver);
	if (stat(path, &st) && (fpga_modprobe(driver) || stat(path, &st)))
		return fpga_set_error(ENOENT, "driver %s is not loaded (modprobe %s)",
				      driver, driver);

	snprintf(path, sizeof(path), "%s/driver_override", ref->sysfs);
	ret = fpga_sysfs_write(path, driver);
	if (ret)
		return ret;
	ret = fpga_port_driver(ref, cur, sizeof(cur));
	if (ret)
		return ret;
	if (!strcmp(cur, driver))
		return 0;
	if (*cur) {
		snprintf(path, sizeof(path), "%s/driver/unbind", ref->sysfs);
		ret = fpga_sysfs_write(path, name);
		if (ret)
			return ret;
	}
	snprintf(path, sizeof(path), "%s/bus/fpga_dfl/drivers_probe", root);
	ret = fpga_sysfs_write(path, name);
	if (ret)
		return ret;
	ret = fpga_port_driver(ref, cur, sizeof(cur));
	if (!ret && strcmp(cur, driver))
		return fpga_set_error(EIO, "%s: %s did not bind (see dmesg)",
				      name, driver);
	return ret;
}

int fpga_port_driver(const struct fpga_port_ref *ref, char *buf, size_t size)
{
	char path[320], link[512];
	const char *slash;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/driver", ref->sysfs);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		buf[0] = '\0';
		if (errno == ENOENT)
			return 0;
		return fpga_set_error(errno, "%s: %s", path, strerror(errno));
	}
	link[n] = '\0';
	slash = strrchr(link, '/');
	fpga_strcpy(buf, size, slash ? slash + 1 : link);
	return 0;
}
