# SPDX-License-Identifier: GPL-2.0-only
#
# Included by ../suite.mk: the compatibility layer's header (fpga-compat.h)
# on the include path, and what it needs to know about the target kernel,
# found in its headers rather than from its version number (which is the
# wrong test where a distribution backports a change).
ccflags-y += -I$(fpga_suite_kernel)/compat

# -DFPGA_HAVE_$(1) if header $(2) of the target kernel contains the text
# in variable $(3) (a variable: the texts hold parentheses and commas)
fpga_compat_test = $(if $(shell grep -s -l -F '$($(3))' \
	$(srctree)/include/$(2)),-DFPGA_HAVE_$(1))

# 6.3: bus_type.uevent() takes a const device
fpga_const_uevent := (*uevent)(const struct device *dev
ccflags-y += $(call fpga_compat_test,CONST_BUS_UEVENT,linux/device/bus.h,fpga_const_uevent)
# 6.4: bus attributes' show() and store() take a const bus_type
fpga_const_bus_attr := (*store)(const struct bus_type *bus
ccflags-y += $(call fpga_compat_test,CONST_BUS_ATTR,linux/device/bus.h,fpga_const_bus_attr)
# 6.11: bus_type.match() takes a const driver
fpga_const_match := (*match)(struct device *dev, const struct device_driver *drv)
ccflags-y += $(call fpga_compat_test,CONST_BUS_MATCH,linux/device/bus.h,fpga_const_match)
# 6.3: vma->vm_flags is read-only, changed by vm_flags_set()/_clear()
fpga_vm_flags_set := void vm_flags_set(struct vm_area_struct *vma
ccflags-y += $(call fpga_compat_test,VM_FLAGS_SET,linux/mm.h,fpga_vm_flags_set)
# 6.6: a dump's parsed attributes are in genl_dumpit_info.info
fpga_dumpit_info := struct genl_info info;
ccflags-y += $(call fpga_compat_test,GENL_DUMPIT_INFO_INFO,net/genetlink.h,fpga_dumpit_info)
# 6.6: drm_driver.gem_prime_mmap is gone (dma-bufs mmap through the object)
fpga_gem_prime_mmap := (*gem_prime_mmap)(struct drm_gem_object *obj
ccflags-y += $(call fpga_compat_test,DRM_GEM_PRIME_MMAP,drm/drm_drv.h,fpga_gem_prime_mmap)
# 6.8: eventfd_signal() without a count
fpga_eventfd_signal := void eventfd_signal(struct eventfd_ctx *ctx)
ccflags-y += $(call fpga_compat_test,EVENTFD_SIGNAL_NO_COUNT,linux/eventfd.h,fpga_eventfd_signal)
# 6.12: <asm/unaligned.h> moved to <linux/unaligned.h>
ccflags-y += $(if $(wildcard $(srctree)/include/linux/unaligned.h),-DFPGA_HAVE_LINUX_UNALIGNED_H)
# 6.13: a symbol namespace is a string: MODULE_IMPORT_NS("NS")
fpga_string_ns := MODULE_INFO(import_ns, ns)
ccflags-y += $(call fpga_compat_test,STRING_NS,linux/module.h,fpga_string_ns)
# 6.16: from_timer() is timer_container_of()
fpga_timer_container_of := define timer_container_of(
ccflags-y += $(call fpga_compat_test,TIMER_CONTAINER_OF,linux/timer.h,fpga_timer_container_of)
# 6.11: pcim_iomap_region() maps one BAR
fpga_pcim_iomap_region := void __iomem *pcim_iomap_region(struct pci_dev *pdev
ccflags-y += $(call fpga_compat_test,PCIM_IOMAP_REGION,linux/pci.h,fpga_pcim_iomap_region)
# 6.14: pcim_iounmap_region() unmaps one (pcim_iounmap_regions() goes later)
fpga_pcim_iounmap_region := void pcim_iounmap_region(struct pci_dev *pdev
ccflags-y += $(call fpga_compat_test,PCIM_IOUNMAP_REGION,linux/pci.h,fpga_pcim_iounmap_region)
# 7.0 (and Debian's 6.12): the driver core keeps driver_override and its
# sysfs file for a bus that asks (driver_set_override() goes later)
fpga_bus_driver_override := bool driver_override;
ccflags-y += $(call fpga_compat_test,BUS_DRIVER_OVERRIDE,linux/device/bus.h,fpga_bus_driver_override)
# 6.2: spi_alloc_host(), spi_alloc_master()'s new name (the old one goes)
fpga_spi_alloc_host := struct spi_controller *spi_alloc_host(
ccflags-y += $(call fpga_compat_test,SPI_ALLOC_HOST,linux/spi/spi.h,fpga_spi_alloc_host)
# 6.19: dma_map_ops.map_page/unmap_page are map_phys/unmap_phys
fpga_dma_map_phys := (*map_phys)(struct device *dev
ccflags-y += $(call fpga_compat_test,DMA_MAP_PHYS,linux/dma-map-ops.h,fpga_dma_map_phys)
# 6.18: DMA_ATTR_MMIO, a physical address that is not RAM
fpga_dma_attr_mmio := define DMA_ATTR_MMIO
ccflags-y += $(call fpga_compat_test,DMA_ATTR_MMIO,linux/dma-mapping.h,fpga_dma_attr_mmio)
# 6.14: drm_driver.date is gone
fpga_drm_driver_date := char *date;
ccflags-y += $(call fpga_compat_test,DRM_DRIVER_DATE,drm/drm_drv.h,fpga_drm_driver_date)
# 7.x: is_cow_mapping(vm_flags) is vma_is_cow_mapping(vma)
fpga_vma_is_cow_mapping := bool vma_is_cow_mapping(
ccflags-y += $(call fpga_compat_test,VMA_IS_COW_MAPPING,linux/mm.h,fpga_vma_is_cow_mapping)
# 7.1: uio_info.mmap(vma) is uio_info.mmap_prepare(vm_area_desc), with
# vm_ops->mapped() for what needs the mapping made
fpga_uio_mmap_prepare := (*mmap_prepare)(struct uio_info *info
ccflags-y += $(call fpga_compat_test,UIO_MMAP_PREPARE,linux/uio_driver.h,fpga_uio_mmap_prepare)
# 6.5: DRM's fdinfo: drm_show_fdinfo() prints drm-driver and drm-client-id,
# then drm_driver.show_fdinfo() the driver's keys
fpga_drm_show_fdinfo := (*show_fdinfo)(struct drm_printer *p, struct drm_file *f);
ccflags-y += $(call fpga_compat_test,DRM_SHOW_FDINFO,drm/drm_drv.h,fpga_drm_show_fdinfo)
# 6.5: a GEM object's status() says whether it is resident, for fdinfo
fpga_drm_gem_status := (*status)(struct drm_gem_object *obj);
ccflags-y += $(call fpga_compat_test,DRM_GEM_STATUS,drm/drm_gem.h,fpga_drm_gem_status)
# 6.5: drm_show_memory_stats() sums a file's objects by their status()
fpga_drm_show_memory_stats := void drm_show_memory_stats(struct drm_printer *p, struct drm_file *file);
ccflags-y += $(call fpga_compat_test,DRM_SHOW_MEMORY_STATS,drm/drm_file.h,fpga_drm_show_memory_stats)
# 6.1: vfio_device_ops.release is required and frees the device through
# vfio_free_device(); from 6.2 the core frees it
fpga_vfio_free_device := void vfio_free_device(struct vfio_device *device);
ccflags-y += $(call fpga_compat_test,VFIO_FREE_DEVICE,linux/vfio.h,fpga_vfio_free_device)
# 6.6: an emulated-IOMMU device's iommufd ops, detach_ioas the last of them
fpga_vfio_iommufd := void vfio_iommufd_emulated_detach_ioas(struct vfio_device *vdev);
ccflags-y += $(call fpga_compat_test,VFIO_IOMMUFD_EMULATED,linux/vfio.h,fpga_vfio_iommufd)
# 6.19: the core answers VFIO_DEVICE_GET_REGION_INFO, through this op
fpga_vfio_region_caps := (*get_region_info_caps)(struct vfio_device *vdev,
ccflags-y += $(call fpga_compat_test,VFIO_REGION_INFO_CAPS,linux/vfio.h,fpga_vfio_region_caps)
