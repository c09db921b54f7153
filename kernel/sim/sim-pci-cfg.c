// SPDX-License-Identifier: GPL-2.0-only
/*
 * The configuration space of a simulated card's PCI functions.
 *
 * The PF: vendor 0x0000 (no vendor's), device 0xd5f1, class "processing
 * accelerator", no BAR and no interrupt; a card of board n3000 has
 * Intel's N3000 ids (8086:0b30).  Both carry a PCIe capability, as a Root
 * Complex Integrated Endpoint: there is no root port above them.  A card
 * of board sim is an SR-IOV PF as well, with as many VFs as it has ports
 * (a PAC/OFS card gives each VF one released port): its VFs are functions
 * 1..n of its slot, device 0xd5f2, so that neither fpga_dfl_pci nor
 * upstream's dfl-pci takes them for cards.  They have no BAR either: the
 * card's registers are ordinary memory, and whoever drives a VF presents
 * its port itself.  The N3000 has no SR-IOV for its FPGA: no capability.
 *
 * Writable: the PF's command register and SR-IOV's control, NumVFs and
 * system page size, whatever else is written is dropped, as read-only
 * registers are.
 */
#include <linux/bits.h>
#include <linux/string.h>

#include "sim-pci.h"

/* Base class 0x12, processing accelerator (PCI Code and ID Assignment) */
#define FPGA_SIM_PCI_CLASS		0x120000
#define FPGA_SIM_PCI_REVISION		0x01
/* board=n3000: Intel's PAC N3000, its subsystem the same ids */
#define FPGA_SIM_PCI_N3000_VENDOR	PCI_VENDOR_ID_INTEL
#define FPGA_SIM_PCI_N3000_DEVICE	0x0b30
/* Page sizes the VFs could use: 4 KiB and up, as most devices offer */
#define FPGA_SIM_PCI_VF_PGSIZES		0x553

/* Store @len bytes of @val at @ofs, little-endian as PCI is */
static void fpga_sim_pci_put(u8 *cfg, int ofs, u32 val, int len)
{
	for (; len; len--, ofs++, val >>= 8)
		cfg[ofs] = val;
}

static u32 fpga_sim_pci_get(const u8 *cfg, size_t cfg_size, int ofs, int len)
{
	u32 v = 0;
	int i;

	for (i = 0; i < len; i++)
		if (ofs + i < cfg_size)
			v |= (u32)cfg[ofs + i] << (8 * i);
	return v;
}

/* The header and PCIe capability a PF and its VFs share */
static void fpga_sim_pci_header(u8 *cfg, u16 vendor, u16 device)
{
	u8 *exp = cfg + FPGA_SIM_PCI_CAP_EXP;

	fpga_sim_pci_put(cfg, PCI_VENDOR_ID, vendor, 2);
	fpga_sim_pci_put(cfg, PCI_DEVICE_ID, device, 2);
	fpga_sim_pci_put(cfg, PCI_STATUS, PCI_STATUS_CAP_LIST, 2);
	fpga_sim_pci_put(cfg, PCI_CLASS_REVISION,
			 FPGA_SIM_PCI_CLASS << 8 | FPGA_SIM_PCI_REVISION, 4);
	cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_NORMAL;
	fpga_sim_pci_put(cfg, PCI_SUBSYSTEM_VENDOR_ID, vendor, 2);
	fpga_sim_pci_put(cfg, PCI_SUBSYSTEM_ID, device, 2);
	cfg[PCI_CAPABILITY_LIST] = FPGA_SIM_PCI_CAP_EXP;

	exp[PCI_CAP_LIST_ID] = PCI_CAP_ID_EXP;
	fpga_sim_pci_put(exp, PCI_EXP_FLAGS,
			 2 | PCI_EXP_TYPE_RC_END << 4, 2);
}

static void fpga_sim_pci_sriov_init(u8 *cfg, unsigned int total_vfs)
{
	u8 *sriov = cfg + FPGA_SIM_PCI_CAP_SRIOV;

	fpga_sim_pci_put(sriov, 0, PCI_EXT_CAP_ID_SRIOV | 1 << 16, 4);
	/* Without VF migration, Linux wants InitialVFs = TotalVFs */
	fpga_sim_pci_put(sriov, PCI_SRIOV_INITIAL_VF, total_vfs, 2);
	fpga_sim_pci_put(sriov, PCI_SRIOV_TOTAL_VF, total_vfs, 2);
	fpga_sim_pci_put(sriov, PCI_SRIOV_VF_OFFSET, FPGA_SIM_PCI_VF_OFFSET, 2);
	fpga_sim_pci_put(sriov, PCI_SRIOV_VF_STRIDE, FPGA_SIM_PCI_VF_STRIDE, 2);
	fpga_sim_pci_put(sriov, PCI_SRIOV_VF_DID, FPGA_SIM_PCI_VF_DEVICE, 2);
	fpga_sim_pci_put(sriov, PCI_SRIOV_SUP_PGSIZE, FPGA_SIM_PCI_VF_PGSIZES, 4);
	/* Function Dependency Link: the PF itself, function 0 */
	sriov[PCI_SRIOV_FUNC_LINK] = 0;
}

/**
 * fpga_sim_pci_cfg_init() - a slot's configuration space, at reset
 * @cfg: the slot's
 * @board: the board of the card in it
 * @total_vfs: its ports: as many VFs (board sim only)
 */
void fpga_sim_pci_cfg_init(struct fpga_sim_pci_cfg *cfg,
			   enum fpga_sim_board board, unsigned int total_vfs)
{
	u16 vendor = FPGA_SIM_PCI_VENDOR, device = FPGA_SIM_PCI_DEVICE;

	memset(cfg, 0, sizeof(*cfg));
	if (board == FPGA_SIM_BOARD_N3000) {
		vendor = FPGA_SIM_PCI_N3000_VENDOR;
		device = FPGA_SIM_PCI_N3000_DEVICE;
	}
	fpga_sim_pci_header(cfg->pf, vendor, device);
	if (board != FPGA_SIM_BOARD_SIM)
		return;
	fpga_sim_pci_sriov_init(cfg->pf, total_vfs);
	fpga_sim_pci_header(cfg->vf, vendor, FPGA_SIM_PCI_VF_DEVICE);
}

/**
 * fpga_sim_pci_cfg_has_func() - whether function @func of the slot answers
 * @cfg: the slot's
 * @func: the function number
 *
 * Return: true for the PF, and for a VF its SR-IOV control enables.
 */
bool fpga_sim_pci_cfg_has_func(const struct fpga_sim_pci_cfg *cfg,
			       unsigned int func)
{
	const u8 *sriov = cfg->pf + FPGA_SIM_PCI_CAP_SRIOV;
	u16 ctrl, num_vfs;

	if (!func)
		return true;
	ctrl = fpga_sim_pci_get(sriov, PCI_EXT_CAP_SRIOV_SIZEOF,
				PCI_SRIOV_CTRL, 2);
	num_vfs = fpga_sim_pci_get(sriov, PCI_EXT_CAP_SRIOV_SIZEOF,
				   PCI_SRIOV_NUM_VF, 2);
	return (ctrl & PCI_SRIOV_CTRL_VFE) &&
	       func >= FPGA_SIM_PCI_VF_OFFSET &&
	       func - FPGA_SIM_PCI_VF_OFFSET < num_vfs;
}

/**
 * fpga_sim_pci_cfg_read() - a read of @size bytes at @where
 * @cfg: the slot's
 * @func: a function fpga_sim_pci_cfg_has_func() says answers
 * @where: the offset
 * @size: 1, 2 or 4
 *
 * Return: the value; past what a function has, 0.
 */
u32 fpga_sim_pci_cfg_read(const struct fpga_sim_pci_cfg *cfg,
			  unsigned int func, int where, int size)
{
	if (func)
		return fpga_sim_pci_get(cfg->vf, sizeof(cfg->vf), where, size);
	return fpga_sim_pci_get(cfg->pf, sizeof(cfg->pf), where, size);
}

/* Whether byte @ofs of the PF's space can be written */
static bool fpga_sim_pci_writable(const struct fpga_sim_pci_cfg *cfg, int ofs)
{
	int sriov = ofs - FPGA_SIM_PCI_CAP_SRIOV;

	if (ofs == PCI_COMMAND || ofs == PCI_COMMAND + 1)
		return true;
	/* Only a card with SR-IOV has the capability's header */
	if (sriov < 0 || sriov >= PCI_EXT_CAP_SRIOV_SIZEOF ||
	    !cfg->pf[FPGA_SIM_PCI_CAP_SRIOV])
		return false;
	return sriov == PCI_SRIOV_CTRL ||
	       (sriov >= PCI_SRIOV_NUM_VF && sriov < PCI_SRIOV_NUM_VF + 2) ||
	       (sriov >= PCI_SRIOV_SYS_PGSIZE && sriov < PCI_SRIOV_SYS_PGSIZE + 4);
}

/**
 * fpga_sim_pci_cfg_write() - a write of @size bytes at @where
 * @cfg: the slot's
 * @func: a function that answers; a VF's space is read-only
 * @where: the offset
 * @size: 1, 2 or 4
 * @val: the value
 */
void fpga_sim_pci_cfg_write(struct fpga_sim_pci_cfg *cfg, unsigned int func,
			    int where, int size, u32 val)
{
	int i;

	if (func)
		return;
	for (i = 0; i < size; i++, val >>= 8) {
		int ofs = where + i;

		/* SR-IOV control: VF Enable, VF MSE and ARI only */
		if (ofs == FPGA_SIM_PCI_CAP_SRIOV + PCI_SRIOV_CTRL)
			val &= ~0xffu | PCI_SRIOV_CTRL_VFE |
			       PCI_SRIOV_CTRL_MSE | PCI_SRIOV_CTRL_ARI;
		if (ofs < FPGA_SIM_PCI_CFG_SIZE && fpga_sim_pci_writable(cfg, ofs))
			cfg->pf[ofs] = val;
	}
}
