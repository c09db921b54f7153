// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga over the generic netlink family "fpga" (libnl-3): the device
 * list from one dump, and the multicast group "events".  The family
 * exists while fpga_dfl is loaded; callers fall back to sysfs when it
 * does not (-ENOENT).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <linux/fpga-netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "fpga.h"
#include "fpga-int.h"

/* A socket on the family: 0, -ENOENT if it is not registered, -errno */
static int fpga_nl_connect(struct nl_sock **skp, int *family)
{
	struct nl_sock *sk;
	int ret;

	*skp = NULL;
	sk = nl_socket_alloc();
	if (!sk)
		return fpga_set_error(ENOMEM, "out of memory");
	ret = genl_connect(sk);
	if (ret) {
		nl_socket_free(sk);
		return fpga_set_error(EIO, "netlink: %s", nl_geterror(ret));
	}
	*family = genl_ctrl_resolve(sk, FPGA_NL_FAMILY_NAME);
	if (*family < 0) {
		nl_socket_free(sk);
		return fpga_set_error(ENOENT,
				      "no netlink family \"%s\" (load fpga_dfl, e.g. 'modprobe fpga_sim')",
				      FPGA_NL_FAMILY_NAME);
	}
	*skp = sk;
	return 0;
}

/* FPGA_SYSFS_ROOT (tests on a fake tree) and FPGA_NO_NETLINK mean sysfs */
static bool fpga_nl_wanted(void)
{
	return !getenv("FPGA_SYSFS_ROOT") && !getenv("FPGA_NO_NETLINK");
}

/* ---- the device list ---- */

struct fpga_nl_list {
	struct fpga_dev_info *arr;
	size_t n, cap;
	int err;
};

static void fpga_nl_attr_str(struct nlattr *a, char *buf, size_t size)
{
	if (a)
		fpga_strcpy(buf, size, nla_get_string(a));
}

/* One device, filled as fpga_dev_list() fills it from sysfs */
static void fpga_nl_dev_fill(struct nlattr **tb, struct fpga_dev_info *d)
{
	char path[64];
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->type = tb[FPGA_NL_A_DEV_TYPE] &&
		  nla_get_u32(tb[FPGA_NL_A_DEV_TYPE]) == FPGA_NL_DEV_PORT ?
		  FPGA_DEV_PORT : FPGA_DEV_FME;
	d->id = tb[FPGA_NL_A_DEV_ID] ? (int)nla_get_u32(tb[FPGA_NL_A_DEV_ID]) : -1;
	d->card_id = tb[FPGA_NL_A_CARD_ID] ?
		     (int)nla_get_u32(tb[FPGA_NL_A_CARD_ID]) : -1;
	fpga_nl_attr_str(tb[FPGA_NL_A_DEV_NAME], d->name, sizeof(d->name));
	fpga_nl_attr_str(tb[FPGA_NL_A_CARD_NAME], d->card, sizeof(d->card));
	fpga_nl_attr_str(tb[FPGA_NL_A_DRIVER], d->driver, sizeof(d->driver));
	if (!fpga_pathf(path, sizeof(path), "/dev/%s", d->name) &&
	    !stat(path, &st) && S_ISCHR(st.st_mode))
		fpga_strcpy(d->devnode, sizeof(d->devnode), path);
	/* uio_fpga: the port's node is its UIO device, a user-space name */
	if (!strcmp(d->driver, FPGA_DRV_UIO)) {
		char dir[128], uio[32];

		if (!fpga_pathf(dir, sizeof(dir), "/sys/bus/fpga_dfl/devices/%s",
				d->name) &&
		    !fpga_uio_name(dir, uio, sizeof(uio)) &&
		    !fpga_pathf(path, sizeof(path), "/dev/%s", uio))
			fpga_strcpy(d->devnode, sizeof(d->devnode), path);
	}

	/*
	 * sysfs shows afu_id (port and uio_fpga drivers), ports_num and
	 * bitstream_id (FME driver) only with a driver bound; do the same,
	 * so that both lists agree.
	 */
	if (d->type == FPGA_DEV_PORT &&
	    (!strcmp(d->driver, FPGA_DRV_PORT) ||
	     !strcmp(d->driver, FPGA_DRV_UIO)) &&
	    tb[FPGA_NL_A_AFU_GUID] &&
	    nla_len(tb[FPGA_NL_A_AFU_GUID]) == FPGA_NL_GUID_LEN) {
		const unsigned char *g = nla_data(tb[FPGA_NL_A_AFU_GUID]);

		for (int i = 0; i < FPGA_NL_GUID_LEN; i++)
			snprintf(d->afu_id + 2 * i, 3, "%02x", g[i]);
	}
	if (d->type == FPGA_DEV_FME && !strcmp(d->driver, "fpga_fme")) {
		if (tb[FPGA_NL_A_FME_PORTS_NUM])
			d->ports_num = nla_get_u32(tb[FPGA_NL_A_FME_PORTS_NUM]);
		if (tb[FPGA_NL_A_FME_BITSTREAM_ID])
			snprintf(d->bitstream_id, sizeof(d->bitstream_id),
				 "0x%llx", (unsigned long long)
				 nla_get_u64(tb[FPGA_NL_A_FME_BITSTREAM_ID]));
	}
}

static int fpga_nl_dev_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FPGA_NL_A_MAX + 1];
	struct fpga_nl_list *l = arg;
	struct fpga_dev_info *tmp;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, FPGA_NL_A_MAX, NULL))
		return NL_SKIP;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		tmp = realloc(l->arr, l->cap * sizeof(*tmp));
		if (!tmp) {
			l->err = -ENOMEM;
			return NL_STOP;
		}
		l->arr = tmp;
	}
	fpga_nl_dev_fill(tb, &l->arr[l->n]);
	if (l->arr[l->n].id >= 0)
		l->n++;
	return NL_OK;
}

static int fpga_nl_dev_cmp(const void *a, const void *b)
{
	const struct fpga_dev_info *x = a, *y = b;

	if (x->type != y->type)
		return x->type == FPGA_DEV_FME ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

int fpga_nl_dev_list(struct fpga_dev_info **list, size_t *count)
{
	struct fpga_nl_list l = { 0 };
	struct nl_sock *sk;
	struct nl_msg *msg;
	int family, ret;

	*list = NULL;
	*count = 0;
	if (!fpga_nl_wanted())
		return -ENOENT;
	ret = fpga_nl_connect(&sk, &family);
	if (ret)
		return ret;
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_DUMP, FPGA_NL_CMD_DEV_GET,
				 FPGA_NL_FAMILY_VERSION)) {
		nlmsg_free(msg);
		nl_socket_free(sk);
		return fpga_set_error(ENOMEM, "out of memory");
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, fpga_nl_dev_cb, &l);
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (ret >= 0)
		ret = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	if (ret < 0 || l.err) {
		free(l.arr);
		if (l.err)
			return fpga_set_error(ENOMEM, "out of memory");
		return fpga_set_error(EIO, "netlink dump: %s",
				      nl_geterror(ret));
	}
	if (l.n) {
		qsort(l.arr, l.n, sizeof(*l.arr), fpga_nl_dev_cmp);
	} else {
		free(l.arr);
		l.arr = NULL;
	}
	*list = l.arr;
	*count = l.n;
	return 0;
}

/* ---- events ---- */

struct fpga_nl_monitor {
	struct nl_sock *sk;
	struct nl_cb *cb;
	void (*fn)(const struct fpga_nl_event *ev, void *arg);
	void *arg;
};

static const char *const fpga_nl_event_names[] = {
	[FPGA_NL_CMD_EVENT_CARD_ADDED]		= "card-added",
	[FPGA_NL_CMD_EVENT_CARD_REMOVED]	= "card-removed",
	[FPGA_NL_CMD_EVENT_RESET_BEGIN]		= "reset-begin",
	[FPGA_NL_CMD_EVENT_RESET_END]		= "reset-end",
	[FPGA_NL_CMD_EVENT_ERRORS_CLEARED]	= "errors-cleared",
	[FPGA_NL_CMD_EVENT_DRIVER_BOUND]	= "driver-bound",
	[FPGA_NL_CMD_EVENT_DRIVER_UNBOUND]	= "driver-unbound",
	[FPGA_NL_CMD_EVENT_ERROR_RAISED]	= "error-raised",
	[FPGA_NL_CMD_EVENT_IRQ]			= "irq",
	[FPGA_NL_CMD_EVENT_PORT_RELEASED]	= "port-released",
	[FPGA_NL_CMD_EVENT_PORT_ASSIGNED]	= "port-assigned",
};

static int fpga_nl_event_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[FPGA_NL_A_MAX + 1];
	struct fpga_nl_monitor *mon = arg;
	struct fpga_nl_event ev;
	unsigned int cmd;

	cmd = genlmsg_hdr(nlmsg_hdr(msg))->cmd;
	if (cmd >= sizeof(fpga_nl_event_names) / sizeof(fpga_nl_event_names[0]) ||
	    !fpga_nl_event_names[cmd] ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, FPGA_NL_A_MAX, NULL))
		return NL_SKIP;	/* an event this version does not know */

	memset(&ev, 0, sizeof(ev));
	ev.what = fpga_nl_event_names[cmd];
	ev.dev_id = ev.card_id = -1;
	fpga_nl_attr_str(tb[FPGA_NL_A_DEV_NAME], ev.dev, sizeof(ev.dev));
	fpga_nl_attr_str(tb[FPGA_NL_A_CARD_NAME], ev.card, sizeof(ev.card));
	fpga_nl_attr_str(tb[FPGA_NL_A_DRIVER], ev.driver, sizeof(ev.driver));
	if (tb[FPGA_NL_A_DEV_ID])
		ev.dev_id = (int)nla_get_u32(tb[FPGA_NL_A_DEV_ID]);
	if (tb[FPGA_NL_A_CARD_ID])
		ev.card_id = (int)nla_get_u32(tb[FPGA_NL_A_CARD_ID]);
	if (tb[FPGA_NL_A_NUM_PORTS]) {
		ev.has_num_ports = true;
		ev.num_ports = nla_get_u32(tb[FPGA_NL_A_NUM_PORTS]);
	}
	if (tb[FPGA_NL_A_PORT_NUM]) {
		ev.has_port_num = true;
		ev.port_num = nla_get_u32(tb[FPGA_NL_A_PORT_NUM]);
	}
	if (tb[FPGA_NL_A_ERRNO]) {
		ev.has_result = true;
		ev.result = (int32_t)nla_get_u32(tb[FPGA_NL_A_ERRNO]);
	}
	if (tb[FPGA_NL_A_PORT_ERRORS]) {
		ev.has_errors = true;
		ev.errors = nla_get_u64(tb[FPGA_NL_A_PORT_ERRORS]);
	}
	if (tb[FPGA_NL_A_IRQ_COUNT]) {
		ev.has_irq = true;
		ev.irq_count = nla_get_u64(tb[FPGA_NL_A_IRQ_COUNT]);
		if (tb[FPGA_NL_A_FEATURE_ID])
			ev.feature_id = nla_get_u32(tb[FPGA_NL_A_FEATURE_ID]);
		if (tb[FPGA_NL_A_IRQ_VECTOR])
			ev.vector = nla_get_u32(tb[FPGA_NL_A_IRQ_VECTOR]);
	}
	mon->fn(&ev, mon->arg);
	return NL_OK;
}

static int fpga_nl_no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int fpga_nl_monitor_open(struct fpga_nl_monitor **monp,
			 void (*fn)(const struct fpga_nl_event *ev, void *arg),
			 void *arg)
{
	struct fpga_nl_monitor *mon;
	int family, grp, ret;

	*monp = NULL;
	mon = calloc(1, sizeof(*mon));
	if (!mon)
		return fpga_set_error(ENOMEM, "out of memory");
	ret = fpga_nl_connect(&mon->sk, &family);
	if (ret) {
		free(mon);
		return ret;
	}
	grp = genl_ctrl_resolve_grp(mon->sk, FPGA_NL_FAMILY_NAME,
				    FPGA_NL_MCGRP_EVENTS);
	if (grp < 0 || (ret = nl_socket_add_membership(mon->sk, grp))) {
		fpga_nl_monitor_close(mon);
		return fpga_set_error(EIO, "netlink group \"%s\": %s",
				      FPGA_NL_MCGRP_EVENTS,
				      nl_geterror(grp < 0 ? grp : ret));
	}
	mon->cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!mon->cb) {
		fpga_nl_monitor_close(mon);
		return fpga_set_error(ENOMEM, "out of memory");
	}
	mon->fn = fn;
	mon->arg = arg;
	nl_cb_set(mon->cb, NL_CB_VALID, NL_CB_CUSTOM, fpga_nl_event_cb, mon);
	nl_cb_set(mon->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, fpga_nl_no_seq_check,
		  NULL);
	*monp = mon;
	return 0;
}

int fpga_nl_monitor_fd(const struct fpga_nl_monitor *mon)
{
	return nl_socket_get_fd(mon->sk);
}

int fpga_nl_monitor_read(struct fpga_nl_monitor *mon)
{
	int ret = nl_recvmsgs(mon->sk, mon->cb);

	if (ret >= 0)
		return 0;
	/* libnl reports the socket's ENOBUFS (overrun) as NLE_NOMEM */
	if (ret == -NLE_NOMEM)
		return fpga_set_error(ENOBUFS,
				      "events were lost: the socket overran");
	return fpga_set_error(EIO, "netlink: %s", nl_geterror(ret));
}

void fpga_nl_monitor_close(struct fpga_nl_monitor *mon)
{
	if (!mon)
		return;
	if (mon->cb)
		nl_cb_put(mon->cb);
	nl_socket_free(mon->sk);
	free(mon);
}
