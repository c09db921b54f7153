// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink family "fpga" (<linux/fpga-netlink.h>,
 * Documentation/netlink.md): a dump of every FME and port on the fpga_dfl
 * bus, port reset and error clearing through the bound driver, and the
 * multicast group "events".
 *
 * Lifetimes.  A dump walks the bus and reads registers (port errors, FME
 * header) of devices that may belong to a card being removed; the card
 * driver frees the register memory right after fpga_dfl_card_remove()
 * returns, and a reference on the struct device does not keep it.  So the
 * dump reads a device's registers only in a section of its unplug guard
 * (fdev->unplug), which fpga_dfl_card_remove() unplugs first: then no
 * dump is inside a register read of that card, and none will start one.
 * The guard rather than device_lock(), because a dump must not wait for a
 * slow probe.
 *
 * Reset and error clearing go through the bound driver's callbacks under
 * device_lock(): remove() runs under the same lock, so the driver, its
 * data and the card's registers stay while the callback runs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/fpga-netlink.h>
#include <linux/io.h>
#include <linux/notifier.h>
#include <net/genetlink.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>
#include "dfl-nl.h"

enum fpga_dfl_nl_mcgrp {
	FPGA_DFL_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group fpga_dfl_nl_mcgrps[] = {
	[FPGA_DFL_NL_MCGRP_EVENTS] = { .name = FPGA_NL_MCGRP_EVENTS },
};

/* Strict per-command policies: anything not listed is rejected */
static const struct nla_policy fpga_dfl_nl_dump_policy[FPGA_NL_A_CARD_ID + 1] = {
	[FPGA_NL_A_CARD_ID]	= { .type = NLA_U32 },
};

static const struct nla_policy fpga_dfl_nl_reset_policy[FPGA_NL_A_DEV_ID + 1] = {
	[FPGA_NL_A_DEV_NAME]	= { .type = NLA_NUL_STRING,
				    .len = FPGA_NL_NAME_MAX },
	[FPGA_NL_A_DEV_ID]	= { .type = NLA_U32 },
};

static const struct nla_policy fpga_dfl_nl_program_policy[FPGA_NL_A_FIRMWARE + 1] = {
	[FPGA_NL_A_DEV_NAME]	= { .type = NLA_NUL_STRING,
				    .len = FPGA_NL_NAME_MAX },
	[FPGA_NL_A_DEV_ID]	= { .type = NLA_U32 },
	[FPGA_NL_A_FIRMWARE]	= { .type = NLA_NUL_STRING,
				    .len = FPGA_NL_FIRMWARE_MAX },
};

static const struct nla_policy fpga_dfl_nl_clear_policy[FPGA_NL_A_PORT_ERRORS + 1] = {
	[FPGA_NL_A_DEV_NAME]	= { .type = NLA_NUL_STRING,
				    .len = FPGA_NL_NAME_MAX },
	[FPGA_NL_A_DEV_ID]	= { .type = NLA_U32 },
	[FPGA_NL_A_PORT_ERRORS]	= { .type = NLA_U64 },
};

static struct genl_family fpga_dfl_nl_family;

static int fpga_dfl_nl_put_name(struct sk_buff *skb, int attr,
				const char *name)
{
	char buf[FPGA_NL_NAME_MAX + 1];

	strscpy(buf, name, sizeof(buf));
	return nla_put_string(skb, attr, buf);
}

/* What identifies a device, in every message about it */
static int fpga_dfl_nl_put_ident(struct sk_buff *skb,
				 struct fpga_dfl_device *fdev)
{
	bool port = fdev->fiu_id == DFH_ID_FIU_PORT;

	if (fpga_dfl_nl_put_name(skb, FPGA_NL_A_DEV_NAME, dev_name(&fdev->dev)) ||
	    nla_put_u32(skb, FPGA_NL_A_DEV_TYPE,
			port ? FPGA_NL_DEV_PORT : FPGA_NL_DEV_FME) ||
	    nla_put_u32(skb, FPGA_NL_A_DEV_ID, fdev->id) ||
	    nla_put_u32(skb, FPGA_NL_A_CARD_ID, fdev->card_id))
		return -EMSGSIZE;
	return 0;
}

/* Registers of a device; caller is in a section of fdev->unplug */
static int fpga_dfl_nl_put_regs(struct sk_buff *skb,
				struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *err;
	u64 cap;

	if (fdev->fiu_id == DFH_ID_FIU_FME) {
		cap = readq(fdev->hdr.ioaddr + FME_HDR_CAP);
		if (nla_put_u32(skb, FPGA_NL_A_FME_PORTS_NUM,
				FIELD_GET(FME_CAP_NUM_PORTS, cap)) ||
		    nla_put_u64_64bit(skb, FPGA_NL_A_FME_BITSTREAM_ID,
				      readq(fdev->hdr.ioaddr + FME_HDR_BITSTREAM_ID),
				      FPGA_NL_A_PAD))
			return -EMSGSIZE;
		return 0;
	}
	err = fpga_dfl_find_feature(fdev, PORT_FEATURE_ID_ERROR);
	if (err &&
	    (nla_put_u64_64bit(skb, FPGA_NL_A_PORT_ERRORS,
			       readq(err->ioaddr + PORT_ERROR), FPGA_NL_A_PAD) ||
	     nla_put_u64_64bit(skb, FPGA_NL_A_PORT_FIRST_ERROR,
			       readq(err->ioaddr + PORT_FIRST_ERROR),
			       FPGA_NL_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

static int fpga_dfl_nl_put_port(struct sk_buff *skb,
				struct fpga_dfl_device *fdev)
{
	u8 guid[FPGA_NL_GUID_LEN];

	if (nla_put_u32(skb, FPGA_NL_A_PORT_NUM, fdev->port_num))
		return -EMSGSIZE;
	if (!fdev->afu.size)
		return 0;
	put_unaligned_be64(fdev->afu_guid_h, guid);
	put_unaligned_be64(fdev->afu_guid_l, guid + 8);
	if (nla_put(skb, FPGA_NL_A_AFU_GUID, sizeof(guid), guid) ||
	    nla_put_u64_64bit(skb, FPGA_NL_A_MMIO_SIZE, fdev->afu.size,
			      FPGA_NL_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* One device of a dump; device lock held (dev->driver is stable) */
static int fpga_dfl_nl_fill_dev(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct fpga_dfl_device *fdev)
{
	void *hdr;
	int ret, idx;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &fpga_dfl_nl_family, NLM_F_MULTI,
			  FPGA_NL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	ret = fpga_dfl_nl_put_ident(skb, fdev);
	if (!ret)
		ret = fpga_dfl_nl_put_name(skb, FPGA_NL_A_CARD_NAME,
					   fdev->card_name);
	if (!ret && fdev->dev.driver)
		ret = fpga_dfl_nl_put_name(skb, FPGA_NL_A_DRIVER,
					   fdev->dev.driver->name);
	if (!ret && fdev->fiu_id == DFH_ID_FIU_PORT)
		ret = fpga_dfl_nl_put_port(skb, fdev);
	if (!ret && fpga_dfl_hw_enter(&fdev->unplug, &idx)) {
		ret = fpga_dfl_nl_put_regs(skb, fdev);
		fpga_dfl_hw_exit(&fdev->unplug, idx);
	}
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

struct fpga_dfl_nl_dump_ctx {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	long idx;		/* devices seen in this pass */
	bool filter;
	u32 card_id;
};

static int fpga_dfl_nl_dump_one(struct device *dev, void *data)
{
	struct fpga_dfl_nl_dump_ctx *ctx = data;
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);
	int ret;

	if (ctx->filter && fdev->card_id != ctx->card_id)
		return 0;
	if (ctx->idx++ < ctx->cb->args[0])
		return 0;
	device_lock(dev);
	ret = fpga_dfl_nl_fill_dev(ctx->skb, ctx->cb, fdev);
	device_unlock(dev);
	if (ret)
		return ret;
	ctx->cb->args[0] = ctx->idx;
	return 0;
}

static int fpga_dfl_nl_dev_dump(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct nlattr **attrs = fpga_genl_dump_attrs(cb);
	struct fpga_dfl_nl_dump_ctx ctx = { .skb = skb, .cb = cb };
	int ret;

	if (attrs[FPGA_NL_A_CARD_ID]) {
		ctx.filter = true;
		ctx.card_id = nla_get_u32(attrs[FPGA_NL_A_CARD_ID]);
	}
	ret = bus_for_each_dev(&fpga_dfl_bus_type, NULL, &ctx,
			       fpga_dfl_nl_dump_one);
	/* A full skb ends this pass; the next one resumes at args[0] */
	if (ret && ret != -EMSGSIZE)
		return ret;
	if (ret && !skb->len)
		return ret;	/* one device does not fit at all */
	return skb->len;
}

/* The port a request names; a reference is held on success */
static struct fpga_dfl_device *fpga_dfl_nl_get_port(struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[FPGA_NL_A_DEV_NAME];
	struct nlattr *id_attr = info->attrs[FPGA_NL_A_DEV_ID];
	char name[FPGA_NL_NAME_MAX + 1];
	struct fpga_dfl_device *fdev;
	struct device *dev;

	if (!name_attr && !id_attr) {
		NL_SET_ERR_MSG(info->extack,
			       "missing attribute: the port's DEV_ID or DEV_NAME");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, FPGA_NL_A_DEV_ID);
		return ERR_PTR(-EINVAL);
	}
	if (name_attr && id_attr) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "give DEV_ID or DEV_NAME, not both");
		return ERR_PTR(-EINVAL);
	}
	if (id_attr)
		snprintf(name, sizeof(name), "fpga-port.%u",
			 nla_get_u32(id_attr));
	else
		nla_strscpy(name, name_attr, sizeof(name));

	dev = bus_find_device_by_name(&fpga_dfl_bus_type, NULL, name);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr ?: name_attr,
				    "no such port");
		return ERR_PTR(-ENODEV);
	}
	fdev = to_fpga_dfl_device(dev);
	if (fdev->fiu_id != DFH_ID_FIU_PORT) {
		NL_SET_ERR_MSG_ATTR(info->extack, id_attr ?: name_attr,
				    "not a port");
		put_device(dev);
		return ERR_PTR(-EINVAL);
	}
	return fdev;
}

/* The bound driver of @fdev, or NULL; caller holds the device lock */
static struct fpga_dfl_driver *fpga_dfl_nl_driver(struct fpga_dfl_device *fdev)
{
	device_lock_assert(&fdev->dev);
	return fdev->dev.driver ? to_fpga_dfl_driver(fdev->dev.driver) : NULL;
}

static int fpga_dfl_nl_port_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct fpga_dfl_device *fdev = fpga_dfl_nl_get_port(info);
	struct fpga_dfl_driver *drv;
	int ret;

	if (IS_ERR(fdev))
		return PTR_ERR(fdev);
	device_lock(&fdev->dev);
	drv = fpga_dfl_nl_driver(fdev);
	if (!drv || !drv->reset) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no driver that can reset it");
		ret = -EOPNOTSUPP;
	} else {
		ret = drv->reset(fdev);
		if (ret)
			NL_SET_ERR_MSG(info->extack,
				       "reset failed: the port did not acknowledge");
	}
	device_unlock(&fdev->dev);
	put_device(&fdev->dev);
	return ret;
}

static int fpga_dfl_nl_port_clear_errors(struct sk_buff *skb,
					 struct genl_info *info)
{
	struct fpga_dfl_device *fdev;
	struct fpga_dfl_driver *drv;
	u64 errors;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, FPGA_NL_A_PORT_ERRORS)) {
		NL_SET_ERR_MSG(info->extack,
			       "missing attribute: PORT_ERRORS, the value to clear");
		return -EINVAL;
	}
	errors = nla_get_u64(info->attrs[FPGA_NL_A_PORT_ERRORS]);
	fdev = fpga_dfl_nl_get_port(info);
	if (IS_ERR(fdev))
		return PTR_ERR(fdev);
	device_lock(&fdev->dev);
	drv = fpga_dfl_nl_driver(fdev);
	if (!drv || !drv->clear_errors) {
		NL_SET_ERR_MSG(info->extack,
			       "the port has no driver that can clear its errors");
		ret = -EOPNOTSUPP;
	} else {
		ret = drv->clear_errors(fdev, errors);
		if (ret == -EINVAL)
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[FPGA_NL_A_PORT_ERRORS],
					    "not the current errors value");
		else if (ret)
			NL_SET_ERR_MSG(info->extack, "clearing the errors failed");
	}
	device_unlock(&fdev->dev);
	put_device(&fdev->dev);
	return ret;
}

/*
 * The bitstream in file @name of the firmware directory, read for @dev:
 * a name there, with no way out of it
 */
static int fpga_dfl_nl_firmware(struct genl_info *info, const char *name,
				struct device *dev, const struct firmware **fw)
{
	struct nlattr *attr = info->attrs[FPGA_NL_A_FIRMWARE];
	int ret;

	if (!*name || name[0] == '/' || strstr(name, "..")) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a file name in the firmware directory, without '..'");
		return -EINVAL;
	}
	/* No user-mode fallback: the file is there or it is not */
	ret = request_firmware_direct(fw, name, dev);
	if (ret)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "cannot read that file of the firmware directory");
	return ret;
}

/*
 * Card numbers are reused: an FME found by the port's card number is of
 * the port's card only while the port is still on the bus (a card's
 * ports go before it is freed), and then the pointers agree.
 */
static bool fpga_dfl_nl_same_card(struct fpga_dfl_device *fme,
				  struct fpga_dfl_device *port)
{
	return device_is_registered(&port->dev) && fme->card == port->card;
}

/*
 * PORT_PROGRAM: through the FME's driver, bound under its lock for the
 * whole programming; the FME is looked up by the port's card number, so
 * nothing of the card is touched unless its FME is there.
 */
static int fpga_dfl_nl_port_program(struct sk_buff *skb,
				    struct genl_info *info)
{
	char name[FPGA_NL_FIRMWARE_MAX + 1], fme_name[FPGA_NL_NAME_MAX + 1];
	const struct firmware *fw = NULL;
	struct fpga_dfl_device *port;
	struct fpga_dfl_driver *drv;
	struct device *fme;
	size_t skip;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, FPGA_NL_A_FIRMWARE)) {
		NL_SET_ERR_MSG(info->extack,
			       "missing attribute: FIRMWARE, the bitstream's file");
		return -EINVAL;
	}
	if (!capable(CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "programming needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	nla_strscpy(name, info->attrs[FPGA_NL_A_FIRMWARE], sizeof(name));
	port = fpga_dfl_nl_get_port(info);
	if (IS_ERR(port))
		return PTR_ERR(port);
	snprintf(fme_name, sizeof(fme_name), "fpga-fme.%d", port->card_id);
	fme = bus_find_device_by_name(&fpga_dfl_bus_type, NULL, fme_name);
	if (!fme) {
		NL_SET_ERR_MSG(info->extack, "the port's card has no FME");
		ret = -EOPNOTSUPP;
		goto out_put_port;
	}
	ret = fpga_dfl_nl_firmware(info, name, fme, &fw);
	if (ret)
		goto out_put_fme;
	skip = fpga_dfl_gbs_header_len(fw->data, fw->size);

	device_lock(fme);
	drv = fpga_dfl_nl_driver(to_fpga_dfl_device(fme));
	if (!fpga_dfl_nl_same_card(to_fpga_dfl_device(fme), port)) {
		NL_SET_ERR_MSG(info->extack,
			       "the port went away (its card removed, or it was reprogrammed): ask again");
		ret = -ENODEV;
	} else if (!drv || !drv->program) {
		NL_SET_ERR_MSG(info->extack,
			       "the card's FME has no driver that can program it");
		ret = -EOPNOTSUPP;
	} else {
		ret = drv->program(to_fpga_dfl_device(fme), port->port_num,
				   fw->data + skip, fw->size - skip);
		if (ret == -EIO)
			NL_SET_ERR_MSG(info->extack,
				       "the card refused the bitstream: see the FME's errors/pr_err");
		else if (ret)
			NL_SET_ERR_MSG(info->extack, "programming failed");
	}
	device_unlock(fme);
	release_firmware(fw);
out_put_fme:
	put_device(fme);
out_put_port:
	put_device(&port->dev);
	return ret;
}

/*
 * FPGA_NL_CMD_SIM_ADD and _SIM_DEL are gone: the core knows no card
 * driver, and simulated cards come and go through fpga_sim's own bus
 * (new_device, del_device), as netdevsim's do.  Genetlink answers
 * EOPNOTSUPP.
 */
static const struct genl_ops fpga_dfl_nl_ops[] = {
	{
		.cmd		= FPGA_NL_CMD_DEV_GET,
		.dumpit		= fpga_dfl_nl_dev_dump,
		.policy		= fpga_dfl_nl_dump_policy,
		.maxattr	= ARRAY_SIZE(fpga_dfl_nl_dump_policy) - 1,
	},
	{
		.cmd		= FPGA_NL_CMD_PORT_RESET,
		.doit		= fpga_dfl_nl_port_reset,
		.policy		= fpga_dfl_nl_reset_policy,
		.maxattr	= ARRAY_SIZE(fpga_dfl_nl_reset_policy) - 1,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= FPGA_NL_CMD_PORT_CLEAR_ERRORS,
		.doit		= fpga_dfl_nl_port_clear_errors,
		.policy		= fpga_dfl_nl_clear_policy,
		.maxattr	= ARRAY_SIZE(fpga_dfl_nl_clear_policy) - 1,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= FPGA_NL_CMD_PORT_PROGRAM,
		.doit		= fpga_dfl_nl_port_program,
		.policy		= fpga_dfl_nl_program_policy,
		.maxattr	= ARRAY_SIZE(fpga_dfl_nl_program_policy) - 1,
		.flags		= GENL_ADMIN_PERM,
	},
};

static struct genl_family fpga_dfl_nl_family __ro_after_init = {
	.name		= FPGA_NL_FAMILY_NAME,
	.version	= FPGA_NL_FAMILY_VERSION,
	.maxattr	= FPGA_NL_A_MAX,
	.module		= THIS_MODULE,
	/* Handlers take their own locks; no need for genl_mutex */
	.parallel_ops	= true,
	.ops		= fpga_dfl_nl_ops,
	.n_ops		= ARRAY_SIZE(fpga_dfl_nl_ops),
	/* Strict validation of the header and attributes for every command */
	.resv_start_op	= 0,
	.mcgrps		= fpga_dfl_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(fpga_dfl_nl_mcgrps),
};

/* ---- events ---- */

static struct sk_buff *fpga_dfl_nl_event_new(u8 cmd, void **hdr)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&fpga_dfl_nl_family, &init_net,
				FPGA_DFL_NL_MCGRP_EVENTS))
		return NULL;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, &fpga_dfl_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/* Send, or drop if an attribute did not fit (@ret): events are best effort */
static void fpga_dfl_nl_event_send(struct sk_buff *skb, void *hdr, int ret)
{
	if (ret) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&fpga_dfl_nl_family, skb, 0,
			  FPGA_DFL_NL_MCGRP_EVENTS, GFP_KERNEL);
}

void fpga_dfl_nl_card_event(u8 cmd, int card_id, struct device *parent,
			    unsigned int num_ports)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = fpga_dfl_nl_event_new(cmd, &hdr);
	if (!skb)
		return;
	ret = nla_put_u32(skb, FPGA_NL_A_CARD_ID, card_id) ||
	      fpga_dfl_nl_put_name(skb, FPGA_NL_A_CARD_NAME, dev_name(parent)) ||
	      nla_put_u32(skb, FPGA_NL_A_NUM_PORTS, num_ports);
	fpga_dfl_nl_event_send(skb, hdr, ret);
}

/* A reset event naming the port by @fdev, or else by card and number */
static void fpga_dfl_nl_reset_event(struct fpga_dfl_device *fdev, int card_id,
				    unsigned int port_num, bool begin, int err)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = fpga_dfl_nl_event_new(begin ? FPGA_NL_CMD_EVENT_RESET_BEGIN :
					    FPGA_NL_CMD_EVENT_RESET_END, &hdr);
	if (!skb)
		return;
	if (fdev)
		ret = fpga_dfl_nl_put_ident(skb, fdev);
	else
		ret = nla_put_u32(skb, FPGA_NL_A_CARD_ID, card_id) ||
		      nla_put_u32(skb, FPGA_NL_A_PORT_NUM, port_num) ||
		      nla_put_u32(skb, FPGA_NL_A_DEV_TYPE, FPGA_NL_DEV_PORT);
	if (!ret && !begin)
		ret = nla_put_s32(skb, FPGA_NL_A_ERRNO, err);
	fpga_dfl_nl_event_send(skb, hdr, ret);
}

/**
 * fpga_dfl_nl_notify_reset() - announce a port reset
 * @fdev: the port
 * @begin: true before the reset, false after it
 * @err: after: 0 or the -errno the reset ended with
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_nl_notify_reset(struct fpga_dfl_device *fdev, bool begin,
			      int err)
{
	fpga_dfl_nl_reset_event(fdev, 0, 0, begin, err);
}

/**
 * fpga_dfl_nl_notify_programmed() - announce a programming of a port
 * @card_id: the card
 * @port_num: the port's number on it (FME_HDR_PORT_OFST's n)
 * @port: the port's new device, or NULL if it did not come back
 * @err: 0 or the -errno the programming ended with
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_nl_notify_programmed(int card_id, unsigned int port_num,
				   struct fpga_dfl_device *port, int err)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = fpga_dfl_nl_event_new(FPGA_NL_CMD_EVENT_PROGRAMMED, &hdr);
	if (!skb)
		return;
	if (port)
		ret = fpga_dfl_nl_put_ident(skb, port) ||
		      fpga_dfl_nl_put_port(skb, port);
	else
		ret = nla_put_u32(skb, FPGA_NL_A_CARD_ID, card_id) ||
		      nla_put_u32(skb, FPGA_NL_A_PORT_NUM, port_num);
	ret = ret || nla_put_s32(skb, FPGA_NL_A_ERRNO, err);
	fpga_dfl_nl_event_send(skb, hdr, ret);
}

/**
 * fpga_dfl_nl_notify_port() - announce a port's release or assignment
 * @cmd: FPGA_NL_CMD_EVENT_PORT_RELEASED or _ASSIGNED
 * @card_id: the card
 * @port_num: the port's number on it (FME_HDR_PORT_OFST's n)
 * @id: its system-wide number (fpga-port.@id), or -1 if it has none
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_nl_notify_port(u8 cmd, int card_id, unsigned int port_num,
			     int id)
{
	char name[FPGA_NL_NAME_MAX + 1];
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = fpga_dfl_nl_event_new(cmd, &hdr);
	if (!skb)
		return;
	ret = nla_put_u32(skb, FPGA_NL_A_CARD_ID, card_id) ||
	      nla_put_u32(skb, FPGA_NL_A_PORT_NUM, port_num) ||
	      nla_put_u32(skb, FPGA_NL_A_DEV_TYPE, FPGA_NL_DEV_PORT);
	if (!ret && id >= 0) {
		snprintf(name, sizeof(name), "fpga-port.%d", id);
		ret = nla_put_u32(skb, FPGA_NL_A_DEV_ID, id) ||
		      fpga_dfl_nl_put_name(skb, FPGA_NL_A_DEV_NAME, name);
	}
	fpga_dfl_nl_event_send(skb, hdr, ret);
}

/**
 * fpga_dfl_nl_notify_vf_reset() - announce a reset of a port a VF holds
 * @card_id: the card
 * @port_num: the port's number on it
 * @begin: EVENT_RESET_BEGIN, else EVENT_RESET_END with @err
 * @err: 0 or the -errno the reset ended with
 *
 * The port has no device on the host: the event names it by card and
 * number, as EVENT_PORT_RELEASED does.
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_nl_notify_vf_reset(int card_id, unsigned int port_num,
				 bool begin, int err)
{
	fpga_dfl_nl_reset_event(NULL, card_id, port_num, begin, err);
}

/**
 * fpga_dfl_nl_notify_errors_cleared() - announce cleared port errors
 * @fdev: the port
 * @errors: the error bits that were cleared
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_nl_notify_errors_cleared(struct fpga_dfl_device *fdev,
				       u64 errors)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = fpga_dfl_nl_event_new(FPGA_NL_CMD_EVENT_ERRORS_CLEARED, &hdr);
	if (!skb)
		return;
	ret = fpga_dfl_nl_put_ident(skb, fdev) ||
	      nla_put_u64_64bit(skb, FPGA_NL_A_PORT_ERRORS, errors,
				FPGA_NL_A_PAD);
	fpga_dfl_nl_event_send(skb, hdr, ret);
}
EXPORT_SYMBOL_GPL(fpga_dfl_nl_notify_errors_cleared);

static void fpga_dfl_nl_irq_event(struct fpga_dfl_irqs *irqs,
				  unsigned int vector, unsigned int count)
{
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = fpga_dfl_nl_event_new(FPGA_NL_CMD_EVENT_IRQ, &hdr);
	if (!skb)
		return;
	ret = fpga_dfl_nl_put_ident(skb, irqs->fdev) ||
	      nla_put_u32(skb, FPGA_NL_A_FEATURE_ID, irqs->feature_id) ||
	      nla_put_u32(skb, FPGA_NL_A_IRQ_VECTOR, vector) ||
	      nla_put_u64_64bit(skb, FPGA_NL_A_IRQ_COUNT, count, FPGA_NL_A_PAD);
	fpga_dfl_nl_event_send(skb, hdr, ret);
}

/* The port error interrupt fired: say which errors are set now */
static void fpga_dfl_nl_error_event(struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *err;
	struct sk_buff *skb;
	void *hdr;
	int ret;

	err = fpga_dfl_find_feature(fdev, PORT_FEATURE_ID_ERROR);
	if (!err)
		return;
	skb = fpga_dfl_nl_event_new(FPGA_NL_CMD_EVENT_ERROR_RAISED, &hdr);
	if (!skb)
		return;
	ret = fpga_dfl_nl_put_ident(skb, fdev) ||
	      nla_put_u64_64bit(skb, FPGA_NL_A_PORT_ERRORS,
				readq(err->ioaddr + PORT_ERROR), FPGA_NL_A_PAD);
	fpga_dfl_nl_event_send(skb, hdr, ret);
}

/**
 * fpga_dfl_nl_irq_work() - announce the interrupts counted since last time
 * @work: &fpga_dfl_irqs.nl_work
 *
 * Queued by the interrupt handler, at most once per period, and cancelled
 * by fpga_dfl_irqs_free() in the driver's remove(), before the card's
 * registers go: reading the port error register here is safe.
 */
void fpga_dfl_nl_irq_work(struct work_struct *work)
{
	struct fpga_dfl_irqs *irqs = container_of(to_delayed_work(work),
						  struct fpga_dfl_irqs, nl_work);
	bool port_err = irqs->fdev->fiu_id == DFH_ID_FIU_PORT &&
			irqs->feature_id == PORT_FEATURE_ID_ERROR;
	bool fired = false;
	unsigned int i, n;

	for (i = 0; i < irqs->count; i++) {
		n = atomic_xchg(&irqs->irqs[i].nl_count, 0);
		if (!n)
			continue;
		fired = true;
		fpga_dfl_nl_irq_event(irqs, i, n);
	}
	if (fired && port_err)
		fpga_dfl_nl_error_event(irqs->fdev);
}

/*
 * Driver bound / unbound.  BUS_NOTIFY_UNBOUND_DRIVER comes after
 * dev->driver was cleared, so the unbound event names no driver.
 */
static int fpga_dfl_nl_bus_notify(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(data);
	struct sk_buff *skb;
	void *hdr;
	int ret;
	u8 cmd;

	if (action == BUS_NOTIFY_BOUND_DRIVER)
		cmd = FPGA_NL_CMD_EVENT_DRIVER_BOUND;
	else if (action == BUS_NOTIFY_UNBOUND_DRIVER)
		cmd = FPGA_NL_CMD_EVENT_DRIVER_UNBOUND;
	else
		return NOTIFY_DONE;

	skb = fpga_dfl_nl_event_new(cmd, &hdr);
	if (!skb)
		return NOTIFY_DONE;
	ret = fpga_dfl_nl_put_ident(skb, fdev);
	/* Called with the device lock held: dev->driver is stable */
	if (!ret && fdev->dev.driver)
		ret = fpga_dfl_nl_put_name(skb, FPGA_NL_A_DRIVER,
					   fdev->dev.driver->name);
	fpga_dfl_nl_event_send(skb, hdr, ret);
	return NOTIFY_OK;
}

static struct notifier_block fpga_dfl_nl_bus_nb = {
	.notifier_call = fpga_dfl_nl_bus_notify,
};

int fpga_dfl_nl_init(void)
{
	int ret;

	ret = genl_register_family(&fpga_dfl_nl_family);
	if (ret)
		return ret;
	ret = bus_register_notifier(&fpga_dfl_bus_type, &fpga_dfl_nl_bus_nb);
	if (ret)
		genl_unregister_family(&fpga_dfl_nl_family);
	return ret;
}

void fpga_dfl_nl_exit(void)
{
	bus_unregister_notifier(&fpga_dfl_bus_type, &fpga_dfl_nl_bus_nb);
	genl_unregister_family(&fpga_dfl_nl_family);
}
