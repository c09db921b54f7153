// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl perf: a card's counters (its perf PMU, fpga_pmu_N) while a
 * command runs or for a time, through perf_event_open(2), without the
 * perf tool.  Events and their encoding come from the PMU's sysfs
 * (events/, format/), so nothing here knows the config layout.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "fpgactl.h"

#define FC_PMU_MAX_FIELDS	8
#define FC_PMU_MAX_EVENTS	32
#define FC_PERF_DEFAULT_MS	1000

struct fc_pmu_field {
	char name[32];
	unsigned int lo, hi;		/* bits of config */
};

struct fc_pmu_event {
	char name[64];			/* alias, without "port_" */
	char unit[16];
	uint64_t config;
	uint64_t value;
	int fd;
};

struct fc_pmu {
	char name[32];			/* fpga_pmu_N */
	char dir[256];
	int card;
	int port;			/* -1: the whole card */
	uint32_t type;
	int cpu;
	int nfields;
	struct fc_pmu_field fields[FC_PMU_MAX_FIELDS];
	int nev;
	struct fc_pmu_event ev[FC_PMU_MAX_EVENTS];
};

/* fpga_pmu_N, fpga-fme.N, /dev/fpga-fme.N or .../fpga-fme.N: card N */
static int fc_perf_card_spec(const char *spec, int *card)
{
	const char *base = strrchr(spec, '/');
	uint64_t n;

	base = base ? base + 1 : spec;
	if (!strncmp(base, "fpga_pmu_", 9)) {
		if (fpga_parse_u64_max(base + 9, INT32_MAX, &n))
			return -EINVAL;
		*card = (int)n;
		return 0;
	}
	if (!strncmp(base, FPGA_FME_PREFIX, strlen(FPGA_FME_PREFIX)))
		return fpga_parse_dev_name(base, FPGA_FME_PREFIX, card);
	return -ENOENT;
}

static int fc_perf_read_file(const char *dir, const char *file, char *buf,
			     size_t size)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return fpga_sysfs_read(path, buf, size);
}

/* format/: "config:LO-HI" or "config:BIT" per field */
static int fc_perf_formats(struct fc_pmu *p)
{
	char dir[300], buf[64];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/format", p->dir);
	d = opendir(dir);
	if (!d)
		return fpga_set_error(errno, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) && p->nfields < FC_PMU_MAX_FIELDS) {
		struct fc_pmu_field *f = &p->fields[p->nfields];
		unsigned int lo, hi;
		int n;

		if (de->d_name[0] == '.' ||
		    fc_perf_read_file(dir, de->d_name, buf, sizeof(buf)))
			continue;
		n = sscanf(buf, "config:%u-%u", &lo, &hi);
		if (n == 1)
			hi = lo;
		if (n < 1 || hi < lo || hi > 63)
			continue;	/* config1/config2 fields: not used */
		snprintf(f->name, sizeof(f->name), "%.31s", de->d_name);
		f->lo = lo;
		f->hi = hi;
		p->nfields++;
	}
	closedir(d);
	return 0;
}

/* Put @val in field @name of @config; -ENOENT for an unknown field */
static int fc_perf_set(const struct fc_pmu *p, const char *name, uint64_t val,
		       uint64_t *config)
{
	for (int i = 0; i < p->nfields; i++) {
		const struct fc_pmu_field *f = &p->fields[i];
		uint64_t mask;

		if (strcmp(f->name, name))
			continue;
		mask = f->hi - f->lo == 63 ? ~0ULL :
		       ((1ULL << (f->hi - f->lo + 1)) - 1);
		if (val & ~mask)
			return -ERANGE;
		*config |= val << f->lo;
		return 0;
	}
	return -ENOENT;
}

/* "event=0x04,evtype=0x01,portid=?": ? is the port */
static int fc_perf_encode(const struct fc_pmu *p, char *str, uint64_t *config)
{
	char *save = NULL, *term;

	*config = 0;
	for (term = strtok_r(str, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		uint64_t v;

		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (!strcmp(eq + 1, "?")) {
			if (p->port < 0)
				return -EINVAL;
			v = (uint64_t)p->port;
		} else if (fpga_parse_u64(eq + 1, &v)) {
			return -EINVAL;
		}
		if (fc_perf_set(p, term, v, config))
			return -EINVAL;
	}
	return 0;
}

static int fc_perf_event_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fc_pmu_event *)a)->name,
		      ((const struct fc_pmu_event *)b)->name);
}

/*
 * events/: the card's aliases for a card, the port_ ones for a port.
 * An alias whose terms this PMU's format/ does not know is left out.
 */
static int fc_perf_events(struct fc_pmu *p)
{
	char dir[300], buf[256], file[300];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/events", p->dir);
	d = opendir(dir);
	if (!d)
		return fpga_set_error(errno, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) && p->nev < FC_PMU_MAX_EVENTS) {
		struct fc_pmu_event *e = &p->ev[p->nev];
		bool per_port = !strncmp(de->d_name, "port_", 5);
		const char *name = de->d_name + (per_port ? 5 : 0);

		if (de->d_name[0] == '.' || strchr(de->d_name, '.') ||
		    per_port != (p->port >= 0) || strlen(name) >= sizeof(e->name))
			continue;
		if (fc_perf_read_file(dir, de->d_name, buf, sizeof(buf)) ||
		    fc_perf_encode(p, buf, &e->config))
			continue;
		snprintf(e->name, sizeof(e->name), "%s", name);
		snprintf(file, sizeof(file), "%s.unit", de->d_name);
		if (fc_perf_read_file(dir, file, e->unit, sizeof(e->unit)))
			e->unit[0] = '\0';
		e->fd = -1;
		p->nev++;
	}
	closedir(d);
	if (!p->nev)
		return fpga_set_error(ENOENT, "%s: no events for a %s", p->name,
				      p->port < 0 ? "card" : "port");
	qsort(p->ev, p->nev, sizeof(p->ev[0]), fc_perf_event_cmp);
	return 0;
}

static int fc_perf_pmu_init(struct fc_pmu *p)
{
	char buf[64];
	uint64_t v;

	snprintf(p->name, sizeof(p->name), "fpga_pmu_%d", p->card);
	snprintf(p->dir, sizeof(p->dir), "%s/bus/event_source/devices/%s",
		 fpga_sysfs_root(), p->name);
	if (fc_perf_read_file(p->dir, "type", buf, sizeof(buf)) ||
	    fpga_parse_u64_max(buf, UINT32_MAX, &v))
		return fpga_set_error(ENOENT, "%s: no such PMU (is fpga_fme loaded, does card %d have a counter bank?)",
				      p->name, p->card);
	p->type = (uint32_t)v;
	/* One CPU: "N" */
	if (fc_perf_read_file(p->dir, "cpumask", buf, sizeof(buf)) ||
	    !isdigit((unsigned char)buf[0]))
		return fpga_set_error(EINVAL, "%s: cannot read its cpumask",
				      p->name);
	p->cpu = atoi(buf);
	if (fc_perf_formats(p))
		return -1;
	return fc_perf_events(p);
}

/* All events in one group, so that one read gives them all at once */
static int fc_perf_open(struct fc_pmu *p)
{
	for (int i = 0; i < p->nev; i++) {
		struct perf_event_attr attr = {
			.type = p->type,
			.size = sizeof(attr),
			.config = p->ev[i].config,
			.disabled = i == 0,
			.read_format = PERF_FORMAT_GROUP,
		};
		int fd;

		fd = syscall(__NR_perf_event_open, &attr, -1, p->cpu,
			     i ? p->ev[0].fd : -1, 0);
		if (fd < 0)
			return fpga_set_error(errno, "%s/%s: perf_event_open: %s",
					      p->name, p->ev[i].name,
					      strerror(errno));
		p->ev[i].fd = fd;
	}
	return 0;
}

static void fc_perf_close(struct fc_pmu *p)
{
	for (int i = p->nev - 1; i >= 0; i--)
		if (p->ev[i].fd >= 0)
			close(p->ev[i].fd);
}

static int fc_perf_read(struct fc_pmu *p)
{
	uint64_t vals[FC_PMU_MAX_EVENTS + 1];
	ssize_t want = (ssize_t)((p->nev + 1) * sizeof(uint64_t));

	if (read(p->ev[0].fd, vals, want) != want)
		return fpga_set_error(errno ? errno : EIO, "%s: read: %s",
				      p->name, strerror(errno ? errno : EIO));
	for (int i = 0; i < p->nev; i++)
		p->ev[i].value = vals[i + 1];
	return 0;
}

static double fc_perf_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Count while @argv runs (its exit status in *status), or for @ms.  The
 * child waits for the counters to be enabled before it execs.
 */
static int fc_perf_count(struct fc_pmu *p, char **argv, uint64_t ms,
			 int *status, double *secs)
{
	int go[2], leader = p->ev[0].fd, ret = 0;
	double t0;
	pid_t pid = -1;
	char c = 0;

	*status = 0;
	if (argv) {
		if (pipe(go))
			return fpga_set_error(errno, "pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0) {
			ret = fpga_set_error(errno, "fork: %s", strerror(errno));
			close(go[0]);
			close(go[1]);
			return ret;
		}
		if (!pid) {
			close(go[1]);
			for (int i = 0; i < p->nev; i++)
				close(p->ev[i].fd);
			if (read(go[0], &c, 1) != 1)
				_exit(127);
			close(go[0]);
			execvp(argv[0], argv);
			fprintf(stderr, "fpgactl: %s: %s\n", argv[0],
				strerror(errno));
			_exit(127);
		}
		close(go[0]);
	}
	t0 = fc_perf_now();
	if (ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		ret = fpga_set_error(errno, "%s: enable: %s", p->name,
				     strerror(errno));
	if (argv) {
		/* Let it run even if enabling failed: it must not hang */
		if (write(go[1], &c, 1) != 1)
			ret = ret ? ret : fpga_set_error(errno, "pipe: %s",
							 strerror(errno));
		close(go[1]);
		while (waitpid(pid, status, 0) < 0 && errno == EINTR)
			;
	} else {
		struct timespec ts = {
			.tv_sec = ms / 1000,
			.tv_nsec = (ms % 1000) * 1000000,
		};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	*secs = fc_perf_now() - t0;
	if (!ret)
		ret = fc_perf_read(p);
	return ret;
}

static void fc_perf_print(const struct fc_pmu *p, double secs, char **argv)
{
	fc_obj_open(NULL);
	fc_str("pmu", "%s", p->name);
	fc_int("card", " (card %" PRId64, p->card);
	if (p->port >= 0)
		fc_int("port", ", port %" PRId64, p->port);
	fc_double("seconds", "), %.3f s", secs);
	if (argv)
		fc_text(", %s", argv[0]);
	fc_text(":\n");
	fc_obj_open("counters");
	for (int i = 0; i < p->nev; i++) {
		const struct fc_pmu_event *e = &p->ev[i];

		fc_text("%20" PRIu64 " %-6s %s\n", e->value, e->unit, e->name);
		fc_u64(e->name, NULL, e->value);
	}
	fc_obj_close();
	fc_obj_close();
}

int fc_cmd_perf(const struct fc_cmd *cmd, int argc, char **argv)
{
	char **command = NULL, buf[32];
	struct fpga_port_ref ref;
	uint64_t ms = FC_PERF_DEFAULT_MS, v;
	struct fc_pmu *p;
	struct fc_args a;
	int ret, status;
	double secs = 0;

	/* fpgactl perf TARGET [--time MS] [-- COMMAND [ARG...]] */
	ret = fc_parse_timed_args(cmd, argc, argv, 1, 1, &a, &ms, &command);
	if (ret)
		return ret;

	p = calloc(1, sizeof(*p));
	if (!p) {
		fc_err("out of memory");
		return FC_FAIL;
	}
	p->port = -1;
	ret = fc_perf_card_spec(a.pos[0], &p->card);
	if (ret == -ENOENT) {
		/* A port: its card, and its number on the card */
		ret = fc_port_lookup(cmd, a.pos[0], &ref);
		if (ret)
			goto out;
		if (fc_perf_read_file(ref.sysfs, "card_id", buf, sizeof(buf)) ||
		    fpga_parse_u64_max(buf, INT32_MAX, &v)) {
			fpga_set_error(ENOENT, "%s: no card_id", ref.sysfs);
			ret = fc_lib_err();
			goto out;
		}
		p->card = (int)v;
		if (fc_perf_read_file(ref.sysfs, "id", buf, sizeof(buf)) ||
		    fpga_parse_u64_max(buf, 255, &v)) {
			fpga_set_error(ENOENT, "%s: no port id (is fpga_port bound?)",
				       ref.sysfs);
			ret = fc_lib_err();
			goto out;
		}
		p->port = (int)v;
	} else if (ret) {
		ret = fc_usage_err(cmd, "'%s' is not a card", a.pos[0]);
		goto out;
	}

	if (fc_perf_pmu_init(p) || fc_perf_open(p) ||
	    fc_perf_count(p, command, ms, &status, &secs)) {
		ret = fc_lib_err();
		goto out;
	}
	fc_perf_print(p, secs, command);
	ret = FC_OK;
	if (command && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		fc_err("%s: %s %d", command[0],
		       WIFEXITED(status) ? "exited with" : "killed by signal",
		       WIFEXITED(status) ? WEXITSTATUS(status) :
		       WTERMSIG(status));
		ret = FC_FAIL;
	}
out:
	fc_perf_close(p);
	free(p);
	return ret;
}
