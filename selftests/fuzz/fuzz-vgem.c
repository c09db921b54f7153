// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz, vgem_ext: every ioctl of <drm/vgem_ext_drm.h> (buffer
 * creation, info, fence attach and signal) and the generic ones it serves
 * (dumb buffers, GEM close, PRIME export and import, also of Debian's vgem
 * buffers), with handles and fence ids that are live, stale, another
 * file's or made up; mmap of buffers and of their dma-bufs, and the
 * dma-buf's own poll and ioctls.  The port maps these dma-bufs in
 * fuzz-port.c.  Buffers stay small: a huge one is closed at once, so that
 * pinning it for DMA cannot eat the VM's memory.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "vgem_util.h"

#define BIG_BO		(64ull << 20)

static int rnd_drm(struct worker *w)
{
	return w->drm_fds[below(ARRAY_LEN(w->drm_fds))];
}

static uint32_t rnd_handle(struct worker *w)
{
	return below(5) ? w->handles[below(ARRAY_LEN(w->handles))]
			: (uint32_t)rnd_value();
}

/*
 * Where a new handle will go: drawn before the call, so that what the
 * kernel answers does not shift the sequence of a replay.
 */
static uint32_t *handle_slot(struct worker *w)
{
	return &w->handles[below(ARRAY_LEN(w->handles))];
}

static uint64_t rnd_size(void)
{
	static const uint64_t sizes[] = { 1, 4095, 4096, 4097, 65536,
					  1 << 20, 4 << 20 };

	return below(5) ? sizes[below(ARRAY_LEN(sizes))] : rnd_value();
}

static void vgem_open(struct worker *w)
{
	int *fd = &w->drm_fds[below(ARRAY_LEN(w->drm_fds))];
	int got;

	fuzz_close(fd);
	got = drm_open_driver("vgem_ext", below(2) ? "card" : "renderD");
	*fd = got < 0 ? -1 : got;
	FUZZ_OK(w, AREA_VGEM, *fd);
}

/*
 * A dma-buf of Debian's vgem, to import.  Only well-formed calls go to
 * vgem itself: it is the foreign exporter here, not under test.
 */
static void vgem_foreign(struct worker *w)
{
	int *slot = &w->dmabufs[below(ARRAY_LEN(w->dmabufs))];
	uint64_t offset;
	uint32_t handle;
	int buf;

	if (w->vgem_fd < 0)
		w->vgem_fd = drm_open_driver("vgem", "card");
	if (w->vgem_fd < 0 ||
	    dumb_create(w->vgem_fd, 4096 << below(4), &handle, &offset))
		return;
	buf = prime_export(w->vgem_fd, handle);
	gem_close(w->vgem_fd, handle);
	if (buf < 0)
		return;
	fuzz_close(slot);
	*slot = buf;
}

/* A buffer too large to pin is dropped at once, after one look at it */
static void vgem_check_big(int fd, uint32_t handle, uint64_t size)
{
	if (size > BIG_BO) {
		struct drm_vgem_ext_bo_info i;

		vgem_ext_info(fd, handle, &i);
		gem_close(fd, handle);
	}
}

static void vgem_create(struct worker *w)
{
	struct drm_vgem_ext_bo_create c;
	uint32_t *slot = handle_slot(w);
	int fd = rnd_drm(w);

	memset(&c, 0, sizeof(c));
	c.size = rnd_size();
	c.flags = below(4) ? below(4) : rnd_value();
	/* POPULATE allocates now: only for sizes the VM can afford */
	if ((c.flags & VGEM_EXT_BO_POPULATE) && c.size > BIG_BO)
		c.flags &= ~VGEM_EXT_BO_POPULATE;
	c.handle = below(4) ? 0 : rnd_value();
	if (ioctl(fd, DRM_IOCTL_VGEM_EXT_BO_CREATE,
		  one_in(16) ? rnd_ptr(w, sizeof(c)) : (void *)&c))
		return;
	w->ok[AREA_VGEM]++;
	if (c.size > BIG_BO)
		vgem_check_big(fd, c.handle, c.size);
	else
		*slot = c.handle;
}

static void vgem_dumb(struct worker *w)
{
	struct drm_mode_create_dumb c = {
		.width = below(2) ? below(2048) : rnd_value(),
		.height = below(2) ? below(64) : rnd_value(),
		.bpp = below(2) ? 32 : rnd_value(),
		.flags = below(4) ? 0 : rnd_value(),
	};
	struct drm_mode_map_dumb m = { .handle = rnd_handle(w) };
	uint32_t *slot = handle_slot(w);
	int fd = rnd_drm(w);

	if (below(2)) {
		if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
			return;
		w->ok[AREA_VGEM]++;
		if (c.size > BIG_BO)
			vgem_check_big(fd, c.handle, c.size);
		else
			*slot = c.handle;
	} else {
		m.pad = below(4) ? 0 : rnd_value();
		FUZZ_OK(w, AREA_VGEM, ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m));
	}
}

static void vgem_info(struct worker *w)
{
	struct drm_vgem_ext_bo_info i;

	memset(&i, 0, sizeof(i));
	i.handle = rnd_handle(w);
	i.pad = below(6) ? 0 : rnd_value();
	FUZZ_OK(w, AREA_VGEM, ioctl(rnd_drm(w), DRM_IOCTL_VGEM_EXT_BO_INFO,
				    one_in(16) ? rnd_ptr(w, sizeof(i)) : (void *)&i));
}

static void vgem_fence(struct worker *w)
{
	int fd = rnd_drm(w);

	if (below(2)) {
		struct drm_vgem_ext_fence_attach a = {
			.handle = rnd_handle(w),
			.flags = below(4) ? below(2) : rnd_value(),
			.pad = below(6) ? 0 : rnd_value(),
		};
		uint64_t slot = below(ARRAY_LEN(w->fences));

		if (!ioctl(fd, DRM_IOCTL_VGEM_EXT_FENCE_ATTACH, &a)) {
			w->fences[slot] = a.out_fence;
			w->ok[AREA_VGEM]++;
		}
	} else {
		struct drm_vgem_ext_fence_signal s = {
			.fence = below(5) ? w->fences[below(ARRAY_LEN(w->fences))]
					  : rnd_value(),
			.flags = below(6) ? 0 : rnd_value(),
		};

		FUZZ_OK(w, AREA_VGEM, ioctl(fd, DRM_IOCTL_VGEM_EXT_FENCE_SIGNAL, &s));
	}
}

static void vgem_close_handle(struct worker *w)
{
	struct drm_gem_close c = { .handle = rnd_handle(w),
				   .pad = below(6) ? 0 : rnd_value() };

	FUZZ_OK(w, AREA_VGEM, ioctl(rnd_drm(w), DRM_IOCTL_GEM_CLOSE, &c));
}

static void vgem_export(struct worker *w)
{
	int *slot = &w->dmabufs[below(ARRAY_LEN(w->dmabufs))];
	struct drm_prime_handle p = {
		.handle = rnd_handle(w),
		.flags = below(4) ? DRM_CLOEXEC | (below(2) ? DRM_RDWR : 0)
				  : rnd_value(),
		.fd = below(4) ? -1 : (int)rnd_value(),
	};

	if (ioctl(rnd_drm(w), DRM_IOCTL_PRIME_HANDLE_TO_FD, &p))
		return;
	w->ok[AREA_VGEM]++;
	fuzz_close(slot);
	*slot = p.fd;
}

static void vgem_import(struct worker *w)
{
	struct drm_prime_handle p = { .flags = below(6) ? 0 : rnd_value() };
	uint32_t *slot = handle_slot(w);

	switch (below(8)) {
	case 0 ... 4:
		p.fd = w->dmabufs[below(ARRAY_LEN(w->dmabufs))];
		break;
	case 5:		/* not a dma-buf */
		p.fd = below(2) ? w->efd : rnd_drm(w);
		break;
	default:
		p.fd = rnd_value();
	}
	if (!ioctl(rnd_drm(w), DRM_IOCTL_PRIME_FD_TO_HANDLE, &p)) {
		*slot = p.handle;
		w->ok[AREA_VGEM]++;
	}
}

/*
 * mmap a buffer through its DRM file or its dma-buf; a quarter read-only,
 * which is all a read-only dma-buf or its import allows
 */
static void vgem_mmap(struct worker *w)
{
	struct fuzz_map *m = &w->bo_maps[below(ARRAY_LEN(w->bo_maps))];
	struct drm_vgem_ext_bo_info i;
	size_t len = below(4) ? 4096ull << below(4) : rnd_value() & 0xffffff;
	int fd, dmabuf = below(3) == 0;
	int prot = below(4) ? PROT_READ | PROT_WRITE : PROT_READ;
	off_t off = 0;
	void *p;

	fuzz_unmap(m);
	if (dmabuf) {
		fd = w->dmabufs[below(ARRAY_LEN(w->dmabufs))];
		off = below(4) ? 0 : (off_t)rnd_value();
	} else {
		fd = rnd_drm(w);
		memset(&i, 0, sizeof(i));
		i.handle = rnd_handle(w);
		int use_info = below(4);
		uint64_t other = rnd_value();

		off = ioctl(fd, DRM_IOCTL_VGEM_EXT_BO_INFO, &i) == 0 && use_info ?
		      (off_t)i.offset : (off_t)other;
	}
	p = mmap(NULL, len, prot, below(8) ? MAP_SHARED : MAP_PRIVATE, fd, off);
	if (p == MAP_FAILED)
		return;
	w->ok[AREA_VGEM]++;
	m->p = p;
	m->len = len;
	m->writable = !!(prot & PROT_WRITE);
}

/* The dma-buf's own interface: poll, CPU access sync, sync_file export */
static void vgem_dmabuf_ops(struct worker *w)
{
	int fd = w->dmabufs[below(ARRAY_LEN(w->dmabufs))];

	switch (below(4)) {
	case 0: {
		struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

		poll(&p, 1, below(3));
		break;
	}
	case 1: {
		struct dma_buf_sync s = {
			.flags = below(4) ? (below(2) ? DMA_BUF_SYNC_START
						     : DMA_BUF_SYNC_END) |
					   (1 + below(3))
					 : rnd_value(),
		};

		ioctl(fd, DMA_BUF_IOCTL_SYNC, &s);
		break;
	}
	case 2: {
		struct dma_buf_export_sync_file e = {
			.flags = below(4) ? 1 + below(3) : rnd_value(),
			.fd = -1,
		};

		if (!ioctl(fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e))
			close(e.fd);
		break;
	}
	default:
		ioctl(fd, below(2) ? DMA_BUF_SET_NAME : (unsigned long)rnd(),
		      below(2) ? (void *)"fuzz" : rnd_ptr(w, 32));
	}
}

/* Commands around ours, with random argument sizes */
static void vgem_raw_ioctl(struct worker *w)
{
	unsigned long cmd = _IOC(below(4), DRM_IOCTL_BASE,
				 DRM_COMMAND_BASE + below(8), below(64));

	rnd_fill(w->anon, 64);
	ioctl(rnd_drm(w), cmd, below(4) ? w->anon : rnd_ptr(w, 64));
}

void fuzz_vgem(struct worker *w)
{
	switch (below(32)) {
	case 0:
		vgem_open(w);
		break;
	case 1:
		vgem_foreign(w);
		break;
	case 2 ... 6:
		vgem_create(w);
		break;
	case 7 ... 8:
		vgem_dumb(w);
		break;
	case 9 ... 10:
		vgem_info(w);
		break;
	case 11 ... 14:
		vgem_fence(w);
		break;
	case 15 ... 16:
		vgem_close_handle(w);
		break;
	case 17 ... 19:
		vgem_export(w);
		break;
	case 20 ... 21:
		vgem_import(w);
		break;
	case 22 ... 24:
		vgem_mmap(w);
		break;
	case 25 ... 27:
		fuzz_touch(w, &w->bo_maps[below(ARRAY_LEN(w->bo_maps))]);
		break;
	case 28 ... 30:
		vgem_dmabuf_ops(w);
		break;
	default:
		vgem_raw_ioctl(w);
	}
}
