// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl pr: partial reconfiguration of a port through its card's FME
 * (DFL_FPGA_FME_PORT_PR), from a GBS file or a raw bitstream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fpgactl.h"

/* How long the port may take to come back after programming */
#define FC_PR_PORT_WAIT_MS	5000

/* After EIO: the card's PR error bits, decoded */
static void fc_pr_errors(const struct fpga_fme_ref *ref)
{
	uint64_t err;

	if (fpga_fme_pr_errors(ref, &err)) {
		fc_err("%s", fpga_errmsg());
		return;
	}
	fc_err("%s: errors/pr_err 0x%" PRIx64 "%s", ref->name, err,
	       err ? ":" : " (no error bit set)");
	for (const struct fpga_bit_name *b = fpga_pr_err_bits; b->bit; b++) {
		if (err & b->bit)
			fprintf(stderr, "    %s (%s)\n", b->desc, b->name);
		err &= ~b->bit;
	}
	if (err)
		fprintf(stderr, "    unknown bits 0x%" PRIx64 "\n", err);
}

/*
 * The FME's PR interface id against the one the file was built for:
 * FC_OK, or FC_FAIL (told the user) unless @force
 */
static int fc_pr_check_interface(const struct fpga_fme_ref *ref,
				 const char *path,
				 const uint8_t want[FPGA_UUID_SIZE], bool force)
{
	char w[FPGA_UUID_STR], h[FPGA_UUID_STR];
	uint8_t have[FPGA_UUID_SIZE];

	fpga_uuid_str(want, w);
	if (fpga_fme_interface_id(ref, have)) {
		if (!force) {
			fc_err("%s; 'force' loads %s without checking its interface id",
			       fpga_errmsg(), path);
			return FC_FAIL;
		}
		fc_err("warning: %s", fpga_errmsg());
		return FC_OK;
	}
	if (!memcmp(have, want, FPGA_UUID_SIZE))
		return FC_OK;
	fpga_uuid_str(have, h);
	fc_err("%s%s is built for PR interface %s, %s's is %s%s",
	       force ? "warning: " : "", path, w, ref->name, h,
	       force ? "" : "; 'force' loads it anyway");
	return force ? FC_OK : FC_FAIL;
}

int fc_cmd_pr(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *port_s = NULL, *path;
	bool port_set = false, force = false;
	const struct fc_opt kws[] = {
		{ "port", 0, &port_s, &port_set },
		{ "force", 0, NULL, &force },
		{ 0 }
	};
	char afu_hex[33] = "", ifid_str[FPGA_UUID_STR];
	const uint8_t *ifid = NULL, *afu = NULL;
	struct fpga_sim_bs_info si;
	struct fpga_gbs_info gi;
	struct fpga_fme_ref ref;
	struct fpga_dev_info d;
	uint64_t port = 0;
	size_t size, off = 0;
	struct fc_args a;
	uint8_t *buf;
	int ret, card;

	ret = fc_parse_keywords(cmd, argc, argv, kws, 2, 2, &a);
	if (!ret && port_set)
		ret = fc_parse_u64(cmd, "port", port_s, 255, &port);
	if (ret)
		return ret;
	path = a.pos[1];
	ret = fpga_fme_lookup(a.pos[0], &ref);
	if (ret == -EINVAL)
		return fc_usage_err(cmd, "%s", fpga_errmsg());
	if (ret || fpga_dev_get(FPGA_DEV_FME, ref.id, &d))
		return fc_lib_err();
	if (d.ports_num && port >= d.ports_num) {
		fc_err("%s has %" PRIu64 " port%s (0 to %" PRIu64 "), not port %" PRIu64,
		       ref.name, d.ports_num, d.ports_num == 1 ? "" : "s",
		       d.ports_num - 1, port);
		return FC_FAIL;
	}

	if (fpga_read_file(path, FPGA_GBS_FILE_MAX, &buf, &size))
		return fc_lib_err();
	ret = fpga_gbs_parse(buf, size, &gi);
	if (!ret) {
		/* As OPAE does: the card gets what follows the metadata */
		off = gi.bitstream_offset;
		ifid = gi.interface_id;
		afu = gi.afu_id;
	} else if (ret != -ENOENT) {
		fc_err("%s: %s", path, fpga_errmsg());
		goto fail;
	} else if (fpga_sim_bs_check(buf, size, &si) != -ENOENT &&
		   size >= sizeof(struct fpga_sim_bitstream)) {
		/* A raw simulated card's bitstream: its ids, however broken */
		ifid = si.interface_id;
		afu = si.afu_id;
	}
	size -= off;
	if (!size || size % 4 || size > UINT32_MAX) {
		fc_err("%s: a bitstream of %zu bytes (the FME takes a multiple of 4 bytes, 4 to 4G)",
		       path, size);
		goto fail;
	}
	if (ifid && fc_pr_check_interface(&ref, path, ifid, force))
		goto fail;
	if (afu)
		fc_uuid_hex(afu, afu_hex);
	/* The bitstream to the start of the buffer: aligned as malloc's */
	memmove(buf, buf + off, size);

	if (fpga_fme_pr(&ref, (unsigned int)port, buf, size)) {
		ret = fpga_errno();
		fc_lib_err();
		if (ret == EIO)
			fc_pr_errors(&ref);
		goto fail;
	}
	free(buf);

	/* The port came back as a new device: find it, with its AFU */
	card = fpga_fme_card(&ref);
	ret = fpga_port_wait(card, (unsigned int)port, afu ? afu_hex : NULL,
			     FC_PR_PORT_WAIT_MS, &d);
	fc_obj_open(NULL);
	fc_str("fme", "%s:", ref.name);
	fc_int("card_id", " card %" PRId64, card);
	fc_u64("port", " port %" PRIu64, port);
	fc_str("file", " loaded from %s", path);
	fc_str("format", " (%s", off ? "gbs" : "raw");
	fc_u64("bitstream_size", ", %" PRIu64 " bytes)", size);
	if (ifid) {
		fpga_uuid_str(ifid, ifid_str);
		fc_str("interface_id", NULL, ifid_str);
	}
	if (ret != -ETIMEDOUT) {
		const char *name = fpga_afu_name_str(d.afu_id);

		fc_str("dev", "\n    %s", d.name);
		fc_str("afu_id", " afu_id %s", d.afu_id);
		if (name)
			fc_str("afu", " (%s)", name);
	}
	fc_text("\n");
	fc_obj_close();
	if (ret) {
		fc_err("loaded, but %s", fpga_errmsg());
		return FC_FAIL;
	}
	return FC_OK;
fail:
	free(buf);
	return FC_FAIL;
}
