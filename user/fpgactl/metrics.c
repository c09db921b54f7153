// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl metrics: every card's and port's state in Prometheus' text
 * exposition format 0.0.4, for the node exporter's textfile collector
 * (Documentation/metrics.md).  Everything is gathered first, family by
 * family, then written in one go: to stdout, or with --output to a file
 * replaced atomically, as the collector needs (it may read at any time).
 *
 * What cannot be read is left out: a missing file quietly (no counter
 * bank, no sensors, a device gone meanwhile), a counter bank that is
 * root's with one warning, anything else with a warning and exit
 * status 1 once the rest is written.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fpgactl.h"

/* The metric families, in the order they are printed */
enum fc_fam {
	FAM_CARD_INFO,
	FAM_CARD_ERRORS,
	FAM_CARD_COUNTERS,	/* FPGA_COUNTER_EVENTS of them */
	FAM_CARD_TEMP = FAM_CARD_COUNTERS + FPGA_COUNTER_EVENTS,
	FAM_CARD_POWER,
	FAM_PORT_INFO,
	FAM_PORT_ERRORS,
	FAM_PORT_COUNTERS,
	FAM_PORT_OPEN_FILES = FAM_PORT_COUNTERS + FPGA_COUNTER_EVENTS,
	FAM_PORT_PINNED,
	FAM_PORT_MAPPED,
	FAM_COUNT
};

struct fc_family {
	const char *name;
	const char *type;
	const char *help;
	FILE *f;		/* its samples, in memory */
	char *buf;
	size_t len;
	bool any;
};

/* The counter bank's events (fpga_counter_events[]) as metric names */
static const struct {
	const char *suffix;	/* after fpga_card_ / fpga_port_ */
	const char *what;
} fc_counter_names[FPGA_COUNTER_EVENTS] = {
	{ "dma_read_bytes_total", "Bytes the AFU read from host memory by DMA" },
	{ "dma_write_bytes_total", "Bytes the AFU wrote to host memory by DMA" },
	{ "dma_read_lines_total", "64-byte lines the AFU read by DMA" },
	{ "dma_write_lines_total", "64-byte lines the AFU wrote by DMA" },
	{ "user_interrupts_total", "User interrupts the AFU raised" },
	{ "error_interrupts_total", "Error interrupts raised" },
	{ "resets_total", "Port soft resets" },
	{ "dma_faults_total", "DMA faults" },
	{ "afu_busy_clocks_total",
	  "Clock periods (the counter bank's clock) the AFU ran a job" },
};

struct fc_metrics {
	struct fc_family fam[FAM_COUNT];
	char names[2 * FPGA_COUNTER_EVENTS][64];
	char helps[2 * FPGA_COUNTER_EVENTS][128];
	bool failed;		/* a warning other than the expected ones */
	bool counters_denied;	/* warned once: the bank is root's */
};

/* One label; a NULL value leaves it out */
struct fc_label {
	const char *name;
	const char *value;
};

static void fc_metrics_family(struct fc_metrics *m, enum fc_fam i,
			      const char *name, const char *type,
			      const char *help)
{
	m->fam[i].name = name;
	m->fam[i].type = type;
	m->fam[i].help = help;
}

/* The counters' names and help are made from the event table */
static void fc_metrics_counter_families(struct fc_metrics *m)
{
	for (int e = 0; e < FPGA_COUNTER_EVENTS; e++) {
		for (int port = 0; port < 2; port++) {
			int k = port * FPGA_COUNTER_EVENTS + e;

			snprintf(m->names[k], sizeof(m->names[k]), "fpga_%s_%s",
				 port ? "port" : "card",
				 fc_counter_names[e].suffix);
			snprintf(m->helps[k], sizeof(m->helps[k]),
				 "%s %s, since the card's reset.",
				 fc_counter_names[e].what,
				 port ? "through the port" : "on the whole card");
			fc_metrics_family(m, (port ? FAM_PORT_COUNTERS :
					      FAM_CARD_COUNTERS) + e,
					  m->names[k], "counter", m->helps[k]);
		}
	}
}

static int fc_metrics_init(struct fc_metrics *m)
{
	memset(m, 0, sizeof(*m));
	fc_metrics_family(m, FAM_CARD_INFO, "fpga_card_info", "gauge",
			  "An FPGA card and its FME; interface_id is its PR interface id.");
	fc_metrics_family(m, FAM_CARD_ERRORS, "fpga_card_errors", "gauge",
			  "An FME error register (errors/SOURCE), 0 when clear.");
	fc_metrics_family(m, FAM_CARD_TEMP, "fpga_card_temperature_celsius",
			  "gauge", "The FPGA's temperature (hwmon temp*_input).");
	fc_metrics_family(m, FAM_CARD_POWER, "fpga_card_power_watts", "gauge",
			  "The power the FPGA consumes (hwmon power*_input).");
	fc_metrics_family(m, FAM_PORT_INFO, "fpga_port_info", "gauge",
			  "A port of an FPGA card; afu_id is the GUID of its AFU.");
	fc_metrics_family(m, FAM_PORT_ERRORS, "fpga_port_errors", "gauge",
			  "The port error register (errors/errors), 0 when clear.");
	fc_metrics_family(m, FAM_PORT_OPEN_FILES, "fpga_port_open_files", "gauge",
			  "Open files of the port (distinct fdinfo client ids).");
	fc_metrics_family(m, FAM_PORT_PINNED, "fpga_port_memory_pinned_bytes",
			  "gauge", "User memory the port's open files pinned for DMA.");
	fc_metrics_family(m, FAM_PORT_MAPPED, "fpga_port_memory_mapped_bytes",
			  "gauge", "Memory the port's open files mapped for DMA, dma-bufs included.");
	fc_metrics_counter_families(m);
	for (int i = 0; i < FAM_COUNT; i++) {
		m->fam[i].f = open_memstream(&m->fam[i].buf, &m->fam[i].len);
		if (!m->fam[i].f)
			return fpga_set_error(ENOMEM, "out of memory");
	}
	return 0;
}

static void fc_metrics_free(struct fc_metrics *m)
{
	for (int i = 0; i < FAM_COUNT; i++) {
		if (m->fam[i].f)
			fclose(m->fam[i].f);
		free(m->fam[i].buf);
	}
}

/* A warning that makes the exit status 1 (the output is still written) */
static void fc_metrics_warn(struct fc_metrics *m)
{
	fc_err("metrics: %s", fpga_errmsg());
	m->failed = true;
}

/* A label value as the format wants it: \\, \" and \n escaped */
static void fc_label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* name{labels} value: @value already formatted */
static void fc_sample(struct fc_metrics *m, enum fc_fam i,
		      const struct fc_label *labels, size_t n, const char *value)
{
	struct fc_family *fam = &m->fam[i];
	const char *sep = "{";

	fputs(fam->name, fam->f);
	for (size_t k = 0; k < n; k++) {
		if (!labels[k].value)
			continue;
		fprintf(fam->f, "%s%s=\"", sep, labels[k].name);
		fc_label_value(fam->f, labels[k].value);
		fputc('"', fam->f);
		sep = ",";
	}
	fprintf(fam->f, "%s %s\n", *sep == ',' ? "}" : "", value);
	fam->any = true;
}

static void fc_sample_u64(struct fc_metrics *m, enum fc_fam i,
			  const struct fc_label *labels, size_t n, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	fc_sample(m, i, labels, n, buf);
}

/* @raw / 10^@digits, exactly, without trailing zeros: 45500 m -> "45.5" */
static void fc_fixed_point(int64_t raw, int digits, char *buf, size_t size)
{
	uint64_t div = 1, mag = raw < 0 ? -(uint64_t)raw : (uint64_t)raw;
	char frac[24];
	int len;

	for (int k = 0; k < digits; k++)
		div *= 10;
	len = snprintf(frac, sizeof(frac), "%0*" PRIu64, digits, mag % div);
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = '\0';
	snprintf(buf, size, "%s%" PRIu64 "%s%s", raw < 0 ? "-" : "",
		 mag / div, len ? "." : "", frac);
}

/* ---- what is gathered ---- */

/* A card: its FME, and the label its samples carry */
struct fc_card {
	const struct fpga_dev_info *fme;
	struct fpga_fme_ref ref;
	char addr[64];		/* the PCI address, else the card's device */
};

/* What a port's open files use, summed over distinct client ids */
struct fc_port_use {
	uint64_t files, pinned_kib, mapped_kib;
};

/* One open file of a port, from its fdinfo */
struct fc_open_file {
	int port_id;
	bool has_client;
	uint64_t client_id;
	uint64_t pinned_kib, mapped_kib;
};

struct fc_open_files {
	struct fc_metrics *m;
	size_t n, cap;
	struct fc_open_file *f;
	bool failed;		/* the walk failed: no use is known */
};

/* @dev's card label: its PCI address, else the name of its card device */
static void fc_card_label(const struct fpga_dev_info *dev, const char *sysfs,
			  char *buf, size_t size)
{
	if (fpga_card_pci_addr(sysfs, buf, size))
		snprintf(buf, size, "%s", dev->card[0] ? dev->card : dev->name);
}

static void fc_card_info(struct fc_metrics *m, const struct fc_card *c)
{
	uint8_t id[FPGA_UUID_SIZE];
	char hex[33] = "";
	struct fc_label l[] = {
		{ "card", c->addr }, { "fme", c->fme->name },
		{ "interface_id", NULL },
	};

	/* No PR engine, no compat_id: no label rather than an empty one */
	if (!fpga_fme_interface_id(&c->ref, id)) {
		fc_uuid_hex(id, hex);
		l[2].value = hex;
	}
	fc_sample(m, FAM_CARD_INFO, l, 3, "1");
}

/* A file of the FME's errors/ that is a register: not first_*, a number */
static void fc_card_error(struct fc_metrics *m, const struct fc_card *c,
			  const char *path, const char *source)
{
	struct fc_label l[] = {
		{ "card", c->addr }, { "fme", c->fme->name }, { "source", source },
	};
	char buf[64];
	uint64_t v;

	if (!strncmp(source, "first_", 6))
		return;
	if (fpga_sysfs_read(path, buf, sizeof(buf)))
		return;		/* write-only, gone meanwhile: none */
	if (fpga_parse_u64(buf, &v))
		return;		/* not a number: not a register */
	fc_sample_u64(m, FAM_CARD_ERRORS, l, 3, v);
}

/* Every numeric file directly in the FME's errors/, by name */
static void fc_card_errors(struct fc_metrics *m, const struct fc_card *c)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct dirent **names;
	int n;

	if (snprintf(dir, sizeof(dir), "%s/errors", c->ref.sysfs) >=
	    (int)sizeof(dir))
		return;
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return;		/* no global error feature */
	for (int k = 0; k < n; k++) {
		struct stat st;

		if (names[k]->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir,
			     names[k]->d_name) < (int)sizeof(path) &&
		    !stat(path, &st) && S_ISREG(st.st_mode))
			fc_card_error(m, c, path, names[k]->d_name);
		free(names[k]);
	}
	free(names);
}

/*
 * Counter @name of the card's bank: 0 and *@v, or non-zero when there is
 * none to print (no bank, not root: warned once, another error: warned)
 */
static int fc_counter(struct fc_metrics *m, const struct fc_card *c,
		      const char *name, uint64_t *v)
{
	int ret = fpga_fme_counter(&c->ref, name, v);

	if (ret == -EACCES && !m->counters_denied) {
		fc_err("metrics: %s: the fpga_*_total counters are left out",
		       fpga_errmsg());
		m->counters_denied = true;
	} else if (ret && ret != -EACCES && ret != -ENOENT) {
		fc_metrics_warn(m);
	}
	return ret;
}

static void fc_card_counters(struct fc_metrics *m, const struct fc_card *c)
{
	struct fc_label l[] = { { "card", c->addr }, { "fme", c->fme->name } };
	uint64_t v;

	for (int e = 0; e < FPGA_COUNTER_EVENTS; e++)
		if (!fc_counter(m, c, fpga_counter_events[e], &v))
			fc_sample_u64(m, FAM_CARD_COUNTERS + e, l, 2, v);
}

static void fc_card_sensors(struct fc_metrics *m, const struct fc_card *c)
{
	struct fpga_sensor *s;
	size_t n;
	char val[48];
	int ret;

	ret = fpga_fme_sensors(&c->ref, &s, &n);
	if (ret)
		fc_metrics_warn(m);
	for (size_t k = 0; k < n; k++) {
		struct fc_label l[] = {
			{ "card", c->addr }, { "sensor", s[k].name },
		};
		bool temp = s[k].kind == FPGA_SENSOR_TEMP;

		/* millidegrees Celsius, microwatts */
		fc_fixed_point(s[k].raw, temp ? 3 : 6, val, sizeof(val));
		fc_sample(m, temp ? FAM_CARD_TEMP : FAM_CARD_POWER, l, 2, val);
	}
	free(s);
}

static void fc_card_metrics(struct fc_metrics *m, const struct fc_card *c)
{
	fc_card_info(m, c);
	fc_card_errors(m, c);
	fc_card_counters(m, c);
	fc_card_sensors(m, c);
}

/* ---- ports ---- */

static void fc_port_info(struct fc_metrics *m, const struct fpga_dev_info *p,
			 const char *card)
{
	struct fc_label l[] = {
		{ "card", card }, { "port", p->name },
		/* unreadable (EBUSY during a reset): no label */
		{ "afu_id", p->afu_id[0] ? p->afu_id : NULL },
	};

	fc_sample(m, FAM_PORT_INFO, l, 3, "1");
}

static void fc_port_errors(struct fc_metrics *m, const struct fpga_dev_info *p,
			   const char *card)
{
	struct fc_label l[] = { { "card", card }, { "port", p->name } };
	char path[PATH_MAX];
	uint64_t v;
	int ret;

	snprintf(path, sizeof(path), "%s" FPGA_SYSFS_BUS "/%s/errors/errors",
		 fpga_sysfs_root(), p->name);
	ret = fpga_sysfs_read_u64(path, &v);
	/* errors/ exists only with the port driver and an error feature */
	if (ret && ret != -ENOENT && ret != -ENODEV)
		fc_metrics_warn(m);
	if (!ret)
		fc_sample_u64(m, FAM_PORT_ERRORS, l, 2, v);
}

/* The port's counters in its card's bank: port<P>_<event> */
static void fc_port_counters(struct fc_metrics *m,
			     const struct fpga_dev_info *p,
			     const struct fc_card *c)
{
	struct fc_label l[] = { { "card", c->addr }, { "port", p->name } };
	char path[PATH_MAX], name[64];
	uint64_t num, v;

	/* P is the port's number on its card */
	snprintf(path, sizeof(path), "%s" FPGA_SYSFS_BUS "/%s/id",
		 fpga_sysfs_root(), p->name);
	if (fpga_sysfs_read_u64(path, &num))
		return;
	for (int e = 0; e < FPGA_COUNTER_EVENTS; e++) {
		snprintf(name, sizeof(name), "port%" PRIu64 "_%s", num,
			 fpga_counter_events[e]);
		if (!fc_counter(m, c, name, &v))
			fc_sample_u64(m, FAM_PORT_COUNTERS + e, l, 2, v);
	}
}

static void fc_port_use(struct fc_metrics *m, const struct fpga_dev_info *p,
			const char *card, const struct fc_port_use *u)
{
	struct fc_label l[] = { { "card", card }, { "port", p->name } };

	fc_sample_u64(m, FAM_PORT_OPEN_FILES, l, 2, u->files);
	fc_sample_u64(m, FAM_PORT_PINNED, l, 2, u->pinned_kib * 1024);
	fc_sample_u64(m, FAM_PORT_MAPPED, l, 2, u->mapped_kib * 1024);
}

/* ---- open files, from every process's fdinfo ---- */

static int fc_open_file_add(int pid, int fd, const char *comm,
			    const struct fpga_fdinfo *info, void *arg)
{
	struct fc_open_files *of = arg;
	struct fc_open_file *f;

	(void)pid;
	(void)fd;
	(void)comm;
	if (!(info->present & FPGA_FDINFO_PORT))
		return 0;	/* whose it is is unknown */
	if (of->n == of->cap) {
		size_t cap = of->cap ? of->cap * 2 : 16;

		f = realloc(of->f, cap * sizeof(*f));
		if (!f)
			return fpga_set_error(ENOMEM, "out of memory");
		of->f = f;
		of->cap = cap;
	}
	f = &of->f[of->n++];
	f->port_id = info->port_id;
	f->has_client = info->present & FPGA_FDINFO_CLIENT_ID;
	f->client_id = info->client_id;
	f->pinned_kib = info->present & FPGA_FDINFO_PINNED ? info->pinned_kib : 0;
	f->mapped_kib = info->present & FPGA_FDINFO_MAPPED ? info->mapped_kib : 0;
	return 0;
}

/* A file that could not be read: left out of the counts, said, exit 1 */
static void fc_open_file_skip(const char *why, void *arg)
{
	struct fc_open_files *of = arg;
	char buf[4 * 1024];

	fpga_escape(buf, sizeof(buf), why);
	fc_err("metrics: %s: not counted", buf);
	of->m->failed = true;
}

static int fc_open_file_cmp(const void *a, const void *b)
{
	const struct fc_open_file *x = a, *y = b;

	if (x->port_id != y->port_id)
		return (x->port_id > y->port_id) - (x->port_id < y->port_id);
	if (x->has_client != y->has_client)
		return x->has_client ? -1 : 1;
	return (x->client_id > y->client_id) - (x->client_id < y->client_id);
}

/*
 * What port @port_id's open files use.  A file shared by several
 * descriptors (dup, fork, SCM_RIGHTS) has one client id and counts once;
 * one without a client id cannot be matched and counts alone.
 */
static struct fc_port_use fc_port_use_of(const struct fc_open_files *of,
					 int port_id)
{
	struct fc_port_use u = { 0 };

	for (size_t k = 0; k < of->n; k++) {
		const struct fc_open_file *f = &of->f[k];

		if (f->port_id != port_id)
			continue;
		if (k && f->has_client && of->f[k - 1].port_id == port_id &&
		    of->f[k - 1].has_client &&
		    of->f[k - 1].client_id == f->client_id)
			continue;	/* sorted: the same file again */
		u.files++;
		u.pinned_kib += f->pinned_kib;
		u.mapped_kib += f->mapped_kib;
	}
	return u;
}

/* ---- the whole ---- */

static const struct fc_card *fc_card_of(const struct fc_card *cards,
					size_t n, int card_id)
{
	for (size_t k = 0; k < n; k++)
		if (card_id >= 0 && cards[k].fme->card_id == card_id)
			return &cards[k];
	return NULL;
}

static void fc_ports_metrics(struct fc_metrics *m,
			     const struct fpga_dev_info *devs, size_t n,
			     const struct fc_card *cards, size_t ncards,
			     const struct fc_open_files *of)
{
	for (size_t k = 0; k < n; k++) {
		const struct fpga_dev_info *p = &devs[k];
		const struct fc_card *c;
		char sysfs[PATH_MAX], own[64];
		const char *card;
		struct fc_port_use u;

		if (p->type != FPGA_DEV_PORT)
			continue;
		c = fc_card_of(cards, ncards, p->card_id);
		if (c) {
			card = c->addr;
		} else {	/* no FME on the bus: the port tells its card */
			snprintf(sysfs, sizeof(sysfs), "%s" FPGA_SYSFS_BUS "/%s",
				 fpga_sysfs_root(), p->name);
			fc_card_label(p, sysfs, own, sizeof(own));
			card = own;
		}
		fc_port_info(m, p, card);
		fc_port_errors(m, p, card);
		if (c)
			fc_port_counters(m, p, c);
		if (of->failed)
			continue;
		u = fc_port_use_of(of, p->id);
		fc_port_use(m, p, card, &u);
	}
}

/* Cards, then ports; fails only when out of memory */
static int fc_metrics_gather(struct fc_metrics *m,
			     const struct fpga_dev_info *devs, size_t n)
{
	struct fc_open_files of = { .m = m };
	struct fc_card *cards;
	size_t ncards = 0;
	bool any_port = false;

	cards = calloc(n ? n : 1, sizeof(*cards));
	if (!cards)
		return fpga_set_error(ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		struct fc_card *c = &cards[ncards];

		any_port |= devs[k].type == FPGA_DEV_PORT;
		if (devs[k].type != FPGA_DEV_FME ||
		    fpga_fme_lookup(devs[k].name, &c->ref))
			continue;
		c->fme = &devs[k];
		fc_card_label(c->fme, c->ref.sysfs, c->addr, sizeof(c->addr));
		fc_card_metrics(m, c);
		ncards++;
	}
	/*
	 * Without privileges only one's own processes are seen.  A file
	 * whose fdinfo cannot be read is left out (and said); a walk that
	 * fails (no /proc, out of memory) leaves out every count.
	 */
	if (any_port && fpga_port_users(NULL, fc_open_file_add,
					fc_open_file_skip, &of)) {
		fc_metrics_warn(m);
		of.failed = true;	/* partly walked: counts would lie */
	}
	if (of.n)
		qsort(of.f, of.n, sizeof(*of.f), fc_open_file_cmp);
	fc_ports_metrics(m, devs, n, cards, ncards, &of);
	free(of.f);
	free(cards);
	return 0;
}

/* The exposition: each family with samples, its HELP and TYPE first */
static int fc_metrics_text(struct fc_metrics *m, FILE *out)
{
	for (int i = 0; i < FAM_COUNT; i++) {
		struct fc_family *fam = &m->fam[i];

		if (fflush(fam->f))
			return fpga_set_error(ENOMEM, "out of memory");
		if (!fam->any)
			continue;
		fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", fam->name,
			fam->help, fam->name, fam->type);
		fwrite(fam->buf, 1, fam->len, out);
	}
	return 0;
}

/* ---- output ---- */

static int fc_write_stdout(struct fc_metrics *m)
{
	if (fc_metrics_text(m, stdout))
		return fc_lib_err();
	if (fflush(stdout) || ferror(stdout)) {
		fc_err("metrics: writing to stdout: %s", strerror(errno));
		return FC_FAIL;
	}
	return FC_OK;
}

/*
 * @path replaced atomically (the collector may read at any time): the
 * temporary file is hidden and not named *.prom, which it would read
 */
static int fc_write_file(struct fc_metrics *m, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	f = open_memstream(&buf, &len);
	if (!f) {
		fc_err("metrics: out of memory");
		return FC_FAIL;
	}
	ret = fc_metrics_text(m, f);
	if (fclose(f) && !ret)
		ret = fpga_set_error(ENOMEM, "out of memory");
	/* the collector runs as another user: readable by all, as a .prom is */
	if (!ret)
		ret = fpga_write_file_atomic(path, buf, len, 0644);
	free(buf);
	if (ret) {
		fc_err("metrics: %s", fpga_errmsg());
		return FC_FAIL;
	}
	return FC_OK;
}

int fc_cmd_metrics(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *output = NULL;
	bool output_set = false;
	const struct fc_opt opts[] = {
		{ "output", 'o', &output, &output_set },
		{ 0 }
	};
	struct fpga_dev_info *devs;
	struct fc_metrics m;
	struct fc_args a;
	size_t n;
	bool bus;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 0, 0, &a);
	if (ret)
		return ret;
	if (output_set) {
		ret = fc_check_output(cmd, output);
		if (ret)
			return ret;
	}
	if (fc_json)
		return fc_usage_err(cmd, "the output is Prometheus' text format: no -j or -p");
	/* No bus (no card driver loaded): no samples, a valid exposition */
	if (fpga_dev_list(&devs, &n, &bus))
		return fc_lib_err();
	if (fc_metrics_init(&m) || fc_metrics_gather(&m, devs, n)) {
		ret = fc_lib_err();
	} else {
		ret = output_set ? fc_write_file(&m, output) : fc_write_stdout(&m);
		if (!ret && m.failed)
			ret = FC_FAIL;
	}
	fc_metrics_free(&m);
	free(devs);
	return ret;
}
