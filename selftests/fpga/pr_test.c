// SPDX-License-Identifier: GPL-2.0-only
/*
 * Partial reconfiguration on a simulated card: DFL_FPGA_FME_PORT_PR, the
 * interface id where OPAE reads it, errors/pr_err, the bitstreams the card
 * refuses (it keeps its AFU), and the port's users: their files and
 * mappings are cut off as on unplug, the port comes back under its name
 * and with its driver.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "afu_models.h"
#include "perf_util.h"
#include "sim_util.h"
#include "nlb_util.h"
#include "pr_util.h"
#include "uio_util.h"

#define OTHER_INTF	"5b974f33-1a2b-49ff-ab36-c38ef191463b"
#define NO_SUCH_AFU	"00000000-0000-0000-0000-00000000c0de"

FIXTURE(pr) {
	unsigned int card;
	int num;
	char fme_sysfs[128];
	char port_sysfs[128];
	int fme_fd;
};

FIXTURE_SETUP(pr)
{
	char path[256], dev[64];
	const char *name;

	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 2));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	name = strrchr(path, '/') + 1;
	snprintf(self->fme_sysfs, sizeof(self->fme_sysfs), DFL_DEVICES "/%s",
		 name);
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	self->num = sim_port_number(self->card);
	ASSERT_GE(self->num, 0);
	snprintf(self->port_sysfs, sizeof(self->port_sysfs),
		 DFL_DEVICES "/fpga-port.%d", self->num);
	self->fme_fd = open(dev, O_RDWR);
	ASSERT_GE(self->fme_fd, 0) {
		TH_LOG("open %s: %s", dev, strerror(errno));
	}
}

FIXTURE_TEARDOWN(pr)
{
	if (self->fme_fd >= 0)
		close(self->fme_fd);
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_fme uio_fpga fpga_sim fpga_dfl");
}

/* The interface id as sysfs prints it: 32 hex digits */
static void intf_hex(const char *uuid, char *out)
{
	for (; *uuid; uuid++)
		if (*uuid != '-')
			*out++ = *uuid;
	*out = '\0';
}

static long long fme_pr_err(FIXTURE_DATA(pr) *self)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/errors/pr_err", self->fme_sysfs);
	return sysfs_read_num(path);
}

static int port_afu_id(FIXTURE_DATA(pr) *self, char *buf, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/afu_id", self->port_sysfs);
	return sysfs_read(path, buf, size);
}

/* Program @afu for interface @intf; 0 or -errno */
static int program(FIXTURE_DATA(pr) *self, const char *afu, const char *intf)
{
	size_t len;
	uint8_t *bs = pr_bitstream(afu, intf, 100, &len);
	int ret;

	if (!bs)
		return -ENOMEM;
	ret = pr_program(self->fme_fd, 0, bs, len);
	free(bs);
	return ret;
}

/* An NLB0 loopback of 4 KiB through a fresh open of the port */
static void loopback(struct __test_metadata *_metadata,
		     FIXTURE_DATA(pr) *self)
{
	struct dma_buf src = { 0 }, dst = { 0 }, dsm = { 0 };
	volatile uint64_t *afu;
	char dev[64];
	int fd;

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", self->num);
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0) {
		TH_LOG("open %s: %s", dev, strerror(errno));
	}
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	ASSERT_NE(MAP_FAILED, afu);
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &src));
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &dst));
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &dsm));
	memset(src.va, 0xa5, 4096);
	memset(dst.va, 0, 4096);
	nlb_start(afu, dsm.iova, src.iova, dst.iova, 4096 / NLB_CACHE_LINE, 0);
	EXPECT_EQ(0, nlb_wait(afu, dsm.va, 10000));
	EXPECT_EQ(0, memcmp(src.va, dst.va, 4096));
	dma_buf_free(fd, &src);
	dma_buf_free(fd, &dst);
	dma_buf_free(fd, &dsm);
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
}

TEST_F(pr, interface_id_where_opae_reads_it)
{
	char path[256], want[40], buf[64];
	glob_t g;

	intf_hex(FPGA_SIM_INTERFACE_ID, want);
	snprintf(path, sizeof(path), "%s/pr/interface_id", self->fme_sysfs);
	ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);

	/* Upstream's layout, under dfl-fme.N */
	snprintf(path, sizeof(path),
		 "/sys/class/fpga_fme/dfl-fme.*/dfl-fme-region.*/fpga_region/region*/compat_id");
	ASSERT_EQ(0, glob(path, 0, NULL, &g));
	EXPECT_GE(g.gl_pathc, 1);
	ASSERT_EQ(0, sysfs_read(g.gl_pathv[0], buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);
	globfree(&g);

	EXPECT_EQ(0, fme_pr_err(self));
}

TEST_F(pr, program_nlb0_again)
{
	char id[64];

	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
	EXPECT_EQ(0, fme_pr_err(self));
	/* The port is back under its name, with the AFU the card runs */
	ASSERT_EQ(0, port_afu_id(self, id, sizeof(id)));
	EXPECT_STREQ(NLB0_AFU_ID, id);
	EXPECT_EQ(self->num, sim_port_number(self->card));
	loopback(_metadata, self);
	/* And again: each programming starts from a reset engine */
	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
	loopback(_metadata, self);
}

/* A bitstream the card must refuse with @err; the old AFU keeps running */
static void refused(struct __test_metadata *_metadata, FIXTURE_DATA(pr) *self,
		    uint8_t *bs, size_t len, long long err)
{
	char id[64];

	EXPECT_EQ(-EIO, pr_program(self->fme_fd, 0, bs, len));
	EXPECT_EQ(err, fme_pr_err(self));
	ASSERT_EQ(0, port_afu_id(self, id, sizeof(id)));
	EXPECT_STREQ(NLB0_AFU_ID, id);
	free(bs);
}

TEST_F(pr, refused_bitstreams_keep_the_afu)
{
	struct fpga_sim_bitstream *h;
	uint8_t *bs;
	size_t len;

	/* Another interface id: incompatible bitstream */
	bs = pr_bitstream(NLB0_ID, OTHER_INTF, 100, &len);
	ASSERT_NE(NULL, bs);
	refused(_metadata, self, bs, len, 0x4);

	/* An AFU the card has no model for: operation error */
	bs = pr_bitstream(NO_SUCH_AFU, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	refused(_metadata, self, bs, len, 0x1);

	/* A byte changed: CRC error */
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	bs[sizeof(*h) + 3] ^= 1;
	refused(_metadata, self, bs, len, 0x2);

	/* Truncated: the sizes disagree */
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	refused(_metadata, self, bs, len - 8, 0x2);

	/* Not a bitstream of this card at all */
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	memcpy(bs, "GARBAGE!", 8);
	refused(_metadata, self, bs, len, 0x2);

	/* Flags the card does not know, with a right CRC */
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	h = (struct fpga_sim_bitstream *)bs;
	h->flags = 1;
	pr_put_le32(bs + len - 4, pr_crc32(bs, len - 4));
	refused(_metadata, self, bs, len, 0x1);

	/* Larger than the card takes */
	len = FPGA_SIM_BS_MAX_SIZE + 4096;
	bs = calloc(1, len);
	ASSERT_NE(NULL, bs);
	refused(_metadata, self, bs, len, 0x10);

	/* The AFU still works, and a good bitstream clears pr_err */
	loopback(_metadata, self);
	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
	EXPECT_EQ(0, fme_pr_err(self));
}

TEST_F(pr, bad_arguments)
{
	struct dfl_fpga_fme_port_pr pr = { .argsz = sizeof(pr) };
	char dev[64];
	uint8_t *bs;
	size_t len;
	int ro;

	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	pr.buffer_address = (uintptr_t)bs;
	pr.buffer_size = len;

	pr.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, &pr));
	EXPECT_EQ(EINVAL, errno);
	pr.flags = 0;
	pr.argsz = 8;
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, &pr));
	EXPECT_EQ(EINVAL, errno);
	pr.argsz = sizeof(pr);
	pr.buffer_size = 0;
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, &pr));
	EXPECT_EQ(EINVAL, errno);
	pr.buffer_size = len - 2;
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, &pr));
	EXPECT_EQ(EINVAL, errno);
	pr.buffer_size = len;
	pr.port_id = 2;		/* the card has ports 0 and 1 */
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, &pr));
	EXPECT_EQ(EINVAL, errno);
	pr.port_id = 0;
	pr.buffer_address = 8;
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, &pr));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fme_fd, DFL_FPGA_FME_PORT_PR, NULL));
	EXPECT_EQ(EFAULT, errno);

	/* Programming changes the card: a file open for reading may not */
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(self->fme_sysfs, '/') + 1);
	ro = open(dev, O_RDONLY);
	ASSERT_GE(ro, 0);
	EXPECT_EQ(-EBADF, pr_program(ro, 0, bs, len));
	close(ro);
	/* Nothing was programmed by any of these */
	EXPECT_EQ(0, fme_pr_err(self));
	free(bs);
}

TEST_F(pr, timeout_parameter_is_validated)
{
	const char *param = "/sys/module/fpga_fme/parameters/pr_timeout_us";
	long long was = sysfs_read_num(param);

	ASSERT_GT(was, 0);
	EXPECT_EQ(-EINVAL, sysfs_write(param, "0"));
	EXPECT_EQ(-EINVAL, sysfs_write(param, "60000001"));
	EXPECT_EQ(-EINVAL, sysfs_write(param, "soon"));
	EXPECT_EQ(was, sysfs_read_num(param));
	ASSERT_EQ(0, sysfs_write(param, "60000000"));
	EXPECT_EQ(60000000, sysfs_read_num(param));
	ASSERT_EQ(0, sysfs_write(param, "1000000"));
}

TEST_F(pr, needs_cap_sys_admin)
{
	uint8_t *bs;
	size_t len;
	pid_t pid;
	int status;

	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	ASSERT_NE(NULL, bs);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* Leaving uid 0 drops every capability; the file stays open */
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(pr_program(self->fme_fd, 0, bs, len) == -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	free(bs);
}

static sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(bus_jmp, 1);
}

TEST_F(pr, users_of_the_port_are_cut_off)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	volatile uint64_t *afu;
	struct sigaction sa = { .sa_handler = on_sigbus };
	volatile int faulted;
	char dev[64];
	int fd;

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", self->num);
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0);
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	ASSERT_NE(MAP_FAILED, afu);
	EXPECT_EQ(1, afu[0] >> 60);

	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));

	/* The file was for the old AFU: gone, as after an unplug */
	EXPECT_EQ(-1, ioctl(fd, DFL_FPGA_PORT_GET_INFO, &info));
	EXPECT_EQ(ENODEV, errno);
	/* And so is its mapping */
	ASSERT_EQ(0, sigaction(SIGBUS, &sa, NULL));
	if (!sigsetjmp(bus_jmp, 1)) {
		(void)afu[0];
		faulted = 0;
	} else {
		faulted = 1;
	}
	EXPECT_TRUE(faulted) {
		TH_LOG("the old AFU's mapping still reads");
	}
	signal(SIGBUS, SIG_DFL);
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
	/* A new open reaches the new AFU */
	loopback(_metadata, self);
}

struct irq_waiter {
	int port_fd;
	int efd;
	short port_revents;
	int efd_ready;
	double waited_ms;
};

/* Wait for a user interrupt, or for the port to go, 20 s at most */
static void *irq_wait(void *arg)
{
	struct irq_waiter *w = arg;
	struct pollfd pfd[2] = {
		{ .fd = w->efd, .events = POLLIN },
		{ .fd = w->port_fd, .events = POLLIN },
	};
	double t0 = now_ms();

	if (poll(pfd, 2, 20000) >= 0) {
		w->efd_ready = pfd[0].revents & POLLIN;
		w->port_revents = pfd[1].revents;
	}
	w->waited_ms = now_ms() - t0;
	return NULL;
}

TEST_F(pr, interrupt_waiter_learns_the_port_went)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 } };
	struct irq_waiter w = { .port_revents = -1 };
	char dev[64];
	pthread_t t;

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", self->num);
	w.port_fd = open(dev, O_RDWR);
	ASSERT_GE(w.port_fd, 0);
	w.efd = eventfd(0, EFD_CLOEXEC);
	ASSERT_GE(w.efd, 0);
	set.fd = w.efd;
	ASSERT_EQ(0, ioctl(w.port_fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set));
	ASSERT_EQ(0, pthread_create(&t, NULL, irq_wait, &w));
	usleep(200000);
	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
	ASSERT_EQ(0, pthread_join(t, NULL));
	/* No interrupt, but the port's file hung up, well before 20 s */
	EXPECT_EQ(0, w.efd_ready);
	EXPECT_TRUE(w.port_revents & POLLHUP);
	EXPECT_LT(w.waited_ms, 15000);
	close(w.efd);
	close(w.port_fd);
	loopback(_metadata, self);
}

/*
 * A run that only software or a reset can end (NLB3 looping), so that
 * the programming meets it under way however slowly this test runs: a
 * finite copy of NLB0's could end first on a loaded machine.
 */
TEST_F(pr, dma_in_flight)
{
	struct dma_buf src = { 0 }, dst = { 0 }, dsm = { 0 };
	long long copied;
	uint64_t len = 1 << 20;
	volatile uint64_t *afu;
	char dev[64];
	int fd, i;

	ASSERT_EQ(0, program(self, NLB3_ID, FPGA_SIM_INTERFACE_ID));
	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", self->num);
	fd = open(dev, O_RDWR);
	ASSERT_GE(fd, 0);
	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   0);
	ASSERT_NE(MAP_FAILED, afu);
	ASSERT_EQ(0, dma_buf_alloc(fd, len, &src));
	ASSERT_EQ(0, dma_buf_alloc(fd, len, &dst));
	ASSERT_EQ(0, dma_buf_alloc(fd, 4096, &dsm));
	memset(src.va, 0x3c, len);
	nlb_start(afu, dsm.iova, src.iova, dst.iova, len / NLB_CACHE_LINE,
		  AFU_CFG_CONT | AFU_CFG_MODE(AFU_MODE_LPBK1));
	/* Program while the engine copies, a pass done at least */
	for (i = 0; i < 20000 && (!nlb_read(afu, NLB_STATUS1) ||
				  sim_counter(self->card, 0, "dma_rd_bytes") <
				  (long long)len); i++)
		usleep(1000);
	ASSERT_NE(0, nlb_read(afu, NLB_STATUS1)) {
		TH_LOG("the loop did not start");
	}
	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
	/*
	 * The run was cut short: the engine reads no more, wrote no DSM
	 * (a loop ends with one only when software stops it), and the
	 * mappings are gone
	 */
	copied = sim_counter(self->card, 0, "dma_rd_bytes");
	usleep(200000);
	EXPECT_EQ(copied, sim_counter(self->card, 0, "dma_rd_bytes"));
	EXPECT_EQ(0, ((volatile uint64_t *)dsm.va)[NLB_DSM_STATUS / 8] & 1);
	EXPECT_EQ(-ENODEV, dma_unmap(fd, src.iova));
	munmap(src.va, src.len);
	munmap(dst.va, dst.len);
	munmap(dsm.va, dsm.len);
	munmap((void *)afu, NLB_AFU_SIZE);
	close(fd);
	loopback(_metadata, self);
}

TEST_F(pr, uio_binding_survives)
{
	char drv[64];

	if (run_cmd("modprobe uio_fpga"))
		SKIP(return, "no uio_fpga");
	ASSERT_EQ(0, port_bind(self->num, "uio_fpga"));
	ASSERT_EQ(0, port_driver(self->num, drv, sizeof(drv)));
	ASSERT_STREQ("uio_fpga", drv);
	ASSERT_EQ(0, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
	ASSERT_EQ(0, port_driver(self->num, drv, sizeof(drv)));
	EXPECT_STREQ("uio_fpga", drv);
	ASSERT_EQ(0, port_bind(self->num, "fpga_port"));
}

struct prog_loop {
	int fd;
	int ok;
	int gone;
	int other;
	int last_err;
};

/* Program until the card goes away */
static void *prog_loop(void *arg)
{
	struct prog_loop *p = arg;
	size_t len;
	uint8_t *bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	int i, ret;

	for (i = 0; bs && i < 200; i++) {
		ret = pr_program(p->fd, 0, bs, len);
		if (!ret) {
			__atomic_add_fetch(&p->ok, 1, __ATOMIC_RELAXED);
		} else if (ret == -ENODEV) {
			p->gone++;
			break;
		} else {
			p->other++;
			p->last_err = ret;
		}
	}
	free(bs);
	return NULL;
}

TEST_F(pr, card_removed_while_programming)
{
	struct prog_loop p = { .fd = self->fme_fd };
	pthread_t t;
	int i;

	ASSERT_EQ(0, pthread_create(&t, NULL, prog_loop, &p));
	/* Let a programming through, then pull the card */
	for (i = 0; i < 30000 && !__atomic_load_n(&p.ok, __ATOMIC_RELAXED); i++)
		usleep(1000);
	ASSERT_EQ(0, sim_del(self->card));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, p.other) {
		TH_LOG("unexpected result %d", p.last_err);
	}
	EXPECT_EQ(1, p.gone);
	EXPECT_EQ(-ENODEV, program(self, NLB0_ID, FPGA_SIM_INTERFACE_ID));
}

struct prog_early {
	unsigned int card;
	int added;		/* the card's sim_add() returned */
	int early;		/* the programming was asked for before that */
	int ret;
};

/*
 * Program the last port of card @card as soon as its FME can be opened,
 * which is before the card's ports are all added
 */
static void *prog_early(void *arg)
{
	struct prog_early *p = arg;
	char path[256], dev[64];
	size_t len;
	uint8_t *bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &len);
	int i, fd = -1;

	p->ret = -ENOMEM;
	for (i = 0; bs && fd < 0 && i < 200000; i++) {
		if (card_child(p->card, "fpga-fme.", path, sizeof(path)))
			continue;
		snprintf(dev, sizeof(dev), "/dev/%s", strrchr(path, '/') + 1);
		fd = open(dev, O_RDWR);
	}
	if (fd >= 0) {
		p->early = !__atomic_load_n(&p->added, __ATOMIC_ACQUIRE);
		p->ret = pr_program(fd, 3, bs, len);
		close(fd);
	} else if (bs) {
		p->ret = -ETIMEDOUT;
	}
	free(bs);
	return NULL;
}

/*
 * A programming asked for while the card is still being added (its FME is
 * bound, its last port not yet added) waits for the card: it used to
 * unregister a port whose device_add() had not finished, and oops in
 * klist_put() (the fuzzer found it).  Ten rounds of a 4-port card took
 * more than the harness's 30 s on the debug kernel.
 */
TEST_F_TIMEOUT(pr, card_programmed_while_it_is_added, 240)
{
	struct prog_early p;
	unsigned int card = self->card + 1000;
	int round, early = 0;
	pthread_t t;
	char drv[64];

	for (round = 0; round < 5; round++) {
		p = (struct prog_early){ .card = card };
		ASSERT_EQ(0, pthread_create(&t, NULL, prog_early, &p));
		EXPECT_EQ(0, sim_add(card, 4));
		__atomic_store_n(&p.added, 1, __ATOMIC_RELEASE);
		ASSERT_EQ(0, pthread_join(t, NULL));
		EXPECT_EQ(0, p.ret) {
			TH_LOG("round %d: programming port 3: %s", round,
			       strerror(-p.ret));
		}
		early += p.early;
		/* Every port is there, bound, the programmed one too */
		EXPECT_EQ(4, card_children(card, "fpga-port."));
		EXPECT_EQ(0, port_driver(sim_port_number_at(card, 3), drv,
					 sizeof(drv)));
		EXPECT_STREQ("fpga_port", drv);
		ASSERT_EQ(0, sim_del(card));
	}
	TH_LOG("%d of 5 programmings asked for while the card was added",
	       early);
	EXPECT_NE(0, early);
}

/*
 * A card whose port 0 the PF does not have (assigned to a VF, or not
 * implemented): its other ports keep their numbers, and port N of
 * DFL_FPGA_FME_PORT_PR is the one FME_HDR_PORT_OFST(N) names, not the
 * Nth port found (issue 59)
 */
FIXTURE(pr_gap) {
	unsigned int card;
	int fme_fd;
};

FIXTURE_VARIANT(pr_gap) {
	const char *layout;
};

FIXTURE_VARIANT_ADD(pr_gap, port0_vf) {
	.layout = "port0_vf",
};

FIXTURE_VARIANT_ADD(pr_gap, port0_absent) {
	.layout = "port0_absent",
};

#define LAYOUT_PARAM	"/sys/module/fpga_sim/parameters/dfl_layout"

FIXTURE_SETUP(pr_gap)
{
	char path[256], dev[64];

	self->fme_fd = -1;
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_fme && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sysfs_write(LAYOUT_PARAM, variant->layout));
	ASSERT_EQ(0, sim_add(self->card, 3));
	ASSERT_EQ(0, sysfs_write(LAYOUT_PARAM, "normal"));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(path, '/') + 1);
	self->fme_fd = open(dev, O_RDWR);
	ASSERT_GE(self->fme_fd, 0);
}

FIXTURE_TEARDOWN(pr_gap)
{
	if (self->fme_fd >= 0)
		close(self->fme_fd);
	sysfs_write(LAYOUT_PARAM, "normal");
	sim_del(self->card);
	run_cmd("modprobe -r fpga_port fpga_fme fpga_sim fpga_dfl");
}

/* The AFU of port @hw of the card, as its fpga-port.N shows it */
static int gap_afu_id(FIXTURE_DATA(pr_gap) *self, int hw, char *buf,
		      size_t size)
{
	int num = sim_port_by_id(self->card, hw);
	char path[256];

	if (num < 0)
		return num;
	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/afu_id", num);
	return sysfs_read(path, buf, size);
}

/* How many times the card's model has seen port @hw reset */
static long long gap_resets(FIXTURE_DATA(pr_gap) *self, int hw)
{
	char path[256];

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/port%d/resets",
		 self->card, hw);
	return sysfs_read_num(path);
}

/*
 * Ports 1 and 2 run @afu1 and @afu2, and of the card's three ports only
 * @programmed was reset since @resets, which is brought up to date
 */
static void gap_check(struct __test_metadata *_metadata,
		      FIXTURE_DATA(pr_gap) *self, long long resets[3],
		      const char *afu1, const char *afu2, int programmed)
{
	const char *want[3] = { NULL, afu1, afu2 };
	long long now;
	char id[64];
	int hw;

	for (hw = 0; hw < 3; hw++) {
		if (want[hw]) {
			ASSERT_EQ(0, gap_afu_id(self, hw, id, sizeof(id)));
			EXPECT_STREQ(want[hw], id) {
				TH_LOG("port %d", hw);
			}
		}
		now = gap_resets(self, hw);
		if (hw == programmed) {
			EXPECT_LT(resets[hw], now) {
				TH_LOG("port %d was not reset", hw);
			}
		} else {
			EXPECT_EQ(resets[hw], now) {
				TH_LOG("port %d was reset", hw);
			}
		}
		resets[hw] = now;
	}
}

TEST_F(pr_gap, port_number_is_the_fme_register)
{
	long long resets[3];
	uint8_t *bs;
	size_t len;
	int hw;

	/* Ports 1 and 2 under their numbers, no port 0 */
	EXPECT_EQ(2, card_children(self->card, "fpga-port."));
	EXPECT_EQ(-1, sim_port_by_id(self->card, 0));
	ASSERT_GE(sim_port_by_id(self->card, 1), 0);
	ASSERT_GE(sim_port_by_id(self->card, 2), 0);
	for (hw = 0; hw < 3; hw++)
		resets[hw] = gap_resets(self, hw);

	/* The ioctl: port 2 takes NLB3, port 1 keeps NLB0, only 2 reset */
	bs = pr_bitstream(NLB3_ID, FPGA_SIM_INTERFACE_ID, 0, &len);
	ASSERT_NE(NULL, bs);
	EXPECT_EQ(0, pr_program(self->fme_fd, 2, bs, len));
	/* Port 0 is not the PF's to program */
	EXPECT_EQ(-EINVAL, pr_program(self->fme_fd, 0, bs, len));
	free(bs);
	gap_check(_metadata, self, resets, NLB0_AFU_ID, NLB3_AFU_ID, 2);

	/* fpgactl: port 1 takes HE-LB, port 2 keeps NLB3 */
	ASSERT_EQ(0, run_cmd("fpgactl gbs make afu helb out /tmp/pr_gap.gbs >/dev/null"));
	EXPECT_EQ(0, run_cmd("fpgactl pr fpga_sim%u /tmp/pr_gap.gbs port 1 | grep -q 'afu_id %s'",
			     self->card, HE_LB_AFU_ID));
	unlink("/tmp/pr_gap.gbs");
	gap_check(_metadata, self, resets, HE_LB_AFU_ID, NLB3_AFU_ID, 1);
}

TEST_HARNESS_MAIN
