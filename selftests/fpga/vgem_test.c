// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgem_ext, with IGT's vgem_basic as the checklist: create sizes and
 * flags, mmap, killing the allocation of a large buffer, a second client,
 * bad flags/pad/handles/fences, busy and timed-out fences, dma-buf
 * export/mmap/poll under read and write fences, import from Debian's vgem,
 * read-only dma-bufs that stay read-only when imported, a buffer shared by
 * two processes, what fdinfo says a file uses, unload refused while
 * anything is alive; then the link to the FPGA port: the simulated card's
 * NLB0 copies into and out of vgem_ext (and vgem) buffers mapped as
 * dma-bufs, with the completion fence, what a read-only dma-buf or mapping
 * refuses, and the card is removed while a dma-buf is mapped.
 */
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "nlb_util.h"
#include "vgem_util.h"

#define MiB		(1ull << 20)
#define TIMEOUT_PARAM	"/sys/module/vgem_ext/parameters/fence_timeout_ms"

static int load_vgem_ext(void)
{
	return run_cmd("modprobe vgem_ext");
}

FIXTURE(vgem) {
	int fd;
};

FIXTURE_SETUP(vgem)
{
	ASSERT_EQ(0, load_vgem_ext());
	self->fd = drm_open_driver("vgem_ext", "card");
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(vgem)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(vgem, nodes_and_name)
{
	int render = drm_open_driver("vgem_ext", "renderD");

	ASSERT_GE(render, 0);
	close(render);
	EXPECT_TRUE(path_exists("/sys/bus/platform/devices/vgem_ext"));
}

TEST_F(vgem, create_sizes)
{
	struct drm_vgem_ext_bo_create c;
	struct drm_mode_create_dumb d = { .width = 0, .height = 1, .bpp = 32 };

	EXPECT_EQ(-EINVAL, vgem_ext_create(self->fd, 0, 0, &c));
	EXPECT_EQ(-EINVAL, vgem_ext_create(self->fd, UINT64_MAX, 0, &c));
	EXPECT_EQ(-EINVAL, vgem_ext_create(self->fd, UINT64_MAX - 4094, 0, &c));
	/* Larger than memory: refused at once, nobody is OOM-killed */
	EXPECT_EQ(-ENOMEM, vgem_ext_create(self->fd, 1ull << 50, 0, &c));
	EXPECT_EQ(-ENOMEM, vgem_ext_create(self->fd, UINT64_MAX - 4095, 0, &c));
	EXPECT_EQ(-ENOMEM, vgem_ext_create(self->fd, 1ull << 50,
					   VGEM_EXT_BO_POPULATE, &c));
	/* Rounded up to pages */
	ASSERT_EQ(0, vgem_ext_create(self->fd, 1, 0, &c));
	EXPECT_EQ(4096, c.size);
	EXPECT_NE(0, c.handle);
	ASSERT_EQ(0, vgem_ext_create(self->fd, 4097, 0, &c));
	EXPECT_EQ(8192, c.size);
	/* Large but lazily allocated: fine */
	ASSERT_EQ(0, vgem_ext_create(self->fd, 1ull << 31, 0, &c));
	EXPECT_EQ(1ull << 31, c.size);
	EXPECT_EQ(0, gem_close(self->fd, c.handle));
	/* Dumb buffers: the core's checks */
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->fd, DRM_IOCTL_MODE_CREATE_DUMB, &d));
	d.width = 1024;
	d.height = 1024;
	ASSERT_EQ(0, drm_ioctl_err(self->fd, DRM_IOCTL_MODE_CREATE_DUMB, &d));
	EXPECT_EQ(4096, d.pitch);
	EXPECT_EQ(4 * MiB, d.size);
}

TEST_F(vgem, bad_flags_pad_handles)
{
	struct drm_vgem_ext_bo_create c;
	struct drm_vgem_ext_bo_info i = { 0 };
	struct drm_vgem_ext_fence_attach a = { 0 };
	struct drm_vgem_ext_fence_signal s = { 0 };

	EXPECT_EQ(-EINVAL, vgem_ext_create(self->fd, 4096, 1u << 2, &c));
	EXPECT_EQ(-EINVAL, vgem_ext_create(self->fd, 4096, 1u << 31, &c));
	ASSERT_EQ(0, vgem_ext_create(self->fd, 4096, 0, &c));

	i.handle = c.handle;
	i.pad = 1;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->fd, DRM_IOCTL_VGEM_EXT_BO_INFO, &i));
	EXPECT_EQ(-ENOENT, vgem_ext_info(self->fd, c.handle + 100, &i));
	EXPECT_EQ(-ENOENT, vgem_ext_info(self->fd, 0, &i));

	a.handle = c.handle;
	a.flags = 2;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->fd, DRM_IOCTL_VGEM_EXT_FENCE_ATTACH, &a));
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->fd, DRM_IOCTL_VGEM_EXT_FENCE_ATTACH, &a));
	EXPECT_EQ(-ENOENT, vgem_ext_fence(self->fd, c.handle + 100, 0));

	EXPECT_EQ(-ENOENT, vgem_ext_signal(self->fd, 0));
	EXPECT_EQ(-ENOENT, vgem_ext_signal(self->fd, 12345));
	s.fence = vgem_ext_fence(self->fd, c.handle, 0);
	ASSERT_GT((int)s.fence, 0);
	s.flags = 1;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->fd, DRM_IOCTL_VGEM_EXT_FENCE_SIGNAL, &s));
	EXPECT_EQ(0, vgem_ext_signal(self->fd, s.fence));
	/* Signalled and released: unknown now */
	EXPECT_EQ(-ENOENT, vgem_ext_signal(self->fd, s.fence));
	/* Unknown ioctl of the driver's range */
	EXPECT_NE(0, ioctl(self->fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f,
					      struct drm_vgem_ext_bo_info), &i));
}

static void mmap_rw(struct __test_metadata *_metadata, int fd, uint32_t flags)
{
	const size_t len = 4 * MiB;
	struct drm_vgem_ext_bo_create c;
	struct drm_vgem_ext_bo_info i;
	uint32_t *a, *b;

	ASSERT_EQ(0, vgem_ext_create(fd, len, flags, &c));
	ASSERT_EQ(0, vgem_ext_info(fd, c.handle, &i));
	EXPECT_EQ(c.offset, i.offset);
	EXPECT_EQ(len, i.size);
	EXPECT_EQ(flags, i.flags & (VGEM_EXT_BO_WC | VGEM_EXT_BO_POPULATE));
	EXPECT_EQ(!!(flags & VGEM_EXT_BO_POPULATE),
		  !!(i.flags & VGEM_EXT_BO_RESIDENT));
	a = map_rw(fd, c.offset, len);
	ASSERT_NE(MAP_FAILED, a);
	b = map_rw(fd, c.offset, len);
	ASSERT_NE(MAP_FAILED, b);
	/* New buffers are zeroed */
	for (size_t k = 0; k < len / 4; k += 1021)
		ASSERT_EQ(0, a[k]);
	for (size_t k = 0; k < len / 4; k++)
		a[k] = (uint32_t)(k * 2654435761u);
	for (size_t k = 0; k < len / 4; k++)
		if (b[k] != (uint32_t)(k * 2654435761u)) {
			ASSERT_EQ((uint32_t)(k * 2654435761u), b[k]);
		}
	ASSERT_EQ(0, vgem_ext_info(fd, c.handle, &i));
	EXPECT_TRUE(i.flags & VGEM_EXT_BO_RESIDENT);
	/* Mappings must be shared and inside the buffer */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, len, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, fd, (off_t)c.offset));
	EXPECT_EQ(MAP_FAILED, map_rw(fd, c.offset, len + 4096));
	munmap(a, len);
	munmap(b, len);
	EXPECT_EQ(0, gem_close(fd, c.handle));
	EXPECT_EQ(-ENOENT, gem_close(fd, c.handle) ? -ENOENT : 0);
}

TEST_F(vgem, mmap_cached)	{ mmap_rw(_metadata, self->fd, 0); }
TEST_F(vgem, mmap_wc)		{ mmap_rw(_metadata, self->fd, VGEM_EXT_BO_WC); }
TEST_F(vgem, mmap_populated)	{ mmap_rw(_metadata, self->fd, VGEM_EXT_BO_POPULATE); }

/* What a child process does with a large buffer in bo_work_ms() */
enum bo_work { BO_POPULATE, BO_MMAP };

/*
 * Milliseconds until a child that does @work on a new buffer of @size
 * bytes is reaped: from its start, or (@kill_ms >= 0) from the SIGKILL
 * sent @kill_ms into the work.  Freeing the pages is part of both.
 */
static double bo_work_ms(struct __test_metadata *_metadata, enum bo_work work,
			 uint64_t size, double kill_ms)
{
	struct drm_vgem_ext_bo_create c;
	int ready[2], status;
	double start;
	pid_t pid;
	char byte;

	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd = drm_open_driver("vgem_ext", "card");

		if (fd < 0 || write(ready[1], "r", 1) != 1)
			_exit(2);
		if (work == BO_POPULATE)
			_exit(vgem_ext_create(fd, size, VGEM_EXT_BO_POPULATE, &c) ? 3 : 0);
		if (vgem_ext_create(fd, size, 0, &c) ||
		    map_rw(fd, c.offset, size) == MAP_FAILED)
			_exit(4);
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	close(ready[0]);
	start = now_ms();
	if (kill_ms >= 0) {
		usleep((useconds_t)(kill_ms * 1000));
		start = now_ms();
		ASSERT_EQ(0, kill(pid, SIGKILL));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (kill_ms < 0) {
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	} else {
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	return now_ms() - start;
}

/*
 * Getting a large buffer's pages (at creation with POPULATE, or at its
 * first mmap) must yield the CPU and stop when the process is killed: the
 * child killed a tenth into the work must go in a fraction of the time the
 * whole work takes.
 */
static void large_bo_killable(struct __test_metadata *_metadata,
			      enum bo_work work)
{
	uint64_t size = sysconf(_SC_PHYS_PAGES) * (uint64_t)getpagesize() / 4;
	double whole, killed;

	if (size > 512 * MiB)
		size = 512 * MiB;
	size &= ~(MiB - 1);
	whole = bo_work_ms(_metadata, work, size, -1);
	killed = bo_work_ms(_metadata, work, size, whole / 10);
	TH_LOG("%llu MiB: whole work %.0f ms, killed a tenth in: gone in %.0f ms",
	       (unsigned long long)(size / MiB), whole, killed);
	/*
	 * Too quick to tell a stop from a finish: the check means nothing.
	 * Work that ignores the kill ends near the whole time; half of it
	 * leaves room for a stall of the emulated VM.
	 */
	ASSERT_GT(whole, 100);
	EXPECT_LT(killed, whole / 2);
}

TEST_F_TIMEOUT(vgem, populate_is_killable, 240)
{
	large_bo_killable(_metadata, BO_POPULATE);
}

TEST_F_TIMEOUT(vgem, first_mmap_is_killable, 240)
{
	large_bo_killable(_metadata, BO_MMAP);
}

TEST_F(vgem, mmap_dumb)
{
	uint32_t handle;
	uint64_t offset;
	uint8_t *p;

	ASSERT_EQ(0, dumb_create(self->fd, 65536, &handle, &offset));
	p = map_rw(self->fd, offset, 65536);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0xa5, 65536);
	EXPECT_EQ(0xa5, p[65535]);
	munmap(p, 65536);
}

TEST_F(vgem, second_client)
{
	struct drm_vgem_ext_bo_create c;
	struct drm_vgem_ext_bo_info i;
	uint32_t other;
	int fd2, dmabuf;
	uint32_t *a, *b;

	fd2 = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, vgem_ext_create(self->fd, 8192, 0, &c));
	/* Handles are per file */
	EXPECT_EQ(-ENOENT, vgem_ext_info(fd2, c.handle, &i));
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, prime_import(fd2, dmabuf, &other));
	ASSERT_EQ(0, vgem_ext_info(fd2, other, &i));
	EXPECT_EQ(8192, i.size);
	a = map_rw(self->fd, c.offset, 8192);
	b = map_rw(fd2, i.offset, 8192);
	ASSERT_NE(MAP_FAILED, a);
	ASSERT_NE(MAP_FAILED, b);
	a[100] = 0xdeadbeef;
	EXPECT_EQ(0xdeadbeef, b[100]);
	b[2000] = 0x12345678;
	EXPECT_EQ(0x12345678, a[2000]);
	munmap(a, 8192);
	munmap(b, 8192);
	close(dmabuf);
	close(fd2);
}

/*
 * A DRM memory key of @fd in bytes: "N", "N KiB" or "N MiB"
 * (drm-usage-stats.rst); -1 without the key or if it does not parse
 */
static long long vgem_fdinfo_bytes(int fd, const char *key)
{
	unsigned long long n;
	char val[64], unit[8] = "";
	int got;

	if (fdinfo_get(fd, key, val, sizeof(val)))
		return -1;
	got = sscanf(val, "%llu %7s", &n, unit);
	if (got == 1)
		return n;
	if (got == 2 && !strcmp(unit, "KiB"))
		return n << 10;
	if (got == 2 && !strcmp(unit, "MiB"))
		return n << 20;
	return -1;
}

/*
 * fdinfo: DRM's keys, on the card and the render node; a client id per
 * open file, the same through a dup()
 */
TEST_F(vgem, fdinfo_driver_and_client_id)
{
	char drv[64], id[32], id2[32], id_dup[32];
	int render, dup_fd;

	ASSERT_EQ(0, fdinfo_get(self->fd, "drm-driver", drv, sizeof(drv)));
	EXPECT_STREQ("vgem_ext", drv);
	ASSERT_EQ(0, fdinfo_get(self->fd, "drm-client-id", id, sizeof(id)));

	render = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(render, 0);
	ASSERT_EQ(0, fdinfo_get(render, "drm-driver", drv, sizeof(drv)));
	EXPECT_STREQ("vgem_ext", drv);
	ASSERT_EQ(0, fdinfo_get(render, "drm-client-id", id2, sizeof(id2)));
	EXPECT_STRNE(id, id2);

	dup_fd = dup(self->fd);
	ASSERT_GE(dup_fd, 0);
	ASSERT_EQ(0, fdinfo_get(dup_fd, "drm-client-id", id_dup,
				 sizeof(id_dup)));
	EXPECT_STREQ(id, id_dup);
	close(dup_fd);
	close(render);
}

/*
 * fdinfo's memory keys count the buffers this file has handles of: a
 * populated buffer is in total and resident until its handle is closed,
 * and shared only once exported
 */
TEST_F(vgem, fdinfo_memory)
{
	const long long len = 3 * MiB;
	struct drm_vgem_ext_bo_create c;
	long long total, resident;
	int fd, dmabuf;

	/* A file of its own: nothing but this test's buffer counts */
	fd = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, vgem_fdinfo_bytes(fd, "drm-total-memory"));

	ASSERT_EQ(0, vgem_ext_create(fd, len, VGEM_EXT_BO_POPULATE, &c));
	total = vgem_fdinfo_bytes(fd, "drm-total-memory");
	resident = vgem_fdinfo_bytes(fd, "drm-resident-memory");
	EXPECT_GE(total, len);
	EXPECT_GE(resident, len);
	EXPECT_EQ(0, vgem_fdinfo_bytes(fd, "drm-shared-memory"));

	/* An export shares it */
	dmabuf = prime_export(fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	EXPECT_GE(vgem_fdinfo_bytes(fd, "drm-shared-memory"), len);

	/* Closed: no longer counted here (the dma-buf keeps the pages) */
	ASSERT_EQ(0, gem_close(fd, c.handle));
	EXPECT_LE(vgem_fdinfo_bytes(fd, "drm-total-memory"), total - len);
	EXPECT_GE(vgem_fdinfo_bytes(fd, "drm-total-memory"), 0);
	/* 6.12 on prints no resident key for a file without buffers */
	EXPECT_GE(resident - len,
		  vgem_fdinfo_bytes(fd, "drm-resident-memory"));
	EXPECT_EQ(0, vgem_fdinfo_bytes(fd, "drm-shared-memory"));
	close(dmabuf);
	close(fd);
}

TEST_F(vgem, busy_fence)
{
	struct drm_vgem_ext_bo_create c;
	struct drm_vgem_ext_bo_info i;
	int w, r1, r2;

	ASSERT_EQ(0, vgem_ext_create(self->fd, 4096, 0, &c));
	w = vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE);
	ASSERT_GT(w, 0);
	ASSERT_EQ(0, vgem_ext_info(self->fd, c.handle, &i));
	EXPECT_TRUE(i.flags & VGEM_EXT_BO_BUSY);
	EXPECT_EQ(-EBUSY, vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE));
	EXPECT_EQ(-EBUSY, vgem_ext_fence(self->fd, c.handle, 0));
	EXPECT_EQ(0, vgem_ext_signal(self->fd, w));
	ASSERT_EQ(0, vgem_ext_info(self->fd, c.handle, &i));
	EXPECT_FALSE(i.flags & VGEM_EXT_BO_BUSY);

	/* Readers share, a writer waits for them */
	r1 = vgem_ext_fence(self->fd, c.handle, 0);
	r2 = vgem_ext_fence(self->fd, c.handle, 0);
	ASSERT_GT(r1, 0);
	ASSERT_GT(r2, 0);
	EXPECT_NE(r1, r2);
	EXPECT_EQ(-EBUSY, vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE));
	EXPECT_EQ(0, vgem_ext_signal(self->fd, r1));
	EXPECT_EQ(-EBUSY, vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE));
	EXPECT_EQ(0, vgem_ext_signal(self->fd, r2));
	w = vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE);
	EXPECT_GT(w, 0);
}

/*
 * Read fences do not exclude each other: a file may have 256 pending
 * (ENOSPC past that), another file has its own budget, and releasing one
 * gives its slot back.
 */
TEST_F(vgem, fences_are_capped_per_file)
{
	struct drm_vgem_ext_bo_create c;
	int fences[256], i, fd2, dmabuf, other;
	uint32_t handle2;

	ASSERT_EQ(0, vgem_ext_create(self->fd, 4096, 0, &c));
	for (i = 0; i < 256; i++) {
		fences[i] = vgem_ext_fence(self->fd, c.handle, 0);
		ASSERT_GT(fences[i], 0) {
			TH_LOG("fence %d: %s", i, strerror(-fences[i]));
		}
	}
	EXPECT_EQ(-ENOSPC, vgem_ext_fence(self->fd, c.handle, 0));

	fd2 = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(fd2, 0);
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, prime_import(fd2, dmabuf, &handle2));
	other = vgem_ext_fence(fd2, handle2, 0);
	EXPECT_GT(other, 0);
	close(fd2);
	close(dmabuf);

	EXPECT_EQ(0, vgem_ext_signal(self->fd, fences[0]));
	fences[0] = vgem_ext_fence(self->fd, c.handle, 0);
	EXPECT_GT(fences[0], 0);
	EXPECT_EQ(-ENOSPC, vgem_ext_fence(self->fd, c.handle, 0));
	for (i = 0; i < 256; i++)
		EXPECT_EQ(0, vgem_ext_signal(self->fd, fences[i]));
}

TEST_F(vgem, fence_timeout)
{
	struct drm_vgem_ext_bo_create c;
	char old[32];
	int f, dmabuf, sync;

	ASSERT_EQ(0, sysfs_read(TIMEOUT_PARAM, old, sizeof(old)));
	/* Long enough that a stalled VM still polls before it expires */
	ASSERT_EQ(0, sysfs_write(TIMEOUT_PARAM, "1000"));
	ASSERT_EQ(0, vgem_ext_create(self->fd, 4096, 0, &c));
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	f = vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE);
	sysfs_write(TIMEOUT_PARAM, old);
	ASSERT_GT(f, 0);
	sync = dmabuf_sync_file(dmabuf);
	ASSERT_GE(sync, 0);
	EXPECT_EQ(0, dmabuf_poll(dmabuf, 0));
	/* Nobody signals: it expires by itself, and pollers wake up */
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(dmabuf, 5000));
	EXPECT_EQ(-ETIMEDOUT, sync_file_status(sync));
	EXPECT_EQ(-ETIMEDOUT, vgem_ext_signal(self->fd, f));
	EXPECT_EQ(-ENOENT, vgem_ext_signal(self->fd, f));
	close(dmabuf);
}

TEST_F(vgem, dmabuf_poll_under_fences)
{
	struct drm_vgem_ext_bo_create c;
	int f, dmabuf, sync;

	ASSERT_EQ(0, vgem_ext_create(self->fd, 4096, 0, &c));
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(dmabuf, 0));

	/* A reader: others may read (POLLIN), nobody may write */
	f = vgem_ext_fence(self->fd, c.handle, 0);
	ASSERT_GT(f, 0);
	EXPECT_EQ(POLLIN, dmabuf_poll(dmabuf, 0));
	EXPECT_EQ(0, vgem_ext_signal(self->fd, f));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(dmabuf, 0));

	/* A writer: nothing until it signals */
	f = vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE);
	ASSERT_GT(f, 0);
	EXPECT_EQ(0, dmabuf_poll(dmabuf, 0));
	EXPECT_EQ(0, dmabuf_poll(dmabuf, 100));
	sync = dmabuf_sync_file(dmabuf);
	ASSERT_GE(sync, 0);
	EXPECT_EQ(0, vgem_ext_signal(self->fd, f));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(dmabuf, 0));
	EXPECT_EQ(1, sync_file_status(sync));
	close(dmabuf);
}

TEST_F(vgem, close_signals_fences)
{
	struct drm_vgem_ext_bo_create c;
	uint32_t other;
	int fd2, dmabuf;

	ASSERT_EQ(0, vgem_ext_create(self->fd, 4096, 0, &c));
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	fd2 = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, prime_import(fd2, dmabuf, &other));
	ASSERT_GT(vgem_ext_fence(fd2, other, VGEM_EXT_FENCE_WRITE), 0);
	EXPECT_EQ(0, dmabuf_poll(dmabuf, 0));
	close(fd2);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(dmabuf, 1000));
	close(dmabuf);
}

TEST_F(vgem, dmabuf_export_mmap)
{
	struct drm_vgem_ext_bo_create c;
	struct drm_vgem_ext_bo_info i;
	uint32_t *gem, *buf, again;
	int dmabuf;

	ASSERT_EQ(0, vgem_ext_create(self->fd, 1 * MiB, VGEM_EXT_BO_WC, &c));
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, vgem_ext_info(self->fd, c.handle, &i));
	EXPECT_TRUE(i.flags & VGEM_EXT_BO_EXPORTED);
	EXPECT_EQ(1 * MiB, (uint64_t)lseek(dmabuf, 0, SEEK_END));
	/* Importing our own dma-buf gives back the same handle */
	ASSERT_EQ(0, prime_import(self->fd, dmabuf, &again));
	EXPECT_EQ(c.handle, again);

	buf = map_rw(dmabuf, 0, 1 * MiB);
	ASSERT_NE(MAP_FAILED, buf);
	gem = map_rw(self->fd, c.offset, 1 * MiB);
	ASSERT_NE(MAP_FAILED, gem);
	for (unsigned int k = 0; k < MiB / 4; k++)
		buf[k] = k ^ 0x5a5a5a5a;
	for (unsigned int k = 0; k < MiB / 4; k++)
		if (gem[k] != (k ^ 0x5a5a5a5a)) {
			ASSERT_EQ(k ^ 0x5a5a5a5a, gem[k]);
		}
	munmap(buf, 1 * MiB);
	munmap(gem, 1 * MiB);
	close(dmabuf);
}

TEST_F(vgem, import_from_vgem_and_mmap)
{
	struct drm_vgem_ext_bo_info i;
	uint32_t vh, handle;
	uint64_t voff;
	uint32_t *ours, *theirs;
	int vfd, dmabuf;

	ASSERT_EQ(0, run_cmd("modprobe vgem"));
	vfd = drm_open_driver("vgem", "card");
	ASSERT_GE(vfd, 0);
	ASSERT_EQ(0, dumb_create(vfd, 256 * 1024, &vh, &voff));
	dmabuf = prime_export(vfd, vh);
	ASSERT_GE(dmabuf, 0);
	ASSERT_EQ(0, prime_import(self->fd, dmabuf, &handle));
	ASSERT_EQ(0, vgem_ext_info(self->fd, handle, &i));
	EXPECT_EQ(256 * 1024, i.size);
	EXPECT_TRUE(i.flags & VGEM_EXT_BO_IMPORTED);
	EXPECT_FALSE(i.flags & VGEM_EXT_BO_EXPORTED);
	/* Dumb map offsets refuse imports; ours maps the exporter's pages */
	ours = map_rw(self->fd, i.offset, 256 * 1024);
	ASSERT_NE(MAP_FAILED, ours);
	theirs = map_rw(vfd, voff, 256 * 1024);
	ASSERT_NE(MAP_FAILED, theirs);
	theirs[7] = 0xcafef00d;
	EXPECT_EQ(0xcafef00d, ours[7]);
	ours[65535] = 0x0badf00d;
	EXPECT_EQ(0x0badf00d, theirs[65535]);
	/* A fence through vgem_ext is seen on vgem's dma-buf */
	ASSERT_GT(vgem_ext_fence(self->fd, handle, VGEM_EXT_FENCE_WRITE), 0);
	EXPECT_EQ(0, dmabuf_poll(dmabuf, 0));
	munmap(ours, 256 * 1024);
	munmap(theirs, 256 * 1024);
	EXPECT_EQ(0, gem_close(self->fd, handle));
	close(self->fd);	/* signals the fence */
	self->fd = -1;
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(dmabuf, 1000));
	close(dmabuf);
	close(vfd);
}

/* A buffer its owner maps writable and exports without DRM_RDWR */
struct ro_buf {
	uint32_t handle;
	uint64_t offset;
	uint32_t *map;
	int dmabuf;
};

/* Of vgem_ext (@fd) or of Debian's vgem (@vgem_fd >= 0); 0 or -errno */
static int ro_buf_new(int fd, int vgem_fd, size_t len, struct ro_buf *b)
{
	struct drm_vgem_ext_bo_create c;

	b->map = MAP_FAILED;
	b->dmabuf = -1;
	if (vgem_fd < 0) {
		if (vgem_ext_create(fd, len, 0, &c))
			return -EIO;
		b->handle = c.handle;
		b->offset = c.offset;
	} else {
		fd = vgem_fd;
		if (dumb_create(fd, len, &b->handle, &b->offset))
			return -EIO;
	}
	b->map = map_rw(fd, b->offset, len);
	if (b->map == MAP_FAILED)
		return -errno;
	b->dmabuf = prime_export_ro(fd, b->handle);
	return b->dmabuf < 0 ? b->dmabuf : 0;
}

static void ro_buf_free(struct ro_buf *b, size_t len)
{
	if (b->map != MAP_FAILED)
		munmap(b->map, len);
	if (b->dmabuf >= 0)
		close(b->dmabuf);
}

/*
 * Another file imports a read-only dma-buf: it may map it to read, never
 * to write (EACCES), not even later with mprotect(), and exporting it
 * again with DRM_RDWR gives back the same read-only dma-buf.
 */
static void ro_import_mmap(struct __test_metadata *_metadata,
			   struct ro_buf *b, size_t len)
{
	struct drm_vgem_ext_bo_info i;
	uint32_t handle, *p;
	int fd2, again;

	fd2 = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, prime_import(fd2, b->dmabuf, &handle));
	ASSERT_EQ(0, vgem_ext_info(fd2, handle, &i));
	EXPECT_TRUE(i.flags & VGEM_EXT_BO_IMPORTED);
	errno = 0;
	EXPECT_EQ(MAP_FAILED, map_rw(fd2, i.offset, len));
	EXPECT_EQ(EACCES, errno);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd2, (off_t)i.offset);
	ASSERT_NE(MAP_FAILED, p);
	/* The owner's pages, read through the import */
	b->map[len / 4 - 1] = 0x600df00d;
	EXPECT_EQ(0x600df00d, p[len / 4 - 1]);
	errno = 0;
	EXPECT_EQ(-1, mprotect(p, len, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	again = prime_export(fd2, handle);
	ASSERT_GE(again, 0);
	EXPECT_EQ(MAP_FAILED, map_rw(again, 0, len));
	close(again);
	munmap(p, len);
	close(fd2);
}

TEST_F(vgem, read_only_import_maps_read_only)
{
	const size_t len = 64 * 1024;
	struct ro_buf b;
	uint32_t handle;
	void *p;
	int vfd;

	ASSERT_EQ(0, ro_buf_new(self->fd, -1, len, &b));
	ro_import_mmap(_metadata, &b, len);
	/* Its owner gets its own handle back, and maps it writable */
	ASSERT_EQ(0, prime_import(self->fd, b.dmabuf, &handle));
	EXPECT_EQ(b.handle, handle);
	p = map_rw(self->fd, b.offset, len);
	EXPECT_NE(MAP_FAILED, p);
	munmap(p, len);
	ro_buf_free(&b, len);

	/* The same for a dma-buf of another exporter */
	ASSERT_EQ(0, run_cmd("modprobe vgem"));
	vfd = drm_open_driver("vgem", "card");
	ASSERT_GE(vfd, 0);
	ASSERT_EQ(0, ro_buf_new(self->fd, vfd, len, &b));
	ro_import_mmap(_metadata, &b, len);
	ro_buf_free(&b, len);
	close(vfd);
}

/*
 * A file that imported a read-only dma-buf may fence it neither as a
 * writer nor as a reader (EACCES): a read fence would hold the owner's
 * writers, for good if it is armed again each time it times out.  The
 * buffer stays idle, and the owner's write fence goes in at once.
 */
static void ro_import_fences(struct __test_metadata *_metadata, int dmabuf)
{
	uint32_t handle;
	int fd2, f;

	fd2 = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, prime_import(fd2, dmabuf, &handle));
	EXPECT_EQ(-EACCES, vgem_ext_fence(fd2, handle, VGEM_EXT_FENCE_WRITE));
	f = vgem_ext_fence(fd2, handle, 0);
	EXPECT_EQ(-EACCES, f);
	if (f > 0)
		vgem_ext_signal(fd2, f);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(dmabuf, 0));
	close(fd2);
}

TEST_F(vgem, read_only_import_takes_no_fence)
{
	const size_t len = 16 * 1024;
	struct ro_buf b;
	int vfd, f;

	ASSERT_EQ(0, ro_buf_new(self->fd, -1, len, &b));
	ro_import_fences(_metadata, b.dmabuf);
	f = vgem_ext_fence(self->fd, b.handle, VGEM_EXT_FENCE_WRITE);
	EXPECT_GT(f, 0);
	EXPECT_EQ(0, vgem_ext_signal(self->fd, f));
	/* The owner itself still takes read fences through its own handle */
	f = vgem_ext_fence(self->fd, b.handle, 0);
	EXPECT_GT(f, 0);
	EXPECT_EQ(0, vgem_ext_signal(self->fd, f));
	ro_buf_free(&b, len);

	ASSERT_EQ(0, run_cmd("modprobe vgem"));
	vfd = drm_open_driver("vgem", "card");
	ASSERT_GE(vfd, 0);
	ASSERT_EQ(0, ro_buf_new(self->fd, vfd, len, &b));
	ro_import_fences(_metadata, b.dmabuf);
	ro_buf_free(&b, len);
	close(vfd);
}

/* Two processes write and read one buffer through their own mappings */
TEST_F(vgem, coherent_between_processes)
{
	struct drm_vgem_ext_bo_create c;
	volatile uint32_t *p;
	int dmabuf, status, f;
	pid_t pid;

	ASSERT_EQ(0, vgem_ext_create(self->fd, 64 * 1024, VGEM_EXT_BO_WC, &c));
	dmabuf = prime_export(self->fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	p = map_rw(self->fd, c.offset, 64 * 1024);
	ASSERT_NE(MAP_FAILED, p);
	/* The parent holds a write fence until its data is in place */
	f = vgem_ext_fence(self->fd, c.handle, VGEM_EXT_FENCE_WRITE);
	ASSERT_GT(f, 0);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		volatile uint32_t *q = map_rw(dmabuf, 0, 64 * 1024);

		if (q == MAP_FAILED)
			_exit(10);
		/* Wait for the writer, through the dma-buf only */
		if (dmabuf_wait(dmabuf, 5000) != (POLLIN | POLLOUT))
			_exit(11);
		for (int k = 0; k < 16384; k++)
			if (q[k] != (uint32_t)k * 3)
				_exit(12);
		for (int k = 0; k < 16384; k++)
			q[k] = ~(uint32_t)k;
		_exit(0);
	}
	for (int k = 0; k < 16384; k++)
		p[k] = (uint32_t)k * 3;
	EXPECT_EQ(0, vgem_ext_signal(self->fd, f));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (int k = 0; k < 16384; k++)
		if (p[k] != ~(uint32_t)k) {
			ASSERT_EQ(~(uint32_t)k, p[k]);
		}
	munmap((void *)p, 64 * 1024);
	close(dmabuf);
}

static int unload_vgem_ext(void)
{
	return run_cmd("modprobe -r vgem_ext 2>/dev/null");
}

/* Unload is refused while a file, buffer, dma-buf or mapping is alive */
TEST(unload_refused_while_in_use)
{
	struct drm_vgem_ext_bo_create c;
	int fd, dmabuf;
	void *map, *bufmap;

	unload_vgem_ext();
	ASSERT_EQ(0, load_vgem_ext());
	fd = drm_open_driver("vgem_ext", "card");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, vgem_ext_create(fd, 8192, 0, &c));
	EXPECT_NE(0, unload_vgem_ext());

	map = map_rw(fd, c.offset, 8192);
	ASSERT_NE(MAP_FAILED, map);
	dmabuf = prime_export(fd, c.handle);
	ASSERT_GE(dmabuf, 0);
	bufmap = map_rw(dmabuf, 0, 8192);
	ASSERT_NE(MAP_FAILED, bufmap);

	close(fd);		/* the buffer lives on in the others */
	EXPECT_NE(0, unload_vgem_ext());
	close(dmabuf);
	EXPECT_NE(0, unload_vgem_ext());
	munmap(map, 8192);
	EXPECT_NE(0, unload_vgem_ext());
	munmap(bufmap, 8192);
	EXPECT_EQ(0, unload_vgem_ext());
	EXPECT_FALSE(path_exists("/sys/module/vgem_ext"));
	/* And it loads again next to vgem */
	ASSERT_EQ(0, run_cmd("modprobe vgem"));
	EXPECT_EQ(0, load_vgem_ext());
}

/* ---- DMA by the simulated FPGA ---- */

FIXTURE(fpga) {
	unsigned int card;
	int port;
	int drm;
	volatile uint64_t *afu;
	struct dma_buf dsm;
};

FIXTURE_SETUP(fpga)
{
	char dev[64];
	int num;

	self->port = -1;
	ASSERT_EQ(0, load_vgem_ext());
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	self->drm = drm_open_driver("vgem_ext", "renderD");
	ASSERT_GE(self->drm, 0);
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 1));
	num = sim_port_number(self->card);
	ASSERT_GE(num, 0);
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	self->port = open(dev, O_RDWR);
	ASSERT_GE(self->port, 0);
	self->afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, self->port, 0);
	ASSERT_NE(MAP_FAILED, self->afu);
	ASSERT_EQ(0, dma_buf_alloc(self->port, 4096, &self->dsm));
}

FIXTURE_TEARDOWN(fpga)
{
	if (self->port >= 0) {
		munmap((void *)self->afu, NLB_AFU_SIZE);
		close(self->port);
	}
	close(self->drm);
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_sim fpga_dfl");
}

/* A vgem_ext buffer: handle, CPU mapping, dma-buf fd */
struct vbuf {
	struct drm_vgem_ext_bo_create c;
	uint8_t *cpu;
	int dmabuf;
	uint64_t iova;
};

static int vbuf_new(int drm, uint64_t len, uint32_t flags, struct vbuf *b)
{
	int ret = vgem_ext_create(drm, len, flags, &b->c);

	if (ret)
		return ret;
	b->cpu = map_rw(drm, b->c.offset, len);
	if (b->cpu == MAP_FAILED)
		return -errno;
	b->dmabuf = prime_export(drm, b->c.handle);
	return b->dmabuf < 0 ? b->dmabuf : 0;
}

static void vbuf_free(int drm, struct vbuf *b)
{
	munmap(b->cpu, b->c.size);
	close(b->dmabuf);
	gem_close(drm, b->c.handle);
}

TEST_F(fpga, extension_is_advertised)
{
	EXPECT_EQ(1, ioctl(self->port, DFL_FPGA_CHECK_EXTENSION,
			   FPGA_PORT_EXT_DMABUF));
	EXPECT_EQ(0, ioctl(self->port, DFL_FPGA_CHECK_EXTENSION, 0));
}

/* vgem_ext -> NLB -> vgem_ext, the destination's fence told by the IRQ */
static void loopback(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fpga) *self, uint64_t len, uint32_t src_flags,
		     uint32_t dst_flags)
{
	struct vbuf src, dst;
	uint64_t l, k;
	int sync;

	ASSERT_EQ(0, vbuf_new(self->drm, len, src_flags, &src));
	ASSERT_EQ(0, vbuf_new(self->drm, len, dst_flags, &dst));
	for (k = 0; k < len; k++)
		src.cpu[k] = (uint8_t)(k * 13 + (k >> 12) + 7);
	ASSERT_EQ(0, port_dmabuf_map(self->port, src.dmabuf, FPGA_PORT_DMA_TO_DEV,
				     &src.iova, &l));
	EXPECT_EQ(len, l);
	ASSERT_EQ(0, port_dmabuf_map(self->port, dst.dmabuf,
				     FPGA_PORT_DMA_FROM_DEV, &dst.iova, &l));
	EXPECT_EQ(0, src.iova % 4096);

	/* Fences first, then the run that signals them */
	ASSERT_EQ(0, port_dmabuf_fence(self->port, dst.iova,
				       FPGA_PORT_FENCE_WRITE, 0, 30000));
	ASSERT_EQ(0, port_dmabuf_fence(self->port, src.iova, 0, 0, 30000));
	EXPECT_EQ(0, dmabuf_poll(dst.dmabuf, 0));
	EXPECT_EQ(POLLIN, dmabuf_poll(src.dmabuf, 0));
	sync = dmabuf_sync_file(dst.dmabuf);
	ASSERT_GE(sync, 0);
	memset(self->dsm.va, 0, 4096);
	nlb_start(self->afu, self->dsm.iova, src.iova, dst.iova, len / NLB_CACHE_LINE,
		  NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	/* No spinning on the DSM: the dma-buf says when it is done */
	ASSERT_EQ(POLLIN | POLLOUT, dmabuf_wait(dst.dmabuf, 25000));
	EXPECT_EQ(1, sync_file_status(sync));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(src.dmabuf, 1000));
	EXPECT_EQ(1, ((volatile uint64_t *)self->dsm.va)[NLB_DSM_STATUS / 8] & 1);
	EXPECT_EQ(0, memcmp(src.cpu, dst.cpu, len)) {
		for (k = 0; k < len && src.cpu[k] == dst.cpu[k]; k++)
			;
		TH_LOG("first difference at byte %llu of %llu",
		       (unsigned long long)k, (unsigned long long)len);
	}
	nlb_write(self->afu, NLB_CTL, NLB_CTL_HALT);
	EXPECT_EQ(0, dma_unmap(self->port, src.iova));
	EXPECT_EQ(0, dma_unmap(self->port, dst.iova));
	EXPECT_EQ(-EINVAL, dma_unmap(self->port, dst.iova));
	vbuf_free(self->drm, &src);
	vbuf_free(self->drm, &dst);
}

TEST_F(fpga, loopback_4KiB)	{ loopback(_metadata, self, 4096, 0, 0); }
TEST_F(fpga, loopback_1MiB_wc)	{ loopback(_metadata, self, MiB, VGEM_EXT_BO_WC, VGEM_EXT_BO_WC); }
/* Seconds on Debian's kernel, minutes on a loaded debug kernel */
TEST_F_TIMEOUT(fpga, loopback_64MiB, 300) { loopback(_metadata, self, 64 * MiB, 0, VGEM_EXT_BO_POPULATE); }

/* Anonymous memory in, a buffer of Debian's vgem out */
TEST_F(fpga, loopback_into_vgem_buffer)
{
	struct dma_buf src = { 0 };
	uint32_t vh;
	uint64_t voff, iova;
	uint8_t *dst;
	int vfd, dmabuf, sync;

	ASSERT_EQ(0, run_cmd("modprobe vgem"));
	vfd = drm_open_driver("vgem", "card");
	ASSERT_GE(vfd, 0);
	ASSERT_EQ(0, dumb_create(vfd, 256 * 1024, &vh, &voff));
	dmabuf = prime_export(vfd, vh);
	ASSERT_GE(dmabuf, 0);
	dst = map_rw(vfd, voff, 256 * 1024);
	ASSERT_NE(MAP_FAILED, dst);
	ASSERT_EQ(0, port_dmabuf_map(self->port, dmabuf, 0, &iova, NULL));
	ASSERT_EQ(0, dma_buf_alloc(self->port, 256 * 1024, &src));
	for (int k = 0; k < 256 * 1024; k++)
		((uint8_t *)src.va)[k] = (uint8_t)(k * 31 + 1);
	ASSERT_EQ(0, port_dmabuf_fence(self->port, iova, FPGA_PORT_FENCE_WRITE,
				       0, 0));
	sync = dmabuf_sync_file(dmabuf);
	ASSERT_GE(sync, 0);
	nlb_start(self->afu, self->dsm.iova, src.iova, iova,
		  256 * 1024 / NLB_CACHE_LINE, NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	ASSERT_EQ(POLLIN | POLLOUT, dmabuf_wait(dmabuf, 8000));
	EXPECT_EQ(1, sync_file_status(sync));
	EXPECT_EQ(0, memcmp(src.va, dst, 256 * 1024));
	munmap(dst, 256 * 1024);
	close(dmabuf);		/* the port's mapping keeps the dma-buf */
	EXPECT_EQ(0, dma_unmap(self->port, iova));
	close(vfd);
}

TEST_F(fpga, dmabuf_map_and_fence_errors)
{
	struct fpga_port_dmabuf_map m = { .argsz = sizeof(m) };
	struct fpga_port_dmabuf_fence f = { .argsz = sizeof(f) };
	uint64_t iova, other;
	struct vbuf b;
	int sync;

	ASSERT_EQ(0, vbuf_new(self->drm, 8192, 0, &b));
	EXPECT_EQ(-EBADF, port_dmabuf_map(self->port, 1000, 0, &iova, NULL));
	EXPECT_EQ(-EINVAL, port_dmabuf_map(self->port, self->port, 0, &iova, NULL));
	EXPECT_EQ(-EINVAL, port_dmabuf_map(self->port, b.dmabuf, 4, &iova, NULL));
	m.fd = b.dmabuf;
	m.pad = 1;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->port, FPGA_PORT_DMABUF_MAP, &m));
	m.pad = 0;
	m.argsz = 8;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->port, FPGA_PORT_DMABUF_MAP, &m));
	EXPECT_EQ(-EFAULT, drm_ioctl_err(self->port, FPGA_PORT_DMABUF_MAP, NULL));

	ASSERT_EQ(0, port_dmabuf_map(self->port, b.dmabuf, 0, &iova, NULL));
	EXPECT_EQ(-EEXIST, port_dmabuf_map(self->port, b.dmabuf, 0, &other, NULL));

	/* Fences: only on a dma-buf mapping of this file, on a real vector */
	EXPECT_EQ(-EINVAL, port_dmabuf_fence(self->port, self->dsm.iova, 0, 0, 0));
	EXPECT_EQ(-EINVAL, port_dmabuf_fence(self->port, iova + 4096, 0, 0, 0));
	EXPECT_EQ(-EINVAL, port_dmabuf_fence(self->port, iova, 2, 0, 0));
	EXPECT_EQ(-EINVAL, port_dmabuf_fence(self->port, iova, 0, 4, 0));
	EXPECT_EQ(-EINVAL, port_dmabuf_fence(self->port, iova, 0, 0, 60001));
	f.iova = iova;
	f.argsz = 4;
	EXPECT_EQ(-EINVAL, drm_ioctl_err(self->port, FPGA_PORT_DMABUF_FENCE, &f));
	/* Busy: a write fence excludes every other */
	ASSERT_EQ(0, port_dmabuf_fence(self->port, iova, FPGA_PORT_FENCE_WRITE,
				       3, 0));
	sync = dmabuf_sync_file(b.dmabuf);
	ASSERT_GE(sync, 0);
	EXPECT_EQ(-EBUSY, port_dmabuf_fence(self->port, iova, 0, 0, 0));
	EXPECT_EQ(-EBUSY, vgem_ext_fence(self->drm, b.c.handle, 0));
	/* The doorbell raises vector 3: the fence signals */
	nlb_write(self->afu, NLB_DOORBELL, 1 << 3);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 5000));
	EXPECT_EQ(1, sync_file_status(sync));

	/* Another opener can neither unmap nor fence this file's mapping */
	{
		char path[64];
		int fd2;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", self->port);
		fd2 = open(path, O_RDWR);
		ASSERT_GE(fd2, 0);
		EXPECT_EQ(-EINVAL, port_dmabuf_fence(fd2, iova, 0, 0, 0));
		EXPECT_EQ(-EINVAL, dma_unmap(fd2, iova));
		close(fd2);
	}
	EXPECT_EQ(0, dma_unmap(self->port, iova));
	vbuf_free(self->drm, &b);
}

/* A dma-buf exported read-only: the card may read it, never write it */
TEST_F(fpga, read_only_dmabuf_is_mapped_to_device_only)
{
	struct drm_vgem_ext_bo_create c;
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC };
	uint64_t iova;

	ASSERT_EQ(0, vgem_ext_create(self->drm, 8192, 0, &c));
	p.handle = c.handle;
	ASSERT_EQ(0, drm_ioctl_err(self->drm, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p));
	EXPECT_EQ(-EACCES, port_dmabuf_map(self->port, p.fd, 0, &iova, NULL));
	EXPECT_EQ(-EACCES, port_dmabuf_map(self->port, p.fd,
					   FPGA_PORT_DMA_FROM_DEV, &iova, NULL));
	ASSERT_EQ(0, port_dmabuf_map(self->port, p.fd, FPGA_PORT_DMA_TO_DEV,
				     &iova, NULL));
	EXPECT_EQ(0, dma_unmap(self->port, iova));
	close(p.fd);
	gem_close(self->drm, c.handle);
}

/*
 * The AFU only reads a FPGA_PORT_DMA_TO_DEV mapping: a write fence on it
 * is refused (EACCES), a read fence is not; mappings the AFU may write
 * take write fences.
 */
TEST_F(fpga, write_fence_needs_a_mapping_the_afu_writes)
{
	struct drm_vgem_ext_bo_create rc;
	uint64_t to, from, both, ro_iova;
	struct vbuf a, b, c;
	int ro, sync;

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &a));
	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b));
	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &c));
	ASSERT_EQ(0, port_dmabuf_map(self->port, a.dmabuf, FPGA_PORT_DMA_TO_DEV,
				     &to, NULL));
	ASSERT_EQ(0, port_dmabuf_map(self->port, b.dmabuf,
				     FPGA_PORT_DMA_FROM_DEV, &from, NULL));
	ASSERT_EQ(0, port_dmabuf_map(self->port, c.dmabuf, 0, &both, NULL));

	EXPECT_EQ(-EACCES, port_dmabuf_fence(self->port, to,
					     FPGA_PORT_FENCE_WRITE, 0, 0));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(a.dmabuf, 0));
	EXPECT_EQ(0, port_dmabuf_fence(self->port, to, 0, 0, 0));
	EXPECT_EQ(POLLIN, dmabuf_poll(a.dmabuf, 0));
	EXPECT_EQ(0, port_dmabuf_fence(self->port, from, FPGA_PORT_FENCE_WRITE,
				       0, 0));
	EXPECT_EQ(0, port_dmabuf_fence(self->port, both, FPGA_PORT_FENCE_WRITE,
				       0, 0));

	/* A read-only dma-buf, which only a TO_DEV mapping takes, likewise */
	ASSERT_EQ(0, vgem_ext_create(self->drm, 4096, 0, &rc));
	ro = prime_export_ro(self->drm, rc.handle);
	ASSERT_GE(ro, 0);
	ASSERT_EQ(0, port_dmabuf_map(self->port, ro, FPGA_PORT_DMA_TO_DEV,
				     &ro_iova, NULL));
	EXPECT_EQ(-EACCES, port_dmabuf_fence(self->port, ro_iova,
					     FPGA_PORT_FENCE_WRITE, 0, 0));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(ro, 0));

	/* Vector 0 signals what was armed */
	sync = dmabuf_sync_file(b.dmabuf);
	ASSERT_GE(sync, 0);
	nlb_write(self->afu, NLB_DOORBELL, 1);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 5000));
	EXPECT_EQ(1, sync_file_status(sync));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(a.dmabuf, 5000));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(c.dmabuf, 5000));
	EXPECT_EQ(0, dma_unmap(self->port, ro_iova));
	close(ro);
	gem_close(self->drm, rc.handle);
	vbuf_free(self->drm, &a);
	vbuf_free(self->drm, &b);
	vbuf_free(self->drm, &c);
}

/*
 * A read-only dma-buf, mapped FPGA_PORT_DMA_TO_DEV (the only way it maps),
 * takes no fence: a read fence would hold the owner's writers, for good if
 * it is armed again each time it times out.  The owner's write fence goes
 * in at once; a writable dma-buf mapped TO_DEV still takes a read fence.
 */
TEST_F(fpga, read_only_dmabuf_takes_no_fence)
{
	struct drm_vgem_ext_bo_create rc;
	uint64_t ro_iova, to;
	struct vbuf a;
	int ro, f;

	ASSERT_EQ(0, vgem_ext_create(self->drm, 4096, 0, &rc));
	ro = prime_export_ro(self->drm, rc.handle);
	ASSERT_GE(ro, 0);
	ASSERT_EQ(0, port_dmabuf_map(self->port, ro, FPGA_PORT_DMA_TO_DEV,
				     &ro_iova, NULL));
	EXPECT_EQ(-EACCES, port_dmabuf_fence(self->port, ro_iova, 0, 0, 60000));
	EXPECT_EQ(-EACCES, port_dmabuf_fence(self->port, ro_iova,
					     FPGA_PORT_FENCE_WRITE, 0, 60000));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_poll(ro, 0));
	/* Not held: the owner's write fence goes in now (EBUSY otherwise) */
	f = vgem_ext_fence(self->drm, rc.handle, VGEM_EXT_FENCE_WRITE);
	EXPECT_GT(f, 0);
	if (f > 0) {
		EXPECT_EQ(0, vgem_ext_signal(self->drm, f));
	}
	EXPECT_EQ(0, dma_unmap(self->port, ro_iova));

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &a));
	ASSERT_EQ(0, port_dmabuf_map(self->port, a.dmabuf, FPGA_PORT_DMA_TO_DEV,
				     &to, NULL));
	EXPECT_EQ(0, port_dmabuf_fence(self->port, to, 0, 0, 0));
	EXPECT_EQ(POLLIN, dmabuf_poll(a.dmabuf, 0));
	nlb_write(self->afu, NLB_DOORBELL, 1);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(a.dmabuf, 5000));
	EXPECT_EQ(0, dma_unmap(self->port, to));
	close(ro);
	gem_close(self->drm, rc.handle);
	vbuf_free(self->drm, &a);
}

/*
 * Read fences do not exclude each other, so their number is capped: 64
 * pending per file (ENOSPC), which another file does not share, and
 * closing the file gives them back.
 */
TEST_F(fpga, pending_fences_are_capped_per_file)
{
	uint64_t iova, iova2;
	struct vbuf b, b2;
	char path[64];
	int fd2, i;

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b));
	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b2));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", self->port);
	fd2 = open(path, O_RDWR);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, port_dmabuf_map(fd2, b.dmabuf, 0, &iova, NULL));
	ASSERT_EQ(0, port_dmabuf_map(self->port, b2.dmabuf, 0, &iova2, NULL));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, port_dmabuf_fence(fd2, iova, 0, 1, 60000)) {
			TH_LOG("fence %d", i);
		}
	EXPECT_EQ(-ENOSPC, port_dmabuf_fence(fd2, iova, 0, 1, 60000));
	/* Another file has its own budget */
	EXPECT_EQ(0, port_dmabuf_fence(self->port, iova2, 0, 1, 60000));
	/* Closing the file cancels its fences and frees their slots */
	close(fd2);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 5000));
	fd2 = open(path, O_RDWR);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, port_dmabuf_map(fd2, b.dmabuf, 0, &iova, NULL));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, port_dmabuf_fence(fd2, iova, 0, 1, 60000));
	close(fd2);
	/* The doorbell raises vector 1: the fence of this file signals */
	nlb_write(self->afu, NLB_DOORBELL, 1 << 1);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b2.dmabuf, 5000));
	EXPECT_EQ(0, dma_unmap(self->port, iova2));
	vbuf_free(self->drm, &b);
	vbuf_free(self->drm, &b2);
}

/*
 * And 1024 pending per port, whoever holds them, so the interrupt
 * handler's walk of the port's list stays short.
 */
TEST_F(fpga, pending_fences_are_capped_per_port)
{
	uint64_t iova[17];
	char path[64];
	int fds[17], i, j;
	struct vbuf b;

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", self->port);
	for (i = 0; i < 17; i++) {
		fds[i] = open(path, O_RDWR);
		ASSERT_GE(fds[i], 0);
		ASSERT_EQ(0, port_dmabuf_map(fds[i], b.dmabuf, 0, &iova[i],
					     NULL));
	}
	for (i = 0; i < 16; i++)
		for (j = 0; j < 64; j++)
			ASSERT_EQ(0, port_dmabuf_fence(fds[i], iova[i], 0, 1,
						       60000)) {
				TH_LOG("file %d, fence %d", i, j);
			}
	/* This file has none pending, but the port has 1024 */
	EXPECT_EQ(-ENOSPC, port_dmabuf_fence(fds[16], iova[16], 0, 1, 60000));
	close(fds[0]);
	EXPECT_EQ(0, port_dmabuf_fence(fds[16], iova[16], 0, 1, 60000));
	for (i = 1; i < 17; i++)
		close(fds[i]);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 5000));
	vbuf_free(self->drm, &b);
}

TEST_F(fpga, fence_times_out_without_interrupt)
{
	struct vbuf b;
	uint64_t iova;
	double t0;
	int sync;

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b));
	ASSERT_EQ(0, port_dmabuf_map(self->port, b.dmabuf, 0, &iova, NULL));
	/*
	 * Its time runs from before the fence, so the check holds whatever
	 * stalls the VM; a jiffy timer may end up to a tick early
	 */
	t0 = now_ms();
	ASSERT_EQ(0, port_dmabuf_fence(self->port, iova, FPGA_PORT_FENCE_WRITE,
				       0, 1000));
	sync = dmabuf_sync_file(b.dmabuf);
	ASSERT_GE(sync, 0);
	EXPECT_EQ(0, dmabuf_poll(b.dmabuf, 100));
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 5000));
	EXPECT_GE(now_ms() - t0, 1000 - 20);
	EXPECT_EQ(-ETIMEDOUT, sync_file_status(sync));
	EXPECT_EQ(0, dma_unmap(self->port, iova));
	vbuf_free(self->drm, &b);
}

/* The fence and an eventfd share the completion interrupt */
TEST_F(fpga, fence_and_eventfd_share_the_interrupt)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 } };
	struct vbuf b;
	uint64_t iova, count = 0;
	struct pollfd p;

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b));
	set.fd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(set.fd, 0);
	ASSERT_EQ(0, ioctl(self->port, DFL_FPGA_PORT_UINT_SET_IRQ, &set));
	ASSERT_EQ(0, port_dmabuf_map(self->port, b.dmabuf, 0, &iova, NULL));
	ASSERT_EQ(0, port_dmabuf_fence(self->port, iova, FPGA_PORT_FENCE_WRITE,
				       0, 0));
	nlb_write(self->afu, NLB_DOORBELL, 1);
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 5000));
	p.fd = set.fd;
	p.events = POLLIN;
	ASSERT_EQ(1, poll(&p, 1, 5000));
	ASSERT_EQ(8, read(set.fd, &count, 8));
	EXPECT_EQ(1, count);
	close(set.fd);
	vbuf_free(self->drm, &b);	/* the port still maps it: fine */
}

/* Closing the port file cancels its fences and drops its mappings */
TEST_F(fpga, close_cancels_fences_and_mappings)
{
	struct vbuf b;
	uint64_t iova;
	int sync;

	ASSERT_EQ(0, vbuf_new(self->drm, 4096, 0, &b));
	ASSERT_EQ(0, port_dmabuf_map(self->port, b.dmabuf, 0, &iova, NULL));
	ASSERT_EQ(0, port_dmabuf_fence(self->port, iova, FPGA_PORT_FENCE_WRITE,
				       0, 0));
	EXPECT_EQ(0, dmabuf_poll(b.dmabuf, 0));
	sync = dmabuf_sync_file(b.dmabuf);
	ASSERT_GE(sync, 0);
	munmap((void *)self->afu, NLB_AFU_SIZE);
	close(self->port);
	self->port = -1;
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 1000));
	EXPECT_EQ(-ECANCELED, sync_file_status(sync));
	vbuf_free(self->drm, &b);
	/* Nothing holds vgem_ext now but our file */
	close(self->drm);
	self->drm = -1;
	EXPECT_EQ(0, unload_vgem_ext());
}

/* Card removed with a dma-buf mapped and a fence armed: no crash, no leak */
TEST_F(fpga, unplug_with_dmabuf_mapped)
{
	struct vbuf b;
	uint64_t iova;
	int sync;

	ASSERT_EQ(0, vbuf_new(self->drm, 1 * MiB, 0, &b));
	ASSERT_EQ(0, port_dmabuf_map(self->port, b.dmabuf, 0, &iova, NULL));
	ASSERT_EQ(0, port_dmabuf_fence(self->port, iova, FPGA_PORT_FENCE_WRITE,
				       0, 0));
	memset(b.cpu, 0x3c, MiB);
	sync = dmabuf_sync_file(b.dmabuf);
	ASSERT_GE(sync, 0);
	ASSERT_EQ(0, sim_del(self->card));
	/* The fence was cancelled, the mapping dropped */
	EXPECT_EQ(POLLIN | POLLOUT, dmabuf_wait(b.dmabuf, 1000));
	EXPECT_EQ(-ENODEV, sync_file_status(sync));
	EXPECT_EQ(-ENODEV, dma_unmap(self->port, iova));
	EXPECT_EQ(-ENODEV, port_dmabuf_map(self->port, b.dmabuf, 0, &iova, NULL));
	/* The buffer itself is fine */
	EXPECT_EQ(0x3c, b.cpu[MiB - 1]);
	munmap((void *)self->afu, NLB_AFU_SIZE);
	EXPECT_EQ(0, close(self->port));
	self->port = -1;
	vbuf_free(self->drm, &b);
	close(self->drm);
	self->drm = -1;
	/* Every reference was given back: both modules unload */
	EXPECT_EQ(0, unload_vgem_ext());
	EXPECT_EQ(0, run_cmd("modprobe -r fpga_port"));
}

TEST_HARNESS_MAIN
