// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fuzz, the generic netlink family "fpga", through raw sockets so
 * that any message can be built: every command number (events included)
 * with request flags valid and not, the reserved byte and version set or
 * not, attributes of every type with right and wrong lengths, strings
 * unterminated or too long, truncated and nested-flagged attributes, dumps
 * left half read, and listeners that never read.  Simulated cards are only
 * ever asked for with this fuzzer's ids (or ids the kernel must refuse).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/fpga-netlink.h>

#include "fuzz.h"

#define NL_BUF	8192

struct nl_msg_buf {
	size_t len;
	uint8_t data[1024] __attribute__((aligned(4)));
};

static void put_attr(struct nl_msg_buf *b, uint16_t type, const void *val,
		     uint16_t len)
{
	struct nlattr *a = (void *)(b->data + b->len);
	size_t room = NLA_ALIGN(NLA_HDRLEN + len);

	if (b->len + room > sizeof(b->data))
		return;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((uint8_t *)a + NLA_HDRLEN, val, len);
	memset((uint8_t *)a + NLA_HDRLEN + len, 0, room - NLA_HDRLEN - len);
	b->len += room;
}

static void start_msg(struct nl_msg_buf *b, uint16_t type, uint16_t flags,
		      uint8_t cmd, uint8_t version, uint16_t reserved)
{
	struct nlmsghdr *n = (void *)b->data;
	struct genlmsghdr *g = (void *)(b->data + NLMSG_HDRLEN);

	memset(b->data, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	n->nlmsg_type = type;
	n->nlmsg_flags = flags;
	n->nlmsg_seq = 1;
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	b->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static int send_msg(int fd, struct nl_msg_buf *b, int bad_len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	struct nlmsghdr *n = (void *)b->data;

	n->nlmsg_len = b->len;
	if (bad_len)	/* longer or shorter than what is sent */
		n->nlmsg_len = below(2) ? b->len + 4 * (1 + below(8))
					: below(b->len);
	return sendto(fd, b->data, b->len, 0, (struct sockaddr *)&to,
		      sizeof(to)) < 0 ? -errno : 0;
}

/*
 * Drain what the kernel answered, a few reads at most; the number of
 * messages that were not errors (acks of 0, dump parts, events).
 */
static int drain(int fd, int max)
{
	static uint8_t buf[NL_BUF] __attribute__((aligned(4)));
	int good = 0;
	ssize_t n;

	while (max-- > 0 && (n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *h = (void *)buf;

		for (; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			struct nlmsgerr *e = NLMSG_DATA(h);

			good += h->nlmsg_type != NLMSG_ERROR || !e->error;
		}
	}
	return good;
}

static int nl_socket(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The family id of "fpga" from the genetlink controller; -1 if absent */
int nl_family_id(void)
{
	static uint8_t buf[NL_BUF];
	struct nl_msg_buf b;
	int fd = nl_socket(), id = -1;
	ssize_t n;

	if (fd < 0)
		return -1;
	start_msg(&b, GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY, 1, 0);
	put_attr(&b, CTRL_ATTR_FAMILY_NAME, FPGA_NL_FAMILY_NAME,
		 sizeof(FPGA_NL_FAMILY_NAME));
	if (send_msg(fd, &b, 0) == 0) {
		n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (void *)buf;

		if (n > 0 && NLMSG_OK(h, (size_t)n) &&
		    h->nlmsg_type == GENL_ID_CTRL) {
			struct nlattr *a = (void *)((uint8_t *)NLMSG_DATA(h) +
						     GENL_HDRLEN);
			ssize_t left = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

			while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
			       a->nla_len <= left) {
				if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
					id = *(uint16_t *)((uint8_t *)a + NLA_HDRLEN);
				left -= NLA_ALIGN(a->nla_len);
				a = (void *)((uint8_t *)a + NLA_ALIGN(a->nla_len));
			}
		}
	}
	close(fd);
	return id;
}

static uint32_t rnd_sim_id(void)
{
	/* ours, or above INT_MAX, which the kernel must refuse */
	return below(6) ? CARD_BASE + below(NUM_CARDS)
			: 0x80000000u + (uint32_t)below(0x80000000u);
}

static const char *const names[] = {
	"fpga-port.0", "fpga-port.1", "fpga-port.3", "fpga-fme.0",
	"fpga-port.", "", "fpga-port.99999999999", "port",
	"fpga-port.0123456789012345678901234567890123",
};

/* One attribute of a random type, its value mostly of the right kind */
static void rnd_attr(struct nl_msg_buf *b)
{
	uint16_t type = below(8) ? below(__FPGA_NL_A_MAX + 1)
				 : (uint16_t)rnd_value();
	uint8_t raw[64];
	uint32_t v32;
	uint64_t v64;

	if (one_in(16))
		type |= NLA_F_NESTED;
	switch (type & NLA_TYPE_MASK) {
	case FPGA_NL_A_DEV_NAME:
	case FPGA_NL_A_CARD_NAME:
	case FPGA_NL_A_DRIVER: {
		const char *s = names[below(ARRAY_LEN(names))];
		size_t len = strlen(s) + 1;

		/* sometimes without its NUL */
		put_attr(b, type, s, below(4) ? len : len - 1);
		return;
	}
	case FPGA_NL_A_SIM_ID:
		v32 = rnd_sim_id();
		break;
	case FPGA_NL_A_SIM_PORTS:
		v32 = below(6);
		break;
	case FPGA_NL_A_DEV_ID:
	case FPGA_NL_A_CARD_ID:
		v32 = below(4) ? below(8) : rnd_value();
		break;
	case FPGA_NL_A_PORT_ERRORS:
	case FPGA_NL_A_PORT_FIRST_ERROR:
	case FPGA_NL_A_MMIO_SIZE:
	case FPGA_NL_A_FME_BITSTREAM_ID:
	case FPGA_NL_A_IRQ_COUNT:
		v64 = below(2) ? 0 : rnd_value();
		put_attr(b, type, &v64, below(5) ? 8 : below(12));
		return;
	default:
		if (below(2)) {
			v32 = rnd_value();
			break;
		}
		rnd_fill(raw, sizeof(raw));
		put_attr(b, type, raw, below(sizeof(raw)));
		return;
	}
	/* a u32, or a wrong size for one */
	memset(raw, 0, sizeof(raw));
	memcpy(raw, &v32, sizeof(v32));
	put_attr(b, type, raw, below(5) ? 4 : below(12));
}

static void nl_open(struct worker *w)
{
	int *fd = &w->nl_fds[below(ARRAY_LEN(w->nl_fds))];
	int on = 1;

	fuzz_close(fd);
	*fd = nl_socket();
	if (*fd < 0)
		return;
	if (below(2))
		setsockopt(*fd, SOL_NETLINK, NETLINK_EXT_ACK, &on, sizeof(on));
	if (below(4) == 0)
		setsockopt(*fd, SOL_NETLINK, NETLINK_CAP_ACK, &on, sizeof(on));
	if (w->nl_family < 0)
		w->nl_family = nl_family_id();
}

/* Join a multicast group and (often) never read it: ENOBUFS later */
static void nl_listen(struct worker *w)
{
	int fd = w->nl_fds[below(ARRAY_LEN(w->nl_fds))];
	int group = 1 + below(16);

	setsockopt(fd, SOL_NETLINK, below(4) ? NETLINK_ADD_MEMBERSHIP
					     : NETLINK_DROP_MEMBERSHIP,
		   &group, sizeof(group));
	if (below(2))
		drain(fd, 8);
}

/* A request the family should accept, so that the handlers run deep */
static void nl_wellformed(struct worker *w, int fd)
{
	static const uint8_t cmds[] = {
		FPGA_NL_CMD_DEV_GET, FPGA_NL_CMD_PORT_RESET,
		FPGA_NL_CMD_PORT_CLEAR_ERRORS,
	};
	uint8_t cmd = cmds[below(ARRAY_LEN(cmds))];
	struct nl_msg_buf b;
	uint32_t v32;
	uint64_t v64;

	start_msg(&b, w->nl_family,
		  NLM_F_REQUEST | (cmd == FPGA_NL_CMD_DEV_GET ? NLM_F_DUMP : NLM_F_ACK),
		  cmd, FPGA_NL_FAMILY_VERSION, 0);
	switch (cmd) {
	case FPGA_NL_CMD_DEV_GET:
		if (below(2)) {
			v32 = below(8);
			put_attr(&b, FPGA_NL_A_CARD_ID, &v32, 4);
		}
		break;
	default:	/* PORT_RESET, PORT_CLEAR_ERRORS */
		if (below(2)) {
			v32 = below(12);
			put_attr(&b, FPGA_NL_A_DEV_ID, &v32, 4);
		} else {
			char name[32];

			snprintf(name, sizeof(name), "fpga-port.%u",
				 (unsigned int)below(12));
			put_attr(&b, FPGA_NL_A_DEV_NAME, name, strlen(name) + 1);
		}
		if (cmd == FPGA_NL_CMD_PORT_CLEAR_ERRORS) {
			v64 = below(2) ? 0 : 1ull << below(64);
			put_attr(&b, FPGA_NL_A_PORT_ERRORS, &v64, 8);
		}
		break;
	}
	send_msg(fd, &b, 0);
	w->ok[AREA_NETLINK] += drain(fd, below(4) ? 32 : 1) > 0;
}

static void nl_request(struct worker *w)
{
	static const uint16_t ok_flags[] = { NLM_F_ACK, NLM_F_DUMP,
					     NLM_F_ECHO, 0 };
	int fd = w->nl_fds[below(ARRAY_LEN(w->nl_fds))];
	uint16_t flags = NLM_F_REQUEST;
	struct nl_msg_buf b;
	uint8_t cmd;
	int nattrs;

	if (fd < 0)
		return;
	if (w->nl_family < 0)
		w->nl_family = nl_family_id();
	if (below(2)) {
		nl_wellformed(w, fd);
		return;
	}
	flags |= ok_flags[below(ARRAY_LEN(ok_flags))];
	flags |= ok_flags[below(ARRAY_LEN(ok_flags))];
	if (one_in(8))
		flags = rnd_value();
	cmd = below(8) ? below(FPGA_NL_CMD_MAX + 2) : (uint8_t)rnd_value();
	/* a control type sometimes, never another family */
	start_msg(&b, one_in(32) ? (uint16_t)below(16) : (uint16_t)w->nl_family,
		  flags, cmd, below(8) ? FPGA_NL_FAMILY_VERSION : (uint8_t)rnd(),
		  below(8) ? 0 : (uint16_t)rnd_value());
	nattrs = below(5);
	for (int i = 0; i < nattrs; i++)
		rnd_attr(&b);
	if (one_in(16) && b.len > NLMSG_HDRLEN + GENL_HDRLEN + 4)
		b.len -= 2 + below(2);	/* a truncated last attribute */
	send_msg(fd, &b, one_in(16));
	/* Dumps are sometimes left half read: the next request races them */
	w->ok[AREA_NETLINK] += drain(fd, below(4) ? 32 : 1) > 0;
}

void fuzz_netlink(struct worker *w)
{
	switch (below(16)) {
	case 0:
		nl_open(w);
		break;
	case 1:
		nl_listen(w);
		break;
	case 2:
		fuzz_close(&w->nl_fds[below(ARRAY_LEN(w->nl_fds))]);
		break;
	default:
		if (w->nl_fds[0] < 0)
			nl_open(w);
		nl_request(w);
	}
}
