// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl gbs: make and show GBS files, OPAE's container of a partial
 * reconfiguration bitstream, holding a simulated card's bitstream
 * (<linux/fpga-sim.h>, Documentation/pr.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fpga-sim.h>

#include "fpgactl.h"

/* 32 hex digits, as afu_id and compat_id print a GUID */
void fc_uuid_hex(const uint8_t id[FPGA_UUID_SIZE], char out[33])
{
	for (int i = 0; i < FPGA_UUID_SIZE; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
}

/* "interface_id X afu_id Y (nlb0)" */
static void fc_gbs_ids(const uint8_t ifid[FPGA_UUID_SIZE],
		       const uint8_t afu[FPGA_UUID_SIZE])
{
	char s[FPGA_UUID_STR];
	const char *name = fpga_afu_name(afu);

	fpga_uuid_str(ifid, s);
	fc_str("interface_id", " interface_id %s", s);
	fpga_uuid_str(afu, s);
	fc_str("afu_id", " afu_id %s", s);
	if (name)
		fc_str("afu", " (%s)", name);
}

/*
 * The bitstream part: a simulated card's, checked, or another's.
 * FC_FAIL (told the user) when it is a simulated card's that is broken
 * or does not carry the ids of the metadata (@gi, NULL for a raw file).
 */
static int fc_gbs_print_bitstream(const char *path, const uint8_t *bs,
				  size_t size, const struct fpga_gbs_info *gi)
{
	struct fpga_sim_bs_info si;
	char crc[16];
	int ret;

	ret = fpga_sim_bs_check(bs, size, &si);
	fc_text("\n    bitstream");
	fc_u64("bitstream_size", " %" PRIu64 " bytes", size);
	if (ret == -ENOENT) {
		fc_str("sim_bitstream", ": not a simulated card's", NULL);
		fc_text("\n");
		return FC_OK;
	}
	fc_obj_open("sim_bitstream");
	fc_bool("valid", NULL, si.valid);
	if (ret) {
		fc_str("error", ": %s\n", fpga_errmsg());
		fc_obj_close();
		fc_err("%s: %s", path, fpga_errmsg());
		return FC_FAIL;
	}
	fc_text(": simulated card's,");
	fc_u64("payload_size", " payload %" PRIu64 " bytes", si.payload_size);
	snprintf(crc, sizeof(crc), "0x%08x", si.crc);
	fc_str("crc", ", crc %s", crc);
	fc_bool("crc_ok", si.crc_ok ? " good" : " BAD", si.crc_ok);
	if (gi) {
		bool same = !memcmp(si.interface_id, gi->interface_id,
				    FPGA_UUID_SIZE) &&
			    !memcmp(si.afu_id, gi->afu_id, FPGA_UUID_SIZE);

		fc_bool("matches_metadata", same ? ", the metadata's ids" : "",
			same);
		if (!same) {
			fc_text(", other ids than the metadata's:\n    ");
			fc_gbs_ids(si.interface_id, si.afu_id);
		}
		fc_text("\n");
		fc_obj_close();
		if (!same) {
			fc_err("%s: the bitstream carries other ids than the GBS metadata",
			       path);
			return FC_FAIL;
		}
	} else {
		fc_text("\n   ");
		fc_gbs_ids(si.interface_id, si.afu_id);
		fc_text("\n");
		fc_obj_close();
	}
	if (si.flags)
		fc_err("%s: the bitstream's flags are 0x%x (the card takes 0)",
		       path, si.flags);
	if (!si.crc_ok) {
		fc_err("%s: the bitstream's CRC is bad", path);
		return FC_FAIL;
	}
	return si.flags ? FC_FAIL : FC_OK;
}

int fc_gbs_print(const char *path, const uint8_t *buf, size_t size)
{
	struct fpga_sim_bs_info si;
	struct fpga_gbs_info gi;
	int ret;

	ret = fpga_gbs_parse(buf, size, &gi);
	if (ret && ret != -ENOENT) {
		fc_err("%s: %s", path, fpga_errmsg());
		return FC_FAIL;
	}
	if (ret == -ENOENT && fpga_sim_bs_check(buf, size, &si) == -ENOENT) {
		fc_err("%s is neither a GBS (it does not start with the GBS GUID %s) nor a simulated card's bitstream",
		       path, FPGA_GBS_GUID);
		return FC_FAIL;
	}
	fc_obj_open(NULL);
	fc_str("file", "%s:", path);
	fc_u64("size", " %" PRIu64 " bytes", size);
	if (ret == -ENOENT) {
		fc_str("format", ", %s (no GBS header)", "raw");
		fc_u64("bitstream_offset", NULL, 0);
		ret = fc_gbs_print_bitstream(path, buf, size, NULL);
		fc_obj_close();
		return ret;
	}
	fc_str("format", ", %s", "gbs");
	fc_text("\n   ");
	fc_gbs_ids(gi.interface_id, gi.afu_id);
	fc_str("name", " name %s", gi.name);
	fc_text("\n   ");
	fc_u64("metadata_size", " metadata %" PRIu64 " bytes", gi.metadata_size);
	fc_int("version", " version %" PRId64, gi.version);
	if (gi.platform[0])
		fc_str("platform", " platform %s", gi.platform);
	fc_hex("magic_no", " magic-no 0x%" PRIx64, (uint64_t)gi.magic_no);
	fc_int("clusters", " clusters %" PRId64, (int64_t)gi.num_clusters);
	fc_int("total_contexts", " contexts %" PRId64, gi.total_contexts);
	if (gi.has_power)
		fc_double("power", " power %g", gi.power);
	if (gi.has_clock_high)
		fc_double("clock_frequency_high", " clock-high %g", gi.clock_high);
	if (gi.has_clock_low)
		fc_double("clock_frequency_low", " clock-low %g", gi.clock_low);
	fc_u64("bitstream_offset", " bitstream at %" PRIu64, gi.bitstream_offset);
	ret = fc_gbs_print_bitstream(path, buf + gi.bitstream_offset,
				     gi.bitstream_size, &gi);
	fc_obj_close();
	return ret;
}

static int fc_gbs_make(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *afu = NULL, *ifid = FPGA_SIM_INTERFACE_ID, *name = NULL;
	const char *payload = NULL, *out = NULL;
	bool afu_set = false, ifid_set = false, name_set = false;
	bool payload_set = false, out_set = false;
	const struct fc_opt kws[] = {
		{ "afu", 0, &afu, &afu_set },
		{ "interface", 0, &ifid, &ifid_set },
		{ "name", 0, &name, &name_set },
		{ "payload", 0, &payload, &payload_set },
		{ "out", 0, &out, &out_set },
		{ 0 }
	};
	struct fpga_gbs_spec spec = { 0 };
	uint8_t *pl = NULL, *gbs = NULL;
	size_t pl_size = 0, gbs_size;
	struct fc_args a;
	int ret;

	ret = fc_parse_keywords(cmd, argc, argv, kws, 0, 0, &a);
	if (ret)
		return ret;
	if (!afu_set)
		return fc_usage_err(cmd, "'afu nlb0|nlb3|helb|GUID' is required");
	if (!out_set || !*out)
		return fc_usage_err(cmd, "'out FILE' is required");
	if (fpga_afu_lookup(afu, spec.afu_id))
		return fc_usage_err(cmd, "afu: %s", fpga_errmsg());
	if (fpga_uuid_parse(ifid, spec.interface_id))
		return fc_usage_err(cmd, "interface: %s", fpga_errmsg());
	if (!name)
		name = fpga_afu_name(spec.afu_id);
	spec.name = name ? name : "afu";
	if (fpga_gbs_name_check(spec.name))
		return fc_usage_err(cmd, "name: %s", fpga_errmsg());
	if (payload_set && !*payload)
		return fc_usage_err(cmd, "payload: empty file name");

	if (payload && fpga_read_file(payload, FPGA_SIM_PAYLOAD_MAX, &pl,
				      &pl_size))
		return fc_lib_err();
	spec.payload = pl;
	spec.payload_size = pl_size;
	ret = fpga_gbs_make(&spec, &gbs, &gbs_size);
	free(pl);
	if (ret) {
		if (payload)
			fc_err("%s: %s", payload, fpga_errmsg());
		else
			fc_lib_err();
		return FC_FAIL;
	}
	if (fpga_write_file(out, gbs, gbs_size)) {
		free(gbs);
		return fc_lib_err();
	}
	/* What it holds, as "gbs show" reads it */
	ret = fc_gbs_print(out, gbs, gbs_size);
	free(gbs);
	return ret;
}

static int fc_gbs_show(const struct fc_cmd *cmd, int argc, char **argv)
{
	struct fc_args a;
	uint8_t *buf;
	size_t size;
	int ret;

	ret = fc_parse_args(cmd, argc, argv, NULL, 1, 1, &a);
	if (ret)
		return ret;
	if (fpga_read_file(a.pos[0], FPGA_GBS_FILE_MAX, &buf, &size))
		return fc_lib_err();
	ret = fc_gbs_print(a.pos[0], buf, size);
	free(buf);
	return ret;
}

const struct fc_cmd fc_gbs_cmds[] = {
	{ .name = "make", .path = "gbs make",
	  .args = "afu nlb0|nlb3|helb|GUID [interface UUID] [name NAME] [payload FILE] out FILE",
	  .run = fc_gbs_make,
	  .help = "Write an OPAE GBS file for the simulated card: the GBS header, JSON\n"
		  "metadata as OPAE reads it (version 1, interface-uuid, the AFU's name\n"
		  "and accelerator-type-uuid), then the simulated card's bitstream\n"
		  "(<linux/fpga-sim.h>: header, payload, CRC-32) with the same ids.\n"
		  "Then print what it holds, as 'gbs show'.  Load it with 'fpgactl pr'\n"
		  "or OPAE's fpgaconf.\n\n"
		  "Keywords:\n"
		  "  afu AFU          nlb0, nlb3, helb (OFS host exerciser loopback), or\n"
		  "                   the AFU's GUID (32 hex digits or 8-4-4-4-12)\n"
		  "  interface UUID   the PR interface id (an FME's compat_id) it is for;\n"
		  "                   default " FPGA_SIM_INTERFACE_ID ",\n"
		  "                   the simulated card's\n"
		  "  name NAME        the AFU's name in the metadata (printable ASCII, at\n"
		  "                   most 255 characters); default the known AFU's, or \"afu\"\n"
		  "  payload FILE     model parameters for the card, a multiple of 4 bytes\n"
		  "                   (at most 1 MiB with the header and CRC)\n"
		  "  out FILE         the file to write (replaced if it exists)" },
	{ .name = "show", .path = "gbs show", .args = "FILE", .run = fc_gbs_show,
	  .help = "Show what a GBS holds: the interface and AFU ids, name and sizes of\n"
		  "its metadata, and whether its bitstream is a simulated card's with a\n"
		  "good CRC and the metadata's ids.  A raw simulated card's bitstream is\n"
		  "shown too.  Fails (exit 1) on a malformed GBS, a bad CRC or ids that\n"
		  "differ." },
	{ 0 }
};
