// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl buf: vgem_ext buffers (GEM objects shared as dma-bufs) for DMA:
 * the device, create, export to a command, import, info.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/vgem_ext_drm.h>

#include "fpgactl.h"
#include "fpga_vgem.h"

#define FC_BUF_FD	3	/* where "buf export" gives the command its dma-buf */

static int fc_buf_open(struct fpga_drm **drm)
{
	return fpga_drm_open(FPGA_VGEM_DRIVER, false, drm) ? fc_lib_err() :
							     FC_OK;
}

static void fc_buf_print(const struct fpga_bo *bo)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ VGEM_EXT_BO_WC, "wc" },
		{ VGEM_EXT_BO_POPULATE, "populate" },
		{ VGEM_EXT_BO_IMPORTED, "imported" },
		{ VGEM_EXT_BO_EXPORTED, "exported" },
		{ VGEM_EXT_BO_RESIDENT, "resident" },
		{ VGEM_EXT_BO_BUSY, "busy" },
	};

	fc_u64("handle", "buffer %" PRIu64 ":", bo->handle);
	fc_u64("size", " %" PRIu64 " bytes,", bo->size);
	fc_hex("offset", " mmap offset 0x%" PRIx64 ",", bo->offset);
	fc_text(" %s", bo->flags & VGEM_EXT_BO_WC ? "write-combined" : "cached");
	fc_arr_open("flags");
	/* "wc" is in the text already, as "write-combined" */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (bo->flags & names[i].bit)
			fc_str(NULL, names[i].bit == VGEM_EXT_BO_WC ? NULL :
				     " %s", names[i].name);
	fc_arr_close();
	fc_text("\n");
}

/* Write a pattern through the mapping and read it back */
static int fc_buf_check(const struct fpga_bo *bo, bool *ok)
{
	volatile uint32_t *p = bo->map;
	uint64_t n = bo->size / 4;

	for (uint64_t i = 0; i < n; i++)
		p[i] = (uint32_t)(i * 2654435761u);
	*ok = true;
	for (uint64_t i = 0; i < n; i++)
		if (p[i] != (uint32_t)(i * 2654435761u)) {
			*ok = false;
			return fpga_set_error(EIO, "buffer %u: read back differs at byte %llu",
					      bo->handle,
					      (unsigned long long)i * 4);
		}
	return 0;
}

static int fc_buf_flags(bool wc, bool populate)
{
	return (wc ? VGEM_EXT_BO_WC : 0) | (populate ? VGEM_EXT_BO_POPULATE : 0);
}

static int fc_buf_list(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fpga_drm *drm;
	char version[64];
	struct fc_args a;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, (const struct fc_opt[]){ { 0 } },
			    0, 0, &a);
	if (ret)
		return ret;
	ret = fc_buf_open(&drm);
	if (ret)
		return ret;
	if (fpga_drm_version(drm, version, sizeof(version))) {
		fpga_drm_close(drm);
		return fc_lib_err();
	}
	fc_obj_open(NULL);
	fc_str("driver", "%s", FPGA_VGEM_DRIVER);
	fc_str("node", " %s", fpga_drm_node(drm));
	fc_str("version", " %s\n", version);
	fc_obj_close();
	fpga_drm_close(drm);
	return FC_OK;
}

static int fc_buf_create(const struct fc_cmd *cmd, int argc, char **argv)
{
	bool wc = false, populate = false, ok = false;
	const struct fc_opt opts[] = {
		{ "wc", 'w', NULL, &wc },
		{ "populate", 'P', NULL, &populate },
		{ 0 }
	};
	struct fpga_bo bo;
	struct fpga_drm *drm;
	struct fc_args a;
	uint64_t size;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 1, 1, &a);
	if (!ret)
		ret = fc_parse_size(cmd, "SIZE", a.pos[0], &size);
	if (ret)
		return ret;
	ret = fc_buf_open(&drm);
	if (ret)
		return ret;
	ret = fpga_bo_create(drm, size, fc_buf_flags(wc, populate), &bo);
	if (!ret)
		ret = fpga_bo_map(drm, &bo);
	if (!ret)
		ret = fc_buf_check(&bo, &ok);
	if (!ret)
		ret = fpga_bo_export(drm, &bo);
	if (!ret)
		ret = fpga_bo_info(drm, &bo);
	if (!ret) {
		fc_obj_open(NULL);
		fc_buf_print(&bo);
		fc_bool("verified", "  mapped, written and read back: %s\n",
			ok);
		fc_obj_close();
	}
	fpga_bo_free(drm, &bo);
	fpga_drm_close(drm);
	return ret ? fc_lib_err() : FC_OK;
}

/* Run argv with @fd as FC_BUF_FD; its exit status, or -errno */
static int fc_buf_run(int fd, char **argv)
{
	char num[16];
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return fpga_set_error(errno, "fork: %s", strerror(errno));
	if (!pid) {
		if (dup2(fd, FC_BUF_FD) < 0)
			_exit(127);
		snprintf(num, sizeof(num), "%d", FC_BUF_FD);
		setenv("FPGA_DMABUF_FD", num, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "fpgactl: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return fpga_set_error(errno, "waitpid: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int fc_buf_export(const struct fc_cmd *cmd, int argc, char **argv)
{
	bool wc = false, populate = false;
	const struct fc_opt opts[] = {
		{ "wc", 'w', NULL, &wc },
		{ "populate", 'P', NULL, &populate },
		{ 0 }
	};
	struct fpga_bo bo;
	struct fpga_drm *drm;
	struct fc_args a;
	int ret, dash, status;
	uint64_t size;

	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	ret = fc_parse_args(cmd, dash, argv, opts, 1, 1, &a);
	if (!ret)
		ret = fc_parse_size(cmd, "SIZE", a.pos[0], &size);
	if (ret)
		return ret;
	if (dash + 1 >= argc)
		return fc_usage_err(cmd, "no command after '--'");
	ret = fc_buf_open(&drm);
	if (ret)
		return ret;
	ret = fpga_bo_create(drm, size, fc_buf_flags(wc, populate), &bo);
	if (!ret)
		ret = fpga_bo_export(drm, &bo);
	if (!ret)
		ret = fpga_bo_info(drm, &bo);
	if (ret) {
		fpga_bo_free(drm, &bo);
		fpga_drm_close(drm);
		return fc_lib_err();
	}
	fflush(stdout);
	status = fc_buf_run(bo.dmabuf, argv + dash + 1);
	fc_obj_open(NULL);
	fc_buf_print(&bo);
	if (status >= 0)
		fc_int("status", "  the command exited with %" PRId64 "\n",
		       status);
	fc_obj_close();
	fpga_bo_free(drm, &bo);
	fpga_drm_close(drm);
	if (status < 0)
		return fc_lib_err();
	return status ? FC_FAIL : FC_OK;
}

/* A buffer of Debian's vgem, exported: the dma-buf in *bo */
static int fc_buf_from_vgem(uint64_t size, struct fpga_drm **vgem,
			    struct fpga_bo *bo)
{
	int ret;

	ret = fpga_drm_open("vgem", true, vgem);
	if (ret)
		return ret;
	ret = fpga_bo_create_dumb(*vgem, size, bo);
	if (!ret)
		ret = fpga_bo_map(*vgem, bo);
	if (!ret)
		ret = fpga_bo_export(*vgem, bo);
	return ret;
}

static int fc_buf_import(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *vgem_s = NULL;
	bool vgem_set = false, ok = true;
	const struct fc_opt opts[] = {
		{ "vgem", 0, &vgem_s, &vgem_set },
		{ 0 }
	};
	struct fpga_bo bo, theirs = { .dmabuf = -1 };
	struct fpga_drm *drm = NULL, *vgem = NULL;
	struct fc_args a;
	uint64_t fd = 0, size = 0;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, opts, 0, 1, &a);
	if (ret)
		return ret;
	if (vgem_set == (a.n == 1))
		return fc_usage_err(cmd, "give either FD or --vgem SIZE");
	if (vgem_set)
		ret = fc_parse_size(cmd, "--vgem", vgem_s, &size);
	else
		ret = fc_parse_u64(cmd, "FD", a.pos[0], 1 << 20, &fd);
	if (ret)
		return ret;
	ret = fc_buf_open(&drm);
	if (ret)
		return ret;
	if (vgem_set) {
		ret = fc_buf_from_vgem(size, &vgem, &theirs);
		fd = (uint64_t)theirs.dmabuf;
	}
	if (!ret)
		ret = fpga_bo_import(drm, (int)fd, &bo);
	if (!ret)
		ret = fpga_bo_info(drm, &bo);
	if (!ret)
		ret = fpga_bo_map(drm, &bo);
	if (!ret && vgem_set) {
		/* What vgem's mapping writes, ours must read */
		ret = fc_buf_check(&theirs, &ok);
		for (uint64_t i = 0; !ret && ok && i < bo.size / 4; i++)
			ok = ((volatile uint32_t *)bo.map)[i] ==
			     (uint32_t)(i * 2654435761u);
		if (!ret && !ok)
			ret = fpga_set_error(EIO, "the imported buffer does not show what vgem wrote");
	}
	if (!ret) {
		fc_obj_open(NULL);
		fc_buf_print(&bo);
		if (vgem_set)
			fc_bool("verified", "  shared with vgem: %s\n", ok);
		fc_obj_close();
	}
	fpga_bo_free(drm, &bo);
	if (vgem) {
		fpga_bo_free(vgem, &theirs);
		fpga_drm_close(vgem);
	}
	fpga_drm_close(drm);
	return ret ? fc_lib_err() : FC_OK;
}

const struct fc_cmd fc_buf_cmds[] = {
	{ .name = "list", .path = "buf list", .run = fc_buf_list,
	  .help = "Show the vgem_ext device: its node and driver version." },
	{ .name = "create", .path = "buf create",
	  .args = "SIZE[K|M|G] [--wc] [--populate]", .run = fc_buf_create,
	  .help = "Create a vgem_ext buffer, map it, write and read it back,\n"
		  "export it as a dma-buf and show it; it is freed on exit.\n\n"
		  "Options:\n"
		  "  -w, --wc        write-combined CPU mappings (default: cached)\n"
		  "  -P, --populate  allocate the pages at creation" },
	{ .name = "export", .path = "buf export",
	  .args = "SIZE[K|M|G] [--wc] [--populate] -- COMMAND [ARGS]",
	  .run = fc_buf_export,
	  .help = "Create a vgem_ext buffer and run COMMAND with its dma-buf as\n"
		  "fd 3 (also in $FPGA_DMABUF_FD); exits with COMMAND's status.\n"
		  "Example: fpgactl buf export 1M -- fpgactl buf import 3" },
	{ .name = "import", .path = "buf import",
	  .args = "FD | --vgem SIZE[K|M|G]", .run = fc_buf_import,
	  .help = "Import a dma-buf into vgem_ext and show it: the inherited\n"
		  "descriptor FD, or a new buffer of Debian's vgem (--vgem), which\n"
		  "is written through vgem and read back through vgem_ext." },
	{ .name = "info", .path = "buf info", .run = fc_buf_list,
	  .help = "Same as 'buf list'." },
	{ 0 }
};
