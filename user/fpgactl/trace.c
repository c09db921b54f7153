// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl trace: the suite's kernel tracepoints (trace system "fpga")
 * while a command runs, or for a time, printed as one timeline.
 *
 * Straight through tracefs, not through perf: perf is a separate package
 * that a machine running accelerators often lacks, and tracefs is all it
 * takes.  Recording goes to a private trace instance
 * (instances/fpgactl.PID), so that it neither sees nor disturbs anyone
 * else's tracing; the instance is removed at the end.  It records no
 * command names (record-cmd, a top-level option the instance inherits, is
 * off while it is made): that would hook the scheduler's tracepoints, and
 * live-patching the scheduler while the card's model thread sleeps and
 * wakes every few microseconds hung the test VM (QEMU TCG) in
 * text_poke_bp().  Names come from /proc instead.  A PORT becomes
 * kernel-side filters on the events that name a port, so that a busy
 * machine's other ports cost nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fpgactl.h"

#define FC_TRACE_DEFAULT_MS	1000
#define FC_TRACE_BUFFER_KB	"4096"

struct fc_trace {
	char dir[256];		/* the instance */
	bool made;		/* dir was created: remove it */
	char root[256];		/* tracefs */
	bool record_cmd;	/* the top-level record-cmd was on: restore it */
	pid_t child;		/* the command, for its name */
	char child_comm[16];
	int port;		/* fpga-port.N, or -1 for every port */
	int sim;		/* the port's fpga_sim card, or -1 */
	int sim_port;		/* the port's index on that card, or -1 */
};

static const char *fc_trace_root(void)
{
	const char *env = getenv("FPGA_TRACEFS");

	if (env && *env)
		return env;
	if (!access("/sys/kernel/tracing/instances", F_OK))
		return "/sys/kernel/tracing";
	return "/sys/kernel/debug/tracing";
}

static int fc_trace_write(const struct fc_trace *t, const char *file,
			  const char *val)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", t->dir, file);
	return fpga_sysfs_write(path, val);
}

/* A filter on event @name, unless its module is not loaded */
static int fc_trace_filter(const struct fc_trace *t, const char *name,
			   const char *expr)
{
	char file[128], path[640];

	snprintf(file, sizeof(file), "events/fpga/%s/filter", name);
	snprintf(path, sizeof(path), "%s/%s", t->dir, file);
	if (access(path, F_OK))
		return 0;
	return fc_trace_write(t, file, expr);
}

/*
 * Events that carry the fpga_dfl port id ("port" or, for irq_deliver,
 * "dev"), and those of the simulated card ("sim", and "port" = index)
 */
static const char *const fc_trace_port_events[] = {
	"port_reset_begin", "port_reset_end", "dma_map", "dma_unmap",
	"region_mmap", "error_clear", "fence_irq", "uio_bind", "uio_unbind",
	"uio_irq",
};
static const char *const fc_trace_sim_events[] = {
	"engine_start", "engine_complete", "irq_raise", "error_raise",
};

/* Kernel-side filters for a PORT; events without a port are all kept */
static int fc_trace_filters(const struct fc_trace *t)
{
	char expr[96];
	size_t i;

	snprintf(expr, sizeof(expr), "port == %d", t->port);
	for (i = 0; i < sizeof(fc_trace_port_events) / sizeof(char *); i++)
		if (fc_trace_filter(t, fc_trace_port_events[i], expr))
			return -1;
	snprintf(expr, sizeof(expr), "fiu != 1 || dev == %d", t->port);
	if (fc_trace_filter(t, "irq_deliver", expr))
		return -1;
	if (t->sim < 0)
		return 0;
	if (t->sim_port >= 0)
		snprintf(expr, sizeof(expr), "sim == %d && port == %d", t->sim,
			 t->sim_port);
	else
		snprintf(expr, sizeof(expr), "sim == %d", t->sim);
	for (i = 0; i < sizeof(fc_trace_sim_events) / sizeof(char *); i++)
		if (fc_trace_filter(t, fc_trace_sim_events[i], expr))
			return -1;
	return 0;
}

static int fc_trace_setup(struct fc_trace *t)
{
	const char *root = fc_trace_root();
	char path[512], buf[16];

	snprintf(path, sizeof(path), "%s/events/fpga", root);
	if (access(root, F_OK) || access(path, F_OK)) {
		if (access(root, F_OK))
			return fpga_set_error(ENOENT, "%s: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)",
					      root);
		return fpga_set_error(ENOENT, "%s: no fpga tracepoints (are the suite's modules loaded?)",
				      path);
	}
	snprintf(t->root, sizeof(t->root), "%s", root);
	snprintf(path, sizeof(path), "%s/options/record-cmd", root);
	if (!fpga_sysfs_read(path, buf, sizeof(buf)) && !strcmp(buf, "1")) {
		if (fpga_sysfs_write(path, "0"))
			return -1;
		t->record_cmd = true;
	}
	snprintf(t->dir, sizeof(t->dir), "%s/instances/fpgactl.%d", root,
		 (int)getpid());
	if (mkdir(t->dir, 0700))
		return fpga_set_error(errno, "%s: %s%s", t->dir, strerror(errno),
				      errno == EACCES || errno == EPERM ?
				      " (tracing needs root)" : "");
	t->made = true;
	/* No irq-info column: one line format to parse, "COMM-PID [CPU] TS: " */
	if (fc_trace_write(t, "options/irq-info", "0") ||
	    fc_trace_write(t, "buffer_size_kb", FC_TRACE_BUFFER_KB))
		return -1;
	if (t->port >= 0 && fc_trace_filters(t))
		return -1;
	return fc_trace_write(t, "events/fpga/enable", "1");
}

static void fc_trace_teardown(struct fc_trace *t)
{
	char path[512];

	if (t->made) {
		fc_trace_write(t, "tracing_on", "0");
		fc_trace_write(t, "events/fpga/enable", "0");
		/* The kernel refuses while a reader holds it */
		if (rmdir(t->dir))
			fc_err("%s: %s (remove it with rmdir)", t->dir,
			       strerror(errno));
	}
	/*
	 * Last: turning record-cmd on starts recording names for every
	 * enabled event of every instance, ours too if it were still there
	 */
	if (t->record_cmd) {
		snprintf(path, sizeof(path), "%s/options/record-cmd", t->root);
		fpga_sysfs_write(path, "1");
	}
}

/*
 * One line of the trace file: "COMM-PID [CPU] SECONDS: EVENT: FIELDS".
 * Returns 0, or -1 for a line that is not an event (headers, comments).
 */
struct fc_trace_ev {
	char comm[32];
	int pid;
	int cpu;
	double ts;
	char name[48];
	const char *fields;
};

static int fc_trace_parse(char *line, struct fc_trace_ev *ev)
{
	char *lb = strchr(line, '['), *rb, *dash, *end, *colon;
	size_t n;

	if (line[0] == '#' || !lb || lb == line)
		return -1;
	rb = strchr(lb, ']');
	if (!rb)
		return -1;
	/* COMM-PID: the comm may itself hold '-', the pid is after the last */
	end = lb;
	while (end > line && end[-1] == ' ')
		end--;
	*end = '\0';
	dash = strrchr(line, '-');
	if (!dash)
		return -1;
	*dash = '\0';
	while (*line == ' ')
		line++;
	snprintf(ev->comm, sizeof(ev->comm), "%.31s", line);
	ev->pid = atoi(dash + 1);
	ev->cpu = atoi(lb + 1);
	ev->ts = strtod(rb + 1, &end);
	if (end == rb + 1 || strncmp(end, ": ", 2))
		return -1;
	end += 2;
	colon = strchr(end, ':');
	if (!colon)
		return -1;
	n = (size_t)(colon - end);
	if (n >= sizeof(ev->name))
		n = sizeof(ev->name) - 1;
	memcpy(ev->name, end, n);
	ev->name[n] = '\0';
	ev->fields = colon[1] == ' ' ? colon + 2 : colon + 1;
	return 0;
}

/*
 * The name of @pid when the trace has none ("<...>"): the command we ran,
 * or what /proc says while the task lives (kernel threads such as the
 * card's model thread do), else "?"
 */
static void fc_trace_comm(const struct fc_trace *t, struct fc_trace_ev *ev)
{
	char path[64], buf[32];

	if (strcmp(ev->comm, "<...>"))
		return;
	if (ev->pid == t->child) {
		snprintf(ev->comm, sizeof(ev->comm), "%s", t->child_comm);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", ev->pid);
	if (fpga_sysfs_read(path, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "?");
	snprintf(ev->comm, sizeof(ev->comm), "%s", buf);
}

/* The timeline: milliseconds from the first event, who, what */
static int fc_trace_print(const struct fc_trace *t)
{
	char path[512], line[1024];
	double t0 = -1;
	unsigned int count = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", t->dir);
	f = fopen(path, "r");
	if (!f)
		return fpga_set_error(errno, "%s: %s", path, strerror(errno));
	fc_obj_open(NULL);
	fc_arr_open("events");
	while (fgets(line, sizeof(line), f)) {
		struct fc_trace_ev ev;
		char comm[4 * sizeof(ev.comm)], who[sizeof(comm) + 16];

		line[strcspn(line, "\n")] = '\0';
		if (fc_trace_parse(line, &ev))
			continue;
		fc_trace_comm(t, &ev);
		/* a process names itself: any byte, terminal escapes too */
		fpga_escape(comm, sizeof(comm), ev.comm);
		snprintf(who, sizeof(who), "%s[%d]", comm, ev.pid);
		if (t0 < 0)
			t0 = ev.ts;
		count++;
		fc_obj_open(NULL);
		fc_double("ms", "%12.3f ms  ", (ev.ts - t0) * 1e3);
		/* Microseconds: JSON's doubles are printed with 6 digits */
		fc_u64("timestamp_us", NULL, (uint64_t)(ev.ts * 1e6 + 0.5));
		fc_int("cpu", "cpu%-3" PRId64, ev.cpu);
		fc_text("%24s  ", who);
		fc_str("comm", NULL, ev.comm);
		fc_int("pid", NULL, ev.pid);
		fc_str("event", "%-18s", ev.name);
		fc_str("fields", " %s\n", ev.fields);
		fc_obj_close();
	}
	fclose(f);
	fc_arr_close();
	fc_u64("count", "%" PRIu64 " events\n", count);
	fc_obj_close();
	return 0;
}

/* Where the port is on a simulated card: fpga_simS, index "id" */
static void fc_trace_port_sim(const struct fpga_port_ref *ref,
			      struct fc_trace *t)
{
	char path[512], real[PATH_MAX], buf[32];
	char *slash, *card;
	uint64_t v;

	t->sim = -1;
	t->sim_port = -1;
	if (!realpath(ref->sysfs, real))
		return;
	slash = strrchr(real, '/');
	if (!slash)
		return;
	*slash = '\0';
	card = strrchr(real, '/');
	if (!card || strncmp(card + 1, "fpga_sim", 8) ||
	    fpga_parse_u64_max(card + 9, INT32_MAX, &v))
		return;
	t->sim = (int)v;
	*slash = '/';
	snprintf(path, sizeof(path), "%s/id", ref->sysfs);
	if (!fpga_sysfs_read(path, buf, sizeof(buf)) &&
	    !fpga_parse_u64_max(buf, 255, &v))
		t->sim_port = (int)v;
}

static double fc_trace_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run @argv (status in *status), or sleep @ms; tracing is already on */
static int fc_trace_run(struct fc_trace *t, char **argv, uint64_t ms,
			int *status)
{
	const char *base = argv ? strrchr(argv[0], '/') : NULL;

	pid_t pid;

	*status = 0;
	if (!argv) {
		struct timespec ts = {
			.tv_sec = ms / 1000,
			.tv_nsec = (ms % 1000) * 1000000,
		};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		return 0;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fpga_set_error(errno, "fork: %s", strerror(errno));
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "fpgactl: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	t->child = pid;
	snprintf(t->child_comm, sizeof(t->child_comm), "%.15s",
		 base ? base + 1 : argv[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

int fc_cmd_trace(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fc_trace t = { .port = -1, .sim = -1, .sim_port = -1 };
	uint64_t ms = FC_TRACE_DEFAULT_MS;
	char **command = NULL;
	struct fpga_port_ref ref;
	int ret, status = 0;
	struct fc_args a;
	double t0;

	/* fpgactl trace [PORT] [--time MS] [-- COMMAND [ARG...]] */
	ret = fc_parse_timed_args(cmd, argc, argv, 0, 1, &a, &ms, &command);
	if (ret)
		return ret;
	if (a.n) {
		ret = fc_port_lookup(cmd, a.pos[0], &ref);
		if (ret)
			return ret;
		t.port = ref.id;
		fc_trace_port_sim(&ref, &t);
	}

	/* Ctrl-C ends the command, not us: the instance must go */
	signal(SIGINT, SIG_IGN);
	if (fc_trace_setup(&t)) {
		ret = fc_lib_err();
		goto out;
	}
	t0 = fc_trace_now();
	ret = fc_trace_run(&t, command, ms, &status);
	fc_trace_write(&t, "tracing_on", "0");
	if (ret || fc_trace_print(&t)) {
		ret = fc_lib_err();
		goto out;
	}
	fc_text("traced %.3f s%s%s\n", fc_trace_now() - t0,
		command ? ", " : "", command ? command[0] : "");
	ret = FC_OK;
	if (command && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		fc_err("%s: %s %d", command[0],
		       WIFEXITED(status) ? "exited with" : "killed by signal",
		       WIFEXITED(status) ? WEXITSTATUS(status) :
		       WTERMSIG(status));
		ret = FC_FAIL;
	}
out:
	fc_trace_teardown(&t);
	return ret;
}
