// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures in a programming (DFL_FPGA_FME_PORT_PR): the copy of
 * the bitstream, the port's removal, its walk and registration again, its
 * driver's probe.  Each step fails cleanly or succeeds; a port that did
 * not come back, or came back without its driver, comes back whole with
 * the next programming; the card copies data afterwards, and nothing of
 * ours leaks.
 */
#include "fault_util.h"
#include "fault_dev.h"
#include "pr_util.h"

FIXTURE(fpr) {
	unsigned int id;
	int fme_fd;
};

FIXTURE_SETUP(fpr)
{
	char path[256], dev[64];

	FAULT_PROLOGUE();
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"));
	self->id = sim_random_id();
	ASSERT_EQ(0, sim_add(self->id, 1));
	ASSERT_EQ(0, card_child(self->id, "fpga-fme.", path, sizeof(path)));
	snprintf(dev, sizeof(dev), "/dev/%s", strrchr(path, '/') + 1);
	self->fme_fd = open(dev, O_RDWR);
	ASSERT_GE(self->fme_fd, 0);
}

FIXTURE_TEARDOWN(fpr)
{
	if (self->fme_fd > 0)
		close(self->fme_fd);
	if (self->id)
		sim_del(self->id);
}

struct pr_ctx {
	unsigned int id;
	int fme_fd;
	uint8_t *bs;
	size_t len;
};

static int op_program(void *p)
{
	struct pr_ctx *c = p;

	return pr_program(c->fme_fd, 0, c->bs, c->len);
}

/* A good programming with nothing failing brings the port back whole */
static int check_program(void *p, int ret)
{
	struct pr_ctx *c = p;
	size_t len;
	uint8_t *bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 0, &len);
	int err;

	(void)ret;
	if (!bs)
		return -1;
	err = pr_program(c->fme_fd, 0, bs, len);
	free(bs);
	if (!err)
		err = card_port_works(c->id, 0);
	if (err)
		printf("# the port does not work after an injected failure and a programming: %d\n",
		       err);
	return err ? -1 : 0;
}

TEST_F_TIMEOUT(fpr, program, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	struct pr_ctx c = { .id = self->id, .fme_fd = self->fme_fd };

	c.bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &c.len);
	ASSERT_NE(NULL, c.bs);
	ASSERT_SWEEP("PR", op_program, check_program, &c);
	free(c.bs);
	ASSERT_NO_LEAKS();
}

/* A bitstream the card refuses: the same path, ending in EIO */
static int op_refused(void *p)
{
	int ret = op_program(p);

	return ret == -EIO ? 0 : ret;
}

TEST_F_TIMEOUT(fpr, refused, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	struct pr_ctx c = { .id = self->id, .fme_fd = self->fme_fd };

	c.bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 100, &c.len);
	ASSERT_NE(NULL, c.bs);
	c.bs[70] ^= 1;
	ASSERT_SWEEP("refused PR", op_refused, check_program, &c);
	free(c.bs);
	ASSERT_NO_LEAKS();
}

TEST_HARNESS_MAIN
