/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfpga: a small library over the DFL FPGA port ABI (<linux/fpga-dfl.h>
 * and the fpga_dfl / fpga_sim sysfs trees).
 *
 * Conventions: every function that can fail returns 0 (or a count) on
 * success and -errno on failure, and leaves a message that names the
 * object and says what to do about it; fpga_errmsg() returns it.  The
 * message is per thread and stays until the next failure.
 */
#ifndef _LIBFPGA_FPGA_H
#define _LIBFPGA_FPGA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/fpga-dfl.h>
#include <linux/fpga-sim.h>

#define FPGA_SYSFS_BUS		"/bus/fpga_dfl/devices"
#define FPGA_SIM_BUS		"/bus/fpga_sim"
#define FPGA_PORT_PREFIX	"fpga-port."
/* The upstream name of the same port (Documentation/uapi.md) */
#define FPGA_PORT_DFL_PREFIX	"dfl-port."
#define FPGA_FME_PREFIX		"fpga-fme."
/* A PCI function's FME and ports are in one of these per DFL */
#define FPGA_CARD_DIR_PREFIX	"dfl-card."

/* ---- errors ---- */

/* The last failure's message ("fpga-port.0: ...: Device or resource busy") */
const char *fpga_errmsg(void);
/* The last failure's errno (positive), 0 if none */
int fpga_errno(void);
/* Record a failure: @err is a positive errno; returns -@err */
int fpga_set_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- parsing helpers (no I/O) ---- */

/* Whole-string unsigned number, base 0 (0x.., 0.., decimal); -EINVAL/-ERANGE */
int fpga_parse_u64(const char *s, uint64_t *out);
/* Like fpga_parse_u64, and at most @max */
int fpga_parse_u64_max(const char *s, uint64_t max, uint64_t *out);
/* A size: number with an optional K, M or G suffix (powers of 1024) */
int fpga_parse_size(const char *s, uint64_t *out);
/* "OFFSET" or "OFFSET+LEN"; *has_len tells whether LEN was given */
int fpga_parse_range(const char *s, uint64_t *off, uint64_t *len,
		     bool *has_len);
/* "fpga-port.N" (also "fpga-fme.N" with that prefix): the number N */
int fpga_parse_dev_name(const char *name, const char *prefix, int *id);
/* "fpga-port.N" or its upstream name "dfl-port.N": the number N */
int fpga_parse_port_name(const char *name, int *id);

/* ---- sysfs ---- */

/* Root of sysfs, "/sys" unless FPGA_SYSFS_ROOT is set (for tests) */
const char *fpga_sysfs_root(void);
/* Root of the device nodes, "/dev" unless FPGA_DEV_ROOT is set (for tests) */
const char *fpga_dev_root(void);
/* Read a sysfs attribute without its trailing newline */
int fpga_sysfs_read(const char *path, char *buf, size_t size);
int fpga_sysfs_read_u64(const char *path, uint64_t *val);
int fpga_sysfs_write(const char *path, const char *val);

enum fpga_dev_type {
	FPGA_DEV_FME,
	FPGA_DEV_PORT,
};

/* One FME or port on the fpga_dfl bus, as sysfs describes it */
struct fpga_dev_info {
	enum fpga_dev_type type;
	int id;				/* N of fpga-port.N / fpga-fme.N */
	int card_id;			/* -1 if unknown */
	char name[32];			/* fpga-port.N */
	char card[64];			/* parent device, e.g. fpga_sim1 */
	char driver[64];		/* bound driver, "" if none */
	char devnode[64];		/* /dev/fpga-port.N, "" if absent */
	char afu_id[40];		/* ports: 32 hex digits, "" if unknown */
	uint64_t ports_num;		/* FME only */
	char bitstream_id[24];		/* FME only, "" if unknown */
};

/*
 * All FMEs and ports, FMEs first, each sorted by id.  *list is malloc'ed
 * (free() it); *count may be 0.  No fpga_dfl bus is not an error: 0
 * devices, and *bus_present says so.
 */
int fpga_dev_list(struct fpga_dev_info **list, size_t *count,
		  bool *bus_present);
/* One device by type and id */
int fpga_dev_get(enum fpga_dev_type type, int id, struct fpga_dev_info *info);

/* ---- netlink: the generic netlink family "fpga" (lib/netlink.c) ---- */

/*
 * Like fpga_dev_list(), from one netlink dump, with the same fields.
 * -ENOENT (no message) when the family is not there or sysfs is asked
 * for (FPGA_SYSFS_ROOT or FPGA_NO_NETLINK set): use fpga_dev_list().
 */
int fpga_nl_dev_list(struct fpga_dev_info **list, size_t *count);

/* One event of the group "events" */
struct fpga_nl_event {
	const char *what;		/* "card-added", "reset-end", ... */
	char dev[32];			/* fpga-port.N, "" for card events */
	int dev_id;			/* -1 if absent */
	int card_id;			/* -1 if absent */
	char card[64];			/* the card's device, "" if absent */
	char driver[64];		/* driver-bound: the driver */
	bool has_num_ports;
	unsigned int num_ports;		/* card events */
	bool has_port_num;
	unsigned int port_num;		/* the port's number on its card */
	bool has_result;
	int result;			/* reset-end: 0 or -errno */
	bool has_errors;
	uint64_t errors;		/* errors-cleared: the bits cleared */
					/* error-raised: the bits set */
	bool has_irq;
	unsigned int feature_id;	/* irq: 0x10 port error, 0x12 UINT */
	unsigned int vector;		/* irq: vector of that feature */
	uint64_t irq_count;		/* irq: interrupts since the last */
};

struct fpga_nl_monitor;

/* Listen to "events"; @fn is called for each from fpga_nl_monitor_read() */
int fpga_nl_monitor_open(struct fpga_nl_monitor **mon,
			 void (*fn)(const struct fpga_nl_event *ev, void *arg),
			 void *arg);
/* The socket, to poll() for POLLIN */
int fpga_nl_monitor_fd(const struct fpga_nl_monitor *mon);
/* Read what is there; -ENOBUFS if events were lost (keep reading) */
int fpga_nl_monitor_read(struct fpga_nl_monitor *mon);
void fpga_nl_monitor_close(struct fpga_nl_monitor *mon);

/* Port error registers (sysfs errors/) */
struct fpga_port_errors {
	uint64_t errors;
	uint64_t first_error;
	char first_malformed_req[40];	/* 128 bits: "0x" + 32 hex digits */
};

int fpga_port_errors_read(int port_id, struct fpga_port_errors *e);
/* Clear by writing the current value back; *cleared = what was set */
int fpga_port_errors_clear(int port_id, uint64_t *cleared);

/* Simulated cards (fpga_sim) */
#define FPGA_SIM_MAX_ID		2147483647ULL
#define FPGA_SIM_MAX_PORTS	4
/*
 * The boards fpga_sim models (Documentation/sim-card.md); "sim" is the
 * default.  A board name is at most FPGA_SIM_BOARD_MAX - 1 characters.
 */
#define FPGA_SIM_BOARDS		"sim, n3000"
#define FPGA_SIM_BOARD_MAX	16
/* 0 if @board is well formed (fpga_sim decides whether it knows it) */
int fpga_sim_board_check(const char *board);
/* Create card @id; @board NULL: the module's default board */
int fpga_sim_add(uint64_t id, unsigned int num_ports, const char *board);
int fpga_sim_del(uint64_t id);
/* The board card @id is modelled on, or -ENOENT on an fpga_sim without boards */
int fpga_sim_board(uint64_t id, char *board, size_t size);
/* Ports of card @id: ids into @ports (up to @max); returns the count */
int fpga_sim_ports(uint64_t id, int *ports, size_t max);
/* FME id of card @id, or -ENOENT */
int fpga_sim_fme(uint64_t id);

/* ---- GBS files and the simulated card's bitstream (lib/gbs.c) ---- */

#define FPGA_UUID_SIZE		16
#define FPGA_UUID_STR		37	/* 8-4-4-4-12 and a NUL */

/*
 * A UUID as 32 hex digits (afu_id, compat_id) or 8-4-4-4-12, into 16
 * bytes in the order of its text form; -EINVAL.
 */
int fpga_uuid_parse(const char *s, uint8_t id[FPGA_UUID_SIZE]);
/* 8-4-4-4-12, lower case */
void fpga_uuid_str(const uint8_t id[FPGA_UUID_SIZE], char out[FPGA_UUID_STR]);
/* The AFUs known by name: nlb0, nlb3, helb; NULL for another */
const char *fpga_afu_name(const uint8_t id[FPGA_UUID_SIZE]);
/* The same for a UUID string (afu_id's 32 hex digits); NULL, no message */
const char *fpga_afu_name_str(const char *uuid);
/* A known AFU's name or a GUID, into @id; -EINVAL */
int fpga_afu_lookup(const char *name, uint8_t id[FPGA_UUID_SIZE]);

/* A whole regular file of at most @max bytes; *buf is malloc'ed */
int fpga_read_file(const char *path, size_t max, uint8_t **buf, size_t *size);
/* Create or replace @path (removed again if writing fails) */
int fpga_write_file(const char *path, const void *buf, size_t size);
/*
 * Replace @path atomically: a hidden temporary file in its directory,
 * written whole, synced and given @mode, renamed over it; a reader sees
 * the old file or the new, never a part.  Nothing is left on failure.
 */
int fpga_write_file_atomic(const char *path, const void *buf, size_t size,
			   unsigned int mode);

/* The simulated card's bitstream: its header, payload and CRC-32 */
#define FPGA_SIM_PAYLOAD_MAX	(FPGA_SIM_BS_MAX_SIZE - \
				 sizeof(struct fpga_sim_bitstream) - 4)

struct fpga_sim_bs_info {
	bool valid;			/* well formed (the CRC aside) */
	bool crc_ok;
	uint8_t interface_id[FPGA_UUID_SIZE];
	uint8_t afu_id[FPGA_UUID_SIZE];
	uint32_t flags;
	uint32_t total_size;
	uint32_t payload_size;
	uint32_t crc;			/* as stored */
};

/* Header, @payload (a multiple of 4 bytes) and CRC; *buf is malloc'ed */
int fpga_sim_bs_make(const uint8_t interface_id[FPGA_UUID_SIZE],
		     const uint8_t afu_id[FPGA_UUID_SIZE], const void *payload,
		     size_t payload_size, uint8_t **buf, size_t *size);
/*
 * Check @buf as a simulated card's bitstream, CRC included (info->crc_ok).
 * -ENOENT (no message) without its magic: not one; -EINVAL malformed.
 */
int fpga_sim_bs_check(const void *buf, size_t size,
		      struct fpga_sim_bs_info *info);

#define FPGA_GBS_GUID		"58656f6e-4650-4741-b747-425376303031"
#define FPGA_GBS_HDR_SIZE	20	/* GUID, metadata length */
#define FPGA_GBS_MAGIC_NO	0x1d1f8680	/* afu-image's magic-no */
#define FPGA_GBS_METADATA_VERSION 1
#define FPGA_GBS_METADATA_MAX	8192	/* OPAE's xfpga: less than this */
#define FPGA_GBS_NAME_MAX	255
#define FPGA_GBS_PLATFORM	"fpga_sim"
#define FPGA_GBS_FILE_MAX	(1u << 30)

/* What fpga_gbs_make() writes */
struct fpga_gbs_spec {
	uint8_t interface_id[FPGA_UUID_SIZE];
	uint8_t afu_id[FPGA_UUID_SIZE];
	const char *name;		/* printable ASCII, 1 to 255 */
	const char *platform;		/* NULL: FPGA_GBS_PLATFORM */
	const void *payload;		/* model parameters, may be empty */
	size_t payload_size;
};

/* An AFU name fpga_gbs_make() takes; -EINVAL */
int fpga_gbs_name_check(const char *name);
/* A GBS holding a simulated card's bitstream; *buf is malloc'ed */
int fpga_gbs_make(const struct fpga_gbs_spec *spec, uint8_t **buf,
		  size_t *size);

struct fpga_gbs_info {
	uint32_t metadata_size;
	int version;
	char platform[64];		/* "" if absent */
	int64_t magic_no;
	char interface_uuid[FPGA_UUID_STR];
	uint8_t interface_id[FPGA_UUID_SIZE];
	bool has_power, has_clock_high, has_clock_low;
	double power, clock_high, clock_low;
	size_t num_clusters;
	char name[512];			/* of the first cluster */
	int total_contexts;
	char afu_uuid[FPGA_UUID_STR];
	uint8_t afu_id[FPGA_UUID_SIZE];
	size_t bitstream_offset;	/* what DFL_FPGA_FME_PORT_PR takes */
	size_t bitstream_size;
};

/*
 * Parse and check a GBS in memory as OPAE would take it.  -ENOENT (no
 * message) when it does not start with the GBS GUID (a raw bitstream),
 * -EINVAL when it is malformed.
 */
int fpga_gbs_parse(const void *buf, size_t size, struct fpga_gbs_info *info);

/* ---- FMEs and partial reconfiguration (lib/fme.c) ---- */

struct fpga_fme_ref {
	int id;				/* N of fpga-fme.N: card N's FME */
	char name[32];			/* fpga-fme.N */
	char devnode[256];		/* the char device to open */
	char sysfs[256];		/* the fpga_dfl bus device */
};

/*
 * Resolve FME as a user writes it: "N" (card N), "fpga-fme.N",
 * "dfl-fme.N", "fpga_pmu_N", "fpga_simID" (a simulated card), a PCI
 * address ("0000:3b:00.0" or "3b:00.0"), a device node or a sysfs path
 * ending in fpga-fme.N or dfl-fme.N.  -EINVAL: not an FME's name.
 */
int fpga_fme_lookup(const char *spec, struct fpga_fme_ref *ref);
/* Its card's number */
int fpga_fme_card(const struct fpga_fme_ref *ref);
/*
 * The PR interface id, from upstream's compat_id
 * (dfl-fme-region.K/fpga_region/regionM/compat_id): -ENOENT if none
 */
int fpga_fme_interface_id(const struct fpga_fme_ref *ref,
			  uint8_t id[FPGA_UUID_SIZE]);
/* errors/pr_err: the PR error bits (fpga_pr_err_bits) */
int fpga_fme_pr_errors(const struct fpga_fme_ref *ref, uint64_t *pr_err);

struct fpga_bit_name {
	uint64_t bit;
	const char *name;		/* for JSON: "crc" */
	const char *desc;		/* for people: "PR CRC error" */
};

/* pr_err's bits, ending with a zeroed entry */
extern const struct fpga_bit_name fpga_pr_err_bits[];

/*
 * Program port @port (its number on the card) with @buf, the bitstream
 * alone (no GBS header): DFL_FPGA_FME_PORT_PR.  -EIO: the card refused
 * it (fpga_fme_pr_errors() says why).
 */
int fpga_fme_pr(const struct fpga_fme_ref *ref, unsigned int port,
		const void *buf, size_t size);
/*
 * Wait up to @timeout_ms for port @port of card @card to be there with a
 * driver (after programming, the port comes back as a new device) and,
 * unless @afu_id is NULL, with that AFU (32 hex digits).
 */
int fpga_port_wait(int card, unsigned int port, const char *afu_id,
		   unsigned int timeout_ms, struct fpga_dev_info *info);

/* ---- what a card has besides its FME and ports (lib/card.c) ---- */

/*
 * The PCI address ("0000:3b:00.0") of the card of @dev_sysfs, the sysfs
 * directory of its FME or of one of its ports: the function above the
 * card's dfl-card.N, a simulated card's pci_function, or the parent of
 * the card's fpga_region.  -ENOENT (no message) when it has none.
 */
int fpga_card_pci_addr(const char *dev_sysfs, char *buf, size_t size);

/*
 * The events a card's counter bank may count, per card and per port; a
 * card whose bank has fewer lacks the last ones
 */
#define FPGA_COUNTER_EVENTS	9
extern const char *const fpga_counter_events[FPGA_COUNTER_EVENTS];

/*
 * Counter @name of the FME's counter bank (fpga-fme.N/counters/@name:
 * "dma_rd_bytes", "port1_resets"): decimal, free-running since the
 * card's reset.  -ENOENT (no message) when the card has no counter bank
 * or no such counter; -EACCES when not root (the files are root's).
 */
int fpga_fme_counter(const struct fpga_fme_ref *ref, const char *name,
		     uint64_t *val);

enum fpga_sensor_kind {
	FPGA_SENSOR_TEMP,		/* temp*_input, millidegrees Celsius */
	FPGA_SENSOR_POWER,		/* power*_input, microwatts */
};

/* One reading of the FME's hwmon devices (dfl_fme_thermal, dfl_fme_power) */
struct fpga_sensor {
	enum fpga_sensor_kind kind;
	char name[64];			/* its *_label, else "temp1" */
	char chip[32];			/* the hwmon device's name */
	int64_t raw;			/* as the file says: milli-/microunits */
};

/*
 * Every temp*_input and power*_input of the FME's hwmon devices, wherever
 * the card has them (under its PCI function, linked from dfl-fme.N/hwmon/,
 * or under fpga-fme.N/hwmon/), and of its BMC's (behind the FME's SPI
 * master), sorted by chip, kind and name.  *list is
 * malloc'ed (free() it), *count may be 0.  A reading that fails is left
 * out; the last such failure is the message of a return of -errno with
 * the readings that worked.
 */
int fpga_fme_sensors(const struct fpga_fme_ref *ref, struct fpga_sensor **list,
		     size_t *count);

/* ---- ports ---- */

struct fpga_port_ref {
	int id;				/* N */
	char devnode[256];		/* the char device to open */
	char sysfs[256];		/* the fpga_dfl bus device */
};

/*
 * Resolve PORT as a user writes it: "N", "fpga-port.N", a device node
 * ("/dev/fpga-port.N" or any node of that char device) or a sysfs path
 * ending in fpga-port.N.  Does not need the port driver.
 */
int fpga_port_lookup(const char *spec, struct fpga_port_ref *ref);

struct fpga_port;

#define FPGA_OPEN_EXCL		0x1	/* O_EXCL: nobody else may hold it */

int fpga_port_open(const char *spec, unsigned int flags,
		   struct fpga_port **port);
void fpga_port_close(struct fpga_port *port);
const struct fpga_port_ref *fpga_port_ref(const struct fpga_port *port);
int fpga_port_fd(const struct fpga_port *port);

int fpga_port_api_version(struct fpga_port *port);	/* >= 0: version */
int fpga_port_check_extension(struct fpga_port *port, unsigned long ext);
int fpga_port_info(struct fpga_port *port, struct dfl_fpga_port_info *info);
int fpga_port_region_info(struct fpga_port *port, unsigned int index,
			  struct dfl_fpga_port_region_info *info);
int fpga_port_reset(struct fpga_port *port);

/* MMIO of region 0 (the AFU); mapped on first use */
int fpga_mmio_map(struct fpga_port *port);
uint64_t fpga_mmio_size(const struct fpga_port *port);	/* 0 if unmapped */
/* @width is 4 or 8; @off must be aligned to it and inside the region */
int fpga_mmio_check(struct fpga_port *port, uint64_t off, unsigned int width);
int fpga_mmio_read32(struct fpga_port *port, uint64_t off, uint32_t *val);
int fpga_mmio_read64(struct fpga_port *port, uint64_t off, uint64_t *val);
int fpga_mmio_write32(struct fpga_port *port, uint64_t off, uint32_t val);
int fpga_mmio_write64(struct fpga_port *port, uint64_t off, uint64_t val);

/* DMA: @addr and @len page aligned; one IOVA for the whole range */
int fpga_dma_map(struct fpga_port *port, void *addr, uint64_t len,
		 uint64_t *iova);
int fpga_dma_unmap(struct fpga_port *port, uint64_t iova);

/* Interrupts: user interrupts (UINT) or the port error interrupt */
enum fpga_irq_kind {
	FPGA_IRQ_UINT,
	FPGA_IRQ_ERR,
};

const char *fpga_irq_kind_name(enum fpga_irq_kind kind);
/* Number of vectors; >= 0 or -errno */
int fpga_irq_count(struct fpga_port *port, enum fpga_irq_kind kind);
/* Bind @count eventfds (fd < 0 unbinds) from vector @start */
int fpga_irq_set(struct fpga_port *port, enum fpga_irq_kind kind,
		 unsigned int start, unsigned int count, const int *fds);
/* A new eventfd bound to @vector; returns the fd or -errno */
int fpga_irq_bind_eventfd(struct fpga_port *port, enum fpga_irq_kind kind,
			  unsigned int vector);
/*
 * Wait up to @timeout_ms (< 0: forever) for @efd; *count = events.
 * -ETIMEDOUT if none came.
 */
int fpga_eventfd_wait(int efd, int timeout_ms, uint64_t *count);

/*
 * Wait up to @timeout_ms (< 0: forever) for user interrupt @vector;
 * *count = interrupts that came.  Through an eventfd on fpga_port,
 * through the UIO device (vector 0 only) on uio_fpga.  -ETIMEDOUT if none.
 */
int fpga_irq_wait(struct fpga_port *port, unsigned int vector, int timeout_ms,
		  uint64_t *count);

/* ---- drivers: fpga_port or uio_fpga ---- */

#define FPGA_DRV_PORT		"fpga_port"
#define FPGA_DRV_UIO		"uio_fpga"

/* The driver the port is bound to into @buf ("" if none) */
int fpga_port_driver(const struct fpga_port_ref *ref, char *buf, size_t size);
/*
 * Bind the port to @driver (FPGA_DRV_PORT or FPGA_DRV_UIO) through
 * driver_override, unbinding it from its driver first; loads the driver
 * with modprobe if it is not loaded.
 */
int fpga_port_bind(const struct fpga_port_ref *ref, const char *driver);
/* The UIO device ("uio3") of a port bound to uio_fpga; 0 or -errno */
int fpga_uio_name(const char *port_sysfs, char *out, size_t size);
/* The port was opened through uio_fpga's UIO device */
bool fpga_port_is_uio(const struct fpga_port *port);
/*
 * uio_fpga's kernel DMA buffer @k, mapped: address, device address and
 * size.  -ENOTSUP on fpga_port (map user memory with fpga_dma_map).
 */
int fpga_port_dma_buffer(struct fpga_port *port, unsigned int k, void **va,
			 uint64_t *iova, uint64_t *size);

/* ---- who has a port open: /proc/PID/fdinfo (lib/fdinfo.c) ---- */

/* Root of procfs, "/proc" unless FPGA_PROC_ROOT is set (for tests) */
const char *fpga_proc_root(void);

/* The keys of a port's fdinfo that were there: fpga_fdinfo.present */
#define FPGA_FDINFO_DRIVER	0x01	/* fpga-driver */
#define FPGA_FDINFO_PORT	0x02	/* fpga-port */
#define FPGA_FDINFO_CLIENT_ID	0x04	/* fpga-client-id */
#define FPGA_FDINFO_PINNED	0x08	/* fpga-memory-pinned */
#define FPGA_FDINFO_MAPPED	0x10	/* fpga-memory-mapped */
#define FPGA_FDINFO_INTERRUPTS	0x20	/* fpga-interrupts */
#define FPGA_FDINFO_RESETS	0x40	/* fpga-resets */
#define FPGA_FDINFO_ENGINE_AFU	0x80	/* fpga-engine-afu */

#define FPGA_FDINFO_NAME_MAX	32
#define FPGA_COMM_MAX		64	/* /proc/PID/comm and its NUL */

/*
 * What the port driver says of one open file of a port.  A field counts
 * only when its key's bit is in @present: a missing key is unknown, not 0.
 */
struct fpga_fdinfo {
	unsigned int present;			/* FPGA_FDINFO_* */
	char driver[FPGA_FDINFO_NAME_MAX];	/* "fpga_port" */
	char port[FPGA_FDINFO_NAME_MAX];	/* "fpga-port.3" */
	int port_id;				/* its N; -1 without fpga-port */
	uint64_t client_id;			/* unique per open file */
	uint64_t pinned_kib;			/* memory pinned for DMA */
	uint64_t mapped_kib;			/* DMA-mapped, dma-bufs too */
	uint64_t interrupts;
	uint64_t resets;
	uint64_t afu_busy_ns;			/* AFU busy since the open */
};

/*
 * Parse the text of /proc/PID/fdinfo/FD.  Keys other than the "fpga-"
 * ones above are ignored.  -EINVAL when it is not a port's (no
 * "fpga-driver: fpga_port"); -EPROTO when a value is malformed (a
 * number that is none is never read as 0).
 */
int fpga_fdinfo_parse(const char *text, struct fpga_fdinfo *info);

/*
 * One open file of a port; non-zero stops the walk, which returns it.
 * @comm is /proc/PID/comm as the process set it (its last newline
 * dropped): any byte but NUL, terminal escapes too.  Print it through
 * fpga_escape().
 */
typedef int (*fpga_port_user_fn)(int pid, int fd, const char *comm,
				 const struct fpga_fdinfo *info, void *arg);
/* What the walk left out, and why: "PATH: reason" (not escaped) */
typedef void (*fpga_port_skip_fn)(const char *why, void *arg);

/*
 * Call @fn for every open file of a port (/dev/fpga-port.N or
 * /dev/dfl-port.N, as PID/fd/FD shows it, and a port's fdinfo), in no
 * particular order, of every process under @proc_root (NULL:
 * fpga_proc_root()).  An fdinfo is read whole, whatever its length (a
 * "lock:" line for each lock on the file), in bounded memory.
 * Processes that end meanwhile or that we may not look at (ENOENT,
 * ESRCH, EACCES) are skipped: without privileges, one's own processes
 * are seen.  A process or file that cannot be read otherwise, or whose
 * fdinfo is malformed, is skipped too, and told to @skip (when not
 * NULL); the walk goes on.  It fails only when @proc_root cannot be
 * read, or returns what @fn returned.
 */
int fpga_port_users(const char *proc_root, fpga_port_user_fn fn,
		    fpga_port_skip_fn skip, void *arg);

/*
 * @s as text that is safe to print to a terminal, as "ls -b" shows
 * names: printable ASCII as it is, but a backslash doubled; newline, tab
 * and carriage return as \n, \t and \r; every other byte (escape
 * sequences, other controls, DEL, anything from 0x80) as \xNN.
 * Into @buf of @size, cut at a whole escape if it does not fit (4 times
 * the length of @s, and 1, always fit); returns the length written.
 */
size_t fpga_escape(char *buf, size_t size, const char *s);

/* ---- NLB0 loopback ---- */

#define FPGA_NLB_MAX_SIZE	(1ULL << 32)	/* NUM_LINES is 32 bits wide */

struct fpga_nlb_result {
	uint64_t bytes;
	double seconds;		/* start to done, as seen by the host */
	double gbps;		/* bytes / seconds / 1e9 */
	uint64_t clocks;	/* DSM run length the AFU reported */
	bool verified;		/* destination == source */
	uint64_t mismatch;	/* first differing byte if !verified */
};

/*
 * The hello_fpga flow on @port: @size bytes (a multiple of 64) copied by
 * the AFU from a source to a destination buffer, compared byte by byte.
 * @timeout_ms bounds the wait for completion.  A mismatch is reported in
 * @res and returns -EIO.
 */
int fpga_nlb_loopback(struct fpga_port *port, uint64_t size,
		      unsigned int timeout_ms, struct fpga_nlb_result *res);

#endif /* _LIBFPGA_FPGA_H */
