// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_sim: simulated DFL cards, created and removed at run time.
 *
 *   echo "ID [NUM_PORTS] [board=NAME]" > /sys/bus/fpga_sim/new_device
 *   echo ID > /sys/bus/fpga_sim/del_device
 *
 * Each card is a device fpga_simID on the fpga_sim bus; its FME and ports
 * appear as its children on the fpga_dfl bus.  It is also a PCI function
 * on fpga_sim's own PCI bus (sim-pci.c), linked as pci_function.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>
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
	&dev_attr_board.attr,
	NULL,
};

static const struct attribute_group fpga_sim_dev_group = {
	.attrs	= fpga_sim_dev_attrs,
};

static const struct attribute_group *fpga_sim_dev_groups[] = {
	&fpga_sim_dev_group,
	&fpga_sim_sensors_group,
	NULL,
};

/**
 * struct fpga_sim_attr - a sysfs attribute of one port or of the card
 * @attr:	the attribute
 * @port:	port number, CNTR_CARD for the card
 * @arg:	CNTR_EVT_* for a counter, a register offset for a register
 */
struct fpga_sim_attr {
	struct device_attribute attr;
	unsigned int port;
	unsigned int arg;
};

#define to_fpga_sim_attr(a) container_of(a, struct fpga_sim_attr, attr)

static ssize_t fpga_sim_cntr_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct fpga_sim_attr *a = to_fpga_sim_attr(attr);

	return sysfs_emit(buf, "%llu\n",
			  fpga_sim_cntr_get(to_fpga_sim(dev), a->port, a->arg));
}

/* A register of the port's error feature */
static ssize_t fpga_sim_err_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct fpga_sim_attr *a = to_fpga_sim_attr(attr);
	struct fpga_sim *sim = to_fpga_sim(dev);

	return sysfs_emit(buf, "0x%llx\n",
			  fpga_sim_read(sim, fpga_sim_port_err(sim, a->port) +
					a->arg));
}

static ssize_t fpga_sim_inject_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct fpga_sim_attr *a = to_fpga_sim_attr(attr);
	u64 val;
	int ret;

	ret = kstrtou64(buf, 0, &val);
	if (ret)
		return ret;
	if (!val)
		return -EINVAL;
	ret = fpga_sim_error_inject(to_fpga_sim(dev), a->port, val);
	return ret ? ret : count;
}

static ssize_t fpga_sim_fail_dma_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct fpga_sim_attr *a = to_fpga_sim_attr(attr);

	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(to_fpga_sim(dev)->ports[a->port].fail_dma));
}

static ssize_t fpga_sim_fail_dma_store(struct device *dev,
				       struct device_attribute *attr,
				       const char *buf, size_t count)
{
	struct fpga_sim_attr *a = to_fpga_sim_attr(attr);
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret)
		return ret;
	WRITE_ONCE(to_fpga_sim(dev)->ports[a->port].fail_dma, val);
	return count;
}

/**
 * struct fpga_sim_irqs_ctx - fpga_sim_irqs_show() looking for its port
 * @port:	port number on the card
 * @buf:	sysfs buffer
 * @len:	bytes in @buf
 */
struct fpga_sim_irqs_ctx {
	unsigned int port;
	char *buf;
	int len;
};

static int fpga_sim_irqs_child(struct device *dev, void *data)
{
	struct fpga_sim_irqs_ctx *ctx = data;
	struct fpga_dfl_device *fdev;
	unsigned int i, j;

	if (dev->bus != &fpga_dfl_bus_type)
		return 0;
	fdev = to_fpga_dfl_device(dev);
	if (fdev->fiu_id != DFH_ID_FIU_PORT || fdev->port_num != ctx->port)
		return 0;
	for (i = 0; i < fdev->num_features; i++)
		for (j = 0; j < fdev->features[i].irq_count; j++)
			ctx->len += sysfs_emit_at(ctx->buf, ctx->len, "%s%d",
						  ctx->len ? " " : "",
						  fdev->features[i].irqs[j]);
	return 1;
}

/* Debug view: the irqs the DFL core gave the port, in feature order */
static ssize_t fpga_sim_irqs_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct fpga_sim_irqs_ctx ctx = {
		.port = to_fpga_sim_attr(attr)->port,
		.buf = buf,
	};

	device_for_each_child(dev, &ctx, fpga_sim_irqs_child);
	return ctx.len + sysfs_emit_at(buf, ctx.len, "\n");
}

static ssize_t clock_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  fpga_sim_read(to_fpga_sim(dev),
					FPGA_SIM_FME_COUNTERS + CNTR_CLOCK));
}
static DEVICE_ATTR_RO(clock);

/*
 * Root's only: they tell how much DMA and how many interrupts another
 * user's job made, which the card's perf PMU gives only as
 * perf_event_paranoid allows
 */
#define FPGA_SIM_CNTR(_name, _event)					\
	{ .attr = __ATTR(_name, 0400, fpga_sim_cntr_show, NULL), .arg = _event }

/* portP/: knobs, error registers, irqs, then the counters of port P */
static const struct fpga_sim_attr fpga_sim_port_tmpl[] = {
	{ .attr = __ATTR(inject_error, 0200, NULL, fpga_sim_inject_store) },
	{ .attr = __ATTR(fail_dma, 0644, fpga_sim_fail_dma_show,
			 fpga_sim_fail_dma_store) },
	{ .attr = __ATTR(errors, 0444, fpga_sim_err_show, NULL),
	  .arg = PORT_ERROR },
	{ .attr = __ATTR(first_error, 0444, fpga_sim_err_show, NULL),
	  .arg = PORT_FIRST_ERROR },
	{ .attr = __ATTR(irqs, 0444, fpga_sim_irqs_show, NULL) },
	/* The counter bank; counters/ of the card has the same */
	FPGA_SIM_CNTR(dma_rd_bytes, CNTR_EVT_DMA_RD_BYTES),
	FPGA_SIM_CNTR(dma_wr_bytes, CNTR_EVT_DMA_WR_BYTES),
	FPGA_SIM_CNTR(dma_rd_lines, CNTR_EVT_DMA_RD_LINES),
	FPGA_SIM_CNTR(dma_wr_lines, CNTR_EVT_DMA_WR_LINES),
	FPGA_SIM_CNTR(user_irqs, CNTR_EVT_USER_IRQS),
	FPGA_SIM_CNTR(error_irqs, CNTR_EVT_ERROR_IRQS),
	FPGA_SIM_CNTR(resets, CNTR_EVT_RESETS),
	FPGA_SIM_CNTR(dma_faults, CNTR_EVT_DMA_FAULTS),
	FPGA_SIM_CNTR(afu_busy_clocks, CNTR_EVT_AFU_BUSY),
};

#define FPGA_SIM_NUM_PORT_ATTRS		ARRAY_SIZE(fpga_sim_port_tmpl)
#define FPGA_SIM_FIRST_CNTR		(FPGA_SIM_NUM_PORT_ATTRS - CNTR_NUM_EVENTS)

static struct fpga_sim_attr fpga_sim_port_attrs[FPGA_SIM_MAX_PORTS][FPGA_SIM_NUM_PORT_ATTRS];
static struct fpga_sim_attr fpga_sim_card_cntrs[CNTR_NUM_EVENTS];
static struct attribute *fpga_sim_port_ptrs[FPGA_SIM_MAX_PORTS][FPGA_SIM_NUM_PORT_ATTRS + 1];
static struct attribute *fpga_sim_cntr_ptrs[CNTR_NUM_EVENTS + 2];

static struct attribute_group fpga_sim_port_groups[FPGA_SIM_MAX_PORTS] = {
	{ .name = "port0", .attrs = fpga_sim_port_ptrs[0] },
	{ .name = "port1", .attrs = fpga_sim_port_ptrs[1] },
	{ .name = "port2", .attrs = fpga_sim_port_ptrs[2] },
	{ .name = "port3", .attrs = fpga_sim_port_ptrs[3] },
};

static const struct attribute_group fpga_sim_cntr_group = {
	.name = "counters",
	.attrs = fpga_sim_cntr_ptrs,
};

/*
 * Per number of ports, the groups of a card: a port that does not exist
 * has no directory at all (an invisible group of 6.1 leaves an empty one).
 */
static const struct attribute_group *fpga_sim_groups[FPGA_SIM_MAX_PORTS][FPGA_SIM_MAX_PORTS + 2] = {
	{ &fpga_sim_cntr_group, &fpga_sim_port_groups[0] },
	{ &fpga_sim_cntr_group, &fpga_sim_port_groups[0],
	  &fpga_sim_port_groups[1] },
	{ &fpga_sim_cntr_group, &fpga_sim_port_groups[0],
	  &fpga_sim_port_groups[1], &fpga_sim_port_groups[2] },
	{ &fpga_sim_cntr_group, &fpga_sim_port_groups[0],
	  &fpga_sim_port_groups[1], &fpga_sim_port_groups[2],
	  &fpga_sim_port_groups[3] },
};

/* Fill in the attributes of every port and the card (before the bus) */
static void fpga_sim_attrs_init(void)
{
	unsigned int p, i;

	for (p = 0; p < FPGA_SIM_MAX_PORTS; p++)
		for (i = 0; i < FPGA_SIM_NUM_PORT_ATTRS; i++) {
			fpga_sim_port_attrs[p][i] = fpga_sim_port_tmpl[i];
			fpga_sim_port_attrs[p][i].port = p;
			fpga_sim_port_ptrs[p][i] =
				&fpga_sim_port_attrs[p][i].attr.attr;
		}
	for (i = 0; i < CNTR_NUM_EVENTS; i++) {
		fpga_sim_card_cntrs[i] =
			fpga_sim_port_tmpl[FPGA_SIM_FIRST_CNTR + i];
		fpga_sim_card_cntrs[i].port = CNTR_CARD;
		fpga_sim_cntr_ptrs[i] = &fpga_sim_card_cntrs[i].attr.attr;
	}
	fpga_sim_cntr_ptrs[i] = &dev_attr_clock.attr;
}

static void fpga_sim_release(struct device *dev)
{
	struct fpga_sim *sim = to_fpga_sim(dev);

	if (sim->regs)
		free_pages_exact(sim->regs, sim->regs_size);
	mutex_destroy(&sim->err_lock);
	mutex_destroy(&sim->card_lock);
	kfree(sim);
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

static bool fpga_sim_iommu = true;
module_param_named(iommu, fpga_sim_iommu, bool, 0644);
MODULE_PARM_DESC(iommu,
		 "Cards made while this is off have no IOMMU: their DMA engine takes physical addresses and can reach all memory, as on a host without one (default on)");

static int fpga_sim_create(unsigned int id, unsigned int num_ports,
			   enum fpga_sim_board board)
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
	sim->board = board;
	sim->afu_size = FPGA_SIM_DEFAULT_AFU_SIZE;
	sim->translated = READ_ONCE(fpga_sim_iommu);
	mutex_init(&sim->err_lock);
	mutex_init(&sim->card_lock);
	spin_lock_init(&sim->cntr_lock);
	entry->sim = sim;

	device_initialize(&sim->dev);
	sim->dev.bus = &fpga_sim_bus;
	sim->dev.type = &fpga_sim_type;
	sim->dev.groups = fpga_sim_groups[num_ports - 1];
	ret = dev_set_name(&sim->dev, "fpga_sim%u", id);
	if (ret)
		goto err_put;
	ret = fpga_sim_card_layout(sim);
	if (ret)
		goto err_put;
	ret = device_add(&sim->dev);
	if (ret)
		goto err_put;

	fpga_sim_pci_add(sim);
	ret = fpga_sim_card_init(sim);
	if (ret)
		goto err_del;

	list_add_tail(&entry->node, &fpga_sim_list);
	return 0;

err_del:
	fpga_sim_pci_del(sim);
	device_del(&sim->dev);
err_put:
	put_device(&sim->dev);
	kfree(entry);
	return ret;
}

static void fpga_sim_destroy(struct fpga_sim_entry *entry)
{
	list_del(&entry->node);
	fpga_sim_pci_unplug(entry->sim);
	fpga_sim_pci_del(entry->sim);
	device_unregister(&entry->sim->dev);
	kfree(entry);
}

/*
 * Split "A [B]" into numbers, and a "board=NAME" word if @board is given
 * (anywhere after A); anything else is -EINVAL
 */
static int fpga_sim_parse(const char *buf, size_t count, unsigned int *vals,
			  unsigned int max_vals, enum fpga_sim_board *board)
{
	char *copy, *cur, *tok;
	bool have_board = false;
	unsigned int n = 0;
	int ret = 0;

	copy = kstrndup(buf, count, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cur = strim(copy);
	while ((tok = strsep(&cur, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (board && n) {
			ret = fpga_sim_board_parse(tok, board);
			if (ret != -ENOENT) {
				if (have_board)
					ret = -EINVAL;
				have_board = true;
				if (ret)
					break;
				continue;
			}
			ret = 0;
		}
		if (n == max_vals || have_board) {
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

/* Create card @id (new_device) */
static int fpga_sim_add(u32 id, u32 ports, enum fpga_sim_board board)
{
	int ret;

	if (id > FPGA_SIM_MAX_ID) {
		pr_err("new_device: ID %u is too large\n", id);
		return -EINVAL;
	}
	if (ports < 1 || ports > FPGA_SIM_MAX_PORTS) {
		pr_err("new_device: NUM_PORTS must be 1..%u, not %u\n",
		       FPGA_SIM_MAX_PORTS, ports);
		return -EINVAL;
	}

	mutex_lock(&fpga_sim_lock);
	if (fpga_sim_find(id)) {
		pr_err("new_device: card %u already exists\n", id);
		ret = -EEXIST;
	} else {
		ret = fpga_sim_create(id, ports, board);
	}
	mutex_unlock(&fpga_sim_lock);
	return ret;
}

/* Remove card @id (del_device) */
static int fpga_sim_del(u32 id)
{
	struct fpga_sim_entry *entry;

	mutex_lock(&fpga_sim_lock);
	entry = fpga_sim_find(id);
	if (entry)
		fpga_sim_destroy(entry);
	mutex_unlock(&fpga_sim_lock);
	if (!entry) {
		pr_err("del_device: no card %u\n", id);
		return -ENOENT;
	}
	return 0;
}

static ssize_t new_device_store(FPGA_COMPAT_BUS_ATTR_CONST struct bus_type *bus, const char *buf,
				size_t count)
{
	enum fpga_sim_board board = FPGA_SIM_BOARD_SIM;
	unsigned int vals[2] = { 0, 1 };
	int n, ret;

	n = fpga_sim_parse(buf, count, vals, ARRAY_SIZE(vals), &board);
	if (n < 0) {
		pr_err("new_device: expected \"ID [NUM_PORTS] [board=sim|n3000]\"\n");
		return n;
	}
	ret = fpga_sim_add(vals[0], vals[1], board);
	return ret ? ret : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(FPGA_COMPAT_BUS_ATTR_CONST struct bus_type *bus, const char *buf,
				size_t count)
{
	unsigned int id;
	int ret;

	ret = fpga_sim_parse(buf, count, &id, 1, NULL);
	if (ret < 0) {
		pr_err("del_device: expected \"ID\"\n");
		return ret;
	}
	ret = fpga_sim_del(id);
	return ret ? ret : count;
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
	int ret;

	fpga_sim_attrs_init();
	ret = bus_register(&fpga_sim_bus);
	if (ret)
		return ret;
	ret = fpga_sim_pci_init();
	if (ret) {
		bus_unregister(&fpga_sim_bus);
		return ret;
	}
	return 0;
}

static void __exit fpga_sim_exit(void)
{
	struct fpga_sim_entry *entry, *tmp;

	mutex_lock(&fpga_sim_lock);
	list_for_each_entry_safe(entry, tmp, &fpga_sim_list, node)
		fpga_sim_destroy(entry);
	mutex_unlock(&fpga_sim_lock);
	fpga_sim_pci_exit();
	bus_unregister(&fpga_sim_bus);
}

module_init(fpga_sim_init);
module_exit(fpga_sim_exit);

MODULE_DESCRIPTION("Simulated DFL FPGA card");
MODULE_LICENSE("GPL");
