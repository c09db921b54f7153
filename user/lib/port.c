// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga ports: finding a port from what a user typed, opening it, its
 * ioctls (<linux/fpga-dfl.h>), MMIO of region 0, DMA mappings and
 * interrupts through eventfds.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fpga.h"
#include "fpga-int.h"
#include "probes.h"
#include "uio.h"

struct fpga_port {
	struct fpga_port_ref ref;
	int fd;			/* /dev/fpga-port.N, or the UIO device's */
	struct fpga_uio *uio;	/* bound to uio_fpga: opened through UIO */
	/* region 0, once mapped */
	volatile uint8_t *mmio;
	uint64_t mmio_size;
	uint32_t mmio_flags;
};

/* ---- lookup ---- */

void fpga_ref_paths(const char *prefix, int id, const char *devnode,
		    char *dev, size_t dev_size, char *sysfs, size_t sysfs_size)
{
	if (devnode)
		snprintf(dev, dev_size, "%s", devnode);
	else
		snprintf(dev, dev_size, "/dev/%s%d", prefix, id);
	snprintf(sysfs, sysfs_size, "%s" FPGA_SYSFS_BUS "/%s%d",
		 fpga_sysfs_root(), prefix, id);
}

static void fpga_port_ref_fill(struct fpga_port_ref *ref, int id,
			       const char *devnode)
{
	ref->id = id;
	fpga_ref_paths(FPGA_PORT_PREFIX, id, devnode, ref->devnode,
		       sizeof(ref->devnode), ref->sysfs, sizeof(ref->sysfs));
}

void fpga_path_base(const char *path, char *out, size_t size)
{
	size_t len = strlen(path);
	const char *start;

	while (len > 1 && path[len - 1] == '/')
		len--;
	start = path + len;
	while (start > path && start[-1] != '/')
		start--;
	len -= start - path;
	if (len >= size)
		len = size - 1;
	memcpy(out, start, len);
	out[len] = '\0';
}

/* A char device node: its device from its name, else from /sys/dev/char */
static int fpga_lookup_node(const struct fpga_kind *k, const char *spec,
			    const struct stat *st, int *id, bool *own_node)
{
	char path[PATH_MAX], real[PATH_MAX], name[NAME_MAX + 1];

	*own_node = true;
	if (realpath(spec, path)) {
		fpga_path_base(path, name, sizeof(name));
		if (!k->parse(name, id))
			return 0;
	}
	snprintf(path, sizeof(path), "%s/dev/char/%u:%u", fpga_sysfs_root(),
		 major(st->st_rdev), minor(st->st_rdev));
	if (realpath(path, real)) {
		fpga_path_base(real, name, sizeof(name));
		if (!k->parse(name, id))
			return 0;
		if (k->other_node && !k->other_node(real, id)) {
			*own_node = false;
			return 0;
		}
	}
	return fpga_set_error(ENODEV, "%s is not an FPGA %s device", spec,
			      k->what);
}

int fpga_lookup(const struct fpga_kind *k, const char *spec, int *id,
		bool *own_node)
{
	char name[NAME_MAX + 1];
	const char *root = fpga_sysfs_root();
	size_t rlen = strlen(root);
	struct stat st;
	uint64_t v;

	*own_node = false;
	if (!spec || !*spec)
		return fpga_set_error(EINVAL, "empty %s name", k->what);

	/* N */
	if (spec[0] >= '0' && spec[0] <= '9' && !strchr(spec, '/')) {
		if (fpga_parse_u64(spec, &v) || v > INT_MAX)
			return fpga_set_error(EINVAL, "'%s' is not a %s", spec,
					      k->number);
		*id = (int)v;
		return 0;
	}

	/* fpga-port.N */
	if (!strchr(spec, '/')) {
		if (!k->parse(spec, id))
			return 0;
		return fpga_set_error(EINVAL, "'%s' is not %s (give %s)", spec,
				      k->a_what, k->forms);
	}

	/* a sysfs path: /sys/.../fpga-port.N */
	if (!strncmp(spec, root, rlen) && spec[rlen] == '/') {
		fpga_path_base(spec, name, sizeof(name));
		if (k->parse(name, id))
			return fpga_set_error(EINVAL,
					      "%s is not %s in sysfs (expected .../%s)",
					      spec, k->a_what, k->expect);
		if (stat(spec, &st))
			return fpga_set_error(errno, "%s: %s", spec,
					      strerror(errno));
		return 0;
	}

	/* a device node */
	if (stat(spec, &st)) {
		int err = errno;

		fpga_path_base(spec, name, sizeof(name));
		if (err == ENOENT && !k->parse(name, id))
			return fpga_set_error(err, "%s: %s (is %s loaded?)",
					      spec, strerror(err), k->driver);
		return fpga_set_error(err, "%s: %s", spec, strerror(err));
	}
	if (!S_ISCHR(st.st_mode))
		return fpga_set_error(ENODEV, "%s is not a character device",
				      spec);
	return fpga_lookup_node(k, spec, &st, id, own_node);
}

/* uio_fpga's UIO device: .../fpga-port.N/uio/uioX */
static int fpga_port_uio_node(char *real, int *id)
{
	char name[NAME_MAX + 1], *slash;

	slash = strrchr(real, '/');
	if (!slash || strncmp(slash + 1, "uio", 3))
		return -ENODEV;
	*slash = '\0';
	slash = strrchr(real, '/');
	if (!slash || strcmp(slash, "/uio"))
		return -ENODEV;
	*slash = '\0';
	fpga_path_base(real, name, sizeof(name));
	return fpga_parse_port_name(name, id) ? -ENODEV : 0;
}

static const struct fpga_kind fpga_port_kind = {
	.what = "port",
	.a_what = "a port",
	.number = "port number",
	.forms = "N, fpga-port.N, dfl-port.N, /dev/fpga-port.N, /dev/dfl-port.N or a sysfs path",
	.expect = "fpga-port.N or .../dfl-port.N",
	.driver = "the port driver",
	.parse = fpga_parse_port_name,
	.other_node = fpga_port_uio_node,
};

int fpga_port_lookup(const char *spec, struct fpga_port_ref *ref)
{
	bool own_node;
	int id, ret;

	memset(ref, 0, sizeof(*ref));
	ret = fpga_lookup(&fpga_port_kind, spec, &id, &own_node);
	if (ret)
		return ret;
	fpga_port_ref_fill(ref, id, own_node ? spec : NULL);
	return 0;
}

/* ---- open and ioctls ---- */

int fpga_port_open(const char *spec, unsigned int flags,
		   struct fpga_port **out)
{
	struct fpga_port *port;
	char drv[64];
	struct stat st;
	int fd, err, ret;

	*out = NULL;
	port = calloc(1, sizeof(*port));
	if (!port)
		return fpga_set_error(ENOMEM, "out of memory");
	ret = fpga_port_lookup(spec, &port->ref);
	if (ret)
		goto err_free;

	/* Bound to uio_fpga: the same API through the UIO device (uio.c) */
	if (!fpga_port_driver(&port->ref, drv, sizeof(drv)) &&
	    !strcmp(drv, FPGA_DRV_UIO)) {
		ret = fpga_uio_open(&port->ref, &port->uio);
		if (ret)
			goto err_free;
		port->fd = port->uio->fd;
		snprintf(port->ref.devnode, sizeof(port->ref.devnode),
			 "/dev/%s", port->uio->name);
		*out = port;
		return 0;
	}

	fd = open(port->ref.devnode,
		  O_RDWR | O_CLOEXEC | (flags & FPGA_OPEN_EXCL ? O_EXCL : 0));
	if (fd < 0) {
		err = errno;
		if (err == ENOENT && stat(port->ref.sysfs, &st))
			ret = fpga_set_error(err, "%s: %s (no port %d; see 'fpgactl list')",
					     port->ref.devnode, strerror(err),
					     port->ref.id);
		else if (err == ENOENT || err == ENXIO || err == ENODEV)
			ret = fpga_set_error(err, "%s: %s (is the port driver loaded?)",
					     port->ref.devnode, strerror(err));
		else if (err == EACCES || err == EPERM)
			ret = fpga_set_error(err, "%s: %s (run as root or join group fpga)",
					     port->ref.devnode, strerror(err));
		else if (err == EBUSY)
			ret = fpga_set_error(err, "%s: %s (%s)",
					     port->ref.devnode, strerror(err),
					     flags & FPGA_OPEN_EXCL ?
					     "another process has it open" :
					     "another process has it open exclusively");
		else
			ret = fpga_set_error(err, "%s: %s", port->ref.devnode,
					     strerror(err));
		goto err_free;
	}
	port->fd = fd;
	/* A port answers GET_API_VERSION; anything else is not one */
	ret = fpga_port_api_version(port);
	if (ret < 0) {
		close(fd);
		goto err_free;
	}
	*out = port;
	return 0;

err_free:
	free(port);
	return ret;
}

void fpga_port_close(struct fpga_port *port)
{
	if (!port)
		return;
	if (port->mmio)
		munmap((void *)port->mmio, port->mmio_size);
	if (port->uio)
		fpga_uio_close(port->uio);
	else
		close(port->fd);
	free(port);
}

const struct fpga_port_ref *fpga_port_ref(const struct fpga_port *port)
{
	return &port->ref;
}

int fpga_port_fd(const struct fpga_port *port)
{
	return port->fd;
}

/* Record a failed ioctl @what; returns -errno */
static int fpga_port_ioctl_error(struct fpga_port *port, const char *what,
				 int err)
{
	if (err == ENOTTY)
		return fpga_set_error(err, "%s: %s: not supported by this driver (%s)",
				      port->ref.devnode, what, strerror(err));
	return fpga_set_error(err, "%s: %s: %s", port->ref.devnode, what,
			      strerror(err));
}

bool fpga_port_is_uio(const struct fpga_port *port)
{
	return port->uio;
}

/* What the ioctls do not offer through UIO */
static int fpga_port_uio_unsupported(struct fpga_port *port, const char *what)
{
	return fpga_set_error(ENOTSUP, "%s: %s: not offered by uio_fpga (bind the port to fpga_port: 'fpgactl bind %d port')",
			      port->ref.devnode, what, port->ref.id);
}

int fpga_port_api_version(struct fpga_port *port)
{
	int ret;

	if (port->uio)
		return DFL_FPGA_API_VERSION;
	ret = ioctl(port->fd, DFL_FPGA_GET_API_VERSION);

	if (ret < 0) {
		if (errno == ENOTTY || errno == EINVAL)
			return fpga_set_error(ENOTTY, "%s is not a DFL FPGA port (%s)",
					      port->ref.devnode, strerror(errno));
		return fpga_port_ioctl_error(port, "GET_API_VERSION", errno);
	}
	return ret;
}

int fpga_port_check_extension(struct fpga_port *port, unsigned long ext)
{
	int ret;

	if (port->uio)
		return 0;
	ret = ioctl(port->fd, DFL_FPGA_CHECK_EXTENSION, ext);

	if (ret < 0)
		return fpga_port_ioctl_error(port, "CHECK_EXTENSION", errno);
	return ret;
}

int fpga_port_info(struct fpga_port *port, struct dfl_fpga_port_info *info)
{
	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	if (port->uio) {
		info->num_regions = 1;
		return 0;
	}
	if (ioctl(port->fd, DFL_FPGA_PORT_GET_INFO, info))
		return fpga_port_ioctl_error(port, "PORT_GET_INFO", errno);
	return 0;
}

int fpga_port_region_info(struct fpga_port *port, unsigned int index,
			  struct dfl_fpga_port_region_info *info)
{
	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	info->index = index;
	if (port->uio) {
		/* Region 0 is UIO map0, at mmap offset 0 */
		if (index != DFL_PORT_REGION_INDEX_AFU)
			return fpga_set_error(EINVAL, "%s: no region %u",
					      port->ref.devnode, index);
		info->flags = DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE |
			      DFL_PORT_REGION_MMAP;
		info->size = port->uio->maps[FPGA_UIO_MAP_AFU].size;
		info->offset = 0;
		return 0;
	}
	if (ioctl(port->fd, DFL_FPGA_PORT_GET_REGION_INFO, info)) {
		if (errno == EINVAL)
			return fpga_set_error(EINVAL, "%s: no region %u",
					      port->ref.devnode, index);
		return fpga_port_ioctl_error(port, "PORT_GET_REGION_INFO",
					     errno);
	}
	return 0;
}

static int fpga_port_do_reset(struct fpga_port *port)
{
	if (port->uio)
		return fpga_uio_reset(&port->ref);
	if (ioctl(port->fd, DFL_FPGA_PORT_RESET, 0)) {
		if (errno == ETIMEDOUT)
			return fpga_set_error(ETIMEDOUT, "%s: reset: the port did not acknowledge the reset (%s)",
					      port->ref.devnode,
					      strerror(ETIMEDOUT));
		return fpga_port_ioctl_error(port, "reset", errno);
	}
	return 0;
}

int fpga_port_reset(struct fpga_port *port)
{
	int ret;

	FPGA_PROBE(reset, port->ref.id);
	ret = fpga_port_do_reset(port);
	FPGA_PROBE(reset_done, port->ref.id, ret);
	return ret;
}

/* ---- MMIO ---- */

int fpga_mmio_map(struct fpga_port *port)
{
	struct dfl_fpga_port_region_info ri;
	int prot = 0, ret;
	void *p;

	if (port->mmio)
		return 0;
	ret = fpga_port_region_info(port, DFL_PORT_REGION_INDEX_AFU, &ri);
	if (ret)
		return ret;
	if (!(ri.flags & DFL_PORT_REGION_MMAP) || !ri.size)
		return fpga_set_error(ENOTSUP, "%s: region 0 cannot be mapped (flags 0x%x, size 0x%llx)",
				      port->ref.devnode, ri.flags,
				      (unsigned long long)ri.size);
	if (ri.size > SIZE_MAX)
		return fpga_set_error(EOVERFLOW, "%s: region 0 is too large",
				      port->ref.devnode);
	if (ri.flags & DFL_PORT_REGION_READ)
		prot |= PROT_READ;
	if (ri.flags & DFL_PORT_REGION_WRITE)
		prot |= PROT_WRITE;
	p = mmap(NULL, ri.size, prot, MAP_SHARED, port->fd, ri.offset);
	if (p == MAP_FAILED)
		return fpga_set_error(errno, "%s: mmap of region 0 (size 0x%llx at 0x%llx): %s",
				      port->ref.devnode,
				      (unsigned long long)ri.size,
				      (unsigned long long)ri.offset,
				      strerror(errno));
	port->mmio = p;
	port->mmio_size = ri.size;
	port->mmio_flags = ri.flags;
	return 0;
}

uint64_t fpga_mmio_size(const struct fpga_port *port)
{
	return port->mmio ? port->mmio_size : 0;
}

/*
 * The MMIO accessors' checks, always inlined: the USDT probe's asm looks
 * large to the compiler, which would otherwise stop inlining them into
 * the accessors and make a probed build slower than one without probes.
 */
#define FPGA_MMIO_INLINE	static inline __attribute__((always_inline))

FPGA_MMIO_INLINE int __fpga_mmio_check(struct fpga_port *port, uint64_t off,
				       unsigned int width)
{
	int ret;

	if (width != 4 && width != 8)
		return fpga_set_error(EINVAL, "width %u: MMIO is 32 or 64 bits wide",
				      width * 8);
	if (off % width)
		return fpga_set_error(EINVAL, "offset 0x%llx is not %u-byte aligned",
				      (unsigned long long)off, width);
	ret = fpga_mmio_map(port);
	if (ret)
		return ret;
	if (off >= port->mmio_size || port->mmio_size - off < width)
		return fpga_set_error(ERANGE, "offset 0x%llx is outside region 0 (size 0x%llx)",
				      (unsigned long long)off,
				      (unsigned long long)port->mmio_size);
	return 0;
}

int fpga_mmio_check(struct fpga_port *port, uint64_t off, unsigned int width)
{
	return __fpga_mmio_check(port, off, width);
}

FPGA_MMIO_INLINE int fpga_mmio_access(struct fpga_port *port, uint64_t off,
				      unsigned int width, bool write)
{
	int ret = __fpga_mmio_check(port, off, width);

	if (ret)
		return ret;
	if (!(port->mmio_flags & (write ? DFL_PORT_REGION_WRITE :
					  DFL_PORT_REGION_READ)))
		return fpga_set_error(EACCES, "%s: region 0 is not %s",
				      port->ref.devnode,
				      write ? "writable" : "readable");
	return 0;
}

int fpga_mmio_read32(struct fpga_port *port, uint64_t off, uint32_t *val)
{
	int ret = fpga_mmio_access(port, off, 4, false);

	if (!ret) {
		*val = *(volatile uint32_t *)(port->mmio + off);
		FPGA_PROBE(mmio_read32, port->ref.id, off, *val, 4);
	}
	return ret;
}

int fpga_mmio_read64(struct fpga_port *port, uint64_t off, uint64_t *val)
{
	int ret = fpga_mmio_access(port, off, 8, false);

	if (!ret) {
		*val = *(volatile uint64_t *)(port->mmio + off);
		FPGA_PROBE(mmio_read64, port->ref.id, off, *val, 8);
	}
	return ret;
}

int fpga_mmio_write32(struct fpga_port *port, uint64_t off, uint32_t val)
{
	int ret = fpga_mmio_access(port, off, 4, true);

	if (!ret) {
		FPGA_PROBE(mmio_write32, port->ref.id, off, val, 4);
		*(volatile uint32_t *)(port->mmio + off) = val;
	}
	return ret;
}

int fpga_mmio_write64(struct fpga_port *port, uint64_t off, uint64_t val)
{
	int ret = fpga_mmio_access(port, off, 8, true);

	if (!ret) {
		FPGA_PROBE(mmio_write64, port->ref.id, off, val, 8);
		*(volatile uint64_t *)(port->mmio + off) = val;
	}
	return ret;
}

/* ---- DMA ---- */

int fpga_dma_map(struct fpga_port *port, void *addr, uint64_t len,
		 uint64_t *iova)
{
	struct dfl_fpga_port_dma_map map = {
		.argsz = sizeof(map),
		.flags = 0,
		.user_addr = (uintptr_t)addr,
		.length = len,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct rlimit rl;

	if (port->uio)
		return fpga_port_uio_unsupported(port, "DMA mapping of user memory");
	if (!len || (uintptr_t)addr % page || len % page)
		return fpga_set_error(EINVAL, "DMA buffer %p+0x%llx is not page aligned",
				      addr, (unsigned long long)len);
	if (ioctl(port->fd, DFL_FPGA_PORT_DMA_MAP, &map)) {
		int err = errno;

		/* root has CAP_IPC_LOCK: the limit is not the reason then */
		if ((err == ENOMEM || err == EPERM) && geteuid() &&
		    !getrlimit(RLIMIT_MEMLOCK, &rl) &&
		    rl.rlim_cur != RLIM_INFINITY)
			return fpga_set_error(err, "%s: DMA map of %llu bytes: %s (RLIMIT_MEMLOCK is %llu bytes; raise it with 'ulimit -l')",
					      port->ref.devnode,
					      (unsigned long long)len,
					      strerror(err),
					      (unsigned long long)rl.rlim_cur);
		return fpga_set_error(err, "%s: DMA map of %llu bytes: %s",
				      port->ref.devnode,
				      (unsigned long long)len, strerror(err));
	}
	*iova = map.iova;
	FPGA_PROBE(dma_map, port->ref.id, addr, len, map.iova);
	return 0;
}

int fpga_dma_unmap(struct fpga_port *port, uint64_t iova)
{
	struct dfl_fpga_port_dma_unmap unmap = {
		.argsz = sizeof(unmap),
		.flags = 0,
		.iova = iova,
	};

	if (port->uio)
		return fpga_port_uio_unsupported(port, "DMA unmapping");
	FPGA_PROBE(dma_unmap, port->ref.id, iova);
	if (ioctl(port->fd, DFL_FPGA_PORT_DMA_UNMAP, &unmap))
		return fpga_set_error(errno, "%s: DMA unmap of IOVA 0x%llx: %s",
				      port->ref.devnode,
				      (unsigned long long)iova,
				      strerror(errno));
	return 0;
}

/* ---- interrupts ---- */

const char *fpga_irq_kind_name(enum fpga_irq_kind kind)
{
	return kind == FPGA_IRQ_UINT ? "user" : "error";
}

int fpga_irq_count(struct fpga_port *port, enum fpga_irq_kind kind)
{
	unsigned long req = kind == FPGA_IRQ_UINT ?
			    DFL_FPGA_PORT_UINT_GET_IRQ_NUM :
			    DFL_FPGA_PORT_ERR_GET_IRQ_NUM;
	uint32_t n = 0;

	/* UIO has one interrupt: user interrupt 0 */
	if (port->uio)
		return kind == FPGA_IRQ_UINT ? 1 : 0;
	if (ioctl(port->fd, req, &n))
		return fpga_set_error(errno, "%s: %s interrupts: %s%s",
				      port->ref.devnode,
				      fpga_irq_kind_name(kind),
				      strerror(errno),
				      errno == ENODEV ?
				      " (the port has no such interrupt feature)" : "");
	if (n > INT_MAX)
		return fpga_set_error(EOVERFLOW, "%s: %u interrupts?",
				      port->ref.devnode, n);
	return (int)n;
}

int fpga_irq_set(struct fpga_port *port, enum fpga_irq_kind kind,
		 unsigned int start, unsigned int count, const int *fds)
{
	unsigned long req = kind == FPGA_IRQ_UINT ? DFL_FPGA_PORT_UINT_SET_IRQ :
						    DFL_FPGA_PORT_ERR_SET_IRQ;
	struct dfl_fpga_irq_set *set;
	int ret = 0;

	if (port->uio)
		return fpga_port_uio_unsupported(port, "eventfd interrupts");
	set = malloc(sizeof(*set) + count * sizeof(set->evtfds[0]));
	if (!set)
		return fpga_set_error(ENOMEM, "out of memory");
	set->start = start;
	set->count = count;
	for (unsigned int i = 0; i < count; i++)
		set->evtfds[i] = fds[i];
	if (ioctl(port->fd, req, set))
		ret = fpga_set_error(errno, "%s: binding %s interrupt %u..%u: %s",
				     port->ref.devnode,
				     fpga_irq_kind_name(kind), start,
				     start + count - 1, strerror(errno));
	free(set);
	return ret;
}

int fpga_irq_bind_eventfd(struct fpga_port *port, enum fpga_irq_kind kind,
			  unsigned int vector)
{
	int efd, n, ret;

	if (port->uio)
		return fpga_port_uio_unsupported(port, "eventfd interrupts");
	n = fpga_irq_count(port, kind);
	if (n < 0)
		return n;
	if (vector >= (unsigned int)n)
		return fpga_set_error(ERANGE, "%s: no %s interrupt vector %u (the port has %d)",
				      port->ref.devnode,
				      fpga_irq_kind_name(kind), vector, n);
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0)
		return fpga_set_error(errno, "eventfd: %s", strerror(errno));
	ret = fpga_irq_set(port, kind, vector, 1, &efd);
	if (ret) {
		close(efd);
		return ret;
	}
	return efd;
}

int fpga_eventfd_wait(int efd, int timeout_ms, uint64_t *count)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	int ret;

	do {
		ret = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return fpga_set_error(errno, "poll: %s", strerror(errno));
	if (!ret)
		return fpga_set_error(ETIMEDOUT, "no interrupt within %d ms",
				      timeout_ms);
	if (read(efd, count, sizeof(*count)) != sizeof(*count))
		return fpga_set_error(errno ? errno : EIO, "eventfd read: %s",
				      strerror(errno ? errno : EIO));
	return 0;
}

static int fpga_irq_do_wait(struct fpga_port *port, unsigned int vector,
			    int timeout_ms, uint64_t *count)
{
	int efd, ret, unbind = -1;

	if (port->uio) {
		if (vector)
			return fpga_set_error(ERANGE, "%s: UIO has user interrupt 0 only",
					      port->ref.devnode);
		return fpga_uio_irq_wait(port->uio, timeout_ms, count);
	}
	efd = fpga_irq_bind_eventfd(port, FPGA_IRQ_UINT, vector);
	if (efd < 0)
		return efd;
	ret = fpga_eventfd_wait(efd, timeout_ms, count);
	/* Unbind before close so the next waiter starts clean */
	fpga_irq_set(port, FPGA_IRQ_UINT, vector, 1, &unbind);
	close(efd);
	return ret;
}

int fpga_irq_wait(struct fpga_port *port, unsigned int vector, int timeout_ms,
		  uint64_t *count)
{
	int ret;

	*count = 0;
	FPGA_PROBE(irq_wait, port->ref.id, vector, timeout_ms);
	ret = fpga_irq_do_wait(port, vector, timeout_ms, count);
	FPGA_PROBE(irq_wake, port->ref.id, vector, ret, *count);
	return ret;
}

int fpga_port_dma_buffer(struct fpga_port *port, unsigned int k, void **va,
			 uint64_t *iova, uint64_t *size)
{
	if (!port->uio)
		return fpga_set_error(ENOTSUP, "%s: the kernel's DMA buffers are uio_fpga's (map user memory with DMA_MAP here)",
				      port->ref.devnode);
	return fpga_uio_dma_buffer(port->uio, k, va, iova, size);
}
