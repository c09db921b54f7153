// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binding ports by AFU GUID: uio_fpga.afu_ids=GUID[,GUID...] claims every
 * port whose AFU has one of these GUIDs by setting its driver_override,
 * for ports present when the module loads (taken from their driver) and
 * for ports added later (before they are probed).  Unloading gives the
 * ports it claimed back to whatever driver matches them.  A port whose
 * driver_override someone else set is left alone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fpga-compat.h"
#include "uio-fpga.h"

#define UIO_FPGA_MAX_IDS	8
#define UIO_FPGA_DRV_NAME	"uio_fpga"

static char *uio_fpga_afu_ids;
module_param_named(afu_ids, uio_fpga_afu_ids, charp, 0444);
MODULE_PARM_DESC(afu_ids,
		 "Bind ports whose AFU GUID is in this comma-separated list (32 hex digits each, as afu_id shows; dashes allowed)");

/**
 * struct uio_fpga_guid - one AFU GUID to claim
 * @h:	high 64 bits (printed first by afu_id)
 * @l:	low 64 bits
 */
struct uio_fpga_guid {
	u64 h;
	u64 l;
};

static struct uio_fpga_guid uio_fpga_guids[UIO_FPGA_MAX_IDS];
static unsigned int uio_fpga_num_guids;
/* The uio_fpga driver, while it claims ports */
static const struct device_driver *uio_fpga_drv;

static int uio_fpga_parse_guid(const char *s, struct uio_fpga_guid *g)
{
	char hex[33], half[17];
	unsigned int n = 0;

	for (; *s; s++) {
		if (*s == '-')
			continue;
		if (!isxdigit(*s) || n == 32)
			return -EINVAL;
		hex[n++] = *s;
	}
	if (n != 32)
		return -EINVAL;
	hex[n] = '\0';
	memcpy(half, hex, 16);
	half[16] = '\0';
	if (kstrtou64(half, 16, &g->h) || kstrtou64(hex + 16, 16, &g->l))
		return -EINVAL;
	return 0;
}

static int uio_fpga_parse_ids(void)
{
	char *copy, *cur, *tok;
	int ret = 0;

	if (!uio_fpga_afu_ids || !*uio_fpga_afu_ids)
		return 0;
	copy = kstrdup(uio_fpga_afu_ids, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cur = strim(copy);
	while ((tok = strsep(&cur, ",")) && !ret) {
		if (uio_fpga_num_guids == UIO_FPGA_MAX_IDS)
			ret = -E2BIG;
		else
			ret = uio_fpga_parse_guid(strim(tok),
						  &uio_fpga_guids[uio_fpga_num_guids++]);
		if (ret)
			pr_err("afu_ids: \"%s\" is not a list of at most %u GUIDs\n",
			       uio_fpga_afu_ids, UIO_FPGA_MAX_IDS);
	}
	kfree(copy);
	return ret;
}

static bool uio_fpga_wanted(struct fpga_dfl_device *fdev)
{
	unsigned int i;

	if (fdev->fiu_id != DFH_ID_FIU_PORT || !fdev->afu.size)
		return false;
	for (i = 0; i < uio_fpga_num_guids; i++)
		if (uio_fpga_guids[i].h == fdev->afu_guid_h &&
		    uio_fpga_guids[i].l == fdev->afu_guid_l)
			return true;
	return false;
}

/* driver_override is ours ("uio_fpga"), someone else's, or unset */
static bool uio_fpga_override_is(struct fpga_dfl_device *fdev, bool ours)
{
	int ret;

	device_lock(&fdev->dev);
	ret = fpga_driver_override_match(&fdev->dev, &fdev->driver_override,
					 uio_fpga_drv);
	device_unlock(&fdev->dev);
	return ours ? ret > 0 : ret < 0;
}

static int uio_fpga_set_override(struct fpga_dfl_device *fdev, const char *s)
{
	return fpga_driver_override_set(&fdev->dev, &fdev->driver_override,
					s, strlen(s));
}

static int uio_fpga_claim(struct fpga_dfl_device *fdev)
{
	if (!uio_fpga_wanted(fdev) || !uio_fpga_override_is(fdev, false))
		return 0;
	return uio_fpga_set_override(fdev, UIO_FPGA_DRV_NAME);
}

/* A port present at load: claim it and take it from its driver */
static int uio_fpga_claim_present(struct device *dev, void *data)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);
	int ret;

	if (!uio_fpga_wanted(fdev))
		return 0;
	ret = uio_fpga_claim(fdev);
	if (!ret && dev->driver != data)
		ret = device_reprobe(dev);
	if (ret)
		dev_warn(dev, "afu_ids: cannot claim the port (%d)\n", ret);
	return 0;
}

/* Give back a port claimed at load or add: clear the override, reprobe */
static int uio_fpga_release_claimed(struct device *dev, void *data)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	if (!uio_fpga_wanted(fdev) || !uio_fpga_override_is(fdev, true))
		return 0;
	if (!uio_fpga_set_override(fdev, "") && device_attach(dev) < 0)
		dev_warn(dev, "afu_ids: no driver after uio_fpga\n");
	return 0;
}

static int uio_fpga_bus_notify(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	struct device *dev = data;

	/* Before the port is probed: the override decides its driver */
	if (action == BUS_NOTIFY_ADD_DEVICE &&
	    uio_fpga_claim(to_fpga_dfl_device(dev)))
		dev_warn(dev, "afu_ids: cannot claim the port\n");
	return NOTIFY_DONE;
}

static struct notifier_block uio_fpga_bus_nb = {
	.notifier_call = uio_fpga_bus_notify,
};

/**
 * uio_fpga_match_init() - claim the ports afu_ids names
 * @drv: the uio_fpga driver, registered
 *
 * Return: 0, or -errno for a malformed afu_ids.
 */
int uio_fpga_match_init(struct fpga_dfl_driver *drv)
{
	int ret = uio_fpga_parse_ids();

	if (ret || !uio_fpga_num_guids)
		return ret;
	uio_fpga_drv = &drv->drv;
	ret = bus_register_notifier(&fpga_dfl_bus_type, &uio_fpga_bus_nb);
	if (ret)
		return ret;
	bus_for_each_dev(&fpga_dfl_bus_type, NULL, &drv->drv,
			 uio_fpga_claim_present);
	return 0;
}

/**
 * uio_fpga_match_exit() - stop claiming, unregister, give ports back
 * @drv: the uio_fpga driver, registered
 */
void uio_fpga_match_exit(struct fpga_dfl_driver *drv)
{
	if (uio_fpga_num_guids)
		bus_unregister_notifier(&fpga_dfl_bus_type, &uio_fpga_bus_nb);
	fpga_dfl_driver_unregister(drv);
	if (uio_fpga_num_guids)
		bus_for_each_dev(&fpga_dfl_bus_type, NULL, NULL,
				 uio_fpga_release_claimed);
}
