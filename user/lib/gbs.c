// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga GBS files: OPAE's container for a partial reconfiguration
 * bitstream, and the simulated card's bitstream inside it
 * (<linux/fpga-sim.h>).
 *
 * A GBS is the GBS GUID (16 bytes, in the order of its text form), the
 * length of the JSON metadata (32 bits, little-endian), the metadata, and
 * the bitstream the card's PR engine takes, which is what is handed to
 * DFL_FPGA_FME_PORT_PR.  The metadata fields and their JSON types are the
 * ones OPAE's parsers require (libbitstream's version 1 and xfpga's
 * read_gbs_metadata): Documentation/pr.md.
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>
#include <zlib.h>

#include <linux/fpga-sim.h>

#include "fpga.h"

static const uint8_t fpga_gbs_guid[FPGA_UUID_SIZE] = {
	0x58, 0x65, 0x6f, 0x6e, 0x46, 0x50, 0x47, 0x41,
	0xb7, 0x47, 0x42, 0x53, 0x76, 0x30, 0x30, 0x31,
};

/* The AFUs fpgactl knows by name (GUIDs as OPAE's samples have them) */
static const struct {
	const char *name;
	const char *uuid;
} fpga_afus[] = {
	{ "nlb0", "d8424dc4-a4a3-c413-f89e-433683f9040b" },
	{ "nlb3", "f7df405c-bd7a-cf72-22f1-44b0b93acd18" },
	{ "helb", "56e203e9-864f-49a7-b94b-12284c31e02b" },
};

#define FPGA_NUM_AFUS	(sizeof(fpga_afus) / sizeof(fpga_afus[0]))

/* ---- UUIDs ---- */

static int fpga_hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 32 hex digits, or 8-4-4-4-12 with dashes, into @id; no message */
static bool fpga_uuid_scan(const char *s, uint8_t id[FPGA_UUID_SIZE])
{
	size_t len = s ? strlen(s) : 0;
	bool dashes = len == 36;
	size_t i, n = 0;

	if (len != 36 && len != 32)
		return false;
	for (i = 0; i < len; i++) {
		int hi, lo;

		if (dashes && (i == 8 || i == 13 || i == 18 || i == 23)) {
			if (s[i] != '-')
				return false;
			continue;
		}
		hi = fpga_hex((unsigned char)s[i]);
		lo = i + 1 < len ? fpga_hex((unsigned char)s[i + 1]) : -1;
		if (hi < 0 || lo < 0 || n == FPGA_UUID_SIZE)
			return false;
		id[n++] = (uint8_t)(hi << 4 | lo);
		i++;
	}
	return n == FPGA_UUID_SIZE;
}

int fpga_uuid_parse(const char *s, uint8_t id[FPGA_UUID_SIZE])
{
	if (fpga_uuid_scan(s, id))
		return 0;
	return fpga_set_error(EINVAL,
			      "'%s' is not a UUID (32 hex digits, or 8-4-4-4-12 with dashes)",
			      s ? s : "");
}

void fpga_uuid_str(const uint8_t id[FPGA_UUID_SIZE], char out[FPGA_UUID_STR])
{
	size_t i, n = 0;

	for (i = 0; i < FPGA_UUID_SIZE; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		n += sprintf(out + n, "%02x", id[i]);
	}
}

const char *fpga_afu_name(const uint8_t id[FPGA_UUID_SIZE])
{
	uint8_t known[FPGA_UUID_SIZE];

	for (size_t i = 0; i < FPGA_NUM_AFUS; i++)
		if (fpga_uuid_scan(fpga_afus[i].uuid, known) &&
		    !memcmp(known, id, FPGA_UUID_SIZE))
			return fpga_afus[i].name;
	return NULL;
}

const char *fpga_afu_name_str(const char *uuid)
{
	uint8_t id[FPGA_UUID_SIZE];

	return fpga_uuid_scan(uuid, id) ? fpga_afu_name(id) : NULL;
}

int fpga_afu_lookup(const char *name, uint8_t id[FPGA_UUID_SIZE])
{
	for (size_t i = 0; i < FPGA_NUM_AFUS; i++)
		if (!strcmp(name, fpga_afus[i].name))
			return fpga_uuid_parse(fpga_afus[i].uuid, id);
	if (fpga_uuid_parse(name, id))
		return fpga_set_error(EINVAL,
				      "'%s' is neither a known AFU (nlb0, nlb3, helb) nor a GUID",
				      name);
	return 0;
}

/* ---- files ---- */

int fpga_read_file(const char *path, size_t max, uint8_t **buf, size_t *size)
{
	struct stat st;
	size_t done = 0;
	uint8_t *b;
	int fd, err;

	*buf = NULL;
	*size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fpga_set_error(errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		err = errno;
		close(fd);
		return fpga_set_error(err, "%s: %s", path, strerror(err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fpga_set_error(EINVAL, "%s is not a regular file", path);
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return fpga_set_error(EFBIG, "%s is too large (%llu bytes, at most %zu)",
				      path, (unsigned long long)st.st_size, max);
	}
	/* One byte more than its size: a file that grows is noticed */
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		return fpga_set_error(ENOMEM, "%s: out of memory", path);
	}
	for (;;) {
		ssize_t n = read(fd, b + done, (size_t)st.st_size + 1 - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			close(fd);
			free(b);
			return fpga_set_error(err, "%s: %s", path, strerror(err));
		}
		if (!n)
			break;
		done += (size_t)n;
		if (done > (size_t)st.st_size) {
			close(fd);
			free(b);
			return fpga_set_error(EAGAIN, "%s changed while it was read",
					      path);
		}
	}
	close(fd);
	*buf = b;
	*size = done;
	return 0;
}

/* All of @buf to @fd; 0 or a positive errno */
static int fpga_write_all(int fd, const void *buf, size_t size)
{
	const uint8_t *p = buf;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		p += n;
		size -= (size_t)n;
	}
	return 0;
}

int fpga_write_file(const char *path, const void *buf, size_t size)
{
	int fd, err;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return fpga_set_error(errno, "%s: %s", path, strerror(errno));
	err = fpga_write_all(fd, buf, size);
	if (close(fd) && !err)
		err = errno;
	if (err) {
		unlink(path);
		return fpga_set_error(err, "%s: %s", path, strerror(err));
	}
	return 0;
}

int fpga_write_file_atomic(const char *path, const void *buf, size_t size,
			   unsigned int mode)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int fd, err;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	/* hidden and without the name's suffix: readers of *.prom or *.json skip it */
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >=
	    (int)sizeof(tmp))
		return fpga_set_error(ENAMETOOLONG, "%s: name too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return fpga_set_error(errno, "cannot write %s: %s: %s", path, dir,
				      strerror(errno));
	err = fpga_write_all(fd, buf, size);
	/* mkstemp's 0600 would keep out the readers, which run as others */
	if (!err && (fchmod(fd, mode) || fsync(fd)))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (err) {
		unlink(tmp);
		return fpga_set_error(err, "%s: %s", tmp, strerror(err));
	}
	if (rename(tmp, path)) {
		err = errno;
		unlink(tmp);
		return fpga_set_error(err, "cannot replace %s: %s", path,
				      strerror(err));
	}
	return 0;
}

/* ---- the simulated card's bitstream ---- */

int fpga_sim_bs_make(const uint8_t interface_id[FPGA_UUID_SIZE],
		     const uint8_t afu_id[FPGA_UUID_SIZE], const void *payload,
		     size_t payload_size, uint8_t **buf, size_t *size)
{
	struct fpga_sim_bitstream hdr;
	size_t total = sizeof(hdr) + payload_size + 4;
	uint32_t crc;
	uint8_t *b;

	*buf = NULL;
	*size = 0;
	if (payload_size > FPGA_SIM_PAYLOAD_MAX)
		return fpga_set_error(EFBIG, "a payload of %zu bytes is too large (the simulated card takes at most %zu)",
				      payload_size, FPGA_SIM_PAYLOAD_MAX);
	if (payload_size % 4)
		return fpga_set_error(EINVAL, "a payload of %zu bytes is not a multiple of 4 (the simulated card's bitstream is made of 32-bit words)",
				      payload_size);
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic, FPGA_SIM_BS_MAGIC, sizeof(hdr.magic));
	hdr.hdr_size = htole32(sizeof(hdr));
	hdr.total_size = htole32((uint32_t)total);
	memcpy(hdr.interface_id, interface_id, FPGA_UUID_SIZE);
	memcpy(hdr.afu_id, afu_id, FPGA_UUID_SIZE);

	b = malloc(total);
	if (!b)
		return fpga_set_error(ENOMEM, "out of memory");
	memcpy(b, &hdr, sizeof(hdr));
	if (payload_size)
		memcpy(b + sizeof(hdr), payload, payload_size);
	crc = (uint32_t)crc32(0, b, (uInt)(total - 4));
	crc = htole32(crc);
	memcpy(b + total - 4, &crc, 4);
	*buf = b;
	*size = total;
	return 0;
}

int fpga_sim_bs_check(const void *buf, size_t size, struct fpga_sim_bs_info *info)
{
	struct fpga_sim_bitstream hdr;
	uint32_t total, crc;

	memset(info, 0, sizeof(*info));
	if (size < sizeof(hdr.magic) ||
	    memcmp(buf, FPGA_SIM_BS_MAGIC, sizeof(hdr.magic)))
		return -ENOENT;
	if (size < sizeof(hdr))
		return fpga_set_error(EINVAL, "simulated card's bitstream truncated: %zu bytes, its header alone is %zu",
				      size, sizeof(hdr));
	memcpy(&hdr, buf, sizeof(hdr));
	total = le32toh(hdr.total_size);
	memcpy(info->interface_id, hdr.interface_id, FPGA_UUID_SIZE);
	memcpy(info->afu_id, hdr.afu_id, FPGA_UUID_SIZE);
	info->flags = le32toh(hdr.flags);
	info->total_size = total;
	if (le32toh(hdr.hdr_size) != sizeof(hdr))
		return fpga_set_error(EINVAL, "simulated card's bitstream: header size %u, not %zu",
				      le32toh(hdr.hdr_size), sizeof(hdr));
	if (total % 4 || total < sizeof(hdr) + 4 ||
	    total > FPGA_SIM_BS_MAX_SIZE)
		return fpga_set_error(EINVAL, "simulated card's bitstream: total size %u is not a multiple of 4 from %zu to %u",
				      total, sizeof(hdr) + 4, FPGA_SIM_BS_MAX_SIZE);
	if (total != size)
		return fpga_set_error(EINVAL, "simulated card's bitstream: its header says %u bytes, there are %zu",
				      total, size);
	info->payload_size = total - sizeof(hdr) - 4;
	memcpy(&crc, (const uint8_t *)buf + total - 4, 4);
	info->crc = le32toh(crc);
	info->crc_ok = info->crc == (uint32_t)crc32(0, buf, total - 4);
	info->valid = true;
	return 0;
}

/* ---- GBS ---- */

/* The JSON metadata of @spec: a string to json_object_put() through @root */
static int fpga_gbs_metadata(const struct fpga_gbs_spec *spec,
			     struct json_object **root)
{
	struct json_object *img, *clusters, *cluster;
	char ifid[FPGA_UUID_STR], afu[FPGA_UUID_STR];

	fpga_uuid_str(spec->interface_id, ifid);
	fpga_uuid_str(spec->afu_id, afu);
	*root = json_object_new_object();
	img = json_object_new_object();
	clusters = json_object_new_array();
	cluster = json_object_new_object();
	if (!*root || !img || !clusters || !cluster) {
		json_object_put(*root);
		json_object_put(img);
		json_object_put(clusters);
		json_object_put(cluster);
		return fpga_set_error(ENOMEM, "out of memory");
	}
	json_object_object_add(*root, "version",
			       json_object_new_int(FPGA_GBS_METADATA_VERSION));
	json_object_object_add(*root, "platform-name",
			       json_object_new_string(spec->platform ?
						      spec->platform :
						      FPGA_GBS_PLATFORM));
	json_object_object_add(*root, "afu-image", img);
	json_object_object_add(img, "magic-no",
			       json_object_new_int64(FPGA_GBS_MAGIC_NO));
	json_object_object_add(img, "interface-uuid",
			       json_object_new_string(ifid));
	json_object_object_add(img, "power", json_object_new_int(0));
	json_object_object_add(img, "accelerator-clusters", clusters);
	json_object_array_add(clusters, cluster);
	json_object_object_add(cluster, "name",
			       json_object_new_string(spec->name));
	json_object_object_add(cluster, "total-contexts",
			       json_object_new_int(1));
	json_object_object_add(cluster, "accelerator-type-uuid",
			       json_object_new_string(afu));
	return 0;
}

int fpga_gbs_name_check(const char *name)
{
	size_t len = strlen(name);

	if (!len || len > FPGA_GBS_NAME_MAX)
		return fpga_set_error(EINVAL, "an AFU name has 1 to %d characters, not %zu",
				      FPGA_GBS_NAME_MAX, len);
	for (const char *p = name; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return fpga_set_error(EINVAL, "an AFU name is printable ASCII: '%s' is not",
					      name);
	return 0;
}

int fpga_gbs_make(const struct fpga_gbs_spec *spec, uint8_t **buf,
		  size_t *size)
{
	struct json_object *root;
	uint8_t *bs, *b;
	size_t bs_size, meta_len, total;
	const char *meta;
	uint32_t len_le;
	int ret;

	*buf = NULL;
	*size = 0;
	ret = fpga_gbs_name_check(spec->name);
	if (ret)
		return ret;
	ret = fpga_sim_bs_make(spec->interface_id, spec->afu_id, spec->payload,
			       spec->payload_size, &bs, &bs_size);
	if (ret)
		return ret;
	ret = fpga_gbs_metadata(spec, &root);
	if (ret) {
		free(bs);
		return ret;
	}
	meta = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	meta_len = meta ? strlen(meta) : 0;
	if (!meta_len || meta_len >= FPGA_GBS_METADATA_MAX) {
		json_object_put(root);
		free(bs);
		return fpga_set_error(EINVAL, "metadata of %zu bytes (OPAE takes 1 to %d)",
				      meta_len, FPGA_GBS_METADATA_MAX - 1);
	}
	total = FPGA_GBS_HDR_SIZE + meta_len + bs_size;
	b = malloc(total);
	if (!b) {
		json_object_put(root);
		free(bs);
		return fpga_set_error(ENOMEM, "out of memory");
	}
	memcpy(b, fpga_gbs_guid, FPGA_UUID_SIZE);
	len_le = htole32((uint32_t)meta_len);
	memcpy(b + FPGA_UUID_SIZE, &len_le, 4);
	memcpy(b + FPGA_GBS_HDR_SIZE, meta, meta_len);
	memcpy(b + FPGA_GBS_HDR_SIZE + meta_len, bs, bs_size);
	json_object_put(root);
	free(bs);
	*buf = b;
	*size = total;
	return 0;
}

/*
 * @key of @obj into *@v, of JSON type @type: 0, 1 when it is absent and
 * @optional, or -EINVAL with a message
 */
static int fpga_gbs_field(struct json_object *obj, const char *where,
			  const char *key, enum json_type type, bool optional,
			  struct json_object **v)
{
	const char *in = *where ? " in " : "";

	*v = NULL;
	if (!json_object_object_get_ex(obj, key, v)) {
		if (optional)
			return 1;
		return fpga_set_error(EINVAL, "GBS metadata: no \"%s\"%s%s",
				      key, in, where);
	}
	/* OPAE takes a number where it reads a double, an integer elsewhere */
	if (json_object_is_type(*v, type) ||
	    (type == json_type_double && json_object_is_type(*v, json_type_int)))
		return 0;
	return fpga_set_error(EINVAL, "GBS metadata: \"%s\"%s%s is not %s",
			      key, in, where,
			      type == json_type_int ? "an integer" :
			      type == json_type_string ? "a string" :
			      type == json_type_array ? "an array" :
			      type == json_type_object ? "an object" :
			      "a number");
}

/* A UUID string field as OPAE's uuid_parse() takes it: 36 characters */
static int fpga_gbs_uuid(struct json_object *obj, const char *where,
			 const char *key, char str[FPGA_UUID_STR],
			 uint8_t id[FPGA_UUID_SIZE])
{
	struct json_object *v;
	const char *s;

	if (fpga_gbs_field(obj, where, key, json_type_string, false, &v))
		return -EINVAL;
	s = json_object_get_string(v);
	if (strlen(s) != FPGA_UUID_STR - 1 || !fpga_uuid_scan(s, id))
		return fpga_set_error(EINVAL, "GBS metadata: \"%s\" is '%s', not a UUID of the form 8-4-4-4-12",
				      key, s);
	fpga_uuid_str(id, str);
	return 0;
}

/* An optional number of afu-image */
static int fpga_gbs_number(struct json_object *img, const char *key,
			   double *val, bool *has)
{
	struct json_object *v;
	int ret;

	ret = fpga_gbs_field(img, "afu-image", key, json_type_double, true, &v);
	if (ret < 0)
		return ret;
	if (!ret) {
		*val = json_object_get_double(v);
		*has = true;
	}
	return 0;
}

/* The fields OPAE requires, with the JSON types it requires */
static int fpga_gbs_check_metadata(struct json_object *root,
				   struct fpga_gbs_info *info)
{
	struct json_object *v, *img, *clusters, *cluster;
	const char *cl = "accelerator-clusters[0]";
	const char *s;
	int ret;

	if (fpga_gbs_field(root, "", "version", json_type_int, false, &v))
		return -EINVAL;
	info->version = json_object_get_int(v);
	/* libbitstream: 1, or 640 and 650 as old tools wrote for 1 */
	if (info->version != 1 && info->version != 640 && info->version != 650)
		return fpga_set_error(EINVAL, "GBS metadata: version %d (OPAE knows 1)",
				      info->version);
	ret = fpga_gbs_field(root, "", "platform-name", json_type_string, true,
			     &v);
	if (ret < 0)
		return ret;
	if (!ret)
		snprintf(info->platform, sizeof(info->platform), "%s",
			 json_object_get_string(v));

	if (fpga_gbs_field(root, "", "afu-image", json_type_object, false,
			   &img) ||
	    fpga_gbs_field(img, "afu-image", "magic-no", json_type_int, false,
			   &v))
		return -EINVAL;
	info->magic_no = json_object_get_int64(v);
	if (info->magic_no != FPGA_GBS_MAGIC_NO)
		return fpga_set_error(EINVAL, "GBS metadata: magic-no is %lld, not %d",
				      (long long)info->magic_no, FPGA_GBS_MAGIC_NO);
	if (fpga_gbs_uuid(img, "afu-image", "interface-uuid",
			  info->interface_uuid, info->interface_id) ||
	    fpga_gbs_number(img, "power", &info->power, &info->has_power) ||
	    fpga_gbs_number(img, "clock-frequency-high", &info->clock_high,
			    &info->has_clock_high) ||
	    fpga_gbs_number(img, "clock-frequency-low", &info->clock_low,
			    &info->has_clock_low) ||
	    fpga_gbs_field(img, "afu-image", "accelerator-clusters",
			   json_type_array, false, &clusters))
		return -EINVAL;

	info->num_clusters = json_object_array_length(clusters);
	if (!info->num_clusters)
		return fpga_set_error(EINVAL, "GBS metadata: accelerator-clusters is empty");
	cluster = json_object_array_get_idx(clusters, 0);
	if (!json_object_is_type(cluster, json_type_object))
		return fpga_set_error(EINVAL, "GBS metadata: %s is not an object",
				      cl);
	if (fpga_gbs_field(cluster, cl, "name", json_type_string, false, &v))
		return -EINVAL;
	s = json_object_get_string(v);
	/* xfpga copies it into 512 bytes */
	if (strlen(s) >= 512)
		return fpga_set_error(EINVAL, "GBS metadata: the AFU's name is %zu bytes (OPAE takes less than 512)",
				      strlen(s));
	snprintf(info->name, sizeof(info->name), "%s", s);
	if (fpga_gbs_field(cluster, cl, "total-contexts", json_type_int, false,
			   &v))
		return -EINVAL;
	info->total_contexts = json_object_get_int(v);
	return fpga_gbs_uuid(cluster, cl, "accelerator-type-uuid",
			     info->afu_uuid, info->afu_id);
}

int fpga_gbs_parse(const void *buf, size_t size, struct fpga_gbs_info *info)
{
	const uint8_t *b = buf;
	enum json_tokener_error jerr = json_tokener_success;
	struct json_object *root;
	uint32_t meta_len;
	char *meta;
	int ret;

	memset(info, 0, sizeof(*info));
	if (size < FPGA_UUID_SIZE || memcmp(b, fpga_gbs_guid, FPGA_UUID_SIZE))
		return -ENOENT;
	if (size < FPGA_GBS_HDR_SIZE)
		return fpga_set_error(EINVAL, "GBS truncated: %zu bytes, its header alone is %d",
				      size, FPGA_GBS_HDR_SIZE);
	memcpy(&meta_len, b + FPGA_UUID_SIZE, 4);
	meta_len = le32toh(meta_len);
	info->metadata_size = meta_len;
	if (meta_len > size - FPGA_GBS_HDR_SIZE)
		return fpga_set_error(EINVAL, "GBS truncated: metadata of %u bytes, the file has %zu after its header",
				      meta_len, size - FPGA_GBS_HDR_SIZE);
	if (!meta_len || meta_len >= FPGA_GBS_METADATA_MAX)
		return fpga_set_error(EINVAL, "GBS metadata of %u bytes (OPAE takes 1 to %d)",
				      meta_len, FPGA_GBS_METADATA_MAX - 1);
	info->bitstream_offset = FPGA_GBS_HDR_SIZE + meta_len;
	info->bitstream_size = size - info->bitstream_offset;

	meta = malloc(meta_len + 1);
	if (!meta)
		return fpga_set_error(ENOMEM, "out of memory");
	memcpy(meta, b + FPGA_GBS_HDR_SIZE, meta_len);
	meta[meta_len] = '\0';
	if (strlen(meta) != meta_len) {
		free(meta);
		return fpga_set_error(EINVAL, "GBS metadata: a NUL byte inside it");
	}
	root = json_tokener_parse_verbose(meta, &jerr);
	free(meta);
	if (!root)
		return fpga_set_error(EINVAL, "GBS metadata is not JSON: %s",
				      json_tokener_error_desc(jerr));
	if (!json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return fpga_set_error(EINVAL, "GBS metadata is not a JSON object");
	}
	ret = fpga_gbs_check_metadata(root, info);
	json_object_put(root);
	if (ret)
		return ret;
	if (!info->bitstream_size)
		return fpga_set_error(EINVAL, "GBS has no bitstream after its metadata");
	return 0;
}
