// SPDX-License-Identifier: GPL-2.0-only
/*
 * The configuration space a VF's user sees: emulated, as for any
 * emulated-IOMMU VFIO device, and nothing of it reaches the card.
 *
 * The VF's own ids (vendor 0x0000, device 0xd5f2: no vendor's, so that no
 * driver of the user's takes it for something it is not), class
 * processing accelerator, BAR 0 a 64-bit memory BAR as large as the port's
 * features and AFU (to a power of 2, as PCI wants), no INTx, and a PCIe
 * capability: an endpoint.  Writable: the command register (I/O, memory,
 * bus master, INTx disable), BAR 0 (sizing works: all ones reads back the
 * size), the interrupt line and the PCIe device control register.  With
 * the port's user interrupts, an MSI-X capability: a vector each, table
 * and PBA in BAR 0 before the AFU (vfio-irq.c), Enable and Function Mask
 * writable.
 * Everything else drops what is written, as read-only registers do;
 * beyond the first 256 bytes the space reads 0.
 */
#include <linux/string.h>
#include <linux/uaccess.h>

#include <fpga-suite/sim-vf.h>
#include "fpga-compat.h"
#include "fpga-vfio.h"

#define FPGA_VFIO_VENDOR		FPGA_SIM_VF_VENDOR
#define FPGA_VFIO_DEVICE		FPGA_SIM_VF_DEVICE
/* Base class 0x12, processing accelerator (PCI Code and ID Assignment) */
#define FPGA_VFIO_CLASS			0x120000
#define FPGA_VFIO_REVISION		0x01
#define FPGA_VFIO_COMMAND_BITS		(PCI_COMMAND_IO | PCI_COMMAND_MEMORY | \
					 PCI_COMMAND_MASTER | PCI_COMMAND_INTX_DISABLE)
#define FPGA_VFIO_BAR0_TYPE		PCI_BASE_ADDRESS_MEM_TYPE_64

static void fpga_vfio_put(u8 *cfg, int ofs, u32 val, int len)
{
	for (; len; len--, ofs++, val >>= 8)
		cfg[ofs] = val;
}

void fpga_vfio_config_init(struct fpga_vfio *fv)
{
	u8 *cfg = fv->cfg, *exp = cfg + FPGA_VFIO_CAP_EXP;
	u8 *msix = cfg + FPGA_VFIO_CAP_MSIX;

	memset(cfg, 0, sizeof(fv->cfg));
	fpga_vfio_put(cfg, PCI_VENDOR_ID, FPGA_VFIO_VENDOR, 2);
	fpga_vfio_put(cfg, PCI_DEVICE_ID, FPGA_VFIO_DEVICE, 2);
	fpga_vfio_put(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST, 2);
	fpga_vfio_put(cfg, PCI_CLASS_REVISION,
		      FPGA_VFIO_CLASS << 8 | FPGA_VFIO_REVISION, 4);
	cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_NORMAL;
	fpga_vfio_put(cfg, PCI_BASE_ADDRESS_0, FPGA_VFIO_BAR0_TYPE, 4);
	fpga_vfio_put(cfg, PCI_SUBSYSTEM_VENDOR_ID, FPGA_VFIO_VENDOR, 2);
	fpga_vfio_put(cfg, PCI_SUBSYSTEM_ID, FPGA_VFIO_DEVICE, 2);
	cfg[PCI_CAPABILITY_LIST] = FPGA_VFIO_CAP_EXP;

	exp[PCI_CAP_LIST_ID] = PCI_CAP_ID_EXP;
	fpga_vfio_put(exp, PCI_EXP_FLAGS, 2 | PCI_EXP_TYPE_ENDPOINT << 4, 2);
	if (!fv->num_irqs)
		return;

	/* MSI-X: a vector per user interrupt of the port, table in BAR 0 */
	exp[PCI_CAP_LIST_NEXT] = FPGA_VFIO_CAP_MSIX;
	msix[PCI_CAP_LIST_ID] = PCI_CAP_ID_MSIX;
	fpga_vfio_put(msix, PCI_MSIX_FLAGS, fv->num_irqs - 1, 2);
	fpga_vfio_put(msix, PCI_MSIX_TABLE, FPGA_VFIO_MSIX_TABLE, 4);
	fpga_vfio_put(msix, PCI_MSIX_PBA, FPGA_VFIO_MSIX_PBA, 4);
}

/* Whether BAR 0 answers: the user enabled memory decoding, as PCI says */
bool fpga_vfio_memory_enabled(struct fpga_vfio *fv)
{
	return get_unaligned_le16(fv->cfg + PCI_COMMAND) & PCI_COMMAND_MEMORY;
}

/* The bits of byte @ofs a write may change */
static u8 fpga_vfio_write_mask(struct fpga_vfio *fv, int ofs)
{
	int exp = ofs - FPGA_VFIO_CAP_EXP;

	switch (ofs) {
	case PCI_COMMAND:
		return FPGA_VFIO_COMMAND_BITS & 0xff;
	case PCI_COMMAND + 1:
		return FPGA_VFIO_COMMAND_BITS >> 8;
	case PCI_BASE_ADDRESS_0 ... PCI_BASE_ADDRESS_1 + 3:
		return 0xff;	/* then masked to the BAR's size */
	case PCI_INTERRUPT_LINE:
		return 0xff;
	}
	if (exp == PCI_EXP_DEVCTL || exp == PCI_EXP_DEVCTL + 1)
		return 0xff;
	/* MSI-X Enable and Function Mask, if there is the capability */
	if (fv->num_irqs && ofs == FPGA_VFIO_CAP_MSIX + PCI_MSIX_FLAGS + 1)
		return (PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL) >> 8;
	return 0;
}

/* BAR 0 as written: its size's low bits read 0, its type bits stay */
static void fpga_vfio_bar0_fixup(struct fpga_vfio *fv)
{
	u64 v = get_unaligned_le64(fv->cfg + PCI_BASE_ADDRESS_0);

	/* The size is 64 KiB and up: the type bits are within it */
	v = (v & ~(fv->bar0_size - 1)) | FPGA_VFIO_BAR0_TYPE;
	put_unaligned_le64(v, fv->cfg + PCI_BASE_ADDRESS_0);
}

/**
 * fpga_vfio_config_rw() - a read or write of the configuration region
 * @fv: the VF
 * @buf: the user's buffer
 * @count: its length
 * @pos: the offset in the region
 * @write: a write
 *
 * Any offset and length within the region, byte by byte, as vfio-pci
 * takes them.
 *
 * Return: @count, -EINVAL past the region, -EFAULT.
 */
ssize_t fpga_vfio_config_rw(struct fpga_vfio *fv, char __user *buf,
			    size_t count, u64 pos, bool write)
{
	u8 data[64];
	size_t done, n, i;

	if (pos >= FPGA_VFIO_CFG_SIZE || count > FPGA_VFIO_CFG_SIZE - pos)
		return -EINVAL;
	for (done = 0; done < count; done += n) {
		n = min(count - done, sizeof(data));
		if (write && copy_from_user(data, buf + done, n))
			return -EFAULT;
		mutex_lock(&fv->lock);
		for (i = 0; i < n; i++) {
			u64 ofs = pos + done + i;
			u8 mask = ofs < FPGA_VFIO_CFG_KEPT ?
				  fpga_vfio_write_mask(fv, ofs) : 0;

			if (!write)
				data[i] = ofs < FPGA_VFIO_CFG_KEPT ? fv->cfg[ofs] : 0;
			else if (mask)
				fv->cfg[ofs] = (fv->cfg[ofs] & ~mask) | (data[i] & mask);
		}
		if (write)
			fpga_vfio_bar0_fixup(fv);
		mutex_unlock(&fv->lock);
		if (!write && copy_to_user(buf + done, data, n))
			return -EFAULT;
	}
	return count;
}
