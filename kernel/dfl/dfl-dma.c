// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may give a card's AFU DMA: the policy the port and UIO drivers share.
 *
 * Behind a translating IOMMU the AFU reaches only what was mapped for it.
 * Without one (no IOMMU, iommu=pt, an identity domain) the addresses the
 * AFU is given are physical: whoever can program its registers or map
 * buffers for it can make it read and write any memory, which is root.
 * On such a card those operations need CAP_SYS_RAWIO, unless the
 * administrator sets allow_unsafe_dma, which taints the kernel, as vfio's
 * enable_unsafe_noiommu_mode does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/sched.h>

#include <fpga-suite/dfl-core.h>

static bool fpga_dfl_allow_unsafe_dma;
module_param_named(allow_unsafe_dma, fpga_dfl_allow_unsafe_dma, bool, 0644);
MODULE_PARM_DESC(allow_unsafe_dma,
		 "Let users without CAP_SYS_RAWIO drive the DMA of cards no IOMMU translates: they can then reach all memory (taints the kernel; default off)");

static const char * const fpga_dfl_dma_isolation_names[] = {
	[FPGA_DFL_DMA_UNTRANSLATED]	= "none",
	[FPGA_DFL_DMA_PER_CARD]		= "card",
	[FPGA_DFL_DMA_PER_PORT]		= "port",
};

const char *fpga_dfl_dma_isolation_name(enum fpga_dfl_dma_isolation iso)
{
	if (iso >= ARRAY_SIZE(fpga_dfl_dma_isolation_names))
		return "unknown";
	return fpga_dfl_dma_isolation_names[iso];
}
EXPORT_SYMBOL_GPL(fpga_dfl_dma_isolation_name);

/**
 * fpga_dfl_dma_trusted() - may the caller drive this FIU's DMA, by right?
 * @fdev: the port
 *
 * As fpga_dfl_dma_permitted() without allow_unsafe_dma, and silent: for a
 * read-only mapping, which may keep the right to become writable
 * (VM_MAYWRITE) only where writing needs no exception.
 *
 * Return: true behind a translating IOMMU or with CAP_SYS_RAWIO.
 */
bool fpga_dfl_dma_trusted(struct fpga_dfl_device *fdev)
{
	return fdev->dma_isolation != FPGA_DFL_DMA_UNTRANSLATED ||
	       capable(CAP_SYS_RAWIO);
}
EXPORT_SYMBOL_GPL(fpga_dfl_dma_trusted);

/*
 * capable() asks every LSM, each time: on an untranslated card that was a
 * tenth of a one-page DMA map.  A struct cred never changes (setuid(),
 * capset() and the like install a new one), so the answer for the same
 * credentials is the same, and a file remembers the last ones that had
 * CAP_SYS_RAWIO.  It holds them, so that their address cannot come back
 * as another's.  What is lost is what a check at open loses too: an LSM
 * policy loaded later is not asked again for those credentials.
 */
static bool fpga_dfl_dma_granted(struct fpga_dfl_dma_grant *grant)
{
	return grant && READ_ONCE(grant->cred) == current_cred();
}

static void fpga_dfl_dma_grant(struct fpga_dfl_dma_grant *grant)
{
	const struct cred *old;

	if (!grant)
		return;
	old = xchg(&grant->cred, get_cred(current_cred()));
	if (old)
		put_cred(old);
}

/**
 * fpga_dfl_dma_grant_forget() - drop what a file remembered
 * @grant: the file's, when it is released
 */
void fpga_dfl_dma_grant_forget(struct fpga_dfl_dma_grant *grant)
{
	const struct cred *old = xchg(&grant->cred, NULL);

	if (old)
		put_cred(old);
}
EXPORT_SYMBOL_GPL(fpga_dfl_dma_grant_forget);

/**
 * fpga_dfl_dma_permitted() - may the caller drive this FIU's DMA?
 * @fdev: the port
 * @grant: the file's memory of who was allowed, or NULL to ask every time
 * @what: the operation, for the log
 *
 * For DMA mappings and for write access to the AFU's registers (which take
 * DMA addresses).  Always true behind a translating IOMMU.
 *
 * Return: 0, or -EPERM on an untranslated card for a caller without
 * CAP_SYS_RAWIO when allow_unsafe_dma is off.
 */
int fpga_dfl_dma_permitted(struct fpga_dfl_device *fdev,
			   struct fpga_dfl_dma_grant *grant, const char *what)
{
	if (fdev->dma_isolation != FPGA_DFL_DMA_UNTRANSLATED ||
	    fpga_dfl_dma_granted(grant))
		return 0;
	if (capable(CAP_SYS_RAWIO)) {
		fpga_dfl_dma_grant(grant);
		return 0;
	}
	if (READ_ONCE(fpga_dfl_allow_unsafe_dma)) {
		add_taint(TAINT_USER, LOCKDEP_STILL_OK);
		dev_warn_ratelimited(&fdev->dev,
				     "%s by %s[%d] without CAP_SYS_RAWIO on a card no IOMMU translates (allow_unsafe_dma)\n",
				     what, current->comm,
				     task_tgid_nr(current));
		return 0;
	}
	dev_info_ratelimited(&fdev->dev,
			     "%s refused: no IOMMU translates this card's DMA, which then reaches all memory; needs CAP_SYS_RAWIO\n",
			     what);
	return -EPERM;
}
EXPORT_SYMBOL_GPL(fpga_dfl_dma_permitted);

/**
 * fpga_dfl_dma_ref_get() - hold a FIU's DMA device past an unplug section
 * @fdev: the FIU, inside an unplug section
 * @ref: filled in
 *
 * For work that must not delay an unplug, such as a dma-buf attach that
 * faults in the whole buffer.  A port's own DMA device may be released by
 * code of the card's driver, which may be unloaded meanwhile: hold that
 * module as well, so the last put_device() finds its release.
 *
 * Return: 0, or -ENODEV if the card's driver is being unloaded.
 */
int fpga_dfl_dma_ref_get(struct fpga_dfl_device *fdev,
			 struct fpga_dfl_dma_ref *ref)
{
	if (!try_module_get(fdev->dma_owner))
		return -ENODEV;
	ref->owner = fdev->dma_owner;
	ref->dev = get_device(fdev->dma_dev);
	return 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_dma_ref_get);

/**
 * fpga_dfl_dma_ref_put() - drop what fpga_dfl_dma_ref_get() held
 * @ref: the reference
 */
void fpga_dfl_dma_ref_put(struct fpga_dfl_dma_ref *ref)
{
	put_device(ref->dev);
	module_put(ref->owner);
}
EXPORT_SYMBOL_GPL(fpga_dfl_dma_ref_put);

/**
 * fpga_dfl_remote_access_permitted() - may a debugger's access go through?
 * @vma: a mapping of the card's registers or DMA memory
 * @write: the access writes
 *
 * For the vm_ops .access of such a mapping, which serves ptrace and
 * /proc/PID/mem (get_user_pages() cannot reach PFN mappings).  A write is
 * refused where the mapping is not writable, as generic_access_phys()
 * decides: otherwise a descriptor opened read-only would write the AFU,
 * and with it choose where the card's DMA goes.
 *
 * Return: 0, or -EACCES for a write to a mapping that is not writable.
 */
int fpga_dfl_remote_access_permitted(struct vm_area_struct *vma, int write)
{
	if (write && !(vma->vm_flags & VM_WRITE))
		return -EACCES;
	return 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_remote_access_permitted);
