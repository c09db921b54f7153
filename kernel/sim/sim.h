/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_sim: a simulated DFL card.
 *
 * The card's register file is ordinary memory laid out as a Device Feature
 * List.  The drivers reach it only through the __iomem accessors; a model
 * thread plays the hardware, reacting to what they write.
 */
#ifndef _FPGA_SIM_H
#define _FPGA_SIM_H

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/maple_tree.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <fpga-suite/dfl-regs.h>
#include <fpga-suite/fpga-kunit.h>

#define FPGA_SIM_MAX_PORTS		FME_MAX_PORTS
#define FPGA_SIM_FME_SIZE		SZ_64K
#define FPGA_SIM_PORT_HDR_SIZE		SZ_64K
#define FPGA_SIM_DEFAULT_AFU_SIZE	SZ_256K

/* Interrupt vectors: port n has 5 (error, 4 user), the FME one after them */
#define FPGA_SIM_VECS_PER_PORT		5
#define FPGA_SIM_NUM_UINT		4
#define FPGA_SIM_PORT_ERR_VEC(n)	((n) * FPGA_SIM_VECS_PER_PORT)
#define FPGA_SIM_PORT_UINT_VEC(n, k)	((n) * FPGA_SIM_VECS_PER_PORT + 1 + (k))
#define FPGA_SIM_FME_ERR_VEC(ports)	((ports) * FPGA_SIM_VECS_PER_PORT)
#define FPGA_SIM_MAX_VECS		(FPGA_SIM_FME_ERR_VEC(FPGA_SIM_MAX_PORTS) + 1)

/* Offsets of the private features in the register file */
#define FPGA_SIM_FME_GLOBAL_ERR		SZ_4K
#define FPGA_SIM_FME_IPERF		(2 * SZ_4K)
#define FPGA_SIM_FME_COUNTERS		(3 * SZ_4K)
#define FPGA_SIM_FME_THERMAL		(4 * SZ_4K)
#define FPGA_SIM_FME_POWER		(5 * SZ_4K)
/* board=n3000: the BMC's SPI master, in the second half of IPERF's page */
#define FPGA_SIM_FME_SPI		(FPGA_SIM_FME_IPERF + SZ_2K)
/*
 * The PR engine: last in the FME, up to its end, with its staging window
 * 4 KiB in (sim-pr.c)
 */
#define FPGA_SIM_FME_PR			(6 * SZ_4K)
#define FPGA_SIM_PR_SIZE		(FPGA_SIM_FME_SIZE - FPGA_SIM_FME_PR)
#define FPGA_SIM_PR_STAGE		SZ_4K
#define FPGA_SIM_PR_STAGE_SIZE		(FPGA_SIM_PR_SIZE - FPGA_SIM_PR_STAGE)
#define FPGA_SIM_PORT_ERR		SZ_4K	/* from the port header */
#define FPGA_SIM_PORT_UINT		(2 * SZ_4K)

/* The counter bank's clock */
#define FPGA_SIM_CLOCK_MHZ		250

struct fpga_dfl_card;
struct fpga_sim;
struct pci_dev;
struct task_struct;

/**
 * struct fpga_sim_afu_model - an AFU the card can run (sim-afu.c)
 * @name:	what it is called (sysfs afu_model, logs)
 * @guid_h:	high 64 bits of its AFU GUID, which a bitstream names
 * @guid_l:	low 64 bits
 * @layout:	write its registers as they are after programming, or
 *		NULL; the AFU window is zeroed and its header written before
 * @step:	react to what software wrote (model thread, port out of
 *		reset); true if there was something to do
 * @reset:	the port's soft reset: back to idle
 */
struct fpga_sim_afu_model {
	const char *name;
	u64 guid_h;
	u64 guid_l;
	void (*layout)(struct fpga_sim *sim, unsigned int n);
	bool (*step)(struct fpga_sim *sim, unsigned int n);
	void (*reset)(struct fpga_sim *sim, unsigned int n);
};

/**
 * struct fpga_sim_irq - the card's interrupt controller
 * @domain:	linear irq domain, hwirq = vector
 * @fwnode:	its named fwnode
 * @virqs:	Linux irq of each vector
 * @num:	number of vectors
 * @pending:	vectors raised and not delivered yet
 * @masked:	vectors the irq core has masked (or not started)
 * @work:	delivers pending vectors in hard-irq context: after unmask or
 *		enable, raises from atomic context, lockdep kernels
 * @names:	name of each vector's irq (fpga_simID-pN-err, ...)
 */
struct fpga_sim_irq {
	struct irq_domain *domain;
	struct fwnode_handle *fwnode;
	int virqs[FPGA_SIM_MAX_VECS];
	unsigned int num;
	DECLARE_BITMAP(pending, FPGA_SIM_MAX_VECS);
	DECLARE_BITMAP(masked, FPGA_SIM_MAX_VECS);
	struct irq_work work;
	char names[FPGA_SIM_MAX_VECS][32];
};

/**
 * struct fpga_sim_iommu - one port's IOMMU domain and DMA device
 * @dev:	the DMA device the port's drivers map through (never added;
 *		its release frees this)
 * @sim:	the card
 * @port:	the port
 * @lock:	held for reading while the port's DMA engine translates and
 *		copies, for writing while a mapping is added or removed: no
 *		DMA touches a page once its mapping is gone
 * @tree:	IOVA page number -> struct fpga_sim_dma_map (first fit)
 * @dead:	the card is gone: every map fails, every unmap is a no-op
 * @dma_parms:	segment limits of @dev
 * @dma_mask:	its streaming DMA mask
 */
struct fpga_sim_iommu {
	struct device dev;
	struct fpga_sim *sim;
	unsigned int port;
	struct rw_semaphore lock;
	struct maple_tree tree;
	bool dead;
	struct device_dma_parameters dma_parms;
	u64 dma_mask;
};

#define to_fpga_sim_iommu(d) container_of(d, struct fpga_sim_iommu, dev)

/**
 * struct fpga_sim_port - the model of one port
 * @hdr:	offset of the port header in the register file
 * @afu:	offset of the AFU
 * @err_seen:	PORT_ERROR as the model last left it
 * @first_seen:	PORT_FIRST_ERROR as the model last left it
 * @in_reset:	the model has put the port in reset (and not out yet)
 * @fail_dma:	fault injection: the next NLB run faults at once
 * @iommu:	the port's DMA domain (sim-iommu.c)
 * @model:	the AFU the port runs; changed by the model thread only
 *		(programming), read by sysfs
 */
struct fpga_sim_port {
	size_t hdr;
	size_t afu;
	const struct fpga_sim_afu_model *model;
	u64 err_seen;
	u64 first_seen;
	bool in_reset;
	bool fail_dma;
	struct fpga_sim_iommu *iommu;
};

/**
 * struct fpga_sim_pr - the model of the FME's PR engine (sim-pr.c)
 * @in_reset:	the engine is held in reset (PR_RST)
 * @busy:	between START and the end of a programming
 * @port:	the port being programmed
 * @overflow:	more was staged than a bitstream can be, or a bad length
 * @buf:	the bitstream taken so far (FPGA_SIM_BS_MAX_SIZE), or NULL
 * @len:	its length
 */
struct fpga_sim_pr {
	bool in_reset;
	bool busy;
	unsigned int port;
	bool overflow;
	u8 *buf;
	size_t len;
};

/* The board a card is modelled on (sim-board.c) */
enum fpga_sim_board {
	FPGA_SIM_BOARD_SIM,
	FPGA_SIM_BOARD_N3000,
};

/**
 * struct fpga_sim_bmc - the BMC's frame in progress (sim-bmc.c)
 * @pos:	bytes of the frame shifted so far
 * @op:		its opcode
 * @addr:	the register it reads
 * @reply:	the status and value, big-endian, once the address is in
 */
struct fpga_sim_bmc {
	unsigned int pos;
	u8 op;
	u16 addr;
	u8 reply[5];
};

/**
 * struct fpga_sim_sensors - the card's temperature and power (sim-sensors.c)
 * @last_ms:	when the model last advanced them (coarse monotonic time)
 * @dma_bytes:	the card's DMA bytes (read + written) then
 * @power_mw:	power drawn, in milliwatts
 * @heat_mc:	temperature above the air around the card, millidegrees C
 * @ambient:	the air's temperature, degrees C (a sysfs knob)
 *
 * Only the model thread changes them, but for @ambient.
 */
struct fpga_sim_sensors {
	u64 last_ms;
	u64 dma_bytes;
	u32 power_mw;
	u32 heat_mc;
	unsigned int ambient;
};

/**
 * struct fpga_sim - one simulated card
 * @dev:	the card device on the fpga_sim bus
 * @id:		the id user space gave in new_device
 * @num_ports:	number of ports
 * @afu_size:	MMIO size of each AFU
 * @regs:	the register file (freed with @dev: sysfs reads it)
 * @regs_size:	its size
 * @ports:	per-port model state
 * @model:	the thread that plays the hardware
 * @card:	the card as enumerated by fpga_dfl; NULL once unplugged
 * @card_lock:	serialises bringing the card up and its removal, which may
 *		come from its PCI function's removal (sim-pci.c)
 * @unplugged:	the card was removed (its PCI function, or deletion)
 * @pdev:	its PCI function, or NULL (sim-pci.c)
 * @fail_reset_ack: fault injection: never acknowledge a soft reset
 * @err_lock:	serialises changes of the port error registers by the model
 *		thread and the sysfs knobs; protects @live
 * @live:	interrupts and model may be used (false once teardown began)
 * @fme_injected: the RAS injection bits the model last acted on
 * @cntr_lock:	serialises counter updates (one writer at a time)
 * @t0:		when the counter bank's clock was 0
 * @sensors:	the thermal and power model
 * @irq:	interrupt controller
 * @translated:	the card has its IOMMU; without it (the iommu parameter
 *		was off when the card was made) DMA addresses are physical
 * @dma_devs:	each port's DMA device, for fpga_dfl
 * @pr:		the PR engine's model state (model thread only)
 * @board:	the board the card is modelled on
 * @bmc:	its BMC's state (model thread only), board=n3000
 */
struct fpga_sim {
	struct device dev;
	unsigned int id;
	unsigned int num_ports;
	size_t afu_size;
	void *regs;
	size_t regs_size;
	struct fpga_sim_port ports[FPGA_SIM_MAX_PORTS];
	struct task_struct *model;
	/* Bring-up and removal of @card, @unplugged */
	struct mutex card_lock;
	struct fpga_dfl_card *card;
	bool unplugged;
	struct pci_dev *pdev;
	bool fail_reset_ack;
	/* Port error registers (model side) and @live */
	struct mutex err_lock;
	bool live;
	u64 fme_injected;
	/* Counter bank updates */
	spinlock_t cntr_lock;
	ktime_t t0;
	struct fpga_sim_sensors sensors;
	struct fpga_sim_irq irq;
	bool translated;
	struct device *dma_devs[FPGA_SIM_MAX_PORTS];
	struct fpga_sim_pr pr;
	enum fpga_sim_board board;
	struct fpga_sim_bmc bmc;
};

#define to_fpga_sim(d) container_of(d, struct fpga_sim, dev)

static inline u64 fpga_sim_dfh(unsigned int type, unsigned int id, size_t next,
			       bool eol)
{
	return FIELD_PREP(DFH_TYPE, type) | FIELD_PREP(DFH_ID, id) |
	       FIELD_PREP(DFH_NEXT, next) | (eol ? DFH_EOL : 0);
}

/* The model owns the register file: it uses plain memory accesses */
static inline u64 *fpga_sim_reg(struct fpga_sim *sim, size_t ofs)
{
	return sim->regs + ofs;
}

static inline u64 fpga_sim_read(struct fpga_sim *sim, size_t ofs)
{
	return READ_ONCE(*fpga_sim_reg(sim, ofs));
}

/* Only for registers software never writes (status, counters, layout) */
static inline void fpga_sim_write(struct fpga_sim *sim, size_t ofs, u64 val)
{
	WRITE_ONCE(*fpga_sim_reg(sim, ofs), val);
}

/*
 * Registers software may write are changed by the model only atomically,
 * so that a driver store landing between our read and write is never lost.
 */
static inline bool fpga_sim_update(struct fpga_sim *sim, size_t ofs, u64 old,
				   u64 val)
{
	return cmpxchg64(fpga_sim_reg(sim, ofs), old, val) == old;
}

static inline u64 fpga_sim_take(struct fpga_sim *sim, size_t ofs)
{
	return xchg(fpga_sim_reg(sim, ofs), 0);
}

static inline size_t fpga_sim_port_err(struct fpga_sim *sim, unsigned int n)
{
	return sim->ports[n].hdr + FPGA_SIM_PORT_ERR;
}

/* sim-card.c */
int fpga_sim_card_layout(struct fpga_sim *sim);
/* sim-faults.c */
void fpga_sim_layout_faults(struct fpga_sim *sim);

int fpga_sim_card_init(struct fpga_sim *sim);
void fpga_sim_card_unplug(struct fpga_sim *sim);
bool fpga_sim_port_reset_step(struct fpga_sim *sim, unsigned int n, u64 ctrl);
void fpga_sim_serve_handshakes(struct fpga_sim *sim, unsigned int busy_port);

/* sim-board.c */
const char *fpga_sim_board_name(enum fpga_sim_board board);
int fpga_sim_board_parse(const char *word, enum fpga_sim_board *board);
extern struct device_attribute dev_attr_board;

/* sim-bmc.c */
void fpga_sim_bmc_layout(struct fpga_sim *sim);
u8 fpga_sim_bmc_shift(struct fpga_sim *sim, bool sof, u8 in);
bool fpga_sim_bmc_step(struct fpga_sim *sim);

/* sim-pci.c */
int fpga_sim_pci_init(void);
void fpga_sim_pci_exit(void);
void fpga_sim_pci_add(struct fpga_sim *sim);
void fpga_sim_pci_del(struct fpga_sim *sim);
void fpga_sim_pci_unplug(struct fpga_sim *sim);

/* sim-irq.c */
int fpga_sim_irq_init(struct fpga_sim *sim);
void fpga_sim_irq_fini(struct fpga_sim *sim);
void fpga_sim_irq_raise(struct fpga_sim *sim, unsigned int vec);

/* sim-iommu.c */
extern const struct dma_map_ops fpga_sim_dma_ops;
int fpga_sim_iommu_init(struct fpga_sim *sim);
void fpga_sim_iommu_fini(struct fpga_sim *sim);

struct fpga_sim_dma_map;

/**
 * struct fpga_sim_dma_cursor - a walk through IOVA space by the DMA engine
 * @map:	the mapping @iova was last found in (NULL: look it up); only
 *		valid between fpga_sim_dma_begin() and fpga_sim_dma_end()
 * @iova:	next byte to access
 */
struct fpga_sim_dma_cursor {
	struct fpga_sim_dma_map *map;
	u64 iova;
};

void fpga_sim_dma_begin(struct fpga_sim_iommu *mmu);
void fpga_sim_dma_end(struct fpga_sim_iommu *mmu);
struct page *fpga_sim_dma_page(struct fpga_sim_iommu *mmu,
			       struct fpga_sim_dma_cursor *cur, bool write,
			       size_t *ofs);

/* sim-dma.c: the AFUs' DMA engine */
enum fpga_sim_dma_op {
	FPGA_SIM_DMA_COPY,	/* source to destination (loopback) */
	FPGA_SIM_DMA_READ,	/* read the source only */
	FPGA_SIM_DMA_WRITE,	/* write the destination only */
	FPGA_SIM_DMA_TRPUT,	/* read the source, write the destination */
};

/**
 * struct fpga_sim_dma_xfer - one pass of an AFU's DMA engine
 * @op:		what it does
 * @src:	source IOVA, 64-byte aligned
 * @dst:	destination IOVA, 64-byte aligned
 * @lines:	64-byte lines to move
 * @ctl:	offset of the AFU's control register, checked between chunks
 * @run:	the value @ctl keeps while the run goes on
 * @cont:	continuous: passes until the run is aborted
 * @bytes:	bytes moved so far (grows with each pass)
 *
 * A write that is not a copy writes the line's index (from @dst) in each
 * of its words.
 */
struct fpga_sim_dma_xfer {
	enum fpga_sim_dma_op op;
	u64 src;
	u64 dst;
	u64 lines;
	size_t ctl;
	u64 run;
	bool cont;
	u64 bytes;
};

/* A word of a DSM, at @ofs from its base */
struct fpga_sim_dsm_word {
	u32 ofs;
	u64 val;
};

/**
 * struct fpga_sim_dma_test - what NLB3's and HE-LB's test engines do not
 * share (fpga_sim_dma_test())
 * @stop:	CTL's value that ends a run as completed
 * @lines_from_0: NUM_LINES (its bits 31:0) is the lines minus one
 * @end:	the end of a run that completed or was stopped, @err 1 for a
 *		mode not modelled: status and DSM; 0 or -EFAULT
 */
struct fpga_sim_dma_test {
	u64 stop;
	bool lines_from_0;
	int (*end)(struct fpga_sim *sim, unsigned int n,
		   const struct fpga_sim_dma_xfer *x, u64 clocks, u32 err);
};

bool fpga_sim_dma_aborted(struct fpga_sim *sim, unsigned int n, size_t ctl,
			  u64 run);
int fpga_sim_dma_xfer(struct fpga_sim *sim, unsigned int n,
		      struct fpga_sim_dma_xfer *x);
void fpga_sim_dma_lines(const struct fpga_sim_dma_xfer *x, u64 *rd, u64 *wr);
int fpga_sim_dma_dsm(struct fpga_sim *sim, unsigned int n, u64 dsm,
		     const struct fpga_sim_dsm_word *w, unsigned int num);
void fpga_sim_dma_fault(struct fpga_sim *sim, unsigned int n);
bool fpga_sim_dma_test_step(struct fpga_sim *sim, unsigned int n,
			    const struct fpga_sim_dma_test *t);
void fpga_sim_dma_test_reset(struct fpga_sim *sim, unsigned int n);

/* sim-nlb.c, sim-nlb3.c, sim-he.c */
extern const struct fpga_sim_afu_model fpga_sim_nlb0_model;
extern const struct fpga_sim_afu_model fpga_sim_nlb3_model;
extern const struct fpga_sim_afu_model fpga_sim_he_lb_model;

/* sim-afu.c */
const struct fpga_sim_afu_model *fpga_sim_afu_model_find(u64 guid_h,
							 u64 guid_l);
void fpga_sim_afu_load(struct fpga_sim *sim, unsigned int n,
		       const struct fpga_sim_afu_model *model);

/* sim-pr.c */
void fpga_sim_pr_layout(struct fpga_sim *sim);
bool fpga_sim_pr_step(struct fpga_sim *sim);
void fpga_sim_pr_fini(struct fpga_sim *sim);

/* sim-error.c */
bool fpga_sim_error_step(struct fpga_sim *sim, unsigned int n);
void fpga_sim_error_raise(struct fpga_sim *sim, unsigned int n, u64 bits);
int fpga_sim_error_inject(struct fpga_sim *sim, unsigned int n, u64 bits);
void fpga_sim_error_reset(struct fpga_sim *sim, unsigned int n);
bool fpga_sim_fme_error_step(struct fpga_sim *sim);

/* sim-counters.c */
void fpga_sim_cntr_layout(struct fpga_sim *sim, size_t next, bool eol);
void fpga_sim_cntr_add(struct fpga_sim *sim, unsigned int port,
		       unsigned int event, u64 val);
void fpga_sim_cntr_tick(struct fpga_sim *sim);
u64 fpga_sim_cntr_clocks(struct fpga_sim *sim, ktime_t start);
u64 fpga_sim_afu_busy(struct fpga_sim *sim, unsigned int n, ktime_t start);
u64 fpga_sim_cntr_get(struct fpga_sim *sim, unsigned int port,
		      unsigned int event);

/* sim-sensors.c */
void fpga_sim_sensors_layout(struct fpga_sim *sim);
void fpga_sim_sensors_tick(struct fpga_sim *sim);
void fpga_sim_sensors_step(struct fpga_sim *sim, unsigned int ticks);
extern const struct attribute_group fpga_sim_sensors_group;

#endif /* _FPGA_SIM_H */
