// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DFL parser on lists other than the normal one (fpga_sim's dfl_layout
 * parameter): a DFHv1 feature whose interrupts come from an MSI-X
 * parameter, and malformed lists.  Each malformed entry must be reported
 * in the kernel log with its offset and reason, and cost only what it
 * breaks: the rest of the card is enumerated and works.  And an older
 * card's counter bank, whose missing event the drivers leave out.
 */
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "nlb_util.h"
#include "uio_util.h"

#define LAYOUT_PARAM	"/sys/module/fpga_sim/parameters/dfl_layout"

/* The kernel log from now on */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Has a record containing all of @a and @b been logged since kmsg_open? */
static int kmsg_has(int fd, const char *a, const char *b)
{
	char rec[1024];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		if (strstr(rec, a) && (!b || strstr(rec, b)))
			return 1;
	}
	return 0;
}

/* Open the port that is port @hw_id of card @card; -1 if there is none */
static int open_hw_port(unsigned int card, int hw_id)
{
	int num = sim_port_by_id(card, hw_id);
	char path[64];

	if (num < 0)
		return -1;
	snprintf(path, sizeof(path), "/dev/fpga-port.%d", num);
	return open(path, O_RDWR);
}

static int irq_num(int fd, unsigned long cmd)
{
	uint32_t n;

	return ioctl(fd, cmd, &n) ? -errno : (int)n;
}

FIXTURE(dfl) {
	unsigned int card;
	int kmsg;
};

FIXTURE_SETUP(dfl)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"));
	self->card = sim_random_id();
	self->kmsg = kmsg_open();
	ASSERT_GE(self->kmsg, 0);
}

FIXTURE_TEARDOWN(dfl)
{
	sysfs_write(LAYOUT_PARAM, "normal");
	sim_del(self->card);
	close(self->kmsg);
	run_cmd("modprobe -r uio_fpga 2>/dev/null");
	run_cmd("modprobe -r fpga_port fpga_fme fpga_sim fpga_dfl");
}

static void add_card(struct __test_metadata *_metadata, FIXTURE_DATA(dfl) *self,
		     const char *layout)
{
	ASSERT_EQ(0, sysfs_write(LAYOUT_PARAM, layout));
	ASSERT_EQ(0, sim_add(self->card, 2));
	ASSERT_EQ(0, sysfs_write(LAYOUT_PARAM, "normal"));
}

TEST_F(dfl, layout_parameter_is_validated)
{
	char buf[64];

	EXPECT_EQ(-EINVAL, sysfs_write(LAYOUT_PARAM, "sideways"));
	ASSERT_EQ(0, sysfs_write(LAYOUT_PARAM, "next0\n"));
	ASSERT_EQ(0, sysfs_read(LAYOUT_PARAM, buf, sizeof(buf)));
	EXPECT_STREQ("next0", buf);
}

TEST_F(dfl, normal_list_reports_nothing)
{
	int fd;

	add_card(_metadata, self, "normal");
	EXPECT_EQ(2, card_children(self->card, "fpga-port."));
	EXPECT_FALSE(kmsg_has(self->kmsg, "DFL offset", NULL));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(1, irq_num(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM));
	EXPECT_EQ(4, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	close(fd);
}

/* DFHv1: the UINT's vectors come from its MSI-X parameter, and work */
TEST_F(dfl, dfhv1_msix_parameter)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 2, .count = 1 } };
	volatile uint64_t *afu;
	uint64_t count = 0;
	struct pollfd p;
	int fd;

	add_card(_metadata, self, "dfhv1");
	EXPECT_FALSE(kmsg_has(self->kmsg, "DFL offset", NULL));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(4, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	set.fd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(set.fd, 0);
	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set));
	afu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	nlb_write(afu, NLB_DOORBELL, 1 << 2);
	p.fd = set.fd;
	p.events = POLLIN;
	ASSERT_EQ(1, poll(&p, 1, 5000));
	ASSERT_EQ(8, read(set.fd, &count, 8));
	EXPECT_EQ(1, count);
	munmap((void *)afu, 4096);
	close(set.fd);
	close(fd);
}

/* Port 1's offset points at port 0: reported, port 0 and the FME live on */
TEST_F(dfl, loop_back_to_a_walked_feature)
{
	int fd;

	add_card(_metadata, self, "loop");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x10000",
			     "overlaps the feature at 0x10000"));
	EXPECT_EQ(1, card_children(self->card, "fpga-port."));
	EXPECT_EQ(1, card_children(self->card, "fpga-fme."));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, DFL_FPGA_PORT_RESET, 0));
	close(fd);
}

/* A broken link in port 0's list costs port 0 what follows it, only */
static void broken_list(struct __test_metadata *_metadata,
			FIXTURE_DATA(dfl) *self, const char *layout,
			const char *reason)
{
	int fd;

	add_card(_metadata, self, layout);
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x11000", reason));
	EXPECT_EQ(2, card_children(self->card, "fpga-port."));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(1, irq_num(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM));
	/* The UINT feature after the break is not there */
	EXPECT_EQ(-EINVAL, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	EXPECT_EQ(0, ioctl(fd, DFL_FPGA_PORT_RESET, 0));
	close(fd);
	fd = open_hw_port(self->card, 1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(4, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	close(fd);
}

TEST_F(dfl, next_offset_outside_the_window)
{
	broken_list(_metadata, self, "outside", "list ends");
}

TEST_F(dfl, next_zero_without_eol)
{
	broken_list(_metadata, self, "next0", "next offset is 0 without EOL");
}

TEST_F(dfl, unknown_feature_type_is_skipped)
{
	int fd;

	add_card(_metadata, self, "unknown_type");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x11000",
			     "feature type 7"));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	/* The odd feature is gone, the walk went on to the UINT */
	EXPECT_EQ(-EINVAL, irq_num(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM));
	EXPECT_EQ(4, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	close(fd);
}

TEST_F(dfl, bad_irq_capability_keeps_the_feature)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 }, .fd = -1 };
	int fd;

	add_card(_metadata, self, "bad_irq");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x12000",
			     "bad IRQ capability"));
	EXPECT_EQ(2, card_children(self->card, "fpga-port."));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	EXPECT_EQ(-1, ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(1, irq_num(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM));
	close(fd);
}

/* A later DFL revision: DFH version 2 where the parser knows 0 and 1 */
TEST_F(dfl, future_fme_feature_is_skipped)
{
	add_card(_metadata, self, "dfh2_fme_feature");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x1000",
			     "unknown DFH version 2"));
	EXPECT_EQ(1, card_children(self->card, "fpga-fme."));
	EXPECT_EQ(2, card_children(self->card, "fpga-port."));
}

TEST_F(dfl, future_port_header_ends_its_list)
{
	int fd;

	add_card(_metadata, self, "dfh2_port");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x60000",
			     "unknown DFH version 2, list ends here"));
	/* The other port and the FME are there, and work */
	EXPECT_EQ(1, card_children(self->card, "fpga-fme."));
	EXPECT_EQ(1, card_children(self->card, "fpga-port."));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, DFL_FPGA_PORT_RESET, 0));
	close(fd);
}

/* No driver, no node: what a port without an AFU has */
static void port_without_afu(struct __test_metadata *_metadata,
			     FIXTURE_DATA(dfl) *self)
{
	int fd;

	EXPECT_EQ(2, card_children(self->card, "fpga-port."));
	EXPECT_EQ(-1, open_hw_port(self->card, 0));
	fd = open_hw_port(self->card, 1);
	ASSERT_GE(fd, 0);
	close(fd);
}

TEST_F(dfl, future_afu_leaves_its_port_without_one)
{
	add_card(_metadata, self, "dfh2_afu");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x20000",
			     "unknown DFH version 2, port kept without its AFU"));
	port_without_afu(_metadata, self);
}

TEST_F(dfl, short_dfhv1_registers_skip_the_feature)
{
	int fd;

	add_card(_metadata, self, "short_feature");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x11000",
			     "registers 0x8 bytes long"));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, irq_num(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM));
	EXPECT_EQ(4, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	close(fd);
}

/* An AFU whose DFH id is the UINT's: its GUID is not read as a capability */
TEST_F(dfl, afu_is_not_read_as_a_private_feature)
{
	int fd;

	add_card(_metadata, self, "afu_uint_id");
	EXPECT_FALSE(kmsg_has(self->kmsg, "DFL offset", NULL));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(4, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	close(fd);
}

/* A DFHv1 AFU whose registers are its port's header is refused */
TEST_F(dfl, afu_registers_on_its_port_header)
{
	add_card(_metadata, self, "afu_on_port");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x20000",
			     "registers at 0x10000 overlap another feature's at 0x10000, port kept without its AFU"));
	port_without_afu(_metadata, self);
}

/* ... and one whose registers are the FME header (absolute address) */
TEST_F(dfl, afu_registers_on_the_fme_header)
{
	add_card(_metadata, self, "afu_on_fme");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x20000",
			     "registers at 0x0 overlap another feature's at 0x0,"));
	EXPECT_EQ(1, card_children(self->card, "fpga-fme."));
	port_without_afu(_metadata, self);
}

/* A DFHv1 UINT whose registers are the AFU: skipped, the AFU stays */
TEST_F(dfl, feature_registers_on_the_afu)
{
	volatile uint64_t *afu;
	int fd;

	add_card(_metadata, self, "feature_on_afu");
	EXPECT_TRUE(kmsg_has(self->kmsg, "DFL offset 0x12000",
			     "registers at 0x20000 overlap another feature's at 0x20000, feature skipped"));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, irq_num(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM));
	EXPECT_EQ(1, irq_num(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM));
	afu = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(NLB0_AFU_GUID_L, afu[1]);
	munmap((void *)afu, 4096);
	close(fd);
}

static int region_info(int fd, struct dfl_fpga_port_region_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->argsz = sizeof(*ri);
	ri->index = DFL_PORT_REGION_INDEX_AFU;
	return ioctl(fd, DFL_FPGA_PORT_GET_REGION_INFO, ri) ? -errno : 0;
}

/*
 * An AFU 1 KiB into a page: mapping it would map the registers below it.
 * The port binds; region 0 is listed without MMAP and mmap fails; uio_fpga
 * refuses the port.  Port 1, on a page, maps.
 */
TEST_F(dfl, afu_not_on_a_page_is_not_mapped)
{
	struct dfl_fpga_port_region_info ri;
	char path[128], drv[64];
	int fd, num;
	void *p;

	add_card(_metadata, self, "afu_unaligned");
	num = sim_port_by_id(self->card, 0);
	ASSERT_GE(num, 0);
	EXPECT_TRUE(kmsg_has(self->kmsg, "does not start on a page", NULL));
	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, region_info(fd, &ri));
	EXPECT_EQ(DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE, ri.flags);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, ri.offset);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/regions/0/flags",
		 num);
	EXPECT_EQ(DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE,
		  sysfs_read_num(path));
	EXPECT_EQ(0, ioctl(fd, DFL_FPGA_PORT_RESET, 0));
	close(fd);

	ASSERT_EQ(0, run_cmd("modprobe uio_fpga"));
	port_bind(num, "uio_fpga");
	ASSERT_EQ(0, port_driver(num, drv, sizeof(drv)));
	EXPECT_STRNE("uio_fpga", drv);
	EXPECT_TRUE(kmsg_has(self->kmsg, "cannot be mapped: not page aligned", NULL));
	EXPECT_EQ(0, port_bind(num, "fpga_port"));

	fd = open_hw_port(self->card, 1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, region_info(fd, &ri));
	EXPECT_EQ(DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE |
		  DFL_PORT_REGION_MMAP, ri.flags);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, ri.offset);
	EXPECT_NE(MAP_FAILED, p);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
}

/*
 * A counter bank of eight events, as an older card's: nothing reported,
 * and no afu_busy_clocks anywhere (FME counters/, the PMU's events/, the
 * port's fdinfo), although the model still counts it
 */
TEST_F(dfl, counter_bank_without_afu_busy)
{
	char fme[256], path[512], info[4096];
	const char *name;
	ssize_t len;
	int fd, in;

	add_card(_metadata, self, "cntr8");
	EXPECT_FALSE(kmsg_has(self->kmsg, "DFL offset", NULL));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", fme, sizeof(fme)));
	snprintf(path, sizeof(path), "%s/counters/dma_faults", fme);
	EXPECT_TRUE(path_exists(path));
	snprintf(path, sizeof(path), "%s/counters/afu_busy_clocks", fme);
	EXPECT_FALSE(path_exists(path));
	snprintf(path, sizeof(path), "%s/counters/port0_afu_busy_clocks", fme);
	EXPECT_FALSE(path_exists(path));
	/* fpga-fme.N: N is the card number, fpga_pmu_N's */
	name = strrchr(fme, '.') + 1;
	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/fpga_pmu_%s/events/dma_faults",
		 name);
	EXPECT_TRUE(path_exists(path));
	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/fpga_pmu_%s/events/afu_busy_clocks",
		 name);
	EXPECT_FALSE(path_exists(path));

	fd = open_hw_port(self->card, 0);
	ASSERT_GE(fd, 0);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	in = open(path, O_RDONLY);
	ASSERT_GE(in, 0);
	len = read(in, info, sizeof(info) - 1);
	close(in);
	ASSERT_GT(len, 0);
	info[len] = '\0';
	EXPECT_NE(NULL, strstr(info, "fpga-resets:\t"));
	EXPECT_EQ(NULL, strstr(info, "fpga-engine-afu"));
	close(fd);
}

TEST_HARNESS_MAIN
