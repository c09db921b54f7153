// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga FMEs: finding one from what a user typed, its PR interface id
 * (compat_id) and PR errors, partial reconfiguration of a port through
 * DFL_FPGA_FME_PORT_PR, and finding the port again afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fpga.h"
#include "fpga-int.h"

#define FPGA_FME_DFL_PREFIX	"dfl-fme."

static void fpga_fme_ref_fill(struct fpga_fme_ref *ref, int id,
			      const char *devnode)
{
	ref->id = id;
	snprintf(ref->name, sizeof(ref->name), FPGA_FME_PREFIX "%d", id);
	fpga_ref_paths(FPGA_FME_PREFIX, id, devnode, ref->devnode,
		       sizeof(ref->devnode), ref->sysfs, sizeof(ref->sysfs));
}

/* "fpga-fme.N", "dfl-fme.N", "fpga_pmu_N" (the card's PMU): N */
static int fpga_fme_parse_name(const char *name, int *id)
{
	uint64_t v;

	if (!fpga_parse_dev_name(name, FPGA_FME_PREFIX, id) ||
	    !fpga_parse_dev_name(name, FPGA_FME_DFL_PREFIX, id))
		return 0;
	if (!strncmp(name, "fpga_pmu_", 9) &&
	    !fpga_parse_u64_max(name + 9, INT_MAX, &v)) {
		*id = (int)v;
		return 0;
	}
	return -EINVAL;
}

/* The FME under a PCI function: in its dfl-card.N, or in its regions */
static int fpga_fme_lookup_pci(const char *spec, struct fpga_fme_ref *ref)
{
	static const char *const pats[] = {
		"%s/bus/pci/devices/%s/" FPGA_CARD_DIR_PREFIX "*/" FPGA_FME_PREFIX "*",
		"%s/bus/pci/devices/%s/fpga_region/region*/" FPGA_FME_DFL_PREFIX "*",
	};
	char pat[PATH_MAX], name[NAME_MAX + 1];
	glob_t g;
	int id = -1, n;

	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]) && id < 0; i++) {
		if (fpga_pathf(pat, sizeof(pat), pats[i], fpga_sysfs_root(), spec))
			return fpga_set_error(ENAMETOOLONG, "%s: name too long", spec);
		if (glob(pat, 0, NULL, &g))
			continue;
		if (g.gl_pathc > 1) {
			globfree(&g);
			return fpga_set_error(EINVAL, "PCI function %s has more than one FME: name one (see 'fpgactl list')",
					      spec);
		}
		fpga_path_base(g.gl_pathv[0], name, sizeof(name));
		n = fpga_fme_parse_name(name, &id);
		globfree(&g);
		if (n)
			id = -1;
	}
	if (id < 0)
		return fpga_set_error(ENODEV, "PCI function %s has no FME (is it a DFL card, is fpga_fme loaded?)",
				      spec);
	fpga_fme_ref_fill(ref, id, NULL);
	return 0;
}

bool fpga_is_pci_addr(const char *s, char *full, size_t size)
{
	unsigned int dom = 0, bus, dev, fn;
	char end;

	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) != 4) {
		dom = 0;
		if (sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &end) != 3)
			return false;
	}
	if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return false;
	snprintf(full, size, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return true;
}

static const struct fpga_kind fpga_fme_kind = {
	.what = "FME",
	.a_what = "an FME",
	.number = "card number",
	.forms = "a card number N, fpga-fme.N, dfl-fme.N, fpga_simID, a PCI address, /dev/fpga-fme.N or a sysfs path",
	.expect = "fpga-fme.N or .../dfl-fme.N",
	.driver = "fpga_fme",
	.parse = fpga_fme_parse_name,
};

int fpga_fme_lookup(const char *spec, struct fpga_fme_ref *ref)
{
	bool own_node;
	char pci[32];
	uint64_t v;
	int id, ret;

	memset(ref, 0, sizeof(*ref));
	if (spec && strlen(spec) >= PATH_MAX)
		return fpga_set_error(EINVAL, "'%.32s...' is too long", spec);
	/* fpga_simID: a simulated card */
	if (spec && !strncmp(spec, "fpga_sim", 8) &&
	    !fpga_parse_u64_max(spec + 8, FPGA_SIM_MAX_ID, &v)) {
		ret = fpga_sim_fme(v);
		if (ret < 0)
			return ret;
		fpga_fme_ref_fill(ref, ret, NULL);
		return 0;
	}
	if (spec && fpga_is_pci_addr(spec, pci, sizeof(pci)))
		return fpga_fme_lookup_pci(pci, ref);
	/* N: the FME of card N, a name, a path */
	ret = fpga_lookup(&fpga_fme_kind, spec, &id, &own_node);
	if (ret)
		return ret;
	fpga_fme_ref_fill(ref, id, own_node ? spec : NULL);
	return 0;
}

/* The first match of @pattern into @path; -ENOENT if none */
static int fpga_glob_first(const char *pattern, char *path, size_t size)
{
	glob_t g;
	int ret;

	if (glob(pattern, 0, NULL, &g))
		return -ENOENT;
	ret = fpga_pathf(path, size, "%s", g.gl_pathv[0]);
	globfree(&g);
	return ret;
}

/*
 * @rel below the FME's directory: ours (fpga-fme.N), else upstream's
 * (dfl-fme.N in its region), which may hold what ours does not
 */
static int fpga_fme_find(const struct fpga_fme_ref *ref, const char *rel,
			 char *path, size_t size)
{
	char pat[PATH_MAX];

	if (!fpga_pathf(pat, sizeof(pat), "%s/%s", ref->sysfs, rel) &&
	    !fpga_glob_first(pat, path, size))
		return 0;
	if (!fpga_pathf(pat, sizeof(pat),
			"%s/class/fpga_region/region*/" FPGA_FME_DFL_PREFIX "%d/%s",
			fpga_sysfs_root(), ref->id, rel) &&
	    !fpga_glob_first(pat, path, size))
		return 0;
	return -ENOENT;
}

static int fpga_fme_exists(const struct fpga_fme_ref *ref)
{
	struct stat st;

	if (stat(ref->sysfs, &st))
		return fpga_set_error(ENODEV, "%s: no such FME (see 'fpgactl list')",
				      ref->name);
	return 0;
}

int fpga_fme_interface_id(const struct fpga_fme_ref *ref,
			  uint8_t id[FPGA_UUID_SIZE])
{
	char path[PATH_MAX], buf[64];
	int ret;

	ret = fpga_fme_exists(ref);
	if (ret)
		return ret;
	if (fpga_fme_find(ref, "dfl-fme-region.*/fpga_region/region*/compat_id",
			  path, sizeof(path)))
		return fpga_set_error(ENOENT, "%s has no PR interface id (no compat_id: the FME does not do partial reconfiguration, or fpga_fme is not loaded)",
				      ref->name);
	ret = fpga_sysfs_read(path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (strlen(buf) != 32 || fpga_uuid_parse(buf, id))
		return fpga_set_error(EPROTO, "%s: unexpected content '%s'",
				      path, buf);
	return 0;
}

int fpga_fme_pr_errors(const struct fpga_fme_ref *ref, uint64_t *pr_err)
{
	char path[PATH_MAX];
	int ret;

	ret = fpga_fme_exists(ref);
	if (ret)
		return ret;
	if (fpga_fme_find(ref, "errors/pr_err", path, sizeof(path)))
		return fpga_set_error(ENOENT, "%s: no errors/pr_err in sysfs",
				      ref->name);
	return fpga_sysfs_read_u64(path, pr_err);
}

const struct fpga_bit_name fpga_pr_err_bits[] = {
	{ 1ULL << 0, "operation", "PR operation error" },
	{ 1ULL << 1, "crc", "PR CRC error" },
	{ 1ULL << 2, "incompatible_bitstream", "PR incompatible bitstream" },
	{ 1ULL << 3, "protocol", "PR IP protocol error" },
	{ 1ULL << 4, "fifo_overflow", "PR FIFO overflow" },
	{ 1ULL << 5, "timeout", "PR timeout" },
	{ 1ULL << 6, "secure_load", "PR secure load error" },
	{ 0, NULL, NULL }
};

int fpga_fme_pr(const struct fpga_fme_ref *ref, unsigned int port,
		const void *buf, size_t size)
{
	struct dfl_fpga_fme_port_pr pr = {
		.argsz = sizeof(pr),
		.flags = 0,
		.port_id = port,
		.buffer_size = (uint32_t)size,
		.buffer_address = (uint64_t)(uintptr_t)buf,
	};
	const char *why;
	int fd, err;

	if (!size || size % 4 || size > UINT32_MAX)
		return fpga_set_error(EINVAL, "a bitstream of %zu bytes: the FME takes a multiple of 4 bytes, 4 to 4G",
				      size);
	fd = open(ref->devnode, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT)
			return fpga_set_error(err, "%s: %s (is fpga_fme loaded?)",
					      ref->devnode, strerror(err));
		if (err == EACCES || err == EPERM)
			return fpga_set_error(err, "%s: %s (partial reconfiguration needs write access: group fpga, or root)",
					      ref->devnode, strerror(err));
		return fpga_set_error(err, "%s: %s", ref->devnode, strerror(err));
	}
	if (!ioctl(fd, DFL_FPGA_FME_PORT_PR, &pr)) {
		close(fd);
		return 0;
	}
	err = errno;
	close(fd);
	switch (err) {
	case EINVAL:
		why = " (the port or the bitstream's size, or a kernel without partial reconfiguration)";
		break;
	case EBUSY:
		why = " (another programming of this FME is in progress)";
		break;
	case EIO:
		why = " (the card refused the bitstream)";
		break;
	case ETIMEDOUT:
		why = " (the card did not finish)";
		break;
	case ENODEV:
		why = " (the FME is gone)";
		break;
	case EPERM:
	case EACCES:
		why = " (partial reconfiguration needs CAP_SYS_ADMIN or write access)";
		break;
	case ENOTTY:
		why = " (the FME does not do partial reconfiguration)";
		break;
	default:
		why = "";
	}
	return fpga_set_error(err, "%s: port %u: DFL_FPGA_FME_PORT_PR: %s%s",
			      ref->name, port, strerror(err), why);
}

/* fpga-port.N of card @card that is port @port on it, bound; 0 or -ENOENT */
static int fpga_port_on_card(int card, unsigned int port,
			     struct fpga_dev_info *info)
{
	struct fpga_dev_info *devs;
	char path[PATH_MAX];
	int ret = -ENOENT;
	size_t n;
	bool bus;
	uint64_t v;

	if (fpga_dev_list(&devs, &n, &bus))
		return -ENOENT;
	for (size_t i = 0; i < n && ret; i++) {
		if (devs[i].type != FPGA_DEV_PORT || devs[i].card_id != card ||
		    !devs[i].afu_id[0])
			continue;
		if (fpga_pathf(path, sizeof(path), "%s" FPGA_SYSFS_BUS "/%s/id",
			       fpga_sysfs_root(), devs[i].name) ||
		    fpga_sysfs_read_u64(path, &v) || v != port)
			continue;
		*info = devs[i];
		ret = 0;
	}
	free(devs);
	return ret;
}

int fpga_fme_card(const struct fpga_fme_ref *ref)
{
	char path[PATH_MAX];
	uint64_t v;

	if (fpga_pathf(path, sizeof(path), "%s/card_id", ref->sysfs) ||
	    fpga_sysfs_read_u64(path, &v) || v > INT_MAX)
		return ref->id;	/* fpga-fme.N is the FME of card N */
	return (int)v;
}

int fpga_port_wait(int card, unsigned int port, const char *afu_id,
		   unsigned int timeout_ms, struct fpga_dev_info *info)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	unsigned int waited = 0;
	bool found = false;

	for (;;) {
		if (!fpga_port_on_card(card, port, info)) {
			found = true;
			if (!afu_id || !strcmp(info->afu_id, afu_id))
				return 0;
		}
		if (waited >= timeout_ms)
			break;
		nanosleep(&tick, NULL);
		waited += 20;
	}
	if (found)
		return fpga_set_error(EPROTO, "port %u of card %d (%s) has AFU %s, not %s",
				      port, card, info->name, info->afu_id,
				      afu_id);
	return fpga_set_error(ETIMEDOUT, "port %u of card %d did not come back with a driver within %u ms (see 'fpgactl list')",
			      port, card, timeout_ms);
}
