// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga cards: what a card has besides its FME and ports, as sysfs
 * shows it: its PCI function, the counter bank under its FME and the
 * FME's hwmon sensors.  None of this needs a device node.
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpga.h"
#include "fpga-int.h"

const char *const fpga_counter_events[FPGA_COUNTER_EVENTS] = {
	"dma_rd_bytes", "dma_wr_bytes", "dma_rd_lines", "dma_wr_lines",
	"user_irqs", "error_irqs", "resets", "dma_faults",
	"afu_busy_clocks",
};

/* The PCI address that @link (a sysfs symlink) points to; 0 or -ENOENT */
static int fpga_pci_link(const char *link, char *buf, size_t size)
{
	char real[PATH_MAX], name[NAME_MAX + 1];

	if (!realpath(link, real))
		return -ENOENT;
	fpga_path_base(real, name, sizeof(name));
	return fpga_is_pci_addr(name, buf, size) ? 0 : -ENOENT;
}

/*
 * The card's fpga_region holding the device under its upstream name
 * (fpga-port.N is regionK/dfl-port.N): the region's parent, the function
 */
static int fpga_pci_of_region(const char *dev_sysfs, char *buf, size_t size)
{
	char name[NAME_MAX + 1], pat[PATH_MAX];
	glob_t g;
	int ret = -ENOENT;

	fpga_path_base(dev_sysfs, name, sizeof(name));
	if (strncmp(name, "fpga-", 5) ||
	    fpga_pathf(pat, sizeof(pat), "%s/class/fpga_region/region*/dfl-%s",
		       fpga_sysfs_root(), name + 5))
		return -ENOENT;
	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	/* regionK/dfl-port.N/.. is regionK, whose device is the function */
	if (!fpga_pathf(pat, sizeof(pat), "%s/../device", g.gl_pathv[0]))
		ret = fpga_pci_link(pat, buf, size);
	globfree(&g);
	return ret;
}

int fpga_card_pci_addr(const char *dev_sysfs, char *buf, size_t size)
{
	char card[64], path[PATH_MAX];

	/* A PCI card: fpga_dfl_pci puts the card's devices under the function */
	fpga_sysfs_card_name(dev_sysfs, card, sizeof(card));
	if (card[0] && fpga_is_pci_addr(card, buf, size) && !strcmp(card, buf))
		return 0;
	/* A simulated card: its function on fpga_sim's own PCI bus */
	if (!fpga_pathf(path, sizeof(path), "%s/../pci_function", dev_sysfs) &&
	    !fpga_pci_link(path, buf, size))
		return 0;
	return fpga_pci_of_region(dev_sysfs, buf, size);
}

int fpga_fme_counter(const struct fpga_fme_ref *ref, const char *name,
		     uint64_t *val)
{
	char path[PATH_MAX];
	int ret;

	if (fpga_pathf(path, sizeof(path), "%s/counters/%s", ref->sysfs, name))
		return fpga_set_error(ENAMETOOLONG, "%s: counter name too long",
				      ref->name);
	ret = fpga_sysfs_read_u64(path, val);
	if (ret == -EACCES)
		return fpga_set_error(EACCES, "%s/counters: %s (the counter bank is root's)",
				      ref->name, strerror(EACCES));
	return ret == -ENOENT ? -ENOENT : ret;
}

/* ---- sensors ---- */

struct fpga_sensor_list {
	struct fpga_sensor *s;
	size_t n, cap;
	int err;		/* the last reading that failed, 0 if none */
};

/* A whole-string decimal, signed: temperatures go below 0 */
static int fpga_parse_s64(const char *s, int64_t *v)
{
	long long n;
	char *end;

	if (!*s || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
		return -EINVAL;
	errno = 0;
	n = strtoll(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*v = n;
	return 0;
}

static struct fpga_sensor *fpga_sensor_new(struct fpga_sensor_list *l)
{
	struct fpga_sensor *tmp;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;

		tmp = realloc(l->s, cap * sizeof(*tmp));
		if (!tmp)
			return NULL;
		l->s = tmp;
		l->cap = cap;
	}
	memset(&l->s[l->n], 0, sizeof(l->s[0]));
	return &l->s[l->n];
}

/*
 * @input (".../temp1_input") of hwmon device @chip: its value, its
 * label ("temp1_label") or else its stem as the name.  A file gone
 * meanwhile (the card went) is no failure.
 */
static void fpga_sensor_read(struct fpga_sensor_list *l, const char *chip,
			     enum fpga_sensor_kind kind, const char *input)
{
	char path[PATH_MAX], buf[64], stem[NAME_MAX + 1];
	struct fpga_sensor *s;
	int ret;

	ret = fpga_sysfs_read(input, buf, sizeof(buf));
	if (ret) {
		if (ret != -ENOENT && ret != -ENODEV)
			l->err = ret;
		return;
	}
	s = fpga_sensor_new(l);
	if (!s) {
		l->err = fpga_set_error(ENOMEM, "out of memory");
		return;
	}
	if (fpga_parse_s64(buf, &s->raw)) {
		l->err = fpga_set_error(EPROTO, "%s: unexpected content '%s'",
					input, buf);
		return;
	}
	s->kind = kind;
	fpga_strcpy(s->chip, sizeof(s->chip), chip);
	fpga_path_base(input, stem, sizeof(stem));
	*strrchr(stem, '_') = '\0';	/* the glob matched "_input" */
	if (fpga_pathf(path, sizeof(path), "%.*s_label",
		       (int)(strlen(input) - strlen("_input")), input) ||
	    fpga_sysfs_read(path, s->name, sizeof(s->name)) || !s->name[0])
		fpga_strcpy(s->name, sizeof(s->name), stem);
	l->n++;
}

/* Every reading of the hwmon device at @dir */
static void fpga_sensors_of_chip(struct fpga_sensor_list *l, const char *dir)
{
	static const struct {
		const char *pattern;
		enum fpga_sensor_kind kind;
	} files[] = {
		{ "temp*_input", FPGA_SENSOR_TEMP },
		{ "power*_input", FPGA_SENSOR_POWER },
	};
	char path[PATH_MAX], chip[32];
	glob_t g;

	if (fpga_pathf(path, sizeof(path), "%s/name", dir) ||
	    fpga_sysfs_read(path, chip, sizeof(chip)))
		return;		/* no hwmon device, or gone */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (fpga_pathf(path, sizeof(path), "%s/%s", dir,
			       files[i].pattern) ||
		    glob(path, 0, NULL, &g))
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++)
			fpga_sensor_read(l, chip, files[i].kind, g.gl_pathv[k]);
		globfree(&g);
	}
}

/* The hwmon devices matching @pattern, once each (links lead to them) */
static size_t fpga_sensors_glob(struct fpga_sensor_list *l, const char *pattern,
				const char *only_chip_prefix)
{
	char real[PATH_MAX], name[32], path[PATH_MAX];
	size_t found = 0;
	glob_t g;

	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (size_t k = 0; k < g.gl_pathc; k++) {
		if (!realpath(g.gl_pathv[k], real))
			continue;
		if (only_chip_prefix &&
		    (fpga_pathf(path, sizeof(path), "%s/name", real) ||
		     fpga_sysfs_read(path, name, sizeof(name)) ||
		     strncmp(name, only_chip_prefix, strlen(only_chip_prefix))))
			continue;
		fpga_sensors_of_chip(l, real);
		found++;
	}
	globfree(&g);
	return found;
}

static int fpga_sensor_cmp(const void *a, const void *b)
{
	const struct fpga_sensor *x = a, *y = b;
	int c = strcmp(x->chip, y->chip);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind == FPGA_SENSOR_TEMP ? -1 : 1;
	return strcmp(x->name, y->name);
}

int fpga_fme_sensors(const struct fpga_fme_ref *ref, struct fpga_sensor **list,
		     size_t *count)
{
	struct fpga_sensor_list l = { 0 };
	char pat[PATH_MAX], pci[32];
	size_t found = 0;

	*list = NULL;
	*count = 0;
	/* A card without a PCI function: under the FME itself */
	if (!fpga_pathf(pat, sizeof(pat), "%s/hwmon/hwmon*", ref->sysfs))
		found += fpga_sensors_glob(&l, pat, NULL);
	/* Under the function, linked from upstream's dfl-fme.N */
	if (!found &&
	    !fpga_pathf(pat, sizeof(pat),
			"%s/class/fpga_region/region*/dfl-fme.%d/hwmon/hwmon*",
			fpga_sysfs_root(), ref->id))
		found += fpga_sensors_glob(&l, pat, NULL);
	/* No regions (upstream's DFL drivers): the function's own, ours */
	if (!found && !fpga_card_pci_addr(ref->sysfs, pci, sizeof(pci)) &&
	    !fpga_pathf(pat, sizeof(pat), "%s/bus/pci/devices/%s/hwmon/hwmon*",
			fpga_sysfs_root(), pci))
		fpga_sensors_glob(&l, pat, "dfl_fme_");
	/*
	 * A board management controller's, beside the FME's own: behind its
	 * SPI master (feature 0xe; fpga_sim's board n3000), where OPAE's
	 * xfpga reads an N3000's (Documentation/opae.md)
	 */
	if (!fpga_pathf(pat, sizeof(pat),
			"%s/class/fpga_region/region*/dfl-fme.%d/dfl_dev.*/spi_master/spi*/spi*.0/*-hwmon.*/hwmon/hwmon*",
			fpga_sysfs_root(), ref->id))
		fpga_sensors_glob(&l, pat, NULL);
	if (l.n)
		qsort(l.s, l.n, sizeof(*l.s), fpga_sensor_cmp);
	else {
		free(l.s);
		l.s = NULL;
	}
	*list = l.s;
	*count = l.n;
	return l.err;
}
