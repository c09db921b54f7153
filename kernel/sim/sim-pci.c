// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated cards as PCI functions.
 *
 * Tools written for real cards find them through PCI: OPAE's xfpga takes
 * the parent of each fpga_region for a PCI function and reads its address,
 * vendor and device.  So fpga_sim owns a PCI host bridge with one root bus,
 * in a PCI domain nobody else uses (FPGA_SIM_PCI_DOMAIN or the next free
 * one), and answers that bus's configuration space itself, the way vmd
 * does for the buses behind it.  Card n's function sits in the first free
 * slot, its configuration space what sim-pci-cfg.c says; a card of board
 * n3000 has Intel's N3000 ids, which fpga_dfl_pci and upstream's dfl-pci
 * also match, so its driver_override names fpga_sim_pci before the
 * function is added.  The function carries the card's identity and its
 * fpga_region devices; registers, DMA and interrupts stay with the
 * fpga_sim device, as before.
 *
 * The function is bound to a driver of ours, fpga_sim_pci, whose only job
 * is its removal: "echo 1 > .../remove" is the card's surprise removal (its
 * FME and ports go, open files see -ENODEV), and the slot stays empty until
 * the card is deleted, so a rescan does not bring back a card without its
 * DFL.  A card added when every slot is taken has no PCI function.
 *
 * The driver's sriov_configure follows upstream's rule (dfl-sriov.c): as
 * many VFs as released ports.  The PCI core adds the VFs to the bus.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <fpga-suite/dfl-core.h>
#include <fpga-suite/sim-vf.h>
#include "fpga-compat.h"
#include "sim-pci.h"

#define FPGA_SIM_PCI_DOMAIN		0xf5a0
#define FPGA_SIM_PCI_DOMAIN_TRIES	16
#define FPGA_SIM_PCI_SLOTS		32

/**
 * struct fpga_sim_pci_slot - one slot of the bus
 * @sim:	the card in it, NULL if free
 * @ejected:	the card's function was removed: the slot answers nothing
 *		until the card is deleted
 * @cfg:	the configuration space of its functions
 */
struct fpga_sim_pci_slot {
	struct fpga_sim *sim;
	bool ejected;
	struct fpga_sim_pci_cfg cfg;
};

/* Config accessors run under the PCI core's raw pci_lock */
static DEFINE_RAW_SPINLOCK(fpga_sim_pci_lock);
static struct fpga_sim_pci_slot fpga_sim_pci_slots[FPGA_SIM_PCI_SLOTS];
static struct pci_bus *fpga_sim_pci_bus;
static struct pci_driver fpga_sim_pci_driver;
/* x86's pci_domain_nr() reads the domain from the bus's sysdata */
static struct pci_sysdata fpga_sim_pci_sysdata;

/*
 * The slot of @devfn if it holds that function (a card's PF, or one of its
 * VFs); under fpga_sim_pci_lock
 */
static struct fpga_sim_pci_slot *fpga_sim_pci_present(unsigned int devfn)
{
	struct fpga_sim_pci_slot *slot = &fpga_sim_pci_slots[PCI_SLOT(devfn)];

	if (!slot->sim || slot->ejected ||
	    !fpga_sim_pci_cfg_has_func(&slot->cfg, PCI_FUNC(devfn)))
		return NULL;
	return slot;
}

static int fpga_sim_pci_read(struct pci_bus *bus, unsigned int devfn,
			     int where, int size, u32 *val)
{
	struct fpga_sim_pci_slot *slot;
	unsigned long flags;

	raw_spin_lock_irqsave(&fpga_sim_pci_lock, flags);
	slot = fpga_sim_pci_present(devfn);
	if (!slot) {
		raw_spin_unlock_irqrestore(&fpga_sim_pci_lock, flags);
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	*val = fpga_sim_pci_cfg_read(&slot->cfg, PCI_FUNC(devfn), where, size);
	raw_spin_unlock_irqrestore(&fpga_sim_pci_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static int fpga_sim_pci_write(struct pci_bus *bus, unsigned int devfn,
			      int where, int size, u32 val)
{
	struct fpga_sim_pci_slot *slot;
	unsigned long flags;

	raw_spin_lock_irqsave(&fpga_sim_pci_lock, flags);
	slot = fpga_sim_pci_present(devfn);
	if (slot)
		fpga_sim_pci_cfg_write(&slot->cfg, PCI_FUNC(devfn), where,
				       size, val);
	raw_spin_unlock_irqrestore(&fpga_sim_pci_lock, flags);
	return slot ? PCIBIOS_SUCCESSFUL : PCIBIOS_DEVICE_NOT_FOUND;
}

static struct pci_ops fpga_sim_pci_ops = {
	.read	= fpga_sim_pci_read,
	.write	= fpga_sim_pci_write,
};

/* Take a free slot for @sim; its number, or -ENOSPC */
static int fpga_sim_pci_slot_take(struct fpga_sim *sim)
{
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&fpga_sim_pci_lock, flags);
	for (i = 0; i < FPGA_SIM_PCI_SLOTS; i++) {
		struct fpga_sim_pci_slot *slot = &fpga_sim_pci_slots[i];

		if (!slot->sim) {
			fpga_sim_pci_cfg_init(&slot->cfg, sim->board,
					      sim->num_ports);
			slot->ejected = false;
			slot->sim = sim;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&fpga_sim_pci_lock, flags);
	return i < FPGA_SIM_PCI_SLOTS ? i : -ENOSPC;
}

static void fpga_sim_pci_slot_set(int i, struct fpga_sim *sim, bool ejected)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fpga_sim_pci_lock, flags);
	fpga_sim_pci_slots[i].sim = sim;
	fpga_sim_pci_slots[i].ejected = ejected;
	raw_spin_unlock_irqrestore(&fpga_sim_pci_lock, flags);
}

static struct fpga_sim *fpga_sim_pci_slot_sim(unsigned int devfn)
{
	struct fpga_sim_pci_slot *slot;
	struct fpga_sim *sim = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&fpga_sim_pci_lock, flags);
	slot = fpga_sim_pci_present(devfn);
	if (slot)
		sim = slot->sim;
	raw_spin_unlock_irqrestore(&fpga_sim_pci_lock, flags);
	return sim;
}

/* A scan of one slot, from a work item */
struct fpga_sim_pci_scan {
	struct work_struct work;
	struct fpga_sim *sim;
	int devfn;
};

/*
 * Scan the slot, then add the function: between the two, nothing has
 * matched it with a driver yet, and a card with another vendor's ids gets
 * its driver_override (a failure to set it leaves the function unbound,
 * which fpga_sim_pci_add() takes for no function).
 */
static void fpga_sim_pci_scan_work(struct work_struct *work)
{
	struct fpga_sim_pci_scan *scan =
		container_of(work, struct fpga_sim_pci_scan, work);
	struct pci_dev *pdev;

	pci_lock_rescan_remove();
	/* The slot was free: the function is a new one, not added yet */
	pdev = pci_scan_single_device(fpga_sim_pci_bus, scan->devfn);
	if (pdev && (scan->sim->board == FPGA_SIM_BOARD_SIM ||
		     !fpga_pci_driver_override_set(pdev,
						   fpga_sim_pci_driver.name)))
		pci_bus_add_device(pdev);
	pci_unlock_rescan_remove();
}

/*
 * Scan from a work item, as a hotplug controller does.  Not only tidier:
 * pci_device_add() warns and keeps a half-added device if device_add()
 * fails, and the fault injection of the tests (which fails allocations of
 * the task writing new_device) must not reach it.
 */
static void fpga_sim_pci_scan(struct fpga_sim *sim, int devfn)
{
	struct fpga_sim_pci_scan scan = { .sim = sim, .devfn = devfn };

	INIT_WORK_ONSTACK(&scan.work, fpga_sim_pci_scan_work);
	queue_work(system_long_wq, &scan.work);
	flush_work(&scan.work);
	destroy_work_on_stack(&scan.work);
}

/**
 * fpga_sim_pci_add() - give @sim a PCI function
 * @sim: a card whose DFL is not enumerated yet
 *
 * Without a bus, a free slot or memory the card simply has no function
 * (sim->pdev stays NULL): it works, but tools that go by PCI miss it.
 */
void fpga_sim_pci_add(struct fpga_sim *sim)
{
	struct pci_dev *pdev;
	int slot;

	if (!fpga_sim_pci_bus)
		return;
	slot = fpga_sim_pci_slot_take(sim);
	if (slot < 0) {
		dev_info(&sim->dev, "all %d PCI slots are taken: no PCI function\n",
			 FPGA_SIM_PCI_SLOTS);
		return;
	}
	fpga_sim_pci_scan(sim, PCI_DEVFN(slot, 0));
	pdev = pci_get_slot(fpga_sim_pci_bus, PCI_DEVFN(slot, 0));
	sim->pdev = pdev;
	/* Unbound, a sysfs removal would not take the card's DFL with it */
	if (!pdev || pdev->dev.driver != &fpga_sim_pci_driver.driver) {
		dev_warn(&sim->dev, "no PCI function in slot %d\n", slot);
		if (pdev)
			fpga_sim_pci_del(sim);
		else
			fpga_sim_pci_slot_set(slot, NULL, false);
		return;
	}
	if (sysfs_create_link(&sim->dev.kobj, &pdev->dev.kobj, "pci_function"))
		dev_warn(&sim->dev, "no pci_function link\n");
}

/**
 * fpga_sim_pci_del() - remove @sim's PCI function, if it has one
 * @sim: the card, whose DFL is gone
 */
void fpga_sim_pci_del(struct fpga_sim *sim)
{
	struct pci_dev *pdev = sim->pdev;

	if (!pdev)
		return;
	sysfs_remove_link(&sim->dev.kobj, "pci_function");
	/* Already gone if it was removed through sysfs: then a no-op */
	pci_stop_and_remove_bus_device_locked(pdev);
	fpga_sim_pci_slot_set(PCI_SLOT(pdev->devfn), NULL, false);
	sim->pdev = NULL;
	pci_dev_put(pdev);
}

static int fpga_sim_pci_probe(struct pci_dev *pdev,
			      const struct pci_device_id *id)
{
	struct fpga_sim *sim;

	/* A card's PF only, whatever a driver_override says */
	if (pdev->bus != fpga_sim_pci_bus || PCI_FUNC(pdev->devfn))
		return -ENODEV;
	sim = fpga_sim_pci_slot_sim(pdev->devfn);
	if (!sim)
		return -ENODEV;
	pci_set_drvdata(pdev, sim);
	return 0;
}

/* The card's core state, under its card_lock: upstream's rule, dfl-sriov.c */
static int fpga_sim_pci_sriov_card(struct fpga_sim *sim, unsigned int num_vfs)
{
	int ret = 0;

	mutex_lock(&sim->card_lock);
	if (!sim->card)
		ret = num_vfs ? -ENODEV : 0;
	else if (num_vfs)
		ret = fpga_dfl_card_sriov_enable(sim->card, num_vfs);
	else
		fpga_dfl_card_sriov_disable(sim->card);
	mutex_unlock(&sim->card_lock);
	return ret;
}

/*
 * sriov_numvfs, under the PF's device lock.  The card's lock is not held
 * across pci_enable_sriov(): a VF's driver may look the card up as it
 * binds.  A card removed meanwhile disables the VFs (fpga_sim_pci_remove()).
 */
static int fpga_sim_pci_sriov_configure(struct pci_dev *pdev, int num_vfs)
{
	struct fpga_sim *sim = pci_get_drvdata(pdev);
	int ret;

	if (!num_vfs) {
		pci_disable_sriov(pdev);
		return fpga_sim_pci_sriov_card(sim, 0);
	}
	ret = fpga_sim_pci_sriov_card(sim, num_vfs);
	if (ret)
		return ret;
	ret = pci_enable_sriov(pdev, num_vfs);
	if (ret) {
		dev_err(&pdev->dev, "cannot enable %d VFs: %d\n", num_vfs, ret);
		fpga_sim_pci_sriov_card(sim, 0);
		return ret;
	}
	return num_vfs;
}

/*
 * The function is going: through sysfs "remove" (the card's surprise
 * removal), or from fpga_sim_pci_del() (the card's DFL is gone already).
 * The card device and its slot stay until the card is deleted.
 */
static void fpga_sim_pci_remove(struct pci_dev *pdev)
{
	struct fpga_sim *sim = pci_get_drvdata(pdev);

	/* The VFs go first, as on a PAC/OFS card: they present its ports */
	fpga_sim_pci_sriov_configure(pdev, 0);
	fpga_sim_card_unplug(sim);
	fpga_sim_pci_slot_set(PCI_SLOT(pdev->devfn), sim, true);
	sysfs_remove_link(&sim->dev.kobj, "pci_function");
}

/**
 * fpga_sim_pci_unplug() - take the card down, its VFs first: its deletion
 * @sim: the card
 *
 * Under the function's device lock, which sriov_numvfs takes too: no VF
 * can be enabled between the VFs' going and the card's.
 */
void fpga_sim_pci_unplug(struct fpga_sim *sim)
{
	struct pci_dev *pdev = sim->pdev;

	if (!pdev) {
		fpga_sim_card_unplug(sim);
		return;
	}
	device_lock(&pdev->dev);
	/* Not if the function was removed: its removal did it */
	if (pdev->dev.driver == &fpga_sim_pci_driver.driver)
		fpga_sim_pci_sriov_configure(pdev, 0);
	fpga_sim_card_unplug(sim);
	device_unlock(&pdev->dev);
}

/**
 * fpga_sim_vf_card() - the card a VF belongs to, for the VF's driver
 * @vf: a PCI function
 * @index: set to the VF's index on its card
 *
 * Context: from the VF's driver, while it is bound: the card disables its
 * VFs, which unbinds their driver, before it goes.
 * Return: the card, or NULL if @vf is not a simulated card's VF.
 */
struct fpga_dfl_card *fpga_sim_vf_card(struct pci_dev *vf, unsigned int *index)
{
	struct pci_dev *pf = pci_physfn(vf);
	struct fpga_sim *sim;

	if (!vf->is_virtfn || pf->bus != fpga_sim_pci_bus ||
	    pf->dev.driver != &fpga_sim_pci_driver.driver)
		return NULL;
	sim = pci_get_drvdata(pf);
	*index = pci_iov_vf_id(vf);
	return sim->card;
}
EXPORT_SYMBOL_GPL(fpga_sim_vf_card);

static const struct pci_device_id fpga_sim_pci_ids[] = {
	{ PCI_DEVICE(FPGA_SIM_PCI_VENDOR, FPGA_SIM_PCI_DEVICE) },
	{ }
};

static struct pci_driver fpga_sim_pci_driver = {
	.name		= "fpga_sim_pci",
	.id_table	= fpga_sim_pci_ids,
	.probe		= fpga_sim_pci_probe,
	.remove		= fpga_sim_pci_remove,
	.sriov_configure = fpga_sim_pci_sriov_configure,
	/* Unbinding would leave the regions under an unowned function */
	.driver.suppress_bind_attrs = true,
};

/* A root bus in the first domain from FPGA_SIM_PCI_DOMAIN that is free */
static struct pci_bus *fpga_sim_pci_create_bus(void)
{
	struct pci_bus *bus;
	LIST_HEAD(resources);
	int i;

	for (i = 0; i < FPGA_SIM_PCI_DOMAIN_TRIES; i++) {
		int domain = FPGA_SIM_PCI_DOMAIN + i;

		if (pci_find_bus(domain, 0))
			continue;
		fpga_sim_pci_sysdata.domain = domain;
		fpga_sim_pci_sysdata.node = NUMA_NO_NODE;
		bus = pci_create_root_bus(NULL, 0, &fpga_sim_pci_ops,
					  &fpga_sim_pci_sysdata, &resources);
		if (bus) {
			pci_bus_add_devices(bus);
			return bus;
		}
	}
	return NULL;
}

/**
 * fpga_sim_pci_init() - the bus and its driver, at module load
 *
 * Return: 0, or -errno if the driver cannot be registered.  A bus that
 * cannot be made costs the cards their PCI functions only.
 */
int fpga_sim_pci_init(void)
{
	int ret;

	ret = pci_register_driver(&fpga_sim_pci_driver);
	if (ret)
		return ret;
	pci_lock_rescan_remove();
	fpga_sim_pci_bus = fpga_sim_pci_create_bus();
	pci_unlock_rescan_remove();
	if (!fpga_sim_pci_bus)
		pr_warn("no free PCI domain from %04x: cards get no PCI function\n",
			FPGA_SIM_PCI_DOMAIN);
	return 0;
}

/* Module unload, every card deleted */
void fpga_sim_pci_exit(void)
{
	struct device *bridge;

	if (fpga_sim_pci_bus) {
		bridge = fpga_sim_pci_bus->bridge;
		pci_lock_rescan_remove();
		pci_stop_root_bus(fpga_sim_pci_bus);
		pci_remove_root_bus(fpga_sim_pci_bus);
		pci_unlock_rescan_remove();
		/*
		 * pci_remove_root_bus() only device_del()s the host bridge:
		 * the reference pci_create_root_bus() gave us is ours to put
		 */
		put_device(bridge);
		fpga_sim_pci_bus = NULL;
	}
	pci_unregister_driver(&fpga_sim_pci_driver);
}
