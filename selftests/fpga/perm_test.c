// SPDX-License-Identifier: GPL-2.0-only
/*
 * The permission matrix: every operation on a card (the port's and the
 * FME's ioctls, mmap of the AFU and of uio_fpga's maps, remote access to
 * those mappings, sysfs writes and the commands of the netlink family
 * "fpga") for four users, on a card behind the simulated IOMMU and on one
 * without it (fpga_sim iommu=0), each cell the result that
 * Documentation/security.md promises.
 *
 * The users, each cell run in a child of its own:
 *   root     uid 0 with every capability, the node opened read-write
 *   rw       nobody with the supplementary group fpga, the node opened
 *            read-write (the udev rule's root:fpga 0660, set for the test)
 *   ro       the same user with the node opened read-only
 *   others   nobody without the group: the node cannot be opened
 *
 * One table, rows[], is both the test and the documentation:
 * "perm_test --markdown" prints it as Documentation/security.md shows it,
 * and scripts/check/perm-table.sh fails when the two differ.  A row where the
 * code does not do what security.md says keeps security.md's answer and
 * names the finding (findings[]), which the failure then quotes.
 */
#define _GNU_SOURCE		/* process_vm_writev(), strerrorname_np() */
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <linux/fpga-dfl.h>
#include <linux/fpga-suite.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "uio_util.h"
#include "nlb_util.h"
#include "vgem_util.h"
#include "nl_util.h"
#include "pr_util.h"

#define NOBODY		65534
#define FPGA_GID	200	/* group fpga of the VM (scripts/vm/init) */
#define PAGE		4096
#define MARK		0x5a5a5a5a12345678ULL

/* Columns: users, then cards */
enum user { ROOT, RW, RO, OTHERS, USERS };
enum card { TRANSLATED, UNTRANSLATED, CARDS };

/* A cell's result beyond 0 and errnos */
#define RES_SIGNAL	1000	/* + the signal that killed the process */
#define RES_SETUP	1255	/* the process could not become its user */

/* What root prepared, inherited by the users' processes */
struct world {
	unsigned int card;
	unsigned int new_id, del_id;	/* cards to make, and to remove */
	int port, uio_port, fme;	/* fpga-port.N bound to each driver */
	char port_dev[48], uio_dev[48], fme_dev[48];
	char port_sys[96], uio_sys[96], fme_sys[96], sim_sys[96];
	char dfl_port_sys[PATH_MAX];	/* the port by upstream's name */
	char hwmon_sys[PATH_MAX];	/* the FME's dfl_fme_power, or "" */
	int pr_port;			/* fpga-port.N of port 2, programmed */
	struct stat saved[3];		/* the nodes' owner and mode */
	int root_port, root_uio;	/* root's files, held for the test */
	struct dma_buf root_buf;	/* mapped through root_port */
	int drm, dmabuf;		/* a vgem_ext buffer, exported */
	uint64_t root_dmabuf_iova;	/* dmabuf mapped through root_port */
	int ro_dmabuf;			/* another, exported read-only */
	uint64_t root_ro_iova;		/* ro_dmabuf mapped TO_DEV, root_port */
	char render_dev[48];		/* vgem_ext's render node */
	struct stat render_saved;	/* its owner and mode */
};

enum node { NO_NODE, PORT, FME, UIO, RENDER };
enum remote { LOCAL, MEM_READ, MEM_WRITE, VM_WRITEV };
/* sysfs: the ports' devices, the FME's, the card's, module parameters */
enum dir {
	PORT_DIR, UIO_DIR, DFL_PORT_DIR, FME_DIR, SIM_DIR, MODULE_DIR,
	HWMON_DIR,
};

struct perm_row;

/* One cell: the row's node opened as the column's user */
struct cell {
	const struct world *w;
	const struct perm_row *row;
	int fd;
	bool writer;		/* the node is open for writing */
};

struct perm_row {
	const char *group;	/* starts a section of the table */
	const char *what;	/* the operation, as the table prints it */
	enum node node;		/* opened before op; NO_NODE: none */
	int (*op)(struct cell *c);	/* 0 or -errno */
	void (*setup)(struct world *w);		/* by root, before the cell */
	void (*cleanup)(struct world *w);	/* by root, after the cell */
	unsigned long cmd;	/* ioctl and netlink rows: the command */
	enum dir dir;		/* sysfs rows: attr in this directory ...;
				 * PORT_RESET: UIO_DIR, uio_fpga's port */
	const char *attr;
	const char *value;	/* ... gets value; NULL: what it holds */
	int map;		/* mmap rows: the map (port: 0, the AFU) */
	int prot;
	enum remote remote;	/* then this access to the mapping */
	int expect[USERS][CARDS];	/* 0 or the errno security.md gives */
	int finding;		/* 1.. where the code disagrees: findings[] */
};

/*
 * Where the code does not do what Documentation/security.md promises:
 * the row keeps the promise, and a failing cell quotes this.
 */
static const char *const findings[] = {
	NULL,	/* none today */
};

/* ---- the operations ---- */

static int sys_ret(long ret)
{
	return ret < 0 ? -errno : 0;
}

static int op_api_version(struct cell *c)
{
	return sys_ret(ioctl(c->fd, DFL_FPGA_GET_API_VERSION));
}

static int op_check_extension(struct cell *c)
{
	return sys_ret(ioctl(c->fd, DFL_FPGA_CHECK_EXTENSION,
			     FPGA_PORT_EXT_DMABUF));
}

static int op_port_info(struct cell *c)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };

	return sys_ret(ioctl(c->fd, DFL_FPGA_PORT_GET_INFO, &info));
}

static int op_region_info(struct cell *c)
{
	struct dfl_fpga_port_region_info r = { .argsz = sizeof(r) };

	return sys_ret(ioctl(c->fd, DFL_FPGA_PORT_GET_REGION_INFO, &r));
}

/* The vectors of the row's interrupt */
static int op_irq_num(struct cell *c)
{
	uint32_t n = 0;

	return sys_ret(ioctl(c->fd, c->row->cmd, &n));
}

/* Bind an eventfd to vector 0, then unbind it */
static int op_set_irq(struct cell *c)
{
	unsigned long cmd = c->row->cmd;
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 } };
	int ret;

	set.fd = eventfd(0, EFD_CLOEXEC);
	if (set.fd < 0)
		return -errno;
	ret = sys_ret(ioctl(c->fd, cmd, &set));
	close(set.fd);
	set.fd = -1;
	return ret ? ret : sys_ret(ioctl(c->fd, cmd, &set));
}

/* The row's node again, in the cell's mode, to itself (O_EXCL) */
static int op_open_excl(struct cell *c)
{
	const char *dev = c->row->node == FME ? c->w->fme_dev : c->w->port_dev;

	close(c->fd);
	c->fd = open(dev, (c->writer ? O_RDWR : O_RDONLY) | O_EXCL | O_CLOEXEC);
	return c->fd < 0 ? -errno : 0;
}

static int op_reset(struct cell *c)
{
	return sys_ret(ioctl(c->fd, DFL_FPGA_PORT_RESET, 0));
}

/*
 * Program port 2 with the AFU it runs (NLB0): it comes back as it was.
 * Not port 0 or 1: a programming replaces the port's device (and /dev
 * node), which the other rows and root's open files use.
 */
#define PERM_FIRMWARE	"fpga-suite-perm-test.bin"

static int op_port_pr(struct cell *c)
{
	size_t len;
	uint8_t *bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 0, &len);
	int ret;

	if (!bs)
		return -ENOMEM;
	ret = pr_program(c->fd, 2, bs, len);
	free(bs);
	return ret;
}

/* Port 2, the PR rows' own: released, and assigned back */
static int op_port_release(struct cell *c)
{
	int port = 2;

	return sys_ret(ioctl(c->fd, DFL_FPGA_FME_PORT_RELEASE, &port));
}

static int op_port_assign(struct cell *c)
{
	int port = 2;

	return sys_ret(ioctl(c->fd, DFL_FPGA_FME_PORT_ASSIGN, &port));
}

/* A page of this process mapped for the AFU; 0 or -errno */
static int map_page(struct cell *c, uint64_t *iova)
{
	struct dma_buf b = { 0 };
	int ret = dma_buf_alloc(c->fd, PAGE, &b);

	*iova = b.iova;
	return ret;
}

static int op_dma_map(struct cell *c)
{
	uint64_t iova;
	int ret = map_page(c, &iova);

	/* Unmapped at once: a closed file's mapping waits for a reset */
	return ret ? ret : dma_unmap(c->fd, iova);
}

/* Of a mapping of its own; a read-only file (it has none): of root's */
static int op_dma_unmap(struct cell *c)
{
	uint64_t iova = c->w->root_buf.iova;
	int ret;

	if (c->writer) {
		ret = map_page(c, &iova);
		if (ret)
			return ret;
	}
	return dma_unmap(c->fd, iova);
}

static int op_dmabuf_map(struct cell *c)
{
	uint64_t iova;
	int ret = port_dmabuf_map(c->fd, c->w->dmabuf, 0, &iova, NULL);

	return ret ? ret : dma_unmap(c->fd, iova);
}

/*
 * A read fence on @dmabuf, mapped with @flags by this file; a read-only
 * file (it maps nothing): on root's mapping of it at @root_iova
 */
static int dmabuf_read_fence(struct cell *c, int dmabuf, uint32_t flags,
			     uint64_t root_iova)
{
	uint64_t iova = root_iova;
	int ret;

	if (c->writer) {
		ret = port_dmabuf_map(c->fd, dmabuf, flags, &iova, NULL);
		if (ret)
			return ret;
	}
	/* No interrupt comes: the fence times out, or is cancelled */
	ret = port_dmabuf_fence(c->fd, iova, 0, 0, 1);
	if (c->writer)
		dma_unmap(c->fd, iova);
	return ret;
}

static int op_dmabuf_fence(struct cell *c)
{
	return dmabuf_read_fence(c, c->w->dmabuf, 0, c->w->root_dmabuf_iova);
}

/* A read-only dma-buf maps only FPGA_PORT_DMA_TO_DEV */
static int op_ro_dmabuf_fence(struct cell *c)
{
	return dmabuf_read_fence(c, c->w->ro_dmabuf, FPGA_PORT_DMA_TO_DEV,
				 c->w->root_ro_iova);
}

/* vgem_ext: import the read-only dma-buf and attach a read fence */
static int op_vgem_ro_fence(struct cell *c)
{
	uint32_t handle;
	int ret = prime_import(c->fd, c->w->ro_dmabuf, &handle);

	if (ret)
		return ret;
	ret = vgem_ext_fence(c->fd, handle, 0);
	return ret > 0 ? vgem_ext_signal(c->fd, ret) : ret;
}

/* 8 bytes at @addr of this process through /proc/self/mem */
static int proc_mem(volatile uint64_t *addr, bool write)
{
	uint64_t v = MARK;
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (write)
		n = pwrite(fd, &v, sizeof(v), (off_t)(uintptr_t)addr);
	else
		n = pread(fd, &v, sizeof(v), (off_t)(uintptr_t)addr);
	n = n == sizeof(v) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return n;
}

static int vm_writev(volatile uint64_t *addr)
{
	uint64_t v = MARK;
	struct iovec local = { .iov_base = &v, .iov_len = sizeof(v) };
	struct iovec remote = { .iov_base = (void *)addr,
				.iov_len = sizeof(v) };

	return sys_ret(process_vm_writev(getpid(), &local, 1, &remote, 1, 0));
}

/* mmap the row's map (two pages of the AFU, a page of the others) */
static int op_mmap(struct cell *c)
{
	const struct perm_row *r = c->row;
	size_t len = r->map == UIO_MAP_AFU ? 2 * PAGE : PAGE;
	volatile uint64_t *reg;
	int ret = 0;
	void *p;

	p = mmap(NULL, len, r->prot, MAP_SHARED, c->fd, (off_t)r->map * PAGE);
	if (p == MAP_FAILED)
		return -errno;
	reg = (volatile uint64_t *)((char *)p + (len > PAGE ? NLB_SCRATCH : 0));
	switch (r->remote) {
	case LOCAL:
		break;
	case MEM_READ:
	case MEM_WRITE:
		ret = proc_mem(reg, r->remote == MEM_WRITE);
		break;
	case VM_WRITEV:
		ret = vm_writev(reg);
		break;
	}
	munmap(p, len);
	return ret;
}

/* UIO: enable the interrupt */
static int op_uio_write(struct cell *c)
{
	int32_t on = 1;

	return sys_ret(write(c->fd, &on, sizeof(on)));
}

/* Write back what @path holds; "(null)" (no driver_override) is "\n" */
static int write_back(const char *path)
{
	char v[128];
	int ret = sysfs_read(path, v, sizeof(v));

	if (ret)
		return ret;
	return sysfs_write(path, strcmp(v, "(null)") ? v : "\n");
}

static int write_at(const char *dir, const char *attr, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	return val ? sysfs_write(path, val) : write_back(path);
}

/* The sysfs directory a row's attribute is in; "" where there is none */
static const char *row_dir(const struct cell *c)
{
	const struct world *w = c->w;
	const char *dirs[] = {
		[PORT_DIR] = w->port_sys, [UIO_DIR] = w->uio_sys,
		[DFL_PORT_DIR] = w->dfl_port_sys, [FME_DIR] = w->fme_sys,
		[SIM_DIR] = w->sim_sys, [MODULE_DIR] = "/sys/module",
		[HWMON_DIR] = w->hwmon_sys,
	};

	return dirs[c->row->dir];
}

static int op_sysfs(struct cell *c)
{
	const char *dir = row_dir(c);

	/* A kernel without hwmon (the debug kernel): nothing to check */
	if (!*dir)
		return -ENOSYS;
	return write_at(dir, c->row->attr, c->row->value);
}

/* Reading the attribute, for the files only root may read (mode 0400) */
static int op_sysfs_read(struct cell *c)
{
	char path[PATH_MAX], v[128];

	snprintf(path, sizeof(path), "%s/%s", row_dir(c), c->row->attr);
	return sysfs_read(path, v, sizeof(v));
}

static int op_new_device(struct cell *c)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u 1", c->w->new_id);
	return sysfs_write(SIM_BUS "/new_device", buf);
}

static int op_del_device(struct cell *c)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", c->w->del_id);
	return sysfs_write(SIM_BUS "/del_device", buf);
}

/* A netlink request of the family "fpga" on a socket of its own */
static int op_netlink(struct cell *c)
{
	const struct world *w = c->w;
	int cmd = c->row->cmd;
	char path[PATH_MAX];
	struct nl_res r = { .valid = NULL };
	struct nl_sock *sk;
	struct nl_msg *msg;
	long long errors;
	int family, ret;

	sk = nlt_open(&family);
	if (!sk)
		return -ENOENT;
	switch (cmd) {
	case FPGA_NL_CMD_DEV_GET:
		msg = nlt_msg(family, cmd, NLM_F_DUMP);
		ret = msg ? nlt_do(sk, msg, &r) : -ENOMEM;
		break;
	case FPGA_NL_CMD_PORT_RESET:
		/* The port uio_fpga owns, for a row in its directory */
		ret = nlt_port_cmd(sk, family, cmd, c->row->dir == UIO_DIR ?
				   w->uio_port : w->port, -1, &r);
		break;
	case FPGA_NL_CMD_PORT_CLEAR_ERRORS:
		/* The current value, which is what clearing takes */
		snprintf(path, sizeof(path), "%s/errors/errors", w->port_sys);
		errors = sysfs_read_num(path);
		ret = errors < 0 ? -EIO :
		      nlt_port_cmd(sk, family, cmd, w->port, errors, &r);
		break;
	case FPGA_NL_CMD_PORT_PROGRAM:
		/* Port 2 again, as the ioctl's row: no other row uses it */
		msg = nlt_msg(family, cmd, 0);
		if (msg) {
			nla_put_u32(msg, FPGA_NL_A_DEV_ID, w->pr_port);
			nla_put_string(msg, FPGA_NL_A_FIRMWARE, PERM_FIRMWARE);
		}
		ret = msg ? nlt_do(sk, msg, &r) : -ENOMEM;
		break;
	default:
		ret = -EINVAL;
	}
	nl_socket_free(sk);
	return ret;
}

/* Join the multicast group "events" */
static int op_nl_listen(struct cell *c __attribute__((unused)))
{
	struct nl_sock *sk;
	int family, grp, ret;

	sk = nlt_open(&family);
	if (!sk)
		return -ENOENT;
	grp = genl_ctrl_resolve_grp(sk, FPGA_NL_FAMILY_NAME,
				    FPGA_NL_MCGRP_EVENTS);
	ret = grp < 0 ? -ENOENT :
	      sys_ret(setsockopt(nl_socket_get_fd(sk), SOL_NETLINK,
				 NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)));
	nl_socket_free(sk);
	return ret;
}

/* After a cell, by root: the card made goes, the card removed comes back */
/* Root's DFL_FPGA_FME_PORT_RELEASE or _ASSIGN of port 2 */
static void port2_ioctl(struct world *w, unsigned long cmd)
{
	int port = 2, fd = open(w->fme_dev, O_RDWR);

	if (fd < 0)
		return;
	ioctl(fd, cmd, &port);
	close(fd);
}

static void port2_released(struct world *w)
{
	port2_ioctl(w, DFL_FPGA_FME_PORT_RELEASE);
}

static void port2_assigned(struct world *w)
{
	port2_ioctl(w, DFL_FPGA_FME_PORT_ASSIGN);
}

static void new_card_gone(struct world *w)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u", w->new_id);
	if (path_exists(path))
		sim_del(w->new_id);
}

static void del_card_back(struct world *w)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u", w->del_id);
	if (!path_exists(path))
		sim_add(w->del_id, 1);
}

static void port_errors_cleared(struct world *w)
{
	write_at(w->port_sys, "errors/errors", NULL);
}

/* ---- the table ---- */

/* Rows of a kind: root, rw, ro, others; each {translated, untranslated} */
#define BOTH(e)		{ e, e }
/* GET_* and read-only mappings: anyone who can open the node */
#define READER		{ BOTH(0), BOTH(0), BOTH(0), BOTH(EACCES) }
/* changes the port: a file open for writing */
#define WRITER		{ BOTH(0), BOTH(0), BOTH(EBADF), BOTH(EACCES) }
/* DMA: a writer's, and without an IOMMU root's (CAP_SYS_RAWIO) */
#define DMA		{ BOTH(0), { 0, EPERM }, BOTH(EBADF), BOTH(EACCES) }
/* a writable mapping of the AFU or DMA memory: the same, from mmap */
#define MAP_RW		{ BOTH(0), { 0, EPERM }, BOTH(EACCES), BOTH(EACCES) }
/* reprograms the card: a writer with CAP_SYS_ADMIN */
#define ADMIN		{ BOTH(0), BOTH(EPERM), BOTH(EBADF), BOTH(EACCES) }
/* sysfs: mode 0644, 0200 or 0400, root's */
#define ROOT_FILE	{ BOTH(0), BOTH(EACCES), BOTH(EACCES), BOTH(EACCES) }
/* netlink: CAP_NET_ADMIN */
#define NET_ADMIN	{ BOTH(0), BOTH(EPERM), BOTH(EPERM), BOTH(EPERM) }
#define ANYONE		{ BOTH(0), BOTH(0), BOTH(0), BOTH(0) }

#define RD		PROT_READ
#define RDWR		(PROT_READ | PROT_WRITE)

static const struct perm_row rows[] = {
	{ .group = "`/dev/fpga-port.N`: ioctls",
	  .what = "`DFL_FPGA_GET_API_VERSION`", .node = PORT,
	  .op = op_api_version, .expect = READER },
	{ .what = "`DFL_FPGA_CHECK_EXTENSION`", .node = PORT,
	  .op = op_check_extension, .expect = READER },
	{ .what = "`DFL_FPGA_PORT_GET_INFO`", .node = PORT,
	  .op = op_port_info, .expect = READER },
	{ .what = "`DFL_FPGA_PORT_GET_REGION_INFO`", .node = PORT,
	  .op = op_region_info, .expect = READER },
	{ .what = "`DFL_FPGA_PORT_ERR_GET_IRQ_NUM`", .node = PORT,
	  .op = op_irq_num, .cmd = DFL_FPGA_PORT_ERR_GET_IRQ_NUM,
	  .expect = READER },
	{ .what = "`DFL_FPGA_PORT_UINT_GET_IRQ_NUM`", .node = PORT,
	  .op = op_irq_num, .cmd = DFL_FPGA_PORT_UINT_GET_IRQ_NUM,
	  .expect = READER },
	{ .what = "`DFL_FPGA_PORT_RESET`", .node = PORT,
	  .op = op_reset, .expect = WRITER },
	{ .what = "`DFL_FPGA_PORT_ERR_SET_IRQ`", .node = PORT,
	  .op = op_set_irq, .cmd = DFL_FPGA_PORT_ERR_SET_IRQ,
	  .expect = WRITER },
	{ .what = "`DFL_FPGA_PORT_UINT_SET_IRQ`", .node = PORT,
	  .op = op_set_irq, .cmd = DFL_FPGA_PORT_UINT_SET_IRQ,
	  .expect = WRITER },
	{ .what = "`DFL_FPGA_PORT_DMA_MAP`", .node = PORT,
	  .op = op_dma_map, .expect = DMA },
	{ .what = "`DFL_FPGA_PORT_DMA_UNMAP` (its own mapping; read-only: root's)",
	  .node = PORT, .op = op_dma_unmap, .expect = DMA },
	{ .what = "`FPGA_PORT_DMABUF_MAP`", .node = PORT,
	  .op = op_dmabuf_map, .expect = DMA },
	{ .what = "`FPGA_PORT_DMABUF_FENCE` (its own mapping; read-only: root's)",
	  .node = PORT, .op = op_dmabuf_fence, .expect = DMA },
	{ .what = "`FPGA_PORT_DMABUF_FENCE`, a read fence on a read-only dma-buf (mapped `FPGA_PORT_DMA_TO_DEV`)",
	  .node = PORT, .op = op_ro_dmabuf_fence,
	  .expect = { BOTH(EACCES), { EACCES, EPERM }, BOTH(EBADF),
		      BOTH(EACCES) } },

	{ .group = "`/dev/fpga-port.N`: the AFU's registers",
	  .what = "`mmap` read-only", .node = PORT, .op = op_mmap,
	  .prot = RD, .expect = READER },
	{ .what = "`mmap` read-write", .node = PORT, .op = op_mmap,
	  .prot = RDWR, .expect = MAP_RW },
	{ .what = "`/proc/PID/mem` read of a read-only mapping", .node = PORT,
	  .op = op_mmap, .prot = RD, .remote = MEM_READ, .expect = READER },
	{ .what = "`/proc/PID/mem` write into a read-only mapping",
	  .node = PORT, .op = op_mmap, .prot = RD, .remote = MEM_WRITE,
	  .expect = { BOTH(EIO), BOTH(EIO), BOTH(EIO), BOTH(EACCES) } },
	{ .what = "`/proc/PID/mem` write into a writable mapping",
	  .node = PORT, .op = op_mmap, .prot = RDWR, .remote = MEM_WRITE,
	  .expect = MAP_RW },
	{ .what = "`process_vm_writev` into a writable mapping", .node = PORT,
	  .op = op_mmap, .prot = RDWR, .remote = VM_WRITEV,
	  .expect = { BOTH(EFAULT), { EFAULT, EPERM }, BOTH(EACCES),
		      BOTH(EACCES) } },

	{ .group = "`/dev/fpga-fme.N`",
	  .what = "`DFL_FPGA_GET_API_VERSION`", .node = FME,
	  .op = op_api_version, .expect = READER },
	{ .what = "`DFL_FPGA_CHECK_EXTENSION`", .node = FME,
	  .op = op_check_extension, .expect = READER },
	{ .what = "`DFL_FPGA_FME_ERR_GET_IRQ_NUM`", .node = FME,
	  .op = op_irq_num, .cmd = DFL_FPGA_FME_ERR_GET_IRQ_NUM,
	  .expect = READER },
	{ .what = "`DFL_FPGA_FME_ERR_SET_IRQ`", .node = FME,
	  .op = op_set_irq, .cmd = DFL_FPGA_FME_ERR_SET_IRQ,
	  .expect = WRITER },
	{ .what = "`DFL_FPGA_FME_PORT_PR`", .node = FME,
	  .op = op_port_pr, .expect = ADMIN },
	{ .what = "`DFL_FPGA_FME_PORT_RELEASE`", .node = FME,
	  .op = op_port_release, .cleanup = port2_assigned, .expect = ADMIN },
	{ .what = "`DFL_FPGA_FME_PORT_ASSIGN` (of a released port)",
	  .node = FME, .op = op_port_assign, .setup = port2_released,
	  .cleanup = port2_assigned, .expect = ADMIN },
	{ .what = "`open` with `O_EXCL` (nobody else holds it)", .node = FME,
	  .op = op_open_excl,
	  .expect = { BOTH(0), BOTH(0), BOTH(EPERM), BOTH(EACCES) } },

	{ .group = "`/dev/uioX` (`uio_fpga`)",
	  .what = "`mmap` `afu` read-only", .node = UIO, .op = op_mmap,
	  .map = UIO_MAP_AFU, .prot = RD, .expect = READER },
	{ .what = "`mmap` `afu` read-write", .node = UIO, .op = op_mmap,
	  .map = UIO_MAP_AFU, .prot = RDWR, .expect = MAP_RW },
	{ .what = "`mmap` `port_header` read-only", .node = UIO,
	  .op = op_mmap, .map = UIO_MAP_HDR, .prot = RD, .expect = READER },
	{ .what = "`mmap` `port_header` read-write", .node = UIO,
	  .op = op_mmap, .map = UIO_MAP_HDR, .prot = RDWR,
	  .expect = { BOTH(EPERM), BOTH(EPERM), BOTH(EACCES), BOTH(EACCES) } },
	{ .what = "`mmap` `dma0` read-only", .node = UIO, .op = op_mmap,
	  .map = UIO_MAP_DMA0, .prot = RD, .expect = READER },
	{ .what = "`mmap` `dma0` read-write", .node = UIO, .op = op_mmap,
	  .map = UIO_MAP_DMA0, .prot = RDWR, .expect = MAP_RW },
	{ .what = "`write` (interrupt enable)", .node = UIO,
	  .op = op_uio_write, .expect = WRITER },
	{ .what = "`/proc/PID/mem` write into a read-only `afu` mapping",
	  .node = UIO, .op = op_mmap, .map = UIO_MAP_AFU, .prot = RD,
	  .remote = MEM_WRITE,
	  .expect = { BOTH(EIO), BOTH(EIO), BOTH(EIO), BOTH(EACCES) } },
	{ .what = "`/proc/PID/mem` write into a writable `afu` mapping",
	  .node = UIO, .op = op_mmap, .map = UIO_MAP_AFU, .prot = RDWR,
	  .remote = MEM_WRITE, .expect = MAP_RW },

	{ .group = "`/dev/dri/renderD*` (`vgem_ext`; mode 0666 here, so others open it too)",
	  .what = "`DRM_IOCTL_VGEM_EXT_FENCE_ATTACH`, a read fence on a read-only import",
	  .node = RENDER, .op = op_vgem_ro_fence,
	  .expect = { BOTH(EACCES), BOTH(EACCES), BOTH(EACCES),
		      BOTH(EACCES) } },

	{ .group = "sysfs (writing what is there, or as said)",
	  .what = "`fpga-port.N/reset` (1)", .op = op_sysfs, .dir = PORT_DIR,
	  .attr = "reset", .value = "1", .expect = ROOT_FILE },
	{ .what = "`fpga-port.N/errors/errors`", .op = op_sysfs,
	  .dir = PORT_DIR, .attr = "errors/errors", .expect = ROOT_FILE },
	{ .what = "`fpga-port.N/power_state` (read-only)", .op = op_sysfs,
	  .dir = PORT_DIR, .attr = "power_state", .value = "0",
	  .expect = { BOTH(EACCES), BOTH(EACCES), BOTH(EACCES),
		      BOTH(EACCES) } },
	{ .what = "`fpga-port.N/driver_override`", .op = op_sysfs,
	  .dir = PORT_DIR, .attr = "driver_override", .expect = ROOT_FILE },
	{ .what = "`dfl-port.N/ltr`", .op = op_sysfs, .dir = DFL_PORT_DIR,
	  .attr = "ltr", .expect = ROOT_FILE },
	{ .what = "`fpga-port.N/reset` of a `uio_fpga` port (1)",
	  .op = op_sysfs, .dir = UIO_DIR, .attr = "reset", .value = "1",
	  .expect = ROOT_FILE },
	{ .what = "`fpga-fme.N/errors/fme_errors`", .op = op_sysfs,
	  .dir = FME_DIR, .attr = "errors/fme_errors", .expect = ROOT_FILE },
	{ .what = "`fpga-fme.N/errors/inject_errors`", .op = op_sysfs,
	  .dir = FME_DIR, .attr = "errors/inject_errors",
	  .expect = ROOT_FILE },
	{ .what = "`fpga-fme.N/counters/*` read (`dma_rd_bytes`)",
	  .op = op_sysfs_read, .dir = FME_DIR,
	  .attr = "counters/dma_rd_bytes", .expect = ROOT_FILE },
	{ .what = "hwmon `dfl_fme_power` `power1_max`", .op = op_sysfs,
	  .dir = HWMON_DIR, .attr = "power1_max", .expect = ROOT_FILE },
	{ .what = "hwmon `dfl_fme_power` `power1_crit`", .op = op_sysfs,
	  .dir = HWMON_DIR, .attr = "power1_crit", .expect = ROOT_FILE },
	{ .what = "`fpga_sim/new_device`", .op = op_new_device,
	  .cleanup = new_card_gone, .expect = ROOT_FILE },
	{ .what = "`fpga_sim/del_device`", .op = op_del_device,
	  .cleanup = del_card_back, .expect = ROOT_FILE },
	{ .what = "`fpga_simID/fail_reset_ack`", .op = op_sysfs,
	  .dir = SIM_DIR, .attr = "fail_reset_ack", .expect = ROOT_FILE },
	{ .what = "`fpga_simID/portP/fail_dma`", .op = op_sysfs,
	  .dir = SIM_DIR, .attr = "port0/fail_dma", .expect = ROOT_FILE },
	{ .what = "`fpga_simID/portP/inject_error` (0x1)", .op = op_sysfs,
	  .dir = SIM_DIR, .attr = "port0/inject_error", .value = "0x1",
	  .cleanup = port_errors_cleared, .expect = ROOT_FILE },
	{ .what = "module parameter `fpga_port.reset_timeout_us`",
	  .op = op_sysfs, .dir = MODULE_DIR,
	  .attr = "fpga_port/parameters/reset_timeout_us",
	  .expect = ROOT_FILE },
	{ .what = "module parameter `fpga_fme.pr_timeout_us`",
	  .op = op_sysfs, .dir = MODULE_DIR,
	  .attr = "fpga_fme/parameters/pr_timeout_us",
	  .expect = ROOT_FILE },
	{ .what = "module parameter `fpga_dfl.allow_unsafe_dma`",
	  .op = op_sysfs, .dir = MODULE_DIR,
	  .attr = "fpga_dfl/parameters/allow_unsafe_dma",
	  .expect = ROOT_FILE },

	{ .group = "netlink family `fpga`",
	  .what = "`FPGA_NL_CMD_DEV_GET` (dump)", .op = op_netlink,
	  .cmd = FPGA_NL_CMD_DEV_GET, .expect = ANYONE },
	{ .what = "join the group `events`", .op = op_nl_listen,
	  .expect = ANYONE },
	{ .what = "`FPGA_NL_CMD_PORT_RESET`", .op = op_netlink,
	  .cmd = FPGA_NL_CMD_PORT_RESET, .expect = NET_ADMIN },
	{ .what = "`FPGA_NL_CMD_PORT_RESET` of a `uio_fpga` port",
	  .op = op_netlink, .cmd = FPGA_NL_CMD_PORT_RESET, .dir = UIO_DIR,
	  .expect = NET_ADMIN },
	{ .what = "`FPGA_NL_CMD_PORT_CLEAR_ERRORS`", .op = op_netlink,
	  .cmd = FPGA_NL_CMD_PORT_CLEAR_ERRORS, .expect = NET_ADMIN },
	{ .what = "`FPGA_NL_CMD_PORT_PROGRAM` (also needs `CAP_SYS_ADMIN`)",
	  .op = op_netlink, .cmd = FPGA_NL_CMD_PORT_PROGRAM,
	  .expect = NET_ADMIN },
};

/* ---- the table as Documentation/security.md prints it ---- */

static const char *const user_names[USERS] = {
	"root", "group `fpga`, read-write file", "group `fpga`, read-only file",
	"others",
};

static const char *res_name(int res, char *buf, size_t size)
{
	const char *name;

	if (!res)
		return "ok";
	if (res == RES_SETUP)
		return "no answer (set-up failed)";
	if (res > RES_SIGNAL) {
		snprintf(buf, size, "signal %d", res - RES_SIGNAL);
		return buf;
	}
	name = strerrorname_np(res);
	if (name)
		return name;
	snprintf(buf, size, "errno %d", res);
	return buf;
}

static int print_markdown(void)
{
	char a[32], b[32];
	size_t i;
	int u;

	printf("| operation |");
	for (u = 0; u < USERS; u++)
		printf(" %s |", user_names[u]);
	printf("\n|---|---|---|---|---|\n");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct perm_row *r = &rows[i];

		if (r->group)
			printf("| **%s** | | | | |\n", r->group);
		printf("| %s", r->what);
		if (r->finding)
			printf(" (F%d)", r->finding);
		printf(" |");
		for (u = 0; u < USERS; u++) {
			const int *e = r->expect[u];

			if (e[TRANSLATED] == e[UNTRANSLATED])
				printf(" %s |", res_name(e[TRANSLATED], a,
							 sizeof(a)));
			else
				printf(" %s / %s |",
				       res_name(e[TRANSLATED], a, sizeof(a)),
				       res_name(e[UNTRANSLATED], b, sizeof(b)));
		}
		printf("\n");
	}
	for (i = 1; i < ARRAY_SIZE(findings); i++)
		printf("\n(F%zu) Where the code disagrees today: %s.\n", i,
		       findings[i]);
	return 0;
}

/* ---- running the cells ---- */

static gid_t fpga_gid(void)
{
	struct group *g = getgrnam("fpga");

	return g ? g->gr_gid : FPGA_GID;
}

/* Become the column's user; root stays as it is */
static int become(enum user u)
{
	gid_t fpga = fpga_gid();

	if (u == ROOT)
		return 0;
	if (setgroups(u == OTHERS ? 0 : 1, &fpga) || setgid(NOBODY) ||
	    setuid(NOBODY))
		return -1;
	/* Changing uid made the process undumpable: /proc/self/mem root's */
	return prctl(PR_SET_DUMPABLE, 1) ? -1 : 0;
}

/* One cell, in the user's process: 0, an errno or RES_SETUP */
static int cell(const struct world *w, const struct perm_row *r, enum user u)
{
	const char *dev[] = { [PORT] = w->port_dev, [FME] = w->fme_dev,
			      [UIO] = w->uio_dev, [RENDER] = w->render_dev };
	struct cell c = { .w = w, .row = r, .fd = -1 };
	int ret;

	if (r->node != NO_NODE) {
		c.writer = u == ROOT || u == RW;
		c.fd = open(dev[r->node], (c.writer ? O_RDWR : O_RDONLY) |
			    O_CLOEXEC);
		if (c.fd < 0)
			return errno;
	}
	ret = r->op(&c);
	if (c.fd >= 0)
		close(c.fd);
	return ret > 0 ? RES_SETUP : -ret;
}

/*
 * The user's process: the rows from @first on, each when the parent says
 * go (a byte on @go), its result back on @res.  One process a user, not a
 * cell: a fork costs more than a cell on an emulated CPU.
 */
static void user_process(const struct world *w, enum user u, size_t first,
			 int go, int res)
{
	bool ok = !become(u);
	size_t i;
	char c;

	for (i = first; i < ARRAY_SIZE(rows) && read(go, &c, 1) == 1; i++) {
		int r = ok ? cell(w, &rows[i], u) : RES_SETUP;

		if (write(res, &r, sizeof(r)) != sizeof(r))
			break;
	}
	_exit(0);
}

/*
 * Every row as user @u into @res[]; root cleans up after each.  A process
 * killed by a signal (a SIGBUS from a mapping, say) costs only its row:
 * the next row gets a new one.
 */
static void run_user(struct world *w, enum user u, int *res)
{
	size_t i = 0;

	while (i < ARRAY_SIZE(rows)) {
		int go[2], back[2], status = 0;
		pid_t pid;

		if (pipe(go) || pipe(back)) {
			res[i++] = RES_SETUP;
			continue;
		}
		fflush(NULL);
		pid = fork();
		if (!pid) {
			close(go[1]);
			close(back[0]);
			user_process(w, u, i, go[0], back[1]);
		}
		close(go[0]);
		close(back[1]);
		for (; pid > 0 && i < ARRAY_SIZE(rows); i++) {
			char c = 0;

			if (rows[i].setup)
				rows[i].setup(w);
			if (write(go[1], &c, 1) != 1 ||
			    read(back[0], &res[i], sizeof(res[i])) !=
			    sizeof(res[i]))
				break;
			if (rows[i].cleanup)
				rows[i].cleanup(w);
		}
		close(go[1]);
		close(back[0]);
		if (pid > 0)
			waitpid(pid, &status, 0);
		if (i < ARRAY_SIZE(rows)) {
			/* The row the process did not answer */
			res[i] = WIFSIGNALED(status) ?
				 RES_SIGNAL + WTERMSIG(status) : RES_SETUP;
			if (rows[i].cleanup)
				rows[i].cleanup(w);
			i++;
		}
	}
}

FIXTURE(perm) {
	struct world w;
};

FIXTURE_VARIANT(perm) {
	enum card card;
};

FIXTURE_VARIANT_ADD(perm, translated) { .card = TRANSLATED };
FIXTURE_VARIANT_ADD(perm, untranslated) { .card = UNTRANSLATED };

/* The card's hwmon device called @name, under its PCI function; or "" */
static void find_hwmon(struct world *w, const char *name)
{
	char path[PATH_MAX], card[PATH_MAX], dev[PATH_MAX];
	glob_t g;
	size_t i;

	w->hwmon_sys[0] = '\0';
	snprintf(path, sizeof(path), "%s/pci_function", w->sim_sys);
	if (!realpath(path, card) ||
	    glob("/sys/class/hwmon/hwmon*", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		snprintf(path, sizeof(path), "%s/device", g.gl_pathv[i]);
		if (!realpath(path, dev) || strcmp(dev, card))
			continue;
		snprintf(path, sizeof(path), "%s/name", g.gl_pathv[i]);
		if (!sysfs_read(path, dev, sizeof(dev)) && !strcmp(dev, name)) {
			snprintf(w->hwmon_sys, sizeof(w->hwmon_sys), "%s",
				 g.gl_pathv[i]);
			break;
		}
	}
	globfree(&g);
}

/*
 * vgem_ext's render node, open to everyone (0666) for the test: what its
 * row checks is the dma-buf its user holds, not who may open the node
 */
static int find_render_node(struct world *w)
{
	char fdpath[64];
	int fd = drm_open_driver("vgem_ext", "renderD");
	ssize_t n;

	if (fd < 0)
		return fd;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	n = readlink(fdpath, w->render_dev, sizeof(w->render_dev) - 1);
	close(fd);
	if (n <= 0 || n >= (ssize_t)sizeof(w->render_dev) - 1)
		return -ENAMETOOLONG;
	w->render_dev[n] = '\0';
	if (stat(w->render_dev, &w->render_saved))
		return -errno;
	return chmod(w->render_dev, 0666) ? -errno : 0;
}

static const char *node_of(struct world *w, int i)
{
	return i == 0 ? w->port_dev : i == 1 ? w->fme_dev : w->uio_dev;
}

FIXTURE_SETUP(perm)
{
	struct world *w = &self->w;
	char path[PATH_MAX], uio[32];
	struct drm_vgem_ext_bo_create bo;
	uint8_t *bs;
	size_t len;
	glob_t g;
	int ret, i;

	w->root_port = w->root_uio = w->drm = w->dmabuf = w->ro_dmabuf = -1;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && "
			     "modprobe fpga_fme && modprobe uio_fpga && "
			     "modprobe vgem_ext"));
	w->card = sim_random_id();
	w->new_id = w->card + 1;
	w->del_id = w->card + 2;
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM,
				 variant->card == UNTRANSLATED ? "0" : "1"));
	/* Port 2 is the one DFL_FPGA_FME_PORT_PR programs: no other row's */
	ret = sim_add(w->card, 3);
	/* Only this card: the parameter goes back before anything else */
	ASSERT_EQ(0, sysfs_write(SIM_IOMMU_PARAM, "1"));
	ASSERT_EQ(0, ret);
	/* For the rows that remove a card */
	ASSERT_EQ(0, sim_add(w->del_id, 1));

	/* Port 0 on fpga_port, port 1 on uio_fpga, and the FME */
	w->port = sim_port_number_at(w->card, 0);
	w->uio_port = sim_port_number_at(w->card, 1);
	ASSERT_GE(w->port, 0);
	ASSERT_GE(w->uio_port, 0);
	ASSERT_EQ(0, port_bind(w->uio_port, "uio_fpga"));
	ASSERT_EQ(0, port_uio(w->uio_port, uio, sizeof(uio)));
	ASSERT_EQ(0, card_child(w->card, "fpga-fme.", path, sizeof(path)));
	w->fme = atoi(strrchr(path, '.') + 1);
	snprintf(w->port_dev, sizeof(w->port_dev), "/dev/fpga-port.%d",
		 w->port);
	snprintf(w->fme_dev, sizeof(w->fme_dev), "/dev/fpga-fme.%d", w->fme);
	snprintf(w->uio_dev, sizeof(w->uio_dev), "/dev/%s", uio);
	snprintf(w->port_sys, sizeof(w->port_sys), DFL_DEVICES "/fpga-port.%d",
		 w->port);
	snprintf(w->uio_sys, sizeof(w->uio_sys), DFL_DEVICES "/fpga-port.%d",
		 w->uio_port);
	snprintf(w->fme_sys, sizeof(w->fme_sys), DFL_DEVICES "/fpga-fme.%d",
		 w->fme);
	snprintf(w->sim_sys, sizeof(w->sim_sys), SIM_BUS "/devices/fpga_sim%u",
		 w->card);
	w->pr_port = sim_port_number_at(w->card, 2);
	ASSERT_GE(w->pr_port, 0);
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 0, &len);
	ASSERT_NE(NULL, bs);
	ret = pr_firmware_write(PERM_FIRMWARE, bs, len);
	free(bs);
	ASSERT_EQ(0, ret);
	find_hwmon(w, "dfl_fme_power");
	snprintf(path, sizeof(path),
		 "/sys/class/fpga_region/region*/dfl-port.%d", w->port);
	ASSERT_EQ(0, glob(path, 0, NULL, &g));
	snprintf(w->dfl_port_sys, sizeof(w->dfl_port_sys), "%s",
		 g.gl_pathv[0]);
	globfree(&g);

	/* As the udev rule leaves them: root:fpga 0660 */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, stat(node_of(w, i), &w->saved[i]));
		ASSERT_EQ(0, chown(node_of(w, i), 0, fpga_gid()));
		ASSERT_EQ(0, chmod(node_of(w, i), 0660));
	}

	/*
	 * Root holds the port and the UIO device open for the test: the
	 * cells' closes are then not the last (no reset, no zeroing), and
	 * its DMA mappings are there for the rows that try another's
	 */
	w->root_port = open(w->port_dev, O_RDWR | O_CLOEXEC);
	ASSERT_GE(w->root_port, 0);
	w->root_uio = open(w->uio_dev, O_RDWR | O_CLOEXEC);
	ASSERT_GE(w->root_uio, 0);
	ASSERT_EQ(0, dma_buf_alloc(w->root_port, PAGE, &w->root_buf));
	w->drm = drm_open_driver("vgem_ext", "card");
	ASSERT_GE(w->drm, 0);
	ASSERT_EQ(0, vgem_ext_create(w->drm, PAGE, VGEM_EXT_BO_POPULATE, &bo));
	w->dmabuf = prime_export(w->drm, bo.handle);
	ASSERT_GE(w->dmabuf, 0);
	ASSERT_EQ(0, port_dmabuf_map(w->root_port, w->dmabuf, 0,
				     &w->root_dmabuf_iova, NULL));
	ASSERT_EQ(0, vgem_ext_create(w->drm, PAGE, VGEM_EXT_BO_POPULATE, &bo));
	w->ro_dmabuf = prime_export_ro(w->drm, bo.handle);
	ASSERT_GE(w->ro_dmabuf, 0);
	ASSERT_EQ(0, port_dmabuf_map(w->root_port, w->ro_dmabuf,
				     FPGA_PORT_DMA_TO_DEV, &w->root_ro_iova,
				     NULL));
	ASSERT_EQ(0, find_render_node(w));
}

FIXTURE_TEARDOWN(perm)
{
	struct world *w = &self->w;
	int i;

	for (i = 0; i < 3; i++) {
		if (!w->saved[i].st_mode)
			continue;
		if (chown(node_of(w, i), w->saved[i].st_uid,
			  w->saved[i].st_gid) ||
		    chmod(node_of(w, i), w->saved[i].st_mode & 07777))
			TH_LOG("%s: owner or mode not restored", node_of(w, i));
	}
	if (w->render_saved.st_mode &&
	    chmod(w->render_dev, w->render_saved.st_mode & 07777))
		TH_LOG("%s: mode not restored", w->render_dev);
	if (w->dmabuf >= 0)
		close(w->dmabuf);
	if (w->ro_dmabuf >= 0)
		close(w->ro_dmabuf);
	if (w->drm >= 0)
		close(w->drm);
	if (w->root_port >= 0) {
		dma_buf_free(w->root_port, &w->root_buf);
		close(w->root_port);
	}
	if (w->root_uio >= 0)
		close(w->root_uio);
	new_card_gone(w);
	sim_del(w->del_id);
	sim_del(w->card);
	run_cmd("modprobe -r uio_fpga vgem_ext fpga_port fpga_fme fpga_sim fpga_dfl");
}

/*
 * Every cell of the variant's card, user after user: one fixture for all
 * four, as loading the modules and making the cards costs more than the
 * cells.  Each cell that differs from security.md is a line of its own.
 * Seconds on Debian's kernels, more than the harness's 30 s on the debug
 * kernel (the release and assign rows unplug and add a port per cell).
 */
TEST_F_TIMEOUT(perm, matrix, 300)
{
	static const char *const card_names[CARDS] = {
		"translated", "untranslated",
	};
	bool found[ARRAY_SIZE(findings)] = { false };
	enum card card = variant->card;
	int got[ARRAY_SIZE(rows)], failed = 0, u;
	char a[32], b[32], f[16];
	size_t i;

	for (u = ROOT; u < USERS; u++) {
		run_user(&self->w, u, got);
		for (i = 0; i < ARRAY_SIZE(rows); i++) {
			const struct perm_row *r = &rows[i];
			int want = r->expect[u][card];

			if (got[i] == want)
				continue;
			/*
			 * A syscall this kernel is built without (the debug
			 * kernel has no CROSS_MEMORY_ATTACH): no answer here
			 */
			if (got[i] == ENOSYS) {
				TH_LOG("%s, %s, %s card: ENOSYS, not in this kernel: not checked",
				       r->what, user_names[u], card_names[card]);
				continue;
			}
			failed++;
			found[r->finding] = true;
			snprintf(f, sizeof(f), " (F%d)", r->finding);
			TH_LOG("%s%s, %s, %s card: %s, security.md says %s",
			       r->what, r->finding ? f : "", user_names[u],
			       card_names[card], res_name(got[i], a, sizeof(a)),
			       res_name(want, b, sizeof(b)));
		}
	}
	for (i = 1; i < ARRAY_SIZE(findings); i++)
		if (found[i])
			TH_LOG("F%zu, known: %s", i, findings[i]);
	EXPECT_EQ(0, failed);
}

/* The harness's main, and ours in front of it for --markdown */
#define main perm_harness_main
TEST_HARNESS_MAIN
#undef main

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--markdown"))
		return print_markdown();
	return perm_harness_main(argc, argv);
}
