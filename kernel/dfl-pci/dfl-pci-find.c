// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the Device Feature Lists of a PCI function start.
 *
 * A DFL VSEC lists them, a BAR and an offset each.  Without one the list
 * starts at offset 0 of BAR 0; a function whose BAR 0 does not start with
 * an FIU header (a test rig such as QEMU's ivshmem, whose memory is BAR 2)
 * is searched at offset 0 of its other memory BARs.  fpga_dfl follows the
 * FME's port offset registers within the FME's own BAR only, so ports in
 * other BARs are added here as lists of their own.
 */
#include <linux/bitfield.h>
#include <linux/err.h>
#include <linux/io.h>
#include <linux/pci.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>
#include "dfl-pci.h"

/**
 * fpga_dfl_pci_map_bar() - map a memory BAR, once
 * @fp: the function
 * @bar: the BAR
 *
 * Return: the mapping, or NULL if @bar is not a memory BAR or cannot be
 * mapped (said in the log).
 */
void __iomem *fpga_dfl_pci_map_bar(struct fpga_dfl_pci *fp, u8 bar)
{
	struct pci_dev *pdev = fp->pdev;
	void __iomem *base;

	if (bar >= PCI_STD_NUM_BARS)
		return NULL;
	if (fp->bars[bar])
		return fp->bars[bar];
	if (!(pci_resource_flags(pdev, bar) & IORESOURCE_MEM) ||
	    !pci_resource_len(pdev, bar))
		return NULL;
	base = pcim_iomap_region(pdev, bar, KBUILD_MODNAME);
	if (IS_ERR(base)) {
		dev_err(&pdev->dev, "cannot map BAR %u: %ld\n", bar,
			PTR_ERR(base));
		return NULL;
	}
	fp->bars[bar] = base;
	return base;
}

/* A FIU header fits at @ofs of memory BAR @bar */
static bool fpga_dfl_pci_in_bar(struct fpga_dfl_pci *fp, u8 bar,
				resource_size_t ofs)
{
	resource_size_t len;

	if (!fpga_dfl_pci_map_bar(fp, bar))
		return false;
	len = pci_resource_len(fp->pdev, bar);
	return IS_ALIGNED(ofs, 8) && ofs < len && FIU_HDR_SIZE <= len - ofs;
}

/* The FIU id at @ofs of @bar, or -1 if there is no FIU header there */
static int fpga_dfl_pci_fiu_at(struct fpga_dfl_pci *fp, u8 bar,
			       resource_size_t ofs)
{
	u64 dfh;

	if (!fpga_dfl_pci_in_bar(fp, bar, ofs))
		return -1;
	dfh = readq(fp->bars[bar] + ofs);
	if (FIELD_GET(DFH_TYPE, dfh) != DFH_TYPE_FIU)
		return -1;
	return FIELD_GET(DFH_ID, dfh);
}

static bool fpga_dfl_pci_add_list(struct fpga_dfl_pci *fp, u8 bar,
				  resource_size_t ofs)
{
	unsigned int i;

	for (i = 0; i < fp->num_lists; i++)
		if (fp->lists[i].bar == bar && fp->lists[i].ofs == ofs)
			return true;
	if (fp->num_lists == FPGA_DFL_PCI_MAX_LISTS) {
		dev_err(&fp->pdev->dev,
			"more than %u DFLs; BAR %u offset %#llx skipped\n",
			FPGA_DFL_PCI_MAX_LISTS, bar, (unsigned long long)ofs);
		return false;
	}
	fp->lists[fp->num_lists].bar = bar;
	fp->lists[fp->num_lists].ofs = ofs;
	fp->num_lists++;
	return true;
}

static int fpga_dfl_pci_find_vsec(struct fpga_dfl_pci *fp)
{
	struct pci_dev *pdev = fp->pdev;
	u32 hdr, cnt, res;
	unsigned int i;
	u16 pos = 0;

	/* The VSEC id means "DFL" only under Intel's vendor id */
	if (pdev->vendor != PCI_VENDOR_ID_INTEL)
		return -ENODEV;
	while ((pos = pci_find_next_ext_capability(pdev, pos,
						   PCI_EXT_CAP_ID_VNDR))) {
		pci_read_config_dword(pdev, pos + PCI_VNDR_HEADER, &hdr);
		if (PCI_VNDR_HEADER_ID(hdr) == FPGA_DFL_PCI_VSEC_ID)
			break;
	}
	if (!pos)
		return -ENODEV;

	pci_read_config_dword(pdev, pos + FPGA_DFL_PCI_VSEC_CNT, &cnt);
	if (!cnt || cnt > FPGA_DFL_PCI_MAX_LISTS) {
		dev_err(&pdev->dev, "DFL VSEC lists %u DFLs (1..%u supported)\n",
			cnt, FPGA_DFL_PCI_MAX_LISTS);
		if (!cnt)
			return -EINVAL;
		cnt = FPGA_DFL_PCI_MAX_LISTS;
	}
	for (i = 0; i < cnt; i++) {
		u8 bar;
		u32 ofs;

		pci_read_config_dword(pdev, pos + FPGA_DFL_PCI_VSEC_RES + i * 4,
				      &res);
		bar = FIELD_GET(FPGA_DFL_PCI_VSEC_RES_BAR, res);
		ofs = res & FPGA_DFL_PCI_VSEC_RES_OFS;
		if (!fpga_dfl_pci_in_bar(fp, bar, ofs)) {
			dev_err(&pdev->dev,
				"DFL VSEC entry %u: BAR %u offset %#x is not in a memory BAR, skipped\n",
				i, bar, ofs);
			continue;
		}
		fpga_dfl_pci_add_list(fp, bar, ofs);
	}
	return 0;
}

static int fpga_dfl_pci_find_default(struct fpga_dfl_pci *fp)
{
	u8 bar;

	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		int fiu = fpga_dfl_pci_fiu_at(fp, bar, 0);

		if (fiu != DFH_ID_FIU_FME && fiu != DFH_ID_FIU_PORT)
			continue;
		if (bar)
			dev_info(&fp->pdev->dev,
				 "no DFL VSEC and no DFL in BAR 0: using the one at offset 0 of BAR %u\n",
				 bar);
		fpga_dfl_pci_add_list(fp, bar, 0);
		return 0;
	}
	return -ENODEV;
}

/* The FME's implemented PF ports that sit in other BARs than the FME */
static void fpga_dfl_pci_find_fme_ports(struct fpga_dfl_pci *fp,
					const struct fpga_dfl_pci_list *fme)
{
	void __iomem *hdr = fp->bars[fme->bar] + fme->ofs;
	unsigned int n;

	for (n = 0; n < FME_MAX_PORTS; n++) {
		u64 v = readq(hdr + FME_HDR_PORT_OFST(n));
		resource_size_t ofs = FIELD_GET(FME_PORT_OFST_DFH, v);
		u8 bar = FIELD_GET(FME_PORT_OFST_BAR, v);

		/* fpga_dfl reports VF ports and walks those in the FME's BAR */
		if (!(v & FME_PORT_OFST_IMP) || (v & FME_PORT_OFST_ACC_VF) ||
		    bar == fme->bar)
			continue;
		if (fpga_dfl_pci_fiu_at(fp, bar, ofs) != DFH_ID_FIU_PORT) {
			dev_err(&fp->pdev->dev,
				"FME port %u: no port header at BAR %u offset %#llx, port skipped\n",
				n, bar, (unsigned long long)ofs);
			continue;
		}
		fpga_dfl_pci_add_list(fp, bar, ofs);
	}
}

/**
 * fpga_dfl_pci_covered() - is a list a port its FME's card walks anyway?
 * @fp: the function
 * @i: index in @fp->lists
 *
 * A VSEC may list ports the FME also points to in its own BAR; fpga_dfl
 * walks those from the FME, so they must not become cards of their own.
 */
bool fpga_dfl_pci_covered(struct fpga_dfl_pci *fp, unsigned int i)
{
	const struct fpga_dfl_pci_list *l = &fp->lists[i];
	unsigned int j, n;

	for (j = 0; j < fp->num_lists; j++) {
		const struct fpga_dfl_pci_list *f = &fp->lists[j];

		if (j == i || f->bar != l->bar ||
		    fpga_dfl_pci_fiu_at(fp, f->bar, f->ofs) != DFH_ID_FIU_FME)
			continue;
		for (n = 0; n < FME_MAX_PORTS; n++) {
			u64 v = readq(fp->bars[f->bar] + f->ofs +
				      FME_HDR_PORT_OFST(n));

			if ((v & FME_PORT_OFST_IMP) &&
			    FIELD_GET(FME_PORT_OFST_BAR, v) == l->bar &&
			    FIELD_GET(FME_PORT_OFST_DFH, v) == l->ofs)
				return true;
		}
	}
	return false;
}

/**
 * fpga_dfl_pci_find() - find where the function's DFLs start
 * @fp: the function, enabled
 *
 * Fills @fp->lists.  BARs probed but holding no list are unmapped again.
 *
 * Return: 0, or -ENODEV (said in the log) if there is no DFL.
 */
int fpga_dfl_pci_find(struct fpga_dfl_pci *fp)
{
	unsigned int i, num;
	bool used[PCI_STD_NUM_BARS] = { };
	u8 bar;
	int ret;

	ret = fpga_dfl_pci_find_vsec(fp);
	if (ret == -ENODEV) {
		ret = fpga_dfl_pci_find_default(fp);
		if (ret) {
			dev_err(&fp->pdev->dev,
				"no DFL found: no DFL VSEC, and no FME or port header at offset 0 of a memory BAR\n");
			return -ENODEV;
		}
	}
	if (ret || !fp->num_lists) {
		dev_err(&fp->pdev->dev, "the DFL VSEC lists no usable DFL\n");
		return -ENODEV;
	}

	num = fp->num_lists;
	for (i = 0; i < num; i++)
		if (fpga_dfl_pci_fiu_at(fp, fp->lists[i].bar,
					fp->lists[i].ofs) == DFH_ID_FIU_FME)
			fpga_dfl_pci_find_fme_ports(fp, &fp->lists[i]);

	for (i = 0; i < fp->num_lists; i++)
		used[fp->lists[i].bar] = true;
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		if (fp->bars[bar] && !used[bar]) {
			pcim_iounmap_region(fp->pdev, bar);
			fp->bars[bar] = NULL;
		}
	}
	return 0;
}
