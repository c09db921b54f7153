// SPDX-License-Identifier: GPL-2.0-only
/*
 * A simulated card of board n3000 (Documentation/sim-card.md, "Boards"):
 * its PCI function has Intel's N3000 ids and stays bound to fpga_sim_pci;
 * its FME's feature 0xe is an SPI controller with the BMC on it, whose
 * sensors are a hwmon device where OPAE's xfpga globs for an N3000's
 * (DFL_MAX10_SYSFS_PATH of its metrics_max10.h, under dfl-fme.N), every
 * directory on the way a real one; each *_label has its *_input, in range; the die
 * temperature follows the card's sensors/ambient; files open across the
 * card's removal (del_device, or its PCI function's) read ENODEV.  A
 * card of the default board has none of it, and new_device refuses a
 * board it does not know.
 */
#include <glob.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "perf_util.h"
#include "sim_util.h"

#define REGIONS		"/sys/class/fpga_region"
#define HWMON_CLASS	"/sys/class/hwmon"
#define SPI_CLASS	"/sys/class/spi_master"
#define SIM_AMBIENT	35

/* The sensors the BMC has, as fpga_fme labels them */
static const struct {
	const char *prefix;
	const char *label;
	long long min, max;	/* the card at rest, in 35 degree air */
} bmc_sensors[] = {
	{ "temp1", "FPGA Die Temperature", 40000, 50000 },
	{ "temp2", "Board Temperature", 36000, 45000 },
	{ "in0", "12V Backplane Voltage", 12000, 12000 },
	{ "curr1", "12V Backplane Current", 1000, 3000 },
	{ "power1", "Board Power", 15000000, 25000000 },
};

/* new_device with @words after the id; 0 or -errno */
static int sim_add_words(unsigned int id, const char *words)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%u %s", id, words);
	return sysfs_write(SIM_BUS "/new_device", buf);
}

/* The first match of @pat, sorted as glob() sorts, into @out */
static int glob_first(const char *pat, char *out, size_t size, size_t *count)
{
	glob_t g;
	int ret;

	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	ret = snprintf(out, size, "%s", g.gl_pathv[0]) < (int)size ?
	      0 : -ENAMETOOLONG;
	if (count)
		*count = g.gl_pathc;
	globfree(&g);
	return ret;
}

/* dfl-fme.@num under its region: the FME token's sysfs path in OPAE */
static int fme_dir(int num, char *out, size_t size)
{
	char pat[128];

	snprintf(pat, sizeof(pat), REGIONS "/region*/dfl-fme.%d", num);
	return glob_first(pat, out, size, NULL);
}

/*
 * What xfpga's find_glob_path() makes of metrics_max10.h's
 * DFL_MAX10_SYSFS_PATH: "/" "**" "/" is "*" "/" repeated one to five
 * times, glued to the component before it ("*spi**" "/" ... : in effect
 * zero to four more levels), and the first match, sorted, wins
 */
static int opae_bmc_hwmon(const char *fme, char *out, size_t size)
{
	char pat[PATH_MAX], stars[16] = "";
	int depth;

	for (depth = 1; depth <= 5; depth++) {
		strcat(stars, "*/");
		snprintf(pat, sizeof(pat),
			 "%s/*dfl_*/*spi*/*spi*%s*hwmon*/hwmon/hwmon*/", fme,
			 stars);
		if (!glob_first(pat, out, size, NULL))
			return 0;
	}
	return -ENOENT;
}

static long long file_num(const char *dir, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return sysfs_read_num(path);
}

/* Of the hwmon devices @pat matches, dfl_fme_thermal, into @out */
static int fme_thermal(const char *pat, char *out, size_t size)
{
	char path[PATH_MAX], name[64];
	int ret = -ENOENT;
	glob_t g;

	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	for (size_t i = 0; i < g.gl_pathc && ret; i++) {
		snprintf(path, sizeof(path), "%s/name", g.gl_pathv[i]);
		if (!sysfs_read(path, name, sizeof(name)) &&
		    !strcmp(name, "dfl_fme_thermal"))
			ret = snprintf(out, size, "%s", g.gl_pathv[i]) <
			      (int)size ? 0 : -ENAMETOOLONG;
	}
	globfree(&g);
	return ret;
}

FIXTURE(bmc) {
	unsigned int card;
	bool added;
	bool ready;
	int num;
	char sim[128];
	char fme[256];
	char hwmon[512];
};

FIXTURE_SETUP(bmc)
{
	if (!path_exists(HWMON_CLASS))
		SKIP(return, "the kernel has no hwmon (Debian's cloud flavour)");
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && "
			     "modprobe fpga_fme"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add_words(self->card, "1 board=n3000"));
	self->added = true;
	snprintf(self->sim, sizeof(self->sim), SIM_BUS "/devices/fpga_sim%u",
		 self->card);
	self->num = sim_card_number(self->card);
	ASSERT_GE(self->num, 0);
	ASSERT_EQ(0, fme_dir(self->num, self->fme, sizeof(self->fme)));
	if (!path_exists(SPI_CLASS))
		SKIP(return, "the kernel has no SPI: no BMC");
	ASSERT_EQ(0, opae_bmc_hwmon(self->fme, self->hwmon,
				    sizeof(self->hwmon)));
	self->ready = true;
}

#define NEED_BMC() do { \
	if (!self->ready) \
		SKIP(return, "no BMC on this kernel"); \
} while (0)

FIXTURE_TEARDOWN(bmc)
{
	if (self->added)
		sim_del(self->card);
	run_cmd("modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl");
}

static void fn_attr(const char *sim, const char *file, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/pci_function/%s", sim, file);
	if (sysfs_read(path, buf, size))
		snprintf(buf, size, "(unreadable)");
}

/* Intel's N3000 ids, and our driver bound all the same */
TEST_F(bmc, pci_ids)
{
	char buf[64], path[256], drv[PATH_MAX];

	fn_attr(self->sim, "vendor", buf, sizeof(buf));
	EXPECT_STREQ("0x8086", buf);
	fn_attr(self->sim, "device", buf, sizeof(buf));
	EXPECT_STREQ("0x0b30", buf);
	fn_attr(self->sim, "subsystem_vendor", buf, sizeof(buf));
	EXPECT_STREQ("0x8086", buf);
	fn_attr(self->sim, "subsystem_device", buf, sizeof(buf));
	EXPECT_STREQ("0x0b30", buf);
	fn_attr(self->sim, "driver_override", buf, sizeof(buf));
	EXPECT_STREQ("fpga_sim_pci", buf);
	snprintf(path, sizeof(path), "%s/pci_function/driver", self->sim);
	ASSERT_NE(NULL, realpath(path, drv));
	EXPECT_STREQ("fpga_sim_pci", strrchr(drv, '/') + 1);
	snprintf(path, sizeof(path), "%s/board", self->sim);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("n3000", buf);
}

/* The default board is the card it was; unknown boards are refused */
TEST_F(bmc, default_board)
{
	unsigned int other = self->card + 1000;
	char buf[64], path[300], fme[256], dir[128], found[PATH_MAX];
	int num;

	snprintf(dir, sizeof(dir), SIM_BUS "/devices/fpga_sim%u", other);
	EXPECT_EQ(-EINVAL, sim_add_words(other, "board=n3001"));
	EXPECT_EQ(-EINVAL, sim_add_words(other, "1 board=n3000 2"));
	EXPECT_EQ(-EINVAL, sim_add_words(other, "board=n3000 board=sim"));
	EXPECT_EQ(-EINVAL, sim_add_words(other, "1 2 board=n3000"));
	EXPECT_FALSE(path_exists(dir));

	ASSERT_EQ(0, sim_add_words(other, "1"));
	fn_attr(dir, "vendor", buf, sizeof(buf));
	EXPECT_STREQ("0x0000", buf);
	fn_attr(dir, "device", buf, sizeof(buf));
	EXPECT_STREQ("0xd5f1", buf);
	snprintf(path, sizeof(path), "%s/board", dir);
	EXPECT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("sim", buf);
	num = sim_card_number(other);
	EXPECT_GE(num, 0);
	if (num >= 0 && !fme_dir(num, fme, sizeof(fme))) {
		snprintf(path, sizeof(path), "%.240s/dfl_dev.*", fme);
		EXPECT_EQ(-ENOENT, glob_first(path, found, sizeof(found),
					      NULL));
	}
	EXPECT_EQ(0, sim_del(other));
}

/* Every component of OPAE's path is a directory of a real device */
TEST_F(bmc, opae_path)
{
	static const char *const parts[] = {
		"dfl_dev.", "spi_master", "spi", "spi", "simbmc-hwmon.",
		"hwmon", "hwmon",
	};
	char rel[PATH_MAX], *part, *save = NULL, name[64], label[PATH_MAX];
	size_t i = 0, count = 0;
	struct stat st;

	NEED_BMC();
	ASSERT_EQ(0, strncmp(self->hwmon, self->fme, strlen(self->fme)));
	snprintf(rel, sizeof(rel), "%s", self->hwmon + strlen(self->fme) + 1);
	printf("# %s\n", rel);
	for (part = strtok_r(rel, "/", &save); part;
	     part = strtok_r(NULL, "/", &save), i++) {
		ASSERT_LT(i, ARRAY_SIZE(parts));
		EXPECT_EQ(0, strncmp(part, parts[i], strlen(parts[i])));
	}
	EXPECT_EQ(ARRAY_SIZE(parts), i);

	/* No symlink on the way: lstat() of each prefix is a directory */
	snprintf(rel, sizeof(rel), "%s", self->hwmon);
	while (strlen(rel) > strlen(self->fme)) {
		EXPECT_EQ(0, lstat(rel, &st));
		EXPECT_TRUE(S_ISDIR(st.st_mode));
		*strrchr(rel, '/') = '\0';
		if (rel[strlen(rel) - 1] == '/')
			rel[strlen(rel) - 1] = '\0';
	}
	snprintf(rel, sizeof(rel), "%.500s/name", self->hwmon);
	ASSERT_EQ(0, sysfs_read(rel, name, sizeof(name)));
	EXPECT_STREQ("simbmc", name);
	/* xfpga takes every *_label there */
	snprintf(rel, sizeof(rel), "%.500s*_label", self->hwmon);
	ASSERT_EQ(0, glob_first(rel, label, sizeof(label), &count));
	EXPECT_EQ(ARRAY_SIZE(bmc_sensors), count);
}

/* Each label with its input, in range for a card at rest */
TEST_F(bmc, labels_and_inputs)
{
	char file[64], label[64];
	long long v;

	NEED_BMC();
	for (size_t i = 0; i < ARRAY_SIZE(bmc_sensors); i++) {
		char path[PATH_MAX];

		snprintf(file, sizeof(file), "%s_label", bmc_sensors[i].prefix);
		snprintf(path, sizeof(path), "%.500s%.60s", self->hwmon, file);
		EXPECT_EQ(0, sysfs_read(path, label, sizeof(label)));
		EXPECT_STREQ(bmc_sensors[i].label, label);
		snprintf(file, sizeof(file), "%s_input", bmc_sensors[i].prefix);
		v = file_num(self->hwmon, file);
		printf("# %s: %s = %lld\n", label, file, v);
		EXPECT_GE(v, bmc_sensors[i].min);
		EXPECT_LE(v, bmc_sensors[i].max);
	}
}

/* Read-only files anyone may read, as every hwmon device's */
TEST_F(bmc, modes)
{
	static const char *const suffix[] = { "_label", "_input" };
	char path[PATH_MAX];
	struct stat st;

	NEED_BMC();
	for (size_t i = 0; i < ARRAY_SIZE(bmc_sensors); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(suffix); j++) {
			snprintf(path, sizeof(path), "%.500s%s%s", self->hwmon,
				 bmc_sensors[i].prefix, suffix[j]);
			ASSERT_EQ(0, stat(path, &st));
			EXPECT_EQ(0444, st.st_mode & 0777);
			EXPECT_EQ(0, sysfs_as_nobody(path, NULL));
			EXPECT_NE(0, sysfs_write(path, "1"));
		}
	}
}

/* The die temperature is the FME's, and follows the air around the card */
TEST_F(bmc, follows_ambient)
{
	char ambient[256], fme_temp[PATH_MAX], pat[300];
	long long t0, t1, fme;

	NEED_BMC();
	snprintf(ambient, sizeof(ambient), "%s/sensors/ambient", self->sim);
	ASSERT_EQ(SIM_AMBIENT, sysfs_read_num(ambient));
	t0 = file_num(self->hwmon, "temp1_input");
	ASSERT_EQ(0, sysfs_write(ambient, "60"));
	t1 = file_num(self->hwmon, "temp1_input");
	/* Idle, the heat stays where it was: 25 degrees more, to the m°C */
	EXPECT_LE(llabs(t1 - t0 - 25000), 200);
	EXPECT_GE(file_num(self->hwmon, "temp2_input"), 60000);

	/* The FME's own sensor says the same, in whole degrees */
	snprintf(pat, sizeof(pat), "%s/hwmon/hwmon*", self->fme);
	if (!fme_thermal(pat, fme_temp, sizeof(fme_temp))) {
		usleep(50000);	/* the FME's register follows each tick */
		fme = file_num(fme_temp, "temp1_input");
		EXPECT_LE(llabs(fme - file_num(self->hwmon, "temp1_input")),
			  1000);
	}
	ASSERT_EQ(0, sysfs_write(ambient, "35"));
	EXPECT_LE(llabs(file_num(self->hwmon, "temp1_input") - t0), 200);
}

/* Open sensor files across the card's deletion: ENODEV */
TEST_F(bmc, read_after_removal)
{
	char path[PATH_MAX], buf[32];
	int temp, power;

	NEED_BMC();
	snprintf(path, sizeof(path), "%.500stemp1_input", self->hwmon);
	temp = open(path, O_RDONLY);
	ASSERT_GE(temp, 0);
	snprintf(path, sizeof(path), "%.500spower1_label", self->hwmon);
	power = open(path, O_RDONLY);
	ASSERT_GE(power, 0);
	ASSERT_GT(pread(temp, buf, sizeof(buf), 0), 0);

	ASSERT_EQ(0, sim_del(self->card));
	self->added = false;
	EXPECT_FALSE(path_exists(self->hwmon));
	EXPECT_EQ(-1, pread(temp, buf, sizeof(buf), 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, pread(power, buf, sizeof(buf), 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, close(temp));
	EXPECT_EQ(0, close(power));
}

/* The same across the surprise removal of its PCI function */
TEST_F(bmc, read_after_pci_removal)
{
	char path[PATH_MAX], buf[32];
	int temp;

	NEED_BMC();
	snprintf(path, sizeof(path), "%.500stemp1_input", self->hwmon);
	temp = open(path, O_RDONLY);
	ASSERT_GE(temp, 0);
	ASSERT_GT(pread(temp, buf, sizeof(buf), 0), 0);

	snprintf(path, sizeof(path), "%s/pci_function/remove", self->sim);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	EXPECT_FALSE(path_exists(self->hwmon));
	EXPECT_FALSE(path_exists(self->fme));
	EXPECT_EQ(-1, pread(temp, buf, sizeof(buf), 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, close(temp));
}

TEST_HARNESS_MAIN
