// SPDX-License-Identifier: GPL-2.0-only
/*
 * The upstream DFL device model, beside our own names: a class
 * "fpga_region" with a device regionN under the card's PCI function, and
 * under it the dfl-fme.N and dfl-port.N nodes the FME and port drivers
 * add (Documentation/uapi.md), made here for both.  This is where OPAE's
 * xfpga plugin looks.
 *
 * OPAE keeps one FME and one port per region, so each port gets a region
 * of its own; the FME sits in the first one.
 *
 * Whose class: a kernel built with CONFIG_FPGA_REGION has it in its
 * fpga_region module, and our regions are registered there (without a
 * manager, as upstream's dfl-pci registers its container region); on
 * other kernels (Debian's) the class is ours.  Where the upstream DFL
 * drivers are present the upstream names are theirs: no layout from us.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fpga/fpga-region.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>

#include <fpga-suite/dfl-core.h>
#include <fpga-suite/dfl-enum.h>
#include "dfl-region.h"

static DEFINE_IDA(fpga_dfl_region_ida);
static bool fpga_dfl_regions_on;

/* The kernel's class, when it has one, else ours (class_register()ed) */
#define FPGA_DFL_KERNEL_REGIONS	IS_ENABLED(CONFIG_FPGA_REGION)

/**
 * struct fpga_dfl_region - a region device
 * @dev:	the device, class fpga_region, named region@id
 * @id:		its number
 * @compat:	a PR region's interface id, or NULL (a container region)
 */
struct fpga_dfl_region {
	struct device dev;
	int id;
	const struct fpga_compat_id *compat;
};

/* As upstream: a container region has no compat id, reading it fails */
static ssize_t compat_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct fpga_dfl_region *region =
		container_of(dev, struct fpga_dfl_region, dev);

	if (!region->compat)
		return -ENOENT;
	return sysfs_emit(buf, "%016llx%016llx\n", region->compat->id_h,
			  region->compat->id_l);
}
static DEVICE_ATTR_RO(compat_id);

static struct attribute *fpga_dfl_region_attrs[] = {
	&dev_attr_compat_id.attr,
	NULL,
};
ATTRIBUTE_GROUPS(fpga_dfl_region);

static struct class fpga_dfl_region_class = {
	.name		= "fpga_region",
	.dev_groups	= fpga_dfl_region_groups,
};

static void fpga_dfl_region_release(struct device *dev)
{
	struct fpga_dfl_region *region =
		container_of(dev, struct fpga_dfl_region, dev);

	ida_free(&fpga_dfl_region_ida, region->id);
	kfree(region);
}

/* A region of our class under @parent, or NULL */
static struct device *
fpga_dfl_own_region_add(struct device *parent,
			const struct fpga_compat_id *compat)
{
	struct fpga_dfl_region *region;
	int ret;

	region = kzalloc(sizeof(*region), GFP_KERNEL);
	if (!region)
		return NULL;
	region->id = ida_alloc(&fpga_dfl_region_ida, GFP_KERNEL);
	if (region->id < 0) {
		kfree(region);
		return NULL;
	}
	device_initialize(&region->dev);
	region->dev.class = &fpga_dfl_region_class;
	region->dev.parent = parent;
	region->dev.release = fpga_dfl_region_release;
	region->compat = compat;
	ret = dev_set_name(&region->dev, "region%d", region->id);
	if (!ret)
		ret = device_add(&region->dev);
	if (ret) {
		dev_warn(parent, "cannot add fpga_region region%d: %d\n",
			 region->id, ret);
		put_device(&region->dev);
		return NULL;
	}
	return &region->dev;
}

/*
 * A region of the kernel's class under @parent, or NULL.  No manager: the
 * kernel's FPGA core cannot program it (the FME's ioctl does).
 */
static struct device *
fpga_dfl_kernel_region_add(struct device *parent,
			   struct fpga_compat_id *compat)
{
	const struct fpga_region_info info = { .compat_id = compat };
	struct fpga_region *region;

	region = fpga_region_register_full(parent, &info);
	if (IS_ERR(region)) {
		dev_warn(parent, "cannot register an fpga_region: %ld\n",
			 PTR_ERR(region));
		return NULL;
	}
	return &region->dev;
}

/* A region under @parent, or NULL (and a message) if none can be made */
static struct device *fpga_dfl_region_add(struct device *parent,
					  struct fpga_compat_id *compat)
{
	if (FPGA_DFL_KERNEL_REGIONS)
		return fpga_dfl_kernel_region_add(parent, compat);
	return fpga_dfl_own_region_add(parent, compat);
}

static void fpga_dfl_region_del(struct device *region)
{
	if (FPGA_DFL_KERNEL_REGIONS)
		fpga_region_unregister(to_fpga_region(region));
	else
		device_unregister(region);
}

/* A region under the card (region_parent), kept in @card to be removed */
static struct device *fpga_dfl_region_for(struct fpga_dfl_card *card)
{
	struct device *region;

	region = fpga_dfl_region_add(card->info.region_parent ?:
				     card->info.parent, NULL);

	if (region)
		card->regions[card->num_regions++] = region;
	return region;
}

/**
 * fpga_dfl_regions_add() - give each FIU of @card its region
 * @card: an enumerated card, before its FIUs are added
 *
 * A FIU whose region cannot be made is left without one: it then has only
 * our names, which is no reason to fail the card.
 */
void fpga_dfl_regions_add(struct fpga_dfl_card *card)
{
	unsigned int i;

	if (!fpga_dfl_regions_on)
		return;
	for (i = 0; i < card->num_ports; i++) {
		card->ports[i]->region = fpga_dfl_region_for(card);
		card->port_region[i] = card->ports[i]->region;
	}
	if (card->fme)
		card->fme->region = card->num_ports ? card->ports[0]->region :
				    fpga_dfl_region_for(card);
}

/**
 * fpga_dfl_regions_del() - remove the regions of @card
 * @card: the card, whose FIUs have been unregistered (or never added)
 *
 * The nodes drivers put under a region went with their FIUs; whatever
 * still holds one (an open file) holds the region's memory too.
 */
void fpga_dfl_regions_del(struct fpga_dfl_card *card)
{
	while (card->num_regions)
		fpga_dfl_region_del(card->regions[--card->num_regions]);
}

static void fpga_dfl_node_release(struct device *dev)
{
	struct fpga_dfl_node *node = container_of(dev, struct fpga_dfl_node,
						  dev);

	put_device(node->holder);
	kfree(node);
}

/**
 * fpga_dfl_node_add() - add @fdev's upstream-named node under its region
 * @fdev: the FME or port, bound to the calling driver
 * @info: what the driver's nodes are
 * @drvdata: the driver's object, for the attributes and open()
 * @holder: the device whose release frees @drvdata
 *
 * Without a region (the upstream names belong to another stack) there is
 * nothing to add.  A failure costs only the upstream name, so it is
 * reported here and the driver goes on.
 *
 * Return: the node, or NULL.
 */
struct fpga_dfl_node *fpga_dfl_node_add(struct fpga_dfl_device *fdev,
					const struct fpga_dfl_node_info *info,
					void *drvdata, struct device *holder)
{
	struct fpga_dfl_node *node;
	int ret;

	if (!fdev->region || fdev->id >= info->minors)
		return NULL;
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return NULL;
	device_initialize(&node->dev);
	node->holder = get_device(holder);
	node->dev.class = info->class;
	node->dev.parent = fdev->region;
	node->dev.devt = MKDEV(MAJOR(info->devt), fdev->id);
	node->dev.groups = info->groups;
	node->dev.release = fpga_dfl_node_release;
	dev_set_drvdata(&node->dev, drvdata);
	ret = dev_set_name(&node->dev, "%s.%d", info->prefix, fdev->id);
	if (ret)
		goto err_put;
	cdev_init(&node->cdev, info->fops);
	node->cdev.owner = info->fops->owner;
	ret = cdev_device_add(&node->cdev, &node->dev);
	if (ret)
		goto err_put;
	return node;

err_put:
	dev_warn(&fdev->dev, "no upstream name %s.%d: %d\n", info->prefix,
		 fdev->id, ret);
	put_device(&node->dev);
	return NULL;
}
EXPORT_SYMBOL_GPL(fpga_dfl_node_add);

/**
 * fpga_dfl_node_del() - remove a node from fpga_dfl_node_add()
 * @node: the node, or NULL
 *
 * No new opens once this returns; open files keep the node (and its
 * holder) until they are closed.
 */
void fpga_dfl_node_del(struct fpga_dfl_node *node)
{
	if (!node)
		return;
	cdev_device_del(&node->cdev, &node->dev);
	put_device(&node->dev);
}
EXPORT_SYMBOL_GPL(fpga_dfl_node_del);

/**
 * struct fpga_dfl_pr_region - dfl-fme-region.N under an FME's dfl-fme.N
 * @dev:	the device; its release frees this
 * @region:	the region under it, whose compat_id is the interface id
 * @compat:	that id
 */
struct fpga_dfl_pr_region {
	struct device dev;
	struct device *region;
	struct fpga_compat_id compat;
};

static void fpga_dfl_pr_region_release(struct device *dev)
{
	kfree(container_of(dev, struct fpga_dfl_pr_region, dev));
}

static const struct device_type fpga_dfl_pr_region_type = {
	.name		= "dfl_fme_region",
	.release	= fpga_dfl_pr_region_release,
};

/**
 * fpga_dfl_pr_region_add() - the FME's PR region, as upstream lays it out
 * @node: the FME's dfl-fme.N
 * @id_h: high 64 bits of the PR interface id
 * @id_l: low 64 bits
 *
 * dfl-fme.N/dfl-fme-region.N/fpga_region/regionK/compat_id is where OPAE
 * reads the interface id a bitstream must be built for.  As for the
 * node, a failure costs only the upstream layout: it is reported here.
 *
 * Return: the region, or NULL.
 */
struct fpga_dfl_pr_region *fpga_dfl_pr_region_add(struct fpga_dfl_node *node,
						  u64 id_h, u64 id_l)
{
	struct fpga_dfl_pr_region *pr;
	int ret;

	if (!node)
		return NULL;
	pr = kzalloc(sizeof(*pr), GFP_KERNEL);
	if (!pr)
		return NULL;
	pr->compat.id_h = id_h;
	pr->compat.id_l = id_l;
	device_initialize(&pr->dev);
	pr->dev.parent = &node->dev;
	pr->dev.type = &fpga_dfl_pr_region_type;
	ret = dev_set_name(&pr->dev, "dfl-fme-region.%d", MINOR(node->dev.devt));
	if (!ret)
		ret = device_add(&pr->dev);
	if (ret) {
		dev_warn(&node->dev, "no dfl-fme-region: %d\n", ret);
		put_device(&pr->dev);
		return NULL;
	}
	pr->region = fpga_dfl_region_add(&pr->dev, &pr->compat);
	if (!pr->region) {
		device_unregister(&pr->dev);
		return NULL;
	}
	return pr;
}
EXPORT_SYMBOL_GPL(fpga_dfl_pr_region_add);

/**
 * fpga_dfl_pr_region_del() - remove a region from fpga_dfl_pr_region_add()
 * @pr: the region, or NULL
 */
void fpga_dfl_pr_region_del(struct fpga_dfl_pr_region *pr)
{
	if (!pr)
		return;
	fpga_dfl_region_del(pr->region);
	device_unregister(&pr->dev);
}
EXPORT_SYMBOL_GPL(fpga_dfl_pr_region_del);

/* Whether @path names a directory (sysfs is where the answers are) */
static bool fpga_dfl_dir_exists(const char *path)
{
	struct path p;

	if (kern_path(path, LOOKUP_DIRECTORY, &p))
		return false;
	path_put(&p);
	return true;
}

/* Who registered what we found: @module if it is loaded, else unknown */
static const char *fpga_dfl_owner(const char *module, const char *what)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/module/%s", module);
	return fpga_dfl_dir_exists(path) ? what : "another module";
}

/*
 * The upstream DFL drivers (module dfl registers bus "dfl") make
 * dfl-fme.N and dfl-port.N themselves: ours would take their /dev names.
 */
static bool fpga_dfl_upstream_dfl_present(void)
{
	if (IS_ENABLED(CONFIG_FPGA_DFL)) {
		pr_info("this kernel has its own DFL drivers (CONFIG_FPGA_DFL, module dfl): the upstream names are theirs, only fpga_dfl's names here\n");
		return true;
	}
	if (!fpga_dfl_dir_exists("/sys/bus/dfl"))
		return false;
	pr_warn("bus dfl belongs to %s: the upstream names are its, only fpga_dfl's names here\n",
		fpga_dfl_owner("dfl", "module dfl (the upstream DFL drivers)"));
	return true;
}

/*
 * Another FPGA stack's class of the same name: class_register() would
 * fail too, but only after sysfs logs a duplicate-name stack dump, and the
 * driver core keeps its class list private.  So look first where sysfs
 * shows classes; the -EEXIST check below still covers a race.
 */
static bool fpga_dfl_region_class_taken(void)
{
	if (!fpga_dfl_dir_exists("/sys/class/fpga_region"))
		return false;
	pr_warn("class fpga_region belongs to %s: no upstream DFL layout, only fpga_dfl's names\n",
		fpga_dfl_owner("fpga_region", "module fpga_region"));
	return true;
}

int fpga_dfl_regions_init(void)
{
	int ret;

	if (fpga_dfl_upstream_dfl_present())
		return 0;
	if (FPGA_DFL_KERNEL_REGIONS) {
		/* A dependency of ours: loaded, its class registered */
		pr_info("upstream DFL layout in the kernel's class fpga_region (module fpga_region)\n");
		fpga_dfl_regions_on = true;
		return 0;
	}
	if (fpga_dfl_region_class_taken())
		return 0;
	ret = class_register(&fpga_dfl_region_class);
	if (ret == -EEXIST) {
		pr_warn("class fpga_region was registered meanwhile: no upstream DFL layout, only fpga_dfl's names\n");
		return 0;
	}
	if (ret)
		return ret;
	fpga_dfl_regions_on = true;
	return 0;
}

void fpga_dfl_regions_exit(void)
{
	if (fpga_dfl_regions_on && !FPGA_DFL_KERNEL_REGIONS)
		class_unregister(&fpga_dfl_region_class);
}
