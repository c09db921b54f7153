// SPDX-License-Identifier: GPL-2.0-only
/*
 * Partial reconfiguration: the AFU behind a port replaced by another.
 *
 * The FME driver drives the card's PR engine; the core takes the port away
 * from its users around that and brings it back as the new AFU is.  The
 * port's device is unregistered first, so whichever driver owns it
 * (fpga_port, uio_fpga) lets go as on a hot-unplug: open files get
 * -ENODEV, mappings of the old AFU SIGBUS, its DMA is stopped and
 * unmapped, eventfds are unbound.  The port is held in soft reset while
 * the engine runs (what upstream's FPGA bridge does), then its list is
 * walked again, since the new AFU may differ in size and features, and a
 * device of the same name, with the driver override the old one had, is
 * registered for it.  Users open the port again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/fpga-netlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>
#include <fpga-suite/dfl-enum.h>
#include "dfl-nl.h"
#include "dfl_trace.h"

/* The GBS file's GUID (58656f6e-4650-4741-b747-425376303031), as stored */
static const u8 fpga_dfl_gbs_guid[16] = {
	0x58, 0x65, 0x6f, 0x6e, 0x46, 0x50, 0x47, 0x41,
	0xb7, 0x47, 0x42, 0x53, 0x76, 0x30, 0x30, 0x31,
};

/**
 * fpga_dfl_gbs_header_len() - what precedes the bitstream in a GBS file
 * @buf: a GBS file, or a bitstream
 * @len: its length
 *
 * An OPAE GBS file is the GBS GUID, a little-endian 32-bit length and
 * that many bytes of JSON metadata, then the bitstream the card takes.
 *
 * Return: the length of that header, or 0 if @buf is not a GBS file (or
 * its header runs past @len, which the card is then left to refuse).
 */
size_t fpga_dfl_gbs_header_len(const void *buf, size_t len)
{
	size_t hdr = sizeof(fpga_dfl_gbs_guid) + sizeof(__le32), json;

	if (len < hdr || memcmp(buf, fpga_dfl_gbs_guid, sizeof(fpga_dfl_gbs_guid)))
		return 0;
	json = get_unaligned_le32(buf + sizeof(fpga_dfl_gbs_guid));
	return json <= len - hdr ? hdr + json : 0;
}

/*
 * Register the port kept at @n walked again, in place of the device whose
 * number *@id is (-1 if the port was lost by an earlier programming):
 * under the old device's name and in its place, with its driver override
 */
static struct fpga_dfl_device *
fpga_dfl_port_replace(struct fpga_dfl_card *card, unsigned int n, int *id,
		      const char *override)
{
	struct fpga_dfl_device *fdev;
	int ret;

	fdev = fpga_dfl_port_rewalk(card, n, card->port_ofs[n]);
	if (!fdev)
		return NULL;
	fdev->region = card->port_region[n];
	if (card->dir)
		fdev->dev.parent = card->dir;
	/* The number passes to the new device */
	fdev->id = *id;
	*id = -1;
	if (override) {
		ret = fpga_driver_override_set(&fdev->dev,
					       &fdev->driver_override,
					       override, strlen(override));
		if (ret)
			dev_warn(card->info.parent,
				 "port %u: driver_override %s not kept: %d\n",
				 card->port_num[n], override, ret);
	}
	ret = fpga_dfl_device_add(card, fdev);
	if (ret) {
		dev_err(card->info.parent, "port %u: cannot add it again: %d\n",
			card->port_num[n], ret);
		put_device(&fdev->dev);
		card->ports[n] = NULL;
		return NULL;
	}
	return fdev;
}

/* Take @old away from its drivers; the caller holds a reference */
static void fpga_dfl_port_take(struct fpga_dfl_device *old)
{
	/* The core's own reads stop, then the drivers let go */
	fpga_dfl_unplug(&old->unplug);
	device_unregister(&old->dev);
}

/**
 * fpga_dfl_port_program() - program the AFU behind one of a card's ports
 * @fme: the card's FME, whose driver runs the PR engine
 * @port_num: the port's number on the card: FME_HDR_PORT_OFST(@port_num)
 *	      names it, and the PR engine takes it as the region id
 * @program: hands the bitstream to the engine and waits for its verdict;
 *	     called with the port gone from the bus and held in reset
 * @data: for @program
 *
 * Whatever @program returns, the port comes back: with the new AFU, or
 * with whatever the card kept (a card that refuses a bitstream keeps the
 * old AFU).  A port that could not come back (its list no longer walks,
 * or no memory) comes back with the next programming.  A netlink event
 * EVENT_PROGRAMMED and the tracepoints fpga:port_program_begin and
 * fpga:port_program_end announce each programming.
 *
 * Context: process context; takes the card's lock, so programmings of a
 * card run one at a time, one waits until the card's FIUs are all added,
 * and the card's removal waits for one to end.
 * Return: @program's result; -EINVAL no such port (not implemented, a
 * VF's, or not one an FME register names); -EBUSY the port is released
 * (fpga_dfl_port_release()); -ENODEV the card is
 * going away, or the port did not come back; -ETIMEDOUT the port's
 * soft reset; -EINTR killed while waiting for another programming.
 */
int fpga_dfl_port_program(struct fpga_dfl_device *fme, unsigned int port_num,
			  int (*program)(void *data), void *data)
{
	struct fpga_dfl_card *card = fme->card;
	struct fpga_dfl_device *old, *fdev;
	u64 start = ktime_get_ns();
	void __iomem *hdr;
	char *override = NULL;
	int ret, ret2, i;

	if (fme->fiu_id != DFH_ID_FIU_FME)
		return -EINVAL;
	if (mutex_lock_killable(&card->lock))
		return -EINTR;
	ret = -ENODEV;
	if (card->removing)
		goto out_unlock;
	/* Not the place in card->ports: a card may have a gap before it */
	i = fpga_dfl_port_index(card, port_num);
	ret = -EINVAL;
	if (i < 0 || !card->port_fme[i])
		goto out_unlock;
	/* Not the host's to program until it is assigned back */
	ret = -EBUSY;
	if (card->port_released[i])
		goto out_unlock;

	trace_port_program_begin(card->id, port_num);
	old = card->ports[i];
	if (old) {
		override = fpga_driver_override_dup(&old->dev,
						    &old->driver_override);
		get_device(&old->dev);
		fpga_dfl_port_take(old);
	}
	hdr = card->info.ioaddr + card->port_ofs[i];
	ret = fpga_dfl_port_hdr_sftrst(hdr, card->info.parent, true);
	if (!ret) {
		/* The AFU acknowledged: what it was left goes, as on a reset */
		fpga_dfl_port_release_abandoned(card, port_num, "programming");
		ret = program(data);
	}
	/* Out of reset even after a failure: the port must not stay wedged */
	ret2 = fpga_dfl_port_hdr_sftrst(hdr, card->info.parent, false);
	ret = ret ?: ret2;

	if (old) {
		fdev = fpga_dfl_port_replace(card, i, &old->id, override);
		put_device(&old->dev);
	} else {
		int none = -1;

		fdev = fpga_dfl_port_replace(card, i, &none, override);
	}
	kfree(override);
	if (!fdev) {
		dev_err(card->info.parent,
			"port %u did not come back after programming: program it again\n",
			port_num);
		ret = ret ?: -ENODEV;
	}
	trace_port_program_end(card->id, port_num, fdev, ret, start);
	fpga_dfl_nl_notify_programmed(card->id, port_num, fdev, ret);
out_unlock:
	mutex_unlock(&card->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_program);

/* A port's driver has it open; its device lock keeps the driver bound */
static bool fpga_dfl_port_busy(struct fpga_dfl_device *port)
{
	struct fpga_dfl_driver *drv;
	bool busy;

	device_lock(&port->dev);
	drv = port->dev.driver ? to_fpga_dfl_driver(port->dev.driver) : NULL;
	busy = drv && drv->busy && drv->busy(port);
	device_unlock(&port->dev);
	return busy;
}

/*
 * The card's port numbered @port_num for release or assignment: its index,
 * with the card's lock held; or a -errno, with it not held
 */
static int fpga_dfl_port_lock(struct fpga_dfl_device *fme,
			      unsigned int port_num)
{
	struct fpga_dfl_card *card = fme->card;
	int i;

	if (fme->fiu_id != DFH_ID_FIU_FME)
		return -EINVAL;
	if (mutex_lock_killable(&card->lock))
		return -EINTR;
	i = card->removing ? -ENODEV : fpga_dfl_port_index(card, port_num);
	/* Upstream: -ENODEV for a port the FME does not know */
	if (i >= 0 && !card->port_fme[i])
		i = -ENODEV;
	if (i < 0) {
		mutex_unlock(&card->lock);
		return i == -EINVAL ? -ENODEV : i;
	}
	return i;
}

/**
 * fpga_dfl_port_release() - take a port away from the host
 * @fme: the card's FME
 * @port_num: the port's number on the card (FME_HDR_PORT_OFST's n)
 *
 * As upstream's DFL_FPGA_FME_PORT_RELEASE: the port's device goes as it
 * goes before a programming (its nodes, its netlink inventory), and it
 * stays gone, its name and driver override kept, until
 * fpga_dfl_port_assign().  EVENT_PORT_RELEASED announces it.  A port a
 * file holds is refused; a file opened between that check and the
 * device's removal is cut off as on a hot-unplug (-ENODEV from then on).
 * As upstream, the FME's port access register is not touched: enabling
 * VFs sets it.
 *
 * Context: process context; takes the card's lock.
 * Return: 0; -ENODEV no such port, or the card is going away; -EBUSY the
 * port is open, or already released; -EINTR killed while waiting.
 */
int fpga_dfl_port_release(struct fpga_dfl_device *fme, unsigned int port_num)
{
	struct fpga_dfl_card *card = fme->card;
	struct fpga_dfl_device *old;
	int i, ret = 0;

	i = fpga_dfl_port_lock(fme, port_num);
	if (i < 0)
		return i;
	old = card->ports[i];
	if (card->port_released[i] || (old && fpga_dfl_port_busy(old))) {
		ret = -EBUSY;
		goto out_unlock;
	}
	card->released_id[i] = -1;
	card->released_override[i] = NULL;
	if (old) {
		/* As before a programming: the device's name is kept */
		card->released_override[i] =
			fpga_driver_override_dup(&old->dev,
						 &old->driver_override);
		get_device(&old->dev);
		fpga_dfl_port_take(old);
		card->released_id[i] = old->id;
		old->id = -1;
		put_device(&old->dev);
		card->ports[i] = NULL;
	}
	card->port_released[i] = true;
	fpga_dfl_nl_notify_port(FPGA_NL_CMD_EVENT_PORT_RELEASED, card->id,
				port_num, card->released_id[i]);
out_unlock:
	mutex_unlock(&card->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_release);

/**
 * fpga_dfl_port_assign() - give a released port back to the host
 * @fme: the card's FME
 * @port_num: the port's number on the card (FME_HDR_PORT_OFST's n)
 *
 * The port is walked again and comes back under the name and with the
 * driver override it had (as after a programming); EVENT_PORT_ASSIGNED
 * announces it.
 *
 * Context: process context; takes the card's lock.
 * Return: 0; -ENODEV no such port, the card is going away, or the port's
 * list no longer walks; -EBUSY the port is not released, or VFs are
 * enabled; -ENOMEM; -EINTR killed while waiting.
 */
int fpga_dfl_port_assign(struct fpga_dfl_device *fme, unsigned int port_num)
{
	struct fpga_dfl_card *card = fme->card;
	struct fpga_dfl_device *fdev;
	int i, ret = 0;

	i = fpga_dfl_port_lock(fme, port_num);
	if (i < 0)
		return i;
	if (!card->port_released[i] || fpga_dfl_card_vfs_enabled(card)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	fdev = fpga_dfl_port_replace(card, i, &card->released_id[i],
				     card->released_override[i]);
	/* A list that no longer walks leaves it released, to try again */
	if (!fdev && card->released_id[i] >= 0) {
		ret = -ENODEV;
		goto out_unlock;
	}
	kfree(card->released_override[i]);
	card->released_override[i] = NULL;
	card->port_released[i] = false;
	if (!fdev) {
		/* Lost as after a programming: the next one brings it back */
		ret = -ENODEV;
		goto out_unlock;
	}
	fpga_dfl_nl_notify_port(FPGA_NL_CMD_EVENT_PORT_ASSIGNED, card->id,
				port_num, fdev->id);
out_unlock:
	mutex_unlock(&card->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_assign);

/**
 * fpga_dfl_ports_released_show() - the FME's released ports, for sysfs
 * @fme: the card's FME
 * @buf: a sysfs page
 *
 * Return: the length of "N N ...\n" (the ports' numbers on the card, in
 * order; an empty line when none is released).
 */
ssize_t fpga_dfl_ports_released_show(struct fpga_dfl_device *fme, char *buf)
{
	struct fpga_dfl_card *card = fme->card;
	unsigned int i;
	ssize_t len = 0;

	mutex_lock(&card->lock);
	for (i = 0; i < card->num_ports; i++)
		if (card->port_released[i])
			len += sysfs_emit_at(buf, len, "%s%u", len ? " " : "",
					     card->port_num[i]);
	mutex_unlock(&card->lock);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
EXPORT_SYMBOL_GPL(fpga_dfl_ports_released_show);
