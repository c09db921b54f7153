/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_dfl: the DFL enumeration core and the fpga_dfl bus.
 *
 * A card driver (PCI glue or the simulated card) describes its MMIO window
 * in a struct fpga_dfl_card_info and calls fpga_dfl_card_add().  The core
 * walks the Device Feature List found there and registers one device per
 * FIU (FME or port) on the fpga_dfl bus, carrying its private features and
 * its AFU.  Feature drivers (port, FME, uio_fpga) bind to those devices.
 */
#ifndef _FPGA_DFL_CORE_H
#define _FPGA_DFL_CORE_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/compiler_types.h>
#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/srcu.h>
#include <linux/poll.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <fpga-suite/dfl-regs.h>
#include <fpga-suite/fpga-kunit.h>

#define FPGA_DFL_MODALIAS_FMT	"fpga_dfl:t%04Xf%04X"

struct fpga_dfl_card;

/*
 * What the DMA of a card's ports can reach (Documentation/security.md),
 * as the dma_isolation attribute shows it
 */
enum fpga_dfl_dma_isolation {
	FPGA_DFL_DMA_UNTRANSLATED,	/* "none": addresses are physical */
	FPGA_DFL_DMA_PER_CARD,		/* "card": one IOMMU domain per card */
	FPGA_DFL_DMA_PER_PORT,		/* "port": one domain per port */
};

/**
 * struct fpga_dfl_card_info - what a card driver tells the core
 * @parent:	the card's device; it performs DMA for the card's ports,
 *		and its name is the card's (netlink's CARD_NAME)
 * @region_parent: optional: where the card's fpga_region devices go
 *		(tools such as OPAE want a PCI function there); else @parent
 * @card_dir:	put the FME and ports in a directory of their own,
 *		dfl-card.N under @parent, not in @parent itself: OPAE finds
 *		a card's FME through the first "fpga*" entry of a PCI
 *		function, which must be its fpga_region class directory
 * @ioaddr:	kernel mapping of the MMIO window holding the DFL
 * @start:	physical address of the window (for user mmap)
 * @len:	length of the window in bytes
 * @first:	offset of the list's first DFH in the window (usually 0)
 * @bar:	PCI BAR the window is (0 otherwise): the FME's port offset
 *		registers name a BAR, and only ports in this one are walked
 * @cacheable:	the window is ordinary memory, to be mapped cacheable
 * @dma_isolation: whether and how an IOMMU confines the card's DMA
 * @port_dma_devs: optional: the device performing each port's DMA, by
 *		the port's number (a domain per port); else @parent does all
 * @num_port_dma_devs: number of entries in @port_dma_devs
 * @owner:	the card driver's module (THIS_MODULE), where the release of
 *		@port_dma_devs lives: held while a driver holds one of them
 *		outside an unplug section
 * @irqs:	Linux irq number of each interrupt vector of the card
 * @num_irqs:	number of entries in @irqs
 */
struct fpga_dfl_card_info {
	struct device *parent;
	struct device *region_parent;
	bool card_dir;
	void __iomem *ioaddr;
	phys_addr_t start;
	resource_size_t len;
	resource_size_t first;
	u8 bar;
	bool cacheable;
	enum fpga_dfl_dma_isolation dma_isolation;
	struct device * const *port_dma_devs;
	unsigned int num_port_dma_devs;
	struct module *owner;
	const int *irqs;
	unsigned int num_irqs;
};

/**
 * struct fpga_dfl_feature - one private feature or the AFU of a FIU
 * @id:		feature id (DFH bits 11:0)
 * @type:	DFH type
 * @dfh_version: 0 or 1
 * @revision:	DFH revision
 * @ioaddr:	kernel mapping of the feature's registers
 * @start:	physical address of the registers
 * @size:	size of the register block
 * @irq_count:	number of interrupts the feature has (0 if none)
 * @irqs:	their Linux irq numbers
 */
struct fpga_dfl_feature {
	u16 id;
	u8 type;
	u8 dfh_version;
	u8 revision;
	void __iomem *ioaddr;
	phys_addr_t start;
	resource_size_t size;
	unsigned int irq_count;
	int *irqs;
};

/**
 * struct fpga_dfl_unplug - the unplug guard (dfl-unplug.c)
 * @srcu:	read sections around every access to the hardware
 * @gone:	set by fpga_dfl_unplug(); no section is entered after it
 * @gone_wait:	woken by fpga_dfl_unplug(), for poll()
 */
struct fpga_dfl_unplug {
	struct srcu_struct srcu;
	bool gone;
	wait_queue_head_t gone_wait;
};

int __fpga_dfl_unplug_init(struct fpga_dfl_unplug *up, const char *name,
			   struct lock_class_key *key);
/* A guard, not unplugged; 0 or -ENOMEM.  Each call site is a lock class. */
#define fpga_dfl_unplug_init(up)					\
({									\
	static struct lock_class_key __fpga_dfl_unplug_key;		\
									\
	__fpga_dfl_unplug_init((up), #up, &__fpga_dfl_unplug_key);	\
})
void fpga_dfl_unplug_cleanup(struct fpga_dfl_unplug *up);
void fpga_dfl_unplug(struct fpga_dfl_unplug *up);
struct file;
__poll_t fpga_dfl_unplug_poll(struct fpga_dfl_unplug *up, struct file *file,
			      poll_table *wait);

/**
 * fpga_dfl_hw_enter() - enter a section of @up, to touch the hardware
 * @up: the guard
 * @idx: the section's index, for fpga_dfl_hw_exit()
 *
 * The section may sleep, but must not wait for user memory (a copy, a
 * pin): a fault that never resolves (userfaultfd, a stuck FUSE daemon)
 * would hold up the removal with it.
 *
 * Return: true if entered; false, and not entered, once unplugged.
 */
static inline bool fpga_dfl_hw_enter(struct fpga_dfl_unplug *up, int *idx)
{
	*idx = srcu_read_lock(&up->srcu);
	if (READ_ONCE(up->gone)) {
		srcu_read_unlock(&up->srcu, *idx);
		return false;
	}
	return true;
}

/* Leave the section fpga_dfl_hw_enter() entered */
static inline void fpga_dfl_hw_exit(struct fpga_dfl_unplug *up, int idx)
{
	srcu_read_unlock(&up->srcu, idx);
}

/* A hint outside a section: only a section's answer holds */
static inline bool fpga_dfl_unplugged(struct fpga_dfl_unplug *up)
{
	return READ_ONCE(up->gone);
}

/**
 * struct fpga_dfl_device - an FME or a port on the fpga_dfl bus
 * @dev:	the device; released when the last reference is dropped
 * @fiu_id:	DFH_ID_FIU_FME or DFH_ID_FIU_PORT
 * @id:		FME: card number; port: system-wide port number
 * @port_num:	port: its number on the card, the n of the FME register
 *		FME_HDR_PORT_OFST(n) naming it (DFL_FPGA_FME_PORT_PR's
 *		port_id); a card with a port not implemented or a VF's has
 *		a gap in them
 * @card_id:	number of the card the FIU belongs to
 * @card:	the card, for the core only (its FIUs, programming)
 * @card_name:	the name of the card's device (fpga_dfl_card_info.parent),
 *		copied: a netlink dump may hold @dev after the card is gone
 * @dma_dev:	the device that performs DMA for this FIU (the card, or
 *		the port's own DMA device)
 * @dma_owner:	the module @dma_dev's release runs in (the card driver's)
 * @cacheable:	registers are ordinary memory (simulated card)
 * @dma_isolation: what the card's DMA can reach
 * @hdr:	the FIU header registers
 * @features:	private features, in list order
 * @num_features: number of entries in @features
 * @afu:	the AFU behind a port (size 0 if there is none)
 * @afu_guid_l: low 64 bits of the AFU's GUID
 * @afu_guid_h: high 64 bits of the AFU's GUID
 * @driver_override: name of the only driver allowed to bind, or NULL;
 *		only on kernels whose driver core keeps no driver_override of
 *		its own (fpga-compat.h: fpga_driver_override_*())
 * @region:	the fpga_region device the driver puts its upstream-named
 *		node (dfl-fme.N, dfl-port.N) under; NULL if there is none
 *		(the kernel has its own FPGA core)
 * @unplug:	the core's own register reads (the netlink dump) run in its
 *		sections; fpga_dfl_card_remove() unplugs it first
 *
 * Everything here describes hardware: it must not be touched after the
 * bound driver's remove() has returned, because the card may be gone.
 */
struct fpga_dfl_device {
	struct device dev;
	u16 fiu_id;
	int id;
	unsigned int port_num;
	int card_id;
	struct fpga_dfl_card *card;
	const char *card_name;
	struct device *dma_dev;
	struct module *dma_owner;
	bool cacheable;
	enum fpga_dfl_dma_isolation dma_isolation;
	struct fpga_dfl_feature hdr;
	struct fpga_dfl_feature *features;
	unsigned int num_features;
	struct fpga_dfl_feature afu;
	u64 afu_guid_l;
	u64 afu_guid_h;
	const char *driver_override;
	struct device *region;
	struct fpga_dfl_unplug unplug;
};

#define to_fpga_dfl_device(d) container_of(d, struct fpga_dfl_device, dev)

/**
 * struct fpga_dfl_device_id - what a feature driver binds to
 * @type:	DFH type (DFH_TYPE_FIU)
 * @fiu_id:	DFH_ID_FIU_FME or DFH_ID_FIU_PORT
 */
struct fpga_dfl_device_id {
	u16 type;
	u16 fiu_id;
};

/**
 * struct fpga_dfl_driver - a feature driver on the fpga_dfl bus
 * @drv:	the driver
 * @id_table:	FIUs it binds to, ending with a zeroed entry
 * @probe:	bind to a device
 * @remove:	unbind; the hardware must not be touched afterwards
 * @reset:	optional: reset the port (netlink PORT_RESET); called with
 *		the device lock held, so the driver stays bound meanwhile
 * @clear_errors: optional: clear the port errors given, which must be the
 *		current ones (netlink PORT_CLEAR_ERRORS); device lock held
 * @program:	optional, an FME's: program the AFU behind its card's port
 *		@port_num with the bitstream @buf of @len bytes (netlink
 *		PORT_PROGRAM); device lock held
 * @busy:	optional, a port's: a file holds the port, which is then not
 *		released (DFL_FPGA_FME_PORT_RELEASE); device lock held
 */
struct fpga_dfl_driver {
	struct device_driver drv;
	const struct fpga_dfl_device_id *id_table;
	int (*probe)(struct fpga_dfl_device *fdev);
	void (*remove)(struct fpga_dfl_device *fdev);
	int (*reset)(struct fpga_dfl_device *fdev);
	int (*clear_errors)(struct fpga_dfl_device *fdev, u64 errors);
	int (*program)(struct fpga_dfl_device *fdev, unsigned int port_num,
		       const void *buf, size_t len);
	bool (*busy)(struct fpga_dfl_device *fdev);
};

#define to_fpga_dfl_driver(d) container_of(d, struct fpga_dfl_driver, drv)

struct fpga_dfl_irqs;

/**
 * struct fpga_dfl_irq - one interrupt of a feature, maybe bound to an eventfd
 * @irq:	Linux irq number, requested from probe to remove
 * @trigger_lock: protects @trigger against the handler
 * @trigger:	eventfd signalled on each interrupt, NULL when unbound
 * @delivered:	counts what @trigger is signalled for the file that bound
 *		it (fdinfo), or NULL; under @trigger_lock
 * @name:	name given to request_irq()
 * @owner:	the feature's interrupts this one belongs to
 * @nl_count:	interrupts not yet announced on netlink
 * @undelivered: interrupts counted in hard-irq context and not yet
 *		delivered by the handler's thread (PREEMPT_RT only)
 */
struct fpga_dfl_irq {
	int irq;
	spinlock_t trigger_lock;	/* @trigger vs the handler */
	struct eventfd_ctx *trigger;
	atomic64_t *delivered;
	char name[32];
	struct fpga_dfl_irqs *owner;
	atomic_t nl_count;
	atomic_t undelivered;
};

/**
 * struct fpga_dfl_irqs - the interrupts of one feature (error, UINT)
 * @lock:	serialises binding and unbinding
 * @present:	the FIU has the feature (its ioctls are answered)
 * @count:	number of interrupts
 * @irqs:	one entry per interrupt
 * @fdev:	the FME or port
 * @feature_id:	the private feature
 * @nl_work:	announces interrupt counts (and port errors) on netlink,
 *		at most once per FPGA_DFL_NL_IRQ_PERIOD
 */
struct fpga_dfl_irqs {
	struct mutex lock;	/* binding and unbinding */
	bool present;
	unsigned int count;
	struct fpga_dfl_irq *irqs;
	struct fpga_dfl_device *fdev;
	u16 feature_id;
	struct delayed_work nl_work;
};

int fpga_dfl_irqs_init(struct fpga_dfl_irqs *irqs, struct fpga_dfl_device *fdev,
		       u16 feature_id, const char *what);
long fpga_dfl_ioctl_irq_num(const struct fpga_dfl_irqs *irqs, void __user *arg);

/**
 * struct fpga_dfl_irq_set - a DFL_FPGA_*_SET_IRQ argument, copied in
 * @start:	first vector
 * @count:	number of vectors, and of @fds
 * @fds:	an eventfd per vector, < 0 to unbind
 * @delivered:	the binding file's count of interrupts delivered, or NULL;
 *		it must outlive the binding or be forgotten first
 *		(fpga_dfl_irqs_forget())
 */
struct fpga_dfl_irq_set {
	unsigned int start;
	unsigned int count;
	s32 *fds;
	atomic64_t *delivered;
};

int fpga_dfl_irq_set_copy(const struct fpga_dfl_irqs *irqs, void __user *arg,
			  struct fpga_dfl_irq_set *set);
void fpga_dfl_irq_set_free(struct fpga_dfl_irq_set *set);
int fpga_dfl_irqs_bind(struct fpga_dfl_irqs *irqs,
		       const struct fpga_dfl_irq_set *set);
void fpga_dfl_irqs_forget(struct fpga_dfl_irqs *irqs, atomic64_t *delivered);
void fpga_dfl_irqs_unbind_all(struct fpga_dfl_irqs *irqs);
void fpga_dfl_irqs_free(struct fpga_dfl_irqs *irqs);

struct fpga_dfl_card *fpga_dfl_card_add(const struct fpga_dfl_card_info *info);
void fpga_dfl_card_remove(struct fpga_dfl_card *card);

/**
 * struct fpga_dfl_vf_regs - the registers of the port a VF presents
 * @hdr:	the port's header (kernel mapping); its features follow it
 * @start:	the header's physical address
 * @afu_ofs:	where the AFU starts, from @hdr (the header's NEXT_AFU)
 * @afu_size:	the AFU's MMIO size (PORT_CAP_MMIO_SIZE)
 * @cacheable:	the registers are ordinary memory (a simulated card)
 * @dma_isolation: how the card's IOMMU confines the port's DMA
 * @card_id:	the card's number
 * @port_num:	the port's number on the card
 */
struct fpga_dfl_vf_regs {
	void __iomem *hdr;
	phys_addr_t start;
	resource_size_t afu_ofs;
	resource_size_t afu_size;
	bool cacheable;
	enum fpga_dfl_dma_isolation dma_isolation;
	int card_id;
	unsigned int port_num;
};

/* SR-IOV (dfl-sriov.c): VFs present the card's released ports */
int fpga_dfl_card_sriov_enable(struct fpga_dfl_card *card,
			       unsigned int num_vfs);
void fpga_dfl_card_sriov_disable(struct fpga_dfl_card *card);
int fpga_dfl_card_vf_port(struct fpga_dfl_card *card, unsigned int vf);
int fpga_dfl_card_vf_regs(struct fpga_dfl_card *card, unsigned int vf,
			  struct fpga_dfl_vf_regs *regs);
int fpga_dfl_card_vf_sftrst(struct fpga_dfl_card *card, unsigned int vf,
			    bool reset);
int fpga_dfl_card_vf_irqs(struct fpga_dfl_card *card, unsigned int vf,
			  int *irqs, unsigned int max);

/**
 * struct fpga_dfl_node - an FIU's upstream-named node, dfl-fme.N or
 * dfl-port.N, under its region (dfl-region.c)
 * @dev:	the device, with the driver's attributes; drvdata is the
 *		driver's object
 * @cdev:	its character device, minor N
 * @holder:	the device whose release frees the driver's object: held
 *		until @dev is released
 */
struct fpga_dfl_node {
	struct device dev;
	struct cdev cdev;
	struct device *holder;
};

/**
 * struct fpga_dfl_node_info - what a driver's nodes are
 * @prefix:	"dfl-fme" or "dfl-port"; the node is PREFIX.N
 * @devt:	the driver's region of device numbers (minor N)
 * @minors:	its size
 * @class:	the class of the driver's own nodes (the udev rule's
 *		subsystem)
 * @groups:	the attributes, reading drvdata
 * @fops:	the file operations, the same as the driver's own node's
 */
struct fpga_dfl_node_info {
	const char *prefix;
	dev_t devt;
	unsigned int minors;
	struct class *class;
	const struct attribute_group **groups;
	const struct file_operations *fops;
};

/* The driver's object behind an open of a node's character device */
static inline void *fpga_dfl_node_drvdata(struct cdev *cdev)
{
	return dev_get_drvdata(&container_of(cdev, struct fpga_dfl_node,
					     cdev)->dev);
}

struct fpga_dfl_node *fpga_dfl_node_add(struct fpga_dfl_device *fdev,
					const struct fpga_dfl_node_info *info,
					void *drvdata, struct device *holder);
void fpga_dfl_node_del(struct fpga_dfl_node *node);

/* The FME's PR region, where OPAE reads the interface id (dfl-region.c) */
struct fpga_dfl_pr_region;
struct fpga_dfl_pr_region *fpga_dfl_pr_region_add(struct fpga_dfl_node *node,
						  u64 id_h, u64 id_l);
void fpga_dfl_pr_region_del(struct fpga_dfl_pr_region *pr);

/* DMA isolation policy (dfl-dma.c) */
struct cred;
struct vm_area_struct;

/**
 * struct fpga_dfl_dma_grant - whom a file's DMA was last allowed to, by right
 * @cred:	those credentials, held; NULL until then
 *
 * Zeroed with the file; fpga_dfl_dma_grant_forget() when it is released.
 */
struct fpga_dfl_dma_grant {
	const struct cred *cred;
};

const char *fpga_dfl_dma_isolation_name(enum fpga_dfl_dma_isolation iso);
bool fpga_dfl_dma_trusted(struct fpga_dfl_device *fdev);
int fpga_dfl_dma_permitted(struct fpga_dfl_device *fdev,
			   struct fpga_dfl_dma_grant *grant, const char *what);
void fpga_dfl_dma_grant_forget(struct fpga_dfl_dma_grant *grant);
int fpga_dfl_remote_access_permitted(struct vm_area_struct *vma, int write);

/**
 * struct fpga_dfl_dma_ref - a FIU's DMA device, held past an unplug section
 * @dev:	the device
 * @owner:	the module its release runs in, held too
 */
struct fpga_dfl_dma_ref {
	struct device *dev;
	struct module *owner;
};

int fpga_dfl_dma_ref_get(struct fpga_dfl_device *fdev,
			 struct fpga_dfl_dma_ref *ref);
void fpga_dfl_dma_ref_put(struct fpga_dfl_dma_ref *ref);

/**
 * fpga_dfl_find_feature() - a private feature of an FME or port
 * @fdev: the FIU
 * @id: feature id
 *
 * Return: the first feature with that id, or NULL.
 */
static inline struct fpga_dfl_feature *
fpga_dfl_find_feature(struct fpga_dfl_device *fdev, u16 id)
{
	unsigned int i;

	for (i = 0; i < fdev->num_features; i++)
		if (fdev->features[i].id == id)
			return &fdev->features[i];
	return NULL;
}

/**
 * struct fpga_dfl_cntr_cap - what a card's counter bank has (CNTR_CAP)
 * @num_ports:	ports with counters, at most FME_MAX_PORTS
 * @num_events:	counters per port, at most the CNTR_NUM_EVENTS we know
 * @clock_mhz:	the clock CNTR_CLOCK and CNTR_EVT_AFU_BUSY count;
 *		0 if the bank does not say
 */
struct fpga_dfl_cntr_cap {
	unsigned int num_ports;
	unsigned int num_events;
	unsigned int clock_mhz;
};

/* The card's counter bank (dfl-counters.c) */
void fpga_dfl_cntr_cap(const struct fpga_dfl_feature *bank,
		       struct fpga_dfl_cntr_cap *cap);
int fpga_dfl_port_cntr(struct fpga_dfl_device *port, unsigned int event,
		       u64 *val, unsigned int *clock_mhz);
u64 fpga_dfl_cntr_clocks_to_ns(u64 clocks, unsigned int clock_mhz);

/*
 * Port soft reset (dfl-reset.c); the caller serialises resets of a port.
 * Drivers that own ports offer the core's reset_timeout_us under their
 * own name too: module_param_cb(reset_timeout_us,
 * &fpga_dfl_reset_timeout_ops, &fpga_dfl_reset_timeout_us, 0644).
 */
int fpga_dfl_timeout_us_set(const char *val, const struct kernel_param *kp,
			    unsigned int max_us, const char *what);
extern const struct kernel_param_ops fpga_dfl_reset_timeout_ops;
extern unsigned int fpga_dfl_reset_timeout_us;
int fpga_dfl_port_disable(struct fpga_dfl_device *fdev);
int fpga_dfl_port_enable(struct fpga_dfl_device *fdev);
int fpga_dfl_port_reset(struct fpga_dfl_device *fdev);
/* A port's sysfs "reset" for a driver's dev_groups: calls its @reset */
extern struct device_attribute fpga_dfl_dev_attr_reset;

/**
 * struct fpga_dfl_abandoned - DMA left mapped for an AFU that did not stop
 * @node:	entry in the card's list for the port (the core's)
 * @release:	unmaps, unpins, uncharges and frees it, @ab included; runs
 *		once the AFU is stopped, in process context
 * @owner:	the module @release is in, held by the driver for the core
 *		(dropped once @release has run), or NULL
 *
 * Kept by the core per card and port number (dfl-reset.c): the port's
 * device, and the driver that abandoned it, may go, the mappings stay in
 * the port's DMA domain, which the card owns.  First in the driver's
 * allocation: one the core cannot release stays, for kmemleak, by it.
 */
struct fpga_dfl_abandoned {
	struct list_head node;
	void (*release)(struct fpga_dfl_abandoned *ab);
	struct module *owner;
};

void fpga_dfl_port_abandon(struct fpga_dfl_device *fdev,
			   struct fpga_dfl_abandoned *ab);
void fpga_dfl_port_abandon_coherent(struct fpga_dfl_device *fdev, size_t size,
				    void *cpu_addr, dma_addr_t dma_addr);
int fpga_dfl_port_check_abandoned(struct fpga_dfl_device *fdev);

/* Partial reconfiguration of the AFU behind a port (dfl-program.c) */
int fpga_dfl_port_program(struct fpga_dfl_device *fme, unsigned int port_num,
			  int (*program)(void *data), void *data);
/* A port released from the host and assigned back (dfl-program.c) */
int fpga_dfl_port_release(struct fpga_dfl_device *fme, unsigned int port_num);
int fpga_dfl_port_assign(struct fpga_dfl_device *fme, unsigned int port_num);
ssize_t fpga_dfl_ports_released_show(struct fpga_dfl_device *fme, char *buf);

int __fpga_dfl_driver_register(struct fpga_dfl_driver *drv,
			       struct module *owner);
void fpga_dfl_driver_unregister(struct fpga_dfl_driver *drv);

#define fpga_dfl_driver_register(drv) \
	__fpga_dfl_driver_register(drv, THIS_MODULE)

extern struct bus_type fpga_dfl_bus_type;

/* Events on the netlink group "events" (dfl-netlink.c) */
void fpga_dfl_nl_notify_errors_cleared(struct fpga_dfl_device *fdev,
				       u64 errors);

#endif /* _FPGA_DFL_CORE_H */
