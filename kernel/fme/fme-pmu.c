// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fme: the card's counter bank (FME private feature 0xc0) as a perf
 * PMU named fpga_pmu_N, N being the card number.
 *
 * The counters are free running: an event samples its counter when it
 * starts and adds the difference on every read, so nothing is ever
 * programmed and any number of events may count at once.  Counting only:
 * system-wide events on one CPU (cpumask), no sampling, no per-task
 * events.  perf 6.1 finds every card with "fpga_pmu/.../" (it tries each
 * PMU named fpga_pmu_<digits>) and one with "fpga_pmu_N/.../".
 *
 * Lifetime.  In 6.1, perf_pmu_unregister() does not wait for the PMU's
 * events: it frees the per-CPU contexts they sit in, and perf still calls
 * the PMU (del, destroy) when their file is closed.  So removal of the card
 * only detaches the hardware: every active event takes a last reading,
 * and from then on reads return that value.  A card that takes the same
 * number attaches to the same PMU as a new generation; events of the old
 * card keep their last reading.  Once no card has the number and the last
 * event is destroyed, an RCU-tasks grace period later a work item
 * unregisters and frees the PMU (fpga_pmu_free_work()).  Nothing waits for
 * that grace period: on a loaded machine it takes many seconds.  Module
 * references taken by perf for each event keep the module, and the work
 * queue, around until then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <fpga-suite/dfl-core.h>
#include "fme.h"
#include "fme_trace.h"

/* ---- User ABI ---- */

/**
 * struct fpga_pmu_field - one field of perf_event_attr.config
 * @attr:	its file in format/
 * @lo:		first bit
 * @hi:		last bit
 */
struct fpga_pmu_field {
	struct device_attribute attr;
	unsigned int lo;
	unsigned int hi;
};

enum fpga_pmu_field_id {
	FPGA_PMU_FIELD_EVENT,
	FPGA_PMU_FIELD_EVTYPE,
	FPGA_PMU_FIELD_PORTID,
	FPGA_PMU_NUM_FIELDS,
};

static ssize_t fpga_pmu_format_show(struct device *dev,
				    struct device_attribute *attr, char *buf);

#define FPGA_PMU_FIELD(_name, _lo, _hi) {				\
	.attr	= __ATTR(_name, 0444, fpga_pmu_format_show, NULL),	\
	.lo	= (_lo),						\
	.hi	= (_hi),						\
}

/*
 * The one table of config fields (the upstream DFL layout): it makes the
 * format/ files, the decoding and the events/ strings.  Every other bit of
 * config, and all of config1 and config2, must be 0.
 */
static struct fpga_pmu_field fpga_pmu_fields[FPGA_PMU_NUM_FIELDS] = {
	[FPGA_PMU_FIELD_EVENT]	= FPGA_PMU_FIELD(event, 0, 11),
	[FPGA_PMU_FIELD_EVTYPE]	= FPGA_PMU_FIELD(evtype, 12, 15),
	[FPGA_PMU_FIELD_PORTID]	= FPGA_PMU_FIELD(portid, 16, 23),
};

static u64 fpga_pmu_field_mask(enum fpga_pmu_field_id id)
{
	return GENMASK_ULL(fpga_pmu_fields[id].hi, fpga_pmu_fields[id].lo);
}

static unsigned int fpga_pmu_field_get(u64 config, enum fpga_pmu_field_id id)
{
	return (config & fpga_pmu_field_mask(id)) >> fpga_pmu_fields[id].lo;
}

static u64 fpga_pmu_field_prep(enum fpga_pmu_field_id id, u64 val)
{
	return (val << fpga_pmu_fields[id].lo) & fpga_pmu_field_mask(id);
}

/* evtype 0: the card's clock (event 0, whole card only) */
#define FPGA_PMU_EVTYPE_BASIC	0x0
#define FPGA_PMU_EVENT_CLOCK	0x0
/* evtype 1: the counter bank, event = CNTR_EVT_*, per port or card */
#define FPGA_PMU_EVTYPE_BANK	0x1
/* portid of the card totals */
#define FPGA_PMU_PORTID_CARD	0xff

/**
 * struct fpga_pmu - the perf PMU of one card's counter bank
 * @pmu:	the perf PMU; callbacks find this structure from it
 * @node:	instance of the CPU hotplug state
 * @entry:	in fpga_pmu_list
 * @rcu:	the grace period after the last event went with the card
 * @free_work:	unregisters and frees the PMU after that grace period
 * @name:	"fpga_pmu_N"
 * @card_id:	N, the card number
 * @cpu:	the CPU events count on; written by the hotplug callback
 * @num_ports:	ports with counters (CNTR_CAP)
 * @num_events:	counters per port (CNTR_CAP)
 * @lock:	protects @num_ports, @num_events, @base, @generation,
 *		@registered, @nr_events, @grace_pending, @grace_generation,
 *		@active and the prev_count, count and state of every event
 *		while it is on @active
 * @base:	the counter bank's registers; NULL while no card has the
 *		number
 * @generation:	bumped each time a card attaches; an event reads the bank
 *		only while the card it was opened on is attached
 *		(hw.event_base holds its generation)
 * @registered:	perf_pmu_register() has returned: events may be created
 * @nr_events:	events initialised and not yet destroyed
 * @grace_pending: @rcu is queued
 * @grace_generation: @generation when it was queued
 * @active:	events added to the PMU (pmu->add) and not yet deleted
 */
struct fpga_pmu {
	struct pmu pmu;
	struct hlist_node node;
	struct list_head entry;
	struct rcu_head rcu;
	struct work_struct free_work;
	char name[32];
	int card_id;
	unsigned int cpu;
	unsigned int num_ports;
	unsigned int num_events;
	raw_spinlock_t lock;	/* base, nr_events, active, event counts */
	void __iomem *base;
	unsigned long generation;
	bool registered;
	unsigned int nr_events;
	bool grace_pending;
	unsigned long grace_generation;
	struct list_head active;
};

#define to_fpga_pmu(p) container_of(p, struct fpga_pmu, pmu)

static enum cpuhp_state fpga_pmu_cpuhp_state;
static struct workqueue_struct *fpga_pmu_wq;
/* Every registered PMU: a card added again finds its number's */
static LIST_HEAD(fpga_pmu_list);
static DEFINE_MUTEX(fpga_pmu_list_lock);	/* fpga_pmu_list */

/**
 * fpga_pmu_decode() - check an event's config and find its register
 * @num_ports: ports of the counter bank (CNTR_CAP)
 * @num_events: counters per port (CNTR_CAP)
 * @config: perf_event_attr.config
 * @reg: offset of the counter in the bank
 *
 * Return: 0, or -EINVAL for reserved bits, an unknown event type or
 * event, or a port the card does not have.
 */
int fpga_pmu_decode(unsigned int num_ports, unsigned int num_events,
		    u64 config, unsigned long *reg)
{
	unsigned int event = fpga_pmu_field_get(config, FPGA_PMU_FIELD_EVENT);
	unsigned int portid = fpga_pmu_field_get(config, FPGA_PMU_FIELD_PORTID);
	u64 known = 0;
	unsigned int port;
	int id;

	for (id = 0; id < FPGA_PMU_NUM_FIELDS; id++)
		known |= fpga_pmu_field_mask(id);
	if (config & ~known)
		return -EINVAL;
	switch (fpga_pmu_field_get(config, FPGA_PMU_FIELD_EVTYPE)) {
	case FPGA_PMU_EVTYPE_BASIC:
		if (event != FPGA_PMU_EVENT_CLOCK ||
		    portid != FPGA_PMU_PORTID_CARD)
			return -EINVAL;
		*reg = CNTR_CLOCK;
		return 0;
	case FPGA_PMU_EVTYPE_BANK:
		if (event >= num_events)
			return -EINVAL;
		if (portid == FPGA_PMU_PORTID_CARD)
			port = CNTR_CARD;
		else if (portid < num_ports)
			port = portid;
		else
			return -EINVAL;
		*reg = CNTR_REG(port, event);
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_pmu_decode);

/* ---- sysfs: format/, events/, cpumask ---- */

static ssize_t fpga_pmu_format_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct fpga_pmu_field *f = container_of(attr, struct fpga_pmu_field,
						attr);

	return sysfs_emit(buf, "config:%u-%u\n", f->lo, f->hi);
}

/* Filled from fpga_pmu_fields[] at module init */
struct attribute *fpga_pmu_format_attrs[FPGA_PMU_NUM_FIELDS + 1];
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_pmu_format_attrs);

static const struct attribute_group fpga_pmu_format_group = {
	.name	= "format",
	.attrs	= fpga_pmu_format_attrs,
};

/**
 * struct fpga_pmu_event_attr - one file of events/
 * @attr:	the sysfs attribute
 * @evtype:	event type of the event it names
 * @event:	the event it names; a .unit or .scale file names its
 *		event, so that both are shown or hidden together
 * @per_port:	the alias leaves portid to the user ("portid=?")
 * @text:	NULL for the alias itself, else the .unit or .scale text
 */
struct fpga_pmu_event_attr {
	struct device_attribute attr;
	unsigned int evtype;
	unsigned int event;
	bool per_port;
	const char *text;
};

/*
 * The config an alias stands for: the card total, or port 0 for a
 * per-port alias (to decide whether the card has it).  perf 6.1 ORs the
 * terms written after an alias into its config, so "dma_rd_bytes,portid=1"
 * would stay 0xff: per port is "port_dma_rd_bytes,portid=1".
 */
static u64 fpga_pmu_event_config(const struct fpga_pmu_event_attr *ea)
{
	return fpga_pmu_field_prep(FPGA_PMU_FIELD_EVENT, ea->event) |
	       fpga_pmu_field_prep(FPGA_PMU_FIELD_EVTYPE, ea->evtype) |
	       fpga_pmu_field_prep(FPGA_PMU_FIELD_PORTID,
				   ea->per_port ? 0 : FPGA_PMU_PORTID_CARD);
}

static ssize_t fpga_pmu_event_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct fpga_pmu_event_attr *ea =
		container_of(attr, struct fpga_pmu_event_attr, attr);
	u64 config = fpga_pmu_event_config(ea);
	int id, len = 0;

	if (ea->text)
		return sysfs_emit(buf, "%s\n", ea->text);
	for (id = 0; id < FPGA_PMU_NUM_FIELDS; id++) {
		len += sysfs_emit_at(buf, len, "%s%s=", id ? "," : "",
				     fpga_pmu_fields[id].attr.attr.name);
		if (id == FPGA_PMU_FIELD_PORTID && ea->per_port)
			len += sysfs_emit_at(buf, len, "?");
		else
			len += sysfs_emit_at(buf, len, "0x%02x",
					     fpga_pmu_field_get(config, id));
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

#define FPGA_PMU_EVENT_FILE(_file, _evtype, _event, _port, _text) {	\
	.attr = {							\
		.attr	= { .name = (_file), .mode = 0444 },		\
		.show	= fpga_pmu_event_show,				\
	},								\
	.evtype		= (_evtype),					\
	.event		= (_event),					\
	.per_port	= (_port),					\
	.text		= (_text),					\
}

/* A counter of the bank: NAME counts the card, port_NAME one port */
#define FPGA_PMU_CARD(_file, _event, _text)				\
	FPGA_PMU_EVENT_FILE(_file, FPGA_PMU_EVTYPE_BANK, _event, false, _text)
#define FPGA_PMU_PORT(_file, _event, _text)				\
	FPGA_PMU_EVENT_FILE(_file, FPGA_PMU_EVTYPE_BANK, _event, true, _text)

/* Every counter of the card, by name; bytes are shown as bytes */
static struct fpga_pmu_event_attr fpga_pmu_events[] = {
	FPGA_PMU_EVENT_FILE("clock", FPGA_PMU_EVTYPE_BASIC,
			    FPGA_PMU_EVENT_CLOCK, false, NULL),
	FPGA_PMU_CARD("dma_rd_bytes", CNTR_EVT_DMA_RD_BYTES, NULL),
	FPGA_PMU_PORT("port_dma_rd_bytes", CNTR_EVT_DMA_RD_BYTES, NULL),
	FPGA_PMU_CARD("dma_rd_bytes.unit", CNTR_EVT_DMA_RD_BYTES, "bytes"),
	FPGA_PMU_CARD("dma_rd_bytes.scale", CNTR_EVT_DMA_RD_BYTES, "1"),
	FPGA_PMU_PORT("port_dma_rd_bytes.unit", CNTR_EVT_DMA_RD_BYTES, "bytes"),
	FPGA_PMU_PORT("port_dma_rd_bytes.scale", CNTR_EVT_DMA_RD_BYTES, "1"),
	FPGA_PMU_CARD("dma_wr_bytes", CNTR_EVT_DMA_WR_BYTES, NULL),
	FPGA_PMU_PORT("port_dma_wr_bytes", CNTR_EVT_DMA_WR_BYTES, NULL),
	FPGA_PMU_CARD("dma_wr_bytes.unit", CNTR_EVT_DMA_WR_BYTES, "bytes"),
	FPGA_PMU_CARD("dma_wr_bytes.scale", CNTR_EVT_DMA_WR_BYTES, "1"),
	FPGA_PMU_PORT("port_dma_wr_bytes.unit", CNTR_EVT_DMA_WR_BYTES, "bytes"),
	FPGA_PMU_PORT("port_dma_wr_bytes.scale", CNTR_EVT_DMA_WR_BYTES, "1"),
	FPGA_PMU_CARD("dma_rd_lines", CNTR_EVT_DMA_RD_LINES, NULL),
	FPGA_PMU_PORT("port_dma_rd_lines", CNTR_EVT_DMA_RD_LINES, NULL),
	FPGA_PMU_CARD("dma_wr_lines", CNTR_EVT_DMA_WR_LINES, NULL),
	FPGA_PMU_PORT("port_dma_wr_lines", CNTR_EVT_DMA_WR_LINES, NULL),
	FPGA_PMU_CARD("user_irqs", CNTR_EVT_USER_IRQS, NULL),
	FPGA_PMU_PORT("port_user_irqs", CNTR_EVT_USER_IRQS, NULL),
	FPGA_PMU_CARD("error_irqs", CNTR_EVT_ERROR_IRQS, NULL),
	FPGA_PMU_PORT("port_error_irqs", CNTR_EVT_ERROR_IRQS, NULL),
	FPGA_PMU_CARD("resets", CNTR_EVT_RESETS, NULL),
	FPGA_PMU_PORT("port_resets", CNTR_EVT_RESETS, NULL),
	FPGA_PMU_CARD("dma_faults", CNTR_EVT_DMA_FAULTS, NULL),
	FPGA_PMU_PORT("port_dma_faults", CNTR_EVT_DMA_FAULTS, NULL),
	/* Periods of the clock event while the AFU runs a job */
	FPGA_PMU_CARD("afu_busy_clocks", CNTR_EVT_AFU_BUSY, NULL),
	FPGA_PMU_PORT("port_afu_busy_clocks", CNTR_EVT_AFU_BUSY, NULL),
};

/* Filled from fpga_pmu_events[] at module init */
struct attribute *fpga_pmu_event_attrs[ARRAY_SIZE(fpga_pmu_events) + 1];
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_pmu_event_attrs);

/*
 * An alias is shown only if the card has its counter, decided as for an
 * event: every alias shown is accepted.
 */
static umode_t fpga_pmu_event_is_visible(struct kobject *kobj,
					 struct attribute *attr, int i)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));
	struct fpga_pmu_event_attr *ea =
		container_of(attr, struct fpga_pmu_event_attr, attr.attr);
	struct fpga_pmu *fpmu = to_fpga_pmu(pmu);
	unsigned long reg;

	return fpga_pmu_decode(fpmu->num_ports, fpmu->num_events,
			       fpga_pmu_event_config(ea), &reg) ? 0 : attr->mode;
}

static const struct attribute_group fpga_pmu_events_group = {
	.name		= "events",
	.attrs		= fpga_pmu_event_attrs,
	.is_visible	= fpga_pmu_event_is_visible,
};

static ssize_t fpga_pmu_cpumask_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%*pbl\n",
			  cpumask_pr_args(cpumask_of(READ_ONCE(fpmu->cpu))));
}

static struct device_attribute fpga_pmu_cpumask_attr =
	__ATTR(cpumask, 0444, fpga_pmu_cpumask_show, NULL);

static struct attribute *fpga_pmu_cpumask_attrs[] = {
	&fpga_pmu_cpumask_attr.attr,
	NULL,
};

static const struct attribute_group fpga_pmu_cpumask_group = {
	.attrs	= fpga_pmu_cpumask_attrs,
};

static const struct attribute_group *fpga_pmu_attr_groups[] = {
	&fpga_pmu_format_group,
	&fpga_pmu_events_group,
	&fpga_pmu_cpumask_group,
	NULL,
};

/* ---- counting ---- */

/*
 * Add what the counter advanced since the last reading.  prev_count is
 * replaced by the new reading (upstream dfl-fme-perf only reads it, so
 * every read after the first counts again from the start).  Counters are
 * 64 bits wide and read with one 64-bit load; the difference is modulo
 * 2^64, so a wrap costs nothing.  Once the card is gone the count stays at
 * its last reading.
 */

/* May @event read the bank: is the card it was opened on still there? */
static bool fpga_pmu_event_live(struct fpga_pmu *fpmu,
				struct perf_event *event)
{
	lockdep_assert_held(&fpmu->lock);
	return fpmu->base && event->hw.event_base == fpmu->generation;
}

static void fpga_pmu_event_update(struct fpga_pmu *fpmu,
				  struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	if (!fpga_pmu_event_live(fpmu, event))
		return;
	now = readq(fpmu->base + hwc->config_base);
	prev = local64_xchg(&hwc->prev_count, now);
	local64_add(now - prev, &event->count);
}

static void fpga_pmu_event_read(struct perf_event *event)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&fpmu->lock, flags);
	fpga_pmu_event_update(fpmu, event);
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
}

static void fpga_pmu_event_start(struct perf_event *event, int pmu_flags)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long flags;

	raw_spin_lock_irqsave(&fpmu->lock, flags);
	if (fpga_pmu_event_live(fpmu, event))
		local64_set(&hwc->prev_count,
			    readq(fpmu->base + hwc->config_base));
	hwc->state = 0;
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
}

static void fpga_pmu_event_stop(struct perf_event *event, int pmu_flags)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long flags;

	raw_spin_lock_irqsave(&fpmu->lock, flags);
	if (!(hwc->state & PERF_HES_STOPPED)) {
		if (pmu_flags & PERF_EF_UPDATE)
			fpga_pmu_event_update(fpmu, event);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
}

static int fpga_pmu_event_add(struct perf_event *event, int pmu_flags)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&fpmu->lock, flags);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	list_add_tail(&event->active_entry, &fpmu->active);
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	trace_pmu_add(fpmu->card_id, event, pmu_flags);
	if (pmu_flags & PERF_EF_START)
		fpga_pmu_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void fpga_pmu_event_del(struct perf_event *event, int pmu_flags)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	unsigned long flags;

	fpga_pmu_event_stop(event, PERF_EF_UPDATE);
	raw_spin_lock_irqsave(&fpmu->lock, flags);
	list_del_init(&event->active_entry);
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	trace_pmu_del(fpmu->card_id, event, pmu_flags);
}

static bool fpga_pmu_release_begin(struct fpga_pmu *fpmu);
static void fpga_pmu_grace_done(struct rcu_head *rcu);

static void fpga_pmu_event_destroy(struct perf_event *event)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	unsigned long flags;
	bool release;

	raw_spin_lock_irqsave(&fpmu->lock, flags);
	fpmu->nr_events--;
	release = fpga_pmu_release_begin(fpmu);
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	if (release)
		call_rcu_tasks(&fpmu->rcu, fpga_pmu_grace_done);
}

/* Groups may hold this PMU's events and software events only */
static bool fpga_pmu_group_member_ok(struct perf_event *event,
				     struct perf_event *other)
{
	return other->pmu == event->pmu || is_software_event(other);
}

static int fpga_pmu_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;

	if (leader == event)
		return 0;
	if (!fpga_pmu_group_member_ok(event, leader))
		return -EINVAL;
	for_each_sibling_event(sibling, leader)
		if (!fpga_pmu_group_member_ok(event, sibling))
			return -EINVAL;
	return 0;
}

static int fpga_pmu_event_init(struct perf_event *event)
{
	struct fpga_pmu *fpmu = to_fpga_pmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	unsigned long flags;
	int ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;
	/* No overflow interrupt; perf checks too, after us */
	if (is_sampling_event(event))
		return -EOPNOTSUPP;
	/* Counters of the card, not of a task */
	if (event->cpu < 0 || event->attach_state & PERF_ATTACH_TASK)
		return -EINVAL;
	if (attr->config1 || attr->config2)
		return -EINVAL;
	ret = fpga_pmu_validate_group(event);
	if (ret)
		return ret;

	/*
	 * perf_pmu_register() of 6.1 makes the PMU's type known (idr, sysfs)
	 * before it allocates the per-CPU contexts, and perf_event_open()
	 * finds a PMU by type without waiting for it: an event created in
	 * between would be put in a context that is not there yet.  The
	 * attached card's layout decides which counters exist.
	 */
	raw_spin_lock_irqsave(&fpmu->lock, flags);
	if (fpmu->base && fpmu->registered)
		ret = fpga_pmu_decode(fpmu->num_ports, fpmu->num_events,
				      attr->config, &event->hw.config_base);
	else
		ret = -ENODEV;
	if (!ret) {
		event->hw.event_base = fpmu->generation;
		fpmu->nr_events++;
	}
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	if (ret)
		return ret;
	/* Whatever CPU was asked for, the PMU's CPU counts (cpumask) */
	event->cpu = READ_ONCE(fpmu->cpu);
	/*
	 * A read is an MMIO read of the card under fpmu->lock, right from
	 * any CPU: perf need not send an IPI to the PMU's CPU (an emulated
	 * VM's IPI costs more than ten reads: scale_bench's pmu_read)
	 */
	event->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
	event->destroy = fpga_pmu_event_destroy;
	return 0;
}

/* ---- CPU hotplug, lifetime ---- */

/* The PMU's CPU goes offline: move its events to another one */
static int fpga_pmu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct fpga_pmu *fpmu = hlist_entry_safe(node, struct fpga_pmu, node);
	unsigned int target;

	if (cpu != fpmu->cpu)
		return 0;
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	/* New events go to @target from now on */
	WRITE_ONCE(fpmu->cpu, target);
	perf_pmu_migrate_context(&fpmu->pmu, cpu, target);
	return 0;
}

/*
 * No card has the number any more and the last event is destroyed: start
 * the grace period that ends in fpga_pmu_free_work().  perf's
 * _free_event() calls ->destroy() before it drops the event's reference on
 * the CPU context (memory that perf_pmu_unregister() frees) and reads
 * pmu->module; it does not sleep in between.  One RCU-tasks grace period
 * waits for every task to switch voluntarily, so for those last accesses.
 *
 * Caller holds @fpmu->lock; if this returns true, it calls
 * call_rcu_tasks(&fpmu->rcu, fpga_pmu_grace_done) after unlocking.
 */
static bool fpga_pmu_release_begin(struct fpga_pmu *fpmu)
{
	lockdep_assert_held(&fpmu->lock);
	if (fpmu->base || fpmu->nr_events || fpmu->grace_pending)
		return false;
	fpmu->grace_pending = true;
	fpmu->grace_generation = fpmu->generation;
	return true;
}

static void fpga_pmu_grace_done(struct rcu_head *rcu)
{
	struct fpga_pmu *fpmu = container_of(rcu, struct fpga_pmu, rcu);

	/* perf_pmu_unregister() sleeps: not in an RCU callback */
	queue_work(fpga_pmu_wq, &fpmu->free_work);
}

/*
 * After the grace period: free the PMU, unless a card took the number
 * meanwhile.  If that card came and went, its events' last accesses may
 * have come after the grace period began: wait for another one.  The
 * hotplug instance goes first: a CPU going offline must not migrate an
 * unregistered PMU.  All under fpga_pmu_list_lock, so that a card added
 * either finds this PMU or none with its name.
 */
static void fpga_pmu_free_work(struct work_struct *work)
{
	struct fpga_pmu *fpmu = container_of(work, struct fpga_pmu, free_work);
	unsigned long flags;
	bool dead, again = false;

	mutex_lock(&fpga_pmu_list_lock);
	raw_spin_lock_irqsave(&fpmu->lock, flags);
	fpmu->grace_pending = false;
	dead = !fpmu->base && !fpmu->nr_events;
	if (dead && fpmu->generation != fpmu->grace_generation)
		again = fpga_pmu_release_begin(fpmu);
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	if (!dead || again) {
		mutex_unlock(&fpga_pmu_list_lock);
		if (again)
			call_rcu_tasks(&fpmu->rcu, fpga_pmu_grace_done);
		return;
	}
	list_del(&fpmu->entry);
	cpuhp_state_remove_instance_nocalls(fpga_pmu_cpuhp_state, &fpmu->node);
	perf_pmu_unregister(&fpmu->pmu);
	mutex_unlock(&fpga_pmu_list_lock);
	kfree(fpmu);
}

/* The PMU of card number @card_id, if it is still registered */
static struct fpga_pmu *fpga_pmu_find(int card_id)
{
	struct fpga_pmu *fpmu;

	lockdep_assert_held(&fpga_pmu_list_lock);
	list_for_each_entry(fpmu, &fpga_pmu_list, entry)
		if (fpmu->card_id == card_id)
			return fpmu;
	return NULL;
}

/* Ports and counters per port of a counter bank, within the register map */
static void fpga_pmu_read_cap(struct fpga_dfl_feature *feat,
			      unsigned int *num_ports, unsigned int *num_events)
{
	struct fpga_dfl_cntr_cap cap;

	fpga_dfl_cntr_cap(feat, &cap);
	*num_ports = cap.num_ports;
	*num_events = cap.num_events;
}

/*
 * A card takes the number of a removed one whose PMU is still registered
 * (events of the old card still open, or its release under way): the new
 * card takes the PMU over, so that adding a card never waits for perf.
 */
static int fpga_pmu_attach(struct fpga_pmu *fpmu, struct fpga_dfl_device *fdev,
			   struct fpga_dfl_feature *feat)
{
	unsigned int num_ports, num_events;
	unsigned long flags;
	bool relayout;

	lockdep_assert_held(&fpga_pmu_list_lock);
	fpga_pmu_read_cap(feat, &num_ports, &num_events);
	raw_spin_lock_irqsave(&fpmu->lock, flags);
	if (fpmu->base) {
		/* Card numbers are unique: never */
		raw_spin_unlock_irqrestore(&fpmu->lock, flags);
		return -EEXIST;
	}
	relayout = num_ports != fpmu->num_ports ||
		   num_events != fpmu->num_events;
	fpmu->num_ports = num_ports;
	fpmu->num_events = num_events;
	fpmu->generation++;
	fpmu->base = feat->ioaddr;
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	/* events/ lists what this card counts; decoding already follows it */
	if (relayout &&
	    sysfs_update_group(&fpmu->pmu.dev->kobj, &fpga_pmu_events_group))
		dev_warn(&fdev->dev, "%s: events/ not updated\n", fpmu->name);
	return 0;
}

static struct fpga_pmu *fpga_pmu_alloc(struct fpga_dfl_device *fdev,
				       struct fpga_dfl_feature *feat)
{
	struct fpga_pmu *fpmu;

	fpmu = kzalloc(sizeof(*fpmu), GFP_KERNEL);
	if (!fpmu)
		return NULL;
	fpga_pmu_read_cap(feat, &fpmu->num_ports, &fpmu->num_events);
	fpmu->card_id = fdev->card_id;
	snprintf(fpmu->name, sizeof(fpmu->name), "fpga_pmu_%d", fdev->card_id);
	raw_spin_lock_init(&fpmu->lock);
	INIT_LIST_HEAD(&fpmu->active);
	INIT_WORK(&fpmu->free_work, fpga_pmu_free_work);
	fpmu->base = feat->ioaddr;
	fpmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.capabilities	= PERF_PMU_CAP_NO_INTERRUPT |
				  PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups	= fpga_pmu_attr_groups,
		.event_init	= fpga_pmu_event_init,
		.add		= fpga_pmu_event_add,
		.del		= fpga_pmu_event_del,
		.start		= fpga_pmu_event_start,
		.stop		= fpga_pmu_event_stop,
		.read		= fpga_pmu_event_read,
	};
	return fpmu;
}

/* A PMU for a card number that has none: allocate and register it */
static struct fpga_pmu *fpga_pmu_create(struct fpga_dfl_device *fdev,
					struct fpga_dfl_feature *feat)
{
	struct fpga_pmu *fpmu;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&fpga_pmu_list_lock);
	fpmu = fpga_pmu_alloc(fdev, feat);
	if (!fpmu)
		return ERR_PTR(-ENOMEM);
	/* Cards spread over the CPUs, so that perf reads do not all IPI one */
	fpmu->cpu = cpumask_local_spread(fdev->card_id, dev_to_node(&fdev->dev));
	ret = cpuhp_state_add_instance_nocalls(fpga_pmu_cpuhp_state,
					       &fpmu->node);
	if (ret)
		goto err_free;
	/* The hotplug callback moves it from now on; it may be gone already */
	cpus_read_lock();
	if (!cpu_online(fpmu->cpu))
		fpmu->cpu = cpumask_first(cpu_online_mask);
	cpus_read_unlock();
	ret = perf_pmu_register(&fpmu->pmu, fpmu->name, -1);
	if (ret)
		goto err_remove_instance;
	raw_spin_lock_irqsave(&fpmu->lock, flags);
	fpmu->registered = true;
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	list_add_tail(&fpmu->entry, &fpga_pmu_list);
	return fpmu;

err_remove_instance:
	cpuhp_state_remove_instance_nocalls(fpga_pmu_cpuhp_state, &fpmu->node);
err_free:
	kfree(fpmu);
	return ERR_PTR(ret);
}

/**
 * fpga_pmu_card_add() - register the PMU of an FME's counter bank
 * @fdev: the FME
 *
 * A removed card's PMU that is still registered under the same number is
 * taken over (fpga_pmu_attach()).
 *
 * Return: the PMU; NULL if the card has no counter bank; an ERR_PTR on
 * failure.
 */
struct fpga_pmu *fpga_pmu_card_add(struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *feat;
	struct fpga_pmu *fpmu;
	int ret;

	feat = fpga_dfl_find_feature(fdev, FME_FEATURE_ID_COUNTERS);
	if (!feat)
		return NULL;
	if (feat->size < CNTR_SIZE) {
		dev_err(&fdev->dev, "counter bank of %llu bytes is too small\n",
			(unsigned long long)feat->size);
		return ERR_PTR(-EINVAL);
	}

	mutex_lock(&fpga_pmu_list_lock);
	fpmu = fpga_pmu_find(fdev->card_id);
	if (fpmu) {
		ret = fpga_pmu_attach(fpmu, fdev, feat);
		if (ret)
			fpmu = ERR_PTR(ret);
	} else {
		fpmu = fpga_pmu_create(fdev, feat);
	}
	mutex_unlock(&fpga_pmu_list_lock);
	return fpmu;
}

/**
 * fpga_pmu_card_remove() - the card goes away
 * @fpmu: its PMU, or NULL
 *
 * Every active event takes its last reading; no register is read after
 * this returns.  The PMU itself lives on until its last event is
 * destroyed, or a card with the same number takes it over.
 */
void fpga_pmu_card_remove(struct fpga_pmu *fpmu)
{
	struct perf_event *event;
	unsigned long flags;
	bool release;

	if (!fpmu)
		return;
	raw_spin_lock_irqsave(&fpmu->lock, flags);
	list_for_each_entry(event, &fpmu->active, active_entry)
		if (!(event->hw.state & PERF_HES_STOPPED))
			fpga_pmu_event_update(fpmu, event);
	fpmu->base = NULL;
	release = fpga_pmu_release_begin(fpmu);
	raw_spin_unlock_irqrestore(&fpmu->lock, flags);
	if (release)
		call_rcu_tasks(&fpmu->rcu, fpga_pmu_grace_done);
}

/* Module init: sysfs tables, the hotplug state, the release work queue */
int fpga_pmu_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < FPGA_PMU_NUM_FIELDS; i++)
		fpga_pmu_format_attrs[i] = &fpga_pmu_fields[i].attr.attr;
	for (i = 0; i < ARRAY_SIZE(fpga_pmu_events); i++)
		fpga_pmu_event_attrs[i] = &fpga_pmu_events[i].attr.attr;

	/* Its one work frees a PMU: any CPU will do */
	fpga_pmu_wq = alloc_workqueue("fpga_pmu", WQ_UNBOUND, 0);
	if (!fpga_pmu_wq)
		return -ENOMEM;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "fpga/pmu:online",
				      NULL, fpga_pmu_cpu_offline);
	if (ret < 0) {
		destroy_workqueue(fpga_pmu_wq);
		return ret;
	}
	fpga_pmu_cpuhp_state = ret;
	return 0;
}

/*
 * Module exit, after every FME is removed.  perf holds a module reference
 * per event, so none is left: every PMU's grace period is under way.  Its
 * end queues the free work, which may start one more grace period (a card
 * came and went during the first): wait until every PMU is freed.
 */
void fpga_pmu_exit(void)
{
	bool empty;

	do {
		/* call_rcu_tasks() is call_rcu() without CONFIG_TASKS_RCU */
		if (IS_ENABLED(CONFIG_TASKS_RCU))
			rcu_barrier_tasks();
		else
			rcu_barrier();
		flush_workqueue(fpga_pmu_wq);
		mutex_lock(&fpga_pmu_list_lock);
		empty = list_empty(&fpga_pmu_list);
		mutex_unlock(&fpga_pmu_list_lock);
	} while (!empty);
	destroy_workqueue(fpga_pmu_wq);
	cpuhp_remove_multi_state(fpga_pmu_cpuhp_state);
}
