/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PCI DFL cards in the test VM: QEMU ivshmem-plain devices whose BAR 2 is
 * an image written by scripts/images/dfl-image.  Find them by the name in the
 * image's control block, reach the control block of the host model
 * (scripts/images/dfl-model), and find the FME and ports made of a card.
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

/* Control block at the end of the image (scripts/images/dfl-image) */
#define CTL_SIZE	0x1000
#define CTL_MAGIC	0x4c444f4d4c464400ULL
#define CTL_POLL_US	0x60
#define CTL_NAME	0x80
/* The model's knob: the last 32 bytes of port 0's AFU */
#define KNOB_STOP(afu_size)	((afu_size) - 0x20)
#define KNOB_STATE(afu_size)	((afu_size) - 0x18)
#define KNOB_DOORBELL(afu_size)	((afu_size) - 0x10)	/* BIT(k): vector k */
#define MODEL_RUNNING	1
#define MODEL_STOPPED	2

/**
 * struct pci_card - one ivshmem card
 * @bdf:	PCI address ("0000:00:10.0")
 */
struct pci_card {
	char bdf[32];
};

/*
 * The control block at the end of the image in BAR 2 of @bdf, mapped with
 * @prot; *@map and *@size to unmap it.  Only while no driver holds the
 * BAR: with one bound, the kernel refuses (and revokes) user mappings of
 * it (CONFIG_IO_STRICT_DEVMEM).  NULL with errno set on failure.
 */
static inline volatile uint8_t *pci_ctl_map(const char *bdf, int prot,
					    void **map, size_t *size)
{
	char path[256];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), PCI_DEVICES "/%.31s/resource2", bdf);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < 2 * CTL_SIZE) {
		close(fd);
		errno = ENODEV;
		return NULL;
	}
	*size = st.st_size;
	*map = mmap(NULL, *size, prot, MAP_SHARED, fd, 0);
	close(fd);
	if (*map == MAP_FAILED)
		return NULL;
	return (volatile uint8_t *)*map + *size - CTL_SIZE;
}

/* Does the image in BAR 2 of @bdf carry the name @name?  0 or -errno */
static inline int pci_image_named(const char *bdf, const char *name)
{
	volatile uint8_t *ctl;
	size_t size;
	void *map;
	int ret;

	ctl = pci_ctl_map(bdf, PROT_READ, &map, &size);
	if (!ctl)
		return -errno;
	ret = *(volatile uint64_t *)ctl == CTL_MAGIC &&
	      !strncmp((const char *)ctl + CTL_NAME, name, 64);
	munmap(map, size);
	return ret ? 0 : -ENOENT;
}

/*
 * Ask the host model for a pass every @us microseconds (0: its default of
 * 1 ms), through BAR 2 of @bdf while no driver holds it; 0 or -errno.
 */
static inline int pci_model_poll_us(const char *bdf, uint64_t us)
{
	volatile uint8_t *ctl;
	size_t size;
	void *map;

	ctl = pci_ctl_map(bdf, PROT_READ | PROT_WRITE, &map, &size);
	if (!ctl)
		return -errno;
	*(volatile uint64_t *)(ctl + CTL_POLL_US) = us;
	munmap(map, size);
	return 0;
}

/* How many ivshmem functions (plain or doorbell) the VM has */
static inline int pci_ivshmem_count(void)
{
	char path[300], id[32];
	struct dirent *de;
	DIR *d = opendir(PCI_DEVICES);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), PCI_DEVICES "/%.64s/device",
			 de->d_name);
		if (!sysfs_read(path, id, sizeof(id)) && !strcmp(id, "0x1110"))
			n++;
	}
	closedir(d);
	return n;
}

/* Find the unbound ivshmem card whose image is named @name; 0 or -ENOENT */
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
		    pci_image_named(de->d_name, name))
			continue;
		snprintf(c->bdf, sizeof(c->bdf), "%s", de->d_name);
		closedir(d);
		return 0;
	}
	closedir(d);
	return -ENOENT;
}

/*
 * Stop (1) or resume (0) the host model through the knob in port 0's AFU
 * (@afu: the port's AFU region mapped read-write, @size its size), and wait
 * up to 5 s for it to say so; 0 or -ETIMEDOUT.
 */
static inline int pci_model_stop(volatile uint64_t *afu, size_t size, int stop)
{
	uint64_t want = stop ? MODEL_STOPPED : MODEL_RUNNING;
	int i;

	afu[KNOB_STATE(size) / 8] = 0;
	afu[KNOB_STOP(size) / 8] = stop;
	for (i = 0; i < 500; i++) {
		if (afu[KNOB_STATE(size) / 8] == want)
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

/*
 * Numbers N of the card's FIUs @prefix.N (in its dfl-card.M directories,
 * one per DFL) into @nums, at most @max; how many, or -errno
 */
static inline int pci_fiu_nums(struct pci_card *c, const char *prefix,
			       int *nums, int max)
{
	char dir[128], sub[400];
	struct dirent *de, *fe;
	DIR *d, *f;
	int n = 0;

	snprintf(dir, sizeof(dir), PCI_DEVICES "/%s", c->bdf);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "dfl-card.", 9))
			continue;
		snprintf(sub, sizeof(sub), "%s/%.64s", dir, de->d_name);
		f = opendir(sub);
		if (!f)
			continue;
		while ((fe = readdir(f)) && n < max)
			if (!strncmp(fe->d_name, prefix, strlen(prefix)))
				nums[n++] = atoi(fe->d_name + strlen(prefix));
		closedir(f);
	}
	closedir(d);
	return n;
}

/* Number N of the @index-th FIU @prefix.N of the card, or -ENOENT */
static inline int pci_child_at(struct pci_card *c, const char *prefix,
			       unsigned int index)
{
	int nums[8], n, i, j, t;

	n = pci_fiu_nums(c, prefix, nums, 8);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (nums[j] < nums[i]) {
				t = nums[i];
				nums[i] = nums[j];
				nums[j] = t;
			}
	return index < (unsigned int)n ? nums[index] : -ENOENT;
}

/* Number of the card's FIUs named @prefix.N */
static inline int pci_children(struct pci_card *c, const char *prefix)
{
	int nums[8];

	return pci_fiu_nums(c, prefix, nums, 8);
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
