/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libfpga internals shared by its files */
#ifndef _LIBFPGA_FPGA_INT_H
#define _LIBFPGA_FPGA_INT_H

#include <stdbool.h>
#include <stddef.h>

/* snprintf that fails with -ENAMETOOLONG (no message) on truncation */
int fpga_pathf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Copy @src into @dst of @size, truncating */
void fpga_strcpy(char *dst, size_t size, const char *src);

/* The last path component of @path, ignoring trailing slashes */
void fpga_path_base(const char *path, char *out, size_t size);
/* /dev/PREFIXN (or @devnode if not NULL) and its device on the bus */
void fpga_ref_paths(const char *prefix, int id, const char *devnode,
		    char *dev, size_t dev_size, char *sysfs, size_t sysfs_size);

/*
 * Name of the card of sysfs device @dir (an FME or a port): its parent,
 * or the PCI function above the card's dfl-card.N; "" if unknown
 */
void fpga_sysfs_card_name(const char *dir, char *out, size_t size);
/* SSSS:BB:DD.F or BB:DD.F (hex): true, and the full form into @full */
bool fpga_is_pci_addr(const char *s, char *full, size_t size);

/* What finding a port or an FME by a path needs to know of it */
struct fpga_kind {
	const char *what;		/* "port": "not an FPGA port device" */
	const char *a_what;		/* "a port": "not a port in sysfs" */
	const char *number;		/* "'x' is not a port number" */
	const char *forms;		/* the names it takes, for a message */
	const char *expect;		/* "fpga-port.N or .../dfl-port.N" */
	const char *driver;		/* "is the port driver loaded?" */
	int (*parse)(const char *name, int *id);	/* its names */
	/* A node whose sysfs device (@real) has another name; may change it */
	int (*other_node)(char *real, int *id);
};

/*
 * @spec naming a port or an FME (@k): a number N, one of its names, a
 * sysfs path ending in one or a character device node of one.  Its
 * number into *@id; *@own_node tells whether @spec is the device's own
 * node.  -EINVAL (with a message) when @spec is none of those.
 */
int fpga_lookup(const struct fpga_kind *k, const char *spec, int *id,
		bool *own_node);

#endif /* _LIBFPGA_FPGA_INT_H */
