// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgem_ext: the DRM driver glue.  The module creates its own platform
 * device "vgem_ext" (so it loads next to Debian's vgem) and registers one
 * DRM device on it with a card and a render node.
 *
 * Lifetimes: the device lives from module init to exit.  Everything user
 * space makes (buffers, dma-bufs, mappings, fences) hangs off an open file
 * or a dma-buf, and both hold a reference on this module, so the module
 * cannot be unloaded while any of them is alive.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <drm/vgem_ext_drm.h>

#include "fpga-compat.h"
#include "vgem_ext_drv.h"

static struct vgem_ext_device *vgem_ext_dev;

static int vgem_ext_open(struct drm_device *dev, struct drm_file *file)
{
	struct vgem_ext_file *vfile;

	vfile = kzalloc(sizeof(*vfile), GFP_KERNEL);
	if (!vfile)
		return -ENOMEM;
	vgem_ext_fence_open(vfile);
	fpga_compat_drm_client_open(&vfile->client);
	file->driver_priv = vfile;
	return 0;
}

static void vgem_ext_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct vgem_ext_file *vfile = file->driver_priv;

	vgem_ext_fence_close(vfile);
	kfree(vfile);
}

static const struct drm_ioctl_desc vgem_ext_ioctls[] = {
	DRM_IOCTL_DEF_DRV(VGEM_EXT_BO_CREATE, vgem_ext_bo_create_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VGEM_EXT_BO_INFO, vgem_ext_bo_info_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VGEM_EXT_FENCE_ATTACH, vgem_ext_fence_attach_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(VGEM_EXT_FENCE_SIGNAL, vgem_ext_fence_signal_ioctl,
			  DRM_RENDER_ALLOW),
};

/*
 * drm_driver.show_fdinfo: after drm-driver and drm-client-id, the memory
 * of the buffers the file has handles of, by DRM's keys
 * (Documentation/fdinfo.md)
 */
static void vgem_ext_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	fpga_compat_drm_show_memory_stats(p, file, vgem_ext_bo_status);
}

FPGA_COMPAT_DEFINE_DRM_SHOW_FDINFO(vgem_ext_show_fdinfo, struct vgem_ext_file,
				   client);

static const struct file_operations vgem_ext_fops = {
	.owner		= THIS_MODULE,
	DRM_GEM_FOPS,
	FPGA_COMPAT_DRM_FOPS_SHOW_FDINFO(vgem_ext_show_fdinfo)
};

static const struct drm_driver vgem_ext_driver = {
	.driver_features	= DRIVER_GEM | DRIVER_RENDER,
	.open			= vgem_ext_open,
	.postclose		= vgem_ext_postclose,
	.ioctls			= vgem_ext_ioctls,
	.num_ioctls		= ARRAY_SIZE(vgem_ext_ioctls),
	.fops			= &vgem_ext_fops,
	FPGA_COMPAT_DRM_SHOW_FDINFO(vgem_ext_show_fdinfo)

	.gem_create_object	= vgem_ext_bo_create_object,
	.dumb_create		= vgem_ext_dumb_create,
	.prime_handle_to_fd	= vgem_ext_prime_handle_to_fd,
	.prime_fd_to_handle	= vgem_ext_prime_fd_to_handle,
	.gem_prime_import	= vgem_ext_prime_import,
	.gem_prime_import_sg_table = drm_gem_shmem_prime_import_sg_table,
	FPGA_COMPAT_DRM_GEM_PRIME_MMAP

	.name	= VGEM_EXT_NAME,
	.desc	= "Virtual GEM buffers for user-space drivers",
	FPGA_COMPAT_DRM_DRIVER_DATE("20240601")
	.major	= 1,
	.minor	= 0,
};

static int __init vgem_ext_init(void)
{
	struct platform_device *pdev;
	struct vgem_ext_device *vdev;
	int ret;

	pdev = platform_device_register_simple(VGEM_EXT_NAME, -1, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);

	/* The device's devres must end at module exit, not at an unbind */
	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_unregister_pdev;
	}
	/* Imported dma-bufs are mapped for this device: it reaches all RAM */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_release_group;

	vdev = devm_drm_dev_alloc(&pdev->dev, &vgem_ext_driver,
				  struct vgem_ext_device, drm);
	if (IS_ERR(vdev)) {
		ret = PTR_ERR(vdev);
		goto err_release_group;
	}
	vdev->pdev = pdev;

	ret = drm_dev_register(&vdev->drm, 0);
	if (ret)
		goto err_release_group;
	vgem_ext_dev = vdev;
	return 0;

err_release_group:
	devres_release_group(&pdev->dev, NULL);
err_unregister_pdev:
	platform_device_unregister(pdev);
	return ret;
}

static void __exit vgem_ext_exit(void)
{
	struct platform_device *pdev = vgem_ext_dev->pdev;

	drm_dev_unregister(&vgem_ext_dev->drm);
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
}

module_init(vgem_ext_init);
module_exit(vgem_ext_exit);

MODULE_DESCRIPTION("Virtual GEM buffers for user-space drivers (vgem_ext)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("DMA_BUF");
