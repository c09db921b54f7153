// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_sim: simulated DFL cards, created and removed at run time.
 *
 *   echo "ID [NUM_PORTS]" > /sys/bus/fpga_sim/new_device
 *   echo ID > /sys/bus/fpga_sim/del_device
 *
 * Each card is a device fpga_simID on the fpga_sim bus; its FME and ports
 * appear as its children on the fpga_dfl bus.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sim.h"

#define FPGA_SIM_MAX_ID		INT_MAX

/* Protects fpga_sim_list and serialises card creation and removal */
static DEFINE_MUTEX(fpga_sim_lock);
static LIST_HEAD(fpga_sim_list);

struct fpga_sim_entry {
	struct list_head node;
	struct fpga_sim *sim;
};

static struct bus_type fpga_sim_bus;

static ssize_t num_ports_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%u\n", to_fpga_sim(dev)->num_ports);
}
static DEVICE_ATTR_RO(num_ports);

static ssize_t fail_reset_ack_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(to_fpga_sim(dev)->fail_reset_ack));
}

static ssize_t fail_reset_ack_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret)
		return ret;
	WRITE_ONCE(to_fpga_sim(dev)->fail_reset_ack, val);
	return count;
}
static DEVICE_ATTR_RW(fail_reset_ack);

static struct attribute *fpga_sim_dev_attrs[] = {
	&dev_attr_num_ports.attr,
	&dev_attr_fail_reset_ack.attr,
	NULL,
};
ATTRIBUTE_GROUPS(fpga_sim_dev);

static void fpga_sim_release(struct device *dev)
{
	kfree(to_fpga_sim(dev));
}

static const struct device_type fpga_sim_type = {
	.name		= "fpga_sim",
	.groups		= fpga_sim_dev_groups,
	.release	= fpga_sim_release,
};

static struct fpga_sim_entry *fpga_sim_find(unsigned int id)
{
	struct fpga_sim_entry *e;

	list_for_each_entry(e, &fpga_sim_list, node)
		if (e->sim->id == id)
			return e;
	return NULL;
}

static int fpga_sim_create(unsigned int id, unsigned int num_ports)
{
	struct fpga_sim_entry *entry;
	struct fpga_sim *sim;
	int ret;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim) {
		kfree(entry);
		return -ENOMEM;
	}
	sim->id = id;
	sim->num_ports = num_ports;
	sim->afu_size = FPGA_SIM_DEFAULT_AFU_SIZE;
	entry->sim = sim;

	device_initialize(&sim->dev);
	sim->dev.bus = &fpga_sim_bus;
	sim->dev.type = &fpga_sim_type;
	ret = dev_set_name(&sim->dev, "fpga_sim%u", id);
	if (ret)
		goto err_put;
	ret = device_add(&sim->dev);
	if (ret)
		goto err_put;

	ret = fpga_sim_card_init(sim);
	if (ret)
		goto err_del;

	list_add_tail(&entry->node, &fpga_sim_list);
	return 0;

err_del:
	device_del(&sim->dev);
err_put:
	put_device(&sim->dev);
	kfree(entry);
	return ret;
}

static void fpga_sim_destroy(struct fpga_sim_entry *entry)
{
	list_del(&entry->node);
	fpga_sim_card_fini(entry->sim);
	device_unregister(&entry->sim->dev);
	kfree(entry);
}

/* Split "A [B]" into numbers; anything else is -EINVAL */
static int fpga_sim_parse(const char *buf, size_t count, unsigned int *vals,
			  unsigned int max_vals)
{
	char *copy, *cur, *tok;
	unsigned int n = 0;
	int ret = 0;

	copy = kstrndup(buf, count, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cur = strim(copy);
	while ((tok = strsep(&cur, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (n == max_vals) {
			ret = -EINVAL;
			break;
		}
		ret = kstrtouint(tok, 0, &vals[n++]);
		if (ret)
			break;
	}
	kfree(copy);
	if (!ret && !n)
		ret = -EINVAL;
	return ret ? ret : n;
}

static ssize_t new_device_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	unsigned int vals[2] = { 0, 1 };
	int n, ret;

	n = fpga_sim_parse(buf, count, vals, ARRAY_SIZE(vals));
	if (n < 0) {
		pr_err("new_device: expected \"ID [NUM_PORTS]\"\n");
		return n;
	}
	if (vals[0] > FPGA_SIM_MAX_ID) {
		pr_err("new_device: ID %u is too large\n", vals[0]);
		return -EINVAL;
	}
	if (vals[1] < 1 || vals[1] > FPGA_SIM_MAX_PORTS) {
		pr_err("new_device: NUM_PORTS must be 1..%u, not %u\n",
		       FPGA_SIM_MAX_PORTS, vals[1]);
		return -EINVAL;
	}

	mutex_lock(&fpga_sim_lock);
	if (fpga_sim_find(vals[0])) {
		pr_err("new_device: card %u already exists\n", vals[0]);
		ret = -EEXIST;
	} else {
		ret = fpga_sim_create(vals[0], vals[1]);
	}
	mutex_unlock(&fpga_sim_lock);
	return ret ? ret : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	struct fpga_sim_entry *entry;
	unsigned int id;
	int ret;

	ret = fpga_sim_parse(buf, count, &id, 1);
	if (ret < 0) {
		pr_err("del_device: expected \"ID\"\n");
		return ret;
	}

	mutex_lock(&fpga_sim_lock);
	entry = fpga_sim_find(id);
	if (entry)
		fpga_sim_destroy(entry);
	mutex_unlock(&fpga_sim_lock);
	if (!entry) {
		pr_err("del_device: no card %u\n", id);
		return -ENOENT;
	}
	return count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *fpga_sim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL,
};
ATTRIBUTE_GROUPS(fpga_sim_bus);

static struct bus_type fpga_sim_bus = {
	.name		= "fpga_sim",
	.bus_groups	= fpga_sim_bus_groups,
};

static int __init fpga_sim_init(void)
{
	return bus_register(&fpga_sim_bus);
}

static void __exit fpga_sim_exit(void)
{
	struct fpga_sim_entry *entry, *tmp;

	mutex_lock(&fpga_sim_lock);
	list_for_each_entry_safe(entry, tmp, &fpga_sim_list, node)
		fpga_sim_destroy(entry);
	mutex_unlock(&fpga_sim_lock);
	bus_unregister(&fpga_sim_bus);
}

module_init(fpga_sim_init);
module_exit(fpga_sim_exit);

MODULE_DESCRIPTION("Simulated DFL FPGA card");
MODULE_LICENSE("GPL");
