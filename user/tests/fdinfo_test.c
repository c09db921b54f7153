// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of libfpga's fdinfo parser and its walk over /proc, on a
 * fake proc tree in a temporary directory ($TMPDIR or /tmp); no FPGA
 * needed.  Prints KTAP; exits 0 when everything passes.  Run it under
 * valgrind too ("make -C user valgrind").
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fpga.h"
#include "ktap.h"

#define ALL_KEYS	(FPGA_FDINFO_DRIVER | FPGA_FDINFO_PORT | \
			 FPGA_FDINFO_CLIENT_ID | FPGA_FDINFO_PINNED | \
			 FPGA_FDINFO_MAPPED | FPGA_FDINFO_INTERRUPTS | \
			 FPGA_FDINFO_RESETS | FPGA_FDINFO_ENGINE_AFU)

/* What the port driver shows, after the kernel's own lines */
#define STD_LINES	"pos:\t0\nflags:\t02000002\nmnt_id:\t24\nino:\t118\n"
#define PORT_TEXT(port, client) STD_LINES \
	"fpga-driver:\tfpga_port\n" \
	"fpga-port:\t" port "\n" \
	"fpga-client-id:\t" client "\n" \
	"fpga-memory-pinned:\t64 KiB\n" \
	"fpga-memory-mapped:\t128 KiB\n" \
	"fpga-interrupts:\t2\n" \
	"fpga-resets:\t1\n" \
	"fpga-engine-afu:\t1234567 ns\n"

/* ---- the parser ---- */

static void parse_good(void)
{
	struct fpga_fdinfo i;

	check(!fpga_fdinfo_parse(PORT_TEXT("fpga-port.3", "17"), &i) &&
	      i.present == ALL_KEYS && !strcmp(i.driver, "fpga_port") &&
	      !strcmp(i.port, "fpga-port.3") && i.port_id == 3 &&
	      i.client_id == 17 && i.pinned_kib == 64 && i.mapped_kib == 128 &&
	      i.interrupts == 2 && i.resets == 1 && i.afu_busy_ns == 1234567,
	      "fdinfo parses", "every key");
	check(!fpga_fdinfo_parse("fpga-driver:\tfpga_port\n"
				 "fpga-port:\tdfl-port.12\n"
				 "fpga-client-id:\t18446744073709551615", &i) &&
	      i.port_id == 12 && i.client_id == UINT64_MAX,
	      "fdinfo parses", "upstream port name, no last newline");
	check(!fpga_fdinfo_parse("fpga-driver: fpga_port \r\n"
				 "fpga-resets:  010\n", &i) && i.resets == 10,
	      "fdinfo parses", "blanks around values, decimal only");
}

static void parse_unknown_keys(void)
{
	struct fpga_fdinfo i;

	check(!fpga_fdinfo_parse(STD_LINES
				 "fpga-driver:\tfpga_port\n"
				 "fpga-future-key:\tsomething new\n"
				 "fpga-resets-total:\tx\n"
				 "fpga-resets:\t4\n"
				 "drm-driver:\ti915\n"
				 "no colon here\n"
				 "fpga-engines:\t3 busy\n", &i) &&
	      i.present == (FPGA_FDINFO_DRIVER | FPGA_FDINFO_RESETS) &&
	      i.resets == 4,
	      "fdinfo ignores", "unknown and foreign keys");
}

static void parse_missing_keys(void)
{
	struct fpga_fdinfo i;

	check(!fpga_fdinfo_parse("fpga-driver:\tfpga_port\n"
				 "fpga-port:\tfpga-port.0\n"
				 "fpga-memory-pinned:\t0 KiB\n", &i) &&
	      i.present == (FPGA_FDINFO_DRIVER | FPGA_FDINFO_PORT |
			    FPGA_FDINFO_PINNED) &&
	      !(i.present & FPGA_FDINFO_RESETS) && i.pinned_kib == 0,
	      "fdinfo marks absent", "no client id, mapped, interrupts, resets");
	check(!fpga_fdinfo_parse("fpga-driver:\tfpga_port\n", &i) &&
	      i.present == FPGA_FDINFO_DRIVER && i.port_id == -1,
	      "fdinfo marks absent", "no fpga-port");
}

static void parse_not_port(const char *what, const char *text)
{
	struct fpga_fdinfo i;

	check(fpga_fdinfo_parse(text, &i) == -EINVAL &&
	      strstr(fpga_errmsg(), "not a port's"), "fdinfo is not a port's",
	      what);
}

/* @s on one line, its tabs and newlines as \t and \n */
static const char *one_line(const char *s)
{
	static char buf[256];
	size_t n = 0;

	for (; *s && n < sizeof(buf) - 3; s++) {
		if (*s == '\t' || *s == '\n') {
			buf[n++] = '\\';
			buf[n++] = *s == '\t' ? 't' : 'n';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

static void parse_bad(const char *line, const char *msg)
{
	char text[256];
	struct fpga_fdinfo i;

	snprintf(text, sizeof(text),
		 "fpga-driver:\tfpga_port\nfpga-port:\tfpga-port.1\n%s\n", line);
	check(fpga_fdinfo_parse(text, &i) == -EPROTO &&
	      strstr(fpga_errmsg(), msg), "fdinfo refuses", one_line(line));
}

/* A lock: line as the kernel writes it, one per lock on the file */
#define LOCK_LINE	"lock:\t1: POSIX  ADVISORY  WRITE 4242 00:05:118 %d %d\n"
#define LOCKS		1500	/* some 75 KiB */

/* STD_LINES, @locks lock: lines, then @keys (as the kernel orders them) */
static char *with_locks(int locks, const char *keys)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		exit(1);
	fputs(STD_LINES, f);
	for (int k = 0; k < locks; k++)
		fprintf(f, LOCK_LINE, 2 * k, 2 * k);
	fputs(keys, f);
	if (fclose(f))
		exit(1);
	return text;
}

static void parse_long(void)
{
	char *text = with_locks(LOCKS, "fpga-driver:\tfpga_port\n"
				"fpga-port:\tfpga-port.1\nfpga-resets:\t3\n");
	struct fpga_fdinfo i;

	check(strlen(text) > 64 * 1024 && !fpga_fdinfo_parse(text, &i) &&
	      i.port_id == 1 && i.resets == 3,
	      "fdinfo parses", "1500 lock: lines before the keys");
	free(text);
}

/* ---- names, escaped for a terminal ---- */

static void escape_is(const char *s, size_t size, const char *want,
		      const char *what)
{
	char buf[256];
	size_t n = fpga_escape(buf, size, s);

	check(n == strlen(want) && !strcmp(buf, want), "escape", what);
	if (strcmp(buf, want))
		printf("# got '%s', want '%s'\n", buf, want);
}

static void escape_tests(void)
{
	char buf[4];

	escape_is("Web Content-2.0_~", 256, "Web Content-2.0_~",
		  "printable ASCII as it is");
	escape_is("\033[2J\033]0;owned\007", 256,
		  "\\x1b[2J\\x1b]0;owned\\x07", "terminal escapes");
	escape_is("a\nb\tc\rd\\e", 256, "a\\nb\\tc\\rd\\\\e",
		  "newline, tab, return, backslash");
	escape_is("\001\177\200\233\377", 256,
		  "\\x01\\x7f\\x80\\x9b\\xff", "controls, DEL, 8-bit");
	escape_is("caf\xc3\xa9", 256, "caf\\xc3\\xa9", "UTF-8 as bytes");
	escape_is("ab\033c", 6, "ab", "cut before an escape that does not fit");
	escape_is("ab\033c", 7, "ab\\x1b", "cut after one that fits");
	escape_is("abc", 1, "", "size 1");
	check(fpga_escape(buf, 0, "abc") == 0, "escape", "size 0 writes nothing");
}

static void parser_tests(void)
{
	parse_good();
	parse_long();
	parse_unknown_keys();
	parse_missing_keys();

	parse_not_port("an eventfd's", STD_LINES
		       "eventfd-count:                0\neventfd-id: 3\n");
	parse_not_port("empty", "");
	parse_not_port("another fpga driver's",
		       "fpga-driver:\tuio_fpga\nfpga-resets:\t1\n");
	parse_not_port("a stranger's bad keys",
		       "fpga-resets:\tmany\nfpga-port:\tnone\n");
	parse_not_port("driver without value", "fpga-driver:\n");

	parse_bad("fpga-client-id:\tabc", "fpga-client-id: 'abc' is not a decimal number");
	parse_bad("fpga-client-id:\t", "fpga-client-id: '' is not a decimal number");
	parse_bad("fpga-interrupts:\t-1", "not a decimal number");
	parse_bad("fpga-interrupts:\t+1", "not a decimal number");
	parse_bad("fpga-interrupts:\t0x10", "not a decimal number");
	parse_bad("fpga-resets:\t1x", "not a decimal number");
	parse_bad("fpga-resets:\t1 2", "not a decimal number");
	parse_bad("fpga-resets:\t18446744073709551616", "not a decimal number");
	parse_bad("fpga-memory-pinned:\t64", "fpga-memory-pinned: '64' is not 'N KiB'");
	parse_bad("fpga-memory-pinned:\t64 MiB", "is not 'N KiB'");
	parse_bad("fpga-memory-mapped:\t KiB", "is not 'N KiB'");
	parse_bad("fpga-memory-mapped:\tx KiB", "is not 'N KiB'");
	parse_bad("fpga-memory-mapped:\t64KiB", "is not 'N KiB'");
	parse_bad("fpga-engine-afu:\t10", "fpga-engine-afu: '10' is not 'N ns'");
	parse_bad("fpga-engine-afu:\t10 us", "is not 'N ns'");
	parse_bad("fpga-engine-afu:\t-1 ns", "is not 'N ns'");
	parse_bad("fpga-engine-afu:\t10 KiB", "is not 'N ns'");
	parse_bad("fpga-memory-pinned:\t64 ns", "is not 'N KiB'");
	parse_bad("fpga-port:\tfpga-port.1", "fpga-port given twice");
	parse_bad("fpga-resets:\t1\nfpga-resets:\t2", "fpga-resets given twice");
	parse_bad("fpga-resets:\t0123456789012345678901234567890123456789"
		  "01234567890123456789012345678901234567890123456789",
		  "value too long");

	{
		struct fpga_fdinfo i;

		check(fpga_fdinfo_parse("fpga-driver:\tfpga_port\n"
					"fpga-port:\tfpga-fme.0\n", &i) == -EPROTO &&
		      strstr(fpga_errmsg(), "'fpga-fme.0' is not a port name"),
		      "fdinfo refuses", "fpga-port: fpga-fme.0");
	}
}

/* ---- the walk, on a fake proc tree ---- */

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (mkdir(path, 0755)) {
		perror(path);
		exit(1);
	}
}

static void link_to(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path)) {
		perror(path);
		exit(1);
	}
}

static void chmod_in_root(const char *rel, mode_t mode)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (chmod(path, mode))
		perror(path);
}

/* A process: PID/comm (unless @comm is NULL), PID/fd/, PID/fdinfo/ */
static void process(const char *pid, const char *comm, bool fdinfo)
{
	char rel[64];

	dir(pid);
	if (comm) {
		snprintf(rel, sizeof(rel), "%s/comm", pid);
		put(rel, comm);
	}
	snprintf(rel, sizeof(rel), "%s/fd", pid);
	dir(rel);
	if (fdinfo) {
		snprintf(rel, sizeof(rel), "%s/fdinfo", pid);
		dir(rel);
	}
}

/*
 * 100 "app": fd 3 on fpga-port.0, 4 on /dev/null (its fdinfo a port's,
 * which must not be read), 5 on dfl-port.0.
 * 200: a port's fd, no fdinfo directory.  300: another driver's node of a
 * port's name.  400: no comm (gone meanwhile).  500: no fd directory.
 * 600: fd/ unreadable (tested when not root).  700 "locker": its port's
 * fdinfo with 1500 lock: lines before the keys (75 KiB), and a line too
 * long to read, whose rest looks like a key.  800: a comm of terminal
 * escapes and a newline.  900: fd/ not a directory (skipped, told).
 * "self" and "net": no PIDs.
 */
static void fake_proc(void)
{
	char *text;

	process("100", "app\n", true);
	link_to("/dev/fpga-port.0", "100/fd/3");
	link_to("/dev/null", "100/fd/4");
	link_to("/dev/dfl-port.0", "100/fd/5");
	link_to("socket:[1234]", "100/fd/6");
	put("100/fdinfo/3", PORT_TEXT("fpga-port.0", "1"));
	put("100/fdinfo/4", PORT_TEXT("fpga-port.9", "99"));
	put("100/fdinfo/5", PORT_TEXT("fpga-port.0", "2"));
	put("100/fdinfo/6", "pos:\t0\n");

	process("200", "nofdinfo\n", false);
	link_to("/dev/fpga-port.1", "200/fd/3");

	process("300", "other\n", true);
	link_to("/dev/fpga-port.2", "300/fd/0");
	put("300/fdinfo/0", STD_LINES "tty-index:\t2\n");

	process("400", NULL, true);
	link_to("/dev/fpga-port.0", "400/fd/3");
	put("400/fdinfo/3", PORT_TEXT("fpga-port.0", "3"));

	dir("500");
	put("500/comm", "kthread\n");

	if (geteuid()) {	/* root would read it all the same */
		process("600", "locked\n", true);
		link_to("/dev/fpga-port.0", "600/fd/3");
		put("600/fdinfo/3", PORT_TEXT("fpga-port.0", "4"));
		chmod_in_root("600/fd", 0);
	}

	process("700", "locker\n", true);
	link_to("/dev/fpga-port.1", "700/fd/3");
	/* the first 255 bytes of a line, then its rest: never a line */
	text = with_locks(LOCKS, "lock:\t"
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "fpga-resets:\t99\n"
			  "fpga-driver:\tfpga_port\nfpga-port:\tfpga-port.1\n"
			  "fpga-client-id:\t7\nfpga-resets:\t1\n");
	put("700/fdinfo/3", text);
	free(text);

	process("800", "\033[2J\033]0;owned\007a\nb\n", true);
	link_to("/dev/fpga-port.1", "800/fd/4");
	put("800/fdinfo/4", PORT_TEXT("fpga-port.1", "8"));

	dir("900");
	put("900/comm", "notadir\n");
	put("900/fd", "");

	link_to("100", "self");
	dir("net");
}

struct seen {
	int n;
	int pid[8], fd[8];
	char comm[8][FPGA_COMM_MAX];
	uint64_t client[8], resets[8];
	int stop_after;		/* return 42 after this many, 0: never */
	int skips;		/* what the walk left out, told */
	char skip[512];		/* the last of them */
};

static int record(int pid, int fd, const char *comm,
		  const struct fpga_fdinfo *info, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8) {
		s->pid[s->n] = pid;
		s->fd[s->n] = fd;
		snprintf(s->comm[s->n], sizeof(s->comm[0]), "%s", comm);
		s->client[s->n] = info->client_id;
		s->resets[s->n] = info->resets;
	}
	s->n++;
	return s->stop_after && s->n == s->stop_after ? 42 : 0;
}

static void skipped(const char *why, void *arg)
{
	struct seen *s = arg;

	s->skips++;
	snprintf(s->skip, sizeof(s->skip), "%s", why);
}

/* @s saw PID @pid's fd @fd: its index, or -1 */
static int seen_at(const struct seen *s, int pid, int fd)
{
	for (int k = 0; k < s->n && k < 8; k++)
		if (s->pid[k] == pid && s->fd[k] == fd)
			return k;
	return -1;
}

/* @s saw PID @pid's fd @fd, with @comm and @client */
static bool saw(const struct seen *s, int pid, int fd, const char *comm,
		uint64_t client)
{
	for (int k = 0; k < s->n && k < 8; k++)
		if (s->pid[k] == pid && s->fd[k] == fd &&
		    !strcmp(s->comm[k], comm) && s->client[k] == client)
			return true;
	return false;
}

static void walk_tests(void)
{
	struct seen s = { 0 };
	char path[512], want[600];
	int ret, k;

	fake_proc();
	ret = fpga_port_users(root, record, skipped, &s);
	check(!ret && s.n == 4, "walk finds the port files, skips the rest",
	      root);
	check(saw(&s, 100, 3, "app", 1) && saw(&s, 100, 5, "app", 2),
	      "walk gives PID, fd, comm and fdinfo", "100/fd/3 100/fd/5");
	k = seen_at(&s, 700, 3);
	check(k >= 0 && s.client[k] == 7 && s.resets[k] == 1,
	      "walk reads an fdinfo whole, whatever its length",
	      "1500 lock: lines, a line too long");
	check(saw(&s, 800, 4, "\033[2J\033]0;owned\007a\nb", 8),
	      "walk gives the comm as the process set it", "800: escapes, newline");
	snprintf(want, sizeof(want), "%s/900/fd: Not a directory", root);
	check(s.skips == 1 && !strcmp(s.skip, want),
	      "walk skips a process it cannot read, and tells", want);

	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	check(fpga_port_users(root, record, skipped, &s) == 42 && s.n == 1,
	      "walk stops when the callback says so", "42");

	/* A port's fdinfo that is malformed, or unreadable: that file skipped */
	put("100/fdinfo/5", PORT_TEXT("fpga-port.0", "two"));
	memset(&s, 0, sizeof(s));
	ret = fpga_port_users(root, record, skipped, &s);
	snprintf(path, sizeof(path), "%s/100/fdinfo/5: fpga-client-id: 'two'",
		 root);
	check(!ret && s.n == 3 && seen_at(&s, 100, 5) < 0 &&
	      saw(&s, 100, 3, "app", 1) && seen_at(&s, 700, 3) >= 0 &&
	      s.skips == 2 && strstr(s.skip, path),
	      "walk skips a malformed fdinfo, tells, goes on", path);
	snprintf(path, sizeof(path), "%s/100/fdinfo/5", root);
	unlink(path);
	dir("100/fdinfo/5");
	memset(&s, 0, sizeof(s));
	ret = fpga_port_users(root, record, skipped, &s);
	snprintf(want, sizeof(want), "%s: Is a directory", path);
	check(!ret && s.n == 3 && s.skips == 2 && !strcmp(s.skip, want),
	      "walk skips a file it cannot read, tells, goes on", want);
	memset(&s, 0, sizeof(s));
	check(!fpga_port_users(root, record, NULL, &s) && s.n == 3,
	      "walk skips quietly without a skip callback", "NULL");

	snprintf(path, sizeof(path), "%s/nonexistent", root);
	check(fpga_port_users(path, record, skipped, &s) == -ENOENT &&
	      strstr(fpga_errmsg(), path), "walk reports a missing proc root",
	      path);

	/* The real one: every process, no port needed, nothing reported */
	memset(&s, 0, sizeof(s));
	check(!fpga_port_users(NULL, record, skipped, &s) && !s.skips,
	      "walk of /proc", fpga_proc_root());
	if (s.skips)
		printf("# skipped: %s\n", s.skip);
}

/* rm -r @path (no symlink followed) */
static void remove_tree(const char *path)
{
	char child[1024];
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
		chmod(path, 0700);	/* 600/fd was made unreadable */
		d = opendir(path);
		while (d && (de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
			remove_tree(child);
		}
		if (d)
			closedir(d);
	}
	if (remove(path))
		perror(path);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	int ret;

	unsetenv("FPGA_PROC_ROOT");
	printf("TAP version 13\n");
	parser_tests();
	escape_tests();

	snprintf(root, sizeof(root), "%s/fdinfo_test.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror(root);
		return 1;
	}
	walk_tests();
	ret = ktap_done();

	remove_tree(root);
	return ret;
}
