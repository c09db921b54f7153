/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_port: the port/AFU driver.  One character device /dev/fpga-port.N
 * per port, with the ioctl ABI of <linux/fpga-dfl.h>.
 */
#ifndef _FPGA_PORT_H
#define _FPGA_PORT_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/rwsem.h>
#include <linux/types.h>

#include "dfl-core.h"

struct file;
struct mm_struct;
struct sg_table;

/**
 * struct fpga_port - a port and its AFU
 * @chardev:	the device behind /dev/fpga-port.N; its release frees the port
 * @cdev:	the character device
 * @fdev:	the fpga_dfl device; hardware, valid only while @gone is false
 * @unplug:	held for reading by every file operation that touches the
 *		hardware, for writing by remove() to set @gone
 * @gone:	the port was removed; every operation fails with -ENODEV
 * @lock:	protects @files, @open_count, @excl and serialises resets
 * @files:	open files (struct fpga_port_file), to revoke on unplug
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
 */
struct fpga_port {
	struct device chardev;
	struct cdev cdev;
	struct fpga_dfl_device *fdev;
	struct rw_semaphore unplug;
	bool gone;
	struct mutex lock;	/* files, open_count, excl, resets */
	struct list_head files;
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
};

/* The one MMIO region a port exports: the AFU, at mmap offset 0 */
#define FPGA_PORT_REGION_AFU_OFFSET	0

/**
 * struct fpga_port_file - what one open file owns
 * @port:	the port
 * @file:	the file
 * @node:	entry in port->files
 * @dma_lock:	protects @dma_maps
 * @dma_maps:	DMA mappings made through this file, by IOVA
 */
struct fpga_port_file {
	struct fpga_port *port;
	struct file *file;
	struct list_head node;
	struct mutex dma_lock;	/* dma_maps */
	struct rb_root dma_maps;
};

/* port-reset.c */
int fpga_port_reset(struct fpga_port *port);
int __fpga_port_disable(struct fpga_port *port);
int __fpga_port_enable(struct fpga_port *port);
int fpga_port_enable(struct fpga_port *port);
int fpga_port_dfl_reset(struct fpga_dfl_device *fdev);
extern unsigned int fpga_port_reset_timeout_us;

/* port-region.c */
long fpga_port_ioctl_get_info(struct fpga_port *port, void __user *arg);
long fpga_port_ioctl_region_info(struct fpga_port *port, void __user *arg);
int fpga_port_mmap(struct file *file, struct vm_area_struct *vma);
void fpga_port_revoke_mmaps(struct fpga_port *port);

/* port-dma.c */
long fpga_port_ioctl_dma_map(struct fpga_port_file *pf, void __user *arg);
long fpga_port_ioctl_dma_unmap(struct fpga_port_file *pf, void __user *arg);
void fpga_port_dma_unmap_all(struct fpga_port_file *pf);

/* port-sysfs.c */
extern const struct attribute_group *fpga_port_groups[];
int fpga_port_regions_add(struct fpga_port *port);
void fpga_port_regions_del(struct fpga_port *port);
int fpga_port_dfl_clear_errors(struct fpga_dfl_device *fdev, u64 errors);

#endif /* _FPGA_PORT_H */
