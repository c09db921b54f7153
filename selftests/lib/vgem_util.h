/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vgem_ext (and vgem) from a selftest: find a DRM node by driver name,
 * create, export, import and map buffers, attach fences, poll dma-bufs,
 * and map dma-bufs for the FPGA port (<linux/fpga-suite.h>).
 */
#ifndef _FPGA_SELFTEST_VGEM_UTIL_H
#define _FPGA_SELFTEST_VGEM_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>

#include <drm.h>
#include <drm_mode.h>
#include <drm/vgem_ext_drm.h>
#include <linux/fpga-suite.h>

#include "nlb_util.h"	/* now_ms() */

/* Open the DRM node of driver @name whose file name starts with @prefix */
static inline int drm_open_driver(const char *name, const char *prefix)
{
	struct dirent *de;
	char path[300], got[64];
	DIR *d;
	int fd;

	d = opendir("/dev/dri");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct drm_version v = { .name = got, .name_len = sizeof(got) - 1 };

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(got, 0, sizeof(got));
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(got, name)) {
			closedir(d);
			return fd;
		}
		close(fd);
	}
	closedir(d);
	return -ENOENT;
}

static inline int drm_ioctl_err(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

/* BO_CREATE; 0 or -errno, handle and mmap offset in *c */
static inline int vgem_ext_create(int fd, uint64_t size, uint32_t flags,
				  struct drm_vgem_ext_bo_create *c)
{
	memset(c, 0, sizeof(*c));
	c->size = size;
	c->flags = flags;
	return drm_ioctl_err(fd, DRM_IOCTL_VGEM_EXT_BO_CREATE, c);
}

static inline int vgem_ext_info(int fd, uint32_t handle,
				struct drm_vgem_ext_bo_info *i)
{
	memset(i, 0, sizeof(*i));
	i->handle = handle;
	return drm_ioctl_err(fd, DRM_IOCTL_VGEM_EXT_BO_INFO, i);
}

/* Attach a fence; its id, or -errno */
static inline int vgem_ext_fence(int fd, uint32_t handle, uint32_t flags)
{
	struct drm_vgem_ext_fence_attach a = { .handle = handle, .flags = flags };
	int ret = drm_ioctl_err(fd, DRM_IOCTL_VGEM_EXT_FENCE_ATTACH, &a);

	return ret ? ret : (int)a.out_fence;
}

static inline int vgem_ext_signal(int fd, uint32_t fence)
{
	struct drm_vgem_ext_fence_signal s = { .fence = fence };

	return drm_ioctl_err(fd, DRM_IOCTL_VGEM_EXT_FENCE_SIGNAL, &s);
}

static inline int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return drm_ioctl_err(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/* Dumb buffer of @size bytes (width = size / 4, 32 bpp, 1 line) */
static inline int dumb_create(int fd, uint32_t size, uint32_t *handle,
			      uint64_t *offset)
{
	struct drm_mode_create_dumb c = { .width = size / 4, .height = 1,
					  .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };
	int ret;

	ret = drm_ioctl_err(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	if (ret)
		return ret;
	*handle = m.handle = c.handle;
	ret = drm_ioctl_err(fd, DRM_IOCTL_MODE_MAP_DUMB, &m);
	*offset = m.offset;
	return ret;
}

/* PRIME export: the dma-buf fd, or -errno */
static inline int prime_export(int fd, uint32_t handle)
{
	struct drm_prime_handle p = { .handle = handle,
				      .flags = DRM_CLOEXEC | DRM_RDWR };
	int ret = drm_ioctl_err(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);

	return ret ? ret : p.fd;
}

/* PRIME export without DRM_RDWR: a dma-buf its holders may only read */
static inline int prime_export_ro(int fd, uint32_t handle)
{
	struct drm_prime_handle p = { .handle = handle, .flags = DRM_CLOEXEC };
	int ret = drm_ioctl_err(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);

	return ret ? ret : p.fd;
}

static inline int prime_import(int fd, int dmabuf, uint32_t *handle)
{
	struct drm_prime_handle p = { .fd = dmabuf };
	int ret = drm_ioctl_err(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);

	*handle = p.handle;
	return ret;
}

static inline void *map_rw(int fd, uint64_t offset, size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)offset);
}

/*
 * The poll() events of @dmabuf among POLLIN | POLLOUT, after one poll()
 * of up to @timeout_ms.  Only for "what is ready now" and "nothing
 * happens": a poll() that waits may wake with just one of the two (see
 * dmabuf_wait()).
 */
static inline int dmabuf_poll(int dmabuf, int timeout_ms)
{
	struct pollfd p = { .fd = dmabuf, .events = POLLIN | POLLOUT };

	if (poll(&p, 1, timeout_ms) < 0)
		return -errno;
	return p.revents;
}

/*
 * Wait up to @timeout_ms for @dmabuf to be idle (POLLIN | POLLOUT); the
 * events seen last.  dma_buf_poll() has one callback per direction and
 * a fence runs them one after the other: a poller woken by the first
 * can look before the second has run and see only POLLOUT, so poll again.
 */
static inline int dmabuf_wait(int dmabuf, int timeout_ms)
{
	double end = now_ms() + timeout_ms;
	int events, left = timeout_ms;

	for (;;) {
		events = dmabuf_poll(dmabuf, left);
		left = (int)(end - now_ms());
		if (events < 0 || events == (POLLIN | POLLOUT) || left <= 0)
			return events;
	}
}

/*
 * A sync_file holding the fences on @dmabuf now (all of them); the fd or
 * -errno.  Signalled fences are left out, so take it while they pend.
 */
static inline int dmabuf_sync_file(int dmabuf)
{
	struct dma_buf_export_sync_file e = { .flags = DMA_BUF_SYNC_WRITE,
					      .fd = -1 };

	return ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e) ? -errno :
								   e.fd;
}

/*
 * Status of a sync_file, which is closed: 1 signalled, 0 pending, < 0 the
 * error its fence signalled with; -10000 - errno if it cannot be read.
 */
static inline int sync_file_status(int sync)
{
	struct sync_file_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	ret = ioctl(sync, SYNC_IOC_FILE_INFO, &info) ? -10000 - errno :
						       info.status;
	close(sync);
	return ret;
}

/* FPGA_PORT_DMABUF_MAP; 0 or -errno */
static inline int port_dmabuf_map(int port, int dmabuf, uint32_t flags,
				  uint64_t *iova, uint64_t *len)
{
	struct fpga_port_dmabuf_map m = { .argsz = sizeof(m), .flags = flags,
					  .fd = dmabuf };
	int ret = drm_ioctl_err(port, FPGA_PORT_DMABUF_MAP, &m);

	*iova = m.iova;
	if (len)
		*len = m.length;
	return ret;
}

static inline int port_dmabuf_fence(int port, uint64_t iova, uint32_t flags,
				    uint32_t vector, uint32_t timeout_ms)
{
	struct fpga_port_dmabuf_fence f = {
		.argsz = sizeof(f), .flags = flags, .iova = iova,
		.vector = vector, .timeout_ms = timeout_ms,
	};

	return drm_ioctl_err(port, FPGA_PORT_DMABUF_FENCE, &f);
}

#endif /* _FPGA_SELFTEST_VGEM_UTIL_H */
