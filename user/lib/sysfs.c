// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga sysfs side: attributes, the list of FMEs and ports on the
 * fpga_dfl bus, port error registers and simulated cards.  None of this
 * needs the port driver.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fpga.h"
#include "fpga-int.h"

const char *fpga_sysfs_root(void)
{
	const char *root = getenv("FPGA_SYSFS_ROOT");

	return root && *root ? root : "/sys";
}

const char *fpga_dev_root(void)
{
	const char *root = getenv("FPGA_DEV_ROOT");

	return root && *root ? root : "/dev";
}

int fpga_sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fpga_set_error(errno, "%s: %s", path, strerror(errno));
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return fpga_set_error(err, "%s: %s", path, strerror(err));
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int fpga_sysfs_read_u64(const char *path, uint64_t *val)
{
	char buf[64];
	int ret;

	ret = fpga_sysfs_read(path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (fpga_parse_u64(buf, val))
		return fpga_set_error(EPROTO, "%s: unexpected content '%s'",
				      path, buf);
	return 0;
}

int fpga_sysfs_write(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return fpga_set_error(errno, "%s: %s", path, strerror(errno));
	n = write(fd, val, len);
	err = errno;
	close(fd);
	if (n < 0)
		return fpga_set_error(err, "%s: %s", path, strerror(err));
	if ((size_t)n != len)
		return fpga_set_error(EIO, "%s: short write", path);
	return 0;
}

/* Basename of the target of link @dir/@name into @out, "" if none */
static void fpga_sysfs_link_name(const char *dir, const char *name,
				 char *out, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	char *base;

	out[0] = '\0';
	if (fpga_pathf(path, sizeof(path), "%s/%s", dir, name))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	fpga_strcpy(out, size, base ? base + 1 : target);
}

/* Whether @path has three last components, all names (not . or ..) */
static bool fpga_path_tail_plain(const char *path)
{
	const char *end = path + strlen(path), *start;
	int i;

	for (i = 0; i < 3 && end > path; i++) {
		start = end;
		while (start > path && start[-1] != '/')
			start--;
		if ((end - start == 1 && start[0] == '.') ||
		    (end - start == 2 && !strncmp(start, "..", 2)))
			return false;
		end = start > path ? start - 1 : path;
	}
	return i == 3;
}

/*
 * The path of sysfs device @dir whose last components name it, its parent
 * and its grandparent: the target of the bus's link to the device, which
 * sysfs makes relative with the device's whole path at its end, from one
 * readlink().  realpath() readlinks every component: nine calls a device,
 * in a lookup "fpgactl list" by sysfs makes for every device.
 */
static bool fpga_sysfs_dev_path(const char *dir, char *out, size_t size)
{
	ssize_t n = readlink(dir, out, size - 1);

	if (n >= 0) {
		out[n] = '\0';
		if (fpga_path_tail_plain(out))
			return true;
	}
	/* Not a link (a device's own directory), or an unusual one */
	return realpath(dir, out) != NULL;
}

/*
 * Name of the card of sysfs device @dir: its parent, or its grandparent
 * when the parent is the card's dfl-card.N directory (a PCI function's,
 * Documentation/sysfs.md)
 */
void fpga_sysfs_card_name(const char *dir, char *out, size_t size)
{
	char real[PATH_MAX], *slash;
	int up;

	out[0] = '\0';
	if (!fpga_sysfs_dev_path(dir, real, sizeof(real)))
		return;
	for (up = 0; up < 2; up++) {
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			return;
		*slash = '\0';
		slash = strrchr(real, '/');
		if (strncmp(slash ? slash + 1 : real, FPGA_CARD_DIR_PREFIX,
			    strlen(FPGA_CARD_DIR_PREFIX)))
			break;
	}
	fpga_strcpy(out, size, slash ? slash + 1 : real);
}

/* Attribute @attr of sysfs device @dir into @buf; 0 or -errno */
static int fpga_dev_attr(const char *dir, const char *attr, char *buf,
			 size_t size)
{
	char path[PATH_MAX];

	if (fpga_pathf(path, sizeof(path), "%s/%s", dir, attr))
		return -ENAMETOOLONG;
	return fpga_sysfs_read(path, buf, size);
}

static int fpga_dev_attr_u64(const char *dir, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];

	if (fpga_pathf(path, sizeof(path), "%s/%s", dir, attr))
		return -ENAMETOOLONG;
	return fpga_sysfs_read_u64(path, v);
}

static int fpga_dev_fill(const char *bus, const char *name,
			 struct fpga_dev_info *info)
{
	char dir[PATH_MAX], path[64], buf[64];
	struct stat st;
	uint64_t v;

	memset(info, 0, sizeof(*info));
	if (!fpga_parse_dev_name(name, FPGA_PORT_PREFIX, &info->id))
		info->type = FPGA_DEV_PORT;
	else if (!fpga_parse_dev_name(name, FPGA_FME_PREFIX, &info->id))
		info->type = FPGA_DEV_FME;
	else
		return -EINVAL;
	if (fpga_pathf(dir, sizeof(dir), "%s/%s", bus, name))
		return -ENAMETOOLONG;
	fpga_strcpy(info->name, sizeof(info->name), name);

	info->card_id = -1;
	if (!fpga_dev_attr_u64(dir, "card_id", &v) && v <= INT_MAX)
		info->card_id = (int)v;
	fpga_sysfs_card_name(dir, info->card, sizeof(info->card));
	fpga_sysfs_link_name(dir, "driver", info->driver, sizeof(info->driver));

	if (!fpga_pathf(path, sizeof(path), "/dev/%s", name) &&
	    !stat(path, &st) && S_ISCHR(st.st_mode))
		fpga_strcpy(info->devnode, sizeof(info->devnode), path);
	/* uio_fpga: the port's node is its UIO device */
	if (!strcmp(info->driver, FPGA_DRV_UIO) &&
	    !fpga_uio_name(dir, buf, sizeof(buf)) &&
	    !fpga_pathf(path, sizeof(path), "/dev/%s", buf))
		fpga_strcpy(info->devnode, sizeof(info->devnode), path);

	if (info->type == FPGA_DEV_PORT) {
		if (!fpga_dev_attr(dir, "afu_id", buf, sizeof(buf)) &&
		    strlen(buf) < sizeof(info->afu_id))
			fpga_strcpy(info->afu_id, sizeof(info->afu_id), buf);
	} else {
		if (!fpga_dev_attr_u64(dir, "ports_num", &v))
			info->ports_num = v;
		if (!fpga_dev_attr(dir, "bitstream_id", buf, sizeof(buf)) &&
		    strlen(buf) < sizeof(info->bitstream_id))
			fpga_strcpy(info->bitstream_id,
				    sizeof(info->bitstream_id), buf);
	}
	return 0;
}

static int fpga_dev_cmp(const void *a, const void *b)
{
	const struct fpga_dev_info *x = a, *y = b;

	if (x->type != y->type)
		return x->type == FPGA_DEV_FME ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

int fpga_dev_list(struct fpga_dev_info **list, size_t *count,
		  bool *bus_present)
{
	struct fpga_dev_info *arr = NULL, *tmp;
	size_t n = 0, cap = 0;
	char bus[PATH_MAX];
	struct dirent *de;
	DIR *d;

	*list = NULL;
	*count = 0;
	snprintf(bus, sizeof(bus), "%s" FPGA_SYSFS_BUS, fpga_sysfs_root());
	d = opendir(bus);
	if (!d) {
		*bus_present = false;
		if (errno == ENOENT)
			return 0;
		return fpga_set_error(errno, "%s: %s", bus, strerror(errno));
	}
	*bus_present = true;
	while ((de = readdir(d))) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			tmp = realloc(arr, cap * sizeof(*arr));
			if (!tmp) {
				free(arr);
				closedir(d);
				return fpga_set_error(ENOMEM, "out of memory");
			}
			arr = tmp;
		}
		if (!fpga_dev_fill(bus, de->d_name, &arr[n]))
			n++;
	}
	closedir(d);
	if (n)
		qsort(arr, n, sizeof(*arr), fpga_dev_cmp);
	else {
		free(arr);
		arr = NULL;
	}
	*list = arr;
	*count = n;
	return 0;
}

int fpga_dev_get(enum fpga_dev_type type, int id, struct fpga_dev_info *info)
{
	const char *prefix = type == FPGA_DEV_PORT ? FPGA_PORT_PREFIX :
						     FPGA_FME_PREFIX;
	char bus[PATH_MAX], name[32], path[PATH_MAX + 32];
	struct stat st;

	snprintf(bus, sizeof(bus), "%s" FPGA_SYSFS_BUS, fpga_sysfs_root());
	snprintf(name, sizeof(name), "%s%d", prefix, id);
	snprintf(path, sizeof(path), "%s/%s", bus, name);
	if (stat(path, &st))
		return fpga_set_error(ENODEV, "%s: no such device (see 'fpgactl list')",
				      name);
	return fpga_dev_fill(bus, name, info);
}

/* ---- port errors ---- */

static int fpga_port_errors_path(int port_id, const char *attr, char *path,
				 size_t size)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s" FPGA_SYSFS_BUS "/" FPGA_PORT_PREFIX "%d",
		 fpga_sysfs_root(), port_id);
	if (stat(dir, &st))
		return fpga_set_error(ENODEV,
				      "fpga-port.%d: no such port (see 'fpgactl list')",
				      port_id);
	if (fpga_pathf(path, size, "%s/errors/%s", dir, attr) || stat(path, &st))
		return fpga_set_error(ENOENT,
				      "fpga-port.%d: no errors/%s in sysfs (is the port driver loaded?)",
				      port_id, attr);
	return 0;
}

static int fpga_port_errors_get(int port_id, const char *attr, uint64_t *v)
{
	char path[PATH_MAX];
	int ret;

	ret = fpga_port_errors_path(port_id, attr, path, sizeof(path));
	if (ret)
		return ret;
	return fpga_sysfs_read_u64(path, v);
}

int fpga_port_errors_read(int port_id, struct fpga_port_errors *e)
{
	char path[PATH_MAX];
	int ret;

	ret = fpga_port_errors_get(port_id, "errors", &e->errors);
	if (!ret)
		ret = fpga_port_errors_get(port_id, "first_error",
					   &e->first_error);
	if (ret)
		return ret;
	ret = fpga_port_errors_path(port_id, "first_malformed_req", path,
				    sizeof(path));
	if (ret)
		return ret;
	ret = fpga_sysfs_read(path, e->first_malformed_req,
			      sizeof(e->first_malformed_req));
	if (ret)
		return ret;
	if (strncmp(e->first_malformed_req, "0x", 2) ||
	    strspn(e->first_malformed_req + 2, "0123456789abcdefABCDEF") !=
	    strlen(e->first_malformed_req + 2) || !e->first_malformed_req[2])
		return fpga_set_error(EPROTO, "%s: unexpected content '%s'",
				      path, e->first_malformed_req);
	return 0;
}

int fpga_port_errors_clear(int port_id, uint64_t *cleared)
{
	char path[PATH_MAX], val[32];
	uint64_t v;
	int ret;

	ret = fpga_port_errors_path(port_id, "errors", path, sizeof(path));
	if (ret)
		return ret;
	ret = fpga_sysfs_read_u64(path, &v);
	if (ret)
		return ret;
	*cleared = v;
	if (!v)
		return 0;
	snprintf(val, sizeof(val), "0x%llx", (unsigned long long)v);
	ret = fpga_sysfs_write(path, val);
	if (ret == -EBUSY)
		return fpga_set_error(EBUSY, "fpga-port.%d: errors not cleared: %s (the port is in use or being reset)",
				      port_id, strerror(EBUSY));
	return ret;
}

/* ---- simulated cards ---- */

static int fpga_sim_file(const char *file, char *path, size_t size)
{
	struct stat st;

	snprintf(path, size, "%s" FPGA_SIM_BUS "/%s", fpga_sysfs_root(), file);
	if (stat(path, &st))
		return fpga_set_error(errno,
				      "%s: %s (is fpga_sim loaded? try 'modprobe fpga_sim')",
				      path, strerror(errno));
	return 0;
}

/* A board name is one word of new_device: lower-case letters and digits */
int fpga_sim_board_check(const char *board)
{
	size_t len = strlen(board);

	if (!len || len >= FPGA_SIM_BOARD_MAX ||
	    strspn(board, "abcdefghijklmnopqrstuvwxyz0123456789") != len)
		return fpga_set_error(EINVAL, "no board '%s' (boards: %s)",
				      board, FPGA_SIM_BOARDS);
	return 0;
}

int fpga_sim_add(uint64_t id, unsigned int num_ports, const char *board)
{
	char path[PATH_MAX], val[48 + FPGA_SIM_BOARD_MAX];
	int ret;

	if (id > FPGA_SIM_MAX_ID)
		return fpga_set_error(EINVAL, "card id %llu is too large (at most %llu)",
				      (unsigned long long)id, FPGA_SIM_MAX_ID);
	if (num_ports < 1 || num_ports > FPGA_SIM_MAX_PORTS)
		return fpga_set_error(EINVAL, "a card has 1 to %d ports, not %u",
				      FPGA_SIM_MAX_PORTS, num_ports);
	if (board && fpga_sim_board_check(board))
		return -EINVAL;
	ret = fpga_sim_file("new_device", path, sizeof(path));
	if (ret)
		return ret;
	snprintf(val, sizeof(val), "%llu %u%s%s", (unsigned long long)id,
		 num_ports, board ? " board=" : "", board ? board : "");
	ret = fpga_sysfs_write(path, val);
	if (ret == -EEXIST)
		return fpga_set_error(EEXIST, "card fpga_sim%llu exists already (remove it with 'fpgactl sim del %llu')",
				      (unsigned long long)id,
				      (unsigned long long)id);
	/* The only argument the lib has not checked; an older fpga_sim has none */
	if (ret == -EINVAL && board)
		return fpga_set_error(EINVAL, "fpga_sim has no board '%s' (boards: %s; is the module older than fpgactl?)",
				      board, FPGA_SIM_BOARDS);
	if (ret)
		return fpga_set_error(-ret, "cannot create card fpga_sim%llu: %s (see dmesg)",
				      (unsigned long long)id, strerror(-ret));
	return 0;
}

int fpga_sim_del(uint64_t id)
{
	char path[PATH_MAX], val[32];
	int ret;

	if (id > FPGA_SIM_MAX_ID)
		return fpga_set_error(EINVAL, "card id %llu is too large (at most %llu)",
				      (unsigned long long)id, FPGA_SIM_MAX_ID);
	ret = fpga_sim_file("del_device", path, sizeof(path));
	if (ret)
		return ret;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)id);
	ret = fpga_sysfs_write(path, val);
	if (ret == -ENOENT)
		return fpga_set_error(ENOENT, "no card fpga_sim%llu",
				      (unsigned long long)id);
	if (ret)
		return fpga_set_error(-ret, "cannot remove card fpga_sim%llu: %s",
				      (unsigned long long)id, strerror(-ret));
	return 0;
}

static int fpga_int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Ids of the children of card @id named @prefix*, into @ids */
static int fpga_sim_children(uint64_t id, const char *prefix, int *ids,
			     size_t max)
{
	char dir[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;
	int v;

	snprintf(dir, sizeof(dir), "%s" FPGA_SIM_BUS "/devices/fpga_sim%llu",
		 fpga_sysfs_root(), (unsigned long long)id);
	d = opendir(dir);
	if (!d)
		return fpga_set_error(errno == ENOENT ? ENODEV : errno,
				      "no card fpga_sim%llu", (unsigned long long)id);
	while ((de = readdir(d)))
		if (!fpga_parse_dev_name(de->d_name, prefix, &v) && n < max)
			ids[n++] = v;
	closedir(d);
	qsort(ids, n, sizeof(*ids), fpga_int_cmp);
	return (int)n;
}

int fpga_sim_ports(uint64_t id, int *ports, size_t max)
{
	return fpga_sim_children(id, FPGA_PORT_PREFIX, ports, max);
}

int fpga_sim_board(uint64_t id, char *board, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s" FPGA_SIM_BUS "/devices/fpga_sim%llu/board",
		 fpga_sysfs_root(), (unsigned long long)id);
	return fpga_sysfs_read(path, board, size);
}

int fpga_sim_fme(uint64_t id)
{
	int fme, n;

	n = fpga_sim_children(id, FPGA_FME_PREFIX, &fme, 1);
	if (n < 0)
		return n;
	if (!n)
		return fpga_set_error(ENOENT, "card fpga_sim%llu has no FME",
				      (unsigned long long)id);
	return fme;
}
