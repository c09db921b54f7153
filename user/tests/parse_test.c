// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of libfpga's parsing helpers and port name lookup; no FPGA,
 * no sysfs needed.  Prints KTAP; exits 0 when everything passes.
 * Run it under valgrind too ("make -C user valgrind").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fpga.h"
#include "fpga-int.h"
#include "ktap.h"

static void u64_ok(const char *s, uint64_t want)
{
	uint64_t v = ~want;

	check(!fpga_parse_u64(s, &v) && v == want, "u64 parses", s);
}

static void u64_bad(const char *s, int err)
{
	uint64_t v = 12345;

	check(fpga_parse_u64(s, &v) == -err && v == 12345 &&
	      strstr(fpga_errmsg(), s), "u64 rejects", s);
}

static void size_ok(const char *s, uint64_t want)
{
	uint64_t v = ~want;

	check(!fpga_parse_size(s, &v) && v == want, "size parses", s);
}

static void size_bad(const char *s, int err)
{
	uint64_t v;

	check(fpga_parse_size(s, &v) == -err, "size rejects", s);
}

static void range_ok(const char *s, uint64_t off, uint64_t len, bool has)
{
	uint64_t o = 1, l = 1;
	bool h = !has;

	check(!fpga_parse_range(s, &o, &l, &h) && o == off && h == has &&
	      (!has || l == len), "range parses", s);
}

static void range_bad(const char *s)
{
	uint64_t o, l;
	bool h;

	check(fpga_parse_range(s, &o, &l, &h) < 0, "range rejects", s);
}

static void name_ok(const char *s, const char *prefix, int want)
{
	int id = -1;

	check(!fpga_parse_dev_name(s, prefix, &id) && id == want,
	      "device name parses", s);
}

static void name_bad(const char *s, const char *prefix)
{
	int id;

	check(fpga_parse_dev_name(s, prefix, &id) < 0, "device name rejects", s);
}

static void port_ok(const char *s, int want)
{
	struct fpga_port_ref ref;
	char dev[64];

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", want);
	check(!fpga_port_lookup(s, &ref) && ref.id == want &&
	      !strcmp(ref.devnode, dev) &&
	      strstr(ref.sysfs, "/bus/fpga_dfl/devices/fpga-port."),
	      "port lookup", s);
}

static void port_bad(const char *s, int err, const char *msg)
{
	struct fpga_port_ref ref;

	check(fpga_port_lookup(s, &ref) == -err && strstr(fpga_errmsg(), msg),
	      "port lookup rejects", s);
}

/* A link at @path to @target must name card @want */
static void card_name_is(const char *path, const char *target,
			 const char *want, const char *what)
{
	char card[64] = "";

	if (symlink(target, path)) {
		check(0, what, strerror(errno));
		return;
	}
	fpga_sysfs_card_name(path, card, sizeof(card));
	check(!strcmp(card, want), what, card);
}

/*
 * The card's name from a bus link: the link's own text when its tail is
 * plain names (so a link to nowhere still names its card, where
 * realpath() would fail), else the resolved path
 */
static void card_names(void)
{
	static const char *const dirs[] = {
		"devices", "devices/fpga_sim9", "devices/fpga_sim9/sub",
		"devices/fpga_sim9/fpga-port.2",
	};
	char dir[] = "/tmp/parse_test.XXXXXX", path[256];
	size_t i;

	if (!mkdtemp(dir)) {
		check(0, "card name", "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/sim", dir);
	card_name_is(path, "../../../devices/fpga_sim77/fpga-port.5",
		     "fpga_sim77", "card name from the link");

	snprintf(path, sizeof(path), "%s/pci", dir);
	card_name_is(path,
		     "../../../devices/pci0000:00/0000:3b:00.0/dfl-card.0/fpga-port.1",
		     "0000:3b:00.0", "card name above dfl-card.N");

	/* .. in the tail: the parent is where the link really leads */
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		if (mkdir(path, 0755))
			check(0, "card name through ..", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/dots", dir);
	card_name_is(path, "devices/fpga_sim9/sub/../fpga-port.2",
		     "fpga_sim9", "card name through ..");

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	check(!system(path), "card name", "clean up");
}

int main(void)
{
	/* no sysfs paths in here depend on the machine */
	unsetenv("FPGA_SYSFS_ROOT");
	printf("TAP version 13\n");

	u64_ok("0", 0);
	u64_ok("42", 42);
	u64_ok("0x10", 16);
	u64_ok("0X1f", 31);
	u64_ok("010", 8);
	u64_ok("18446744073709551615", UINT64_MAX);
	u64_ok("0xffffffffffffffff", UINT64_MAX);
	u64_bad("", EINVAL);
	u64_bad("abc", EINVAL);
	u64_bad("12abc", EINVAL);
	u64_bad("-1", EINVAL);
	u64_bad("+1", EINVAL);
	u64_bad(" 1", EINVAL);
	u64_bad("1 ", EINVAL);
	u64_bad("0x", EINVAL);
	u64_bad("08", EINVAL);
	u64_bad("18446744073709551616", ERANGE);
	u64_bad("0x10000000000000000", ERANGE);

	{
		uint64_t v;

		check(fpga_parse_u64_max("4", 4, &v) == 0 && v == 4,
		      "u64 at its maximum", "4");
		check(fpga_parse_u64_max("5", 4, &v) == -ERANGE &&
		      strstr(fpga_errmsg(), "at most 4"),
		      "u64 above its maximum", "5");
		check(fpga_parse_u64(NULL, &v) == -EINVAL, "u64 rejects", "NULL");
	}

	size_ok("64", 64);
	size_ok("4K", 4096);
	size_ok("4k", 4096);
	size_ok("1M", 1 << 20);
	size_ok("64M", 64ULL << 20);
	size_ok("2G", 2ULL << 30);
	size_ok("0x10K", 16 << 10);
	size_ok("16777215G", 16777215ULL << 30);
	size_bad("K", EINVAL);
	size_bad("4KB", EINVAL);
	size_bad("4T", EINVAL);
	size_bad("-4K", EINVAL);
	size_bad("", EINVAL);
	size_bad("17179869184G", ERANGE);

	range_ok("0", 0, 0, false);
	range_ok("0x100", 0x100, 0, false);
	range_ok("0x100+0x40", 0x100, 0x40, true);
	range_ok("8+4K", 8, 4096, true);
	range_bad("+8");
	range_bad("8+");
	range_bad("8+x");
	range_bad("x+8");
	range_bad("0x1000000000000000000000000000000000+8");

	name_ok("fpga-port.0", FPGA_PORT_PREFIX, 0);
	name_ok("fpga-port.12", FPGA_PORT_PREFIX, 12);
	name_ok("fpga-fme.3", FPGA_FME_PREFIX, 3);
	name_bad("fpga-port.", FPGA_PORT_PREFIX);
	name_bad("fpga-port.01", FPGA_PORT_PREFIX);
	name_bad("fpga-port.1a", FPGA_PORT_PREFIX);
	name_bad("fpga-port.0x1", FPGA_PORT_PREFIX);
	name_bad("fpga-port.-1", FPGA_PORT_PREFIX);
	name_bad("fpga-port.2147483648", FPGA_PORT_PREFIX);
	name_bad("fpga-fme.1", FPGA_PORT_PREFIX);
	name_bad("port.1", FPGA_PORT_PREFIX);

	port_ok("0", 0);
	port_ok("7", 7);
	port_ok("0x7", 7);
	port_ok("fpga-port.3", 3);
	port_ok("dfl-port.3", 3);
	port_ok("2147483647", 2147483647);
	port_bad("", EINVAL, "empty");
	port_bad("2147483648", EINVAL, "not a port number");
	port_bad("3x", EINVAL, "not a port number");
	port_bad("port3", EINVAL, "is not a port");
	port_bad("fpga-fme.0", EINVAL, "is not a port");
	port_bad("dfl-fme.0", EINVAL, "is not a port");
	port_bad("dfl-port.03", EINVAL, "is not a port");
	port_bad("/sys/class/fpga_region/region0/dfl-fme.0", EINVAL,
		 "is not a port in sysfs");
	port_bad("/sys/bus/fpga_dfl/devices/fpga-fme.0", EINVAL,
		 "not a port in sysfs");
	port_bad("/nonexistent/fpga-port.9", ENOENT,
		 "is the port driver loaded?");
	port_bad("/nonexistent/other", ENOENT, "No such file");
	port_bad("/", ENODEV, "not a character device");
	port_bad("/dev/null", ENODEV, "not an FPGA port device");

	card_names();

	check(fpga_set_error(EBUSY, "x %d", 1) == -EBUSY &&
	      fpga_errno() == EBUSY && !strcmp(fpga_errmsg(), "x 1"),
	      "error message and errno are kept", "x 1");

	return ktap_done();
}
