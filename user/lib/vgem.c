// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga: DRM buffers (vgem_ext, or any driver through PRIME) as DMA
 * buffers for the AFU, with libdrm.  See fpga_vgem.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm_mode.h>
#include <drm/vgem_ext_drm.h>
#include <linux/fpga-suite.h>

#include "fpga_vgem.h"

struct fpga_drm {
	int fd;
	char node[64];
};

static int fpga_drm_err(struct fpga_drm *drm, const char *what)
{
	int err = errno;

	return fpga_set_error(err, "%s: %s: %s", drm->node, what,
			      strerror(err));
}

/* Open @node if its driver is @driver; the fd, or -1 */
static int fpga_drm_try(const char *node, const char *driver)
{
	drmVersionPtr v;
	int fd, match;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	v = drmGetVersion(fd);
	match = v && v->name && !strcmp(v->name, driver);
	drmFreeVersion(v);
	if (!match) {
		close(fd);
		return -1;
	}
	return fd;
}

int fpga_drm_open(const char *driver, bool card, struct fpga_drm **out)
{
	static const char *const prefixes[] = { "renderD", "card" };
	struct fpga_drm *drm;
	struct dirent *de;
	DIR *d;

	drm = calloc(1, sizeof(*drm));
	if (!drm)
		return fpga_set_error(ENOMEM, "out of memory");
	drm->fd = -1;
	d = opendir("/dev/dri");
	for (size_t p = card ? 1 : 0; d && drm->fd < 0 && p < 2; p++) {
		rewinddir(d);
		while (drm->fd < 0 && (de = readdir(d))) {
			if (strncmp(de->d_name, prefixes[p],
				    strlen(prefixes[p])))
				continue;
			snprintf(drm->node, sizeof(drm->node), "/dev/dri/%.40s",
				 de->d_name);
			drm->fd = fpga_drm_try(drm->node, driver);
		}
	}
	if (d)
		closedir(d);
	if (drm->fd < 0) {
		free(drm);
		return fpga_set_error(ENODEV, "no DRM device of driver %s in /dev/dri (modprobe %s?)",
				      driver, driver);
	}
	*out = drm;
	return 0;
}

void fpga_drm_close(struct fpga_drm *drm)
{
	if (!drm)
		return;
	close(drm->fd);
	free(drm);
}

int fpga_drm_fd(const struct fpga_drm *drm)
{
	return drm->fd;
}

const char *fpga_drm_node(const struct fpga_drm *drm)
{
	return drm->node;
}

int fpga_drm_version(struct fpga_drm *drm, char *buf, size_t size)
{
	drmVersionPtr v = drmGetVersion(drm->fd);

	if (!v)
		return fpga_drm_err(drm, "DRM_IOCTL_VERSION");
	snprintf(buf, size, "%d.%d.%d %s", v->version_major,
		 v->version_minor, v->version_patchlevel,
		 v->date ? v->date : "");
	drmFreeVersion(v);
	return 0;
}

static void fpga_bo_init(struct fpga_bo *bo)
{
	memset(bo, 0, sizeof(*bo));
	bo->dmabuf = -1;
}

int fpga_bo_create(struct fpga_drm *drm, uint64_t size, uint32_t flags,
		   struct fpga_bo *bo)
{
	struct drm_vgem_ext_bo_create c = { .size = size, .flags = flags };

	fpga_bo_init(bo);
	if (drmIoctl(drm->fd, DRM_IOCTL_VGEM_EXT_BO_CREATE, &c)) {
		int err = errno;

		return fpga_set_error(err, "%s: buffer of %llu bytes (flags 0x%x): %s",
				      drm->node, (unsigned long long)size,
				      flags, strerror(err));
	}
	bo->handle = c.handle;
	bo->size = c.size;
	bo->offset = c.offset;
	bo->flags = flags;
	return 0;
}

int fpga_bo_create_dumb(struct fpga_drm *drm, uint64_t size,
			struct fpga_bo *bo)
{
	struct drm_mode_create_dumb c = { .height = 1, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };

	fpga_bo_init(bo);
	/* One line of 32-bit pixels; the core's sizes are 32 bits */
	if (!size || size > (1ULL << 32) - 4096)
		return fpga_set_error(EINVAL, "%s: dumb buffers hold 1 byte to 4 GiB - 4 KiB, not %llu",
				      drm->node, (unsigned long long)size);
	c.width = (uint32_t)((size + 3) / 4);
	if (drmIoctl(drm->fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		return fpga_drm_err(drm, "DRM_IOCTL_MODE_CREATE_DUMB");
	bo->handle = m.handle = c.handle;
	bo->size = c.size;
	if (drmIoctl(drm->fd, DRM_IOCTL_MODE_MAP_DUMB, &m)) {
		int ret = fpga_drm_err(drm, "DRM_IOCTL_MODE_MAP_DUMB");

		fpga_bo_free(drm, bo);
		return ret;
	}
	bo->offset = m.offset;
	return 0;
}

int fpga_bo_info(struct fpga_drm *drm, struct fpga_bo *bo)
{
	struct drm_vgem_ext_bo_info i = { .handle = bo->handle };

	if (drmIoctl(drm->fd, DRM_IOCTL_VGEM_EXT_BO_INFO, &i))
		return fpga_drm_err(drm, "buffer info");
	bo->size = i.size;
	bo->offset = i.offset;
	bo->flags = i.flags;
	return 0;
}

int fpga_bo_map(struct fpga_drm *drm, struct fpga_bo *bo)
{
	void *p;

	p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, drm->fd,
		 (off_t)bo->offset);
	if (p == MAP_FAILED)
		return fpga_drm_err(drm, "mmap of a buffer");
	bo->map = p;
	return 0;
}

int fpga_bo_export(struct fpga_drm *drm, struct fpga_bo *bo)
{
	if (drmPrimeHandleToFD(drm->fd, bo->handle, DRM_CLOEXEC | DRM_RDWR,
			       &bo->dmabuf)) {
		bo->dmabuf = -1;
		return fpga_drm_err(drm, "PRIME export");
	}
	return 0;
}

int fpga_bo_import(struct fpga_drm *drm, int dmabuf, struct fpga_bo *bo)
{
	off_t size;

	fpga_bo_init(bo);
	/* A dma-buf's size is its end; other files may say 0 */
	size = lseek(dmabuf, 0, SEEK_END);
	if (size <= 0) {
		int err = size < 0 ? errno : EINVAL;

		return fpga_set_error(err, "fd %d is not a dma-buf: %s", dmabuf,
				      strerror(err));
	}
	if (drmPrimeFDToHandle(drm->fd, dmabuf, &bo->handle))
		return fpga_drm_err(drm, "PRIME import");
	bo->size = (uint64_t)size;
	bo->dmabuf = fcntl(dmabuf, F_DUPFD_CLOEXEC, 3);
	if (bo->dmabuf < 0) {
		int ret = fpga_drm_err(drm, "dup of the dma-buf");

		fpga_bo_free(drm, bo);
		return ret;
	}
	return 0;
}

void fpga_bo_free(struct fpga_drm *drm, struct fpga_bo *bo)
{
	struct drm_gem_close c = { .handle = bo->handle };

	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->dmabuf >= 0)
		close(bo->dmabuf);
	if (bo->handle)
		drmIoctl(drm->fd, DRM_IOCTL_GEM_CLOSE, &c);
	fpga_bo_init(bo);
}

int fpga_dma_map_dmabuf(struct fpga_port *port, int dmabuf, uint32_t flags,
			uint64_t *iova, uint64_t *len)
{
	struct fpga_port_dmabuf_map m = {
		.argsz = sizeof(m), .flags = flags, .fd = dmabuf,
	};

	if (ioctl(fpga_port_fd(port), FPGA_PORT_DMABUF_MAP, &m)) {
		int err = errno;

		return fpga_set_error(err, "%s: DMA map of dma-buf fd %d: %s%s",
				      fpga_port_ref(port)->devnode, dmabuf,
				      strerror(err),
				      err == ENOTTY || err == EINVAL ?
				      " (does the port driver have the dma-buf extension?)" : "");
	}
	*iova = m.iova;
	if (len)
		*len = m.length;
	return 0;
}

int fpga_dma_fence(struct fpga_port *port, uint64_t iova, bool write,
		   unsigned int vector, unsigned int timeout_ms)
{
	struct fpga_port_dmabuf_fence f = {
		.argsz = sizeof(f), .iova = iova, .vector = vector,
		.flags = write ? FPGA_PORT_FENCE_WRITE : 0,
		.timeout_ms = timeout_ms,
	};

	if (ioctl(fpga_port_fd(port), FPGA_PORT_DMABUF_FENCE, &f)) {
		int err = errno;

		return fpga_set_error(err, "%s: DMA fence on IOVA 0x%llx: %s",
				      fpga_port_ref(port)->devnode,
				      (unsigned long long)iova, strerror(err));
	}
	return 0;
}

int fpga_dmabuf_wait(int dmabuf, bool for_write, int timeout_ms)
{
	struct pollfd p = { .fd = dmabuf,
			    .events = for_write ? POLLOUT : POLLIN };
	int n;

	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = errno;

		return fpga_set_error(err, "poll of dma-buf fd %d: %s", dmabuf,
				      strerror(err));
	}
	if (!n)
		return fpga_set_error(ETIMEDOUT, "dma-buf fd %d: its fences did not signal within %d ms",
				      dmabuf, timeout_ms);
	return 0;
}
