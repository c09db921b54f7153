// SPDX-License-Identifier: GPL-2.0-only
/*
 * The generic netlink family "fpga", through libnl-3 as an application
 * would use it: the dump against sysfs, every event, strict validation
 * with extack messages, CAP_NET_ADMIN, a listener that never reads, and
 * module unload with a listener attached.
 */
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/fpga-dfl.h>

#include "kselftest_harness.h"
#include "sim_util.h"
#include "nl_util.h"
#include "uio_util.h"
#include "pr_util.h"
#include <fpga/nlb0.h>

/* ---- the dump ---- */

#define NLT_MAX_DEVS	64

struct nlt_dev {
	char name[32];
	unsigned int type, id, card_id, port_num;
	char card[32];
	char driver[32];
	char guid[40];
	unsigned long long mmio_size, errors;
	bool has_errors, has_guid;
};

struct nlt_devs {
	int n;
	struct nlt_dev d[NLT_MAX_DEVS];
};

static int nlt_dev_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FPGA_NL_A_MAX + 1];
	struct nlt_devs *devs = arg;
	struct nlt_dev *d;
	unsigned char *g;
	int i;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FPGA_NL_A_MAX, NULL) ||
	    devs->n == NLT_MAX_DEVS)
		return NL_SKIP;
	d = &devs->d[devs->n++];
	memset(d, 0, sizeof(*d));
	if (tb[FPGA_NL_A_DEV_NAME])
		snprintf(d->name, sizeof(d->name), "%s",
			 nla_get_string(tb[FPGA_NL_A_DEV_NAME]));
	if (tb[FPGA_NL_A_CARD_NAME])
		snprintf(d->card, sizeof(d->card), "%s",
			 nla_get_string(tb[FPGA_NL_A_CARD_NAME]));
	if (tb[FPGA_NL_A_DRIVER])
		snprintf(d->driver, sizeof(d->driver), "%s",
			 nla_get_string(tb[FPGA_NL_A_DRIVER]));
	if (tb[FPGA_NL_A_DEV_TYPE])
		d->type = nla_get_u32(tb[FPGA_NL_A_DEV_TYPE]);
	if (tb[FPGA_NL_A_DEV_ID])
		d->id = nla_get_u32(tb[FPGA_NL_A_DEV_ID]);
	if (tb[FPGA_NL_A_CARD_ID])
		d->card_id = nla_get_u32(tb[FPGA_NL_A_CARD_ID]);
	if (tb[FPGA_NL_A_PORT_NUM])
		d->port_num = nla_get_u32(tb[FPGA_NL_A_PORT_NUM]);
	if (tb[FPGA_NL_A_MMIO_SIZE])
		d->mmio_size = nla_get_u64(tb[FPGA_NL_A_MMIO_SIZE]);
	if (tb[FPGA_NL_A_PORT_ERRORS]) {
		d->has_errors = true;
		d->errors = nla_get_u64(tb[FPGA_NL_A_PORT_ERRORS]);
	}
	if (tb[FPGA_NL_A_AFU_GUID] &&
	    nla_len(tb[FPGA_NL_A_AFU_GUID]) == FPGA_NL_GUID_LEN) {
		d->has_guid = true;
		g = nla_data(tb[FPGA_NL_A_AFU_GUID]);
		for (i = 0; i < FPGA_NL_GUID_LEN; i++)
			sprintf(d->guid + 2 * i, "%02x", g[i]);
	}
	return NL_OK;
}

/* Dump every device (card_id < 0) or those of one card */
static int nlt_dump(struct nl_sock *sk, int family, int card_id,
		    struct nlt_devs *devs, struct nl_res *r)
{
	struct nl_msg *msg = nlt_msg(family, FPGA_NL_CMD_DEV_GET, NLM_F_DUMP);

	if (!msg)
		return -ENOMEM;
	if (card_id >= 0)
		nla_put_u32(msg, FPGA_NL_A_CARD_ID, card_id);
	devs->n = 0;
	r->valid = nlt_dev_cb;
	r->arg = devs;
	return nlt_do(sk, msg, r);
}

/* ---- events ---- */

struct nlt_event {
	int cmd;
	char name[32];		/* DEV_NAME or CARD_NAME */
	char driver[32];
	long long err;
	unsigned long long errors;
	bool has_errno, has_errors;
	unsigned int feature;
	unsigned long long irq_count;
	char guid[40];
};

static int nlt_event_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FPGA_NL_A_MAX + 1];
	struct nlt_event *ev = arg;

	memset(ev, 0, sizeof(*ev));
	ev->cmd = genlmsg_hdr(nlmsg_hdr(msg))->cmd;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FPGA_NL_A_MAX, NULL))
		return NL_STOP;
	if (tb[FPGA_NL_A_DEV_NAME])
		snprintf(ev->name, sizeof(ev->name), "%s",
			 nla_get_string(tb[FPGA_NL_A_DEV_NAME]));
	else if (tb[FPGA_NL_A_CARD_NAME])
		snprintf(ev->name, sizeof(ev->name), "%s",
			 nla_get_string(tb[FPGA_NL_A_CARD_NAME]));
	if (tb[FPGA_NL_A_DRIVER])
		snprintf(ev->driver, sizeof(ev->driver), "%s",
			 nla_get_string(tb[FPGA_NL_A_DRIVER]));
	if (tb[FPGA_NL_A_ERRNO]) {
		ev->has_errno = true;
		ev->err = (int)nla_get_u32(tb[FPGA_NL_A_ERRNO]);
	}
	if (tb[FPGA_NL_A_PORT_ERRORS]) {
		ev->has_errors = true;
		ev->errors = nla_get_u64(tb[FPGA_NL_A_PORT_ERRORS]);
	}
	if (tb[FPGA_NL_A_FEATURE_ID])
		ev->feature = nla_get_u32(tb[FPGA_NL_A_FEATURE_ID]);
	if (tb[FPGA_NL_A_IRQ_COUNT])
		ev->irq_count = nla_get_u64(tb[FPGA_NL_A_IRQ_COUNT]);
	if (tb[FPGA_NL_A_AFU_GUID] &&
	    nla_len(tb[FPGA_NL_A_AFU_GUID]) == FPGA_NL_GUID_LEN)
		for (int i = 0; i < FPGA_NL_GUID_LEN; i++)
			sprintf(ev->guid + 2 * i, "%02x",
				((unsigned char *)nla_data(tb[FPGA_NL_A_AFU_GUID]))[i]);
	return NL_STOP;
}

/* Events carry no sequence number to check */
static int nlt_no_seq_check(struct nl_msg *msg __attribute__((unused)),
			    void *arg __attribute__((unused)))
{
	return NL_OK;
}

/* The next event, waiting up to @ms; false if none came */
static bool nlt_next_event(struct nl_sock *sk, int ms, struct nlt_event *ev)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(sk), .events = POLLIN };
	struct nl_cb *cb;
	int ret;

	if (poll(&pfd, 1, ms) != 1)
		return false;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	ev->cmd = -1;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, nlt_event_cb, ev);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, nlt_no_seq_check, NULL);
	ret = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	return ret >= 0 && ev->cmd >= 0;
}

/* Wait up to 5 s for event @cmd about @name, skipping others */
static bool nlt_wait_event(struct nl_sock *sk, int cmd, const char *name,
			   struct nlt_event *ev)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!nlt_next_event(sk, 5000, ev))
			return false;
		if (ev->cmd == cmd && !strcmp(ev->name, name))
			return true;
	}
	return false;
}

/* ---- fixture: one card with two ports, a request socket ---- */

FIXTURE(nl) {
	unsigned int card;
	int port;
	char port_name[32];
	char card_name[32];
	struct nl_sock *sk;
	int family;
	struct nl_res r;
};

FIXTURE_SETUP(nl)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	self->card = sim_random_id();
	ASSERT_EQ(0, sim_add(self->card, 2));
	self->port = sim_port_number(self->card);
	ASSERT_GE(self->port, 0);
	snprintf(self->port_name, sizeof(self->port_name), "fpga-port.%d",
		 self->port);
	snprintf(self->card_name, sizeof(self->card_name), "fpga_sim%u",
		 self->card);
	self->sk = nlt_open(&self->family);
	ASSERT_NE(NULL, self->sk) TH_LOG("family \"fpga\" not found");
}

FIXTURE_TEARDOWN(nl)
{
	if (self->sk)
		nl_socket_free(self->sk);
	sim_del(self->card);
	sim_del(self->card + 1);
	sim_del(self->card + 2);
	run_cmd("modprobe -r fpga_port fpga_fme fpga_sim fpga_dfl");
}

static int port_write(unsigned int card, int idx, const char *attr,
		      const char *val)
{
	char path[160];

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u/port%d/%s",
		 card, idx, attr);
	return sysfs_write(path, val);
}

static long long port_errors(int port)
{
	char path[128];

	snprintf(path, sizeof(path), DFL_DEVICES "/fpga-port.%d/errors/errors",
		 port);
	return sysfs_read_num(path);
}

/* Every device of our two cards agrees with its sysfs directory */
TEST_F(nl, dump_agrees_with_sysfs)
{
	unsigned int card2 = self->card + 1;
	struct nlt_devs *devs = calloc(1, sizeof(*devs));
	char path[160], buf[64], card2_name[32];
	int i, ours = 0;

	ASSERT_NE(NULL, devs);
	snprintf(card2_name, sizeof(card2_name), "fpga_sim%u", card2);
	ASSERT_EQ(0, sim_add(card2, 1));
	ASSERT_EQ(0, port_write(card2, 0, "inject_error", "0x4"));
	ASSERT_EQ(0, nlt_dump(self->sk, self->family, -1, devs, &self->r))
		TH_LOG("dump: %s", self->r.msg);

	for (i = 0; i < devs->n; i++) {
		struct nlt_dev *d = &devs->d[i];
		char dir[96];

		snprintf(dir, sizeof(dir), DFL_DEVICES "/%s", d->name);
		ASSERT_TRUE(path_exists(dir)) TH_LOG("%s", d->name);
		if (strcmp(d->card, self->card_name) &&
		    strcmp(d->card, card2_name))
			continue;
		ours++;
		snprintf(path, sizeof(path), "%s/card_id", dir);
		EXPECT_EQ(sysfs_read_num(path), d->card_id);
		snprintf(buf, sizeof(buf), "%s.%u",
			 d->type == FPGA_NL_DEV_PORT ? "fpga-port" : "fpga-fme",
			 d->id);
		EXPECT_STREQ(buf, d->name);
		snprintf(path, sizeof(path), "%s/driver", dir);
		if (d->driver[0]) {
			char link[256];
			ssize_t n = readlink(path, link, sizeof(link) - 1);

			ASSERT_GT(n, 0);
			link[n] = '\0';
			EXPECT_STREQ(d->driver, strrchr(link, '/') + 1);
		} else {
			EXPECT_FALSE(path_exists(path));
		}
		if (d->type != FPGA_NL_DEV_PORT)
			continue;
		ASSERT_TRUE(d->has_errors);
		EXPECT_EQ(port_errors(d->id), (long long)d->errors);
		ASSERT_TRUE(d->has_guid);
		snprintf(path, sizeof(path), "%s/afu_id", dir);
		ASSERT_EQ(0, sysfs_read(path, buf, sizeof(buf)));
		EXPECT_STREQ(buf, d->guid);
		snprintf(path, sizeof(path), "%s/regions/0/size", dir);
		EXPECT_EQ(sysfs_read_num(path), (long long)d->mmio_size);
		snprintf(path, sizeof(path), "%s/id", dir);
		EXPECT_EQ(sysfs_read_num(path), d->port_num);
	}
	/* FME + 2 ports, FME + 1 port */
	EXPECT_EQ(5, ours);

	/* The card filter */
	ASSERT_EQ(0, nlt_dump(self->sk, self->family, devs->d[0].card_id,
			      devs, &self->r));
	for (i = 0; i < devs->n; i++)
		EXPECT_EQ(devs->d[0].card_id, devs->d[i].card_id);
	free(devs);
}

/*
 * PORT_NUM is the FME's number for the port, as its sysfs id and PR's
 * port_id: on a card whose port 0 is a VF's, the ports are 1 and 2
 */
TEST_F(nl, port_num_on_a_card_with_a_gap)
{
	const char *layout = "/sys/module/fpga_sim/parameters/dfl_layout";
	struct nlt_devs *devs = calloc(1, sizeof(*devs));
	unsigned int card3 = self->card + 2, seen = 0;
	char name[32];
	int i, ret;

	ASSERT_NE(NULL, devs);
	snprintf(name, sizeof(name), "fpga_sim%u", card3);
	ASSERT_EQ(0, sysfs_write(layout, "port0_vf"));
	ret = sim_add(card3, 3);
	sysfs_write(layout, "normal");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, nlt_dump(self->sk, self->family, -1, devs, &self->r))
		TH_LOG("dump: %s", self->r.msg);
	for (i = 0; i < devs->n; i++) {
		struct nlt_dev *d = &devs->d[i];

		if (strcmp(d->card, name) || d->type != FPGA_NL_DEV_PORT)
			continue;
		ASSERT_LT(d->port_num, 32);
		seen |= 1u << d->port_num;
	}
	EXPECT_EQ(0x6, seen);
	free(devs);
}

/* Dumps race card removal (dfl-netlink.c: fpga_dfl_hw_rwsem): all succeed */
/* 30 cycles take a few seconds, a minute or more on the debug kernel */
TEST_F_TIMEOUT(nl, dump_while_cards_come_and_go, 240)
{
	struct nlt_devs *devs = calloc(1, sizeof(*devs));
	int i, status, dumps = 0;
	pid_t pid;

	ASSERT_NE(NULL, devs);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		for (i = 0; i < 30; i++)
			if (sim_add(self->card + 2, 4) || sim_del(self->card + 2))
				_exit(1);
		_exit(0);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		ASSERT_EQ(0, nlt_dump(self->sk, self->family, -1, devs,
				      &self->r)) TH_LOG("%s", self->r.msg);
		for (i = 0; i < devs->n; i++)
			ASSERT_TRUE(!strncmp(devs->d[i].name, "fpga-", 5));
		dumps++;
	}
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	TH_LOG("%d dumps during 30 card add/remove cycles", dumps);
	free(devs);
}

/*
 * One dumper of dump_names_no_removed_card: dumps @card_id until *@stop,
 * each device's CARD_NAME must be @want.  Exit status 0, or 1 with the
 * first wrong name or failed dump said.
 */
static void dump_card_names(int card_id, const char *want,
			    volatile int *stop)
{
	struct nlt_devs *devs = calloc(1, sizeof(*devs));
	struct nl_res r = { 0 };
	struct nl_sock *sk;
	int family, i;

	if (!devs || !(sk = nlt_open(&family)))
		_exit(1);
	while (!*stop) {
		if (nlt_dump(sk, family, card_id, devs, &r)) {
			printf("# dump failed: %s\n", r.msg);
			fflush(stdout);
			_exit(1);
		}
		for (i = 0; i < devs->n; i++) {
			if (strcmp(devs->d[i].card, want)) {
				printf("# %s: CARD_NAME \"%s\", not %s\n",
				       devs->d[i].name, devs->d[i].card, want);
				fflush(stdout);
				_exit(1);
			}
		}
	}
	_exit(0);
}

/*
 * A dump that reaches a device while its card is removed reads nothing of
 * the card: CARD_NAME is the device's own copy (else, a use after free
 * that KASAN reports).  The card does not acknowledge resets, so each
 * port's removal holds its device lock for a reset timeout and dumpers
 * queue on it; they run at the lowest priority beside a busy loop per
 * CPU, so that the removal, at a high one, can finish the card before
 * they read.
 */
#define DUMPERS		4
#define REMOVALS	8
TEST_F_TIMEOUT(nl, dump_names_no_removed_card, 240)
{
	unsigned int card = self->card + 2;
	pid_t pids[DUMPERS + 2];
	struct nlt_devs *devs;
	volatile int *stop;
	char want[32], path[160];
	int cycle, i, card_id, status, failed = 0;

	devs = calloc(1, sizeof(*devs));
	ASSERT_NE(NULL, devs);
	stop = mmap(NULL, sizeof(*stop), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, stop);
	snprintf(want, sizeof(want), "fpga_sim%u", card);
	snprintf(path, sizeof(path), SIM_BUS "/devices/%s/fail_reset_ack",
		 want);
	for (cycle = 0; cycle < REMOVALS && !failed; cycle++) {
		ASSERT_EQ(0, sim_add(card, 4));
		ASSERT_EQ(0, sysfs_write(path, "1"));
		ASSERT_EQ(0, nlt_dump(self->sk, self->family, -1, devs,
				      &self->r));
		for (i = 0, card_id = -1; i < devs->n; i++)
			if (!strcmp(devs->d[i].card, want))
				card_id = devs->d[i].card_id;
		ASSERT_LE(0, card_id);

		*stop = 0;
		for (i = 0; i < DUMPERS + 2; i++) {
			pids[i] = fork();
			ASSERT_LE(0, pids[i]);
			if (pids[i])
				continue;
			if (i >= DUMPERS)
				while (!*stop)
					;	/* a busy loop */
			if (i >= DUMPERS)
				_exit(0);
			if (setpriority(PRIO_PROCESS, 0, 19))
				_exit(1);
			dump_card_names(card_id, want, stop);
		}
		usleep(50000);
		ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, -20));
		EXPECT_EQ(0, sim_del(card));
		ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 0));
		usleep(50000);
		*stop = 1;
		for (i = 0; i < DUMPERS + 2; i++) {
			ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
			if (WIFEXITED(status) && !WEXITSTATUS(status))
				continue;
			TH_LOG("%s %d: status %#x", i < DUMPERS ? "dumper" :
			       "busy loop", i, status);
			failed++;
		}
	}
	EXPECT_EQ(0, failed) TH_LOG("in removal %d of %d", cycle, REMOVALS);
	munmap((void *)stop, sizeof(*stop));
	free(devs);
}

/* Both events of one successful reset of port @name, in order */
static void expect_reset_announced(struct __test_metadata *_metadata,
				   struct nl_sock *ls, const char *name)
{
	struct nlt_event ev;

	EXPECT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_RESET_BEGIN, name,
				   &ev));
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_RESET_END, name,
				   &ev));
	EXPECT_TRUE(ev.has_errno);
	EXPECT_EQ(0, ev.err);
}

TEST_F(nl, events)
{
	unsigned int card2 = self->card + 1;
	struct nl_sock *ls = nlt_listen();
	struct nlt_event ev;
	char name[32];

	ASSERT_NE(NULL, ls);
	ASSERT_EQ(0, sim_add(card2, 1));
	snprintf(name, sizeof(name), "fpga_sim%u", card2);
	EXPECT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_CARD_ADDED, name, &ev));

	ASSERT_EQ(0, nlt_port_cmd(self->sk, self->family,
				  FPGA_NL_CMD_PORT_RESET, self->port, -1,
				  &self->r)) TH_LOG("%s", self->r.msg);
	expect_reset_announced(_metadata, ls, self->port_name);

	ASSERT_EQ(0, port_write(self->card, 0, "inject_error", "0x4"));
	ASSERT_EQ(0x4, port_errors(self->port));
	ASSERT_EQ(0, nlt_port_cmd(self->sk, self->family,
				  FPGA_NL_CMD_PORT_CLEAR_ERRORS, self->port,
				  0x4, &self->r)) TH_LOG("%s", self->r.msg);
	EXPECT_EQ(0, port_errors(self->port));
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_ERRORS_CLEARED,
				   self->port_name, &ev));
	EXPECT_EQ(0x4, ev.errors);

	ASSERT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/unbind",
				 self->port_name));
	EXPECT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_DRIVER_UNBOUND,
				   self->port_name, &ev));
	ASSERT_EQ(0, sysfs_write("/sys/bus/fpga_dfl/drivers/fpga_port/bind",
				 self->port_name));
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_DRIVER_BOUND,
				   self->port_name, &ev));
	EXPECT_STREQ("fpga_port", ev.driver);

	ASSERT_EQ(0, sim_del(card2));
	EXPECT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_CARD_REMOVED, name,
				   &ev));
	nl_socket_free(ls);
}

/* A request the policy or the handler rejects: error, message, no change */
static void nlt_expect_reject(struct __test_metadata *_metadata,
			      FIXTURE_DATA(nl) *self, struct nl_msg *msg,
			      int want, bool want_msg, const char *what)
{
	ASSERT_NE(NULL, msg);
	EXPECT_EQ(want, nlt_do(self->sk, msg, &self->r)) TH_LOG("%s", what);
	if (want_msg)
		EXPECT_NE(0, self->r.msg[0]) TH_LOG("%s: no extack message",
						    what);
	TH_LOG("%s: %d \"%s\"", what, self->r.err, self->r.msg);
}

TEST_F(nl, malformed_requests_change_nothing)
{
	struct nl_sock *ls = nlt_listen();
	char big[100], fme[32], path[128];
	struct nlt_event ev;
	struct nl_msg *m;

	ASSERT_NE(NULL, ls);
	ASSERT_EQ(0, port_write(self->card, 0, "inject_error", "0x4"));
	/* The injection's own events (irq count, then error raised) */
	while (nlt_next_event(ls, 500, &ev))
		if (ev.cmd == FPGA_NL_CMD_EVENT_ERROR_RAISED &&
		    !strcmp(ev.name, self->port_name))
			break;

	/* Unknown attribute */
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_CLEAR_ERRORS, 0);
	nla_put_u32(m, FPGA_NL_A_DEV_ID, self->port);
	nla_put_u64(m, FPGA_NL_A_PORT_ERRORS, 4);
	nla_put_u32(m, 200, 1);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "unknown attr");
	/* Known to the family, not accepted by this command */
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_RESET, 0);
	nla_put_u32(m, FPGA_NL_A_DEV_ID, self->port);
	nla_put_u32(m, FPGA_NL_A_CARD_ID, 0);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "foreign attr");
	/* Wrong type: a u16 where a u32 belongs */
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_RESET, 0);
	nla_put_u16(m, FPGA_NL_A_DEV_ID, self->port);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "wrong type");
	/* Missing attributes */
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_RESET, 0);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "no port");
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_CLEAR_ERRORS, 0);
	nla_put_u32(m, FPGA_NL_A_DEV_ID, self->port);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "no value");
	/* Oversized string */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_RESET, 0);
	nla_put_string(m, FPGA_NL_A_DEV_NAME, big);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "long name");
	/* No such port, an FME, a stale value */
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_RESET, 0);
	nla_put_string(m, FPGA_NL_A_DEV_NAME, "fpga-port.999");
	nlt_expect_reject(_metadata, self, m, -ENODEV, true, "no such port");
	snprintf(path, sizeof(path), DFL_DEVICES "/%s/card_id", self->port_name);
	snprintf(fme, sizeof(fme), "fpga-fme.%lld", sysfs_read_num(path));
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_RESET, 0);
	nla_put_string(m, FPGA_NL_A_DEV_NAME, fme);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "fme");
	m = nlt_msg(self->family, FPGA_NL_CMD_PORT_CLEAR_ERRORS, 0);
	nla_put_u32(m, FPGA_NL_A_DEV_ID, self->port);
	nla_put_u64(m, FPGA_NL_A_PORT_ERRORS, 0x8);
	nlt_expect_reject(_metadata, self, m, -EINVAL, true, "stale value");
	/* Unknown command, and an event sent as a request */
	m = nlt_msg(self->family, 99, 0);
	nlt_expect_reject(_metadata, self, m, -EOPNOTSUPP, false, "cmd 99");
	m = nlt_msg(self->family, FPGA_NL_CMD_EVENT_RESET_BEGIN, 0);
	nla_put_u32(m, FPGA_NL_A_DEV_ID, self->port);
	nlt_expect_reject(_metadata, self, m, -EOPNOTSUPP, false, "event cmd");

	/* Nothing happened: errors still set, no reset or clear announced */
	EXPECT_EQ(0x4, port_errors(self->port));
	EXPECT_FALSE(nlt_next_event(ls, 300, &ev)) TH_LOG("event %d", ev.cmd);
	nl_socket_free(ls);
}

/*
 * The port error interrupt gives error-raised with the error bits, and irq
 * events whose counts add up to the interrupts, in fewer events than
 * interrupts (rate limit).  With @bind, an eventfd bound to the interrupt
 * also counts all of them; without, nobody has the port open: the driver
 * owns the interrupt from probe on, so netlink sees it all the same.
 */
static void check_error_events(struct __test_metadata *_metadata,
			       FIXTURE_DATA(nl) *self, bool bind)
{
	struct {
		struct dfl_fpga_irq_set set;
		int32_t fd;
	} req;
	struct nl_sock *ls = nlt_listen();
	unsigned long long sum = 0;
	int i, fd = -1, efd = -1, events = 0;
	bool raised = false;
	struct nlt_event ev;
	uint64_t signalled;
	char dev[64];
	__u32 num = 0;

	ASSERT_NE(NULL, ls);
	snprintf(dev, sizeof(dev), "/dev/%s", self->port_name);
	if (bind) {
		fd = open(dev, O_RDWR);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM, &num));
		if (!num)
			SKIP(return, "the port has no error interrupt");
		efd = eventfd(0, EFD_NONBLOCK);
		ASSERT_GE(efd, 0);
		req.set.start = 0;
		req.set.count = 1;
		req.fd = efd;
		ASSERT_EQ(0, ioctl(fd, DFL_FPGA_PORT_ERR_SET_IRQ, &req));
	}

	for (i = 0; i < 50; i++)
		ASSERT_EQ(0, port_write(self->card, 0, "inject_error", "0x4"));
	while (sum < 50 && nlt_next_event(ls, 5000, &ev)) {
		if (strcmp(ev.name, self->port_name))
			continue;
		if (ev.cmd == FPGA_NL_CMD_EVENT_IRQ) {
			EXPECT_EQ(0x10, ev.feature);
			sum += ev.irq_count;
			events++;
		}
		if (ev.cmd == FPGA_NL_CMD_EVENT_ERROR_RAISED) {
			EXPECT_TRUE(ev.has_errors);
			EXPECT_EQ(0x4, ev.errors & 0x4);
			raised = true;
		}
	}
	TH_LOG("50 interrupts in %d irq events", events);
	EXPECT_EQ(50, sum);
	EXPECT_LT(events, 50);
	/* The error-raised of the last batch follows its irq event */
	while (!raised && nlt_next_event(ls, 5000, &ev))
		raised = ev.cmd == FPGA_NL_CMD_EVENT_ERROR_RAISED &&
			 !strcmp(ev.name, self->port_name);
	EXPECT_TRUE(raised);
	if (bind) {
		EXPECT_EQ(8, read(efd, &signalled, 8));
		EXPECT_EQ(50, signalled);
		close(efd);
		close(fd);
	}
	nl_socket_free(ls);
}

TEST_F(nl, error_raised_and_irq_counts)
{
	check_error_events(_metadata, self, true);
}

TEST_F(nl, error_events_with_the_port_closed)
{
	check_error_events(_metadata, self, false);
}

/* Without CAP_NET_ADMIN: EPERM to change, but dump and listen work */
TEST_F(nl, unprivileged)
{
	int ready[2], go[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct nlt_devs *devs = calloc(1, sizeof(*devs));
		struct nl_sock *sk, *ls;
		struct nlt_event ev;
		struct nl_res r;
		int family;
		char c = 0;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		sk = nlt_open(&family);
		ls = nlt_listen();
		if (!sk || !ls || !devs)
			_exit(11);
		if (nlt_port_cmd(sk, family, FPGA_NL_CMD_PORT_RESET,
				 self->port, -1, &r) != -EPERM)
			_exit(12);
		if (nlt_port_cmd(sk, family, FPGA_NL_CMD_PORT_CLEAR_ERRORS,
				 self->port, 0, &r) != -EPERM)
			_exit(13);
		if (nlt_port_cmd(sk, family, FPGA_NL_CMD_PORT_PROGRAM,
				 self->port, -1, &r) != -EPERM)
			_exit(17);
		if (nlt_dump(sk, family, -1, devs, &r) || devs->n < 3)
			_exit(14);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(15);
		if (!nlt_wait_event(ls, FPGA_NL_CMD_EVENT_RESET_END,
				    self->port_name, &ev))
			_exit(16);
		_exit(0);
	}
	{
		char c = 0;

		ASSERT_EQ(1, read(ready[0], &c, 1));
		EXPECT_EQ(0, nlt_port_cmd(self->sk, self->family,
					  FPGA_NL_CMD_PORT_RESET, self->port,
					  -1, &self->r));
		ASSERT_EQ(1, write(go[1], &c, 1));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * The core knows no card driver: the simulator's commands are gone (cards
 * come from fpga_sim's own bus), for root as for anyone, and do nothing
 */
TEST_F(nl, sim_commands_are_gone)
{
	unsigned int id = self->card + 1;
	char path[128];

	EXPECT_EQ(-EOPNOTSUPP, nlt_sim_cmd(self->sk, self->family,
					   FPGA_NL_CMD_SIM_ADD, id, 1,
					   &self->r));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u", id);
	EXPECT_FALSE(path_exists(path));
	EXPECT_EQ(-EOPNOTSUPP, nlt_sim_cmd(self->sk, self->family,
					   FPGA_NL_CMD_SIM_DEL, self->card, 0,
					   &self->r));
	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u", self->card);
	EXPECT_TRUE(path_exists(path));
}

/*
 * The core announces every reset, whichever driver owns the port: through
 * uio_fpga, its sysfs reset and netlink PORT_RESET each send both events
 */
TEST_F(nl, uio_fpga_resets_are_announced)
{
	struct nl_sock *ls = nlt_listen();
	char path[128];

	ASSERT_NE(NULL, ls);
	ASSERT_EQ(0, run_cmd("modprobe uio_fpga"));
	ASSERT_EQ(0, port_bind(self->port, "uio_fpga"));

	snprintf(path, sizeof(path), DFL_DEVICES "/%s/reset", self->port_name);
	ASSERT_EQ(0, sysfs_write(path, "1"));
	expect_reset_announced(_metadata, ls, self->port_name);

	EXPECT_EQ(0, nlt_port_cmd(self->sk, self->family,
				  FPGA_NL_CMD_PORT_RESET, self->port, -1,
				  &self->r)) TH_LOG("%s", self->r.msg);
	expect_reset_announced(_metadata, ls, self->port_name);
	nl_socket_free(ls);

	ASSERT_EQ(0, port_bind(self->port, "fpga_port"));
	EXPECT_EQ(0, run_cmd("modprobe -r uio_fpga"));
}

/* A listener that never reads: the kernel goes on, the listener gets ENOBUFS */
TEST_F(nl, overrun_reports_enobufs)
{
	struct nl_sock *ls = nlt_listen();
	char buf[8192];
	int i, fd, ret = 0, err = 0;

	ASSERT_NE(NULL, ls);
	ASSERT_EQ(0, nl_socket_set_buffer_size(ls, 1024, 0));
	/*
	 * Each reset sends its two events whatever its result: one whose ACK
	 * came late on a starved host (-ETIMEDOUT, 2026-12-07) counts too
	 */
	for (i = 0; i < 200; i++) {
		ret = nlt_port_cmd(self->sk, self->family,
				   FPGA_NL_CMD_PORT_RESET, self->port, -1,
				   &self->r);
		ASSERT_TRUE(ret == 0 || ret == -ETIMEDOUT) {
			TH_LOG("reset %d: %d", i, ret);
		}
	}
	ret = 0;
	fd = nl_socket_get_fd(ls);
	for (i = 0; i < 1000; i++) {
		ret = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (ret < 0) {
			err = errno;
			break;
		}
	}
	EXPECT_EQ(ENOBUFS, err);
	nl_socket_free(ls);
}

/* Unloading the modules with a listener attached is clean */
TEST_F(nl, unload_with_listener)
{
	struct nl_sock *ls = nlt_listen();
	struct nlt_event ev;
	int family;

	ASSERT_NE(NULL, ls);
	ASSERT_EQ(0, sim_del(self->card));
	ASSERT_EQ(0, unload_suite_modules());
	/* The card's removal was announced before the family went */
	EXPECT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_CARD_REMOVED,
				   self->card_name, &ev));
	nl_socket_free(self->sk);
	self->sk = nlt_open(&family);
	EXPECT_EQ(NULL, self->sk);
	/* And the family comes back */
	ASSERT_EQ(0, run_cmd("modprobe fpga_dfl"));
	self->sk = nlt_open(&family);
	EXPECT_NE(NULL, self->sk);
	nl_socket_free(ls);
}

/* ---- programming through netlink ---- */

#define FW_NAME		"fpga-suite-netlink-test.bin"

static int nlt_program(FIXTURE_DATA(nl) *self, const char *fw, bool by_id)
{
	struct nl_msg *msg = nlt_msg(self->family, FPGA_NL_CMD_PORT_PROGRAM, 0);

	if (!msg)
		return -ENOMEM;
	if (by_id)
		nla_put_u32(msg, FPGA_NL_A_DEV_ID, self->port);
	else
		nla_put_string(msg, FPGA_NL_A_DEV_NAME, self->port_name);
	if (fw)
		nla_put_string(msg, FPGA_NL_A_FIRMWARE, fw);
	return nlt_do(self->sk, msg, &self->r);
}

/* An OPAE GBS around @bs: GUID, JSON length, JSON, then the bitstream */
static uint8_t *gbs_wrap(const uint8_t *bs, size_t len, size_t *out)
{
	static const uint8_t guid[16] = {
		0x58, 0x65, 0x6f, 0x6e, 0x46, 0x50, 0x47, 0x41,
		0xb7, 0x47, 0x42, 0x53, 0x76, 0x30, 0x30, 0x31,
	};
	const char *json = "{\"version\": 1}";
	size_t jlen = strlen(json);
	uint8_t *g = malloc(20 + jlen + len);

	if (!g)
		return NULL;
	memcpy(g, guid, 16);
	pr_put_le32(g + 16, jlen);
	memcpy(g + 20, json, jlen);
	memcpy(g + 20 + jlen, bs, len);
	*out = 20 + jlen + len;
	return g;
}

TEST_F(nl, port_program)
{
	struct nl_sock *ls = nlt_listen();
	struct nlt_event ev;
	uint8_t *bs, *gbs;
	size_t len, glen;
	char want[40];

	ASSERT_EQ(0, run_cmd("modprobe fpga_fme"));
	ASSERT_NE(NULL, ls);
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 16, &len);
	ASSERT_NE(NULL, bs);
	ASSERT_EQ(0, pr_firmware_write(FW_NAME, bs, len));

	/* Taken: the port comes back, the event names the AFU */
	EXPECT_EQ(0, nlt_program(self, FW_NAME, true)) {
		TH_LOG("%s", self->r.msg);
	}
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_PROGRAMMED,
				   self->port_name, &ev));
	EXPECT_TRUE(ev.has_errno);
	EXPECT_EQ(0, ev.err);
	snprintf(want, sizeof(want), "%s", NLB0_AFU_ID);
	EXPECT_STREQ(want, ev.guid);
	EXPECT_EQ(self->port, sim_port_number(self->card));

	/* The same in a GBS file, by name: the kernel skips its header */
	gbs = gbs_wrap(bs, len, &glen);
	ASSERT_NE(NULL, gbs);
	ASSERT_EQ(0, pr_firmware_write(FW_NAME, gbs, glen));
	EXPECT_EQ(0, nlt_program(self, FW_NAME, false)) {
		TH_LOG("%s", self->r.msg);
	}
	free(gbs);
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_PROGRAMMED,
				   self->port_name, &ev));
	EXPECT_EQ(0, ev.err);

	/* Refused by the card: EIO, said in extack and in the event */
	bs[70] ^= 1;
	ASSERT_EQ(0, pr_firmware_write(FW_NAME, bs, len));
	EXPECT_EQ(-EIO, nlt_program(self, FW_NAME, true));
	EXPECT_NE(0, self->r.msg[0]);
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_PROGRAMMED,
				   self->port_name, &ev));
	EXPECT_EQ(-EIO, ev.err);
	EXPECT_STREQ(want, ev.guid);

	/* Bad requests: no file named, a way out, no such file */
	EXPECT_EQ(-EINVAL, nlt_program(self, NULL, true));
	EXPECT_NE(0, self->r.msg[0]);
	EXPECT_EQ(-EINVAL, nlt_program(self, "../../etc/passwd", true));
	EXPECT_NE(0, self->r.msg[0]);
	EXPECT_EQ(-EINVAL, nlt_program(self, "/etc/passwd", true));
	EXPECT_EQ(-ENOENT, nlt_program(self, "fpga-suite-no-such-file", true));

	unlink(PR_FIRMWARE_DIR "/" FW_NAME);
	free(bs);
	nl_socket_free(ls);
}

/*
 * A port released from the host (the FME's DFL_FPGA_FME_PORT_RELEASE) is
 * announced, is not netlink's to reset or program (it has no device), nor
 * the FME's to program (EBUSY), and is announced when assigned back
 */
TEST_F(nl, port_release_and_assign)
{
	struct nl_sock *ls = nlt_listen();
	char path[256], fme[64];
	struct nlt_event ev;
	uint8_t *bs;
	size_t len;
	int fd, port = 0;

	ASSERT_EQ(0, run_cmd("modprobe fpga_fme"));
	ASSERT_NE(NULL, ls);
	ASSERT_EQ(self->port, sim_port_by_id(self->card, 0));
	ASSERT_EQ(0, card_child(self->card, "fpga-fme.", path, sizeof(path)));
	snprintf(fme, sizeof(fme), "/dev/%s", strrchr(path, '/') + 1);
	fd = open(fme, O_RDWR);
	ASSERT_GE(fd, 0);

	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_FME_PORT_RELEASE, &port));
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_PORT_RELEASED,
				   self->port_name, &ev));
	EXPECT_EQ(-ENODEV, nlt_port_cmd(self->sk, self->family,
					FPGA_NL_CMD_PORT_RESET, self->port, -1,
					&self->r));
	EXPECT_EQ(-ENODEV, nlt_program(self, FW_NAME, true));
	bs = pr_bitstream(NLB0_ID, FPGA_SIM_INTERFACE_ID, 16, &len);
	ASSERT_NE(NULL, bs);
	EXPECT_EQ(-EBUSY, pr_program(fd, 0, bs, len));
	free(bs);

	ASSERT_EQ(0, ioctl(fd, DFL_FPGA_FME_PORT_ASSIGN, &port));
	ASSERT_TRUE(nlt_wait_event(ls, FPGA_NL_CMD_EVENT_PORT_ASSIGNED,
				   self->port_name, &ev));
	EXPECT_EQ(0, nlt_port_cmd(self->sk, self->family,
				  FPGA_NL_CMD_PORT_RESET, self->port, -1,
				  &self->r)) TH_LOG("%s", self->r.msg);
	close(fd);
	nl_socket_free(ls);
}

TEST_HARNESS_MAIN
