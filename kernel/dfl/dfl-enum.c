// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device Feature List enumeration.
 *
 * Walks the lists in a card's MMIO window, starting at offset 0 and at
 * every implemented port the FME points to, and turns each FIU (FME or
 * port) with its private features and AFU into a device on the fpga_dfl
 * bus.  A malformed entry is reported with its offset and reason and ends
 * only the list it is on (or is skipped, where the walk can go on): one bad
 * feature must not take the rest of the card down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/fpga-netlink.h>

#include <fpga-suite/dfl-core.h>
#include <fpga-suite/dfl-enum.h>
#include "dfl-nl.h"
#include "dfl-region.h"
#include "dfl_trace.h"

static DEFINE_IDA(fpga_dfl_card_ida);
static DEFINE_IDA(fpga_dfl_port_ida);

/* A malformed entry: say where and why, and count it (for the KUnit suite) */
static __printf(3, 4) void dfl_report(struct fpga_dfl_card *card,
				      resource_size_t ofs, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	card->num_reports++;
	card->last_report = ofs;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_err(card->info.parent, "DFL offset %#llx: %pV\n",
		(unsigned long long)ofs, &vaf);
	va_end(args);
}

static bool fpga_dfl_in_window(struct fpga_dfl_card *card,
			       resource_size_t ofs, resource_size_t size)
{
	return size && ofs < card->info.len && size <= card->info.len - ofs;
}

/* A claimed block that [ofs, ofs + size) overlaps, other than @own */
static const struct fpga_dfl_claim *
fpga_dfl_overlap(const struct fpga_dfl_card *card, resource_size_t ofs,
		 resource_size_t size, const struct fpga_dfl_claim *own)
{
	resource_size_t end = ofs + size;
	unsigned int i;

	for (i = 0; i < card->num_claims; i++) {
		const struct fpga_dfl_claim *c = &card->claims[i];

		if (c != own && ofs < c->end && c->start < end)
			return c;
	}
	return NULL;
}

static bool fpga_dfl_claim_add(struct fpga_dfl_card *card, resource_size_t ofs,
			       resource_size_t size)
{
	if (card->num_claims == FPGA_DFL_MAX_CLAIMS)
		return false;
	card->claims[card->num_claims].start = ofs;
	card->claims[card->num_claims].end = ofs + size;
	card->claims[card->num_claims].owner = card->claim_owner;
	card->num_claims++;
	return true;
}

/* Take [ofs, ofs + size) for one feature; false if it is not free */
static bool fpga_dfl_claim(struct fpga_dfl_card *card, resource_size_t ofs,
			   resource_size_t size)
{
	const struct fpga_dfl_claim *c = fpga_dfl_overlap(card, ofs, size, NULL);

	if (c) {
		dfl_report(card, ofs,
			   "overlaps the feature at %#llx (loop or overlap), list ends here",
			   (unsigned long long)c->start);
		return false;
	}
	if (!fpga_dfl_claim_add(card, ofs, size)) {
		dfl_report(card, ofs, "too many features, list ends here");
		return false;
	}
	return true;
}

static void fpga_dfl_device_release(struct device *dev)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);
	unsigned int i;

	for (i = 0; i < fdev->num_features; i++)
		kfree(fdev->features[i].irqs);
	kfree(fdev->features);
	kfree(fdev->driver_override);
	kfree(fdev->card_name);
	if (fdev->fiu_id == DFH_ID_FIU_PORT && fdev->id >= 0)
		ida_free(&fpga_dfl_port_ida, fdev->id);
	fpga_dfl_unplug_cleanup(&fdev->unplug);
	kfree(fdev);
}

static struct fpga_dfl_device *fpga_dfl_device_alloc(struct fpga_dfl_card *card,
						     u16 fiu_id)
{
	struct fpga_dfl_device *fdev;

	fdev = kzalloc(sizeof(*fdev), GFP_KERNEL);
	if (!fdev)
		return NULL;
	fdev->features = kcalloc(FPGA_DFL_MAX_FEATURES,
				 sizeof(*fdev->features), GFP_KERNEL);
	fdev->card_name = kstrdup(dev_name(card->info.parent), GFP_KERNEL);
	if (!fdev->features || !fdev->card_name ||
	    fpga_dfl_unplug_init(&fdev->unplug)) {
		kfree(fdev->card_name);
		kfree(fdev->features);
		kfree(fdev);
		return NULL;
	}
	fdev->fiu_id = fiu_id;
	fdev->id = -1;
	fdev->card_id = card->id;
	fdev->card = card;
	fdev->dma_dev = card->info.parent;
	fdev->dma_owner = card->info.owner;
	fdev->cacheable = card->info.cacheable;
	fdev->dma_isolation = card->info.dma_isolation;
	device_initialize(&fdev->dev);
	fdev->dev.parent = card->info.parent;
	fdev->dev.bus = &fpga_dfl_bus_type;
	fdev->dev.release = fpga_dfl_device_release;
	return fdev;
}

static void fpga_dfl_feature_map(struct fpga_dfl_card *card,
				 struct fpga_dfl_feature *feat,
				 resource_size_t ofs, resource_size_t size)
{
	feat->ioaddr = card->info.ioaddr + ofs;
	feat->start = card->info.start + ofs;
	feat->size = size;
}

/* Where the interrupt vectors of a private feature are described */
static bool fpga_dfl_feature_irq_cap(struct fpga_dfl_device *fdev,
				     struct fpga_dfl_feature *feat,
				     unsigned int *first, unsigned int *count)
{
	u64 v;

	/*
	 * Drivers take interrupts from private features only (error, UINT):
	 * an AFU whose id happens to be theirs has other registers there
	 */
	if (feat->type != DFH_TYPE_PRIVATE)
		return false;
	if (feat->dfh_version == 1) {
		/* Parameters were decoded into *first / *count by the caller */
		return *count != 0;
	}

	if (fdev->fiu_id == DFH_ID_FIU_PORT && feat->id == PORT_FEATURE_ID_ERROR) {
		v = readq(feat->ioaddr + PORT_ERROR_CAP);
		if (!(v & PORT_ERROR_CAP_SUPP_INT))
			return false;
		*first = FIELD_GET(PORT_ERROR_CAP_INT_VECT, v);
		*count = 1;
		return true;
	}
	if (fdev->fiu_id == DFH_ID_FIU_FME && feat->id == FME_FEATURE_ID_GLOBAL_ERR) {
		v = readq(feat->ioaddr + FME_ERROR_CAP);
		if (!(v & FME_ERROR_CAP_SUPP_INT))
			return false;
		*first = FIELD_GET(FME_ERROR_CAP_INT_VECT, v);
		*count = 1;
		return true;
	}
	if (fdev->fiu_id == DFH_ID_FIU_PORT && feat->id == PORT_FEATURE_ID_UINT) {
		v = readq(feat->ioaddr + PORT_UINT_CAP);
		*first = FIELD_GET(PORT_UINT_CAP_FST_VECT, v);
		*count = FIELD_GET(PORT_UINT_CAP_INT_NUM, v);
		return *count != 0;
	}
	return false;
}

static void fpga_dfl_feature_irqs(struct fpga_dfl_card *card,
				  struct fpga_dfl_device *fdev,
				  struct fpga_dfl_feature *feat,
				  resource_size_t ofs,
				  unsigned int first, unsigned int count)
{
	unsigned int i;

	if (!fpga_dfl_feature_irq_cap(fdev, feat, &first, &count))
		return;

	if (count > card->info.num_irqs || first > card->info.num_irqs - count) {
		dfl_report(card, ofs,
			   "feature %#x: bad IRQ capability (vectors %u..%u, card has %u); feature kept without interrupts",
			   feat->id, first, first + count - 1,
			   card->info.num_irqs);
		return;
	}
	feat->irqs = kcalloc(count, sizeof(*feat->irqs), GFP_KERNEL);
	if (!feat->irqs)
		return;
	for (i = 0; i < count; i++)
		feat->irqs[i] = card->info.irqs[first + i];
	feat->irq_count = count;
}

/* DFHv1: registers may live elsewhere; parameters may describe MSI-X */
static bool fpga_dfl_parse_v1(struct fpga_dfl_card *card, resource_size_t ofs,
			      resource_size_t *csr_ofs, resource_size_t *csr_size,
			      unsigned int *irq_first, unsigned int *irq_count)
{
	void __iomem *dfh = card->info.ioaddr + ofs;
	u64 addr, size_grp, param;
	resource_size_t p;
	unsigned int n;

	if (!fpga_dfl_in_window(card, ofs, DFHV1_PARAM_HDR)) {
		dfl_report(card, ofs, "DFHv1 header runs past the window");
		return false;
	}
	addr = readq(dfh + DFHV1_CSR_ADDR);
	size_grp = readq(dfh + DFHV1_CSR_SIZE_GRP);
	/* Absolute: a bus address (in this window); else relative to the DFH */
	*csr_ofs = addr & DFHV1_CSR_ADDR_MASK;
	if (addr & DFHV1_CSR_ADDR_ABS)
		*csr_ofs -= card->info.start;
	else
		*csr_ofs += ofs;
	*csr_size = FIELD_GET(DFHV1_CSR_SIZE, size_grp);
	if (!fpga_dfl_in_window(card, *csr_ofs, *csr_size)) {
		dfl_report(card, ofs, "DFHv1 registers at %#llx size %#llx are outside the window",
			   (unsigned long long)*csr_ofs,
			   (unsigned long long)*csr_size);
		return false;
	}
	if (!(size_grp & DFHV1_HAS_PARAMS))
		return true;

	p = ofs + DFHV1_PARAM_HDR;
	for (n = 0; n < FPGA_DFL_MAX_FEATURES; n++) {
		if (!fpga_dfl_in_window(card, p, DFHV1_PARAM_DATA + 8)) {
			dfl_report(card, ofs, "DFHv1 parameter at %#llx is outside the window",
				   (unsigned long long)p);
			return false;
		}
		param = readq(card->info.ioaddr + p);
		if (FIELD_GET(DFHV1_PARAM_ID, param) == DFHV1_PARAM_ID_MSIX) {
			u64 data = readq(card->info.ioaddr + p +
					 DFHV1_PARAM_DATA);

			*irq_first = FIELD_GET(DFHV1_PARAM_MSIX_START, data);
			*irq_count = FIELD_GET(DFHV1_PARAM_MSIX_COUNT, data);
		}
		if (param & DFHV1_PARAM_EOP)
			return true;
		if (!FIELD_GET(DFHV1_PARAM_NEXT, param)) {
			dfl_report(card, ofs, "DFHv1 parameter list has next = 0 without EOP");
			return false;
		}
		p += FIELD_GET(DFHV1_PARAM_NEXT, param) * 8;
	}
	dfl_report(card, ofs, "DFHv1 parameter list too long");
	return false;
}

/*
 * The smallest register block of a feature: the drivers read its registers
 * at fixed offsets, so they are checked against the block here, once.
 */
static resource_size_t fpga_dfl_min_size(struct fpga_dfl_device *fdev,
					 struct fpga_dfl_feature *feat)
{
	if (feat->type == DFH_TYPE_FIU)
		return FIU_HDR_SIZE;
	if (feat->type == DFH_TYPE_AFU)
		return AFU_HDR_SIZE;
	if (fdev->fiu_id == DFH_ID_FIU_FME) {
		if (feat->id == FME_FEATURE_ID_GLOBAL_ERR)
			return FME_ERROR_SIZE;
		if (feat->id == FME_FEATURE_ID_COUNTERS)
			return CNTR_SIZE;
	} else {
		if (feat->id == PORT_FEATURE_ID_ERROR)
			return PORT_ERROR_SIZE;
		if (feat->id == PORT_FEATURE_ID_UINT)
			return PORT_UINT_SIZE;
	}
	return 8;	/* the DFH */
}

/* What a feature that cannot be used costs its FIU */
static const char *fpga_dfl_dropped(struct fpga_dfl_feature *feat)
{
	if (feat->type == DFH_TYPE_FIU)
		return "list ends here";
	if (feat->type == DFH_TYPE_AFU)
		return "port kept without its AFU";
	return "feature skipped";
}

/*
 * DFHv1 registers may lie outside the feature's DFH block, which the caller
 * claimed: take them too, so that no two features share a register (an AFU
 * whose CSR_ADDR names a port or FME header would hand that to user space).
 */
static bool fpga_dfl_claim_regs(struct fpga_dfl_card *card,
				struct fpga_dfl_feature *feat,
				resource_size_t ofs, resource_size_t csr_ofs,
				resource_size_t csr_size)
{
	/* The block holding the DFH is the feature's own and no other's */
	const struct fpga_dfl_claim *own = fpga_dfl_overlap(card, ofs, 1, NULL);
	const struct fpga_dfl_claim *c;

	if (own && csr_ofs >= own->start && csr_ofs + csr_size <= own->end)
		return true;
	c = fpga_dfl_overlap(card, csr_ofs, csr_size, own);
	if (c) {
		dfl_report(card, ofs,
			   "DFHv1 registers at %#llx overlap another feature's at %#llx, %s",
			   (unsigned long long)csr_ofs,
			   (unsigned long long)c->start, fpga_dfl_dropped(feat));
		return false;
	}
	if (!fpga_dfl_claim_add(card, csr_ofs, csr_size)) {
		dfl_report(card, ofs, "too many register blocks, %s",
			   fpga_dfl_dropped(feat));
		return false;
	}
	return true;
}

/*
 * Parse the feature whose DFH is at @ofs and whose block is @size long.
 * On failure it is reported and @feat is left empty.
 */
static int fpga_dfl_add_feature(struct fpga_dfl_card *card,
				struct fpga_dfl_device *fdev,
				struct fpga_dfl_feature *feat,
				resource_size_t ofs, resource_size_t size)
{
	u64 dfh = readq(card->info.ioaddr + ofs);
	resource_size_t csr_ofs = ofs, csr_size = size;
	unsigned int irq_first = 0, irq_count = 0;

	feat->id = FIELD_GET(DFH_ID, dfh);
	feat->type = FIELD_GET(DFH_TYPE, dfh);
	feat->revision = FIELD_GET(DFH_REVISION, dfh);
	feat->dfh_version = FIELD_GET(DFH_VERSION, dfh);

	if (feat->dfh_version > 1) {
		dfl_report(card, ofs, "unknown DFH version %u, %s",
			   feat->dfh_version, fpga_dfl_dropped(feat));
		goto drop;
	}
	if (feat->dfh_version == 1) {
		if (size < DFHV1_PARAM_HDR) {
			dfl_report(card, ofs, "DFHv1 header past its block (%#llx bytes), %s",
				   (unsigned long long)size, fpga_dfl_dropped(feat));
			goto drop;
		}
		if (!fpga_dfl_parse_v1(card, ofs, &csr_ofs, &csr_size,
				       &irq_first, &irq_count))
			goto drop;
	}
	if (csr_size < fpga_dfl_min_size(fdev, feat)) {
		dfl_report(card, ofs, "feature %#x: registers %#llx bytes long, needs %#llx, %s",
			   feat->id, (unsigned long long)csr_size,
			   (unsigned long long)fpga_dfl_min_size(fdev, feat),
			   fpga_dfl_dropped(feat));
		goto drop;
	}
	if (feat->dfh_version == 1 &&
	    !fpga_dfl_claim_regs(card, feat, ofs, csr_ofs, csr_size))
		goto drop;

	fpga_dfl_feature_map(card, feat, csr_ofs, csr_size);
	fpga_dfl_feature_irqs(card, fdev, feat, ofs, irq_first, irq_count);
	return 0;

drop:
	memset(feat, 0, sizeof(*feat));
	return -EINVAL;
}

static void fpga_dfl_add_afu(struct fpga_dfl_card *card,
			     struct fpga_dfl_device *fdev, resource_size_t ofs)
{
	resource_size_t size;
	u64 dfh;

	if (!fpga_dfl_in_window(card, ofs, AFU_HDR_SIZE)) {
		dfl_report(card, ofs, "AFU header is outside the window");
		return;
	}
	dfh = readq(card->info.ioaddr + ofs);
	if (FIELD_GET(DFH_TYPE, dfh) != DFH_TYPE_AFU) {
		dfl_report(card, ofs, "NEXT_AFU points to a feature of type %llu, not an AFU",
			   FIELD_GET(DFH_TYPE, dfh));
		return;
	}
	size = FIELD_GET(PORT_CAP_MMIO_SIZE,
			 readq(fdev->hdr.ioaddr + PORT_HDR_CAP)) * SZ_1K;
	if (fdev->fiu_id != DFH_ID_FIU_PORT || !size)
		size = FIELD_GET(DFH_NEXT, dfh) ?: DFL_DEFAULT_FEATURE_SIZE;
	if (!fpga_dfl_in_window(card, ofs, size)) {
		dfl_report(card, ofs, "AFU of size %#llx runs past the window",
			   (unsigned long long)size);
		return;
	}
	if (!fpga_dfl_claim(card, ofs, size))
		return;
	if (fpga_dfl_add_feature(card, fdev, &fdev->afu, ofs, size))
		return;
	fdev->afu_guid_l = readq(fdev->afu.ioaddr + DFH_GUID_L);
	fdev->afu_guid_h = readq(fdev->afu.ioaddr + DFH_GUID_H);
}

static bool fpga_dfl_card_has(struct fpga_dfl_card *card, u16 fiu_id)
{
	if (fiu_id == DFH_ID_FIU_FME)
		return card->fme;
	return !card->rewalk && card->num_ports == FME_MAX_PORTS;
}

/* The index the next port found gets */
static unsigned int fpga_dfl_next_port(struct fpga_dfl_card *card)
{
	return card->rewalk ? card->rewalk_port : card->num_ports;
}

/* Port @i is port @num of the card: what PR, netlink and DMA go by */
static void fpga_dfl_port_set_num(struct fpga_dfl_card *card, unsigned int i,
				  unsigned int num)
{
	struct fpga_dfl_device *fdev = card->ports[i];

	card->port_num[i] = num;
	fdev->port_num = num;
	if (num < card->info.num_port_dma_devs)
		fdev->dma_dev = card->info.port_dma_devs[num];
}

static void fpga_dfl_card_keep(struct fpga_dfl_card *card,
			       struct fpga_dfl_device *fdev)
{
	unsigned int i = fpga_dfl_next_port(card);

	if (fdev->fiu_id == DFH_ID_FIU_FME) {
		card->fme = fdev;
		return;
	}
	card->port_ofs[i] = fdev->hdr.ioaddr - card->info.ioaddr;
	card->ports[i] = fdev;
	if (card->rewalk) {
		fpga_dfl_port_set_num(card, i, card->port_num[i]);
		return;
	}
	fdev->port_num = FPGA_DFL_NO_PORT_NUM;
	card->port_num[i] = FPGA_DFL_NO_PORT_NUM;
	/* The FME register names the first port of its list only */
	card->port_fme[i] = card->walk_port_num != FPGA_DFL_NO_PORT_NUM;
	if (card->port_fme[i])
		fpga_dfl_port_set_num(card, i, card->walk_port_num);
	card->walk_port_num = FPGA_DFL_NO_PORT_NUM;
	card->num_ports++;
}

/* Size of the block a DFH describes: distance to the next DFH, or its size */
static resource_size_t fpga_dfl_block_size(u64 dfh)
{
	return FIELD_GET(DFH_NEXT, dfh) ?: DFL_DEFAULT_FEATURE_SIZE;
}

/* A FIU header at @ofs: start a new device.  Return it, or NULL to stop. */
static struct fpga_dfl_device *fpga_dfl_walk_fiu(struct fpga_dfl_card *card,
						 resource_size_t ofs,
						 resource_size_t size, u64 dfh)
{
	u16 fiu_id = FIELD_GET(DFH_ID, dfh);
	struct fpga_dfl_device *fdev;
	resource_size_t afu_ofs;

	if (fiu_id != DFH_ID_FIU_FME && fiu_id != DFH_ID_FIU_PORT) {
		dfl_report(card, ofs, "unknown FIU id %u, list ends here", fiu_id);
		return NULL;
	}
	if (fpga_dfl_card_has(card, fiu_id)) {
		dfl_report(card, ofs, "one FIU of this kind too many, list ends here");
		return NULL;
	}
	if (!fpga_dfl_in_window(card, ofs, FIU_HDR_SIZE)) {
		dfl_report(card, ofs, "FIU header runs past the window, list ends here");
		return NULL;
	}
	card->claim_owner = fiu_id == DFH_ID_FIU_FME ? FPGA_DFL_CLAIM_FME :
			    fpga_dfl_next_port(card);
	if (!fpga_dfl_claim(card, ofs, size))
		return NULL;
	fdev = fpga_dfl_device_alloc(card, fiu_id);
	if (!fdev)
		return NULL;
	/* Nothing of a FIU whose own registers cannot be read is usable */
	if (fpga_dfl_add_feature(card, fdev, &fdev->hdr, ofs, size)) {
		put_device(&fdev->dev);
		return NULL;
	}
	fpga_dfl_card_keep(card, fdev);

	afu_ofs = FIELD_GET(FIU_NEXT_AFU_OFFSET,
			    readq(fdev->hdr.ioaddr + FIU_NEXT_AFU));
	if (afu_ofs)
		fpga_dfl_add_afu(card, fdev, ofs + afu_ofs);
	return fdev;
}

/* A private feature at @ofs: attach it to @fdev.  False to stop the list. */
static bool fpga_dfl_walk_private(struct fpga_dfl_card *card,
				  struct fpga_dfl_device *fdev,
				  resource_size_t ofs, resource_size_t size,
				  u64 dfh)
{
	if (!fdev) {
		dfl_report(card, ofs, "private feature %#llx before any FIU, skipped",
			   FIELD_GET(DFH_ID, dfh));
		return true;
	}
	if (fdev->num_features == FPGA_DFL_MAX_FEATURES) {
		dfl_report(card, ofs, "too many features on one FIU, skipped");
		return true;
	}
	if (!fpga_dfl_claim(card, ofs, size))
		return false;
	if (!fpga_dfl_add_feature(card, fdev,
				  &fdev->features[fdev->num_features], ofs, size))
		fdev->num_features++;
	return true;
}

/**
 * fpga_dfl_walk_list() - walk one feature list
 * @card: the card
 * @ofs: offset of the first DFH of the list
 *
 * Every FIU header starts a new device; private features attach to the
 * current one.  Devices found are kept in @card.
 */
static void fpga_dfl_walk_list(struct fpga_dfl_card *card, resource_size_t ofs)
{
	struct fpga_dfl_device *fdev = NULL;
	unsigned int steps;

	for (steps = 0; steps < FPGA_DFL_MAX_CLAIMS; steps++) {
		resource_size_t size, next;
		u64 dfh;

		if (!IS_ALIGNED(ofs, 8) || !fpga_dfl_in_window(card, ofs, 8)) {
			dfl_report(card, ofs, "DFH outside the window or unaligned, list ends");
			return;
		}
		dfh = readq(card->info.ioaddr + ofs);
		size = fpga_dfl_block_size(dfh);
		/* A bad link must not make the feature swallow the window */
		if (!fpga_dfl_in_window(card, ofs, size))
			size = min_t(resource_size_t, DFL_DEFAULT_FEATURE_SIZE,
				     card->info.len - ofs);

		switch (FIELD_GET(DFH_TYPE, dfh)) {
		case DFH_TYPE_FIU:
			/* A port walked again ends where the next FIU starts */
			if (card->rewalk && fdev)
				return;
			fdev = fpga_dfl_walk_fiu(card, ofs, size, dfh);
			if (!fdev)
				return;
			break;
		case DFH_TYPE_PRIVATE:
			if (!fpga_dfl_walk_private(card, fdev, ofs, size, dfh))
				return;
			break;
		default:
			dfl_report(card, ofs, "feature type %llu (id %#llx) not handled, skipped",
				   FIELD_GET(DFH_TYPE, dfh), FIELD_GET(DFH_ID, dfh));
			break;
		}

		if (dfh & DFH_EOL)
			return;
		next = FIELD_GET(DFH_NEXT, dfh);
		if (!next) {
			dfl_report(card, ofs, "next offset is 0 without EOL, list ends here");
			return;
		}
		if (!IS_ALIGNED(next, 8) || !fpga_dfl_in_window(card, ofs + next, 8)) {
			dfl_report(card, ofs,
				   "next DFH %#llx outside the window or unaligned, list ends",
				   (unsigned long long)(ofs + next));
			return;
		}
		ofs += next;
	}
	dfl_report(card, ofs, "list too long, ends here");
}

/**
 * fpga_dfl_port_index() - where port @port_num of the card is kept
 * @card: the card
 * @port_num: the port's number on the card (FME_HDR_PORT_OFST(n)'s n)
 *
 * A card whose FME marks a port not implemented or assigned to a VF has
 * a gap: its ports' numbers are not their places in @card->ports.
 *
 * Return: the index in @card->ports, port_ofs and port_region (whose
 * device may be NULL after a failed programming), or -EINVAL.
 */
int fpga_dfl_port_index(struct fpga_dfl_card *card, unsigned int port_num)
{
	unsigned int i;

	for (i = 0; i < card->num_ports; i++)
		if (card->port_num[i] == port_num)
			return i;
	return -EINVAL;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_dfl_port_index);

/* A port found on the list already, at @ofs with no number yet: number it */
static bool fpga_dfl_port_found(struct fpga_dfl_card *card, unsigned int n,
				resource_size_t ofs)
{
	unsigned int i;

	for (i = 0; i < card->num_ports; i++)
		if (card->port_num[i] == FPGA_DFL_NO_PORT_NUM &&
		    card->port_ofs[i] == ofs) {
			fpga_dfl_port_set_num(card, i, n);
			card->port_fme[i] = true;
			return true;
		}
	return false;
}

/* Is number @n taken: by a port, or by an FME register (a VF's port)? */
static bool fpga_dfl_port_num_taken(struct fpga_dfl_card *card,
				    unsigned int n)
{
	if (fpga_dfl_port_index(card, n) >= 0)
		return true;
	return card->fme && n < FME_MAX_PORTS &&
	       (readq(card->fme->hdr.ioaddr + FME_HDR_PORT_OFST(n)) &
		FME_PORT_OFST_IMP);
}

/*
 * Ports no FME register names get the lowest numbers left, in list order;
 * the PR engine knows them by no number (fpga_dfl_port_program())
 */
static void fpga_dfl_number_ports(struct fpga_dfl_card *card)
{
	unsigned int i, num = 0;

	for (i = 0; i < card->num_ports; i++) {
		if (card->port_num[i] != FPGA_DFL_NO_PORT_NUM)
			continue;
		while (fpga_dfl_port_num_taken(card, num))
			num++;
		fpga_dfl_port_set_num(card, i, num);
	}
}

/*
 * Ports the FME points to that are not on its own list.  Each is port n
 * of the card, the number DFL_FPGA_FME_PORT_PR and the PR engine take,
 * whichever ports before it are missing.
 */
static void fpga_dfl_walk_fme_ports(struct fpga_dfl_card *card)
{
	resource_size_t ofs;
	unsigned int n;
	u64 v;

	for (n = 0; n < FME_MAX_PORTS; n++) {
		v = readq(card->fme->hdr.ioaddr + FME_HDR_PORT_OFST(n));
		if (!(v & FME_PORT_OFST_IMP))
			continue;
		if (v & FME_PORT_OFST_ACC_VF) {
			dev_info(card->info.parent,
				 "port %u is assigned to a VF\n", n);
			continue;
		}
		/* The card driver registers ports in other BARs on their own */
		if (FIELD_GET(FME_PORT_OFST_BAR, v) != card->info.bar) {
			dev_info(card->info.parent,
				 "port %u is in BAR %llu, not in this window (BAR %u)\n",
				 n, FIELD_GET(FME_PORT_OFST_BAR, v), card->info.bar);
			continue;
		}
		ofs = FIELD_GET(FME_PORT_OFST_DFH, v);
		if (fpga_dfl_port_found(card, n, ofs))
			continue;
		card->walk_port_num = n;
		fpga_dfl_walk_list(card, ofs);
		card->walk_port_num = FPGA_DFL_NO_PORT_NUM;
	}
}

/*
 * Register an enumerated FIU.  A port walked again after programming comes
 * with the number of the device it replaces.
 */
int fpga_dfl_device_add(struct fpga_dfl_card *card,
			struct fpga_dfl_device *fdev)
{
	int ret;

	if (fdev->fiu_id == DFH_ID_FIU_PORT) {
		if (fdev->id < 0) {
			ret = ida_alloc(&fpga_dfl_port_ida, GFP_KERNEL);
			if (ret < 0)
				return ret;
			fdev->id = ret;
		}
		ret = dev_set_name(&fdev->dev, "fpga-port.%d", fdev->id);
	} else {
		fdev->id = card->id;
		ret = dev_set_name(&fdev->dev, "fpga-fme.%d", fdev->id);
	}
	if (ret)
		return ret;
	return device_add(&fdev->dev);
}

static void fpga_dfl_card_dir_release(struct device *dev)
{
	kfree(dev);
}

static const struct device_type fpga_dfl_card_dir_type = {
	.name		= "fpga_dfl_card",
	.release	= fpga_dfl_card_dir_release,
};

/*
 * The directory dfl-card.N the card's FIUs go in, if its driver wants one
 * (fpga_dfl_card_info.card_dir); the FIUs are not added yet.  Without it
 * the FIUs stay in the card's device: only OPAE's lookup of the FME suffers.
 */
static void fpga_dfl_card_dir_add(struct fpga_dfl_card *card)
{
	struct device *dir;
	unsigned int i;
	int ret;

	if (!card->info.card_dir)
		return;
	dir = kzalloc(sizeof(*dir), GFP_KERNEL);
	if (!dir)
		return;
	device_initialize(dir);
	dir->parent = card->info.parent;
	dir->type = &fpga_dfl_card_dir_type;
	ret = dev_set_name(dir, "dfl-card.%d", card->id);
	if (!ret)
		ret = device_add(dir);
	if (ret) {
		dev_warn(card->info.parent, "no directory dfl-card.%d: %d\n",
			 card->id, ret);
		put_device(dir);
		return;
	}
	card->dir = dir;
	if (card->fme)
		card->fme->dev.parent = dir;
	for (i = 0; i < card->num_ports; i++)
		card->ports[i]->dev.parent = dir;
}

static void fpga_dfl_card_dir_del(struct fpga_dfl_card *card)
{
	if (card->dir)
		device_unregister(card->dir);
	card->dir = NULL;
}

/* A released port's number, when its card goes (dfl-program.c) */
void fpga_dfl_port_id_free(int id)
{
	if (id >= 0)
		ida_free(&fpga_dfl_port_ida, id);
}

static void fpga_dfl_card_free(struct fpga_dfl_card *card)
{
	unsigned int i;

	for (i = 0; i < card->num_ports; i++) {
		if (!card->port_released[i])
			continue;
		fpga_dfl_port_id_free(card->released_id[i]);
		kfree(card->released_override[i]);
	}
	ida_free(&fpga_dfl_card_ida, card->id);
	kfree(card->claims);
	kfree(card->info.irqs);
	kfree(card);
}

/* Forget what port @n claimed: it is about to be walked again */
static void fpga_dfl_claims_drop(struct fpga_dfl_card *card, unsigned int n)
{
	unsigned int i, kept = 0;

	for (i = 0; i < card->num_claims; i++)
		if (card->claims[i].owner != n)
			card->claims[kept++] = card->claims[i];
	card->num_claims = kept;
}

/**
 * fpga_dfl_port_rewalk() - enumerate port @n again, after programming
 * @card: the card; its lock held, port @n unregistered
 * @n: the port's index in @card->ports (fpga_dfl_port_index())
 * @ofs: offset of its header in the window
 *
 * The new AFU may be of another size and have other features: the port's
 * list is walked from its header up to its end or the next FIU, with the
 * rest of the card's registers still claimed.
 *
 * Return: the port's new device, not yet added, or NULL if the header is
 * no longer a port's (reported).
 */
struct fpga_dfl_device *fpga_dfl_port_rewalk(struct fpga_dfl_card *card,
					     unsigned int n,
					     resource_size_t ofs)
{
	u64 dfh = readq(card->info.ioaddr + ofs);

	lockdep_assert_held(&card->lock);
	card->ports[n] = NULL;
	if (FIELD_GET(DFH_TYPE, dfh) != DFH_TYPE_FIU ||
	    FIELD_GET(DFH_ID, dfh) != DFH_ID_FIU_PORT) {
		dfl_report(card, ofs, "port %u: no port header after programming (DFH %#llx)",
			   card->port_num[n], dfh);
		return NULL;
	}
	fpga_dfl_claims_drop(card, n);
	card->rewalk = true;
	card->rewalk_port = n;
	fpga_dfl_walk_list(card, ofs);
	card->rewalk = false;
	return card->ports[n];
}

/**
 * fpga_dfl_card_enumerate() - walk a card's DFL
 * @info: the card's MMIO window and interrupts
 *
 * The FME and ports found are initialised but not added to the bus: either
 * fpga_dfl_card_add() adds them, or fpga_dfl_card_discard() drops them.
 *
 * Return: the card, or an ERR_PTR: -EINVAL for a bad @info, -ENODEV if the
 * list holds no FME or port, -ENOMEM.
 */
struct fpga_dfl_card *
fpga_dfl_card_enumerate(const struct fpga_dfl_card_info *info)
{
	struct fpga_dfl_card *card;
	unsigned int i;
	int ret;

	if (!info || !info->parent || !info->ioaddr || !info->len)
		return ERR_PTR(-EINVAL);

	card = kzalloc(sizeof(*card), GFP_KERNEL);
	if (!card)
		return ERR_PTR(-ENOMEM);
	card->info = *info;
	card->info.irqs = kmemdup(info->irqs, info->num_irqs * sizeof(int),
				  GFP_KERNEL);
	if (info->num_irqs && !card->info.irqs) {
		kfree(card);
		return ERR_PTR(-ENOMEM);
	}
	ret = ida_alloc(&fpga_dfl_card_ida, GFP_KERNEL);
	if (ret < 0) {
		kfree(card->info.irqs);
		kfree(card);
		return ERR_PTR(ret);
	}
	card->id = ret;

	card->claims = kcalloc(FPGA_DFL_MAX_CLAIMS, sizeof(*card->claims),
			       GFP_KERNEL);
	if (!card->claims) {
		fpga_dfl_card_free(card);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&card->lock);
	card->walk_port_num = FPGA_DFL_NO_PORT_NUM;
	mutex_init(&card->abandon_lock);
	for (i = 0; i < FME_MAX_PORTS; i++)
		INIT_LIST_HEAD(&card->abandoned[i]);
	fpga_dfl_walk_list(card, info->first);
	if (card->fme)
		fpga_dfl_walk_fme_ports(card);
	fpga_dfl_number_ports(card);

	if (!card->fme && !card->num_ports) {
		dev_err(info->parent, "no FME or port found in the DFL\n");
		fpga_dfl_card_free(card);
		return ERR_PTR(-ENODEV);
	}
	return card;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_dfl_card_enumerate);

/**
 * fpga_dfl_card_discard() - drop an enumerated card never added
 * @card: the card from fpga_dfl_card_enumerate()
 */
void fpga_dfl_card_discard(struct fpga_dfl_card *card)
{
	unsigned int i;

	for (i = 0; i < card->num_ports; i++)
		put_device(&card->ports[i]->dev);
	if (card->fme)
		put_device(&card->fme->dev);
	fpga_dfl_card_free(card);
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_dfl_card_discard);

/**
 * fpga_dfl_card_add() - enumerate a card and register its FIUs
 * @info: the card's MMIO window and interrupts
 *
 * Return: the card, or an ERR_PTR if nothing could be enumerated.
 */
struct fpga_dfl_card *fpga_dfl_card_add(const struct fpga_dfl_card_info *info)
{
	struct fpga_dfl_card *card;
	unsigned int i, added = 0;
	int ret;

	card = fpga_dfl_card_enumerate(info);
	if (IS_ERR(card))
		return card;

	/*
	 * The FME's driver may program a port as soon as the FME is bound,
	 * while the ports after it are still being added: a programming
	 * waits until all are (dfl-program.c).
	 */
	mutex_lock(&card->lock);
	fpga_dfl_regions_add(card);
	fpga_dfl_card_dir_add(card);
	if (card->fme) {
		ret = fpga_dfl_device_add(card, card->fme);
		if (ret) {
			dev_err(info->parent, "cannot add FME: %d\n", ret);
			put_device(&card->fme->dev);
			card->fme = NULL;
		} else {
			added++;
		}
	}
	for (i = 0; i < card->num_ports; i++) {
		ret = fpga_dfl_device_add(card, card->ports[i]);
		if (ret) {
			dev_err(info->parent, "cannot add port %u: %d\n",
				card->port_num[i], ret);
			put_device(&card->ports[i]->dev);
			card->ports[i] = NULL;
		} else {
			added++;
		}
	}
	if (!added) {
		dev_err(info->parent, "no FME or port could be added\n");
		fpga_dfl_card_dir_del(card);
		fpga_dfl_regions_del(card);
		mutex_unlock(&card->lock);
		fpga_dfl_card_free(card);
		return ERR_PTR(-ENODEV);
	}
	if (info->dma_isolation == FPGA_DFL_DMA_UNTRANSLATED)
		dev_warn(info->parent,
			 "no IOMMU translates this card's DMA: it can reach all memory, so mapping DMA and the AFU's registers need CAP_SYS_RAWIO\n");
	trace_card_add(card->id, card->num_ports, card->fme);
	fpga_dfl_nl_card_event(FPGA_NL_CMD_EVENT_CARD_ADDED, card->id,
			       info->parent, card->num_ports);
	mutex_unlock(&card->lock);
	return card;
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_add);

/**
 * fpga_dfl_card_remove() - unregister a card's FIUs
 * @card: the card from fpga_dfl_card_add()
 *
 * When this returns, no driver touches the card's registers any more.
 */
void fpga_dfl_card_remove(struct fpga_dfl_card *card)
{
	unsigned int i;

	/* A programming in progress ends first, and none starts after it */
	mutex_lock(&card->lock);
	card->removing = true;
	mutex_unlock(&card->lock);

	/* The core stops reading the registers before they go (dfl-netlink.c) */
	for (i = 0; i < card->num_ports; i++)
		if (card->ports[i])
			fpga_dfl_unplug(&card->ports[i]->unplug);
	if (card->fme)
		fpga_dfl_unplug(&card->fme->unplug);

	for (i = card->num_ports; i-- > 0;)
		if (card->ports[i])
			device_unregister(&card->ports[i]->dev);
	if (card->fme)
		device_unregister(&card->fme->dev);
	fpga_dfl_card_dir_del(card);
	fpga_dfl_regions_del(card);
	/* Before the card's DMA devices go, which the card driver frees */
	fpga_dfl_card_release_abandoned(card);
	trace_card_remove(card->id);
	fpga_dfl_nl_card_event(FPGA_NL_CMD_EVENT_CARD_REMOVED, card->id,
			       card->info.parent, card->num_ports);
	fpga_dfl_card_free(card);
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_remove);
