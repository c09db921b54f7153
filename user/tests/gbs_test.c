// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of libfpga's GBS files, the simulated card's bitstream, and
 * FME lookup, compat_id and pr_err on a fake sysfs tree; no FPGA needed.
 * The metadata is parsed again here with json-c and checked for what
 * OPAE's parsers require, and the CRC is computed again with zlib.
 * Prints KTAP; exits 0 when everything passes.  Run it under valgrind
 * too ("make -C user valgrind").
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>
#include <zlib.h>

#include <linux/fpga-sim.h>

#include "fpga.h"
#include "ktap.h"

#define NLB0	"d8424dc4-a4a3-c413-f89e-433683f9040b"
#define NLB3	"f7df405c-bd7a-cf72-22f1-44b0b93acd18"
#define HELB	"56e203e9-864f-49a7-b94b-12284c31e02b"

/* A failure with -@err whose message says @msg */
static void fails(int ret, int err, const char *msg, const char *what)
{
	check(ret == -err && strstr(fpga_errmsg(), msg), what, msg);
}

static void test_uuids(void)
{
	uint8_t id[FPGA_UUID_SIZE], id2[FPGA_UUID_SIZE];
	char s[FPGA_UUID_STR];

	check(!fpga_uuid_parse(NLB0, id) && id[0] == 0xd8 && id[15] == 0x0b,
	      "UUID parses, bytes in text order", NLB0);
	fpga_uuid_str(id, s);
	check(!strcmp(s, NLB0), "UUID prints back", s);
	check(!fpga_uuid_parse("D8424DC4A4A3C413F89E433683F9040B", id2) &&
	      !memcmp(id, id2, sizeof(id)), "32 hex digits, any case",
	      "D8424DC4A4A3C413F89E433683F9040B");
	fails(fpga_uuid_parse("d8424dc4-a4a3-c413-f89e-433683f9040", id),
	      EINVAL, "is not a UUID", "short UUID rejected");
	fails(fpga_uuid_parse("d8424dc4-a4a3-c413-f89e_433683f9040b", id),
	      EINVAL, "is not a UUID", "misplaced dash rejected");
	fails(fpga_uuid_parse("g8424dc4a4a3c413f89e433683f9040b", id),
	      EINVAL, "is not a UUID", "non-hex rejected");
	fails(fpga_uuid_parse("", id), EINVAL, "is not a UUID",
	      "empty UUID rejected");

	check(!fpga_afu_lookup("nlb3", id) && !strcmp(fpga_afu_name(id), "nlb3"),
	      "known AFU by name", "nlb3");
	fpga_uuid_str(id, s);
	check(!strcmp(s, NLB3), "nlb3's GUID", s);
	check(!fpga_afu_lookup("helb", id) && (fpga_uuid_str(id, s), 1) &&
	      !strcmp(s, HELB), "helb's GUID", s);
	check(!fpga_afu_lookup(NLB0, id) && !strcmp(fpga_afu_name(id), "nlb0"),
	      "a GUID is its known name", NLB0);
	check(fpga_afu_name_str("d8424dc4a4a3c413f89e433683f9040b") &&
	      !fpga_afu_name_str("00000000000000000000000000000000") &&
	      !fpga_afu_name_str("junk"), "names of afu_id strings", "nlb0");
	fails(fpga_afu_lookup("nlb9", id), EINVAL,
	      "is neither a known AFU (nlb0, nlb3, helb) nor a GUID",
	      "unknown AFU name rejected");
}

static void test_sim_bitstream(void)
{
	uint8_t ifid[FPGA_UUID_SIZE], afu[FPGA_UUID_SIZE], *bs;
	const uint8_t payload[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct fpga_sim_bitstream hdr;
	struct fpga_sim_bs_info si;
	uint32_t crc;
	size_t size;

	fpga_uuid_parse(FPGA_SIM_INTERFACE_ID, ifid);
	fpga_uuid_parse(NLB0, afu);
	check(!fpga_sim_bs_make(ifid, afu, payload, sizeof(payload), &bs, &size) &&
	      size == sizeof(hdr) + 8 + 4, "simulated bitstream made", "8-byte payload");
	memcpy(&hdr, bs, sizeof(hdr));
	memcpy(&crc, bs + size - 4, 4);
	check(!memcmp(hdr.magic, FPGA_SIM_BS_MAGIC, 8) &&
	      le32toh(hdr.hdr_size) == 64 && le32toh(hdr.total_size) == size &&
	      !memcmp(hdr.interface_id, ifid, 16) && !memcmp(hdr.afu_id, afu, 16) &&
	      !hdr.flags && !memcmp(bs + 64, payload, 8),
	      "header as <linux/fpga-sim.h> lays it out", "");
	check(le32toh(crc) == crc32(0, bs, size - 4), "CRC-32 as zlib computes it", "");
	check(!fpga_sim_bs_check(bs, size, &si) && si.valid && si.crc_ok &&
	      si.payload_size == 8 && !memcmp(si.afu_id, afu, 16),
	      "simulated bitstream checks", "");
	bs[70] ^= 1;
	check(!fpga_sim_bs_check(bs, size, &si) && si.valid && !si.crc_ok,
	      "a flipped bit is a bad CRC", "");
	fails(fpga_sim_bs_check(bs, size - 4, &si), EINVAL, "there are",
	      "truncated bitstream");
	check(fpga_sim_bs_check("FSIM_BS2", 8, &si) == -ENOENT,
	      "no magic: not a simulated bitstream", "FSIM_BS2");
	free(bs);

	fails(fpga_sim_bs_make(ifid, afu, payload, 6, &bs, &size), EINVAL,
	      "not a multiple of 4", "payload not a multiple of 4");
	fails(fpga_sim_bs_make(ifid, afu, payload, FPGA_SIM_PAYLOAD_MAX + 4,
			       &bs, &size), EFBIG, "too large", "payload too large");
	check(!bs && !size, "nothing returned on failure", "");
}

/* The metadata parsed with json-c: what OPAE's parsers require */
static void test_metadata_json(const uint8_t *gbs, size_t size)
{
	struct json_object *root, *img, *cl, *c0, *v;
	uint32_t len;
	char *meta;
	int ok;

	memcpy(&len, gbs + 16, 4);
	len = le32toh(len);
	check(len > 0 && len < 8192 && 20 + len < size,
	      "metadata length little-endian, under 8192", "");
	meta = strndup((const char *)gbs + 20, len);
	root = json_tokener_parse(meta);
	check(root && json_object_is_type(root, json_type_object),
	      "metadata is a JSON object", meta);
	ok = root && json_object_object_get_ex(root, "version", &v) &&
	     json_object_is_type(v, json_type_int) && json_object_get_int(v) == 1;
	check(ok, "version: integer 1", "");
	ok = root && json_object_object_get_ex(root, "platform-name", &v) &&
	     json_object_is_type(v, json_type_string);
	check(ok, "platform-name: a string", "");
	ok = root && json_object_object_get_ex(root, "afu-image", &img) &&
	     json_object_is_type(img, json_type_object) &&
	     json_object_object_get_ex(img, "magic-no", &v) &&
	     json_object_is_type(v, json_type_int) &&
	     json_object_get_int64(v) == 0x1d1f8680 &&
	     json_object_object_get_ex(img, "interface-uuid", &v) &&
	     json_object_is_type(v, json_type_string) &&
	     !strcmp(json_object_get_string(v), FPGA_SIM_INTERFACE_ID) &&
	     json_object_object_get_ex(img, "power", &v) &&
	     json_object_is_type(v, json_type_int);
	check(ok, "afu-image: magic-no, interface-uuid, power", "");
	ok = ok && json_object_object_get_ex(img, "accelerator-clusters", &cl) &&
	     json_object_is_type(cl, json_type_array) &&
	     json_object_array_length(cl) == 1 &&
	     (c0 = json_object_array_get_idx(cl, 0)) &&
	     json_object_object_get_ex(c0, "name", &v) &&
	     !strcmp(json_object_get_string(v), "nlb0") &&
	     json_object_object_get_ex(c0, "total-contexts", &v) &&
	     json_object_is_type(v, json_type_int) && json_object_get_int(v) == 1 &&
	     json_object_object_get_ex(c0, "accelerator-type-uuid", &v) &&
	     !strcmp(json_object_get_string(v), NLB0);
	check(ok, "accelerator-clusters[0]: name, total-contexts, accelerator-type-uuid", "");
	json_object_put(root);
	free(meta);
}

/* A GBS of @meta (JSON text) and a 68-byte bitstream: parse's result */
static int parse_meta(const char *meta, struct fpga_gbs_info *gi)
{
	size_t len = strlen(meta), size = 20 + len + 68;
	uint8_t *b = calloc(1, size);
	uint32_t l = htole32((uint32_t)len);
	uint8_t guid[16];
	int ret;

	fpga_uuid_parse(FPGA_GBS_GUID, guid);
	memcpy(b, guid, 16);
	memcpy(b + 16, &l, 4);
	memcpy(b + 20, meta, len);
	ret = fpga_gbs_parse(b, size, gi);
	free(b);
	return ret;
}

#define META_HEAD	"{\"version\":1,\"afu-image\":{\"magic-no\":488605312," \
			"\"interface-uuid\":\"" FPGA_SIM_INTERFACE_ID "\","
#define META_CLUSTER	"\"accelerator-clusters\":[{\"name\":\"x\",\"total-contexts\":1," \
			"\"accelerator-type-uuid\":\"" NLB0 "\"}]"

static void test_gbs(void)
{
	struct fpga_gbs_spec spec = { .name = "nlb0" };
	struct fpga_gbs_info gi;
	struct fpga_sim_bs_info si;
	uint8_t *gbs, *copy, guid[16];
	size_t size;
	uint32_t len;
	char big[600];

	fpga_uuid_parse(FPGA_SIM_INTERFACE_ID, spec.interface_id);
	fpga_uuid_parse(NLB0, spec.afu_id);
	check(!fpga_gbs_make(&spec, &gbs, &size), "GBS made", "nlb0");
	fpga_uuid_parse(FPGA_GBS_GUID, guid);
	check(!memcmp(gbs, guid, 16) && !memcmp(gbs, "XeonFPGA\xb7GBSv001", 16),
	      "starts with the GBS GUID", FPGA_GBS_GUID);
	test_metadata_json(gbs, size);
	check(!fpga_gbs_parse(gbs, size, &gi) && gi.version == 1 &&
	      !strcmp(gi.name, "nlb0") && !strcmp(gi.afu_uuid, NLB0) &&
	      !strcmp(gi.interface_uuid, FPGA_SIM_INTERFACE_ID) &&
	      !strcmp(gi.platform, "fpga_sim") && gi.total_contexts == 1 &&
	      gi.bitstream_offset == 20 + gi.metadata_size &&
	      gi.bitstream_size == 68, "round trip", "nlb0");
	check(!fpga_sim_bs_check(gbs + gi.bitstream_offset, gi.bitstream_size, &si) &&
	      si.crc_ok && !memcmp(si.afu_id, gi.afu_id, 16) &&
	      !memcmp(si.interface_id, gi.interface_id, 16),
	      "its bitstream carries the metadata's ids, good CRC", "");

	/* Damaged copies */
	copy = malloc(size);
	memcpy(copy, gbs, size);
	copy[3] ^= 0xff;
	check(fpga_gbs_parse(copy, size, &gi) == -ENOENT,
	      "wrong GBS GUID: not a GBS", "");
	fails(fpga_gbs_parse(gbs, 19, &gi), EINVAL, "its header alone",
	      "truncated header");
	fails(fpga_gbs_parse(gbs, 100, &gi), EINVAL, "GBS truncated: metadata of",
	      "truncated metadata");
	fails(fpga_gbs_parse(gbs, 20 + gi.metadata_size, &gi), EINVAL,
	      "no bitstream", "no bitstream");
	memcpy(copy, gbs, size);
	len = htole32(0xffffffff);
	memcpy(copy + 16, &len, 4);
	fails(fpga_gbs_parse(copy, size, &gi), EINVAL, "metadata of 4294967295 bytes",
	      "huge metadata length");
	len = htole32(0);
	memcpy(copy + 16, &len, 4);
	fails(fpga_gbs_parse(copy, size, &gi), EINVAL, "OPAE takes 1 to 8191",
	      "empty metadata");
	free(copy);
	free(gbs);

	check(!parse_meta(META_HEAD META_CLUSTER "}}", &gi) && !strcmp(gi.name, "x") &&
	      !gi.has_power && !gi.platform[0], "minimal metadata as OPAE needs it", "");
	check(!parse_meta(META_HEAD "\"power\":1.5,\"clock-frequency-high\":300,"
			  META_CLUSTER "}}", &gi) && gi.has_power && gi.power == 1.5 &&
	      gi.has_clock_high && gi.clock_high == 300,
	      "optional numbers, integer or not", "");
	fails(parse_meta("[1]", &gi), EINVAL, "not a JSON object", "not an object");
	fails(parse_meta("{\"version\":1,", &gi), EINVAL, "not JSON", "bad JSON");
	fails(parse_meta("{\"version\":\"1\"}", &gi), EINVAL,
	      "\"version\" is not an integer", "version a string");
	fails(parse_meta("{\"version\":2}", &gi), EINVAL, "version 2", "version 2");
	fails(parse_meta("{\"version\":1}", &gi), EINVAL, "no \"afu-image\"",
	      "no afu-image");
	fails(parse_meta("{\"version\":1,\"afu-image\":{\"magic-no\":1}}", &gi),
	      EINVAL, "magic-no is 1", "wrong magic-no");
	fails(parse_meta(META_HEAD "\"power\":\"x\"," META_CLUSTER "}}", &gi), EINVAL,
	      "\"power\" in afu-image is not a number", "power a string");
	fails(parse_meta(META_HEAD "\"accelerator-clusters\":[]}}", &gi), EINVAL,
	      "accelerator-clusters is empty", "no cluster");
	fails(parse_meta(META_HEAD "\"accelerator-clusters\":[{\"name\":\"x\","
			 "\"total-contexts\":1,\"accelerator-type-uuid\":\"nlb0\"}]}}", &gi),
	      EINVAL, "not a UUID of the form 8-4-4-4-12", "bad AFU UUID");
	fails(parse_meta(META_HEAD "\"accelerator-clusters\":[{\"name\":\"x\","
			 "\"accelerator-type-uuid\":\"" NLB0 "\"}]}}", &gi),
	      EINVAL, "no \"total-contexts\" in accelerator-clusters[0]",
	      "no total-contexts");

	spec.name = "";
	fails(fpga_gbs_make(&spec, &gbs, &size), EINVAL, "1 to 255 characters",
	      "empty name");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	spec.name = big;
	fails(fpga_gbs_make(&spec, &gbs, &size), EINVAL, "1 to 255 characters",
	      "long name");
	spec.name = "tab\there";
	fails(fpga_gbs_make(&spec, &gbs, &size), EINVAL, "printable ASCII",
	      "control character in name");
	spec.name = "quote \" and / slash";
	check(!fpga_gbs_make(&spec, &gbs, &size) &&
	      !fpga_gbs_parse(gbs, size, &gi) && !strcmp(gi.name, spec.name),
	      "a name with JSON's special characters", spec.name);
	free(gbs);
}

/* A file under @dir holding @text */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", dir, rel);
	if (system(cmd))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void test_fme(void)
{
	char dir[] = "/tmp/gbs_test.XXXXXX", cmd[600], path[512], s[FPGA_UUID_STR];
	struct fpga_fme_ref ref;
	uint8_t id[FPGA_UUID_SIZE];
	uint64_t err;

	if (!mkdtemp(dir)) {
		check(0, "temporary directory", dir);
		return;
	}
	setenv("FPGA_SYSFS_ROOT", dir, 1);
	put(dir, "devices/fpga_sim4/fpga-fme.2/card_id", "2\n");
	put(dir, "devices/fpga_sim4/fpga-fme.2/dfl-fme-region.5/fpga_region/region9/compat_id",
	    "b2d602a3777944afa0e44ea57c9c6a0e\n");
	put(dir, "devices/fpga_sim4/fpga-fme.2/errors/pr_err", "0x6\n");
	put(dir, "devices/fpga_sim4/fpga-fme.3/card_id", "3\n");
	put(dir, "devices/fpga_sim4/fpga-fme.3/dfl-fme-region.6/fpga_region/region8/compat_id",
	    "not-an-id\n");
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/bus/fpga_dfl/devices %s/bus/fpga_sim/devices/fpga_sim4 && "
		 "ln -s ../../../devices/fpga_sim4/fpga-fme.2 %s/bus/fpga_dfl/devices/ && "
		 "ln -s ../../../devices/fpga_sim4/fpga-fme.3 %s/bus/fpga_dfl/devices/ && "
		 "mkdir %s/bus/fpga_sim/devices/fpga_sim4/fpga-fme.2",
		 dir, dir, dir, dir, dir);
	check(!system(cmd), "fake sysfs", dir);

	check(!fpga_fme_lookup("2", &ref) && ref.id == 2 &&
	      !strcmp(ref.name, "fpga-fme.2") &&
	      !strcmp(ref.devnode, "/dev/fpga-fme.2"), "FME of card N", "2");
	check(!fpga_fme_lookup("dfl-fme.2", &ref) && ref.id == 2,
	      "upstream name", "dfl-fme.2");
	check(!fpga_fme_lookup("fpga_pmu_2", &ref) && ref.id == 2,
	      "PMU name", "fpga_pmu_2");
	check(!fpga_fme_lookup("fpga_sim4", &ref) && ref.id == 2,
	      "simulated card", "fpga_sim4");
	snprintf(path, sizeof(path), "%s/bus/fpga_dfl/devices/fpga-fme.2/", dir);
	check(!fpga_fme_lookup(path, &ref) && ref.id == 2, "sysfs path", path);
	fails(fpga_fme_lookup("fpga-port.2", &ref), EINVAL, "is not an FME",
	      "a port is not an FME");
	fails(fpga_fme_lookup("fpga-fme.02", &ref), EINVAL, "is not an FME",
	      "leading zero");
	fails(fpga_fme_lookup("", &ref), EINVAL, "empty FME name", "empty");
	fails(fpga_fme_lookup("/dev/null", &ref), ENODEV,
	      "is not an FPGA FME device", "/dev/null");
	fails(fpga_fme_lookup("0000:3b:00.0", &ref), ENODEV,
	      "PCI function 0000:3b:00.0 has no FME", "PCI address");
	fails(fpga_fme_lookup("fpga_sim5", &ref), ENODEV, "no card fpga_sim5",
	      "no such simulated card");

	fpga_fme_lookup("2", &ref);
	check(!fpga_fme_interface_id(&ref, id) && (fpga_uuid_str(id, s), 1) &&
	      !strcmp(s, FPGA_SIM_INTERFACE_ID), "compat_id", s);
	check(!fpga_fme_pr_errors(&ref, &err) && err == 6, "errors/pr_err", "0x6");
	check(fpga_pr_err_bits[1].bit == 2 && !strcmp(fpga_pr_err_bits[1].name, "crc") &&
	      fpga_pr_err_bits[2].bit == 4 && fpga_pr_err_bits[6].bit == 64 &&
	      !fpga_pr_err_bits[7].bit, "pr_err bit names", "crc");
	fpga_fme_lookup("3", &ref);
	fails(fpga_fme_interface_id(&ref, id), EPROTO, "unexpected content 'not-an-id'",
	      "malformed compat_id");
	fails(fpga_fme_pr_errors(&ref, &err), ENOENT, "no errors/pr_err",
	      "no pr_err");
	fpga_fme_lookup("7", &ref);
	fails(fpga_fme_interface_id(&ref, id), ENODEV, "fpga-fme.7: no such FME",
	      "no such FME");
	fails(fpga_fme_pr(&ref, 0, "abc", 3), EINVAL, "multiple of 4",
	      "bitstream size not a multiple of 4");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	unsetenv("FPGA_SYSFS_ROOT");
}

static void test_files(void)
{
	char path[] = "/tmp/gbs_test_file.XXXXXX";
	uint8_t *buf;
	size_t size;
	int fd;

	fd = mkstemp(path);
	if (fd < 0) {
		check(0, "temporary file", path);
		return;
	}
	close(fd);
	check(!fpga_write_file(path, "0123456789", 10) &&
	      !fpga_read_file(path, 10, &buf, &size) && size == 10 &&
	      !memcmp(buf, "0123456789", 10), "write and read a file", path);
	free(buf);
	fails(fpga_read_file(path, 9, &buf, &size), EFBIG, "too large (10 bytes, at most 9)",
	      "file over the limit");
	check(!buf && !size, "nothing returned on failure", path);
	unlink(path);
	fails(fpga_read_file(path, 9, &buf, &size), ENOENT, "No such file",
	      "missing file");
	fails(fpga_read_file("/tmp", 9, &buf, &size), EINVAL, "is not a regular file",
	      "a directory");
	fails(fpga_write_file("/nonexistent/x.gbs", "x", 1), ENOENT, "No such file",
	      "unwritable file");
}

int main(void)
{
	printf("TAP version 13\n");
	test_uuids();
	test_sim_bitstream();
	test_gbs();
	test_fme();
	test_files();
	return ktap_done();
}
