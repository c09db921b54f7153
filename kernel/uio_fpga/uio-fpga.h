/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uio_fpga: a DFL port exported as a UIO device, for user-space drivers.
 *
 * Two lifetimes meet here, as in fpga_port: the hardware (registers, DMA
 * buffers, the interrupt) ends at remove(); struct uio_fpga ends when the
 * last reference goes, and every user mapping holds one, because its
 * vm_ops may run (fault, access, close) long after remove().
 */
#ifndef _UIO_FPGA_H
#define _UIO_FPGA_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio_driver.h>

#include <fpga-suite/dfl-core.h>

/* Fixed map layout: a user finds each map at index * PAGE_SIZE */
#define UIO_FPGA_MAP_AFU	0
#define UIO_FPGA_MAP_HDR	1
#define UIO_FPGA_MAP_DMA0	2
#define UIO_FPGA_MAX_DMA	(MAX_UIO_MAPS - UIO_FPGA_MAP_DMA0)

struct uio_fpga;

/**
 * struct uio_fpga_map - what backs one UIO map
 * @uf:		the device it belongs to
 * @index:	its UIO map index (the mmap offset in pages)
 * @writable:	user space may map it writable (not the port header)
 * @dma:	a kernel DMA buffer rather than registers
 * @regs:	registers: the kernel's mapping (valid until remove)
 * @start:	registers: physical address
 * @cpu_addr:	DMA buffer: kernel address (valid until remove)
 * @dma_addr:	DMA buffer: the device (bus) address, what UIO's addr shows
 * @pfns:	DMA buffer: page frame of each page, for the fault handler
 * @size:	bytes
 */
struct uio_fpga_map {
	struct uio_fpga *uf;
	unsigned int index;
	bool writable;
	bool dma;
	void __iomem *regs;
	phys_addr_t start;
	void *cpu_addr;
	dma_addr_t dma_addr;
	unsigned long *pfns;
	size_t size;
};

/**
 * struct uio_fpga - one port bound to uio_fpga
 * @kref:	probe holds one reference until remove(), each VMA one
 * @info:	the UIO device's description; unregistered at remove()
 * @fdev:	the port; hardware, valid only in an @unplug section
 * @unplug:	the vm_ops that touch hardware or DMA buffers (fault,
 *		access) run in its section; remove() unplugs it, and faults
 *		then raise SIGBUS, access fails
 * @lock:	protects @mappings and serialises port resets
 * @mappings:	address spaces holding VMAs of this device (struct
 *		uio_fpga_mapping), zapped at remove()
 * @irq_lock:	protects @irq_disabled and orders enable/disable_irq
 * @irq_disabled: the irq is disabled (by the handler or by user space);
 *		keeps enable_irq()/disable_irq_nosync() balanced
 * @cacheable:	registers are ordinary memory (simulated card)
 * @open_count:	open files of the UIO device; open and release are
 *		serialised by the UIO core
 * @scrubbed:	the AFU was reset and the DMA buffers cleared since the last
 *		file was closed: the next user may have them
 * @maps:	what backs each UIO map
 * @num_dma:	number of DMA buffers (maps from UIO_FPGA_MAP_DMA0)
 * @names:	map names, as /sys/class/uio/uioX/maps/mapN/name shows
 */
struct uio_fpga {
	struct kref kref;
	struct uio_info info;
	struct fpga_dfl_device *fdev;
	struct fpga_dfl_unplug unplug;
	struct mutex lock;	/* mappings, resets */
	struct list_head mappings;
	spinlock_t irq_lock;	/* irq_disabled */
	bool irq_disabled;
	bool cacheable;
	unsigned int open_count;
	bool scrubbed;
	struct uio_fpga_map maps[MAX_UIO_MAPS];
	unsigned int num_dma;
	char names[MAX_UIO_MAPS][16];
};

#define to_uio_fpga(i) container_of(i, struct uio_fpga, info)

static inline void uio_fpga_free(struct kref *kref)
{
	struct uio_fpga *uf = container_of(kref, struct uio_fpga, kref);

	fpga_dfl_unplug_cleanup(&uf->unplug);
	kfree(uf);
}

/* Drop a reference (probe's, or a VMA's): the last frees the device */
static inline void uio_fpga_put(struct uio_fpga *uf)
{
	kref_put(&uf->kref, uio_fpga_free);
}

/* uio-mmap.c */
void uio_fpga_set_mmap(struct uio_fpga *uf);
void uio_fpga_revoke_mmaps(struct uio_fpga *uf);

/* uio-dma.c */
extern unsigned int uio_fpga_dma_buffers;
extern unsigned long uio_fpga_dma_size;
int uio_fpga_dma_alloc(struct uio_fpga *uf);
void uio_fpga_dma_free(struct uio_fpga *uf);
void uio_fpga_dma_clear(struct uio_fpga *uf);
void uio_fpga_dma_abandon(struct uio_fpga *uf);

/* uio-irq.c */
void uio_fpga_irq_init(struct uio_fpga *uf);

/* uio-sysfs.c */
extern const struct attribute_group *uio_fpga_groups[];
int uio_fpga_reset(struct uio_fpga *uf);
int uio_fpga_dfl_reset(struct fpga_dfl_device *fdev);

/* uio-match.c */
int uio_fpga_match_init(struct fpga_dfl_driver *drv);
void uio_fpga_match_exit(struct fpga_dfl_driver *drv);

#endif /* _UIO_FPGA_H */
