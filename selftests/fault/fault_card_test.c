// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures in a card's life: creation (enumeration, both
 * drivers' probes, the PMU), deletion, opening and closing a port (the
 * last close resets it), opening the card's perf events; and a whole
 * life cycle run again and again with a probability of failure for this
 * task and its children.  After each failure the card works or is cleanly
 * absent, and nothing of ours leaks.
 */
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#include "fault_util.h"
#include "fault_dev.h"
#include "perf_util.h"

struct card_ctx {
	unsigned int id;
	int checks;
};

static void load(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"));
}

static int op_create(void *p)
{
	struct card_ctx *c = p;

	return sim_add(c->id, 2);
}

/* A failed creation leaves nothing; a card that exists can go and work */
static int check_create(void *p, int ret)
{
	struct card_ctx *c = p;
	int err;

	if (ret < 0 && card_exists(c->id)) {
		printf("# creation failed (%d) but the card exists\n", ret);
		return -1;
	}
	if (card_exists(c->id) && (err = sim_del(c->id))) {
		printf("# a card that survived an injected failure cannot be deleted: %d\n",
		       err);
		return -1;
	}
	/* Every few steps, and always at the end, the full proof */
	if (ret == 0 || ++c->checks % 8 == 0) {
		err = sim_add(c->id, 2);
		if (!err)
			err = card_port_works(c->id, 0);
		if (!err)
			err = card_port_works(c->id, 1);
		sim_del(c->id);
		if (err) {
			printf("# a new card does not work after a failed creation: %d\n",
			       err);
			return -1;
		}
	}
	return 0;
}

/* No state: the timeout of a sweep needs a fixture */
FIXTURE(fault) {
	int unused;
};

FIXTURE_SETUP(fault)
{
}

FIXTURE_TEARDOWN(fault)
{
}

TEST_F_TIMEOUT(fault, card_create, FAULT_TEST_TIMEOUT)
{
	struct card_ctx c = { .id = sim_random_id() };

	FAULT_PROLOGUE();
	load(_metadata);
	ASSERT_SWEEP("card create", op_create, check_create, &c);
	ASSERT_NO_LEAKS();
}

static int op_delete(void *p)
{
	struct card_ctx *c = p;

	return sim_del(c->id);
}

/* Deleted, or still there and deletable; then back for the next step */
static int check_delete(void *p, int ret)
{
	struct card_ctx *c = p;
	int err;

	if (ret == 0 && card_exists(c->id)) {
		printf("# deletion succeeded but the card is still there\n");
		return -1;
	}
	if (card_exists(c->id) && (err = sim_del(c->id))) {
		printf("# cannot delete after a failed deletion: %d\n", err);
		return -1;
	}
	err = sim_add(c->id, 2);
	if (!err && (ret == 0 || ++c->checks % 8 == 0))
		err = card_port_works(c->id, 0);
	if (err) {
		printf("# no working card after an injected failure in deletion: %d\n",
		       err);
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(fault, card_delete, FAULT_TEST_TIMEOUT)
{
	struct card_ctx c = { .id = sim_random_id() };

	FAULT_PROLOGUE();
	load(_metadata);
	ASSERT_EQ(0, sim_add(c.id, 2));
	ASSERT_SWEEP("card delete", op_delete, check_delete, &c);
	sim_del(c.id);
	ASSERT_NO_LEAKS();
}

/* Open, ask, close: the last close resets the port */
static int op_open_close(void *p)
{
	struct card_ctx *c = p;
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	int fd = port_open_num(sim_port_number(c->id)), ret;

	if (fd < 0)
		return fd;
	ret = ioctl(fd, DFL_FPGA_PORT_GET_INFO, &info) ? -errno : 0;
	close(fd);
	return ret;
}

static int check_port(void *p, int ret)
{
	struct card_ctx *c = p;
	int err = card_port_works(c->id, 0);

	(void)ret;
	if (err)
		printf("# the port does not work after an injected failure: %d\n",
		       err);
	return err ? -1 : 0;
}

TEST_F_TIMEOUT(fault, port_open_close, FAULT_TEST_TIMEOUT)
{
	struct card_ctx c = { .id = sim_random_id() };

	FAULT_PROLOGUE();
	load(_metadata);
	ASSERT_EQ(0, sim_add(c.id, 1));
	ASSERT_SWEEP("port open/close", op_open_close, check_port, &c);
	sim_del(c.id);
	ASSERT_NO_LEAKS();
}

static int op_perf(void *p)
{
	struct card_ctx *c = p;
	int num = sim_card_number(c->id), fd;
	long long type = pmu_read_num(num, "type");

	fd = perf_open(type, PMU_BANK(EV_DMA_RD_BYTES, 0), 0, -1);
	if (fd < 0)
		return fd;
	if (perf_count(fd) == (uint64_t)-1) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return 0;
}

static int check_perf(void *p, int ret)
{
	(void)ret;
	if (op_perf(p)) {
		printf("# the PMU does not work after an injected failure\n");
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(fault, pmu_open, FAULT_TEST_TIMEOUT)
{
	struct card_ctx c = { .id = sim_random_id() };

	FAULT_PROLOGUE();
	load(_metadata);
	ASSERT_EQ(0, sim_add(c.id, 1));
	if (!pmu_exists(sim_card_number(c.id))) {
		sim_del(c.id);
		SKIP(return, "the card has no PMU");
	}
	ASSERT_SWEEP("perf_event_open", op_perf, check_perf, &c);
	sim_del(c.id);
	ASSERT_NO_LEAKS();
}

/*
 * A card's whole life, over and over, with every allocation of this
 * child failing at @percent: whatever fails, only errors come back.
 */
static void life_cycles(unsigned int id, int percent, int rounds)
{
	fault_probability(percent);
	if (fault_make_it_fail(1))
		_exit(3);
	for (int i = 0; i < rounds; i++) {
		int num, fd;

		if (sim_add(id, 1))
			continue;
		num = sim_port_number(id);
		fd = num < 0 ? -1 : port_open_num(num);
		if (fd >= 0) {
			nlb_copy_check(fd);	/* may fail: only must not crash */
			close(fd);
		}
		/* deletion may fail too: retried; ENOENT means it is gone */
		for (int k = 0; k < 100 && sim_del(id) != -ENOENT; k++)
			;
	}
	/* the write itself may fail while failing is on */
	while (fault_make_it_fail(0))
		;
	_exit(0);
}

TEST_F_TIMEOUT(fault, life_cycle_probability, FAULT_TEST_TIMEOUT)
{
	static const int percents[] = { 1, 5, 20 };
	unsigned int id = sim_random_id();

	FAULT_PROLOGUE();
	load(_metadata);
	for (size_t i = 0; i < sizeof(percents) / sizeof(percents[0]); i++) {
		int st;
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (pid == 0)
			life_cycles(id, percents[i], 30);
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		fault_probability(0);
		/* only errors came back: nothing killed the child */
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			TH_LOG("%d%%: the life cycles ended with status %#x",
			       percents[i], st);
		}
		/* a card left behind goes, without failures */
		if (card_exists(id))
			EXPECT_EQ(0, sim_del(id));
		/* and a card works afterwards */
		ASSERT_EQ(0, sim_add(id, 1));
		EXPECT_EQ(0, card_port_works(id, 0));
		ASSERT_EQ(0, sim_del(id));
	}
	ASSERT_NO_LEAKS();
}

TEST_HARNESS_MAIN
