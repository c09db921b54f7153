/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_vfio: a simulated card's VF as an emulated-IOMMU VFIO device.
 * vfio-main.c binds the VF and answers the VFIO device calls,
 * vfio-config.c is the configuration space the user sees, vfio-bar.c
 * BAR 0: the port the VF presents.
 */
#ifndef _FPGA_VFIO_H
#define _FPGA_VFIO_H

#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/vfio.h>

#include <fpga-suite/dfl-core.h>

/* The region of a file offset, as vfio-pci lays them out */
#define FPGA_VFIO_OFFSET_SHIFT		40
#define FPGA_VFIO_INDEX(off)		((off) >> FPGA_VFIO_OFFSET_SHIFT)
#define FPGA_VFIO_OFFSET(index)		((u64)(index) << FPGA_VFIO_OFFSET_SHIFT)
#define FPGA_VFIO_OFFSET_MASK		(FPGA_VFIO_OFFSET(1) - 1)

/* What the user's configuration space holds: header and PCIe capability */
#define FPGA_VFIO_CFG_SIZE		PCI_CFG_SPACE_EXP_SIZE
#define FPGA_VFIO_CFG_KEPT		PCI_CFG_SPACE_SIZE
#define FPGA_VFIO_CAP_EXP		0x40
#define FPGA_VFIO_CAP_MSIX		0x80
/* MSI-X's table and PBA in BAR 0, between the port's features and the AFU */
#define FPGA_VFIO_MSIX_TABLE		0x8000
#define FPGA_VFIO_MSIX_PBA		0x9000
/* The port's user interrupts a VF carries, at most (a table's page) */
#define FPGA_VFIO_MAX_IRQS		64

/**
 * struct fpga_vfio - one VF
 * @vdev:	the VFIO device (first: vfio_alloc_device() wants it there)
 * @pdev:	the VF's PCI function
 * @card:	its card
 * @vf:		its index on the card
 * @regs:	the registers of the port it presents
 * @bar0_size:	BAR 0's size: the port's features and AFU, to a power of 2
 * @lock:	serialises configuration space and BAR 0 accesses, resets
 * @cfg:	the configuration space, its first 256 bytes (the rest is 0)
 * @in_reset:	the user set the port's soft reset and has not cleared it
 * @irqs:	the Linux irqs of the port's user interrupts, the MSI-X vectors
 * @num_irqs:	how many (0: no MSI-X capability)
 * @msix:	each vector's eventfd, or NULL; under @lock
 * @req_lock:	protects @req_trigger, which .request signals
 * @req_trigger: the REQ interrupt's eventfd, or NULL
 */
struct fpga_vfio {
	struct vfio_device vdev;
	struct pci_dev *pdev;
	struct fpga_dfl_card *card;
	unsigned int vf;
	struct fpga_dfl_vf_regs regs;
	u64 bar0_size;
	struct mutex lock;	/* cfg, BAR 0, resets */
	u8 cfg[FPGA_VFIO_CFG_KEPT];
	bool in_reset;
	int irqs[FPGA_VFIO_MAX_IRQS];
	unsigned int num_irqs;
	struct eventfd_ctx *msix[FPGA_VFIO_MAX_IRQS];
	spinlock_t req_lock;	/* req_trigger */
	struct eventfd_ctx *req_trigger;
};

/* vfio-config.c */
void fpga_vfio_config_init(struct fpga_vfio *fv);
ssize_t fpga_vfio_config_rw(struct fpga_vfio *fv, char __user *buf,
			    size_t count, u64 pos, bool write);
bool fpga_vfio_memory_enabled(struct fpga_vfio *fv);

/* vfio-irq.c */
int fpga_vfio_set_msix(struct fpga_vfio *fv, struct vfio_irq_set *hdr,
		       void __user *data, size_t data_size);
void fpga_vfio_msix_off(struct fpga_vfio *fv);

/* vfio-bar.c */
ssize_t fpga_vfio_bar_rw(struct fpga_vfio *fv, char __user *buf,
			 size_t count, u64 pos, bool write);
int fpga_vfio_reset(struct fpga_vfio *fv);

#endif /* _FPGA_VFIO_H */
