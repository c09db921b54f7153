// SPDX-License-Identifier: GPL-2.0-only
/*
 * Partial reconfiguration through the FME: DFL_FPGA_FME_PORT_PR.
 *
 * The bitstream is copied in before anything else, the core takes the
 * port away from its users and holds it in reset (dfl-program.c), and
 * meanwhile this file runs the card's PR engine: reset it, name the port
 * and START, hand the bitstream over, COMPLETE, and wait for the engine to
 * clear START.  Its error register then says whether the card took the
 * bitstream; what it said stays in errors/pr_err until the next try.
 *
 * Two ways to hand the bitstream over: the FIFO of the DFL PR feature
 * (32 bits a write, paced by credits), and the staging window of the
 * simulated card (FME_PR_STAGE_CAP).  The FIFO is what PAC cards have; no
 * model in this suite can play it (a register file that is polled cannot
 * see a register written twice), so only the window is tested here.
 *
 * Reprogramming changes what a card can do to the host, so it takes
 * CAP_SYS_ADMIN on top of a file open for writing (Documentation/pr.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/capability.h>
#include <linux/fpga-dfl.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "fpga-compat.h"
#include "fme.h"

/* The largest bitstream taken: a PAC's green bitstreams are tens of MiB */
#define FPGA_FME_PR_MAX_BYTES		(256 * SZ_1M)
#define FPGA_FME_PR_POLL_US		10
#define FPGA_FME_PR_TIMEOUT_MAX_US	60000000U

static unsigned int pr_timeout_us = 1000000;

static int fpga_fme_pr_timeout_set(const char *val,
				   const struct kernel_param *kp)
{
	return fpga_dfl_timeout_us_set(val, kp, FPGA_FME_PR_TIMEOUT_MAX_US,
				       "PR engine");
}

static const struct kernel_param_ops fpga_fme_pr_timeout_ops = {
	.set = fpga_fme_pr_timeout_set,
	.get = param_get_uint,
};
module_param_cb(pr_timeout_us, &fpga_fme_pr_timeout_ops, &pr_timeout_us,
		0644);
__MODULE_PARM_TYPE(pr_timeout_us, "uint");
MODULE_PARM_DESC(pr_timeout_us,
		 "How long to wait for each step of the PR engine, 1 us to 60 s (default 1000000)");

/**
 * struct fpga_fme_pr_job - one programming, for fpga_fme_pr_program()
 * @pr:		the FME's PR engine
 * @dev:	for messages
 * @port:	the port's number on the card (the engine's region id)
 * @buf:	the bitstream
 * @len:	its length, a multiple of 4
 */
struct fpga_fme_pr_job {
	struct fpga_fme_pr *pr;
	struct device *dev;
	unsigned int port;
	const u8 *buf;
	size_t len;
};

/* Wait until (reg & mask) == want; a timeout is the engine's PR error */
static int fpga_fme_pr_wait(struct fpga_fme_pr_job *job, unsigned int reg,
			    u64 mask, u64 want, const char *what)
{
	unsigned int timeout_us = READ_ONCE(pr_timeout_us);
	u64 v;
	int ret;

	ret = readq_poll_timeout(job->pr->base + reg, v, (v & mask) == want,
				 FPGA_FME_PR_POLL_US, timeout_us);
	if (ret) {
		job->pr->last_err |= FME_PR_ERR_TIMEOUT;
		dev_err(job->dev, "port %u: PR engine: %s did not come within %u us (register %#x: %#llx)\n",
			job->port, what, timeout_us, reg, v);
	}
	return ret;
}

/* Reset the engine: PR_RSTACK follows PR_RST both ways */
static int fpga_fme_pr_reset(struct fpga_fme_pr_job *job)
{
	void __iomem *ctrl = job->pr->base + FME_PR_CTRL;
	u64 v = readq(ctrl);
	int ret;

	writeq(v | FME_PR_CTRL_PR_RST, ctrl);
	ret = fpga_fme_pr_wait(job, FME_PR_CTRL, FME_PR_CTRL_PR_RSTACK,
			       FME_PR_CTRL_PR_RSTACK, "reset ACK");
	writeq(readq(ctrl) & ~FME_PR_CTRL_PR_RST, ctrl);
	return ret ?: fpga_fme_pr_wait(job, FME_PR_CTRL, FME_PR_CTRL_PR_RSTACK,
				       0, "end of reset ACK");
}

/* The staging window: a window's worth at a time, taken when LEN is 0 */
static int fpga_fme_pr_push_staged(struct fpga_fme_pr_job *job)
{
	struct fpga_fme_pr *pr = job->pr;
	size_t ofs, n;
	int ret;

	for (ofs = 0; ofs < job->len; ofs += n) {
		n = min(job->len - ofs, pr->stage_size);
		memcpy_toio(pr->stage, job->buf + ofs, n);
		writeq(n, pr->base + FME_PR_STAGE_LEN);
		ret = fpga_fme_pr_wait(job, FME_PR_STAGE_LEN, ~0ULL, 0,
				       "taking the staged data");
		if (ret)
			return ret;
		/* An engine that gave up already says so: stop pushing */
		if (readq(pr->base + FME_PR_ERR))
			return 0;
	}
	return 0;
}

/* The FIFO: a write per 32 bits while the engine has credits for them */
static int fpga_fme_pr_push_fifo(struct fpga_fme_pr_job *job)
{
	void __iomem *base = job->pr->base;
	unsigned int credits = 0;
	size_t ofs;
	int ret;
	u64 v;

	for (ofs = 0; ofs < job->len; ofs += 4) {
		/* Keep one credit back, as the engine's documentation asks */
		while (credits <= 1) {
			ret = readq_poll_timeout(base + FME_PR_STS, v,
						 FIELD_GET(FME_PR_STS_CREDIT, v) > 1,
						 1, READ_ONCE(pr_timeout_us));
			if (ret) {
				job->pr->last_err |= FME_PR_ERR_TIMEOUT;
				dev_err(job->dev, "port %u: PR engine: no FIFO credit (PR_STS %#llx)\n",
					job->port, v);
				return ret;
			}
			credits = FIELD_GET(FME_PR_STS_CREDIT, v);
		}
		writeq(get_unaligned_le32(job->buf + ofs), base + FME_PR_DATA);
		credits--;
	}
	return 0;
}

static void fpga_fme_pr_report(struct fpga_fme_pr_job *job, u64 err)
{
	dev_err(job->dev, "port %u: the card refused the bitstream: PR_ERR %#llx%s%s%s%s%s\n",
		job->port, err,
		err & FME_PR_ERR_OPERATION ? " operation" : "",
		err & FME_PR_ERR_CRC ? " crc" : "",
		err & FME_PR_ERR_INCOMPATIBLE ? " incompatible" : "",
		err & FME_PR_ERR_PROTOCOL ? " protocol" : "",
		err & FME_PR_ERR_FIFO_OVERFLOW ? " fifo-overflow" : "");
}

/* Called by the core with the port gone and held in reset */
static int fpga_fme_pr_program(void *data)
{
	struct fpga_fme_pr_job *job = data;
	struct fpga_fme_pr *pr = job->pr;
	u64 err;
	int ret;

	pr->last_err = 0;
	ret = fpga_fme_pr_reset(job);
	if (ret)
		return ret;
	/* Left over from before: write-1-to-clear */
	err = readq(pr->base + FME_PR_ERR);
	if (err)
		writeq(err, pr->base + FME_PR_ERR);

	writeq(FIELD_PREP(FME_PR_CTRL_RGN_ID, job->port) | FME_PR_CTRL_START,
	       pr->base + FME_PR_CTRL);
	ret = pr->stage ? fpga_fme_pr_push_staged(job) :
			  fpga_fme_pr_push_fifo(job);
	if (!ret) {
		writeq(readq(pr->base + FME_PR_CTRL) | FME_PR_CTRL_COMPLETE,
		       pr->base + FME_PR_CTRL);
		/* The engine clears START when it is done */
		ret = fpga_fme_pr_wait(job, FME_PR_CTRL, FME_PR_CTRL_START, 0,
				       "the end of programming");
	}
	err = readq(pr->base + FME_PR_ERR) & FME_PR_ERR_ALL;
	pr->last_err |= err;
	if (ret) {
		/* Stop the engine where it is; the card keeps what it had */
		fpga_fme_pr_reset(job);
		return ret;
	}
	if (err) {
		fpga_fme_pr_report(job, err);
		return -EIO;
	}
	return 0;
}

/**
 * fpga_fme_pr_run() - program port @port of the FME's card with @buf
 * @fme: the FME
 * @port: the port's number on the card: FME_HDR_PORT_OFST(@port) names
 *	  it, and the engine takes it as the region id (RGN_ID), whether or
 *	  not ports before it are implemented or on this function
 * @buf: the bitstream, as the card takes it
 * @len: its length
 *
 * The ioctl and netlink's PORT_PROGRAM (through the driver's program op)
 * both come here, their caller's rights checked.
 *
 * Return: as fpga_fme_ioctl_port_pr().
 */
int fpga_fme_pr_run(struct fpga_fme *fme, unsigned int port, const void *buf,
		    size_t len)
{
	struct fpga_fme_pr *pr = &fme->pr;
	struct fpga_fme_pr_job job = {
		.pr = pr, .dev = &fme->chardev, .port = port, .buf = buf,
		.len = len,
	};
	int ret, idx;

	if (!pr->base)
		return -EOPNOTSUPP;
	if (!len || !IS_ALIGNED(len, 4) || len > FPGA_FME_PR_MAX_BYTES) {
		dev_dbg(&fme->chardev, "PR: bad bitstream size %zu\n", len);
		return -EINVAL;
	}
	if (!mutex_trylock(&pr->lock))
		return -EBUSY;
	if (fpga_dfl_hw_enter(&fme->unplug, &idx)) {
		ret = fpga_dfl_port_program(fme->fdev, port,
					    fpga_fme_pr_program, &job);
		fpga_dfl_hw_exit(&fme->unplug, idx);
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&pr->lock);
	return ret;
}

/**
 * fpga_fme_ioctl_port_pr() - DFL_FPGA_FME_PORT_PR
 * @fme: the FME, whose file is open for writing
 * @arg: struct dfl_fpga_fme_port_pr
 *
 * Return: 0 when the card runs the new AFU; -EINVAL bad arguments or no
 * PR engine; -EPERM without CAP_SYS_ADMIN; -EBUSY another programming of
 * this FME is running; -EIO the card refused the bitstream (errors/pr_err
 * says why); -ETIMEDOUT the engine did not answer; -ENODEV the card is
 * gone; -EFAULT; -ENOMEM.
 */
long fpga_fme_ioctl_port_pr(struct fpga_fme *fme, void __user *arg)
{
	unsigned long minsz = offsetofend(struct dfl_fpga_fme_port_pr,
					  buffer_address);
	struct dfl_fpga_fme_port_pr args;
	void *buf;
	int ret;

	if (copy_from_user(&args, arg, minsz))
		return -EFAULT;
	if (args.argsz < minsz || args.flags || !fme->pr.base)
		return -EINVAL;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!args.buffer_size || !IS_ALIGNED(args.buffer_size, 4) ||
	    args.buffer_size > FPGA_FME_PR_MAX_BYTES) {
		dev_dbg(&fme->chardev, "PR: bad bitstream size %u\n",
			args.buffer_size);
		return -EINVAL;
	}
	/* Copied before the unplug guard is held: see fpga_fme_ioctl() */
	buf = vmemdup_user(u64_to_user_ptr(args.buffer_address),
			   args.buffer_size);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = fpga_fme_pr_run(fme, args.port_id, buf, args.buffer_size);
	kvfree(buf);
	return ret;
}

/* The staging window, if the engine has one that fits in the feature */
static void fpga_fme_pr_find_stage(struct fpga_fme_pr *pr,
				   struct fpga_dfl_feature *feat)
{
	u64 cap = readq(pr->base + FME_PR_STAGE_CAP);
	size_t ofs = FIELD_GET(FME_PR_STAGE_CAP_OFS, cap) * SZ_4K;
	size_t size = FIELD_GET(FME_PR_STAGE_CAP_SIZE, cap) * SZ_1K;

	if (FIELD_GET(FME_PR_STAGE_CAP_MAGIC, cap) != FME_PR_STAGE_MAGIC)
		return;
	if (!size || ofs < FME_PR_SIZE || ofs > feat->size ||
	    size > feat->size - ofs)
		return;
	pr->stage = pr->base + ofs;
	pr->stage_size = size;
}

/**
 * fpga_fme_pr_init() - find the FME's PR engine
 * @pr: the state to fill
 * @fdev: the FME
 *
 * An FME without the PR feature (or with too small a one) has none: the
 * ioctl then answers -EINVAL, as upstream does.
 */
void fpga_fme_pr_init(struct fpga_fme_pr *pr, struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *feat;

	mutex_init(&pr->lock);
	feat = fpga_dfl_find_feature(fdev, FME_FEATURE_ID_PR);
	if (!feat || feat->size < FME_PR_SIZE)
		return;
	pr->base = feat->ioaddr;
	pr->intfc_l = readq(pr->base + FME_PR_INTFC_ID_L);
	pr->intfc_h = readq(pr->base + FME_PR_INTFC_ID_H);
	fpga_fme_pr_find_stage(pr, feat);
}

/* The upstream layout's region under dfl-fme.N, where OPAE looks */
void fpga_fme_pr_region_add(struct fpga_fme_pr *pr, struct fpga_dfl_node *node)
{
	if (pr->base)
		pr->region = fpga_dfl_pr_region_add(node, pr->intfc_h,
						    pr->intfc_l);
}

void fpga_fme_pr_region_del(struct fpga_fme_pr *pr)
{
	fpga_dfl_pr_region_del(pr->region);
	pr->region = NULL;
}

static ssize_t interface_id_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct fpga_fme *fme = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%016llx%016llx\n", fme->pr.intfc_h,
			  fme->pr.intfc_l);
}
static DEVICE_ATTR_RO(interface_id);

static struct attribute *fpga_fme_pr_attrs[] = {
	&dev_attr_interface_id.attr,
	NULL,
};

/*
 * Ours, on fpga-fme.N only: dfl-fme.N (the same groups) keeps exactly the
 * files upstream's dfl-fme has, which OPAE and dfl_abi_test go by
 */
bool fpga_fme_pr_attr_visible(struct fpga_fme *fme, struct kobject *kobj)
{
	return fme && fme->pr.base && kobj == &fme->fdev->dev.kobj;
}

static umode_t fpga_fme_pr_visible(struct kobject *kobj, struct attribute *a,
				   int n)
{
	return fpga_fme_pr_attr_visible(dev_get_drvdata(kobj_to_dev(kobj)),
					kobj) ? a->mode : 0;
}

/* pr/: the FME's PR engine, if it has one */
const struct attribute_group fpga_fme_pr_group = {
	.name		= "pr",
	.attrs		= fpga_fme_pr_attrs,
	.is_visible	= fpga_fme_pr_visible,
};

/* errors/pr_err: what the engine said about the last programming */
static ssize_t pr_err_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct fpga_fme *fme = dev_get_drvdata(dev);

	return sysfs_emit(buf, "0x%llx\n", READ_ONCE(fme->pr.last_err));
}
DEVICE_ATTR_RO(pr_err);
