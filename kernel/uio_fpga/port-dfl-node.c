// SPDX-License-Identifier: GPL-2.0-only
/*
 * A port's upstream name: /dev/dfl-port.N and its sysfs directory under
 * the port's fpga_region (dfl-region.c), with the attributes upstream's
 * dfl-afu documents (Documentation/ABI/testing/sysfs-platform-dfl-port).
 * The same port as fpga-port.N, the same N: a second character device
 * with the same file operations, so OPAE's xfpga opens it unchanged.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>

#include "port.h"

/* As upstream: the minor is the port's number */
#define FPGA_PORT_DFL_MINORS	(MINORMASK + 1)

static dev_t fpga_port_dfl_devt;

bool fpga_port_is_dfl_node(const struct inode *inode)
{
	return imajor(inode) == MAJOR(fpga_port_dfl_devt);
}

static void fpga_port_dfl_node_release(struct device *dev)
{
	struct fpga_port *port = dev_get_drvdata(dev);

	kfree(dev);
	put_device(&port->chardev);
}

/**
 * fpga_port_dfl_node_add() - add dfl-port.N under the port's region
 * @port: the port, its chardev added
 * @class: the class of fpga-port.N (the udev rule's subsystem)
 * @fops: its file operations
 *
 * Without a region (a kernel with its own FPGA core) there is nothing to
 * add.  A failure costs only the upstream name: the port works on.
 */
void fpga_port_dfl_node_add(struct fpga_port *port, struct class *class,
			    const struct file_operations *fops)
{
	struct fpga_dfl_device *fdev = port->fdev;
	struct device *dev;
	int ret;

	if (!fdev->region || fdev->id >= FPGA_PORT_DFL_MINORS)
		return;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return;
	device_initialize(dev);
	/* Released with dev: the port must outlive its attributes */
	get_device(&port->chardev);
	dev->class = class;
	dev->parent = fdev->region;
	dev->devt = MKDEV(MAJOR(fpga_port_dfl_devt), fdev->id);
	dev->groups = fpga_port_dfl_groups;
	dev->release = fpga_port_dfl_node_release;
	dev_set_drvdata(dev, port);
	ret = dev_set_name(dev, "dfl-port.%d", fdev->id);
	if (ret)
		goto err_put;
	cdev_init(&port->dfl_cdev, fops);
	port->dfl_cdev.owner = fops->owner;
	ret = cdev_device_add(&port->dfl_cdev, dev);
	if (ret)
		goto err_put;
	port->dfl_dev = dev;
	return;

err_put:
	dev_warn(&fdev->dev, "no upstream name dfl-port.%d: %d\n", fdev->id,
		 ret);
	put_device(dev);
}

/* Before the hardware goes: no new opens through dfl-port.N */
void fpga_port_dfl_node_del(struct fpga_port *port)
{
	if (!port->dfl_dev)
		return;
	cdev_device_del(&port->dfl_cdev, port->dfl_dev);
	put_device(port->dfl_dev);
	port->dfl_dev = NULL;
}

int fpga_port_dfl_nodes_init(void)
{
	return alloc_chrdev_region(&fpga_port_dfl_devt, 0, FPGA_PORT_DFL_MINORS,
				   "dfl-port");
}

void fpga_port_dfl_nodes_exit(void)
{
	unregister_chrdev_region(fpga_port_dfl_devt, FPGA_PORT_DFL_MINORS);
}
