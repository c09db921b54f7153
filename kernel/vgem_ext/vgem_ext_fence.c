// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgem-style fences: FENCE_ATTACH puts an unsignalled fence on a buffer's
 * reservation object (read or write), FENCE_SIGNAL signals it.  Pollers of
 * the buffer's dma-buf wait on them.  A fence also signals when its file
 * is closed, and by itself after fence_timeout_ms, so that a buggy or dead
 * client can never block a reader forever.
 *
 * References: the file's idr holds one until FENCE_SIGNAL or close; the
 * reservation object holds its own.  The timer is stopped before the idr's
 * reference is dropped, in process context, so release() never has to.
 */
#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/vgem_ext_drm.h>

#include "fpga-compat.h"
#include "vgem_ext_drv.h"

static unsigned int fence_timeout_ms = 10000;
module_param(fence_timeout_ms, uint, 0644);
MODULE_PARM_DESC(fence_timeout_ms,
		 "A fence signals by itself (error ETIMEDOUT) after this long, for new fences (default 10000)");

#define VGEM_EXT_FENCE_MAX_TIMEOUT_MS	600000

/**
 * struct vgem_ext_fence - a fence attached by user space
 * @base:	the fence; first, the core frees it with kfree_rcu()
 * @lock:	the fence's lock (dma_fence.lock)
 * @timer:	signals the fence with -ETIMEDOUT when it fires
 */
struct vgem_ext_fence {
	struct dma_fence base;
	spinlock_t lock;	/* dma_fence state */
	struct timer_list timer;
};

static const char *vgem_ext_fence_driver_name(struct dma_fence *fence)
{
	return VGEM_EXT_NAME;
}

static const char *vgem_ext_fence_timeline_name(struct dma_fence *fence)
{
	return "user";
}

/*
 * The fence can outlive every file of the device (another driver's
 * buffer may hold it), so each fence holds a reference on this module:
 * its ops must stay until the last put.
 */
static void vgem_ext_fence_release(struct dma_fence *fence)
{
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops vgem_ext_fence_ops = {
	.get_driver_name	= vgem_ext_fence_driver_name,
	.get_timeline_name	= vgem_ext_fence_timeline_name,
	.release		= vgem_ext_fence_release,
};

static void vgem_ext_fence_timeout(struct timer_list *t)
{
	struct vgem_ext_fence *vf = timer_container_of(vf, t, timer);
	unsigned long flags;

	spin_lock_irqsave(&vf->lock, flags);
	if (!test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &vf->base.flags)) {
		dma_fence_set_error(&vf->base, -ETIMEDOUT);
		dma_fence_signal_locked(&vf->base);
	}
	spin_unlock_irqrestore(&vf->lock, flags);
}

static struct vgem_ext_fence *vgem_ext_fence_create(void)
{
	unsigned int ms = min_t(unsigned int, READ_ONCE(fence_timeout_ms),
				VGEM_EXT_FENCE_MAX_TIMEOUT_MS);
	struct vgem_ext_fence *vf;

	vf = kzalloc(sizeof(*vf), GFP_KERNEL_ACCOUNT);
	if (!vf)
		return NULL;
	/* We are in one of our ioctls: the module is alive */
	__module_get(THIS_MODULE);
	spin_lock_init(&vf->lock);
	/* A context per fence: they signal in any order */
	dma_fence_init(&vf->base, &vgem_ext_fence_ops, &vf->lock,
		       dma_fence_context_alloc(1), 1);
	timer_setup(&vf->timer, vgem_ext_fence_timeout, 0);
	mod_timer(&vf->timer, jiffies + msecs_to_jiffies(ms));
	return vf;
}

/*
 * Read fences do not exclude each other and a timed-out fence keeps its id
 * until it is released, so without a cap one file could pin unbounded
 * kernel memory on a buffer that other processes share.
 */
#define VGEM_EXT_FENCES_PER_FILE	256

/* Take a slot for a new fence of @vfile: 0, or -ENOSPC at the cap */
static int vgem_ext_fence_reserve(struct vgem_ext_file *vfile)
{
	int ret = 0;

	mutex_lock(&vfile->fence_lock);
	if (vfile->num_fences >= VGEM_EXT_FENCES_PER_FILE)
		ret = -ENOSPC;
	else
		vfile->num_fences++;
	mutex_unlock(&vfile->fence_lock);
	return ret;
}

static void vgem_ext_fence_unreserve(struct vgem_ext_file *vfile)
{
	mutex_lock(&vfile->fence_lock);
	vfile->num_fences--;
	mutex_unlock(&vfile->fence_lock);
}

/* Signal and drop the idr's reference; process context */
static void vgem_ext_fence_finish(struct vgem_ext_fence *vf)
{
	timer_delete_sync(&vf->timer);
	dma_fence_signal(&vf->base);
	dma_fence_put(&vf->base);
}

void vgem_ext_fence_open(struct vgem_ext_file *vfile)
{
	mutex_init(&vfile->fence_lock);
	idr_init_base(&vfile->fences, 1);
}

void vgem_ext_fence_close(struct vgem_ext_file *vfile)
{
	struct vgem_ext_fence *vf;
	int id;

	/* The file is going: nobody else can reach the idr */
	idr_for_each_entry(&vfile->fences, vf, id)
		vgem_ext_fence_finish(vf);
	idr_destroy(&vfile->fences);
	mutex_destroy(&vfile->fence_lock);
}

/*
 * DRM_IOCTL_VGEM_EXT_FENCE_ATTACH: a new unsignalled fence on the buffer,
 * a write fence with VGEM_EXT_FENCE_WRITE, else a read fence.
 * EINVAL: unknown flags or pad not zero; ENOENT: no such handle; EACCES:
 * any fence on a read-only import; EBUSY: an unsignalled fence
 * conflicts (any for a write fence, a write fence for a read fence);
 * ENOSPC: this file has VGEM_EXT_FENCES_PER_FILE fences already; ENOMEM.
 */
int vgem_ext_fence_attach_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file)
{
	struct drm_vgem_ext_fence_attach *args = data;
	struct vgem_ext_file *vfile = file->driver_priv;
	bool write = args->flags & VGEM_EXT_FENCE_WRITE;
	struct drm_gem_object *obj;
	struct vgem_ext_fence *vf;
	struct dma_resv *resv;
	int ret;

	if (args->flags & ~VGEM_EXT_FENCE_WRITE || args->pad)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	/*
	 * A read-only import takes no fence.  A write fence announces a
	 * write its holder may not make; a read fence holds the owner's
	 * writers, and armed again each time it times out, for good.  Not
	 * a cap per importer: more state, and within it the owner still
	 * waits.  A reader the owner must wait for gets a writable dma-buf,
	 * or synchronises explicitly (a sync_file).
	 */
	if (to_vgem_ext_bo(obj)->read_only) {
		ret = -EACCES;
		goto out_put_obj;
	}
	ret = vgem_ext_fence_reserve(vfile);
	if (ret)
		goto out_put_obj;
	vf = vgem_ext_fence_create();
	if (!vf) {
		ret = -ENOMEM;
		goto out_unreserve;
	}

	resv = obj->resv;
	dma_resv_lock(resv, NULL);
	if (!dma_resv_test_signaled(resv, dma_resv_usage_rw(write)))
		ret = -EBUSY;
	else
		ret = dma_resv_reserve_fences(resv, 1);
	if (!ret)
		dma_resv_add_fence(resv, &vf->base, write ?
				   DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
	dma_resv_unlock(resv);
	if (ret)
		goto out_finish;

	mutex_lock(&vfile->fence_lock);
	ret = idr_alloc(&vfile->fences, vf, 1, 0, GFP_KERNEL_ACCOUNT);
	mutex_unlock(&vfile->fence_lock);
	if (ret < 0)
		goto out_finish;
	args->out_fence = ret;
	ret = 0;
	goto out_put_obj;

out_finish:
	/* Attached or not, nobody may wait on it any more */
	vgem_ext_fence_finish(vf);
out_unreserve:
	vgem_ext_fence_unreserve(vfile);
out_put_obj:
	drm_gem_object_put(obj);
	return ret;
}

/*
 * DRM_IOCTL_VGEM_EXT_FENCE_SIGNAL: signal a fence of this file and release
 * its id.  EINVAL: flags not zero; ENOENT: no such fence; ETIMEDOUT: it had
 * signalled by itself already (its id is released all the same).
 */
int vgem_ext_fence_signal_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file)
{
	struct drm_vgem_ext_fence_signal *args = data;
	struct vgem_ext_file *vfile = file->driver_priv;
	struct vgem_ext_fence *vf;
	int ret = 0;

	if (args->flags)
		return -EINVAL;
	mutex_lock(&vfile->fence_lock);
	vf = idr_remove(&vfile->fences, args->fence);
	if (vf)
		vfile->num_fences--;
	mutex_unlock(&vfile->fence_lock);
	if (!vf)
		return -ENOENT;

	/* After the timer is stopped, "signalled" can only mean timed out */
	timer_delete_sync(&vf->timer);
	if (dma_fence_is_signaled(&vf->base))
		ret = -ETIMEDOUT;
	vgem_ext_fence_finish(vf);
	return ret;
}
