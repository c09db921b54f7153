// SPDX-License-Identifier: GPL-2.0-only
/*
 * A port's upstream name: /dev/dfl-port.N and its sysfs directory under
 * the port's fpga_region (fpga_dfl_node_add()), with the attributes
 * upstream's dfl-afu documents (Documentation/ABI/testing/
 * sysfs-platform-dfl-port).  The same port as fpga-port.N, the same N: a
 * second character device with the same file operations, so OPAE's xfpga
 * opens it unchanged.
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>

#include "port.h"

/* As upstream: the minor is the port's number */
#define FPGA_PORT_DFL_MINORS	(MINORMASK + 1)

static dev_t fpga_port_dfl_devt;

/* The port an open of /dev/fpga-port.N or /dev/dfl-port.N is for */
struct fpga_port *fpga_port_of_inode(struct inode *inode)
{
	if (imajor(inode) == MAJOR(fpga_port_dfl_devt))
		return fpga_dfl_node_drvdata(inode->i_cdev);
	return container_of(inode->i_cdev, struct fpga_port, cdev);
}

void fpga_port_dfl_node_add(struct fpga_port *port, struct class *class,
			    const struct file_operations *fops)
{
	const struct fpga_dfl_node_info info = {
		.prefix	= "dfl-port",
		.devt	= fpga_port_dfl_devt,
		.minors	= FPGA_PORT_DFL_MINORS,
		.class	= class,
		.groups	= fpga_port_dfl_groups,
		.fops	= fops,
	};

	port->dfl_node = fpga_dfl_node_add(port->fdev, &info, port,
					   &port->chardev);
}

/* Before the hardware goes: no new opens through dfl-port.N */
void fpga_port_dfl_node_del(struct fpga_port *port)
{
	fpga_dfl_node_del(port->dfl_node);
	port->dfl_node = NULL;
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
