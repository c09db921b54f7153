/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers shared by the suite's selftests: sysfs reads and writes
 * that return -errno, running a shell command, and listing a directory.
 */
#ifndef _FPGA_SELFTEST_SYSFS_UTIL_H
#define _FPGA_SELFTEST_SYSFS_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write @val to @path in one write(); 0 or -errno */
static inline int sysfs_write(const char *path, const char *val)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(val))
		err = -EIO;
	close(fd);
	return err;
}

/* Read @path into @buf, without the trailing newline; 0 or -errno */
static inline int sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		err = -errno;
		n = 0;
	}
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	close(fd);
	return err;
}

/*
 * The value of @key in /proc/self/fdinfo/@fd ("key:\tvalue"): 0 and the
 * text after the tab, or -ENOENT without the key
 */
static inline int fdinfo_get(int fd, const char *key, char *val, size_t len)
{
	char path[64], line[256];
	size_t klen = strlen(key), n;
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || strncmp(line + klen, ":\t", 2))
			continue;
		/* cut to @len, as the value would be (no snprintf: inlined,
		 * gcc warns of that truncation) */
		n = strcspn(line + klen + 2, "\n");
		if (n >= len)
			n = len - 1;
		memcpy(val, line + klen + 2, n);
		val[n] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

static inline long long sysfs_read_num(const char *path)
{
	char buf[64];

	if (sysfs_read(path, buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 0);
}

static inline int path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * @path read (@val NULL) or written @val by user nobody, from a child
 * process; 0 or -errno
 */
static inline int sysfs_as_nobody(const char *path, const char *val)
{
	char buf[128];
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(ECHILD);
		_exit(val ? -sysfs_write(path, val) :
			    -sysfs_read(path, buf, sizeof(buf)));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

/* Run a shell command; its exit status, or -1 if it did not exit */
static inline int run_cmd(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Unload every module of the suite that is loaded, users first; 0 or 1 */
static inline int unload_suite_modules(void)
{
	return run_cmd("for m in uio_fpga vgem_ext fpga_vfio fpga_port fpga_fme fpga_sim fpga_dfl; do "
		       "[ ! -d /sys/module/$m ] || rmmod $m || exit 1; done");
}

/* Number of entries of @dir whose name starts with @prefix */
static inline int count_entries(const char *dir, const char *prefix)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

#endif /* _FPGA_SELFTEST_SYSFS_UTIL_H */
