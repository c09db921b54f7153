/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The generic netlink family "fpga" from a selftest, through libnl-3 as an
 * application would use it: a request socket, requests with their errno
 * and extended-ack message, and a listener on the group "events".
 */
#ifndef _FPGA_SELFTEST_NL_UTIL_H
#define _FPGA_SELFTEST_NL_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>
#include <linux/fpga-netlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* What a request ended with: the kernel's errno and extack message */
struct nl_res {
	int err;		/* 0 or -errno */
	bool done;
	char msg[256];
	int (*valid)(struct nl_msg *msg, void *arg);
	void *arg;
};

static inline int nlt_err_cb(struct sockaddr_nl *nla __attribute__((unused)),
			     struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nl_res *r = arg;
	struct nlattr *a;
	int off, rem;

	r->err = e->error;
	r->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	rem = nlh->nlmsg_len - NLMSG_HDRLEN - off;
	a = (struct nlattr *)((char *)e + NLMSG_ALIGN(off));
	for (; rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(r->msg, sizeof(r->msg), "%s",
				 (char *)a + NLA_HDRLEN);
	return NL_STOP;
}

static inline int nlt_done_cb(struct nl_msg *msg __attribute__((unused)),
			      void *arg)
{
	((struct nl_res *)arg)->done = true;
	return NL_STOP;
}

static inline int nlt_valid_cb(struct nl_msg *msg, void *arg)
{
	struct nl_res *r = arg;

	return r->valid ? r->valid(msg, r->arg) : NL_OK;
}

/* A socket on the family; *family is its id */
static inline struct nl_sock *nlt_open(int *family)
{
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1;

	if (!sk)
		return NULL;
	if (genl_connect(sk)) {
		nl_socket_free(sk);
		return NULL;
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one,
		   sizeof(one));
	*family = genl_ctrl_resolve(sk, FPGA_NL_FAMILY_NAME);
	if (*family < 0) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

static inline struct nl_msg *nlt_msg(int family, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				flags, cmd, FPGA_NL_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Send @msg (freed) and read the answer; the kernel's 0 or -errno */
static inline int nlt_do(struct nl_sock *sk, struct nl_msg *msg,
			 struct nl_res *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int ret;

	r->err = 0;
	r->done = false;
	r->msg[0] = '\0';
	nl_cb_err(cb, NL_CB_CUSTOM, nlt_err_cb, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, nlt_done_cb, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, nlt_done_cb, r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, nlt_valid_cb, r);
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	while (ret >= 0 && !r->done) {
		ret = nl_recvmsgs(sk, cb);
		if (ret < 0 && !r->done)
			r->err = -EIO;
	}
	if (ret < 0 && !r->err)
		r->err = -EIO;
	nl_cb_put(cb);
	return r->err;
}

/* A port request by id; @errors >= 0 adds PORT_ERRORS */
static inline int nlt_port_cmd(struct nl_sock *sk, int family, int cmd,
			       int port, long long errors, struct nl_res *r)
{
	struct nl_msg *msg = nlt_msg(family, cmd, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, FPGA_NL_A_DEV_ID, port);
	if (errors >= 0)
		nla_put_u64(msg, FPGA_NL_A_PORT_ERRORS, errors);
	return nlt_do(sk, msg, r);
}

/* SIM_ADD / SIM_DEL: id and ports, or 0 for no SIM_PORTS */
static inline int nlt_sim_cmd(struct nl_sock *sk, int family, int cmd,
			      unsigned int id, unsigned int ports,
			      struct nl_res *r)
{
	struct nl_msg *msg = nlt_msg(family, cmd, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, FPGA_NL_A_SIM_ID, id);
	if (ports)
		nla_put_u32(msg, FPGA_NL_A_SIM_PORTS, ports);
	return nlt_do(sk, msg, r);
}

/* A socket that listens on the group "events"; NULL if it cannot */
static inline struct nl_sock *nlt_listen(void)
{
	struct nl_sock *sk;
	int family, grp;

	sk = nlt_open(&family);
	if (!sk)
		return NULL;
	grp = genl_ctrl_resolve_grp(sk, FPGA_NL_FAMILY_NAME,
				    FPGA_NL_MCGRP_EVENTS);
	nl_socket_disable_seq_check(sk);
	if (grp < 0 || nl_socket_add_membership(sk, grp)) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

#endif /* _FPGA_SELFTEST_NL_UTIL_H */
