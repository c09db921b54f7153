// SPDX-License-Identifier: GPL-2.0-only
/*
 * BAR 0 of a VF: what a PAC/OFS VF has there, the port's header first,
 * its features, and the AFU at the header's NEXT_AFU offset.
 *
 * The AFU's registers are the user's: reads and writes pass through.  The
 * port's own registers are read as they are, but a write reaches none of
 * them but the soft reset bit of PORT_HDR_CTRL: they describe the port to
 * the host, which walks them again when the port is assigned back, and a
 * reset goes through the core, which waits for the card's ACK and
 * announces it.  Past the AFU, BAR 0 reads all ones and drops writes.
 * Accesses of any length are split into naturally aligned 8, 4, 2 and 1
 * byte ones, as vfio-pci splits them.
 */
#include <linux/io.h>
#include <linux/uaccess.h>

#include "fpga-vfio.h"

/* The user sets or clears the port's soft reset; under fv->lock */
static void fpga_vfio_ctrl_write(struct fpga_vfio *fv, u8 ctrl)
{
	bool reset = ctrl & PORT_CTRL_SFTRST;

	if (reset == fv->in_reset)
		return;
	/* A missing ACK is the user's to see in PORT_HDR_CTRL; logged */
	fpga_dfl_card_vf_sftrst(fv->card, fv->vf, reset);
	fv->in_reset = reset;
}

static u64 fpga_vfio_read_reg(void __iomem *addr, size_t n)
{
	switch (n) {
	case 8:
		return readq(addr);
	case 4:
		return readl(addr);
	case 2:
		return readw(addr);
	default:
		return readb(addr);
	}
}

static void fpga_vfio_write_reg(void __iomem *addr, size_t n, u64 val)
{
	switch (n) {
	case 8:
		writeq(val, addr);
		break;
	case 4:
		writel(val, addr);
		break;
	case 2:
		writew(val, addr);
		break;
	default:
		writeb(val, addr);
	}
}

/* One naturally aligned access of @n bytes at @ofs of BAR 0 */
static u64 fpga_vfio_bar_access(struct fpga_vfio *fv, u64 ofs, size_t n,
				u64 val, bool write)
{
	const struct fpga_dfl_vf_regs *regs = &fv->regs;
	void __iomem *addr = regs->hdr + ofs;

	if (ofs >= regs->afu_ofs + regs->afu_size)
		return write ? 0 : GENMASK_ULL(8 * n - 1, 0);
	if (!write)
		return fpga_vfio_read_reg(addr, n);
	if (ofs >= regs->afu_ofs)
		fpga_vfio_write_reg(addr, n, val);
	else if (ofs <= PORT_HDR_CTRL && PORT_HDR_CTRL < ofs + n)
		fpga_vfio_ctrl_write(fv, val >> (8 * (PORT_HDR_CTRL - ofs)));
	return 0;
}

/* The largest naturally aligned access at @ofs that @left allows */
static size_t fpga_vfio_chunk(u64 ofs, size_t left)
{
	size_t n;

	for (n = 8; n > 1; n /= 2)
		if (IS_ALIGNED(ofs, n) && left >= n)
			break;
	return n;
}

/**
 * fpga_vfio_bar_rw() - a read or write of BAR 0's region
 * @fv: the VF
 * @buf: the user's buffer
 * @count: its length
 * @pos: the offset in the region
 * @write: a write
 *
 * Return: @count; -EINVAL past BAR 0; -EIO memory decoding is off in the
 * command register (as vfio-pci answers); -EFAULT.
 */
ssize_t fpga_vfio_bar_rw(struct fpga_vfio *fv, char __user *buf,
			 size_t count, u64 pos, bool write)
{
	size_t done, n;
	u64 val;

	if (pos >= fv->bar0_size || count > fv->bar0_size - pos)
		return -EINVAL;
	for (done = 0; done < count; done += n) {
		n = fpga_vfio_chunk(pos + done, count - done);
		val = 0;
		if (write && copy_from_user(&val, buf + done, n))
			return -EFAULT;
		mutex_lock(&fv->lock);
		if (!fpga_vfio_memory_enabled(fv)) {
			mutex_unlock(&fv->lock);
			return -EIO;
		}
		val = fpga_vfio_bar_access(fv, pos + done, n, val, write);
		mutex_unlock(&fv->lock);
		if (!write && copy_to_user(buf + done, &val, n))
			return -EFAULT;
	}
	return count;
}

/**
 * fpga_vfio_reset() - VFIO_DEVICE_RESET, and a last close: the port's reset
 * @fv: the VF
 *
 * Through the core, announced like every reset (dfl-sriov.c).
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_vfio_reset(struct fpga_vfio *fv)
{
	int ret, ret2;

	mutex_lock(&fv->lock);
	ret = fpga_dfl_card_vf_sftrst(fv->card, fv->vf, true);
	/* Out of reset even after a failure: the port must not stay wedged */
	ret2 = fpga_dfl_card_vf_sftrst(fv->card, fv->vf, false);
	fv->in_reset = false;
	mutex_unlock(&fv->lock);
	return ret ?: ret2;
}
