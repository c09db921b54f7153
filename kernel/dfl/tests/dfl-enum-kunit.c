// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite fpga_dfl_parser: the DFL walk of dfl-enum.c on synthetic
 * lists in a memory window, enumerated but never added to the bus.
 *
 * Every list starts from a sane card (an FME with one private feature,
 * pointing to a port with its error feature and a 4 KiB AFU) that a case
 * then breaks in one place; the case checks what was kept, what was not,
 * how many entries were reported and at which offset.
 *
 * KUnit suite fpga_dfl_sriov: dfl-sriov.c's rule on such a card.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-enum.h>

#define WIN_LEN		SZ_64K
#define WIN_START	0x90000000ULL	/* the window's "bus address" */
#define NUM_IRQS	8

/* The sane card */
#define FME		0x0
#define FME_ERR		0x1000
#define PORT		0x4000
#define PORT_ERR	0x5000
#define PORT_UINT	0x6000
#define AFU		0x8000

struct dfl_kunit {
	struct device *parent;
	u64 *win;
	int irqs[NUM_IRQS];
	struct fpga_dfl_card_info info;
	struct fpga_dfl_card *card;
};

static u64 dfh(unsigned int type, unsigned int id, u64 next, bool eol)
{
	return FIELD_PREP(DFH_TYPE, type) | FIELD_PREP(DFH_ID, id) |
	       FIELD_PREP(DFH_NEXT, next) | (eol ? DFH_EOL : 0);
}

static void win_put(struct dfl_kunit *t, size_t ofs, u64 val)
{
	t->win[ofs / 8] = val;
}

static u64 win_get(struct dfl_kunit *t, size_t ofs)
{
	return t->win[ofs / 8];
}

/* Offset in the window of a feature's registers */
static long ofs_of(struct dfl_kunit *t, void __iomem *addr)
{
	return (long)((__force void *)addr - (void *)t->win);
}

/*
 * FME (-> FME_ERR, EOL), FME port 0 -> PORT (-> PORT_ERR, EOL), and the
 * port's AFU at AFU, 4 KiB.
 */
static void sane_card(struct dfl_kunit *t)
{
	memset(t->win, 0, WIN_LEN);
	win_put(t, FME, dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME, FME_ERR - FME, false));
	win_put(t, FME + FME_HDR_PORT_OFST(0),
		FME_PORT_OFST_IMP | FIELD_PREP(FME_PORT_OFST_DFH, PORT));
	win_put(t, FME_ERR, dfh(DFH_TYPE_PRIVATE, FME_FEATURE_ID_GLOBAL_ERR, 0,
				true));

	win_put(t, PORT, dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, PORT_ERR - PORT, false));
	win_put(t, PORT + FIU_NEXT_AFU, FIELD_PREP(FIU_NEXT_AFU_OFFSET, AFU - PORT));
	win_put(t, PORT + PORT_HDR_CAP, FIELD_PREP(PORT_CAP_MMIO_SIZE, 4));
	win_put(t, PORT_ERR, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR, 0, true));

	win_put(t, AFU, dfh(DFH_TYPE_AFU, 0, 0, true));
	win_put(t, AFU + DFH_GUID_L, NLB0_AFU_GUID_L);
	win_put(t, AFU + DFH_GUID_H, NLB0_AFU_GUID_H);
}

/* Make @ofs point to @next (not the end of its list any more) */
static void win_link(struct dfl_kunit *t, size_t ofs, size_t next)
{
	u64 v = win_get(t, ofs) & ~(DFH_NEXT | DFH_EOL);

	win_put(t, ofs, v | FIELD_PREP(DFH_NEXT, next - ofs));
}

static void discard(struct dfl_kunit *t)
{
	fpga_dfl_card_discard(t->card);
	t->card = NULL;
}

static struct fpga_dfl_card *enumerate(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	t->card = fpga_dfl_card_enumerate(&t->info);
	return t->card;
}

static struct fpga_dfl_card *enumerate_ok(struct kunit *test)
{
	struct fpga_dfl_card *card = enumerate(test);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(card), "enumerate: %ld",
			       PTR_ERR(card));
	return card;
}

/* Enumerate a card with one malformed entry, reported at @ofs */
static struct fpga_dfl_card *enumerate_one_report(struct kunit *test,
						  size_t ofs)
{
	struct fpga_dfl_card *card = enumerate_ok(test);

	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, ofs);
	return card;
}

static struct fpga_dfl_device *the_port(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	KUNIT_ASSERT_EQ(test, t->card->num_ports, 1);
	return t->card->ports[0];
}

static void dfl_parser_sane_card(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *fme, *port;
	struct fpga_dfl_card *card;

	sane_card(t);
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_reports, 0);

	fme = card->fme;
	KUNIT_ASSERT_NOT_NULL(test, fme);
	KUNIT_EXPECT_EQ(test, fme->fiu_id, DFH_ID_FIU_FME);
	KUNIT_EXPECT_EQ(test, ofs_of(t, fme->hdr.ioaddr), FME);
	KUNIT_EXPECT_EQ(test, fme->hdr.size, FME_ERR - FME);
	KUNIT_ASSERT_EQ(test, fme->num_features, 1);
	KUNIT_EXPECT_EQ(test, fme->features[0].id, FME_FEATURE_ID_GLOBAL_ERR);
	KUNIT_EXPECT_EQ(test, fme->features[0].type, DFH_TYPE_PRIVATE);
	KUNIT_EXPECT_EQ(test, fme->features[0].start, WIN_START + FME_ERR);
	KUNIT_EXPECT_EQ(test, fme->features[0].irq_count, 0);

	port = the_port(test);
	KUNIT_EXPECT_EQ(test, port->fiu_id, DFH_ID_FIU_PORT);
	KUNIT_EXPECT_EQ(test, port->port_num, 0);
	KUNIT_EXPECT_EQ(test, ofs_of(t, port->hdr.ioaddr), PORT);
	KUNIT_ASSERT_EQ(test, port->num_features, 1);
	KUNIT_EXPECT_EQ(test, port->features[0].id, PORT_FEATURE_ID_ERROR);
	KUNIT_EXPECT_EQ(test, ofs_of(t, port->afu.ioaddr), AFU);
	KUNIT_EXPECT_EQ(test, port->afu.size, SZ_4K);
	KUNIT_EXPECT_EQ(test, port->afu.type, DFH_TYPE_AFU);
	KUNIT_EXPECT_EQ(test, port->afu_guid_l, NLB0_AFU_GUID_L);
	KUNIT_EXPECT_EQ(test, port->afu_guid_h, NLB0_AFU_GUID_H);
}

static void dfl_parser_eol_ends_list(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_card *card;

	/* A valid feature after the EOL one is not on the list */
	sane_card(t);
	win_put(t, FME_ERR, win_get(t, FME_ERR) | FIELD_PREP(DFH_NEXT, SZ_4K));
	win_put(t, FME_ERR + SZ_4K, dfh(DFH_TYPE_PRIVATE, 0x77, 0, true));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_reports, 0);
	KUNIT_ASSERT_NOT_NULL(test, card->fme);
	KUNIT_EXPECT_EQ(test, card->fme->num_features, 1);
	KUNIT_EXPECT_EQ(test, card->fme->features[0].size, SZ_4K);
}

static void dfl_parser_next_zero(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;
	struct fpga_dfl_card *card;

	/* next = 0 without EOL: the feature is kept, the list ends there */
	sane_card(t);
	win_put(t, PORT_ERR, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR, 0, false));
	win_put(t, PORT_UINT, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_UINT, 0, true));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, PORT_ERR);
	port = the_port(test);
	KUNIT_ASSERT_EQ(test, port->num_features, 1);
	KUNIT_EXPECT_EQ(test, port->features[0].id, PORT_FEATURE_ID_ERROR);
	KUNIT_EXPECT_EQ(test, port->features[0].size, DFL_DEFAULT_FEATURE_SIZE);
}

static void dfl_parser_size(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;
	size_t last = WIN_LEN - 0x800;

	/*
	 * A block is as long as its next offset (0x2000 for the error
	 * feature); the last one gets DFL_DEFAULT_FEATURE_SIZE, cut at the
	 * end of the window (0x800 left).
	 */
	sane_card(t);
	win_link(t, PORT_ERR, PORT_ERR + 0x2000);
	win_link(t, PORT_ERR + 0x2000, last);
	win_put(t, PORT_ERR + 0x2000, win_get(t, PORT_ERR + 0x2000) |
		FIELD_PREP(DFH_TYPE, DFH_TYPE_PRIVATE) | FIELD_PREP(DFH_ID, 0x20));
	win_put(t, last, dfh(DFH_TYPE_PRIVATE, 0x21, 0, true));
	/* The AFU must not overlap the blocks: no AFU on this port */
	win_put(t, PORT + FIU_NEXT_AFU, 0);
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	port = the_port(test);
	KUNIT_ASSERT_EQ(test, port->num_features, 3);
	KUNIT_EXPECT_EQ(test, port->features[0].size, 0x2000);
	KUNIT_EXPECT_EQ(test, port->features[1].size, last - (PORT_ERR + 0x2000));
	KUNIT_EXPECT_EQ(test, ofs_of(t, port->features[2].ioaddr), last);
	KUNIT_EXPECT_EQ(test, port->features[2].size, 0x800);
	KUNIT_EXPECT_EQ(test, port->afu.size, 0);
}

static void dfl_parser_afu_size_fallback(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* No MMIO size in PORT_CAP: the AFU's own next offset, else 4 KiB */
	sane_card(t);
	win_put(t, PORT + PORT_HDR_CAP, 0);
	win_put(t, AFU, dfh(DFH_TYPE_AFU, 0, 0x3000, true));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, 0x3000);
	discard(t);

	win_put(t, AFU, dfh(DFH_TYPE_AFU, 0, 0, true));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, DFL_DEFAULT_FEATURE_SIZE);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
}

static void dfl_parser_loop(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_card *card;

	/* FME ports 0 and 1 at the same list: the second walk is a loop */
	sane_card(t);
	win_put(t, FME + FME_HDR_PORT_OFST(1), win_get(t, FME + FME_HDR_PORT_OFST(0)));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_ports, 1);
	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, PORT);
}

static void dfl_parser_port_gap(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* Port 0 a VF's: the port FME register 1 names is port 1 */
	sane_card(t);
	win_put(t, FME + FME_HDR_PORT_OFST(1), win_get(t, FME + FME_HDR_PORT_OFST(0)));
	win_put(t, FME + FME_HDR_PORT_OFST(0),
		FME_PORT_OFST_IMP | FME_PORT_OFST_ACC_VF |
		FIELD_PREP(FME_PORT_OFST_DFH, SZ_4K * 3));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_EXPECT_EQ(test, the_port(test)->port_num, 1);
	KUNIT_EXPECT_EQ(test, fpga_dfl_port_index(t->card, 1), 0);
	KUNIT_EXPECT_EQ(test, fpga_dfl_port_index(t->card, 0), -EINVAL);
	discard(t);

	/*
	 * The port on the FME's own list, named by register 2 (0 and 1 not
	 * implemented): port 2, walked once
	 */
	sane_card(t);
	win_link(t, FME_ERR, PORT);
	win_put(t, FME + FME_HDR_PORT_OFST(2), win_get(t, FME + FME_HDR_PORT_OFST(0)));
	win_put(t, FME + FME_HDR_PORT_OFST(0), 0);
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_EXPECT_EQ(test, the_port(test)->port_num, 2);
	KUNIT_EXPECT_EQ(test, fpga_dfl_port_index(t->card, 2), 0);
}

static void dfl_parser_overlap(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;

	/*
	 * The error feature's block covers the AFU, claimed first (with the
	 * port header): the feature is dropped and the list ends.
	 */
	sane_card(t);
	win_put(t, PORT_ERR, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR,
				 0x4000, true));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, PORT_ERR);
	port = the_port(test);
	KUNIT_EXPECT_EQ(test, port->afu.size, SZ_4K);
	KUNIT_EXPECT_EQ(test, port->num_features, 0);
}

static void dfl_parser_outside_window(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_card *card;

	/* next beyond the window: feature kept, list ends; cut to the window */
	sane_card(t);
	win_put(t, PORT_ERR, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR,
				 WIN_LEN, false));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, PORT_ERR);
	KUNIT_ASSERT_EQ(test, the_port(test)->num_features, 1);
	KUNIT_EXPECT_EQ(test, the_port(test)->features[0].size, SZ_4K);
	discard(t);

	/* An FME port offset beyond the window: no port */
	sane_card(t);
	win_put(t, FME + FME_HDR_PORT_OFST(0),
		FME_PORT_OFST_IMP | FIELD_PREP(FME_PORT_OFST_DFH, WIN_LEN));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_ports, 0);
	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, WIN_LEN);
	discard(t);

	/* Unaligned next */
	sane_card(t);
	win_put(t, FME, dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME, FME_ERR - FME + 4, false));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, FME);
	KUNIT_ASSERT_NOT_NULL(test, card->fme);
	KUNIT_EXPECT_EQ(test, card->fme->num_features, 0);
	KUNIT_EXPECT_EQ(test, card->num_ports, 1);
	discard(t);

	/* An AFU that runs past the window */
	sane_card(t);
	win_put(t, PORT + PORT_HDR_CAP, FIELD_PREP(PORT_CAP_MMIO_SIZE, 64));
	card = enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, card->last_report, AFU);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, 0);
}

static void dfl_parser_unknown(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;

	/* Type 7 and DFH version 2 are skipped; the list goes on */
	sane_card(t);
	win_link(t, PORT_ERR, PORT_UINT);
	win_put(t, PORT_ERR, win_get(t, PORT_ERR) | FIELD_PREP(DFH_TYPE, 7));
	win_put(t, PORT_UINT, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_UINT, SZ_4K,
				  false) | FIELD_PREP(DFH_VERSION, 2));
	win_put(t, PORT_UINT + SZ_4K, dfh(DFH_TYPE_PRIVATE, 0x33, 0, true));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 2);
	KUNIT_EXPECT_EQ(test, t->card->last_report, PORT_UINT);
	port = the_port(test);
	KUNIT_ASSERT_EQ(test, port->num_features, 1);
	KUNIT_EXPECT_EQ(test, port->features[0].id, 0x33);
}

static void dfl_parser_unknown_fiu(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* An unknown FIU ends the list; no FME or port at all is -ENODEV */
	win_put(t, FME, dfh(DFH_TYPE_FIU, 7, 0, true));
	KUNIT_EXPECT_EQ(test, PTR_ERR(enumerate(test)), -ENODEV);
	t->card = NULL;

	t->info.len = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(enumerate(test)), -EINVAL);
	t->card = NULL;
}

static void dfl_parser_fiu_limits(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	unsigned int i;

	/* One list: FME, then FME_MAX_PORTS + 1 ports; the last is refused */
	win_put(t, FME, dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME, SZ_4K, false));
	for (i = 1; i <= FME_MAX_PORTS + 1; i++)
		win_put(t, i * SZ_4K, dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, SZ_4K,
					  i == FME_MAX_PORTS + 1));
	enumerate_ok(test);
	KUNIT_EXPECT_NOT_NULL(test, t->card->fme);
	KUNIT_ASSERT_EQ(test, t->card->num_ports, FME_MAX_PORTS);
	for (i = 0; i < FME_MAX_PORTS; i++) {
		KUNIT_EXPECT_EQ(test, t->card->ports[i]->port_num, i);
		KUNIT_EXPECT_EQ(test, ofs_of(t, t->card->ports[i]->hdr.ioaddr),
				(i + 1) * SZ_4K);
	}
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, (FME_MAX_PORTS + 1) * SZ_4K);
	discard(t);

	/* A second FME ends the list */
	memset(t->win, 0, WIN_LEN);
	win_put(t, FME, dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME, SZ_4K, false));
	win_put(t, SZ_4K, dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME, SZ_4K, false));
	win_put(t, 2 * SZ_4K, dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, 0, true));
	enumerate_ok(test);
	KUNIT_ASSERT_NOT_NULL(test, t->card->fme);
	KUNIT_EXPECT_EQ(test, ofs_of(t, t->card->fme->hdr.ioaddr), FME);
	KUNIT_EXPECT_EQ(test, t->card->num_ports, 0);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, SZ_4K);
}

static void dfl_parser_private_before_fiu(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* A private feature with no FIU yet is skipped; the list goes on */
	win_put(t, 0, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR, SZ_4K,
			  false));
	win_put(t, SZ_4K, dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, SZ_4K, false));
	win_put(t, 2 * SZ_4K, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR, 0,
				  true));
	enumerate_ok(test);
	KUNIT_EXPECT_NULL(test, t->card->fme);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, 0);
	KUNIT_ASSERT_EQ(test, the_port(test)->num_features, 1);
	KUNIT_EXPECT_EQ(test, ofs_of(t, the_port(test)->features[0].ioaddr),
			2 * SZ_4K);
}

/* The port's UINT feature as DFHv1 at PORT_UINT, after the error feature */
static void dfhv1_uint(struct dfl_kunit *t, u64 csr_addr, u64 size_grp)
{
	win_link(t, PORT_ERR, PORT_UINT);
	win_put(t, PORT_UINT, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_UINT, 0, true) |
		FIELD_PREP(DFH_VERSION, 1));
	win_put(t, PORT_UINT + DFHV1_CSR_ADDR, csr_addr);
	win_put(t, PORT_UINT + DFHV1_CSR_SIZE_GRP, size_grp);
}

static u64 msix_param(u64 next_words, bool eop)
{
	return FIELD_PREP(DFHV1_PARAM_ID, DFHV1_PARAM_ID_MSIX) |
	       FIELD_PREP(DFHV1_PARAM_NEXT, next_words) |
	       (eop ? DFHV1_PARAM_EOP : 0);
}

static void dfl_parser_dfhv1(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_feature *uint;
	unsigned int i;

	/* Relative registers 0x200 after the DFH; MSI-X vectors 3..6 */
	sane_card(t);
	dfhv1_uint(t, 0x200, FIELD_PREP(DFHV1_CSR_SIZE, 0x100) |
		   DFHV1_HAS_PARAMS);
	/* A parameter of another id first, then MSI-X */
	win_put(t, PORT_UINT + DFHV1_PARAM_HDR,
		FIELD_PREP(DFHV1_PARAM_ID, 0x99) | FIELD_PREP(DFHV1_PARAM_NEXT, 2));
	win_put(t, PORT_UINT + DFHV1_PARAM_HDR + 16, msix_param(0, true));
	win_put(t, PORT_UINT + DFHV1_PARAM_HDR + 16 + DFHV1_PARAM_DATA,
		FIELD_PREP(DFHV1_PARAM_MSIX_START, 3) |
		FIELD_PREP(DFHV1_PARAM_MSIX_COUNT, 4));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_ASSERT_EQ(test, the_port(test)->num_features, 2);
	uint = &the_port(test)->features[1];
	KUNIT_EXPECT_EQ(test, uint->id, PORT_FEATURE_ID_UINT);
	KUNIT_EXPECT_EQ(test, uint->dfh_version, 1);
	KUNIT_EXPECT_EQ(test, ofs_of(t, uint->ioaddr), PORT_UINT + 0x200);
	KUNIT_EXPECT_EQ(test, uint->start, WIN_START + PORT_UINT + 0x200);
	KUNIT_EXPECT_EQ(test, uint->size, 0x100);
	KUNIT_ASSERT_EQ(test, uint->irq_count, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, uint->irqs[i], t->irqs[3 + i]);
	discard(t);

	/* Absolute address (a bus address in the window), no parameters */
	sane_card(t);
	dfhv1_uint(t, (WIN_START + 0xa000) | DFHV1_CSR_ADDR_ABS,
		   FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_ASSERT_EQ(test, the_port(test)->num_features, 2);
	uint = &the_port(test)->features[1];
	KUNIT_EXPECT_EQ(test, ofs_of(t, uint->ioaddr), 0xa000);
	KUNIT_EXPECT_EQ(test, uint->size, SZ_4K);
	KUNIT_EXPECT_EQ(test, uint->irq_count, 0);
}

static void dfl_parser_dfhv1_bad(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* Registers outside the window: feature skipped */
	sane_card(t);
	dfhv1_uint(t, WIN_LEN - 0x100 - PORT_UINT,
		   FIELD_PREP(DFHV1_CSR_SIZE, 0x200));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, PORT_UINT);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
	discard(t);

	/* Parameter list with next = 0 and no EOP: feature skipped */
	sane_card(t);
	dfhv1_uint(t, 0, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K) | DFHV1_HAS_PARAMS);
	win_put(t, PORT_UINT + DFHV1_PARAM_HDR, msix_param(0, false));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, PORT_UINT);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
	discard(t);

	/* Parameters running out of the window: feature skipped */
	sane_card(t);
	dfhv1_uint(t, 0, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K) | DFHV1_HAS_PARAMS);
	win_put(t, PORT_UINT + DFHV1_PARAM_HDR, msix_param(WIN_LEN / 8, false));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
}

static void dfl_parser_irq_caps(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;

	/* Error interrupt at vector 2, user interrupts 4..7 (the last ones) */
	sane_card(t);
	win_put(t, PORT_ERR + PORT_ERROR_CAP, PORT_ERROR_CAP_SUPP_INT |
		FIELD_PREP(PORT_ERROR_CAP_INT_VECT, 2));
	win_link(t, PORT_ERR, PORT_UINT);
	win_put(t, PORT_UINT, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_UINT, 0, true));
	win_put(t, PORT_UINT + PORT_UINT_CAP,
		FIELD_PREP(PORT_UINT_CAP_FST_VECT, 4) |
		FIELD_PREP(PORT_UINT_CAP_INT_NUM, 4));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	port = the_port(test);
	KUNIT_ASSERT_EQ(test, port->num_features, 2);
	KUNIT_ASSERT_EQ(test, port->features[0].irq_count, 1);
	KUNIT_EXPECT_EQ(test, port->features[0].irqs[0], t->irqs[2]);
	KUNIT_ASSERT_EQ(test, port->features[1].irq_count, 4);
	KUNIT_EXPECT_EQ(test, port->features[1].irqs[3], t->irqs[7]);
	discard(t);

	/* One vector too many: the feature stays, without interrupts */
	win_put(t, PORT_UINT + PORT_UINT_CAP,
		FIELD_PREP(PORT_UINT_CAP_FST_VECT, 5) |
		FIELD_PREP(PORT_UINT_CAP_INT_NUM, 4));
	/* Error capability without SUPP_INT: no interrupt, not an error */
	win_put(t, PORT_ERR + PORT_ERROR_CAP,
		FIELD_PREP(PORT_ERROR_CAP_INT_VECT, 2));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, t->card->last_report, PORT_UINT);
	port = the_port(test);
	KUNIT_ASSERT_EQ(test, port->num_features, 2);
	KUNIT_EXPECT_EQ(test, port->features[0].irq_count, 0);
	KUNIT_EXPECT_EQ(test, port->features[1].irq_count, 0);
	KUNIT_EXPECT_NULL(test, port->features[1].irqs);
	discard(t);

	/* A vector number that wraps first + count around: rejected */
	win_put(t, PORT_UINT + PORT_UINT_CAP,
		FIELD_PREP(PORT_UINT_CAP_FST_VECT, 0xfff) |
		FIELD_PREP(PORT_UINT_CAP_INT_NUM, 2));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 1);
	KUNIT_EXPECT_EQ(test, the_port(test)->features[1].irq_count, 0);
}

static void dfl_parser_irq_caps_private_only(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;

	/*
	 * An AFU with the error feature's id and a 0x20-byte block: the
	 * capability's offset is past its block, and no capability anyway
	 */
	sane_card(t);
	win_put(t, PORT + PORT_HDR_CAP, 0);
	win_put(t, AFU, dfh(DFH_TYPE_AFU, PORT_FEATURE_ID_ERROR, 0x20, true));
	win_put(t, AFU + PORT_ERROR_CAP, PORT_ERROR_CAP_SUPP_INT |
		FIELD_PREP(PORT_ERROR_CAP_INT_VECT, 2));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	port = the_port(test);
	KUNIT_EXPECT_EQ(test, port->afu.size, 0x20);
	KUNIT_EXPECT_EQ(test, port->afu.irq_count, 0);
	discard(t);

	/* An AFU with the UINT's id: its GUID is not a capability */
	sane_card(t);
	win_put(t, AFU, dfh(DFH_TYPE_AFU, PORT_FEATURE_ID_UINT, 0, true));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.irq_count, 0);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu_guid_l, NLB0_AFU_GUID_L);
	discard(t);

	/* A DFHv1 AFU with an MSI-X parameter: no driver takes AFU vectors */
	sane_card(t);
	win_put(t, AFU, win_get(t, AFU) | FIELD_PREP(DFH_VERSION, 1));
	win_put(t, AFU + DFHV1_CSR_SIZE_GRP, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K) |
		DFHV1_HAS_PARAMS);
	win_put(t, AFU + DFHV1_PARAM_HDR, msix_param(0, true));
	win_put(t, AFU + DFHV1_PARAM_HDR + DFHV1_PARAM_DATA,
		FIELD_PREP(DFHV1_PARAM_MSIX_START, 0) |
		FIELD_PREP(DFHV1_PARAM_MSIX_COUNT, 2));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, SZ_4K);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.irq_count, 0);
	discard(t);

	/* An AFU of the FME with the global error's id, 0x20 bytes */
	sane_card(t);
	win_put(t, FME + FIU_NEXT_AFU, FIELD_PREP(FIU_NEXT_AFU_OFFSET, 0x2000));
	win_put(t, 0x2000, dfh(DFH_TYPE_AFU, FME_FEATURE_ID_GLOBAL_ERR, 0x20,
			       true));
	win_put(t, 0x2000 + FME_ERROR_CAP, FME_ERROR_CAP_SUPP_INT |
		FIELD_PREP(FME_ERROR_CAP_INT_VECT, 1));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_ASSERT_NOT_NULL(test, t->card->fme);
	KUNIT_EXPECT_EQ(test, t->card->fme->afu.size, 0x20);
	KUNIT_EXPECT_EQ(test, t->card->fme->afu.irq_count, 0);
}

/* The AFU as DFHv1, its registers at window offset @csr */
static void dfhv1_afu(struct dfl_kunit *t, size_t csr, bool absolute)
{
	win_put(t, AFU, win_get(t, AFU) | FIELD_PREP(DFH_VERSION, 1));
	win_put(t, AFU + DFHV1_CSR_ADDR, absolute ?
		(WIN_START + csr) | DFHV1_CSR_ADDR_ABS : (u64)csr - AFU);
	win_put(t, AFU + DFHV1_CSR_SIZE_GRP, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
}

static void dfl_parser_dfhv1_afu_on_a_header(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* Relative, backwards onto its own port's header: no AFU */
	sane_card(t);
	dfhv1_afu(t, PORT, false);
	enumerate_one_report(test, AFU);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, 0);
	KUNIT_EXPECT_TRUE(test, !the_port(test)->afu.ioaddr);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
	discard(t);

	/* Absolute, onto the FME header */
	sane_card(t);
	dfhv1_afu(t, FME, true);
	enumerate_one_report(test, AFU);
	KUNIT_EXPECT_NOT_NULL(test, t->card->fme);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, 0);
	discard(t);

	/* Onto free space: kept */
	sane_card(t);
	dfhv1_afu(t, 0xa000, true);
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_EXPECT_EQ(test, ofs_of(t, the_port(test)->afu.ioaddr), 0xa000);
}

static void dfl_parser_dfhv1_regs_overlap(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* The UINT's registers are the AFU's: skipped, the AFU stays */
	sane_card(t);
	dfhv1_uint(t, AFU - PORT_UINT, FIELD_PREP(DFHV1_CSR_SIZE, 0x100));
	enumerate_one_report(test, PORT_UINT);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, SZ_4K);
	discard(t);

	/* Two DFHv1 features with registers elsewhere, overlapping */
	sane_card(t);
	dfhv1_uint(t, (WIN_START + 0xa800) | DFHV1_CSR_ADDR_ABS,
		   FIELD_PREP(DFHV1_CSR_SIZE, 0x100));
	win_put(t, FME_ERR, win_get(t, FME_ERR) | FIELD_PREP(DFH_VERSION, 1));
	win_put(t, FME_ERR + DFHV1_CSR_ADDR, 0xa000 - FME_ERR);
	win_put(t, FME_ERR + DFHV1_CSR_SIZE_GRP, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
	enumerate_one_report(test, PORT_UINT);
	KUNIT_ASSERT_EQ(test, t->card->fme->num_features, 1);
	KUNIT_EXPECT_EQ(test, ofs_of(t, t->card->fme->features[0].ioaddr), 0xa000);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
	discard(t);

	/* Claimed first, the FME feature's registers end the port's list */
	sane_card(t);
	win_put(t, FME_ERR, win_get(t, FME_ERR) | FIELD_PREP(DFH_VERSION, 1));
	win_put(t, FME_ERR + DFHV1_CSR_ADDR, PORT_ERR - FME_ERR);
	win_put(t, FME_ERR + DFHV1_CSR_SIZE_GRP, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
	enumerate_one_report(test, PORT_ERR);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 0);
	discard(t);

	/* A DFHv1 port header whose registers are the FME's: no port */
	sane_card(t);
	win_put(t, PORT, win_get(t, PORT) | FIELD_PREP(DFH_VERSION, 1));
	win_put(t, PORT + DFHV1_CSR_ADDR, WIN_START | DFHV1_CSR_ADDR_ABS);
	win_put(t, PORT + DFHV1_CSR_SIZE_GRP, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
	enumerate_one_report(test, PORT);
	KUNIT_EXPECT_EQ(test, t->card->num_ports, 0);
	discard(t);

	/* Registers past the end of its own block, into free space: kept */
	sane_card(t);
	dfhv1_uint(t, 0x800, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
	enumerate_ok(test);
	KUNIT_EXPECT_EQ(test, t->card->num_reports, 0);
	KUNIT_ASSERT_EQ(test, the_port(test)->num_features, 2);
	KUNIT_EXPECT_EQ(test, ofs_of(t, the_port(test)->features[1].ioaddr),
			PORT_UINT + 0x800);
}

static void dfl_parser_future_dfh(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	u64 v2 = FIELD_PREP(DFH_VERSION, 2);

	/* An FME of DFH version 2: not used, its list ends, no card at all */
	sane_card(t);
	win_put(t, FME, win_get(t, FME) | v2);
	KUNIT_EXPECT_EQ(test, PTR_ERR(enumerate(test)), -ENODEV);
	t->card = NULL;

	/* A port of version 2: the FME stays, the port does not */
	sane_card(t);
	win_put(t, PORT, win_get(t, PORT) | v2);
	enumerate_one_report(test, PORT);
	KUNIT_EXPECT_NOT_NULL(test, t->card->fme);
	KUNIT_EXPECT_EQ(test, t->card->num_ports, 0);
	discard(t);

	/* An AFU of version 2: the port stays, without an AFU */
	sane_card(t);
	win_put(t, AFU, win_get(t, AFU) | v2);
	enumerate_one_report(test, AFU);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu.size, 0);
	/* Not KUNIT_EXPECT_NULL: it compares an __iomem with a (void *) */
	KUNIT_EXPECT_TRUE(test, !the_port(test)->afu.ioaddr);
	KUNIT_EXPECT_EQ(test, the_port(test)->afu_guid_l, 0);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
}

static void dfl_parser_short_blocks(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_device *port;

	/* A port header block shorter than its registers: no port */
	sane_card(t);
	win_put(t, PORT, dfh(DFH_TYPE_FIU, DFH_ID_FIU_PORT, 0x40, false));
	win_put(t, PORT + 0x40, dfh(DFH_TYPE_PRIVATE, 0x33, 0, true));
	enumerate_one_report(test, PORT);
	KUNIT_EXPECT_EQ(test, t->card->num_ports, 0);
	discard(t);

	/* An FME header cut by the end of the window: no FME */
	memset(t->win, 0, WIN_LEN);
	win_put(t, WIN_LEN - 0x60, dfh(DFH_TYPE_FIU, DFH_ID_FIU_FME, 0, true));
	t->info.first = WIN_LEN - 0x60;
	KUNIT_EXPECT_EQ(test, PTR_ERR(enumerate(test)), -ENODEV);
	t->card = NULL;
	t->info.first = 0;

	/* An error feature whose capability lies past its block: skipped */
	sane_card(t);
	win_put(t, PORT_ERR, dfh(DFH_TYPE_PRIVATE, PORT_FEATURE_ID_ERROR,
				 PORT_ERROR_CAP, false));
	win_put(t, PORT_ERR + PORT_ERROR_CAP, dfh(DFH_TYPE_PRIVATE, 0x33, 0, true));
	enumerate_one_report(test, PORT_ERR);
	port = the_port(test);
	KUNIT_ASSERT_EQ(test, port->num_features, 1);
	KUNIT_EXPECT_EQ(test, port->features[0].id, 0x33);
	discard(t);

	/* A counter bank too short for its counters: skipped */
	sane_card(t);
	win_put(t, FME_ERR, dfh(DFH_TYPE_PRIVATE, FME_FEATURE_ID_COUNTERS,
				0x100, false));
	win_put(t, FME_ERR + 0x100, dfh(DFH_TYPE_PRIVATE, 0x34, 0, true));
	enumerate_one_report(test, FME_ERR);
	KUNIT_ASSERT_EQ(test, t->card->fme->num_features, 1);
	KUNIT_EXPECT_EQ(test, t->card->fme->features[0].id, 0x34);
}

static void dfl_parser_dfhv1_short(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	/* A DFHv1 register block smaller than the UINT's capability */
	sane_card(t);
	dfhv1_uint(t, 0x200, FIELD_PREP(DFHV1_CSR_SIZE, 8));
	enumerate_one_report(test, PORT_UINT);
	KUNIT_EXPECT_EQ(test, the_port(test)->num_features, 1);
	discard(t);

	/* A DFHv1 header in a block too small to hold it */
	sane_card(t);
	dfhv1_uint(t, 0x200, FIELD_PREP(DFHV1_CSR_SIZE, SZ_4K));
	win_link(t, PORT_UINT, PORT_UINT + 0x20);
	win_put(t, PORT_UINT + 0x20, dfh(DFH_TYPE_PRIVATE, 0x33, 0, true));
	enumerate_one_report(test, PORT_UINT);
	KUNIT_ASSERT_EQ(test, the_port(test)->num_features, 2);
	KUNIT_EXPECT_EQ(test, the_port(test)->features[1].id, 0x33);
	discard(t);

	/* A DFHv1 port whose header registers are too few: no port */
	sane_card(t);
	win_put(t, PORT, win_get(t, PORT) | FIELD_PREP(DFH_VERSION, 1));
	win_put(t, PORT + DFHV1_CSR_ADDR, 0x800);
	win_put(t, PORT + DFHV1_CSR_SIZE_GRP, FIELD_PREP(DFHV1_CSR_SIZE, 0x40));
	enumerate_one_report(test, PORT);
	KUNIT_EXPECT_EQ(test, t->card->num_ports, 0);
}

static int dfl_parser_init(struct kunit *test)
{
	struct dfl_kunit *t;
	unsigned int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->win = kunit_kzalloc(test, WIN_LEN, GFP_KERNEL);
	if (!t->win)
		return -ENOMEM;
	/*
	 * No owner: suites run while the module is still coming, before
	 * its sysfs directory (the "module" link's target) exists.
	 */
	t->parent = __root_device_register("fpga_dfl_kunit", NULL);
	if (IS_ERR(t->parent))
		return PTR_ERR(t->parent);
	for (i = 0; i < NUM_IRQS; i++)
		t->irqs[i] = 100 + i;
	t->info.parent = t->parent;
	/* Plain memory read through readq(), as fpga_sim does */
	t->info.ioaddr = (__force void __iomem *)t->win;
	t->info.start = WIN_START;
	t->info.len = WIN_LEN;
	t->info.irqs = t->irqs;
	t->info.num_irqs = NUM_IRQS;
	test->priv = t;
	return 0;
}

static void dfl_parser_exit(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;

	if (!t)		/* init failed */
		return;
	if (!IS_ERR_OR_NULL(t->card))
		fpga_dfl_card_discard(t->card);
	root_device_unregister(t->parent);
}

static struct kunit_case dfl_parser_cases[] = {
	KUNIT_CASE(dfl_parser_sane_card),
	KUNIT_CASE(dfl_parser_eol_ends_list),
	KUNIT_CASE(dfl_parser_next_zero),
	KUNIT_CASE(dfl_parser_size),
	KUNIT_CASE(dfl_parser_afu_size_fallback),
	KUNIT_CASE(dfl_parser_loop),
	KUNIT_CASE(dfl_parser_port_gap),
	KUNIT_CASE(dfl_parser_overlap),
	KUNIT_CASE(dfl_parser_outside_window),
	KUNIT_CASE(dfl_parser_unknown),
	KUNIT_CASE(dfl_parser_unknown_fiu),
	KUNIT_CASE(dfl_parser_fiu_limits),
	KUNIT_CASE(dfl_parser_private_before_fiu),
	KUNIT_CASE(dfl_parser_dfhv1),
	KUNIT_CASE(dfl_parser_dfhv1_bad),
	KUNIT_CASE(dfl_parser_irq_caps),
	KUNIT_CASE(dfl_parser_irq_caps_private_only),
	KUNIT_CASE(dfl_parser_dfhv1_afu_on_a_header),
	KUNIT_CASE(dfl_parser_dfhv1_regs_overlap),
	KUNIT_CASE(dfl_parser_future_dfh),
	KUNIT_CASE(dfl_parser_short_blocks),
	KUNIT_CASE(dfl_parser_dfhv1_short),
	{}
};

static struct kunit_suite dfl_parser_suite = {
	.name = "fpga_dfl_parser",
	.init = dfl_parser_init,
	.exit = dfl_parser_exit,
	.test_cases = dfl_parser_cases,
};

/* The FME register that names port @n */
static u64 port_ofst(struct dfl_kunit *t, unsigned int n)
{
	return win_get(t, FME + FME_HDR_PORT_OFST(n));
}

/*
 * Upstream's rule (dfl-sriov.c) on a card whose one port is port 2: as
 * many VFs as released ports, routed by the register that names the port
 */
static void dfl_sriov_released_ports_only(struct kunit *test)
{
	struct dfl_kunit *t = test->priv;
	struct fpga_dfl_card *card;

	sane_card(t);
	win_put(t, FME + FME_HDR_PORT_OFST(2), port_ofst(t, 0));
	win_put(t, FME + FME_HDR_PORT_OFST(0), 0);
	card = enumerate_ok(test);
	KUNIT_ASSERT_EQ(test, the_port(test)->port_num, 2);

	/* Nothing released: no VF */
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_sriov_enable(card, 1), -EINVAL);
	KUNIT_EXPECT_FALSE(test, port_ofst(t, 2) & FME_PORT_OFST_ACC_VF);

	/* As fpga_dfl_port_release() leaves a port with no device */
	card->port_released[0] = true;
	card->released_id[0] = -1;
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_sriov_enable(card, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_sriov_enable(card, 0), -EINVAL);
	KUNIT_EXPECT_FALSE(test, port_ofst(t, 2) & FME_PORT_OFST_ACC_VF);
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_vf_port(card, 0), -ENODEV);

	KUNIT_ASSERT_EQ(test, fpga_dfl_card_sriov_enable(card, 1), 0);
	KUNIT_EXPECT_TRUE(test, port_ofst(t, 2) & FME_PORT_OFST_ACC_VF);
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_vf_port(card, 0), 2);
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_vf_port(card, 1), -ENODEV);
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_sriov_enable(card, 1), -EBUSY);

	/* Back to the PF, still released; the rest of the register kept */
	fpga_dfl_card_sriov_disable(card);
	KUNIT_EXPECT_EQ(test, port_ofst(t, 2),
			FME_PORT_OFST_IMP | FIELD_PREP(FME_PORT_OFST_DFH, PORT));
	KUNIT_EXPECT_EQ(test, fpga_dfl_card_vf_port(card, 0), -ENODEV);
	KUNIT_EXPECT_TRUE(test, card->port_released[0]);
	card->port_released[0] = false;
}

static struct kunit_case dfl_sriov_cases[] = {
	KUNIT_CASE(dfl_sriov_released_ports_only),
	{}
};

static struct kunit_suite dfl_sriov_suite = {
	.name = "fpga_dfl_sriov",
	.init = dfl_parser_init,
	.exit = dfl_parser_exit,
	.test_cases = dfl_sriov_cases,
};

kunit_test_suites(&dfl_parser_suite, &dfl_sriov_suite);

MODULE_DESCRIPTION("KUnit suite of the DFL parser (fpga_dfl)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("FPGA_SUITE_KUNIT");
