// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpgactl cdi: a Container Device Interface spec (cdiVersion 0.5.0, the
 * newest that bookworm's CDI library 0.5.2 reads) of kind
 * fpga-suite.org/port, for podman, containerd and CRI-O
 * (Documentation/containers.md).  One device per card, named after its
 * PCI address, with every node of its FME and ports, and one per port,
 * "<card>-port<P>" with P its number on the card: names that survive
 * reboots and the renumbering of fpga-port.N.
 *
 * Only nodes that exist are listed: the runtime stats each one and
 * refuses the container when one is missing.  A port without any (no
 * driver) is not offered; no device at all is no spec (the file is
 * removed).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "fpgactl.h"

#define FC_CDI_VERSION	"0.5.0"
#define FC_CDI_KIND	"fpga-suite.org/port"

struct fc_cdi_card {
	char name[64];			/* the device name: 0000-3b-00.0 */
	struct json_object *nodes;	/* its FME's and ports' nodes */
	struct json_object *ports;	/* its ports' devices */
};

struct fc_cdi {
	struct fc_cdi_card *cards;
	size_t n;
	bool failed;			/* a port left out: exit status 1 */
};

/*
 * A card's device name: its PCI address, else its device (fpga_sim8).
 * CDI names take [A-Za-z0-9_.-] (0.5.2 also ':' inside), but podman's
 * --device splits at ':' (SRC:DST:PERMS): 0000:3b:00.0 is 0000-3b-00.0.
 */
static void fc_cdi_card_name(const struct fpga_dev_info *dev,
			     const char *sysfs, char *buf, size_t size)
{
	if (fpga_card_pci_addr(sysfs, buf, size))
		snprintf(buf, size, "%s", dev->card[0] ? dev->card : dev->name);
	for (char *c = buf; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9') && *c != '_' && *c != '.' &&
		    *c != '-')
			*c = '-';
}

static struct fc_cdi_card *fc_cdi_card(struct fc_cdi *c, const char *name)
{
	struct fc_cdi_card *card;

	for (size_t k = 0; k < c->n; k++)
		if (!strcmp(c->cards[k].name, name))
			return &c->cards[k];
	card = &c->cards[c->n++];	/* room for every device */
	snprintf(card->name, sizeof(card->name), "%s", name);
	card->nodes = json_object_new_array();
	card->ports = json_object_new_array();
	return card;
}

/* /dev/@name into @nodes if it exists on the host (FPGA_DEV_ROOT) */
static void fc_cdi_node(struct json_object *nodes, const char *name)
{
	char host[PATH_MAX], path[PATH_MAX];
	struct json_object *node;
	struct stat st;

	snprintf(host, sizeof(host), "%s/%s", fpga_dev_root(), name);
	if (stat(host, &st))
		return;
	/* no type, major or minor: the runtime takes them from the node */
	snprintf(path, sizeof(path), "/dev/%s", name);
	node = json_object_new_object();
	json_object_object_add(node, "path", json_object_new_string(path));
	json_object_object_add(node, "permissions",
			       json_object_new_string("rw"));
	json_object_array_add(nodes, node);
}

static struct json_object *fc_cdi_device(const char *name,
					 struct json_object *nodes,
					 const char *env)
{
	struct json_object *dev = json_object_new_object();
	struct json_object *edits = json_object_new_object();

	json_object_object_add(dev, "name", json_object_new_string(name));
	if (env) {
		struct json_object *e = json_object_new_array();

		json_object_array_add(e, json_object_new_string(env));
		json_object_object_add(edits, "env", e);
	}
	json_object_object_add(edits, "deviceNodes", nodes);
	json_object_object_add(dev, "containerEdits", edits);
	return dev;
}

static void fc_cdi_fme(struct fc_cdi *c, const struct fpga_dev_info *fme)
{
	char sysfs[PATH_MAX], name[64];
	struct fc_cdi_card *card;

	snprintf(sysfs, sizeof(sysfs), "%s" FPGA_SYSFS_BUS "/%s",
		 fpga_sysfs_root(), fme->name);
	fc_cdi_card_name(fme, sysfs, name, sizeof(name));
	card = fc_cdi_card(c, name);
	fc_cdi_node(card->nodes, fme->name);
	snprintf(name, sizeof(name), "dfl-fme.%d", fme->id);
	fc_cdi_node(card->nodes, name);
}

static void fc_cdi_port(struct fc_cdi *c, const struct fpga_dev_info *port)
{
	char sysfs[PATH_MAX], path[PATH_MAX + 8], name[96], node[64];
	struct json_object *nodes;
	struct fc_cdi_card *card;
	uint64_t num;

	snprintf(sysfs, sizeof(sysfs), "%s" FPGA_SYSFS_BUS "/%s",
		 fpga_sysfs_root(), port->name);
	snprintf(path, sizeof(path), "%s/id", sysfs);
	/* without its number on the card it has no stable name */
	if (fpga_sysfs_read_u64(path, &num)) {
		fc_err("cdi: %s: left out", fpga_errmsg());
		c->failed = true;
		return;
	}
	nodes = json_object_new_array();
	fc_cdi_node(nodes, port->name);
	snprintf(node, sizeof(node), "dfl-port.%d", port->id);
	fc_cdi_node(nodes, node);
	if (!strcmp(port->driver, FPGA_DRV_UIO) &&
	    !fpga_uio_name(sysfs, node, sizeof(node)))
		fc_cdi_node(nodes, node);
	if (!json_object_array_length(nodes)) {
		json_object_put(nodes);		/* no driver: nothing to give */
		return;
	}

	fc_cdi_card_name(port, sysfs, name, sizeof(name));
	card = fc_cdi_card(c, name);
	for (size_t k = 0; k < json_object_array_length(nodes); k++)
		json_object_array_add(card->nodes,
				      json_object_get(json_object_array_get_idx(nodes, k)));
	snprintf(name + strlen(name), sizeof(name) - strlen(name),
		 "-port%" PRIu64, num);
	snprintf(node, sizeof(node), "FPGA_PORT=%s", port->name);
	json_object_array_add(card->ports, fc_cdi_device(name, nodes, node));
}

/* The spec, or NULL when it would have no device */
static struct json_object *fc_cdi_spec(struct fc_cdi *c)
{
	struct json_object *spec, *devices = json_object_new_array();

	for (size_t k = 0; k < c->n; k++) {
		struct fc_cdi_card *card = &c->cards[k];

		if (!json_object_array_length(card->nodes))
			continue;
		json_object_array_add(devices,
				      fc_cdi_device(card->name,
						    json_object_get(card->nodes),
						    NULL));
		for (size_t p = 0; p < json_object_array_length(card->ports); p++)
			json_object_array_add(devices,
					      json_object_get(json_object_array_get_idx(card->ports, p)));
	}
	if (!json_object_array_length(devices)) {
		json_object_put(devices);
		return NULL;
	}
	spec = json_object_new_object();
	json_object_object_add(spec, "cdiVersion",
			       json_object_new_string(FC_CDI_VERSION));
	json_object_object_add(spec, "kind", json_object_new_string(FC_CDI_KIND));
	json_object_object_add(spec, "devices", devices);
	return spec;
}

/* No device: no spec, and no file (an empty one offers nothing) */
static int fc_cdi_none(const char *output)
{
	if (!output) {
		fc_err("cdi: no port has a device node: no spec written");
		return FC_OK;
	}
	if (!unlink(output)) {
		fc_err("cdi: no port has a device node: %s removed", output);
		return FC_OK;
	}
	if (errno == ENOENT)
		return FC_OK;	/* nothing said: udev runs this on every event */
	fc_err("cdi: cannot remove %s: %s", output, strerror(errno));
	return FC_FAIL;
}

static int fc_cdi_write(struct json_object *spec, const char *output)
{
	const char *text;
	char *buf;
	int ret = FC_OK;

	/* without NOSLASHESCAPE json-c writes "\/dev\/..." */
	text = json_object_to_json_string_ext(spec, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || asprintf(&buf, "%s\n", text) < 0) {
		fc_err("cdi: out of memory");
		return FC_FAIL;
	}
	if (!output) {
		if (fputs(buf, stdout) == EOF || fflush(stdout)) {
			fc_err("cdi: writing to stdout: %s", strerror(errno));
			ret = FC_FAIL;
		}
	} else if (fpga_write_file_atomic(output, buf, strlen(buf), 0644)) {
		/* runtimes read it as any user (rootless podman too) */
		fc_err("cdi: %s", fpga_errmsg());
		ret = FC_FAIL;
	}
	free(buf);
	return ret;
}

int fc_cmd_cdi(const struct fc_cmd *cmd, int argc, char **argv)
{
	const char *output = NULL;
	bool output_set = false;
	const struct fc_opt opts[] = {
		{ "output", 'o', &output, &output_set },
		{ 0 }
	};
	struct fpga_dev_info *devs;
	struct json_object *spec;
	struct fc_cdi c = { 0 };
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
		return fc_usage_err(cmd, "the output is a CDI spec, JSON already: no -j or -p");
	/* No bus (no card driver loaded): no device */
	if (fpga_dev_list(&devs, &n, &bus))
		return fc_lib_err();
	c.cards = calloc(n ? n : 1, sizeof(*c.cards));
	if (!c.cards) {
		free(devs);
		fc_err("cdi: out of memory");
		return FC_FAIL;
	}
	/* FMEs come first: a card's nodes start with its FME's */
	for (size_t k = 0; k < n; k++) {
		if (devs[k].type == FPGA_DEV_FME)
			fc_cdi_fme(&c, &devs[k]);
		else
			fc_cdi_port(&c, &devs[k]);
	}
	spec = fc_cdi_spec(&c);
	ret = spec ? fc_cdi_write(spec, output) : fc_cdi_none(output);
	if (!ret && c.failed)
		ret = FC_FAIL;
	json_object_put(spec);
	for (size_t k = 0; k < c.n; k++) {
		json_object_put(c.cards[k].nodes);
		json_object_put(c.cards[k].ports);
	}
	free(c.cards);
	free(devs);
	return ret;
}
