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
#include <linux/io.h>
#include <linux/mutex.h>

#include <fpga-suite/dfl-core.h>
#include <fpga-suite/dfl-enum.h>

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
 * enabled already; -EINTR killed while waiting for the lock.
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

/* Whether VFs hold ports, for fpga_dfl_port_assign(); under the card's lock */
bool fpga_dfl_card_vfs_enabled(struct fpga_dfl_card *card)
{
	lockdep_assert_held(&card->lock);
	return card->num_vfs;
}
