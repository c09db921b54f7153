// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl ps: which processes have a port open, one row per open file,
 * with what the port driver counts for it (its fdinfo, lib/fdinfo.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpgactl.h"

struct fc_ps_row {
	int pid;
	int fd;
	char comm[FPGA_COMM_MAX];
	struct fpga_fdinfo info;
};

struct fc_ps_rows {
	int port_id;		/* the one port to show, -1 for all */
	size_t n, cap;
	struct fc_ps_row *row;
	bool skipped;		/* a file left out: the exit status is 1 */
};

static int fc_ps_add(int pid, int fd, const char *comm,
		     const struct fpga_fdinfo *info, void *arg)
{
	struct fc_ps_rows *rows = arg;
	struct fc_ps_row *r;

	if (rows->port_id >= 0 && info->port_id != rows->port_id)
		return 0;
	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? rows->cap * 2 : 16;

		r = realloc(rows->row, cap * sizeof(*r));
		if (!r)
			return fpga_set_error(ENOMEM, "out of memory");
		rows->row = r;
		rows->cap = cap;
	}
	r = &rows->row[rows->n++];
	r->pid = pid;
	r->fd = fd;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	r->info = *info;
	return 0;
}

/* A file that could not be read: said, the rest still shown */
static void fc_ps_skip(const char *why, void *arg)
{
	struct fc_ps_rows *rows = arg;
	char buf[4 * 1024];

	fpga_escape(buf, sizeof(buf), why);
	fc_err("ps: %s: left out", buf);
	rows->skipped = true;
}

static int fc_int_cmp(int a, int b)
{
	return (a > b) - (a < b);
}

/* By port (those without fpga-port last), then PID, then fd */
static int fc_ps_cmp(const void *a, const void *b)
{
	const struct fc_ps_row *x = a, *y = b;
	bool xp = x->info.present & FPGA_FDINFO_PORT;
	bool yp = y->info.present & FPGA_FDINFO_PORT;

	if (xp != yp)
		return xp ? -1 : 1;
	if (x->info.port_id != y->info.port_id)
		return fc_int_cmp(x->info.port_id, y->info.port_id);
	if (x->pid != y->pid)
		return fc_int_cmp(x->pid, y->pid);
	return fc_int_cmp(x->fd, y->fd);
}

/* @v / @div in tenths, rounded (@v / @div far below 2^60: no overflow) */
static uint64_t fc_ps_tenths(uint64_t v, uint64_t div)
{
	return v / div * 10 + (v % div * 10 + div / 2) / div;
}

/*
 * @kib as fpgactl writes sizes: "64K", "2M", or with one decimal when
 * not a whole number of the unit ("1.5M"); JSON has the exact figure.
 */
static void fc_ps_size(uint64_t kib, char *buf, size_t size)
{
	static const char units[] = "KMGT";
	uint64_t div = 1;
	unsigned int u = 0;

	/* the unit in which it is below 1024 once rounded */
	while (u < 3 && (kib / div >= 1024 || fc_ps_tenths(kib, div) >= 10240)) {
		u++;
		div <<= 10;
	}
	if (!kib)
		snprintf(buf, size, "0");
	else if (kib % div == 0)
		snprintf(buf, size, "%" PRIu64 "%c", kib / div, units[u]);
	else
		snprintf(buf, size, "%" PRIu64 ".%" PRIu64 "%c",
			 fc_ps_tenths(kib, div) / 10,
			 fc_ps_tenths(kib, div) % 10, units[u]);
}

/*
 * @ns as a time: "0", "850ns", "12us", "1.5ms", "3s", in the largest unit
 * that keeps it at 1 or more (one decimal when not whole); JSON has ns.
 */
static void fc_ps_time(uint64_t ns, char *buf, size_t size)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	uint64_t div = 1;
	unsigned int u = 0;

	/* the unit in which it is below 1000 once rounded */
	while (u < 3 && fc_ps_tenths(ns, div) >= 10000) {
		u++;
		div *= 1000;
	}
	if (!ns)
		snprintf(buf, size, "0");
	else if (fc_ps_tenths(ns, div) % 10 == 0)
		snprintf(buf, size, "%" PRIu64 "%s",
			 fc_ps_tenths(ns, div) / 10, units[u]);
	else
		snprintf(buf, size, "%" PRIu64 ".%" PRIu64 "%s",
			 fc_ps_tenths(ns, div) / 10,
			 fc_ps_tenths(ns, div) % 10, units[u]);
}

/* Column widths, shared by the header and the rows */
#define FC_PS_PID	7
#define FC_PS_COMM	15	/* TASK_COMM_LEN - 1 */
#define FC_PS_FD	4
#define FC_PS_PORT	12
#define FC_PS_CLIENT	6
#define FC_PS_SIZE	7
#define FC_PS_COUNT	6
#define FC_PS_TIME	7

static void fc_ps_header(void)
{
	fc_text("%*s %-*s %*s %-*s %*s %*s %*s %*s %*s %*s\n",
		FC_PS_PID, "PID", FC_PS_COMM, "COMM", FC_PS_FD, "FD",
		FC_PS_PORT, "PORT", FC_PS_CLIENT, "CLIENT",
		FC_PS_SIZE, "PINNED", FC_PS_SIZE, "MAPPED",
		FC_PS_COUNT, "IRQS", FC_PS_COUNT, "RESETS", FC_PS_TIME, "AFU");
}

/* A count: its column, or "-" there and no JSON key when it is unknown */
static void fc_ps_count(const struct fpga_fdinfo *info, unsigned int bit,
			const char *key, int width, uint64_t val)
{
	if (!(info->present & bit)) {
		fc_text(" %*s", width, "-");
		return;
	}
	fc_u64(key, NULL, val);
	fc_text(" %*" PRIu64, width, val);
}

/* A size in KiB: the number in JSON, "64K" in text */
static void fc_ps_kib(const struct fpga_fdinfo *info, unsigned int bit,
		      const char *key, uint64_t kib)
{
	char buf[32];

	if (!(info->present & bit)) {
		fc_text(" %*s", FC_PS_SIZE, "-");
		return;
	}
	fc_ps_size(kib, buf, sizeof(buf));
	fc_u64(key, NULL, kib);
	fc_text(" %*s", FC_PS_SIZE, buf);
}

/* The AFU's busy time: the ns in JSON, "1.5ms" in text */
static void fc_ps_busy(const struct fpga_fdinfo *info)
{
	char buf[32];

	if (!(info->present & FPGA_FDINFO_ENGINE_AFU)) {
		fc_text(" %*s", FC_PS_TIME, "-");
		return;
	}
	fc_ps_time(info->afu_busy_ns, buf, sizeof(buf));
	fc_u64("afu_busy_ns", NULL, info->afu_busy_ns);
	fc_text(" %*s", FC_PS_TIME, buf);
}

static void fc_ps_print(const struct fc_ps_row *r)
{
	const struct fpga_fdinfo *i = &r->info;
	bool has_port = i->present & FPGA_FDINFO_PORT;
	char comm[4 * FPGA_COMM_MAX];

	fc_obj_open(NULL);
	fc_int("pid", NULL, r->pid);
	fc_text("%*d", FC_PS_PID, r->pid);
	/* the process names itself: JSON escapes it, the text must too */
	fc_str("comm", NULL, r->comm);
	fpga_escape(comm, sizeof(comm), r->comm);
	fc_text(" %-*s", FC_PS_COMM, comm);
	fc_int("fd", NULL, r->fd);
	fc_text(" %*d", FC_PS_FD, r->fd);
	if (has_port)
		fc_str("port", NULL, i->port);
	fc_text(" %-*s", FC_PS_PORT, has_port ? i->port : "-");
	fc_ps_count(i, FPGA_FDINFO_CLIENT_ID, "client_id", FC_PS_CLIENT,
		    i->client_id);
	fc_ps_kib(i, FPGA_FDINFO_PINNED, "memory_pinned_kib", i->pinned_kib);
	fc_ps_kib(i, FPGA_FDINFO_MAPPED, "memory_mapped_kib", i->mapped_kib);
	fc_ps_count(i, FPGA_FDINFO_INTERRUPTS, "interrupts", FC_PS_COUNT,
		    i->interrupts);
	fc_ps_count(i, FPGA_FDINFO_RESETS, "resets", FC_PS_COUNT, i->resets);
	fc_ps_busy(i);
	fc_text("\n");
	fc_obj_close();
}

int fc_cmd_ps(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fc_ps_rows rows = { .port_id = -1 };
	struct fpga_port_ref ref;
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, NULL, 0, 1, &a);
	if (!ret && a.n)
		ret = fc_port_lookup(cmd, a.pos[0], &ref);
	if (ret)
		return ret;
	if (a.n)
		rows.port_id = ref.id;
	if (fpga_port_users(NULL, fc_ps_add, fc_ps_skip, &rows)) {
		free(rows.row);
		return fc_lib_err();
	}
	if (rows.n)	/* qsort() takes no NULL, even for nothing */
		qsort(rows.row, rows.n, sizeof(*rows.row), fc_ps_cmp);
	fc_ps_header();
	fc_arr_open(NULL);
	for (size_t k = 0; k < rows.n; k++)
		fc_ps_print(&rows.row[k]);
	fc_arr_close();
	free(rows.row);
	return rows.skipped ? FC_FAIL : FC_OK;
}
