// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attributes of a port while uio_fpga owns it, on the fpga_dfl device
 * (the UIO device's parent; Documentation/ABI/testing/sysfs-driver-uio_fpga):
 * reset, afu_id.  They are the driver's dev_groups, so the driver core
 * removes them, and waits for running ones, before remove() is called.
 */
#include <linux/module.h>
#include <linux/sysfs.h>

#include "uio-fpga.h"

/* An alias of fpga_dfl.reset_timeout_us, the name this module shipped */
module_param_cb(reset_timeout_us, &fpga_dfl_reset_timeout_ops,
		&fpga_dfl_reset_timeout_us, 0644);
__MODULE_PARM_TYPE(reset_timeout_us, "uint");
MODULE_PARM_DESC(reset_timeout_us,
		 "fpga_dfl.reset_timeout_us under this module's name: the wait for each edge of the soft-reset ACK, 1 us to 10 s");

/**
 * uio_fpga_reset() - soft-reset the port, serialised with other resets
 * @uf: the device, while bound
 *
 * Return: 0 or -ETIMEDOUT (the port is released from reset anyway).
 */
int uio_fpga_reset(struct uio_fpga *uf)
{
	int ret;

	mutex_lock(&uf->lock);
	ret = fpga_dfl_port_reset(uf->fdev);
	mutex_unlock(&uf->lock);
	return ret;
}

/*
 * fpga_dfl_driver.reset: netlink PORT_RESET (under the device lock) and
 * the core's sysfs reset (an attribute of our dev_groups) find us bound
 */
int uio_fpga_dfl_reset(struct fpga_dfl_device *fdev)
{
	return uio_fpga_reset(dev_get_drvdata(&fdev->dev));
}

/* As enumerated: the AFU does not answer while the port is in reset */
static ssize_t afu_id_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	return sysfs_emit(buf, "%016llx%016llx\n", fdev->afu_guid_h,
			  fdev->afu_guid_l);
}
static DEVICE_ATTR_RO(afu_id);

static struct attribute *uio_fpga_attrs[] = {
	&fpga_dfl_dev_attr_reset.attr,
	&dev_attr_afu_id.attr,
	NULL,
};

static const struct attribute_group uio_fpga_group = {
	.attrs = uio_fpga_attrs,
};

const struct attribute_group *uio_fpga_groups[] = {
	&uio_fpga_group,
	NULL,
};
