// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FME's thermal and power management features (FME private features
 * 0x1 and 0x2) as hwmon devices, with the names and files of upstream's
 * dfl-fme (Documentation/ABI/testing/sysfs-platform-dfl-fme):
 *
 *   dfl_fme_thermal  temp1_input; where the FPGA throttles, temp1_max,
 *                    temp1_crit, temp1_emergency, temp1_max_alarm,
 *                    temp1_crit_alarm and temp1_max_policy
 *   dfl_fme_power    power1_input, power1_max and power1_crit (writable),
 *                    power1_max_alarm, power1_crit_alarm,
 *                    power1_xeon_limit, power1_fpga_limit, power1_ltr
 *
 * Each device's parent is the card's PCI function, because lm-sensors
 * lists only devices whose parent is on a bus it knows (PCI, platform);
 * dfl-fme.N/hwmon/ links to them, where upstream's FME has them.  A card
 * without a PCI function has them under fpga-fme.N.
 *
 * Unlike upstream, which clamps, a power threshold outside 0..127 W is
 * refused.  Every register access runs in the FME's unplug section; the
 * devices go first in remove(), and a file left open then reads -ENODEV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/hwmon.h>
#include <linux/io.h>
#include <linux/kobject.h>
#include <linux/pci.h>
#include <linux/sysfs.h>
#include <linux/units.h>

#include "fme.h"

/* Register @reg of @s, read in the FME's unplug section; 0 or -ENODEV */
static int fpga_fme_sensor_read(struct fpga_fme_sensor *s, unsigned int reg,
				u64 *val)
{
	int idx;

	if (!fpga_dfl_hw_enter(&s->fme->unplug, &idx))
		return -ENODEV;
	*val = readq(s->base + reg);
	fpga_dfl_hw_exit(&s->fme->unplug, idx);
	return 0;
}

/* A register field as a file shows it: the field's value times @scale */
struct fpga_fme_field {
	u32 attr;		/* hwmon_temp_* or hwmon_power_* */
	unsigned int reg;
	u64 mask;
	unsigned long scale;
};

static int fpga_fme_field_get(struct fpga_fme_sensor *s,
			      const struct fpga_fme_field *f, long *val)
{
	u64 v;
	int ret;

	ret = fpga_fme_sensor_read(s, f->reg, &v);
	if (ret)
		return ret;
	*val = ((v & f->mask) >> __ffs64(f->mask)) * f->scale;
	return 0;
}

/* Units: millidegrees Celsius, microwatts; alarms 0 or 1 */
static const struct fpga_fme_field fpga_fme_thermal_fields[] = {
	{ hwmon_temp_input, FME_THERM_RDSENSOR_FMT1, FME_THERM_TEMPERATURE,
	  MILLI },
	{ hwmon_temp_max, FME_THERM_THRESHOLD, FME_THERM_THRESHOLD1, MILLI },
	{ hwmon_temp_crit, FME_THERM_THRESHOLD, FME_THERM_THRESHOLD2, MILLI },
	{ hwmon_temp_emergency, FME_THERM_THRESHOLD, FME_THERM_TRIP, MILLI },
	{ hwmon_temp_max_alarm, FME_THERM_THRESHOLD, FME_THERM_THRESHOLD1_STS,
	  1 },
	{ hwmon_temp_crit_alarm, FME_THERM_THRESHOLD, FME_THERM_THRESHOLD2_STS,
	  1 },
};

static const struct fpga_fme_field fpga_fme_power_fields[] = {
	{ hwmon_power_input, FME_PWR_STATUS, FME_PWR_CONSUMED, MICRO },
	{ hwmon_power_max, FME_PWR_THRESHOLD, FME_PWR_THRESHOLD1, MICRO },
	{ hwmon_power_crit, FME_PWR_THRESHOLD, FME_PWR_THRESHOLD2, MICRO },
	{ hwmon_power_max_alarm, FME_PWR_THRESHOLD, FME_PWR_THRESHOLD1_STS, 1 },
	{ hwmon_power_crit_alarm, FME_PWR_THRESHOLD, FME_PWR_THRESHOLD2_STS, 1 },
};

/* Either device's hwmon read: the field of its table that shows @attr */
static int fpga_fme_hwmon_read(struct device *dev,
			       enum hwmon_sensor_types type, u32 attr,
			       int channel, long *val)
{
	const struct fpga_fme_field *f = fpga_fme_power_fields;
	size_t i, n = ARRAY_SIZE(fpga_fme_power_fields);

	if (type == hwmon_temp) {
		f = fpga_fme_thermal_fields;
		n = ARRAY_SIZE(fpga_fme_thermal_fields);
	}
	for (i = 0; i < n; i++)
		if (f[i].attr == attr)
			return fpga_fme_field_get(dev_get_drvdata(dev), &f[i],
						  val);
	return -EOPNOTSUPP;
}

/* A file of a single field, beside the hwmon core's */
struct fpga_fme_field_attr {
	struct device_attribute attr;
	struct fpga_fme_field field;
};

static ssize_t fpga_fme_field_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct fpga_fme_field_attr *fa =
		container_of(attr, struct fpga_fme_field_attr, attr);
	long val;
	int ret;

	ret = fpga_fme_field_get(dev_get_drvdata(dev), &fa->field, &val);
	return ret ? ret : sysfs_emit(buf, "%ld\n", val);
}

#define FPGA_FME_FIELD_ATTR(_name, _reg, _mask)				\
	static struct fpga_fme_field_attr dev_attr_##_name = {		\
		.attr = __ATTR(_name, 0444, fpga_fme_field_show, NULL),	\
		.field = { .reg = _reg, .mask = _mask, .scale = 1 },	\
	}

static umode_t fpga_fme_thermal_visible(const void *drvdata,
					enum hwmon_sensor_types type, u32 attr,
					int channel)
{
	const struct fpga_fme_sensor *s = drvdata;

	/* Without throttling the thresholds mean nothing: upstream hides them */
	return attr == hwmon_temp_input || s->throttles ? 0444 : 0;
}

static const struct hwmon_ops fpga_fme_thermal_ops = {
	.is_visible	= fpga_fme_thermal_visible,
	.read		= fpga_fme_hwmon_read,
};

static const struct hwmon_channel_info *fpga_fme_thermal_info[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_MAX |
			   HWMON_T_MAX_ALARM | HWMON_T_CRIT |
			   HWMON_T_CRIT_ALARM | HWMON_T_EMERGENCY),
	NULL
};

static const struct hwmon_chip_info fpga_fme_thermal_chip = {
	.ops	= &fpga_fme_thermal_ops,
	.info	= fpga_fme_thermal_info,
};

/* 1: AP1, 50% throttling at temp1_max; 0: AP2, 90% */
FPGA_FME_FIELD_ATTR(temp1_max_policy, FME_THERM_THRESHOLD,
		    FME_THERM_THRESHOLD1_POLICY);

static struct attribute *fpga_fme_thermal_attrs[] = {
	&dev_attr_temp1_max_policy.attr.attr,
	NULL
};

static umode_t fpga_fme_thermal_attr_visible(struct kobject *kobj,
					     struct attribute *attr, int n)
{
	struct fpga_fme_sensor *s = dev_get_drvdata(kobj_to_dev(kobj));

	return s->throttles ? attr->mode : 0;
}

static const struct attribute_group fpga_fme_thermal_group = {
	.attrs		= fpga_fme_thermal_attrs,
	.is_visible	= fpga_fme_thermal_attr_visible,
};

static const struct attribute_group *fpga_fme_thermal_groups[] = {
	&fpga_fme_thermal_group,
	NULL
};

static umode_t fpga_fme_power_visible(const void *drvdata,
				      enum hwmon_sensor_types type, u32 attr,
				      int channel)
{
	return attr == hwmon_power_max || attr == hwmon_power_crit ?
	       0644 : 0444;
}

/* A threshold in microwatts, kept in whole watts (rounded down) */
static int fpga_fme_power_write(struct device *dev,
				enum hwmon_sensor_types type, u32 attr,
				int channel, long val)
{
	struct fpga_fme_sensor *s = dev_get_drvdata(dev);
	u64 v, watts;
	int idx;

	if (attr != hwmon_power_max && attr != hwmon_power_crit)
		return -EOPNOTSUPP;
	if (val < 0 || val / MICRO > FME_PWR_THRESHOLD_MAX) {
		dev_dbg(dev, "power threshold %ld uW is outside 0..%u W\n", val,
			FME_PWR_THRESHOLD_MAX);
		return -EINVAL;
	}
	watts = val / MICRO;

	if (!fpga_dfl_hw_enter(&s->fme->unplug, &idx))
		return -ENODEV;
	mutex_lock(&s->lock);
	v = readq(s->base + FME_PWR_THRESHOLD);
	if (attr == hwmon_power_max)
		v = u64_replace_bits(v, watts, FME_PWR_THRESHOLD1);
	else
		v = u64_replace_bits(v, watts, FME_PWR_THRESHOLD2);
	writeq(v, s->base + FME_PWR_THRESHOLD);
	mutex_unlock(&s->lock);
	fpga_dfl_hw_exit(&s->fme->unplug, idx);
	return 0;
}

static const struct hwmon_ops fpga_fme_power_ops = {
	.is_visible	= fpga_fme_power_visible,
	.read		= fpga_fme_hwmon_read,
	.write		= fpga_fme_power_write,
};

static const struct hwmon_channel_info *fpga_fme_power_info[] = {
	HWMON_CHANNEL_INFO(power, HWMON_P_INPUT | HWMON_P_MAX |
			   HWMON_P_MAX_ALARM | HWMON_P_CRIT |
			   HWMON_P_CRIT_ALARM),
	NULL
};

static const struct hwmon_chip_info fpga_fme_power_chip = {
	.ops	= &fpga_fme_power_ops,
	.info	= fpga_fme_power_info,
};

/* A power limit register: microwatts if enabled, else 0 */
static ssize_t fpga_fme_limit_show(struct device *dev, unsigned int reg,
				   char *buf)
{
	u64 v;
	int ret;

	ret = fpga_fme_sensor_read(dev_get_drvdata(dev), reg, &v);
	if (ret)
		return ret;
	if (!(v & FME_PWR_LIMIT_EN))
		v = 0;
	return sysfs_emit(buf, "%llu\n", FIELD_GET(FME_PWR_LIMIT, v) * 100000);
}

static ssize_t power1_xeon_limit_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return fpga_fme_limit_show(dev, FME_PWR_XEON_LIMIT, buf);
}
static DEVICE_ATTR_RO(power1_xeon_limit);

static ssize_t power1_fpga_limit_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return fpga_fme_limit_show(dev, FME_PWR_FPGA_LIMIT, buf);
}
static DEVICE_ATTR_RO(power1_fpga_limit);

FPGA_FME_FIELD_ATTR(power1_ltr, FME_PWR_STATUS, FME_PWR_LTR);

static struct attribute *fpga_fme_power_attrs[] = {
	&dev_attr_power1_xeon_limit.attr,
	&dev_attr_power1_fpga_limit.attr,
	&dev_attr_power1_ltr.attr.attr,
	NULL
};
ATTRIBUTE_GROUPS(fpga_fme_power);

/* Where lm-sensors looks: the card's PCI function, else the FME */
static struct device *fpga_fme_hwmon_parent(struct fpga_dfl_device *fdev)
{
	struct device *dev;

	for (dev = fdev->region ?: fdev->dev.parent; dev; dev = dev->parent)
		if (dev_is_pci(dev))
			return dev;
	return &fdev->dev;
}

static void fpga_fme_sensor_add(struct fpga_fme_sensor *s,
				struct fpga_dfl_device *fdev, const char *name,
				const struct hwmon_chip_info *chip,
				const struct attribute_group **groups)
{
	struct device *hwmon;

	hwmon = hwmon_device_register_with_info(fpga_fme_hwmon_parent(fdev),
						name, s, chip, groups);
	if (IS_ERR(hwmon)) {
		dev_warn(&fdev->dev, "%s: no hwmon device: %pe\n", name, hwmon);
		return;
	}
	s->hwmon = hwmon;
}

/* The registers of feature @id, if it has them all; else NULL */
static void __iomem *fpga_fme_sensor_regs(struct fpga_dfl_device *fdev, u16 id,
					  resource_size_t size)
{
	struct fpga_dfl_feature *feat = fpga_dfl_find_feature(fdev, id);

	return feat && feat->size >= size ? feat->ioaddr : NULL;
}

/* dfl-fme.N/hwmon/hwmonX, where upstream's FME has its hwmon devices */
static void fpga_fme_hwmon_link(struct fpga_fme *fme)
{
	struct fpga_fme_sensor *sensors[] = { &fme->thermal, &fme->power };
	unsigned int i;

	if (!fme->dfl_node || (!fme->thermal.hwmon && !fme->power.hwmon))
		return;
	fme->hwmon_dir = kobject_create_and_add("hwmon",
						&fme->dfl_node->dev.kobj);
	if (!fme->hwmon_dir)
		return;
	for (i = 0; i < ARRAY_SIZE(sensors); i++) {
		struct device *hwmon = sensors[i]->hwmon;

		if (hwmon && sysfs_create_link(fme->hwmon_dir, &hwmon->kobj,
					       dev_name(hwmon)))
			dev_warn(&fme->dfl_node->dev, "no link to %s\n",
				 dev_name(hwmon));
	}
}

/**
 * fpga_fme_hwmon_add() - the FME's sensors as hwmon devices
 * @fme: the FME, with its dfl-fme.N node if it has one
 * @fdev: its device
 *
 * An FME without the features, or whose devices cannot be registered,
 * works without them (the latter says so).
 */
void fpga_fme_hwmon_add(struct fpga_fme *fme, struct fpga_dfl_device *fdev)
{
	struct fpga_fme_sensor *th = &fme->thermal, *pw = &fme->power;

	th->fme = fme;
	pw->fme = fme;
	mutex_init(&th->lock);
	mutex_init(&pw->lock);

	th->base = fpga_fme_sensor_regs(fdev, FME_FEATURE_ID_THERMAL_MGMT,
					FME_THERM_SIZE);
	if (th->base) {
		th->throttles = !(readq(th->base + FME_THERM_CAP) &
				  FME_THERM_CAP_NO_THROTTLE);
		fpga_fme_sensor_add(th, fdev, "dfl_fme_thermal",
				    &fpga_fme_thermal_chip,
				    fpga_fme_thermal_groups);
	}
	pw->base = fpga_fme_sensor_regs(fdev, FME_FEATURE_ID_POWER_MGMT,
					FME_PWR_SIZE);
	if (pw->base)
		fpga_fme_sensor_add(pw, fdev, "dfl_fme_power",
				    &fpga_fme_power_chip, fpga_fme_power_groups);
	fpga_fme_hwmon_link(fme);
}

/**
 * fpga_fme_hwmon_remove() - remove the FME's hwmon devices
 * @fme: the FME
 *
 * Their files are gone when this returns: no read reaches the card after.
 */
void fpga_fme_hwmon_remove(struct fpga_fme *fme)
{
	struct fpga_fme_sensor *sensors[] = { &fme->thermal, &fme->power };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sensors); i++) {
		struct device *hwmon = sensors[i]->hwmon;

		if (!hwmon)
			continue;
		if (fme->hwmon_dir)
			sysfs_remove_link(fme->hwmon_dir, dev_name(hwmon));
		hwmon_device_unregister(hwmon);
		sensors[i]->hwmon = NULL;
	}
	kobject_put(fme->hwmon_dir);
	fme->hwmon_dir = NULL;
	mutex_destroy(&fme->thermal.lock);
	mutex_destroy(&fme->power.lock);
}
