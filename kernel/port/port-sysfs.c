// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs of a port (Documentation/ABI/testing/sysfs-bus-fpga_dfl-port):
 * id, afu_id, power_state, reset, errors/ and regions/<n>/.  The attribute
 * groups are the driver's dev_groups, so they exist exactly while the
 * port is bound and are gone before remove() runs.
 */
#include <linux/bitfield.h>
#include <linux/fpga-dfl.h>
#include <linux/io.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "port.h"
#include "port_trace.h"

static struct fpga_port *to_port(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	u64 cap = readq(to_port(dev)->hdr + PORT_HDR_CAP);

	return sysfs_emit(buf, "%llu\n", FIELD_GET(PORT_CAP_PORT_NUM, cap));
}
static DEVICE_ATTR_RO(id);

static ssize_t afu_id_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct fpga_port *port = to_port(dev);
	u64 guid_l, guid_h;

	/* The AFU does not answer while the port is in reset */
	if (readq(port->hdr + PORT_HDR_CTRL) & PORT_CTRL_SFTRST)
		return -EBUSY;
	guid_l = readq(port->afu + DFH_GUID_L);
	guid_h = readq(port->afu + DFH_GUID_H);
	return sysfs_emit(buf, "%016llx%016llx\n", guid_h, guid_l);
}
static DEVICE_ATTR_RO(afu_id);

static ssize_t power_state_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	u64 sts = readq(to_port(dev)->hdr + PORT_HDR_STS);

	return sysfs_emit(buf, "%#llx\n", FIELD_GET(PORT_STS_PWR_STATE, sts));
}
static DEVICE_ATTR_RO(power_state);

static struct attribute *fpga_port_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_afu_id.attr,
	&dev_attr_power_state.attr,
	&fpga_dfl_dev_attr_reset.attr,
	NULL,
};

static const struct attribute_group fpga_port_group = {
	.attrs = fpga_port_attrs,
};

static ssize_t errors_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  readq(to_port(dev)->err + PORT_ERROR));
}

/*
 * Clearing follows the hardware's procedure: only if @val is still the
 * current value, hold the port in reset, mask errors, write the value back
 * (write 1 to clear) and clear FIRST_ERROR, unmask, release the port.
 */
static int fpga_port_errors_clear(struct fpga_port *port, u64 val)
{
	int ret, ret2;
	u64 v;

	mutex_lock(&port->lock);
	v = readq(port->err + PORT_ERROR);
	if (v != val) {
		dev_dbg(&port->fdev->dev, "errors: %#llx is not the current value %#llx\n",
			val, v);
		mutex_unlock(&port->lock);
		return -EINVAL;
	}
	ret = __fpga_port_disable(port);
	if (!ret) {
		writeq(GENMASK_ULL(63, 0), port->err + PORT_ERROR_MASK);
		writeq(v, port->err + PORT_ERROR);
		v = readq(port->err + PORT_FIRST_ERROR);
		writeq(v, port->err + PORT_FIRST_ERROR);
		writeq(0, port->err + PORT_ERROR_MASK);
	}
	ret2 = __fpga_port_enable(port);
	mutex_unlock(&port->lock);
	ret = ret ?: ret2;
	trace_error_clear(port, val, ret);
	if (!ret)
		fpga_dfl_nl_notify_errors_cleared(port->fdev, val);
	return ret;
}

/* fpga_dfl_driver.clear_errors: the core holds the device lock */
int fpga_port_dfl_clear_errors(struct fpga_dfl_device *fdev, u64 errors)
{
	struct fpga_port *port = dev_get_drvdata(&fdev->dev);

	if (!port->err)
		return -EOPNOTSUPP;
	return fpga_port_errors_clear(port, errors);
}

static ssize_t errors_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	u64 val;
	int ret;

	ret = kstrtou64(buf, 0, &val);
	if (ret)
		return ret;
	ret = fpga_port_errors_clear(to_port(dev), val);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(errors);

static ssize_t first_error_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  readq(to_port(dev)->err + PORT_FIRST_ERROR));
}
static DEVICE_ATTR_RO(first_error);

static ssize_t first_malformed_req_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	struct fpga_port *port = to_port(dev);

	return sysfs_emit(buf, "0x%016llx%016llx\n",
			  readq(port->err + PORT_MALFORMED_REQ1),
			  readq(port->err + PORT_MALFORMED_REQ0));
}
static DEVICE_ATTR_RO(first_malformed_req);

static struct attribute *fpga_port_err_attrs[] = {
	&dev_attr_errors.attr,
	&dev_attr_first_error.attr,
	&dev_attr_first_malformed_req.attr,
	NULL,
};

static umode_t fpga_port_err_visible(struct kobject *kobj,
				     struct attribute *attr, int n)
{
	struct fpga_port *port = to_port(kobj_to_dev(kobj));

	return port->err ? attr->mode : 0;
}

static const struct attribute_group fpga_port_err_group = {
	.name		= "errors",
	.attrs		= fpga_port_err_attrs,
	.is_visible	= fpga_port_err_visible,
};

const struct attribute_group *fpga_port_groups[] = {
	&fpga_port_group,
	&fpga_port_err_group,
	NULL,
};

/*
 * dfl-port.N (port-dfl-node.c) has upstream's set, in upstream's formats:
 * no reset attribute, power_state always with 0x, and ltr.
 */
static ssize_t dfl_power_state_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	u64 sts = readq(to_port(dev)->hdr + PORT_HDR_STS);

	return sysfs_emit(buf, "0x%llx\n", FIELD_GET(PORT_STS_PWR_STATE, sts));
}

static struct device_attribute dev_attr_dfl_power_state =
	__ATTR(power_state, 0444, dfl_power_state_show, NULL);

/* The port's latency tolerance: PORT_HDR_CTRL's LATENCY bit */
static ssize_t ltr_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	u64 ctrl = readq(to_port(dev)->hdr + PORT_HDR_CTRL);

	return sysfs_emit(buf, "%llx\n", FIELD_GET(PORT_CTRL_LATENCY, ctrl));
}

static ssize_t ltr_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count)
{
	struct fpga_port *port = to_port(dev);
	bool ltr;
	u64 ctrl;
	int ret;

	ret = kstrtobool(buf, &ltr);
	if (ret)
		return ret;
	/* Under the lock resets take: they write PORT_HDR_CTRL too */
	mutex_lock(&port->lock);
	ctrl = readq(port->hdr + PORT_HDR_CTRL);
	ctrl &= ~PORT_CTRL_LATENCY;
	ctrl |= FIELD_PREP(PORT_CTRL_LATENCY, ltr);
	writeq(ctrl, port->hdr + PORT_HDR_CTRL);
	mutex_unlock(&port->lock);
	return count;
}
static DEVICE_ATTR_RW(ltr);

static struct attribute *fpga_port_dfl_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_afu_id.attr,
	&dev_attr_dfl_power_state.attr,
	&dev_attr_ltr.attr,
	NULL,
};

static const struct attribute_group fpga_port_dfl_group = {
	.attrs = fpga_port_dfl_attrs,
};

const struct attribute_group *fpga_port_dfl_groups[] = {
	&fpga_port_dfl_group,
	&fpga_port_err_group,
	NULL,
};

/*
 * regions/<n>/{index,offset,size,flags}: a directory per region needs a
 * kobject of its own (an attribute group has one level only).
 */
struct fpga_port_region_kobj {
	struct kobject kobj;
	struct fpga_port *port;
};

static struct fpga_port *region_port(struct kobject *kobj)
{
	return container_of(kobj, struct fpga_port_region_kobj, kobj)->port;
}

static ssize_t index_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", DFL_PORT_REGION_INDEX_AFU);
}

static ssize_t offset_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%x\n", FPGA_PORT_REGION_AFU_OFFSET);
}

static ssize_t size_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", (u64)region_port(kobj)->afu_size);
}

static ssize_t flags_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "0x%x\n",
			  fpga_port_region_flags(region_port(kobj)));
}

static struct kobj_attribute region_index_attr = __ATTR_RO(index);
static struct kobj_attribute region_offset_attr = __ATTR_RO(offset);
static struct kobj_attribute region_size_attr = __ATTR_RO(size);
static struct kobj_attribute region_flags_attr = __ATTR_RO(flags);

static struct attribute *fpga_port_region_attrs[] = {
	&region_index_attr.attr,
	&region_offset_attr.attr,
	&region_size_attr.attr,
	&region_flags_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(fpga_port_region);

static void fpga_port_region_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct fpga_port_region_kobj, kobj));
}

static const struct kobj_type fpga_port_region_ktype = {
	.release	= fpga_port_region_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= fpga_port_region_groups,
};

int fpga_port_regions_add(struct fpga_port *port)
{
	struct fpga_port_region_kobj *region;
	int ret;

	port->regions_dir = kobject_create_and_add("regions",
						   &port->fdev->dev.kobj);
	if (!port->regions_dir)
		return -ENOMEM;

	region = kzalloc(sizeof(*region), GFP_KERNEL);
	if (!region) {
		ret = -ENOMEM;
		goto err_dir;
	}
	region->port = port;
	ret = kobject_init_and_add(&region->kobj, &fpga_port_region_ktype,
				   port->regions_dir, "%u",
				   DFL_PORT_REGION_INDEX_AFU);
	if (ret) {
		kobject_put(&region->kobj);
		goto err_dir;
	}
	port->region_kobj = &region->kobj;
	return 0;

err_dir:
	kobject_put(port->regions_dir);
	port->regions_dir = NULL;
	return ret;
}

void fpga_port_regions_del(struct fpga_port *port)
{
	kobject_put(port->region_kobj);
	kobject_put(port->regions_dir);
	port->region_kobj = NULL;
	port->regions_dir = NULL;
}
