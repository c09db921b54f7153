/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_port: the port/AFU driver.  One character device /dev/fpga-port.N
 * per port, with the ioctl ABI of <linux/fpga-dfl.h>.
 */
#ifndef _FPGA_PORT_H
#define _FPGA_PORT_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <fpga-suite/dfl-core.h>

struct dma_buf;
struct dma_buf_attachment;
struct file;
struct mm_struct;
struct fpga_port;

/**
 * struct fpga_port_fence_irq - a user interrupt that signals fences
 * @port:	the port
 * @vector:	the UINT vector
 * @requested:	the fence handler is requested on it (shared with the
 *		eventfd binding of DFL_FPGA_PORT_UINT_SET_IRQ)
 */
struct fpga_port_fence_irq {
	struct fpga_port *port;
	unsigned int vector;
	bool requested;
};

/**
 * struct fpga_port_fences - DMA completion fences (port-fence.c)
 * @lock:	protects @pending, @num_pending and each file's num_fences;
 *		taken in the interrupt handler
 * @pending:	armed fences (struct fpga_port_fence), until reaped
 * @num_pending: entries in @pending, bounded (port-fence.c)
 * @irq_lock:	protects @irqs[].requested
 * @irqs:	one per user interrupt vector, @count of them
 * @count:	number of user interrupt vectors
 * @reap:	drops the fences that have signalled, in process context
 */
struct fpga_port_fences {
	spinlock_t lock;	/* pending, num_pending, files' num_fences */
	struct list_head pending;
	unsigned int num_pending;
	struct mutex irq_lock;	/* irqs[].requested */
	struct fpga_port_fence_irq *irqs;
	unsigned int count;
	struct work_struct reap;
};

/**
 * struct fpga_port - a port and its AFU
 * @chardev:	the device behind /dev/fpga-port.N; its release frees the port
 * @cdev:	the character device
 * @dfl_node:	/dev/dfl-port.N, the upstream name, or NULL (port-dfl-node.c)
 * @fdev:	the fpga_dfl device; hardware, valid only in an @unplug section
 * @id:		the N of fpga-port.N, usable after unplug (tracepoints)
 * @unplug:	every file operation that touches the hardware runs in its
 *		section; remove() unplugs it, and operations then fail with
 *		-ENODEV
 * @lock:	protects @files, @quarantine, @open_count, @excl and
 *		serialises resets
 * @files:	open files (struct fpga_port_file), to revoke on unplug
 * @quarantine:	closed files whose DMA mappings stay until the next reset:
 *		the AFU may still run a job on them, and their IOVAs must
 *		not be handed to another file before it is stopped
 * @open_count:	number of open files
 * @excl:	opened with O_EXCL
 * @hdr:	port header registers
 * @afu:	AFU registers (region 0)
 * @afu_start:	physical address of the AFU registers
 * @afu_size:	size of the AFU region
 * @err:	port error feature registers, or NULL
 * @err_irqs:	error interrupt
 * @uint_irqs:	user interrupts
 * @regions_dir: sysfs directory "regions"
 * @region_kobj: sysfs directory "regions/0" (the AFU region)
 * @fences:	DMA completion fences armed on dma-bufs
 */
struct fpga_port {
	struct device chardev;
	struct cdev cdev;
	struct fpga_dfl_node *dfl_node;
	struct fpga_dfl_device *fdev;
	int id;
	struct fpga_dfl_unplug unplug;
	struct mutex lock;	/* files, quarantine, open_count, excl, resets */
	struct list_head files;
	struct list_head quarantine;
	unsigned int open_count;
	bool excl;
	void __iomem *hdr;
	void __iomem *afu;
	phys_addr_t afu_start;
	resource_size_t afu_size;
	void __iomem *err;
	struct fpga_dfl_irqs err_irqs;
	struct fpga_dfl_irqs uint_irqs;
	struct kobject *regions_dir;
	struct kobject *region_kobj;
	struct fpga_port_fences fences;
};

/*
 * Enter the port's unplug section (fpga_dfl_hw_enter()) for an ioctl:
 * 0, or -ENODEV (and not entered) once the port is gone
 */
static inline int fpga_port_hw_begin(struct fpga_port *port, int *idx)
{
	return fpga_dfl_hw_enter(&port->unplug, idx) ? 0 : -ENODEV;
}

static inline void fpga_port_hw_end(struct fpga_port *port, int idx)
{
	fpga_dfl_hw_exit(&port->unplug, idx);
}

/* The one MMIO region a port exports: the AFU, at mmap offset 0 */
#define FPGA_PORT_REGION_AFU_OFFSET	0

/**
 * struct fpga_port_file - what one open file owns
 * @port:	the port
 * @file:	the file (NULL once closed)
 * @node:	entry in port->files, or port->quarantine once closed
 * @dma_lock:	protects @dma_maps and @dma_sources
 * @dma_maps:	DMA mappings made through this file, by IOVA
 * @dma_sources: the same mappings by what they map (kind, then user
 *		address or dma-buf): a new mapping is checked against them
 * @dma_grant:	who last drove the card's DMA by right (dfl-dma.c)
 * @num_fences:	fences this file has pending (under port->fences.lock)
 * @client_id:	unique among the port files since boot (fdinfo)
 * @resets:	resets made through this file (fdinfo)
 * @irqs_delivered: interrupts delivered to the eventfds this file bound
 *		(fdinfo), as long as it is open
 * @afu_busy_start: the port's afu_busy_clocks counter at open (fdinfo)
 * @afu_busy:	the card counts it: @afu_busy_start is valid
 */
struct fpga_port_file {
	struct fpga_port *port;
	struct file *file;
	struct list_head node;
	struct mutex dma_lock;	/* dma_maps, dma_sources */
	struct rb_root dma_maps;
	struct rb_root dma_sources;
	struct fpga_dfl_dma_grant dma_grant;
	unsigned int num_fences;
	u64 client_id;
	atomic64_t resets;
	atomic64_t irqs_delivered;
	u64 afu_busy_start;
	bool afu_busy;
};

/* What a DMA mapping maps */
enum fpga_port_dma_kind {
	FPGA_PORT_DMA_USER,	/* pinned pages of the mapping process */
	FPGA_PORT_DMA_DMABUF,	/* a dma-buf the card is attached to */
};

/**
 * struct fpga_port_dma - one DMA mapping made through a file
 * @node:	entry in the file's tree, keyed by @iova
 * @source_node: entry in the file's tree of sources
 * @kind:	which of @user and @dmabuf describes it
 * @iova:	device address of the start
 * @length:	length in bytes (whole pages)
 * @dir:	DMA direction
 * @owner:	thread group that made the mapping (tracepoints)
 * @release:	undoes what the mapping's kind set up (unmap, unpin or
 *		detach) on the card's DMA device, set by the code that made
 *		it; the caller frees it.  It needs neither file nor port: an
 *		abandoned mapping outlives both (port-dma.c)
 * @user:	user memory (port-dma.c)
 * @user.addr:	start of the buffer in the mapping process
 * @user.pages:	the pinned pages
 * @user.npages: number of pages
 * @user.sgt:	the pages as mapped for the device; empty (no sgl) when
 *		they are one physical run, mapped with dma_map_page()
 * @user.mm:	the process whose pinned_vm shows the pinned pages
 * @user.account: the user whose RLIMIT_MEMLOCK budget they count
 *		against, or NULL (the mapper had CAP_IPC_LOCK)
 * @dmabuf:	a dma-buf (port-dmabuf.c)
 * @dmabuf.buf:	the dma-buf; the mapping holds a reference
 * @dmabuf.attach: the card's attachment
 * @dmabuf.sgt:	the exporter's mapping of it for the card
 */
struct fpga_port_dma {
	struct rb_node node;
	struct rb_node source_node;
	enum fpga_port_dma_kind kind;
	u64 iova;
	u64 length;
	enum dma_data_direction dir;
	pid_t owner;
	void (*release)(struct device *dma_dev, struct fpga_port_dma *dma);
	union {
		struct {
			u64 addr;
			struct page **pages;	/* &page for one page */
			struct page *page;
			unsigned long npages;
			struct sg_table sgt;
			struct mm_struct *mm;
			struct user_struct *account;
		} user;
		struct {
			struct dma_buf *buf;
			struct dma_buf_attachment *attach;
			struct sg_table *sgt;
		} dmabuf;
	};
};

/* port-fdinfo.c */
void fpga_port_fdinfo_open(struct fpga_port_file *pf);
void fpga_port_show_fdinfo(struct seq_file *m, struct file *file);

/* port-reset.c */
int __fpga_port_reset(struct fpga_port *port);
int fpga_port_reset(struct fpga_port *port);
int __fpga_port_disable(struct fpga_port *port);
int __fpga_port_enable(struct fpga_port *port);
int fpga_port_enable(struct fpga_port *port);

/* port-region.c */
struct dfl_fpga_port_region_info;
bool fpga_port_region_fits(u64 size, u64 offset, u64 len);
u32 fpga_port_region_flags(const struct fpga_port *port);
int fpga_port_region_info(const struct fpga_port *port,
			  struct dfl_fpga_port_region_info *rinfo);
long fpga_port_ioctl_get_info(struct fpga_port *port, void __user *arg);
long fpga_port_ioctl_region_info(struct fpga_port *port, void __user *arg);
int fpga_port_mmap(struct file *file, struct vm_area_struct *vma);
void fpga_port_revoke_mmaps(struct fpga_port *port);

/* port-dma.c: the file's tree of mappings, shared by both kinds */
struct device *fpga_port_dma_dev(struct fpga_port_file *pf);
int fpga_port_dma_dir(u32 flags, enum dma_data_direction *dir);
bool fpga_port_dma_pages_contiguous(struct page **pages, unsigned long npages);
int fpga_port_dma_check_range(struct fpga_port_file *pf,
			      struct sg_table *sgt, u64 length, u64 *iova);
struct fpga_port_dma *__fpga_port_dma_find(struct fpga_port_file *pf,
					   u64 iova);
void __fpga_port_dma_insert(struct fpga_port_file *pf,
			    struct fpga_port_dma *new);
bool __fpga_port_dma_overlaps(struct fpga_port_file *pf, u64 addr, u64 len);
struct fpga_port_dma *__fpga_port_dma_source_below(struct fpga_port_file *pf,
						   enum fpga_port_dma_kind kind,
						   u64 key);
int fpga_port_dma_charge(struct fpga_port_dma *dma, struct mm_struct *mm,
			 struct user_struct *user, unsigned long limit);
void fpga_port_dma_uncharge(struct fpga_port_dma *dma);
void __fpga_port_dma_release(struct fpga_port_file *pf,
			     struct fpga_port_dma *dma);
void fpga_port_dma_map_undo(struct fpga_port_file *pf, u64 iova);
long fpga_port_ioctl_dma_map(struct fpga_port_file *pf, void __user *arg);
long fpga_port_ioctl_dma_unmap(struct fpga_port_file *pf, void __user *arg);
void fpga_port_dma_unmap_all(struct fpga_port_file *pf);
unsigned long __fpga_port_dma_abandon(struct fpga_port *port);
void __fpga_port_dma_release_quarantine(struct fpga_port *port);

/* port-dmabuf.c */
long fpga_port_ioctl_dmabuf_map(struct fpga_port_file *pf, void __user *arg);

/* port-fence.c */
int fpga_port_fences_init(struct fpga_port *port);
void fpga_port_fences_cancel(struct fpga_port *port, struct fpga_port_file *pf,
			     int error);
void fpga_port_fences_fini(struct fpga_port *port);
long fpga_port_ioctl_dmabuf_fence(struct fpga_port_file *pf,
				  void __user *arg);

/* port-sysfs.c */
extern const struct attribute_group *fpga_port_groups[];
extern const struct attribute_group *fpga_port_dfl_groups[];

/* The upstream name, dfl-port.N (port-dfl-node.c) */
struct fpga_port *fpga_port_of_inode(struct inode *inode);
void fpga_port_dfl_node_add(struct fpga_port *port, struct class *class,
			    const struct file_operations *fops);
void fpga_port_dfl_node_del(struct fpga_port *port);
int fpga_port_dfl_nodes_init(void);
void fpga_port_dfl_nodes_exit(void);
int fpga_port_regions_add(struct fpga_port *port);
void fpga_port_regions_del(struct fpga_port *port);
int fpga_port_dfl_clear_errors(struct fpga_dfl_device *fdev, u64 errors);

#endif /* _FPGA_PORT_H */
