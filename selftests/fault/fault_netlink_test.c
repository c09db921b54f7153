// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures in the netlink family "fpga": the inventory dump
 * and a port reset.
 * Each request gets an error or its answer; the family works afterwards;
 * nothing of ours leaks.  Raw sockets: libnl's own allocations would only
 * blur which call failed.
 */
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/fpga-netlink.h>

#include "fault_util.h"
#include "fault_dev.h"

struct nl_ctx {
	int fd;
	int family;
	unsigned int id;	/* a card of this test */
	int port;		/* its port number */
};

struct nl_req {
	struct nlmsghdr n;
	struct genlmsghdr g;
	uint8_t attrs[64];
};

static void put_u32(struct nl_req *r, uint16_t type, uint32_t v)
{
	struct nlattr *a = (void *)((uint8_t *)r + NLMSG_ALIGN(r->n.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy((uint8_t *)a + NLA_HDRLEN, &v, 4);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void start(struct nl_req *r, int family, uint8_t cmd, uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->n.nlmsg_type = family;
	r->n.nlmsg_flags = NLM_F_REQUEST | flags;
	r->n.nlmsg_seq = 1;
	r->g.cmd = cmd;
	r->g.version = FPGA_NL_FAMILY_VERSION;
}

/*
 * Send @r and read until its ack or the end of its dump: 0, the errno
 * the kernel answered (negative), or -errno of the socket.  *@msgs
 * counts the data messages.
 */
static int transact(int fd, struct nl_req *r, int *msgs)
{
	static uint8_t buf[16384] __attribute__((aligned(4)));
	int dump = r->n.nlmsg_flags & NLM_F_DUMP;

	*msgs = 0;
	if (send(fd, r, r->n.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (void *)buf;

		if (n < 0)
			return -errno;
		for (; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			if (h->nlmsg_type == NLMSG_DONE)
				return dump ? 0 : -EPROTO;
			(*msgs)++;
		}
	}
}

/* The family id of "fpga", asked of the controller; -errno if none */
static int family_id(int fd)
{
	static uint8_t buf[8192] __attribute__((aligned(4)));
	struct nl_req r;
	struct nlattr *a;
	struct nlmsghdr *h = (void *)buf;
	ssize_t n, left;

	start(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	a = (void *)r.attrs;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(FPGA_NL_FAMILY_NAME);
	memcpy((uint8_t *)a + NLA_HDRLEN, FPGA_NL_FAMILY_NAME,
	       sizeof(FPGA_NL_FAMILY_NAME));
	r.n.nlmsg_len += NLA_ALIGN(a->nla_len);
	if (send(fd, &r, r.n.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0 || !NLMSG_OK(h, (size_t)n) || h->nlmsg_type != GENL_ID_CTRL)
		return -ENOENT;
	a = (void *)((uint8_t *)NLMSG_DATA(h) + GENL_HDRLEN);
	left = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((uint8_t *)a + NLA_HDRLEN);
		left -= NLA_ALIGN(a->nla_len);
		a = (void *)((uint8_t *)a + NLA_ALIGN(a->nla_len));
	}
	return -ENOENT;
}

/* A socket that gives up waiting for an answer an injected failure ate */
static int nl_socket(void)
{
	struct timeval tv = { .tv_sec = 2 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static int op_dump(void *p)
{
	struct nl_ctx *c = p;
	struct nl_req r;
	int msgs, ret;

	start(&r, c->family, FPGA_NL_CMD_DEV_GET, NLM_F_DUMP);
	ret = transact(c->fd, &r, &msgs);
	/* the card of this test: an FME and a port at least */
	return ret ? ret : msgs >= 2 ? 0 : -ENODATA;
}

static int op_reset(void *p)
{
	struct nl_ctx *c = p;
	struct nl_req r;
	int msgs;

	start(&r, c->family, FPGA_NL_CMD_PORT_RESET, NLM_F_ACK);
	put_u32(&r, FPGA_NL_A_DEV_ID, c->port);
	return transact(c->fd, &r, &msgs);
}

/*
 * The socket may have lost an answer to the injected failure: a new one
 * for the next step; the family answers both requests.
 */
static int check_family(void *p, int ret)
{
	struct nl_ctx *c = p;
	int err;

	(void)ret;
	close(c->fd);
	c->fd = nl_socket();
	if (c->fd < 0)
		return -1;
	err = op_dump(c);
	if (!err)
		err = op_reset(c);
	if (!err)
		err = card_port_works(c->id, 0);
	if (err) {
		printf("# the family does not work after an injected failure: %d\n",
		       err);
		return -1;
	}
	return 0;
}

FIXTURE(nl) {
	struct nl_ctx c;
};

FIXTURE_SETUP(nl)
{
	FAULT_PROLOGUE();
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"));
	self->c.id = sim_random_id();
	ASSERT_EQ(0, sim_add(self->c.id, 1));
	self->c.port = sim_port_number(self->c.id);
	ASSERT_LE(0, self->c.port);
	self->c.fd = nl_socket();
	ASSERT_LE(0, self->c.fd);
	self->c.family = family_id(self->c.fd);
	ASSERT_LT(0, self->c.family);
}

FIXTURE_TEARDOWN(nl)
{
	if (self->c.fd > 0)
		close(self->c.fd);
	if (self->c.id) {
		sim_del(self->c.id);
	}
}

TEST_F_TIMEOUT(nl, dump, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	ASSERT_SWEEP("netlink dump", op_dump, check_family, &self->c);
	ASSERT_NO_LEAKS();
}

TEST_F_TIMEOUT(nl, port_reset, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	ASSERT_SWEEP("netlink port reset", op_reset, check_family, &self->c);
	ASSERT_NO_LEAKS();
}

TEST_HARNESS_MAIN
