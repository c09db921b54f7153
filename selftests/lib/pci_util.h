/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PCI DFL cards in the test VM: QEMU ivshmem-plain devices whose BAR 2 is
 * an image written by scripts/dfl-image.  Find them by the name in the
 * image's control block, reach the control block of the host model
 * (scripts/vm/dfl-model), and find the FME and ports made of a card.
 */
#ifndef _FPGA_SELFTEST_PCI_UTIL_H
#define _FPGA_SELFTEST_PCI_UTIL_H

#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

#include "sysfs_util.h"

#define PCI_DEVICES	"/sys/bus/pci/devices"
#define PCI_DRIVER	"/sys/bus/pci/drivers/fpga_dfl_pci"
#define IVSHMEM_ID	"1af4 1110"

/* Control block at the end of the image (scripts/dfl-image) */
#define CTL_SIZE	0x1000
#define CTL_MAGIC	0x4c444f4d4c464400ULL
#define CTL_STOP	0x08
#define CTL_STATE	0x10
#define CTL_BEAT	0x18
#define CTL_NAME	0x80
#define CTL_RUNNING	1
#define CTL_STOPPED	2

/**
 * struct pci_card - one ivshmem card
 * @bdf:	PCI address ("0000:00:10.0")
 * @bar:	BAR 2 mapped from sysfs (resource2)
 * @size:	its size
 * @ctl:	the control block in it
 */
struct pci_card {
	char bdf[32];
	volatile uint8_t *bar;
	size_t size;
	volatile uint64_t *ctl;
};

static inline int pci_card_map(struct pci_card *c, const char *bdf)
{
	char path[256];
	struct stat st;
	int fd;

	snprintf(c->bdf, sizeof(c->bdf), "%.31s", bdf);
	snprintf(path, sizeof(path), PCI_DEVICES "/%.31s/resource2", bdf);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < 2 * CTL_SIZE) {
		close(fd);
		return -ENODEV;
	}
	c->size = st.st_size;
	c->bar = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (c->bar == MAP_FAILED)
		return -errno;
	c->ctl = (volatile uint64_t *)(c->bar + c->size - CTL_SIZE);
	if (c->ctl[0] != CTL_MAGIC) {
		munmap((void *)c->bar, c->size);
		return -ENODEV;
	}
	return 0;
}

static inline void pci_card_unmap(struct pci_card *c)
{
	if (c->bar && c->bar != MAP_FAILED)
		munmap((void *)c->bar, c->size);
	c->bar = NULL;
}

/* Map the ivshmem card whose image is named @name; 0 or -ENOENT */
static inline int pci_card_find(struct pci_card *c, const char *name)
{
	char path[300], id[32];
	struct dirent *de;
	DIR *d = opendir(PCI_DEVICES);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), PCI_DEVICES "/%.64s/device",
			 de->d_name);
		if (sysfs_read(path, id, sizeof(id)) || strcmp(id, "0x1110"))
			continue;
		if (strlen(de->d_name) >= sizeof(c->bdf) ||
		    pci_card_map(c, de->d_name))
			continue;
		if (!strncmp((const char *)c->ctl + CTL_NAME, name, 64)) {
			closedir(d);
			return 0;
		}
		pci_card_unmap(c);
	}
	closedir(d);
	return -ENOENT;
}

/* Wait up to 5 s for the model to say @state; 0 or -ETIMEDOUT */
static inline int pci_model_wait(struct pci_card *c, uint64_t state)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (c->ctl[CTL_STATE / 8] == state)
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/* Stop (1) or resume (0) the host model of card @c, and wait for it */
static inline int pci_model_stop(struct pci_card *c, int stop)
{
	c->ctl[CTL_STATE / 8] = 0;
	c->ctl[CTL_STOP / 8] = stop;
	return pci_model_wait(c, stop ? CTL_STOPPED : CTL_RUNNING);
}

/* Number N of the @index-th child @prefix.N of the card, or -ENOENT */
static inline int pci_child_at(struct pci_card *c, const char *prefix,
			       unsigned int index)
{
	int nums[8], n = 0, i, j, t;
	char dir[128];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", c->bdf);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 8)
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			nums[n++] = atoi(de->d_name + strlen(prefix));
	closedir(d);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (nums[j] < nums[i]) {
				t = nums[i];
				nums[i] = nums[j];
				nums[j] = t;
			}
	return index < (unsigned int)n ? nums[index] : -ENOENT;
}

static inline int pci_children(struct pci_card *c, const char *prefix)
{
	char dir[128];

	snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", c->bdf);
	return count_entries(dir, prefix);
}

static inline int pci_bind(struct pci_card *c)
{
	return sysfs_write(PCI_DRIVER "/bind", c->bdf);
}

/* Unbind if bound; 0 or -errno */
static inline int pci_unbind(struct pci_card *c)
{
	char path[256];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", c->bdf);
	if (!path_exists(path))
		return 0;
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver/unbind", c->bdf);
	return sysfs_write(path, c->bdf);
}

#endif /* _FPGA_SELFTEST_PCI_UTIL_H */
