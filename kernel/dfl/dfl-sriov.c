// SPDX-License-Identifier: GPL-2.0-only
/*
 * SR-IOV: a card's released ports handed to its virtual functions.
 *
 * Upstream's rule, which OPAE's fpgaport relies on: a card enables as many
 * VFs as it has released ports (DFL_FPGA_FME_PORT_RELEASE), and enabling
 * them sets each such port's access control in the FME's port register
 * to "VF", which routes the port to a VF in hardware.  VF k presents the
 * k-th released port in the order of the ports' numbers.  Disabling the
 * VFs routes the ports back to the PF; they stay released until they are
 * assigned, and a port is not assigned while VFs are enabled.  The card's
 * PCI driver calls these around pci_enable_sriov() and pci_disable_sriov().
 */
#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include <fpga-suite/dfl-core.h>
#include <fpga-suite/dfl-enum.h>
#include "dfl-nl.h"

/* Route the port at place @i to a VF, or back to the PF */
static void fpga_dfl_port_route(struct fpga_dfl_card *card, unsigned int i,
				bool vf)
{
	void __iomem *reg = card->fme->hdr.ioaddr +
			    FME_HDR_PORT_OFST(card->port_num[i]);
	u64 v = readq(reg);

	if (vf)
		v |= FME_PORT_OFST_ACC_VF;
	else
		v &= ~FME_PORT_OFST_ACC_VF;
	writeq(v, reg);
}

/* Places of the released ports, by number; how many there are */
static unsigned int fpga_dfl_released_places(struct fpga_dfl_card *card,
					     unsigned int *places)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < card->num_ports; i++) {
		if (!card->port_released[i] || !card->port_fme[i])
			continue;
		for (j = n++; j && card->port_num[places[j - 1]] > card->port_num[i]; j--)
			places[j] = places[j - 1];
		places[j] = i;
	}
	return n;
}

/**
 * fpga_dfl_card_sriov_enable() - route the released ports to @num_vfs VFs
 * @card: a card with an FME
 * @num_vfs: the number of VFs the PCI driver is about to enable
 *
 * Context: process context; takes the card's lock.
 * Return: 0; -EINVAL @num_vfs is not the number of released ports (or is
 * 0); -ENODEV the card has no FME or is going away; -EBUSY VFs are
 * enabled already, or a released port keeps DMA an earlier user left for
 * an AFU that did not stop (dfl-reset.c); -EINTR killed while waiting for
 * the lock.
 */
int fpga_dfl_card_sriov_enable(struct fpga_dfl_card *card,
			       unsigned int num_vfs)
{
	unsigned int places[FME_MAX_PORTS], n, k;
	int ret = 0;

	if (mutex_lock_killable(&card->lock))
		return -EINTR;
	if (!card->fme || card->removing) {
		ret = -ENODEV;
		goto out_unlock;
	}
	if (card->num_vfs) {
		ret = -EBUSY;
		goto out_unlock;
	}
	n = fpga_dfl_released_places(card, places);
	if (!num_vfs || num_vfs != n) {
		dev_info(card->info.parent,
			 "%u VFs asked for, %u ports released: they must match\n",
			 num_vfs, n);
		ret = -EINVAL;
		goto out_unlock;
	}
	/* A VF's user drives the AFU: not over an earlier user's DMA */
	for (k = 0; k < n; k++) {
		if (!fpga_dfl_port_has_abandoned(card, card->port_num[places[k]]))
			continue;
		dev_warn(card->info.parent,
			 "port %u: an earlier user's DMA is still mapped for an AFU that did not stop: assign the port and reset it first\n",
			 card->port_num[places[k]]);
		ret = -EBUSY;
		goto out_unlock;
	}
	for (k = 0; k < n; k++) {
		fpga_dfl_port_route(card, places[k], true);
		card->vf_place[k] = places[k];
	}
	card->num_vfs = n;
out_unlock:
	mutex_unlock(&card->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_sriov_enable);

/**
 * fpga_dfl_card_sriov_disable() - route the VFs' ports back to the PF
 * @card: the card, its VFs disabled already
 *
 * The ports stay released; assigning them brings them back to the host.
 *
 * Context: process context; takes the card's lock.
 */
void fpga_dfl_card_sriov_disable(struct fpga_dfl_card *card)
{
	unsigned int k;

	mutex_lock(&card->lock);
	for (k = 0; k < card->num_vfs; k++)
		fpga_dfl_port_route(card, card->vf_place[k], false);
	card->num_vfs = 0;
	mutex_unlock(&card->lock);
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_sriov_disable);

/**
 * fpga_dfl_card_vf_port() - the port a VF presents
 * @card: the card
 * @vf: the VF's index (0 for the first VF)
 *
 * Return: the port's number on the card (FME_HDR_PORT_OFST's n), or
 * -ENODEV if the card has no such VF.
 */
int fpga_dfl_card_vf_port(struct fpga_dfl_card *card, unsigned int vf)
{
	int ret = -ENODEV;

	mutex_lock(&card->lock);
	if (vf < card->num_vfs)
		ret = card->port_num[card->vf_place[vf]];
	mutex_unlock(&card->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_vf_port);

/**
 * fpga_dfl_card_vf_regs() - the registers of the port a VF presents
 * @card: the card
 * @vf: the VF's index
 * @regs: filled in
 *
 * What a PAC/OFS VF has in its BAR 0: the port's header, its features,
 * and the AFU at the header's NEXT_AFU.  Valid while the VF is enabled:
 * the card's driver disables its VFs before the card goes.
 *
 * Return: 0; -ENODEV no such VF; -EINVAL the header gives an AFU outside
 * the card's window, or none.
 */
int fpga_dfl_card_vf_regs(struct fpga_dfl_card *card, unsigned int vf,
			  struct fpga_dfl_vf_regs *regs)
{
	resource_size_t ofs;
	void __iomem *hdr;
	u64 afu_ofs, afu_size;
	int ret = 0;

	mutex_lock(&card->lock);
	if (vf >= card->num_vfs) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ofs = card->port_ofs[card->vf_place[vf]];
	hdr = card->info.ioaddr + ofs;
	afu_ofs = FIELD_GET(FIU_NEXT_AFU_OFFSET, readq(hdr + FIU_NEXT_AFU));
	afu_size = FIELD_GET(PORT_CAP_MMIO_SIZE, readq(hdr + PORT_HDR_CAP)) *
		   SZ_1K;
	if (afu_ofs < FIU_HDR_SIZE || !afu_size ||
	    ofs + afu_ofs + afu_size > card->info.len) {
		ret = -EINVAL;
		goto out_unlock;
	}
	regs->hdr = hdr;
	regs->start = card->info.start + ofs;
	regs->afu_ofs = afu_ofs;
	regs->afu_size = afu_size;
	regs->cacheable = card->info.cacheable;
	regs->dma_isolation = card->info.dma_isolation;
	regs->card_id = card->id;
	regs->port_num = card->port_num[card->vf_place[vf]];
out_unlock:
	mutex_unlock(&card->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_vf_regs);

/**
 * fpga_dfl_card_vf_sftrst() - a VF's user sets or clears its port's reset
 * @card: the card
 * @vf: the VF's index
 * @reset: true to put the port in soft reset, false to take it out
 *
 * As fpga_dfl_port_reset() for a port on the host, each reset is
 * announced: EVENT_RESET_BEGIN as the reset is set, EVENT_RESET_END with
 * the result as it is cleared, naming the port by card and number (it has
 * no device on the host).  The caller serialises the VF's resets.
 *
 * Context: process context; may sleep.
 * Return: 0; -ENODEV no such VF; -ETIMEDOUT the ACK did not follow.
 */
int fpga_dfl_card_vf_sftrst(struct fpga_dfl_card *card, unsigned int vf,
			    bool reset)
{
	unsigned int port_num;
	void __iomem *hdr;
	int ret;

	mutex_lock(&card->lock);
	if (vf >= card->num_vfs) {
		mutex_unlock(&card->lock);
		return -ENODEV;
	}
	hdr = card->info.ioaddr + card->port_ofs[card->vf_place[vf]];
	port_num = card->port_num[card->vf_place[vf]];
	mutex_unlock(&card->lock);

	if (reset)
		fpga_dfl_nl_notify_vf_reset(card->id, port_num, true, 0);
	ret = fpga_dfl_port_hdr_sftrst(hdr, card->info.parent, reset);
	/* The AFU acknowledged: it is stopped, what it was left can go */
	if (reset && !ret)
		fpga_dfl_port_release_abandoned(card, port_num, "reset");
	if (!reset)
		fpga_dfl_nl_notify_vf_reset(card->id, port_num, false, ret);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_vf_sftrst);

/**
 * fpga_dfl_card_vf_irqs() - the user interrupts of the port a VF presents
 * @card: the card
 * @vf: the VF's index
 * @irqs: filled with their Linux irqs, in vector order
 * @max: room in @irqs
 *
 * The port's list is walked as it is when the port is assigned back, and
 * the device that walk makes is dropped: the walk resolves the UINT
 * feature's vectors (DFHv0 capability or DFHv1 parameters) as it does for
 * a port on the host.
 *
 * Context: process context; takes the card's lock.
 * Return: how many there are (at most @max), 0 if none; -ENODEV no such
 * VF, or its list no longer walks.
 */
int fpga_dfl_card_vf_irqs(struct fpga_dfl_card *card, unsigned int vf,
			  int *irqs, unsigned int max)
{
	struct fpga_dfl_device *fdev;
	unsigned int i, n = 0;

	mutex_lock(&card->lock);
	if (vf >= card->num_vfs) {
		mutex_unlock(&card->lock);
		return -ENODEV;
	}
	i = card->vf_place[vf];
	fdev = fpga_dfl_port_rewalk(card, i, card->port_ofs[i]);
	card->ports[i] = NULL;
	mutex_unlock(&card->lock);
	if (!fdev)
		return -ENODEV;
	for (i = 0; i < fdev->num_features; i++) {
		struct fpga_dfl_feature *feat = &fdev->features[i];

		if (feat->type == DFH_TYPE_PRIVATE &&
		    feat->id == PORT_FEATURE_ID_UINT) {
			n = min(feat->irq_count, max);
			memcpy(irqs, feat->irqs, n * sizeof(*irqs));
			break;
		}
	}
	put_device(&fdev->dev);
	return n;
}
EXPORT_SYMBOL_GPL(fpga_dfl_card_vf_irqs);

/* Whether VFs hold ports, for fpga_dfl_port_assign(); under the card's lock */
bool fpga_dfl_card_vfs_enabled(struct fpga_dfl_card *card)
{
	lockdep_assert_held(&card->lock);
	return card->num_vfs;
}
