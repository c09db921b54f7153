/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A port bound to uio_fpga, from a selftest: switching the port's driver,
 * finding its UIO device and reading the maps UIO describes in sysfs.
 */
#ifndef _FPGA_SELFTEST_UIO_UTIL_H
#define _FPGA_SELFTEST_UIO_UTIL_H

#include <sys/mman.h>

#include "sysfs_util.h"

#define DFL_BUS			"/sys/bus/fpga_dfl"
#define UIO_MAP_AFU		0
#define UIO_MAP_HDR		1
#define UIO_MAP_DMA0		2
#define UIO_MAX_MAPS		5

/* Bind port @num to @drv ("uio_fpga" or "fpga_port"); 0 or -errno */
static inline int port_bind(int num, const char *drv)
{
	char path[256], name[64];
	int ret;

	snprintf(name, sizeof(name), "fpga-port.%d", num);
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/driver_override",
		 name);
	ret = sysfs_write(path, drv);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/driver/unbind", name);
	if (path_exists(path)) {
		ret = sysfs_write(path, name);
		if (ret)
			return ret;
	}
	return sysfs_write(DFL_BUS "/drivers_probe", name);
}

/* Name of the driver port @num is bound to into @drv ("" if none) */
static inline int port_driver(int num, char *drv, size_t size)
{
	char path[256], link[256];
	ssize_t n;
	char *slash;

	snprintf(path, sizeof(path), DFL_BUS "/devices/fpga-port.%d/driver",
		 num);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		drv[0] = '\0';
		return errno == ENOENT ? 0 : -errno;
	}
	link[n] = '\0';
	slash = strrchr(link, '/');
	snprintf(drv, size, "%.40s", slash ? slash + 1 : link);
	return 0;
}

/* The UIO device of port @num ("uio3") into @out; 0 or -ENOENT */
static inline int port_uio(int num, char *out, size_t size)
{
	char dir[128];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), DFL_BUS "/devices/fpga-port.%d/uio", num);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "uio", 3)) {
			snprintf(out, size, "%.16s", de->d_name);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -ENOENT;
}

/* /sys/class/uio/@uio/maps/map@i/@attr: a string, or a number */
static inline int uio_map_attr(const char *uio, int i, const char *attr,
			       char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/uio/%s/maps/map%d/%s", uio,
		 i, attr);
	return sysfs_read(path, buf, size);
}

static inline unsigned long long uio_map_num(const char *uio, int i,
					     const char *attr)
{
	char buf[64];

	if (uio_map_attr(uio, i, attr, buf, sizeof(buf)))
		return ~0ULL;
	return strtoull(buf, NULL, 0);
}

/* mmap UIO map @i whole (MAP_SHARED); MAP_FAILED on error */
static inline void *uio_map(int fd, const char *uio, int i, int prot)
{
	unsigned long long size = uio_map_num(uio, i, "size");
	long page = sysconf(_SC_PAGESIZE);

	size = (size + page - 1) & ~(unsigned long long)(page - 1);
	return mmap(NULL, size, prot, MAP_SHARED, fd, (off_t)i * page);
}

/* The UIO interrupt: re-enable (1) or disable (0); 0 or -errno */
static inline int uio_irq_control(int fd, int32_t on)
{
	return write(fd, &on, sizeof(on)) == sizeof(on) ? 0 : -errno;
}

#endif /* _FPGA_SELFTEST_UIO_UTIL_H */
