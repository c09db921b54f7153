// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FME's global errors: errors/ with the files, formats and write
 * semantics of upstream's dfl-fme (Documentation/ABI/testing/
 * sysfs-platform-dfl-fme), which OPAE's fpgainfo and hello_events use.
 *
 * Writing an error file its current value clears those errors: the
 * register is masked, the value written back (the bits are
 * write-1-to-clear) and the register unmasked, so that clearing raises no
 * interrupt.  Any other value is refused with -EINVAL, as upstream does:
 * the caller clears only what it has seen.  inject_errors sets the RAS
 * injection bits 2:0.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/io.h>

#include "fme.h"

/* The mask registers' value while the driver is bound */
static u64 fpga_fme_error_unmasked(struct fpga_fme_error *err,
				   unsigned int mask_reg)
{
	/* Revision 0 of the feature reports MBP errors spuriously */
	if (mask_reg == FME_ERROR_MASK && err->revision == 0)
		return FME_ERROR_MBP;
	return 0;
}

static void fpga_fme_error_mask_all(struct fpga_fme_error *err, bool mask)
{
	static const unsigned int mask_regs[] = {
		FME_ERROR_MASK, FME_PCIE0_ERROR_MASK, FME_PCIE1_ERROR_MASK,
		FME_RAS_NONFAT_ERROR_MASK, FME_RAS_CATFAT_ERROR_MASK,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mask_regs); i++)
		writeq(mask ? ~0ULL : fpga_fme_error_unmasked(err, mask_regs[i]),
		       err->base + mask_regs[i]);
}

/**
 * fpga_fme_error_init() - find the FME's global error feature, unmask it
 * @err: the FME's error state
 * @fdev: the FME
 */
void fpga_fme_error_init(struct fpga_fme_error *err,
			 struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *feat;

	mutex_init(&err->lock);
	feat = fpga_dfl_find_feature(fdev, FME_FEATURE_ID_GLOBAL_ERR);
	if (!feat || feat->size < FME_ERROR_SIZE)
		return;
	err->base = feat->ioaddr;
	err->revision = feat->revision;
	fpga_fme_error_mask_all(err, false);
}

/**
 * fpga_fme_error_fini() - mask the errors: nobody handles them any more
 * @err: the FME's error state
 */
void fpga_fme_error_fini(struct fpga_fme_error *err)
{
	if (err->base)
		fpga_fme_error_mask_all(err, true);
	mutex_destroy(&err->lock);
}

static u64 fpga_fme_error_read(struct device *dev, unsigned int reg)
{
	return readq(fpga_fme_error_of(dev)->base + reg);
}

/* Clear @reg's errors if @buf is its current value (mask reg - 8) */
static ssize_t fpga_fme_error_clear(struct device *dev, unsigned int reg,
				    const char *buf, size_t count)
{
	struct fpga_fme_error *err = fpga_fme_error_of(dev);
	unsigned int mask_reg = reg - 8;
	u64 val, cur;
	int ret = 0;

	if (kstrtou64(buf, 0, &val))
		return -EINVAL;

	mutex_lock(&err->lock);
	writeq(~0ULL, err->base + mask_reg);
	cur = readq(err->base + reg);
	if (val == cur)
		writeq(cur, err->base + reg);
	else
		ret = -EINVAL;
	writeq(fpga_fme_error_unmasked(err, mask_reg), err->base + mask_reg);
	mutex_unlock(&err->lock);
	if (ret)
		dev_dbg(dev, "errors: %#llx is not the current value %#llx\n",
			val, cur);
	return ret ? ret : count;
}

/* An error file: the register it shows */
struct fpga_fme_error_attr {
	struct device_attribute attr;
	unsigned int reg;
};

static unsigned int fpga_fme_error_reg(struct device_attribute *attr)
{
	return container_of(attr, struct fpga_fme_error_attr, attr)->reg;
}

static ssize_t fpga_fme_error_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  fpga_fme_error_read(dev, fpga_fme_error_reg(attr)));
}

static ssize_t fpga_fme_error_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	return fpga_fme_error_clear(dev, fpga_fme_error_reg(attr), buf, count);
}

#define FPGA_FME_ERROR_ATTR_RO(_name, _reg)				\
	static struct fpga_fme_error_attr dev_attr_##_name = {		\
		.attr = __ATTR(_name, 0444, fpga_fme_error_show, NULL),	\
		.reg = _reg,						\
	}

#define FPGA_FME_ERROR_ATTR_RW(_name, _reg)				\
	static struct fpga_fme_error_attr dev_attr_##_name = {		\
		.attr = __ATTR(_name, 0644, fpga_fme_error_show,		\
			       fpga_fme_error_store),			\
		.reg = _reg,						\
	}

FPGA_FME_ERROR_ATTR_RW(fme_errors, FME_ERROR);
FPGA_FME_ERROR_ATTR_RW(pcie0_errors, FME_PCIE0_ERROR);
FPGA_FME_ERROR_ATTR_RW(pcie1_errors, FME_PCIE1_ERROR);
FPGA_FME_ERROR_ATTR_RO(nonfatal_errors, FME_RAS_NONFAT_ERROR);
FPGA_FME_ERROR_ATTR_RO(catfatal_errors, FME_RAS_CATFAT_ERROR);
FPGA_FME_ERROR_ATTR_RO(first_error, FME_FIRST_ERROR);
FPGA_FME_ERROR_ATTR_RO(next_error, FME_NEXT_ERROR);

static ssize_t inject_errors_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n", FIELD_GET(FME_RAS_INJECT_MASK,
			  fpga_fme_error_read(dev, FME_RAS_ERROR_INJECT)));
}

static ssize_t inject_errors_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct fpga_fme_error *err = fpga_fme_error_of(dev);
	u64 v;
	u8 inject;

	if (kstrtou8(buf, 0, &inject) || inject & ~FME_RAS_INJECT_MASK)
		return -EINVAL;

	mutex_lock(&err->lock);
	v = readq(err->base + FME_RAS_ERROR_INJECT);
	v &= ~FME_RAS_INJECT_MASK;
	v |= FIELD_PREP(FME_RAS_INJECT_MASK, inject);
	writeq(v, err->base + FME_RAS_ERROR_INJECT);
	mutex_unlock(&err->lock);
	return count;
}
static DEVICE_ATTR_RW(inject_errors);

static struct attribute *fpga_fme_error_attrs[] = {
	&dev_attr_pcie0_errors.attr.attr,
	&dev_attr_pcie1_errors.attr.attr,
	&dev_attr_nonfatal_errors.attr.attr,
	&dev_attr_catfatal_errors.attr.attr,
	&dev_attr_inject_errors.attr,
	&dev_attr_fme_errors.attr.attr,
	&dev_attr_first_error.attr.attr,
	&dev_attr_next_error.attr.attr,
	&dev_attr_pr_err.attr,
	NULL,
};

/*
 * Only an FME with the global error feature has errors/; pr_err needs PR,
 * and is ours (fpga_fme_pr_attr_visible())
 */
static umode_t fpga_fme_error_visible(struct kobject *kobj,
				      struct attribute *attr, int n)
{
	struct device *dev = kobj_to_dev(kobj);
	struct fpga_fme *fme = dev_get_drvdata(dev);

	if (attr == &dev_attr_pr_err.attr &&
	    !fpga_fme_pr_attr_visible(fme, kobj))
		return 0;
	return fpga_fme_error_of(dev)->base ? attr->mode : 0;
}

const struct attribute_group fpga_fme_error_group = {
	.name		= "errors",
	.attrs		= fpga_fme_error_attrs,
	.is_visible	= fpga_fme_error_visible,
};
