// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FME's thermal and power management features as hwmon devices
 * (fpga_fme's fme-hwmon.c), on a simulated card and on the VM's PCI card
 * "basic" (selftests/fpga/pci-cards/basic.json has both features):
 * dfl_fme_thermal and dfl_fme_power under dfl-fme.N/hwmon/, their parent
 * the card's PCI function (where lm-sensors looks), upstream's files and
 * units, values in range; a power threshold out of range is refused with
 * EINVAL and only root may set one; NLB0 traffic heats the simulated card
 * and idling cools it; the alarms follow the thresholds; power1_ltr
 * follows the ports; and a file open across the card's removal fails
 * with ENODEV.  And lm-sensors' library, as "sensors" reads hwmon, lists
 * both as chips on the PCI bus with the same readings, where the image
 * has libsensors.so.5 (scripts/vm/mkinitramfs.sh copies the host's).
 */
#include <dlfcn.h>
#include <glob.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "nlb_util.h"
#include "pci_util.h"
#include "perf_util.h"

#define REGIONS		"/sys/class/fpga_region"
#define HWMON_CLASS	"/sys/class/hwmon"
/* The simulated card at rest, in 35 degree air (Documentation/sim-card.md) */
#define SIM_IDLE_MC	45000
#define SIM_IDLE_UW	20000000

/* dfl-fme.@num/hwmon/hwmonX named @name, into @out; 0 or -ENOENT */
static int fme_hwmon(int num, const char *name, char *out, size_t size)
{
	char pat[128], path[512], buf[64];
	int ret = -ENOENT;
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), REGIONS "/region*/dfl-fme.%d/hwmon/hwmon*",
		 num);
	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	for (i = 0; i < g.gl_pathc && ret; i++) {
		snprintf(path, sizeof(path), "%s/name", g.gl_pathv[i]);
		if (!sysfs_read(path, buf, sizeof(buf)) && !strcmp(buf, name)) {
			snprintf(out, size, "%s", g.gl_pathv[i]);
			ret = 0;
		}
	}
	globfree(&g);
	return ret;
}

/* @dir/@file: @dir is one of the fixtures' (256 bytes), @out 512 */
static void hw_path(const char *dir, const char *file, char *out, size_t size)
{
	snprintf(out, size, "%.255s/%.200s", dir, file);
}

static long long hw_read(const char *dir, const char *file)
{
	char path[PATH_MAX];

	hw_path(dir, file, path, sizeof(path));
	return sysfs_read_num(path);
}

static int hw_write(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];

	hw_path(dir, file, path, sizeof(path));
	return sysfs_write(path, val);
}

static int hw_mode(const char *dir, const char *file)
{
	char path[PATH_MAX];
	struct stat st;

	hw_path(dir, file, path, sizeof(path));
	return stat(path, &st) ? -errno : (int)(st.st_mode & 0777);
}

/* Until @dir/@file reads @want (the model moves every 10 ms), or @ms */
static long long hw_wait(const char *dir, const char *file, long long want,
			 int ms)
{
	long long v = hw_read(dir, file);

	for (; v != want && ms > 0; ms -= 10) {
		usleep(10000);
		v = hw_read(dir, file);
	}
	return v;
}

/* The device the hwmon device @dir hangs off, resolved */
static int hw_parent(const char *dir, char *out)
{
	char path[PATH_MAX];

	hw_path(dir, "device", path, sizeof(path));
	return realpath(path, out) ? 0 : -errno;
}

/* @dir/@file written @val (or read, if NULL) by user nobody: 0 or -errno */
static int as_nobody(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];

	hw_path(dir, file, path, sizeof(path));
	return sysfs_as_nobody(path, val);
}

FIXTURE(sensors) {
	unsigned int card;
	bool added;
	bool ready;	/* the setup found both devices */
	int num;
	char thermal[256];
	char power[256];
	char sim[128];
};

FIXTURE_SETUP(sensors)
{
	if (!path_exists(HWMON_CLASS))
		SKIP(return, "the kernel has no hwmon (Debian's cloud flavour)");
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && "
			     "modprobe fpga_fme"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 2));
	self->added = true;
	snprintf(self->sim, sizeof(self->sim), SIM_BUS "/devices/fpga_sim%u",
		 self->card);
	self->num = sim_card_number(self->card);
	ASSERT_GE(self->num, 0);
	ASSERT_EQ(0, fme_hwmon(self->num, "dfl_fme_thermal", self->thermal,
			       sizeof(self->thermal)));
	ASSERT_EQ(0, fme_hwmon(self->num, "dfl_fme_power", self->power,
			       sizeof(self->power)));
	self->ready = true;
}

/* A SKIP in the setup does not stop the test: this does */
#define NEED_SENSORS() do { \
	if (!self->ready) \
		SKIP(return, "the kernel has no hwmon"); \
} while (0)

FIXTURE_TEARDOWN(sensors)
{
	if (self->added)
		sim_del(self->card);
	run_cmd("modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl");
}

/* Both devices, hanging off the card's PCI function, in the hwmon class */
TEST_F(sensors, devices)
{
	char fn[PATH_MAX], parent[PATH_MAX], path[PATH_MAX], real[PATH_MAX];
	const char *devs[] = { self->thermal, self->power };

	NEED_SENSORS();
	snprintf(path, sizeof(path), "%s/pci_function", self->sim);
	ASSERT_NE(NULL, realpath(path, fn));
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++) {
		ASSERT_EQ(0, hw_parent(devs[i], parent));
		EXPECT_STREQ(fn, parent);
		snprintf(path, sizeof(path), HWMON_CLASS "/%s",
			 strrchr(devs[i], '/') + 1);
		ASSERT_NE(NULL, realpath(path, real));
		EXPECT_STREQ(real, realpath(devs[i], path));
	}
}

/* A file and the value it should read */
struct hw_want {
	const char *file;
	long long val;
};

/* Files of @dir that do not read what @want says */
static int hw_wrong_values(const char *dir, const struct hw_want *want,
			   size_t n)
{
	int wrong = 0;

	for (size_t i = 0; i < n; i++) {
		long long v = hw_read(dir, want[i].file);

		if (v != want[i].val) {
			printf("# %s/%s: %lld, not %lld\n", dir, want[i].file,
			       v, want[i].val);
			wrong++;
		}
	}
	return wrong;
}

/* Files of @dir not @mode, and read-only ones that took a write */
static int hw_wrong_modes(const char *dir, const char *const *files, size_t n,
			  int mode)
{
	int wrong = 0;

	for (size_t i = 0; i < n; i++) {
		if (hw_mode(dir, files[i]) != mode ||
		    (mode == 0444 && !hw_write(dir, files[i], "1"))) {
			printf("# %s/%s: mode %o, or took a write\n", dir,
			       files[i], hw_mode(dir, files[i]));
			wrong++;
		}
	}
	return wrong;
}

/* Upstream's files, units and modes; the card at rest */
TEST_F(sensors, thermal_files)
{
	static const char *const ro[] = {
		"temp1_input", "temp1_max", "temp1_crit", "temp1_emergency",
		"temp1_max_alarm", "temp1_crit_alarm", "temp1_max_policy",
	};

	NEED_SENSORS();
	static const struct hw_want want[] = {
		{ "temp1_input", SIM_IDLE_MC }, { "temp1_max", 80000 },
		{ "temp1_crit", 90000 }, { "temp1_emergency", 100000 },
		{ "temp1_max_alarm", 0 }, { "temp1_crit_alarm", 0 },
		{ "temp1_max_policy", 1 },
	};

	EXPECT_EQ(0, hw_wrong_modes(self->thermal, ro, ARRAY_SIZE(ro), 0444));
	EXPECT_EQ(0, hw_wrong_values(self->thermal, want, ARRAY_SIZE(want)));
}

TEST_F(sensors, power_files)
{
	static const char *const ro[] = {
		"power1_input", "power1_max_alarm", "power1_crit_alarm",
		"power1_xeon_limit", "power1_fpga_limit", "power1_ltr",
	};
	static const char *const rw[] = { "power1_max", "power1_crit" };

	NEED_SENSORS();
	EXPECT_EQ(0, hw_wrong_modes(self->power, ro, ARRAY_SIZE(ro), 0444));
	static const struct hw_want want[] = {
		{ "power1_input", SIM_IDLE_UW }, { "power1_max", 80000000 },
		{ "power1_crit", 95000000 }, { "power1_max_alarm", 0 },
		{ "power1_crit_alarm", 0 }, { "power1_xeon_limit", 0 },
		{ "power1_fpga_limit", 100000000 }, { "power1_ltr", 0 },
	};

	EXPECT_EQ(0, hw_wrong_modes(self->power, rw, ARRAY_SIZE(rw), 0644));
	EXPECT_EQ(0, hw_wrong_values(self->power, want, ARRAY_SIZE(want)));
}

/*
 * Thresholds in microwatts, kept in whole watts, 0..127 W: anything else
 * is EINVAL (upstream would clamp), and only root may set them
 */
TEST_F(sensors, threshold_write_validated)
{
	static const char *const bad[] = {
		"-1", "128000000", "1000000000000", "abc", "12W",
	};

	NEED_SENSORS();
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, hw_write(self->power, "power1_max", bad[i]))
			TH_LOG("power1_max took '%s'", bad[i]);
		EXPECT_EQ(-EINVAL, hw_write(self->power, "power1_crit", bad[i]))
			TH_LOG("power1_crit took '%s'", bad[i]);
	}
	EXPECT_EQ(80000000, hw_read(self->power, "power1_max"));
	EXPECT_EQ(95000000, hw_read(self->power, "power1_crit"));

	EXPECT_EQ(0, hw_write(self->power, "power1_crit", "127999999"));
	EXPECT_EQ(127000000, hw_read(self->power, "power1_crit"));
	EXPECT_EQ(0, hw_write(self->power, "power1_max", "0"));
	EXPECT_EQ(0, hw_read(self->power, "power1_max"));
	EXPECT_EQ(0, hw_write(self->power, "power1_max", "30500000"));
	EXPECT_EQ(30000000, hw_read(self->power, "power1_max"));
	/* The other threshold is left alone */
	EXPECT_EQ(127000000, hw_read(self->power, "power1_crit"));

	EXPECT_EQ(-EACCES, as_nobody(self->power, "power1_max", "1000000"));
	EXPECT_EQ(30000000, hw_read(self->power, "power1_max"));
	EXPECT_EQ(0, as_nobody(self->power, "power1_max", NULL));
	EXPECT_EQ(0, as_nobody(self->thermal, "temp1_input", NULL));
}

/* A threshold at or below the power drawn raises its alarm, and only it */
TEST_F(sensors, power_alarms)
{
	NEED_SENSORS();
	ASSERT_EQ(0, hw_write(self->power, "power1_max", "10000000"));
	EXPECT_EQ(1, hw_wait(self->power, "power1_max_alarm", 1, 2000));
	EXPECT_EQ(0, hw_read(self->power, "power1_crit_alarm"));
	ASSERT_EQ(0, hw_write(self->power, "power1_crit", "20000000"));
	EXPECT_EQ(1, hw_wait(self->power, "power1_crit_alarm", 1, 2000));
	/* 0 turns a threshold off */
	ASSERT_EQ(0, hw_write(self->power, "power1_max", "0"));
	ASSERT_EQ(0, hw_write(self->power, "power1_crit", "95000000"));
	EXPECT_EQ(0, hw_wait(self->power, "power1_max_alarm", 0, 2000));
	EXPECT_EQ(0, hw_wait(self->power, "power1_crit_alarm", 0, 2000));
}

/* The FIM's thermal thresholds, crossed in a hotter room (sensors/ambient) */
TEST_F(sensors, thermal_alarms)
{
	char path[256];

	NEED_SENSORS();
	snprintf(path, sizeof(path), "%s/sensors/ambient", self->sim);
	EXPECT_EQ(35, sysfs_read_num(path));
	EXPECT_EQ(-EINVAL, sysfs_write(path, "101"));
	EXPECT_EQ(-EINVAL, sysfs_write(path, "-1"));
	EXPECT_EQ(-EINVAL, sysfs_write(path, "warm"));

	ASSERT_EQ(0, sysfs_write(path, "70"));
	EXPECT_EQ(80000, hw_wait(self->thermal, "temp1_input", 80000, 2000));
	EXPECT_EQ(1, hw_wait(self->thermal, "temp1_max_alarm", 1, 2000));
	EXPECT_EQ(0, hw_read(self->thermal, "temp1_crit_alarm"));
	ASSERT_EQ(0, sysfs_write(path, "80"));
	EXPECT_EQ(1, hw_wait(self->thermal, "temp1_crit_alarm", 1, 2000));
	EXPECT_EQ(1, hw_read(self->thermal, "temp1_max_alarm"));
	ASSERT_EQ(0, sysfs_write(path, "35"));
	EXPECT_EQ(0, hw_wait(self->thermal, "temp1_max_alarm", 0, 2000));
	EXPECT_EQ(0, hw_read(self->thermal, "temp1_crit_alarm"));
	EXPECT_EQ(SIM_IDLE_MC, hw_read(self->thermal, "temp1_input"));
}

/* power1_ltr: every port's AFU tolerates latency (dfl-port.N/ltr) */
TEST_F(sensors, ltr_follows_ports)
{
	int port;

	NEED_SENSORS();
	for (unsigned int i = 0; i < 2; i++) {
		EXPECT_EQ(0, hw_wait(self->power, "power1_ltr", 0, 2000));
		port = sim_port_number_at(self->card, i);
		ASSERT_GE(port, 0);
		ASSERT_EQ(0, run_cmd("for f in " REGIONS "/region*/dfl-port.%d/ltr; "
				     "do echo 1 > $f || exit 1; done", port));
	}
	EXPECT_EQ(1, hw_wait(self->power, "power1_ltr", 1, 2000));
}

/*
 * NLB0 copies on port 0 until the card draws 5 W and is 2 degrees more
 * than at rest (30 s at most), then it cools back down
 */
TEST_F(sensors, activity_heats)
{
	long long temp = 0, watts = 0, t0, w0;
	struct dma_buf dsm = { 0 }, src = { 0 }, dst = { 0 };
	volatile uint64_t *afu;
	const uint64_t len = 32 << 20;
	char dev[64];
	double end;
	int fd, runs = 0;

	NEED_SENSORS();
	t0 = hw_read(self->thermal, "temp1_input");
	w0 = hw_read(self->power, "power1_input");
	EXPECT_EQ(SIM_IDLE_MC, t0);
	EXPECT_EQ(SIM_IDLE_UW, w0);

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d",
		 sim_port_number(self->card));
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0);
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &dsm));
	ASSERT_EQ(0, dma_buf_alloc(fd, len, &src));
	ASSERT_EQ(0, dma_buf_alloc(fd, len, &dst));
	memset(src.va, 0xa5, len);

	for (end = now_ms() + 30000; now_ms() < end; runs++) {
		memset(dsm.va, 0, 4096);
		nlb_start(afu, dsm.iova, src.iova, dst.iova,
			  len / NLB_CACHE_LINE, NLB_CFG_HELLO);
		ASSERT_EQ(0, nlb_wait(afu, dsm.va, 60000));
		temp = hw_read(self->thermal, "temp1_input");
		watts = hw_read(self->power, "power1_input");
		if (temp >= t0 + 2000 && watts >= w0 + 5000000)
			break;
	}
	TH_LOG("%d runs of %llu MiB: %lld mC, %lld uW", runs + 1,
	       (unsigned long long)len >> 20, temp, watts);
	EXPECT_GE(temp, t0 + 2000);
	EXPECT_GE(watts, w0 + 5000000);
	EXPECT_LE(watts, 100000000);	/* the FPGA limit */
	EXPECT_LE(temp, 85000);		/* what the limit gives in 35 degrees */
	EXPECT_EQ(0, memcmp(src.va, dst.va, len));
	dma_buf_free(fd, &dst);
	dma_buf_free(fd, &src);
	dma_buf_free(fd, &dsm);
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);

	/* Power follows within a second or two, temperature within 20 s */
	EXPECT_EQ(w0, hw_wait(self->power, "power1_input", w0, 10000));
	EXPECT_EQ(t0, hw_wait(self->thermal, "temp1_input", t0, 30000));
}

/* Files open across the card's removal: reads and writes fail, cleanly */
TEST_F(sensors, read_after_removal)
{
	char path[PATH_MAX], buf[32];
	int temp, cap;

	NEED_SENSORS();
	hw_path(self->thermal, "temp1_input", path, sizeof(path));
	temp = open(path, O_RDONLY);
	ASSERT_GE(temp, 0);
	hw_path(self->power, "power1_max", path, sizeof(path));
	cap = open(path, O_RDWR);
	ASSERT_GE(cap, 0);
	ASSERT_GT(pread(temp, buf, sizeof(buf), 0), 0);

	ASSERT_EQ(0, sim_del(self->card));
	self->added = false;
	EXPECT_FALSE(path_exists(self->thermal));
	EXPECT_FALSE(path_exists(self->power));
	EXPECT_EQ(-1, pread(temp, buf, sizeof(buf), 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, pread(cap, buf, sizeof(buf), 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, pwrite(cap, "1000000", 7, 0));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, close(temp));
	EXPECT_EQ(0, close(cap));
}

/* Reads in a loop from a child while the card goes: ENODEV, nothing worse */
TEST_F(sensors, reads_race_removal)
{
	char path[PATH_MAX], buf[32];
	int fd, status, n = 0;
	pid_t pid;

	NEED_SENSORS();
	hw_path(self->power, "power1_input", path, sizeof(path));
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* Until the file is gone: then ENODEV, and only that */
		while (pread(fd, buf, sizeof(buf), 0) > 0)
			n++;
		_exit(errno == ENODEV && n > 0 ? 0 : 1);
	}
	usleep(100000);
	ASSERT_EQ(0, sim_del(self->card));
	self->added = false;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
}

/*
 * libsensors' ABI (its sensors.h, stable since lm-sensors 3.0), declared
 * here: the headers are not installed, the library is there at run time
 */
struct lms_chip {
	char *prefix;
	struct {
		short type;
		short nr;
	} bus;
	int addr;
	char *path;
};

struct lms_feature {
	char *name;
	int number;
	int type;
	int first_subfeature;
	int padding1;
};

struct lms_subfeature {
	char *name;
	int number;
	int type;
	int mapping;
	unsigned int flags;
};

#define LMS_BUS_TYPE_PCI	2

struct lms {
	void *dl;
	int (*init)(FILE *input);
	void (*cleanup)(void);
	const struct lms_chip *(*chips)(const struct lms_chip *match, int *nr);
	int (*chip_name)(char *str, size_t size, const struct lms_chip *chip);
	const struct lms_feature *(*features)(const struct lms_chip *chip,
					      int *nr);
	const struct lms_subfeature *(*subfeatures)(const struct lms_chip *chip,
						    const struct lms_feature *f,
						    int *nr);
	int (*value)(const struct lms_chip *chip, int subfeat, double *val);
};

static int lms_open(struct lms *l)
{
	l->dl = dlopen("libsensors.so.5", RTLD_NOW);
	if (!l->dl)
		return -ENOENT;
	l->init = dlsym(l->dl, "sensors_init");
	l->cleanup = dlsym(l->dl, "sensors_cleanup");
	l->chips = dlsym(l->dl, "sensors_get_detected_chips");
	l->chip_name = dlsym(l->dl, "sensors_snprintf_chip_name");
	l->features = dlsym(l->dl, "sensors_get_features");
	l->subfeatures = dlsym(l->dl, "sensors_get_all_subfeatures");
	l->value = dlsym(l->dl, "sensors_get_value");
	if (!l->init || !l->cleanup || !l->chips || !l->chip_name ||
	    !l->features || !l->subfeatures || !l->value)
		return -ENOSYS;
	return 0;
}

/* Subfeature @name of @chip, as sensors prints it (degrees, watts); or NAN */
static double lms_read(struct lms *l, const struct lms_chip *chip,
		       const char *name)
{
	const struct lms_subfeature *sf;
	const struct lms_feature *f;
	int nf = 0, ns;
	double v;

	while ((f = l->features(chip, &nf))) {
		ns = 0;
		while ((sf = l->subfeatures(chip, f, &ns)))
			if (!strcmp(sf->name, name))
				return l->value(chip, sf->number, &v) ? -1e9 : v;
	}
	return -1e9;
}

/* The chip libsensors made of hwmon device @dir, or NULL */
static const struct lms_chip *lms_chip_of(struct lms *l, const char *dir)
{
	char want[PATH_MAX], got[PATH_MAX];
	const struct lms_chip *chip;
	int nr = 0;

	if (!realpath(dir, want))
		return NULL;
	while ((chip = l->chips(NULL, &nr)))
		if (realpath(chip->path, got) && !strcmp(got, want))
			return chip;
	return NULL;
}

/*
 * What "sensors" shows: both devices, as chips on the PCI bus
 * (dfl_fme_thermal-pci-XXXX), reading what the files read
 */
TEST_F(sensors, libsensors_lists_them)
{
	const struct lms_chip *th, *pw;
	struct lms l;
	char name[64];
	FILE *conf;

	NEED_SENSORS();
	if (lms_open(&l))
		SKIP(return, "no libsensors.so.5 in this image");
	conf = fopen("/dev/null", "r");	/* no configuration: raw readings */
	ASSERT_NE(NULL, conf);
	ASSERT_EQ(0, l.init(conf));
	fclose(conf);
	th = lms_chip_of(&l, self->thermal);
	pw = lms_chip_of(&l, self->power);
	ASSERT_NE(NULL, th) TH_LOG("libsensors does not list %s", self->thermal);
	ASSERT_NE(NULL, pw) TH_LOG("libsensors does not list %s", self->power);
	EXPECT_EQ(LMS_BUS_TYPE_PCI, th->bus.type);
	EXPECT_EQ(LMS_BUS_TYPE_PCI, pw->bus.type);
	ASSERT_GT(l.chip_name(name, sizeof(name), th), 0);
	EXPECT_EQ(0, strncmp(name, "dfl_fme_thermal-pci-", 20)) TH_LOG("%s", name);
	ASSERT_GT(l.chip_name(name, sizeof(name), pw), 0);
	EXPECT_EQ(0, strncmp(name, "dfl_fme_power-pci-", 18)) TH_LOG("%s", name);
	EXPECT_EQ(SIM_IDLE_MC / 1000, lms_read(&l, th, "temp1_input"));
	EXPECT_EQ(80, lms_read(&l, th, "temp1_max"));
	EXPECT_EQ(SIM_IDLE_UW / 1000000, lms_read(&l, pw, "power1_input"));
	l.cleanup();
	dlclose(l.dl);
}

/* The PCI card "basic": its image's values, its threshold in its BAR */
FIXTURE(pci_sensors) {
	struct pci_card basic;
	bool found;
	char thermal[256];
	char power[256];
};

#define PCI_MODULES	"fpga_port fpga_fme fpga_dfl_pci fpga_dfl"

FIXTURE_SETUP(pci_sensors)
{
	int num, ret;

	if (!path_exists(HWMON_CLASS))
		SKIP(return, "the kernel has no hwmon (Debian's cloud flavour)");
	run_cmd("modprobe -r uio_fpga " PCI_MODULES " 2>/dev/null");
	if (!pci_ivshmem_count())
		SKIP(return, "no ivshmem DFL cards (run-vm --pci-cards)");
	ASSERT_EQ(0, pci_card_find(&self->basic, "basic"));
	self->found = true;
	ASSERT_EQ(0, run_cmd("modprobe fpga_dfl_pci && modprobe fpga_fme"));
	ret = sysfs_write(PCI_DRIVER "/new_id", IVSHMEM_ID);
	ASSERT_TRUE(ret == 0 || ret == -EEXIST);
	num = pci_child_at(&self->basic, "fpga-fme.", 0);
	ASSERT_GE(num, 0);
	ASSERT_EQ(0, fme_hwmon(num, "dfl_fme_thermal", self->thermal,
			       sizeof(self->thermal)));
	ASSERT_EQ(0, fme_hwmon(num, "dfl_fme_power", self->power,
			       sizeof(self->power)));
}

FIXTURE_TEARDOWN(pci_sensors)
{
	if (self->found)
		run_cmd("modprobe -r " PCI_MODULES);
}

TEST_F(pci_sensors, basic_card)
{
	/* basic.json's registers */
	static const struct hw_want thermal[] = {
		{ "temp1_input", 52000 }, { "temp1_max", 85000 },
		{ "temp1_crit", 95000 }, { "temp1_emergency", 105000 },
		{ "temp1_max_alarm", 0 }, { "temp1_max_policy", 0 },
	};
	static const struct hw_want power[] = {
		{ "power1_input", 38000000 }, { "power1_max", 60000000 },
		{ "power1_crit", 70000000 }, { "power1_xeon_limit", 0 },
		{ "power1_fpga_limit", 75000000 }, { "power1_ltr", 1 },
	};
	char parent[PATH_MAX], fn[PATH_MAX], path[PATH_MAX];

	if (!self->found)
		SKIP(return, "no hwmon, or no ivshmem DFL cards");
	snprintf(path, sizeof(path), PCI_DEVICES "/%s", self->basic.bdf);
	ASSERT_NE(NULL, realpath(path, fn));
	ASSERT_EQ(0, hw_parent(self->thermal, parent));
	EXPECT_STREQ(fn, parent);
	ASSERT_EQ(0, hw_parent(self->power, parent));
	EXPECT_STREQ(fn, parent);

	EXPECT_EQ(0, hw_wrong_values(self->thermal, thermal,
				     ARRAY_SIZE(thermal)));
	EXPECT_EQ(0, hw_wrong_values(self->power, power, ARRAY_SIZE(power)));

	/* A threshold goes to the card's register and back */
	EXPECT_EQ(-EINVAL, hw_write(self->power, "power1_max", "200000000"));
	ASSERT_EQ(0, hw_write(self->power, "power1_max", "50000000"));
	EXPECT_EQ(50000000, hw_read(self->power, "power1_max"));
	EXPECT_EQ(70000000, hw_read(self->power, "power1_crit"));
	ASSERT_EQ(0, hw_write(self->power, "power1_max", "60000000"));
}

TEST_HARNESS_MAIN
