/*
 * layout_internal.h: the representation of layouts and layout maps, for the
 * layout code only (layout.c, linear_layout.c and the layout unit test).
 *
 * Everything else sees Layout and LayoutMap as opaque types and asks the
 * questions of codegen.h's "Layout interface" (thread coordinates as terms
 * over the lane and warp index, the unique-copy predicate, register offsets,
 * contiguous runs, reduction lanes and warps). The Makefile fails the build
 * of any other file whose dependencies name this header, so no lowering file
 * can read a blocked-layout field.
 */
#ifndef TESSERA_LAYOUT_INTERNAL_H
#define TESSERA_LAYOUT_INTERNAL_H

#include "codegen.h"

typedef enum LayoutKind { LAYOUT_BLOCKED, LAYOUT_SLICE } LayoutKind;

struct Layout {
    LayoutKind kind;
    int rank;                          /* rank of the tiles it distributes */
    /* LAYOUT_BLOCKED */
    int size_per_thread[IR_MAX_RANK];
    int threads_per_warp[IR_MAX_RANK];
    int warps_per_cta[IR_MAX_RANK];
    int order[IR_MAX_RANK];            /* order[0] is the fastest-varying dim */
    /* LAYOUT_SLICE */
    const struct Layout *parent;
    int slice_dim;                     /* the parent's dim that is removed */
};

/* One dim of a tile under a layout: where its elements are. */
typedef struct LayoutDim {
    int64_t size;                      /* the tile's size along this dim */
    int root_dim;                      /* the dim of the blocked root layout */
    bool in_registers;                 /* not a power of two: whole dim in each thread */
    int spt, tpw, wpc;                 /* size_per_thread (clipped), threads, warps */
    int64_t reach;                     /* spt * tpw * wpc before clipping */
    int64_t regs;                      /* registers along this dim */
    int unique_threads;                /* threads along it that hold distinct elements */
} LayoutDim;

/* A layout applied to a shape. Register r of a thread holds the element
   whose coordinate along dim d is base_d(thread) + layout_reg_offset(d, r);
   registers are numbered row-major over the dims' register counts. */
struct LayoutMap {
    const Layout *root;                /* the blocked layout at the bottom */
    int rank;
    LayoutDim dims[IR_MAX_RANK];
    int64_t num_regs;
    /* root dims the tile does not have (sliced away): their threads replicate */
    int num_sliced;
    int sliced_dims[IR_MAX_RANK];
    /* lane and warp numbering of each root dim: lane_d = lane / lane_stride % tpw */
    int lane_stride[IR_MAX_RANK], warp_stride[IR_MAX_RANK];
    /* The same map as a linear layout (register, lane, warp) -> tile
       coordinates over the kernel's warps (linear_layout.h), from which
       layout.c answers the interface's questions; NULL where it was not
       built (layout_map alone, or a map linear_from_layout cannot express):
       then the answers come from the fields above. */
    const struct LinearLayout *linear;
};

/* Fills `map` without its linear map (layout_map_new adds one). */
void layout_map(const Layout *layout, const IrType *shape, LayoutMap *map);
/* The linear map of `layout` on `shape` for `warps` warps, or NULL where
   linear_from_layout cannot express it (or the tile's rank is not the
   layout's), from `arena`. */
const struct LinearLayout *layout_linear_new(Arena *arena, const Layout *layout, const IrType *shape, int warps);

#endif
