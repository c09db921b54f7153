// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga fdinfo: who has a port open.  The port driver adds "fpga-"
 * keys to /proc/PID/fdinfo/FD of each open file of a port, in DRM's
 * fdinfo style ("fpga-resets:\t1"); this parses them and walks /proc
 * for them.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fpga.h"
#include "fpga-int.h"

#define FPGA_FDINFO_KEY_PREFIX	"fpga-"
/*
 * A port's fdinfo is read a line at a time, whatever its length: it has
 * a "lock:" line for each lock on the file, and a user can take as many
 * as they like on their own descriptor, before the port's keys.  No line
 * of the kernel's is near this long; a longer one is cut to it (the
 * value of a key of ours is then too long) and the rest of it dropped.
 */
#define FPGA_FDINFO_LINE_MAX	256

enum fpga_fdinfo_kind {
	FPGA_FDINFO_STR,	/* a name: char[FPGA_FDINFO_NAME_MAX] */
	FPGA_FDINFO_NUM,	/* a decimal number */
	FPGA_FDINFO_KIB,	/* "N KiB" */
	FPGA_FDINFO_NS,		/* "N ns" */
};

static const struct fpga_fdinfo_key {
	const char *name;
	unsigned int bit;
	enum fpga_fdinfo_kind kind;
	size_t offset;		/* of its field in struct fpga_fdinfo */
} fpga_fdinfo_keys[] = {
	{ "fpga-driver", FPGA_FDINFO_DRIVER, FPGA_FDINFO_STR,
	  offsetof(struct fpga_fdinfo, driver) },
	{ "fpga-port", FPGA_FDINFO_PORT, FPGA_FDINFO_STR,
	  offsetof(struct fpga_fdinfo, port) },
	{ "fpga-client-id", FPGA_FDINFO_CLIENT_ID, FPGA_FDINFO_NUM,
	  offsetof(struct fpga_fdinfo, client_id) },
	{ "fpga-memory-pinned", FPGA_FDINFO_PINNED, FPGA_FDINFO_KIB,
	  offsetof(struct fpga_fdinfo, pinned_kib) },
	{ "fpga-memory-mapped", FPGA_FDINFO_MAPPED, FPGA_FDINFO_KIB,
	  offsetof(struct fpga_fdinfo, mapped_kib) },
	{ "fpga-interrupts", FPGA_FDINFO_INTERRUPTS, FPGA_FDINFO_NUM,
	  offsetof(struct fpga_fdinfo, interrupts) },
	{ "fpga-resets", FPGA_FDINFO_RESETS, FPGA_FDINFO_NUM,
	  offsetof(struct fpga_fdinfo, resets) },
	{ "fpga-engine-afu", FPGA_FDINFO_ENGINE_AFU, FPGA_FDINFO_NS,
	  offsetof(struct fpga_fdinfo, afu_busy_ns) },
};

const char *fpga_proc_root(void)
{
	const char *root = getenv("FPGA_PROC_ROOT");

	return root && *root ? root : "/proc";
}

static const struct fpga_fdinfo_key *fpga_fdinfo_key_find(const char *key,
							  size_t len)
{
	for (size_t i = 0; i < sizeof(fpga_fdinfo_keys) /
			       sizeof(fpga_fdinfo_keys[0]); i++) {
		const struct fpga_fdinfo_key *k = &fpga_fdinfo_keys[i];

		if (strlen(k->name) == len && !strncmp(k->name, key, len))
			return k;
	}
	return NULL;
}

/* Decimal only: the kernel prints %llu, and "010" must not be octal */
static int fpga_fdinfo_decimal(const char *s, uint64_t *v)
{
	unsigned long long n;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno == ERANGE || *end)
		return -EINVAL;
	*v = n;
	return 0;
}

/* "64 KiB" or "1200 ns": a decimal number and the one @unit it is in */
static int fpga_fdinfo_unit(const char *s, const char *unit, uint64_t *v)
{
	const char *space = strrchr(s, ' ');
	char num[32];

	if (!space || strcmp(space + 1, unit) ||
	    (size_t)(space - s) >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, space - s);
	num[space - s] = '\0';
	return fpga_fdinfo_decimal(num, v);
}

/* Store @val of key @k into @info; -EPROTO with a message if malformed */
static int fpga_fdinfo_store(const struct fpga_fdinfo_key *k,
			     const char *val, struct fpga_fdinfo *info)
{
	char *field = (char *)info + k->offset;
	uint64_t *num = (uint64_t *)(void *)field;

	if (info->present & k->bit)
		return fpga_set_error(EPROTO, "%s given twice", k->name);
	switch (k->kind) {
	case FPGA_FDINFO_STR:
		if (!*val || strlen(val) >= FPGA_FDINFO_NAME_MAX)
			return fpga_set_error(EPROTO, "%s: '%s' is not a name",
					      k->name, val);
		fpga_strcpy(field, FPGA_FDINFO_NAME_MAX, val);
		break;
	case FPGA_FDINFO_NUM:
		if (fpga_fdinfo_decimal(val, num))
			return fpga_set_error(EPROTO, "%s: '%s' is not a decimal number",
					      k->name, val);
		break;
	case FPGA_FDINFO_KIB:	/* the kernel gives memory in KiB, always */
		if (fpga_fdinfo_unit(val, "KiB", num))
			return fpga_set_error(EPROTO, "%s: '%s' is not 'N KiB'",
					      k->name, val);
		break;
	case FPGA_FDINFO_NS:	/* and times in ns, as DRM's drm-engine- */
		if (fpga_fdinfo_unit(val, "ns", num))
			return fpga_set_error(EPROTO, "%s: '%s' is not 'N ns'",
					      k->name, val);
		break;
	}
	info->present |= k->bit;
	return 0;
}

/*
 * One line "key:<blanks>value" of @len bytes.  Keys that are not ours,
 * or are ours but unknown (the set grows), are skipped.
 */
static int fpga_fdinfo_line(const char *line, size_t len,
			    struct fpga_fdinfo *info)
{
	const char *colon = memchr(line, ':', len);
	const struct fpga_fdinfo_key *k;
	char val[FPGA_FDINFO_NAME_MAX * 2];
	size_t vlen;

	if (!colon || strncmp(line, FPGA_FDINFO_KEY_PREFIX,
			      strlen(FPGA_FDINFO_KEY_PREFIX)))
		return 0;
	k = fpga_fdinfo_key_find(line, colon - line);
	if (!k)
		return 0;
	vlen = len - (size_t)(colon + 1 - line);
	if (vlen >= sizeof(val))	/* no value of ours is this long */
		return fpga_set_error(EPROTO, "%s: value too long", k->name);
	memcpy(val, colon + 1, vlen);
	val[vlen] = '\0';
	/* the kernel puts a tab after the colon; be lenient on blanks */
	while (vlen && isspace((unsigned char)val[vlen - 1]))
		val[--vlen] = '\0';
	return fpga_fdinfo_store(k, val + strspn(val, " \t"), info);
}

static void fpga_fdinfo_begin(struct fpga_fdinfo *info)
{
	memset(info, 0, sizeof(*info));
	info->port_id = -1;
}

/* Once every line is in: @bad the last line's error, or 0 */
static int fpga_fdinfo_end(struct fpga_fdinfo *info, int bad)
{
	/* Whether it is a port's decides first: a stranger's keys are theirs */
	if (!(info->present & FPGA_FDINFO_DRIVER) ||
	    strcmp(info->driver, FPGA_DRV_PORT))
		return fpga_set_error(EINVAL, "not a port's fdinfo (no fpga-driver: %s)",
				      FPGA_DRV_PORT);
	if (bad)
		return bad;
	if ((info->present & FPGA_FDINFO_PORT) &&
	    fpga_parse_port_name(info->port, &info->port_id))
		return fpga_set_error(EPROTO, "fpga-port: '%s' is not a port name",
				      info->port);
	return 0;
}

int fpga_fdinfo_parse(const char *text, struct fpga_fdinfo *info)
{
	const char *line = text;
	int bad = 0;

	fpga_fdinfo_begin(info);
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		int ret = fpga_fdinfo_line(line, len, info);

		if (ret)
			bad = ret;	/* its message stays: the last error */
		line += len + (nl ? 1 : 0);
	}
	return fpga_fdinfo_end(info, bad);
}

/*
 * fpga_fdinfo_parse() of an open fdinfo file, read a line at a time into
 * a buffer of its own: any length is read whole in bounded memory.
 * When reading fails, *@read_err is its errno (else 0), and the result
 * means nothing.
 */
static int fpga_fdinfo_parse_file(FILE *f, struct fpga_fdinfo *info,
				  int *read_err)
{
	char line[FPGA_FDINFO_LINE_MAX];
	bool cut = false;	/* in the rest of a line too long */
	int bad = 0;

	fpga_fdinfo_begin(info);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		bool whole = len && line[len - 1] == '\n';
		int ret = 0;

		if (!cut)
			ret = fpga_fdinfo_line(line, whole ? len - 1 : len, info);
		if (ret)
			bad = ret;
		/* cut short, unless it is the last line, without a newline */
		cut = !whole && !feof(f);
	}
	*read_err = ferror(f) ? (errno ? errno : EIO) : 0;
	return fpga_fdinfo_end(info, bad);
}

/* ---- names, printed ---- */

size_t fpga_escape(char *buf, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[4] = { '\\' };	/* at most \xNN */
		size_t len = 2;

		switch (c) {
		case '\\':
			esc[1] = '\\';
			break;
		case '\n':
			esc[1] = 'n';
			break;
		case '\t':
			esc[1] = 't';
			break;
		case '\r':
			esc[1] = 'r';
			break;
		default:
			if (c >= 0x20 && c < 0x7f) {
				esc[0] = (char)c;
				len = 1;
			} else {
				esc[1] = 'x';
				esc[2] = hex[c >> 4];
				esc[3] = hex[c & 0xf];
				len = 4;
			}
		}
		if (n + len >= size)	/* never half an escape */
			break;
		memcpy(buf + n, esc, len);
		n += len;
	}
	if (size)
		buf[n] = '\0';
	return n;
}

/* ---- the walk over /proc ---- */

struct fpga_walk {
	const char *root;
	fpga_port_user_fn fn;
	fpga_port_skip_fn skip;
	void *arg;
	int pid;		/* the process being looked at */
	char comm[FPGA_COMM_MAX];
	bool have_comm;
};

/* A PID or fd directory entry: its number, or -1 if it is none */
static int fpga_walk_number(const char *name)
{
	uint64_t v;

	if (fpga_fdinfo_decimal(name, &v) || v > INT_MAX)
		return -1;
	return (int)v;
}

/*
 * 1 when the process ended meanwhile (ENOENT, ESRCH) or is not ours to
 * look at (EACCES): skip it, quietly, as ps does.  Anything else is
 * -errno with a message: the walk skips what it is about, and tells.
 */
static int fpga_walk_err(int err, const char *path)
{
	if (err == ENOENT || err == ESRCH || err == EACCES)
		return 1;
	return fpga_set_error(err, "%s: %s", path, strerror(err));
}

/* A small /proc file whole into @buf (NUL-terminated); 0 or -errno */
static int fpga_proc_read(const char *path, char *buf, size_t size)
{
	size_t done = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < size - 1) {
		ssize_t n = read(fd, buf + done, size - 1 - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = -errno;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	if (!err && done == size - 1)
		err = -EFBIG;
	buf[done] = '\0';
	return err;
}

/* @w->root/PID/@what into @path */
static int fpga_walk_path(char *path, size_t size, const struct fpga_walk *w,
			  const char *what)
{
	if (fpga_pathf(path, size, "%s/%d/%s", w->root, w->pid, what))
		return fpga_set_error(ENAMETOOLONG, "%s/%d/%s: path too long",
				      w->root, w->pid, what);
	return 0;
}

/* PID/comm, read once per process: 0, 1 if the process is gone, -errno */
static int fpga_walk_comm(struct fpga_walk *w)
{
	char path[PATH_MAX];
	size_t len;
	int ret;

	if (w->have_comm)
		return 0;
	ret = fpga_walk_path(path, sizeof(path), w, "comm");
	if (ret)
		return ret;
	ret = fpga_proc_read(path, w->comm, sizeof(w->comm));
	if (ret && ret != -EFBIG)	/* too long: keep what fits */
		return fpga_walk_err(-ret, path);
	len = strlen(w->comm);
	if (len && w->comm[len - 1] == '\n')
		w->comm[len - 1] = '\0';
	w->have_comm = true;
	return 0;
}

/* The node's name is the cheap filter; the fdinfo decides */
static bool fpga_is_port_node(const char *target)
{
	static const char *const nodes[] = {
		"/dev/" FPGA_PORT_PREFIX, "/dev/" FPGA_PORT_DFL_PREFIX,
	};

	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		if (!strncmp(target, nodes[i], strlen(nodes[i])))
			return true;
	return false;
}

/* PID/fd/@fd: 0 if it is a port's node, 1 if not or gone, -errno */
static int fpga_walk_link(const struct fpga_walk *w, int fd)
{
	char path[PATH_MAX], target[PATH_MAX], what[32];
	ssize_t n;
	int ret;

	snprintf(what, sizeof(what), "fd/%d", fd);
	ret = fpga_walk_path(path, sizeof(path), w, what);
	if (ret)
		return ret;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return fpga_walk_err(errno, path);
	target[n] = '\0';
	return fpga_is_port_node(target) ? 0 : 1;
}

/*
 * PID/fdinfo/@fd parsed, whatever its length: 0, 1 if it is not a
 * port's or gone, -errno with the file named in the message
 */
static int fpga_walk_fdinfo(const struct fpga_walk *w, int fd,
			    struct fpga_fdinfo *info)
{
	char path[PATH_MAX], msg[512], what[32];
	int ret, err;
	FILE *f;

	snprintf(what, sizeof(what), "fdinfo/%d", fd);
	ret = fpga_walk_path(path, sizeof(path), w, what);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return fpga_walk_err(errno, path);
	ret = fpga_fdinfo_parse_file(f, info, &err);
	fclose(f);
	if (err)
		return fpga_walk_err(err, path);
	if (ret == -EINVAL)	/* another driver's node by that name */
		return 1;
	if (ret) {
		fpga_strcpy(msg, sizeof(msg), fpga_errmsg());
		return fpga_set_error(-ret, "%s: %s", path, msg);
	}
	return 0;
}

/* What could not be read, told to @w->skip: the walk goes on */
static void fpga_walk_skip(const struct fpga_walk *w)
{
	if (w->skip)
		w->skip(fpga_errmsg(), w->arg);
}

/*
 * File @fd of the process, to @w->fn if a port's: 0 goes on, else stop.
 * One that cannot be read, or is malformed, is skipped, and said.
 */
static int fpga_walk_fd(struct fpga_walk *w, int fd)
{
	struct fpga_fdinfo info;
	int ret;

	ret = fpga_walk_link(w, fd);
	if (!ret)
		ret = fpga_walk_fdinfo(w, fd, &info);
	if (!ret)
		ret = fpga_walk_comm(w);
	if (ret < 0)
		fpga_walk_skip(w);
	if (ret)	/* not a port's, gone, or skipped: go on */
		return 0;
	return w->fn(w->pid, fd, w->comm, &info, w->arg);
}

/* Every file process @w->pid has open: 0 goes on, else stop */
static int fpga_walk_pid(struct fpga_walk *w)
{
	char path[PATH_MAX];
	struct dirent *de;
	int ret, fd;
	DIR *dir;

	ret = fpga_walk_path(path, sizeof(path), w, "fd");
	if (!ret) {
		dir = opendir(path);
		if (!dir)
			ret = fpga_walk_err(errno, path);
	}
	if (ret) {	/* gone, not ours to see, or skipped */
		if (ret < 0)
			fpga_walk_skip(w);
		return 0;
	}
	w->have_comm = false;
	while (!ret) {
		errno = 0;
		de = readdir(dir);
		if (!de) {	/* the end, or the rest skipped */
			if (errno && fpga_walk_err(errno, path) < 0)
				fpga_walk_skip(w);
			break;
		}
		fd = fpga_walk_number(de->d_name);
		if (fd >= 0)
			ret = fpga_walk_fd(w, fd);
	}
	closedir(dir);
	return ret;
}

int fpga_port_users(const char *proc_root, fpga_port_user_fn fn,
		    fpga_port_skip_fn skip, void *arg)
{
	struct fpga_walk w = {
		.root = proc_root ? proc_root : fpga_proc_root(),
		.fn = fn,
		.skip = skip,
		.arg = arg,
	};
	struct dirent *de;
	int ret = 0;
	DIR *dir;

	dir = opendir(w.root);
	if (!dir)
		return fpga_set_error(errno, "%s: %s", w.root, strerror(errno));
	while (!ret) {
		errno = 0;
		de = readdir(dir);
		if (!de) {
			if (errno)
				ret = fpga_set_error(errno, "%s: %s", w.root,
						     strerror(errno));
			break;
		}
		w.pid = fpga_walk_number(de->d_name);
		if (w.pid >= 0)
			ret = fpga_walk_pid(&w);
	}
	closedir(dir);
	return ret;
}
