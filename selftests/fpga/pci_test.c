// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_dfl_pci on real PCI devices: QEMU ivshmem-plain cards whose BAR 2
 * holds DFL images from selftests/fpga/pci-cards (scripts/images/dfl-image), with
 * the host model (scripts/images/dfl-model) answering port resets.
 *
 * "basic": FME (global error, counter bank, thermal and power management,
 * which sensors_test reads, and a PR engine the model plays) and two ports
 * with known AFU GUIDs, sizes and register values, one DFHv1 feature.  "malformed": FME;
 * port 0 good but its UINT (DFHv0 capability) and its error feature (DFHv1
 * MSI-X parameter) name vectors the function does not have (ivshmem-plain
 * has no MSI-X); port 1's offset is port 0's (loop); port 2's is outside
 * the BAR; port 3 has FIU id 7.  "irq": an ivshmem-doorbell card with 6
 * MSI-X vectors, whose interrupts the model raises on request: port error
 * (vector 4, DFHv0 capability), UINT (0..3, DFHv1 parameter).  "future":
 * a card of a later DFL revision or a broken one: an FME feature, port 0's
 * header and port 1's AFU of DFH version 2, port 2's error feature with
 * DFHv1 registers too few for its capability; port 3 is good, with an
 * AFU of 6 KiB (not a whole number of pages).  "hostile": port 0's AFU
 * starts 1 KiB into a page, port 1's AFU has the UINT's DFH id (its GUID
 * would read as a bad capability), port 2's AFU is DFHv1 with its
 * registers on the FME header.
 */
#include <glob.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/fpga-dfl.h>

#include <fpga/nlb0.h>

#include "kselftest_harness.h"
#include "pci_util.h"
#include "perf_util.h"
#include "pr_util.h"
#include "uio_util.h"

#define BASIC_GUID0	NLB0_AFU_ID	/* port 0 holds an NLB0 (basic.json) */
#define BASIC_GUID1	"00112233445566778899aabbccddeeff"
#define FUTURE_GUID3	"f0e0d0c0b0a090807060504030201000"
/* basic.json's FME has a PR engine (the model plays it) of this id */
#define BASIC_INTERFACE	"1af41110-0df1-4a7e-b5c3-9e2d6f8a0c41"
#define NLB3_ID		"f7df405c-bd7a-cf72-22f1-44b0b93acd18"
#define NLB3_AFU_ID	"f7df405cbd7acf7222f144b0b93acd18"
#define PR_TIMEOUT	"/sys/module/fpga_fme/parameters/pr_timeout_us"
#define MODULES		"uio_fpga fpga_port fpga_fme fpga_dfl_pci fpga_dfl"
/*
 * The model is a host process beside a TCG guest on a shared machine: give
 * it seconds, not hardware's 100 ms, to answer a reset (a timeout is still
 * a failure of the tests that expect an answer)
 */
#define MODEL_TIMEOUT_US	"5000000"
#define PORT_TIMEOUT	"/sys/module/fpga_port/parameters/reset_timeout_us"

static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Records read from /dev/kmsg so far, one per line (one test per process) */
static char kmsg_log[1 << 20];
static size_t kmsg_len;

/* Has a record containing @a (and @b) been logged since kmsg_open()? */
static int kmsg_has(int fd, const char *a, const char *b)
{
	char rec[1024], *line, *end;
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0 || kmsg_len + n + 1 >= sizeof(kmsg_log))
			continue;
		memcpy(kmsg_log + kmsg_len, rec, n);
		kmsg_len += n;
		if (kmsg_log[kmsg_len - 1] != '\n')
			kmsg_log[kmsg_len++] = '\n';
		kmsg_log[kmsg_len] = '\0';
	}
	for (line = kmsg_log; line < kmsg_log + kmsg_len; line = end + 1) {
		end = strchr(line, '\n');
		*end = '\0';
		n = strstr(line, a) && (!b || strstr(line, b));
		*end = '\n';
		if (n)
			return 1;
	}
	return 0;
}

static int port_open(int num)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/fpga-port.%d", num);
	return open(path, O_RDWR);
}

static int port_attr(int num, const char *attr, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/%s", num, attr);
	return sysfs_read(path, buf, size);
}

static int region_info(int fd, struct dfl_fpga_port_region_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->argsz = sizeof(*ri);
	ri->index = DFL_PORT_REGION_INDEX_AFU;
	return ioctl(fd, DFL_FPGA_PORT_GET_REGION_INFO, ri) ? -errno : 0;
}

static int port_reset(int fd)
{
	return ioctl(fd, DFL_FPGA_PORT_RESET, 0) ? -errno : 0;
}

/* Map the AFU region of open port @fd; its size in *@size */
static volatile uint64_t *afu_map(int fd, size_t *size, int prot)
{
	struct dfl_fpga_port_region_info ri;
	void *p;

	if (region_info(fd, &ri))
		return NULL;
	p = mmap(NULL, ri.size, prot, MAP_SHARED, fd, ri.offset);
	if (p == MAP_FAILED)
		return NULL;
	*size = ri.size;
	return p;
}

/* No cards: the body must not run (SKIP in a setup does not stop it) */
#define NEED_CARDS() do { \
	if (!self->found) \
		SKIP(return, "no ivshmem DFL cards (run-vm --pci-cards)"); \
} while (0)

FIXTURE(pci) {
	struct pci_card basic, bad, future;
	bool found;
	int kmsg;
};

FIXTURE_SETUP(pci)
{
	int ret;

	/* The images are read before any driver holds their BAR */
	run_cmd("modprobe -r " MODULES " 2>/dev/null");
	if (!pci_ivshmem_count())
		SKIP(return, "no ivshmem DFL cards (run-vm --pci-cards)");
	/* The VM has cards: not finding them is a failure, not a skip */
	ASSERT_EQ(0, pci_card_find(&self->basic, "basic"));
	ASSERT_EQ(0, pci_card_find(&self->bad, "malformed"));
	ASSERT_EQ(0, pci_card_find(&self->future, "future"));
	self->found = true;
	ASSERT_EQ(0, run_cmd("modprobe fpga_dfl_pci && modprobe fpga_port && modprobe fpga_fme"));
	ASSERT_EQ(0, sysfs_write(PORT_TIMEOUT, MODEL_TIMEOUT_US));
	/* Bound through new_id: ivshmem is not in the id table */
	ret = sysfs_write(PCI_DRIVER "/new_id", IVSHMEM_ID);
	ASSERT_TRUE(ret == 0 || ret == -EEXIST);
	/* new_id probed both; each test sees a fresh probe in the log */
	ASSERT_EQ(0, pci_unbind(&self->basic));
	ASSERT_EQ(0, pci_unbind(&self->bad));
	ASSERT_EQ(0, pci_unbind(&self->future));
	self->kmsg = kmsg_open();
	ASSERT_GE(self->kmsg, 0);
	ASSERT_EQ(0, pci_bind(&self->basic));
	ASSERT_EQ(0, pci_bind(&self->bad));
	ASSERT_EQ(0, pci_bind(&self->future));
}

FIXTURE_TEARDOWN(pci)
{
	if (!self->found)
		return;
	pci_unbind(&self->basic);
	pci_unbind(&self->bad);
	pci_unbind(&self->future);
	close(self->kmsg);
	run_cmd("modprobe -r " MODULES);
}

TEST_F(pci, binds_by_new_id)
{
	char link[256], path[128];
	ssize_t n;

	NEED_CARDS();
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", self->basic.bdf);
	n = readlink(path, link, sizeof(link) - 1);
	ASSERT_GT(n, 0);
	link[n] = '\0';
	EXPECT_NE(NULL, strstr(link, "/fpga_dfl_pci"));
	EXPECT_TRUE(kmsg_has(self->kmsg, "offset 0 of BAR 2", self->basic.bdf));
}

TEST_F(pci, basic_card_enumerates)
{
	char buf[64], path[128];
	int fme, p0, p1;

	NEED_CARDS();
	EXPECT_EQ(1, pci_children(&self->basic, "fpga-fme."));
	EXPECT_EQ(2, pci_children(&self->basic, "fpga-port."));
	fme = pci_child_at(&self->basic, "fpga-fme.", 0);
	p0 = pci_child_at(&self->basic, "fpga-port.", 0);
	p1 = pci_child_at(&self->basic, "fpga-port.", 1);
	ASSERT_GE(fme, 0);
	ASSERT_GE(p0, 0);
	ASSERT_GE(p1, 0);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d/bitstream_id", fme);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("0x200000000a1b2c3", buf);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d/ports_num", fme);
	EXPECT_EQ(2, sysfs_read_num(path));
	ASSERT_EQ(0, port_attr(p0, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(BASIC_GUID0, buf);
	ASSERT_EQ(0, port_attr(p1, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(BASIC_GUID1, buf);
	EXPECT_FALSE(kmsg_has(self->kmsg, "DFL offset", self->basic.bdf));
}

/*
 * The FME and ports are in dfl-card.N (N the card's number, the FME's),
 * not in the function itself: OPAE takes the function's first "fpga*"
 * entry for the fpga_region class directory
 */
TEST_F(pci, fius_are_in_the_card_directory)
{
	char path[256], real[PATH_MAX], want[160];
	glob_t g;
	int fme;

	NEED_CARDS();
	snprintf(path, sizeof(path), PCI_DEVICES "/%s", self->basic.bdf);
	EXPECT_EQ(0, count_entries(path, "fpga-"));
	fme = pci_child_at(&self->basic, "fpga-fme.", 0);
	ASSERT_GE(fme, 0);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d", fme);
	ASSERT_NE(NULL, realpath(path, real));
	snprintf(want, sizeof(want), "/%s/dfl-card.%d/fpga-fme.%d",
		 self->basic.bdf, fme, fme);
	EXPECT_NE(NULL, strstr(real, want)) TH_LOG("fpga-fme.%d is %s", fme, real);

	if (!path_exists("/sys/class/fpga_region"))
		SKIP(return, "no upstream layout (class fpga_region) here");
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/fpga*", self->basic.bdf);
	ASSERT_EQ(0, glob(path, 0, NULL, &g));
	EXPECT_STREQ("fpga_region", strrchr(g.gl_pathv[0], '/') + 1);
	globfree(&g);
}

TEST_F(pci, regions_and_mmap_read_the_image)
{
	struct dfl_fpga_port_region_info ri;
	volatile uint64_t *afu;
	int fd, p0, p1;

	NEED_CARDS();
	p0 = pci_child_at(&self->basic, "fpga-port.", 0);
	p1 = pci_child_at(&self->basic, "fpga-port.", 1);
	fd = port_open(p0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, region_info(fd, &ri));
	EXPECT_EQ(0x10000, ri.size);
	afu = mmap(NULL, ri.size, PROT_READ, MAP_SHARED, fd, ri.offset);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(NLB0_AFU_GUID_L, afu[1]);
	EXPECT_EQ(0x1122334455667788ULL, afu[0x100 / 8]);
	EXPECT_EQ(0xcafef00dULL, afu[0xff8 / 8]);
	munmap((void *)afu, ri.size);
	close(fd);

	fd = port_open(p1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, region_info(fd, &ri));
	EXPECT_EQ(0x8000, ri.size);
	afu = mmap(NULL, ri.size, PROT_READ, MAP_SHARED, fd, ri.offset);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0x0123456789abcdefULL, afu[0x100 / 8]);
	munmap((void *)afu, ri.size);
	close(fd);
}

TEST_F(pci, reset_answered_by_host_model)
{
	int fd = port_open(pci_child_at(&self->basic, "fpga-port.", 1));

	NEED_CARDS();
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, port_reset(fd));
	EXPECT_EQ(0, port_reset(fd));
	close(fd);
}

TEST_F(pci, reset_times_out_with_model_stopped)
{
	int fd = port_open(pci_child_at(&self->basic, "fpga-port.", 0));
	volatile uint64_t *afu;
	struct timespec t0, t1;
	size_t size;
	double s;

	NEED_CARDS();
	ASSERT_GE(fd, 0);
	afu = afu_map(fd, &size, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, afu);
	ASSERT_EQ(0, pci_model_stop(afu, size, 0));
	ASSERT_EQ(0, pci_model_stop(afu, size, 1));
	ASSERT_EQ(0, sysfs_write(PORT_TIMEOUT, "200000"));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-ETIMEDOUT, port_reset(fd));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	EXPECT_LT(s, 5.0);
	EXPECT_TRUE(kmsg_has(self->kmsg, "soft-reset ACK did not rise", NULL));
	/* The port is not wedged: with the model back, reset works again */
	ASSERT_EQ(0, pci_model_stop(afu, size, 0));
	ASSERT_EQ(0, sysfs_write(PORT_TIMEOUT, MODEL_TIMEOUT_US));
	EXPECT_EQ(0, port_reset(fd));
	munmap((void *)afu, size);
	close(fd);
}

TEST_F(pci, malformed_card_reported_rest_enumerates)
{
	char buf[64];
	int p0;

	NEED_CARDS();
	EXPECT_TRUE(kmsg_has(self->kmsg, "loop or overlap", self->bad.bdf));
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x200000", "outside the window"));
	EXPECT_TRUE(kmsg_has(self->kmsg, "unknown FIU id 7", self->bad.bdf));
	EXPECT_TRUE(kmsg_has(self->kmsg, "feature 0x12: bad IRQ capability (vectors 0..3",
			     self->bad.bdf));
	/* DFHv1: the vectors come from its MSI-X parameter */
	EXPECT_TRUE(kmsg_has(self->kmsg, "feature 0x10: bad IRQ capability (vectors 2..2",
			     self->bad.bdf));
	EXPECT_EQ(1, pci_children(&self->bad, "fpga-fme."));
	ASSERT_EQ(1, pci_children(&self->bad, "fpga-port."));
	p0 = pci_child_at(&self->bad, "fpga-port.", 0);
	ASSERT_EQ(0, port_attr(p0, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(BASIC_GUID0, buf);
}

/* Unknown DFH versions and short register blocks cost only themselves */
TEST_F(pci, future_card_reported_rest_enumerates)
{
	const char *bdf = self->future.bdf;
	char buf[64];
	int p3;

	NEED_CARDS();
	EXPECT_TRUE(kmsg_has(self->kmsg, "unknown DFH version 2, feature skipped", bdf));
	EXPECT_TRUE(kmsg_has(self->kmsg, "unknown DFH version 2, list ends here", bdf));
	EXPECT_TRUE(kmsg_has(self->kmsg, "unknown DFH version 2, port kept without its AFU",
			     bdf));
	EXPECT_TRUE(kmsg_has(self->kmsg,
			     "feature 0x10: registers 0x8 bytes long, needs 0x40", bdf));
	EXPECT_EQ(1, pci_children(&self->future, "fpga-fme."));
	/* Port 0 is gone; port 1 has no AFU, so no driver */
	ASSERT_EQ(3, pci_children(&self->future, "fpga-port."));
	p3 = pci_child_at(&self->future, "fpga-port.", 2);
	ASSERT_EQ(0, port_attr(p3, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(FUTURE_GUID3, buf);
}

/*
 * Port 3 of "future" has a 6 KiB AFU: only its first page can be mapped,
 * through fpga_port and uio_fpga alike (the rest of the second page is
 * other registers)
 */
TEST_F(pci, short_afu_maps_whole_pages_only)
{
	long page = sysconf(_SC_PAGESIZE);
	char uio[32], path[64];
	void *afu;
	int num, fd;

	NEED_CARDS();
	num = pci_child_at(&self->future, "fpga-port.", 2);
	ASSERT_GE(num, 0);
	snprintf(path, sizeof(path), "/dev/fpga-port.%d", num);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd, 0));
	afu = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	EXPECT_NE(MAP_FAILED, afu);
	if (afu != MAP_FAILED)
		munmap(afu, page);
	close(fd);

	ASSERT_EQ(0, run_cmd("modprobe uio_fpga reset_timeout_us=" MODEL_TIMEOUT_US));
	ASSERT_EQ(0, port_bind(num, "uio_fpga"));
	ASSERT_EQ(0, port_uio(num, uio, sizeof(uio)));
	EXPECT_EQ(0x1800, uio_map_num(uio, UIO_MAP_AFU, "size"));
	snprintf(path, sizeof(path), "/dev/%s", uio);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, UIO_MAP_AFU * page));
	EXPECT_EQ(EINVAL, errno);
	afu = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   UIO_MAP_AFU * page);
	EXPECT_NE(MAP_FAILED, afu);
	if (afu != MAP_FAILED)
		munmap(afu, page);
	close(fd);
	EXPECT_EQ(0, port_bind(num, "fpga_port"));
}

/* The bad UINT is kept, without interrupts; the port works */
TEST_F(pci, malformed_port_still_works)
{
	struct dfl_fpga_port_region_info ri;
	volatile uint64_t *afu;
	uint32_t n = 99;
	int fd = port_open(pci_child_at(&self->bad, "fpga-port.", 0));

	NEED_CARDS();
	ASSERT_GE(fd, 0);
	if (!ioctl(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n))
		EXPECT_EQ(0, n);
	ASSERT_EQ(0, region_info(fd, &ri));
	afu = mmap(NULL, ri.size, PROT_READ, MAP_SHARED, fd, ri.offset);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0x5a5a5a5a5a5a5a5aULL, afu[0x100 / 8]);
	munmap((void *)afu, ri.size);
	close(fd);
}

static sigjmp_buf pci_jmp;

static void pci_sigbus(int sig)
{
	siglongjmp(pci_jmp, sig);
}

/* Unbind with the port open and mapped: ENODEV, SIGBUS, then rebind */
TEST_F(pci, unbind_rebind_with_port_open)
{
	struct dfl_fpga_port_region_info ri;
	volatile uint64_t *afu;
	volatile uint64_t v = 0;
	int fd, sig;

	NEED_CARDS();
	fd = port_open(pci_child_at(&self->basic, "fpga-port.", 0));
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, region_info(fd, &ri));
	afu = mmap(NULL, ri.size, PROT_READ, MAP_SHARED, fd, ri.offset);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0x1122334455667788ULL, afu[0x100 / 8]);

	ASSERT_EQ(0, pci_unbind(&self->basic));
	EXPECT_EQ(0, pci_children(&self->basic, "fpga-port."));
	EXPECT_EQ(-ENODEV, region_info(fd, &ri));
	signal(SIGBUS, pci_sigbus);
	sig = sigsetjmp(pci_jmp, 1);
	if (!sig)
		v = afu[0x100 / 8];
	signal(SIGBUS, SIG_DFL);
	EXPECT_EQ(SIGBUS, sig);
	(void)v;

	ASSERT_EQ(0, pci_bind(&self->basic));
	EXPECT_EQ(2, pci_children(&self->basic, "fpga-port."));
	munmap((void *)afu, ri.size);
	close(fd);
	ASSERT_EQ(0, pci_unbind(&self->basic));
	ASSERT_EQ(0, pci_bind(&self->basic));
	EXPECT_EQ(2, pci_children(&self->basic, "fpga-port."));
}

TEST_F(pci, uio_fpga_binds_pci_port)
{
	char uio[32], path[64], buf[64];
	volatile uint64_t *afu;
	int num, fd;

	NEED_CARDS();
	num = pci_child_at(&self->basic, "fpga-port.", 0);
	ASSERT_GE(num, 0);
	ASSERT_EQ(0, run_cmd("modprobe uio_fpga reset_timeout_us=" MODEL_TIMEOUT_US));
	ASSERT_EQ(0, port_bind(num, "uio_fpga"));
	ASSERT_EQ(0, port_driver(num, buf, sizeof(buf)));
	EXPECT_STREQ("uio_fpga", buf);
	ASSERT_EQ(0, port_uio(num, uio, sizeof(uio)));
	snprintf(path, sizeof(path), "/dev/%s", uio);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	afu = uio_map(fd, uio, UIO_MAP_AFU, PROT_READ);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(0x1122334455667788ULL, afu[0x100 / 8]);
	EXPECT_EQ(0, port_attr(num, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(BASIC_GUID0, buf);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/reset", num);
	EXPECT_EQ(0, sysfs_write(path, "1"));
	munmap((void *)afu, uio_map_num(uio, UIO_MAP_AFU, "size"));
	close(fd);
	EXPECT_EQ(0, port_bind(num, "fpga_port"));
}

TEST_F(pci, pmu_for_card_with_counter_bank)
{
	int fme = pci_child_at(&self->basic, "fpga-fme.", 0);
	int bad = pci_child_at(&self->bad, "fpga-fme.", 0);
	int fd, type;

	NEED_CARDS();
	ASSERT_GE(fme, 0);
	ASSERT_GE(bad, 0);
	ASSERT_TRUE(pmu_exists(fme));
	EXPECT_FALSE(pmu_exists(bad));
	type = pmu_read_num(fme, "type");
	ASSERT_GT(type, 0);
	/* The clock the host model advances */
	fd = perf_open(type, PMU_CLOCK, pmu_read_num(fme, "cpumask"), -1);
	ASSERT_GE(fd, 0);
	EXPECT_TRUE(perf_count_moves(fd));
	close(fd);
}

/* The tools see a PCI card as they see a simulated one */
TEST_F(pci, fpgactl_on_pci_card)
{
	int p1 = pci_child_at(&self->basic, "fpga-port.", 1);

	NEED_CARDS();
	ASSERT_GE(p1, 0);
	EXPECT_EQ(0, run_cmd("fpgactl list | grep -q '(%s)'", self->basic.bdf));
	EXPECT_EQ(0, run_cmd("fpgactl list | grep -q 'afu_id %s'", BASIC_GUID1));
	/* info reads sysfs: the card is the function, not dfl-card.N */
	EXPECT_EQ(0, run_cmd("fpgactl info %d | grep -q '(%s)'", p1,
			     self->basic.bdf));
	EXPECT_EQ(0, run_cmd("fpgactl mmio read %d 0x100 | grep -qi 0123456789abcdef", p1));
	EXPECT_EQ(0, run_cmd("fpgactl reset %d >/dev/null", p1));
}

/* fpga-fme.@fme's errors/pr_err as a number, or -1 */
static long long fme_pr_err(int fme)
{
	char path[128];

	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d/errors/pr_err",
		 fme);
	return sysfs_read_num(path);
}

/* DFL_FPGA_FME_PORT_PR of @afu's bitstream for @intf into port 0 */
static int pci_pr(int fd, const char *afu, const char *intf, bool corrupt)
{
	uint8_t *bs;
	size_t len;
	int ret;

	bs = pr_bitstream(afu, intf, 64, &len);
	if (!bs)
		return -ENOMEM;
	if (corrupt)
		bs[sizeof(struct fpga_sim_bitstream) + 3] ^= 1;
	ret = pr_program(fd, 0, bs, len);
	free(bs);
	return ret;
}

/*
 * The PR engine of the basic card's FME, played by the host model through
 * the staging window: DFL_FPGA_FME_PORT_PR loads an AFU (by its GUID: the
 * model runs only NLB0), a corrupt bitstream is refused with -EIO and a
 * CRC error in pr_err and the AFU stays, another interface id likewise
 * (incompatible); NLB0 is loaded back for the tests after
 */
TEST_F(pci, fme_port_pr_through_the_host_model)
{
	int fme = pci_child_at(&self->basic, "fpga-fme.", 0);
	int p0 = pci_child_at(&self->basic, "fpga-port.", 0);
	char buf[64], path[128];
	int fd;

	NEED_CARDS();
	ASSERT_GE(fme, 0);
	ASSERT_GE(p0, 0);
	ASSERT_EQ(0, sysfs_write(PR_TIMEOUT, MODEL_TIMEOUT_US));
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-fme.%d/pr/interface_id",
		 fme);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ("1af411100df14a7eb5c39e2d6f8a0c41", buf);
	snprintf(path, sizeof(path), "/dev/fpga-fme.%d", fme);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);

	EXPECT_EQ(0, pci_pr(fd, NLB3_ID, BASIC_INTERFACE, false));
	EXPECT_EQ(0, fme_pr_err(fme));
	ASSERT_EQ(0, port_attr(p0, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(NLB3_AFU_ID, buf);

	EXPECT_EQ(-EIO, pci_pr(fd, NLB0_ID, BASIC_INTERFACE, true));
	EXPECT_EQ(0x2, fme_pr_err(fme));		/* CRC */
	ASSERT_EQ(0, port_attr(p0, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(NLB3_AFU_ID, buf);
	EXPECT_TRUE(kmsg_has(self->kmsg, "refused the bitstream", " crc"));

	EXPECT_EQ(-EIO, pci_pr(fd, NLB0_ID, FPGA_SIM_INTERFACE_ID, false));
	EXPECT_EQ(0x4, fme_pr_err(fme));		/* incompatible */

	/* NLB0 back, and the port's other registers are the image's */
	EXPECT_EQ(0, pci_pr(fd, NLB0_ID, BASIC_INTERFACE, false));
	EXPECT_EQ(0, fme_pr_err(fme));
	close(fd);
	ASSERT_EQ(0, port_attr(p0, "afu_id", buf, sizeof(buf)));
	EXPECT_STREQ(BASIC_GUID0, buf);
	EXPECT_EQ(0, run_cmd("fpgactl mmio read %d 0x100 | grep -qi 1122334455667788", p0));
}

/*
 * The core knows no card driver: with no fpga_sim loaded, fpga_dfl lists
 * the PCI card (fpgactl list is the netlink dump)
 */
TEST_F(pci, core_lists_cards_without_fpga_sim)
{
	NEED_CARDS();
	run_cmd("modprobe -r fpga_sim 2>/dev/null");
	ASSERT_NE(0, run_cmd("grep -q '^fpga_sim ' /proc/modules"));
	EXPECT_EQ(0, run_cmd("fpgactl list | grep -q '(%s)'", self->basic.bdf));
}

/* Last: the function goes away through sysfs with a port open */
TEST_F(pci, remove_with_port_open)
{
	struct dfl_fpga_port_region_info ri;
	char path[128];
	int fd, ret;

	NEED_CARDS();
	fd = port_open(pci_child_at(&self->bad, "fpga-port.", 0));
	ASSERT_GE(fd, 0);
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/remove", self->bad.bdf);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	snprintf(path, sizeof(path), PCI_DEVICES "/%s", self->bad.bdf);
	EXPECT_FALSE(path_exists(path));
	EXPECT_EQ(-ENODEV, region_info(fd, &ri));
	close(fd);
	/* Rescan: it comes back, and the dynamic id binds it again */
	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/rescan", "1"));
	ret = path_exists(path);
	ASSERT_TRUE(ret);
	EXPECT_EQ(1, pci_children(&self->bad, "fpga-port."));

	/* Nothing of the removed function is still held: the drivers unload */
	EXPECT_EQ(0, run_cmd("modprobe -r uio_fpga fpga_port fpga_fme fpga_dfl_pci"));
	EXPECT_FALSE(path_exists("/sys/module/fpga_dfl_pci"));
	EXPECT_FALSE(path_exists("/sys/module/fpga_port"));
}

/* MSI-X on the PCI path: an ivshmem-doorbell card whose model raises them */
FIXTURE(pci_irq) {
	struct pci_card card;
	bool found;
	int port;
};

FIXTURE_SETUP(pci_irq)
{
	int ret;

	run_cmd("modprobe -r " MODULES " 2>/dev/null");
	if (!pci_ivshmem_count())
		SKIP(return, "no ivshmem-doorbell DFL card (run-vm --pci-cards)");
	ASSERT_EQ(0, pci_card_find(&self->card, "irq"));
	self->found = true;
	ASSERT_EQ(0, run_cmd("modprobe fpga_dfl_pci && modprobe fpga_port"));
	ret = sysfs_write(PCI_DRIVER "/new_id", IVSHMEM_ID);
	ASSERT_TRUE(ret == 0 || ret == -EEXIST);
	ASSERT_EQ(0, pci_unbind(&self->card));
	ASSERT_EQ(0, pci_bind(&self->card));
	self->port = pci_child_at(&self->card, "fpga-port.", 0);
	ASSERT_GE(self->port, 0);
}

FIXTURE_TEARDOWN(pci_irq)
{
	if (!self->found)
		return;
	run_cmd("modprobe -r " MODULES);
}

/* Bind @efd to interrupt @start of the feature, ring vector @vec, wait */
static int irq_fires(int fd, unsigned long cmd, uint32_t start, int vec)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = start, .count = 1 } };
	volatile uint64_t *afu;
	uint64_t count = 0;
	struct pollfd p;
	size_t size;
	int ret = -1;

	set.fd = eventfd(0, EFD_NONBLOCK);
	if (set.fd < 0 || ioctl(fd, cmd, &set))
		goto out;
	afu = afu_map(fd, &size, PROT_READ | PROT_WRITE);
	if (!afu)
		goto out;
	afu[KNOB_DOORBELL(size) / 8] = 1ULL << vec;
	p.fd = set.fd;
	p.events = POLLIN;
	if (poll(&p, 1, 5000) == 1 && read(set.fd, &count, 8) == 8)
		ret = (int)count;
	else
		ret = 0;
	munmap((void *)afu, size);
	set.fd = -1;
	ioctl(fd, cmd, &set);	/* unbind */
out:
	return ret;
}

TEST_F(pci_irq, msix_vectors_reach_eventfds)
{
	char path[64];
	uint32_t n;
	int fd;

	if (!self->found)
		SKIP(return, "no ivshmem-doorbell DFL card");
	snprintf(path, sizeof(path), "/dev/fpga-port.%d", self->port);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n));
	EXPECT_EQ(4, n);
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM, &n));
	EXPECT_EQ(1, n);
	/* UINT 2 is vector 2 (its MSI-X parameter says 0..3) */
	EXPECT_EQ(1, irq_fires(fd, DFL_FPGA_PORT_UINT_SET_IRQ, 2, 2));
	/* Another vector does not reach it */
	EXPECT_EQ(0, irq_fires(fd, DFL_FPGA_PORT_UINT_SET_IRQ, 2, 3));
	/* The error interrupt is vector 4 (PORT_ERROR_CAP) */
	EXPECT_EQ(1, irq_fires(fd, DFL_FPGA_PORT_ERR_SET_IRQ, 0, 4));
	close(fd);
}

/* Unbind with interrupts bound to eventfds: freed before the vectors go */
TEST_F(pci_irq, unbind_with_irqs_bound)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fds[4];
	} set = { .s = { .start = 0, .count = 4 } };
	char path[64];
	uint32_t n;
	int fd, i;

	if (!self->found)
		SKIP(return, "no ivshmem-doorbell DFL card");
	snprintf(path, sizeof(path), "/dev/fpga-port.%d", self->port);
	fd = open(path, O_RDWR);
	ASSERT_GE(fd, 0);
	for (i = 0; i < 4; i++) {
		set.fds[i] = eventfd(0, EFD_NONBLOCK);
		ASSERT_GE(set.fds[i], 0);
	}
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set));
	ASSERT_EQ(0, pci_unbind(&self->card));
	EXPECT_NE(0, ioctl(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n));
	EXPECT_EQ(ENODEV, errno);
	close(fd);
	for (i = 0; i < 4; i++)
		close(set.fds[i]);
	ASSERT_EQ(0, pci_bind(&self->card));
	EXPECT_EQ(1, pci_children(&self->card, "fpga-port."));
}

/* The "hostile" card, on its own */
FIXTURE(pci_hostile) {
	struct pci_card card;
	bool found;
	int kmsg;
};

FIXTURE_SETUP(pci_hostile)
{
	int ret;

	run_cmd("modprobe -r " MODULES " 2>/dev/null");
	if (!pci_ivshmem_count())
		SKIP(return, "no ivshmem DFL cards (run-vm --pci-cards)");
	ASSERT_EQ(0, pci_card_find(&self->card, "hostile"));
	self->found = true;
	ASSERT_EQ(0, run_cmd("modprobe fpga_dfl_pci && modprobe fpga_port"));
	ASSERT_EQ(0, sysfs_write(PORT_TIMEOUT, MODEL_TIMEOUT_US));
	ret = sysfs_write(PCI_DRIVER "/new_id", IVSHMEM_ID);
	ASSERT_TRUE(ret == 0 || ret == -EEXIST);
	ASSERT_EQ(0, pci_unbind(&self->card));
	self->kmsg = kmsg_open();
	ASSERT_GE(self->kmsg, 0);
	ASSERT_EQ(0, pci_bind(&self->card));
}

FIXTURE_TEARDOWN(pci_hostile)
{
	if (!self->found)
		return;
	close(self->kmsg);
	run_cmd("modprobe -r " MODULES);
}

/* No AFU is read as a private feature; the AFU on the FME header is refused */
TEST_F(pci_hostile, afus_get_no_other_features_registers)
{
	const char *bdf = self->card.bdf;
	int p2;

	NEED_CARDS();
	EXPECT_TRUE(kmsg_has(self->kmsg,
			     "DFHv1 registers at 0x0 overlap another feature's at 0x0, port kept without its AFU",
			     bdf));
	EXPECT_FALSE(kmsg_has(self->kmsg, "bad IRQ capability", bdf));
	EXPECT_EQ(1, pci_children(&self->card, "fpga-fme."));
	ASSERT_EQ(3, pci_children(&self->card, "fpga-port."));
	/* Port 2 has no AFU, so no driver and no node */
	p2 = pci_child_at(&self->card, "fpga-port.", 2);
	ASSERT_GE(p2, 0);
	EXPECT_EQ(-1, port_open(p2));
}

/*
 * Port 0's AFU starts 1 KiB into a page: the port binds and resets, but
 * the AFU is not offered for mmap, which would map the page below it;
 * uio_fpga refuses the port
 */
TEST_F(pci_hostile, afu_not_on_a_page_is_not_mapped)
{
	struct dfl_fpga_port_region_info ri;
	long page = sysconf(_SC_PAGESIZE);
	char buf[64], name[32];
	int num, fd;
	void *p;

	NEED_CARDS();
	num = pci_child_at(&self->card, "fpga-port.", 0);
	ASSERT_GE(num, 0);
	snprintf(name, sizeof(name), "fpga-port.%d:", num);
	EXPECT_TRUE(kmsg_has(self->kmsg, "does not start on a page", name));
	fd = port_open(num);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, region_info(fd, &ri));
	EXPECT_EQ(0x3000, ri.size);
	EXPECT_EQ(DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE, ri.flags);
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, ri.offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	if (p != MAP_FAILED)
		munmap(p, page);
	EXPECT_EQ(0, port_reset(fd));
	close(fd);
	ASSERT_EQ(0, port_attr(num, "regions/0/flags", buf, sizeof(buf)));
	EXPECT_STREQ("0x3", buf);

	ASSERT_EQ(0, run_cmd("modprobe uio_fpga reset_timeout_us=" MODEL_TIMEOUT_US));
	port_bind(num, "uio_fpga");
	ASSERT_EQ(0, port_driver(num, buf, sizeof(buf)));
	EXPECT_STRNE("uio_fpga", buf);
	EXPECT_EQ(0, port_bind(num, "fpga_port"));
}

TEST_HARNESS_MAIN
