/*
 * llvm_memory.c: refs, views, load, store, atomics and alloc in LLVM IR.
 *
 * A ref is a base pointer, an element offset to its origin, a stride per
 * dim, and per dim a list of bounds: a position is in bounds iff it is in
 * bounds for every enclosing view and for the array (spec section 3, "Edge
 * blocks"). A view shifts the parent's bounds by its offset and adds its own
 * extent; an indexed (dropped) dim becomes a scalar validity condition.
 *
 * Loads and stores go by per-thread vectors along the last dim (the layout
 * puts up to 16 bytes there). A vector is accessed with one ld/st.v2/v4
 * (PTX ISA 9.7.9.8 ld, 9.7.9.10 st) when all of its elements are in bounds
 * and its address is aligned, which the code checks at run time, since
 * neither the sizes nor the row strides are known here; otherwise each
 * element is accessed alone under its own mask. Masked-off reads give 0 or
 * `other`; masked-off writes are dropped. A store never reads its output,
 * and threads holding copies of an element (replicated layouts) do not
 * store or apply atomics: only the first copy does.
 */
#include "llvm_lower.h"
#include "linear_layout.h"

#include <string.h>

/* ---- refs --------------------------------------------------------------------------- */

static Ref *ref_new(Lowering *L, const IrValue *v) {
    Ref *r = ARENA_NEW(&L->kernel->arena, Ref);
    r->dtype = v->type.dtype;
    r->space = v->type.space;
    r->rank = v->type.rank;
    r->readonly = v->type.access == ACCESS_IN;
    L->refs[v->id] = r;
    return r;
}

static Ref *ref_of(Lowering *L, const IrValue *v) {
    Ref *r = L->refs[v->id];
    if (!r)
        INTERNAL_ERROR("kernel '%s': ref value %d has no lowering", L->kernel->name, v->id);
    return r;
}

static LLVMValueRef size_value(Lowering *L, const IrDim *dim) {
    if (!dim->sym)
        return llvm_kernel_i32(L, dim->size);
    for (int i = 0; i < L->kernel->num_params; i++) {
        const IrParam *p = &L->kernel->params[i];
        if (p->kind == PARAM_SIZE && strcmp(p->name, dim->sym) == 0)
            return LLVMGetParam(L->fn, (unsigned)i);
    }
    INTERNAL_ERROR("kernel '%s': symbolic size '%s' is not a parameter", L->kernel->name, dim->sym);
}

/* Row-major strides; each dim bounded by [0, size). */
static void ref_dense(Lowering *L, Ref *r, const IrType *type) {
    LLVMValueRef stride = llvm_kernel_i64(L, 1);
    for (int d = type->rank - 1; d >= 0; d--) {
        RefDim *dim = &r->dims[d];
        LLVMValueRef size = size_value(L, &type->dims[d]);
        dim->stride = stride;
        dim->unit_stride = d == type->rank - 1;
        dim->num_bounds = 1;
        dim->bounds[0] = (RefBound){.lo = NULL, .hi = size};
        stride = LLVMBuildMul(L->b, stride, LLVMBuildSExt(L->b, size, L->i64, ""), "");
    }
}

void llvm_memory_param(Lowering *L, const IrParam *param, LLVMValueRef arg) {
    Ref *r = ref_new(L, param->value);
    r->base = arg;
    r->offset = llvm_kernel_i64(L, 0);
    ref_dense(L, r, &param->value->type);
    /* Declared strides (sizes are i32, so their products fit i64); only a
       constant 1 is a unit stride, which vector accesses need (their
       alignment is still checked at run time). */
    for (int d = 0; param->strides && d < param->value->type.rank; d++) {
        r->dims[d].stride = LLVMBuildSExt(L->b, size_value(L, &param->strides[d]), L->i64, "");
        r->dims[d].unit_stride = !param->strides[d].sym && param->strides[d].size == 1;
    }
}

void llvm_memory_alloc(Lowering *L, IrOp *op) {
    IrValue *v = op->results[0];
    Ref *r = ref_new(L, v);
    OpPlan *p = layout_op_plan(L->plan, op);
    r->base = llvm_kernel_smem(L, llvm_kernel_i32(L, p->scratch_offset));
    r->offset = llvm_kernel_i64(L, 0);
    ref_dense(L, r, &v->type);
    if (p->alloc_swizzle.rows)
        r->swizzle = &p->alloc_swizzle;
    if (p->alloc_pitch && v->type.rank >= 2) {
        /* rows padded to alloc_pitch elements (layout.c: the rings) */
        int64_t stride = p->alloc_pitch;
        for (int d = v->type.rank - 2; d >= 0; d--) {
            r->dims[d].stride = llvm_kernel_i64(L, stride);
            stride *= v->type.dims[d].size;
        }
    }
}

LLVMValueRef llvm_memory_shared_rows(Lowering *L, const IrValue *ref, int64_t *pitch) {
    const Ref *r = ref_of(L, ref);
    if (r->space != SPACE_SHARED || r->rank != 2 || !r->dims[1].unit_stride || !LLVMIsAConstantInt(r->dims[0].stride))
        INTERNAL_ERROR("kernel '%s': a dot operand read in place is not rows of shared memory", L->kernel->name);
    *pitch = LLVMConstIntGetSExtValue(r->dims[0].stride);
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, r->dtype), r->base, (LLVMValueRef *)&r->offset, 1, "");
}

/* The rows of ring slot `slot` (an i32 value) that `view` (`ring[s, :, :]`,
   layout.c plan_carry) shows at another slot: the same view's base moved,
   computed from the ring's ref alone, so that it may be used where the
   view's own offset is not available (in front of the loop). */
LLVMValueRef llvm_memory_shared_rows_at(Lowering *L, const IrValue *view, LLVMValueRef slot, int64_t *pitch) {
    const Ref *ring = ref_of(L, view->def->operands[0]);
    if (ring->space != SPACE_SHARED || ring->rank != 3 || !ring->dims[2].unit_stride ||
        !LLVMIsAConstantInt(ring->dims[1].stride))
        INTERNAL_ERROR("kernel '%s': a carried dot operand is not a ring slot", L->kernel->name);
    *pitch = LLVMConstIntGetSExtValue(ring->dims[1].stride);
    LLVMValueRef offset = LLVMBuildAdd(L->b, ring->offset,
                                       LLVMBuildMul(L->b, LLVMBuildSExt(L->b, slot, L->i64, ""), ring->dims[0].stride, ""), "");
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, ring->dtype), ring->base, &offset, 1, "");
}

/* Is the i32 scalar `v` known not to be negative? Program ids, sizes,
   non-negative constants, and sums, products and quotients of those, a
   select between two of them, and loop counters that start there and count
   up. Lets a view skip its lower
   bound check, the common case of block specs and ds(k * BK, BK). */
static bool nonneg(const IrKernel *kernel, const IrValue *v, int depth) {
    if (depth > 16)
        return false;
    if (!v->def) {
        if (v->arg_of && v->arg_of->parent_op && v->arg_of->parent_op->opcode == IR_FOR && v == v->arg_of->args[0]) {
            IrOp *loop = v->arg_of->parent_op;
            IrValue *step = loop->operands[2];
            return nonneg(kernel, loop->operands[0], depth + 1) && step->def && step->def->opcode == IR_CONST &&
                   step->def->int_value > 0;
        }
        for (int i = 0; i < kernel->num_params; i++)
            if (kernel->params[i].value == v)
                return kernel->params[i].kind == PARAM_SIZE;
        return false;
    }
    IrOp *op = v->def;
    switch (op->opcode) {
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS: return true;
    case IR_CONST: return !dtype_is_float(v->type.dtype) && op->int_value >= 0;
    case IR_ADD:
    case IR_MUL:
    case IR_DIV:
    case IR_REM:
    case IR_MIN:
    case IR_MAX:
        return nonneg(kernel, op->operands[0], depth + 1) && nonneg(kernel, op->operands[1], depth + 1);
    case IR_SELECT:   /* the prefetch's next iteration, or this one */
        return nonneg(kernel, op->operands[1], depth + 1) && nonneg(kernel, op->operands[2], depth + 1);
    default: return false;
    }
}

/* Is `o` (a view's index along dim d of `parent`) in [0, size) by
   construction? When o is program_id(a), grid dim a is the bare size symbol
   of that array dim, and the parent's only bound along d is the array's
   own [0, size): program_id(a) < num_programs(a) = size. (A launch runs
   exactly the kernel's grid: docs/codegen.md, "Memory".) */
static bool grid_covers(Lowering *L, const IrValue *parent, int d, const IrValue *o, const RefDim *sd) {
    const IrDim *dim = &parent->type.dims[d];
    if (!dim->sym || !o->def || o->def->opcode != IR_PROGRAM_ID)
        return false;
    int axis = o->def->axis;
    if (axis < 0 || axis >= L->kernel->grid_rank || axis >= 3)
        return false;
    const GridExpr *g = L->kernel->grid[axis];
    if (!g || g->kind != GRID_SIZE || !g->size || strcmp(g->size, dim->sym) != 0)
        return false;
    return sd->num_bounds == 1 && !sd->bounds[0].lo && sd->bounds[0].hi == size_value(L, dim);
}

static void add_bound(Lowering *L, RefDim *dim, RefBound bound) {
    if (dim->num_bounds == REF_MAX_BOUNDS)
        INTERNAL_ERROR("kernel '%s': views nested more than %d deep", L->kernel->name, REF_MAX_BOUNDS);
    dim->bounds[dim->num_bounds++] = bound;
}

void llvm_memory_view(Lowering *L, IrOp *op) {
    Ref *src = ref_of(L, op->operands[0]);
    IrValue *v = op->results[0];
    Ref *r = ref_new(L, v);
    r->base = src->base;
    r->offset = src->offset;
    r->valid = src->valid;
    r->swizzle = src->swizzle;
    int kept = 0;
    for (int d = 0; d < src->rank; d++) {
        const IrViewDim *vd = &op->view_dims[d];
        const RefDim *sd = &src->dims[d];
        if (vd->kind == VIEW_FULL) {
            r->dims[kept++] = *sd;
            continue;
        }
        IrValue *offset_value = op->operands[vd->offset_operand];
        LLVMValueRef o = llvm_kernel_scalar(L, offset_value);
        bool o_nonneg = nonneg(L->kernel, offset_value, 0);
        r->offset = LLVMBuildAdd(L->b, r->offset, LLVMBuildMul(L->b, LLVMBuildSExt(L->b, o, L->i64, ""), sd->stride, ""), "");
        if (vd->kind == VIEW_INDEX) {
            /* The one position o must be in bounds of the parent, which the
               grid guarantees when o is program_id(a) and grid dim a is
               exactly this array dim's size. */
            if (grid_covers(L, op->operands[0], d, offset_value, sd))
                continue;
            for (int k = 0; k < sd->num_bounds; k++) {
                const RefBound *b = &sd->bounds[k];
                if (b->lo)
                    r->valid = llvm_kernel_and(L, r->valid, LLVMBuildICmp(L->b, LLVMIntSGE, o, b->lo, ""));
                else if (!o_nonneg)
                    r->valid = llvm_kernel_and(L, r->valid, LLVMBuildICmp(L->b, LLVMIntSGE, o, llvm_kernel_i32(L, 0), ""));
                if (b->hi)
                    r->valid = llvm_kernel_and(L, r->valid, LLVMBuildICmp(L->b, LLVMIntSLT, o, b->hi, ""));
            }
            continue;
        }
        /* VIEW_RANGE: positions l of the view are o + l of the parent. */
        RefDim *nd = &r->dims[kept++];
        nd->stride = sd->stride;
        nd->unit_stride = sd->unit_stride;
        nd->num_bounds = 0;
        for (int k = 0; k < sd->num_bounds; k++) {
            const RefBound *b = &sd->bounds[k];
            RefBound shifted = {0};
            if (b->lo)
                shifted.lo = LLVMBuildSub(L->b, b->lo, o, "");
            else if (!o_nonneg)
                shifted.lo = LLVMBuildSub(L->b, llvm_kernel_i32(L, 0), o, "");
            if (b->hi)
                shifted.hi = LLVMBuildSub(L->b, b->hi, o, "");
            if (shifted.lo || shifted.hi)
                add_bound(L, nd, shifted);
        }
        add_bound(L, nd, (RefBound){.lo = NULL, .hi = llvm_kernel_i32(L, vd->size)});
    }
    r->rank = kept;
}

/* ---- element addresses and masks --------------------------------------------------------- */

static int log2_exact(int64_t v) {
    int n = 0;
    while (((int64_t)1 << n) < v)
        n++;
    return n;
}

static LLVMValueRef shr64(Lowering *L, LLVMValueRef v, int bits) {
    return bits ? LLVMBuildLShr(L->b, v, llvm_kernel_i64(L, bits), "") : v;
}

static LLVMValueRef and64(Lowering *L, LLVMValueRef v, int64_t mask) {
    return LLVMBuildAnd(L->b, v, llvm_kernel_i64(L, mask), "");
}

static LLVMValueRef shl64(Lowering *L, LLVMValueRef v, int bits) {
    return bits ? LLVMBuildShl(L->b, v, llvm_kernel_i64(L, bits), "") : v;
}

/* The panel row that holds tile row `row` (i64) of a wgmma A operand
   (codegen.h SharedSwizzle, layout.c wgmma_operands). Row register i of
   warp w = 4 g + q (warpgroup g, q its warp in it) holds rows
   8 W i + 8 w + (0..7) (W warps); with i = 2 s + j (s: the warpgroup's m64
   tile, j: its upper 8 rows) that row is row 16 q + 8 j + (0..7) of
   warpgroup g's tile s, which starts at panel row 64 (g S + s). */
LLVMValueRef llvm_memory_wgmma_row(Lowering *L, const SharedSwizzle *s, LLVMValueRef row) {
    if (!s->permute_rows)
        return row;
    int warp_bits = log2_exact(s->warps);
    LLVMValueRef group = shr64(L, row, 3);
    LLVMValueRef q = and64(L, group, 3);
    LLVMValueRef g = and64(L, shr64(L, group, 2), s->warps / 4 - 1);
    LLVMValueRef j = and64(L, shr64(L, group, warp_bits), 1);
    LLVMValueRef tile = shr64(L, group, warp_bits + 1);
    LLVMValueRef slab = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, g, llvm_kernel_i64(L, s->slabs), ""), tile, "");
    LLVMValueRef out = LLVMBuildOr(L->b, shl64(L, slab, 6), shl64(L, q, 4), "");
    out = LLVMBuildOr(L->b, out, shl64(L, j, 3), "");
    return LLVMBuildOr(L->b, out, and64(L, row, 7), "");
}

/* Element offset `linear` (i64, in a swizzled alloc's dense row-major
   form) to its place in the swizzled layout (codegen.h SharedSwizzle). */
static LLVMValueRef swizzled_offset(Lowering *L, const SharedSwizzle *s, LLVMValueRef linear) {
    int col_bits = log2_exact(s->cols), slot_bits = log2_exact(s->rows * s->cols), panel_bits = log2_exact(s->panel);
    int eb_bits = log2_exact(s->elem_bytes);
    LLVMValueRef slot_start = shl64(L, shr64(L, linear, slot_bits), slot_bits);
    LLVMValueRef row = and64(L, shr64(L, linear, col_bits), s->rows - 1);
    LLVMValueRef col = and64(L, linear, s->cols - 1);
    LLVMValueRef panel_row = llvm_memory_wgmma_row(L, s, row);
    /* bytes within the panel, then Swizzle<B,4,3> */
    LLVMValueRef byte = LLVMBuildOr(L->b, shl64(L, panel_row, panel_bits + eb_bits),
                                    shl64(L, and64(L, col, s->panel - 1), eb_bits), "");
    LLVMValueRef chunk_xor = shl64(L, and64(L, shr64(L, byte, 7), s->panel * s->elem_bytes / 16 - 1), 4);
    byte = LLVMBuildXor(L->b, byte, chunk_xor, "");
    LLVMValueRef panel_start = shl64(L, shr64(L, col, panel_bits), log2_exact(s->rows) + panel_bits);
    LLVMValueRef out = LLVMBuildOr(L->b, slot_start, panel_start, "");
    return LLVMBuildOr(L->b, out, shr64(L, byte, eb_bits), "");
}

static LLVMValueRef element_ptr(Lowering *L, const Ref *r, LLVMValueRef *coords) {
    LLVMValueRef linear = r->offset;
    for (int d = 0; d < r->rank; d++) {
        LLVMValueRef c = LLVMBuildSExt(L->b, coords[d], L->i64, "");
        if (!r->dims[d].unit_stride)
            c = LLVMBuildMul(L->b, c, r->dims[d].stride, "");
        linear = LLVMBuildAdd(L->b, linear, c, "");
    }
    if (r->swizzle)
        linear = swizzled_offset(L, r->swizzle, linear);
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, r->dtype), r->base, &linear, 1, "");
}

/* In bounds for every view and the array. A constant upper bound at least
   the tile's size always holds (positions are below the tile's size). */
static LLVMValueRef bounds_mask(Lowering *L, const Ref *r, LLVMValueRef *coords, const IrType *tile) {
    LLVMValueRef m = r->valid;
    for (int d = 0; d < r->rank; d++) {
        for (int k = 0; k < r->dims[d].num_bounds; k++) {
            const RefBound *b = &r->dims[d].bounds[k];
            if (b->lo)
                m = llvm_kernel_and(L, m, LLVMBuildICmp(L->b, LLVMIntSGE, coords[d], b->lo, ""));
            if (!b->hi)
                continue;
            if (LLVMIsAConstantInt(b->hi) && LLVMConstIntGetSExtValue(b->hi) >= tile->dims[d].size)
                continue;
            m = llvm_kernel_and(L, m, LLVMBuildICmp(L->b, LLVMIntSLT, coords[d], b->hi, ""));
        }
    }
    return m;
}

/* Elements per vector access along the last dim for a tile of `t`'s layout. */
static int vector_width(const Ref *r, const Tile *t) {
    if (r->rank == 0 || t->type.rank == 0 || !r->dims[r->rank - 1].unit_stride)
        return 1;
    int64_t run = layout_contiguous_run(t->map, t->type.rank - 1);
    int64_t max = 16 / llvm_kernel_mem_bytes(r->dtype);
    int64_t g = 1;
    while (g * 2 <= run && g * 2 <= max)
        g *= 2;
    return (int)g;
}

static LLVMValueRef to_register(Lowering *L, LLVMValueRef v, DType dtype) {
    return dtype == DT_BOOL ? LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstInt(L->i8, 0, 0), "") : v;
}

static LLVMValueRef to_memory(Lowering *L, LLVMValueRef v, DType dtype) {
    return dtype == DT_BOOL ? LLVMBuildZExt(L->b, v, L->i8, "") : v;
}

static LLVMValueRef zero_of(Lowering *L, DType dtype) {
    return LLVMConstNull(llvm_kernel_reg_type(L, dtype));
}

/* if (cond) v = load ptr; else v = other. */
static LLVMValueRef guarded_load(Lowering *L, const Ref *r, LLVMValueRef ptr, LLVMValueRef cond, LLVMValueRef other) {
    LLVMTypeRef mt = llvm_kernel_mem_type(L, r->dtype);
    if (!cond) {
        LLVMValueRef v = LLVMBuildLoad2(L->b, mt, ptr, "");
        LLVMSetAlignment(v, (unsigned)llvm_kernel_mem_bytes(r->dtype));
        return to_register(L, v, r->dtype);
    }
    LLVMBasicBlockRef from = LLVMGetInsertBlock(L->b);
    LLVMBasicBlockRef then_bb = llvm_kernel_block(L, "ld.in");
    LLVMBasicBlockRef merge = llvm_kernel_block(L, "ld.end");
    LLVMBuildCondBr(L->b, cond, then_bb, merge);
    LLVMPositionBuilderAtEnd(L->b, then_bb);
    LLVMValueRef v = LLVMBuildLoad2(L->b, mt, ptr, "");
    LLVMSetAlignment(v, (unsigned)llvm_kernel_mem_bytes(r->dtype));
    v = to_register(L, v, r->dtype);
    LLVMBuildBr(L->b, merge);
    LLVMPositionBuilderAtEnd(L->b, merge);
    LLVMValueRef phi = LLVMBuildPhi(L->b, llvm_kernel_reg_type(L, r->dtype), "");
    LLVMValueRef values[2] = {v, other};
    LLVMBasicBlockRef blocks[2] = {then_bb, from};
    LLVMAddIncoming(phi, values, blocks, 2);
    return phi;
}

static void guarded_store(Lowering *L, const Ref *r, LLVMValueRef ptr, LLVMValueRef cond, LLVMValueRef v) {
    LLVMBasicBlockRef merge = NULL;
    if (cond) {
        LLVMBasicBlockRef then_bb = llvm_kernel_block(L, "st.in");
        merge = llvm_kernel_block(L, "st.end");
        LLVMBuildCondBr(L->b, cond, then_bb, merge);
        LLVMPositionBuilderAtEnd(L->b, then_bb);
    }
    LLVMValueRef st = LLVMBuildStore(L->b, to_memory(L, v, r->dtype), ptr);
    LLVMSetAlignment(st, (unsigned)llvm_kernel_mem_bytes(r->dtype));
    if (cond) {
        LLVMBuildBr(L->b, merge);
        LLVMPositionBuilderAtEnd(L->b, merge);
    }
}

/* One group of g registers along the last dim: the vector path when every
   element is in bounds, unmasked and the address is aligned; else one by
   one. For a load, regs_out gets the values. */
typedef struct MemAccess {
    const Ref *ref;
    Tile *tile;                /* the loaded result or the stored value */
    Tile *mask;                /* explicit mask, or NULL */
    Tile *other;               /* load: value where masked, or NULL for 0 */
    LLVMValueRef unique;       /* store: only the first copy writes; NULL for loads */
    LLVMValueRef thread_ptr;   /* the element at the thread's base coordinates */
    LLVMValueRef *thread_coords; /* those coordinates (a swizzled ref's addresses need them) */
    LLVMValueRef thread_swizzled; /* a swizzled ref: their in-slot offset swizzled (lazily) */
    bool is_store;
} MemAccess;

/* Register reg's address as the thread's pointer, moved by a run-time
   row part (the other dims' offsets times their strides, NULL when none),
   plus `*elements` along the unit-stride dim: a constant, which becomes
   the immediate of the ld/st ([%rd+imm]; PTX ISA, "Addresses as Operands"). A
   register's coordinates are the thread's base plus compile-time offsets
   (layout_reg_offsets), so this is element_ptr of its coordinates
   computed once per access, not once per vector: LLVM cannot take the
   constant out of sext(base + offset) itself (the sum is often an `or`
   once it knows the base's low bits, and it may not assume the i32 add
   does not wrap). Coordinates are far below 2^31, so sext distributes. */
static LLVMValueRef register_row_ptr(Lowering *L, const MemAccess *a, int64_t reg, int64_t *elements) {
    const Ref *r = a->ref;
    int64_t off[IR_MAX_RANK];
    layout_reg_offsets(a->tile->map, reg, off);
    LLVMValueRef row = NULL;
    *elements = 0;
    for (int d = 0; d < r->rank; d++) {
        if (off[d] == 0)
            continue;
        if (r->dims[d].unit_stride) {
            *elements += off[d];
            continue;
        }
        LLVMValueRef part = LLVMBuildMul(L->b, llvm_kernel_i64(L, off[d]), r->dims[d].stride, "");
        row = row ? LLVMBuildAdd(L->b, row, part, "") : part;
    }
    if (!row)
        return a->thread_ptr;
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, r->dtype), a->thread_ptr, &row, 1, "");
}

/* The swizzled in-slot offset (elements, i64) of coordinates `coords`
   (i32, one a dim) in swizzled ref r. */
static LLVMValueRef swizzled_coords_offset(Lowering *L, const Ref *r, LLVMValueRef *coords) {
    LLVMValueRef linear = llvm_kernel_i64(L, 0);
    for (int d = 0; d < r->rank; d++)
        linear = LLVMBuildAdd(L->b, linear, LLVMBuildMul(L->b, LLVMBuildSExt(L->b, coords[d], L->i64, ""), r->dims[d].stride, ""), "");
    return swizzled_offset(L, r->swizzle, linear);
}

/* Sets an access's thread coordinates (and, for a swizzled ref, their
   swizzled in-slot offset, where the access starts: every path uses it). */
static void access_thread(Lowering *L, MemAccess *a, LLVMValueRef *coords) {
    const Ref *r = a->ref;
    a->thread_coords = coords;
    if (!r->swizzle)
        return;
    a->thread_swizzled = swizzled_coords_offset(L, r, coords);
}

/* Register reg's address in a swizzled alloc. The swizzle is linear over
   GF(2) on the bits of an in-slot offset (bit moves and XORs), and a
   register's offset (compile time) and its thread's (run time) have
   disjoint bits (power-of-two blocked layouts), so the swizzled sum is the
   XOR of the two swizzled parts: one XOR with a constant a register, the
   thread's part computed once. The ref's own offset is a slot's start
   (layout.c: views of these allocs only index their leading dims), which
   the swizzle leaves alone. */
static LLVMValueRef swizzled_register_ptr(Lowering *L, MemAccess *a, int64_t reg) {
    const Ref *r = a->ref;
    int64_t off[IR_MAX_RANK], reg_linear = 0;
    layout_reg_offsets(a->tile->map, reg, off);
    for (int d = 0; d < r->rank; d++) {
        if (!LLVMIsAConstantInt(r->dims[d].stride))
            INTERNAL_ERROR("kernel '%s': a swizzled alloc with a run-time stride", L->kernel->name);
        reg_linear += off[d] * LLVMConstIntGetSExtValue(r->dims[d].stride);
    }
    LLVMValueRef reg_part = swizzled_offset(L, r->swizzle, llvm_kernel_i64(L, reg_linear));
    LLVMValueRef in_slot = LLVMBuildXor(L->b, a->thread_swizzled, reg_part, "");
    LLVMValueRef elements = LLVMBuildAdd(L->b, r->offset, in_slot, "");
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, r->dtype), r->base, &elements, 1, "");
}

static LLVMValueRef register_ptr(Lowering *L, MemAccess *a, int64_t reg) {
    if (a->ref->swizzle)
        return swizzled_register_ptr(L, a, reg);
    int64_t elements;
    LLVMValueRef p = register_row_ptr(L, a, reg, &elements);
    if (elements == 0)
        return p;
    LLVMValueRef c = llvm_kernel_i64(L, elements);
    return LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, a->ref->dtype), p, &c, 1, "");
}

/* The vector of g registers that a vector store writes. When they are
   all conversions to a narrower float (an f32 result stored as f16 or
   bf16), the conversion is made here, once, on the vector of their
   operands: SelectionDAG sees one block at a time, and only with the
   fptrunc beside the store does it pair the conversions into
   cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 (PTX ISA, "cvt"; sm_80+) with no
   movs to pack them. (A scalar fptrunc made again here would be hoisted
   back above the branch by SimplifyCFG when the edge path starts with the
   same one.) The originals become dead where the store was their only
   user, and O3 drops them. */
static LLVMValueRef store_vector(Lowering *L, const Ref *r, LLVMValueRef *regs, int g) {
    LLVMTypeRef mt = llvm_kernel_mem_type(L, r->dtype);
    bool narrowed = dtype_is_float(r->dtype);
    for (int e = 0; e < g && narrowed; e++)
        narrowed = LLVMIsAInstruction(regs[e]) && LLVMGetInstructionOpcode(regs[e]) == LLVMFPTrunc &&
                   LLVMTypeOf(LLVMGetOperand(regs[e], 0)) == LLVMTypeOf(LLVMGetOperand(regs[0], 0));
    LLVMTypeRef et = narrowed ? LLVMTypeOf(LLVMGetOperand(regs[0], 0)) : mt;
    LLVMValueRef vec = LLVMGetUndef(LLVMVectorType(et, (unsigned)g));
    for (int e = 0; e < g; e++) {
        LLVMValueRef v = narrowed ? LLVMGetOperand(regs[e], 0) : to_memory(L, regs[e], r->dtype);
        vec = LLVMBuildInsertElement(L->b, vec, v, llvm_kernel_i32(L, e), "");
    }
    return narrowed ? LLVMBuildFPTrunc(L->b, vec, LLVMVectorType(mt, (unsigned)g), "") : vec;
}

/* Mask of element e of the group at register r0 (coords: its first
   element's): in bounds, first copy (stores), explicit mask. */
static LLVMValueRef element_mask(Lowering *L, MemAccess *a, LLVMValueRef *coords, int64_t r0, int e) {
    int rank = a->tile->type.rank;
    LLVMValueRef c[IR_MAX_RANK];
    memcpy(c, coords, sizeof(LLVMValueRef) * (size_t)rank);
    if (e > 0)
        c[rank - 1] = LLVMBuildAdd(L->b, coords[rank - 1], llvm_kernel_i32(L, e), "");
    LLVMValueRef m = llvm_kernel_and(L, a->unique, bounds_mask(L, a->ref, c, &a->tile->type));
    if (a->mask)
        m = llvm_kernel_and(L, m, a->mask->regs[r0 + e]);
    return m;
}

static DType r_dtype(const MemAccess *a) { return a->ref->dtype; }

static void access_group(Lowering *L, MemAccess *a, const ThreadInfo *ti, int64_t r0, int g) {
    const Ref *r = a->ref;
    Tile *t = a->tile;
    int rank = t->type.rank;
    LLVMValueRef coords[IR_MAX_RANK], last[IR_MAX_RANK];
    for (int d = 0; d < rank; d++)
        coords[d] = last[d] = llvm_kernel_coord(L, t, ti, r0, d);
    LLVMValueRef ptr0 = register_ptr(L, a, r0);
    /* The first and the last element's masks decide the vector path; the
       others are computed on the element path only. */
    LLVMValueRef elem_masks[16];
    for (int e = 0; e < g; e++)
        if (e == 0 || e == g - 1 || a->mask)
            elem_masks[e] = element_mask(L, a, coords, r0, e);
    LLVMTypeRef mt = llvm_kernel_mem_type(L, r->dtype);
    int bytes = llvm_kernel_mem_bytes(r->dtype);
    if (g == 1) {
        if (a->is_store)
            guarded_store(L, r, ptr0, elem_masks[0], t->regs[r0]);
        else
            t->regs[r0] = guarded_load(L, r, ptr0, elem_masks[0], a->other ? a->other->regs[r0] : zero_of(L, r->dtype));
        return;
    }
    (void)last;
    /* Fast path: all g elements in bounds (the bounds are intervals, so the
       first and the last decide), unmasked, and the address aligned. */
    LLVMValueRef fast = NULL;
    for (int e = 0; e < g; e++)
        if (e == 0 || e == g - 1 || a->mask)
            fast = llvm_kernel_and(L, fast, elem_masks[e]);
    LLVMValueRef addr = LLVMBuildPtrToInt(L->b, ptr0, L->i64, "");
    LLVMValueRef misaligned = LLVMBuildAnd(L->b, addr, llvm_kernel_i64(L, (int64_t)g * bytes - 1), "");
    fast = llvm_kernel_and(L, fast, LLVMBuildICmp(L->b, LLVMIntEQ, misaligned, llvm_kernel_i64(L, 0), ""));

    LLVMBasicBlockRef vec_bb = llvm_kernel_block(L, a->is_store ? "st.vec" : "ld.vec");
    LLVMBasicBlockRef slow_bb = llvm_kernel_block(L, a->is_store ? "st.elem" : "ld.elem");
    LLVMBasicBlockRef merge = llvm_kernel_block(L, a->is_store ? "st.done" : "ld.done");
    LLVMBuildCondBr(L->b, fast, vec_bb, slow_bb);

    LLVMTypeRef vt = LLVMVectorType(mt, (unsigned)g);
    LLVMValueRef vec_vals[16], slow_vals[16];
    LLVMPositionBuilderAtEnd(L->b, vec_bb);
    if (a->is_store) {
        LLVMValueRef st = LLVMBuildStore(L->b, store_vector(L, r, &t->regs[r0], g), ptr0);
        LLVMSetAlignment(st, (unsigned)(g * bytes));
    } else {
        LLVMValueRef vec = LLVMBuildLoad2(L->b, vt, ptr0, "");
        LLVMSetAlignment(vec, (unsigned)(g * bytes));
        for (int e = 0; e < g; e++)
            vec_vals[e] = to_register(L, LLVMBuildExtractElement(L->b, vec, llvm_kernel_i32(L, e), ""), r->dtype);
    }
    LLVMBasicBlockRef vec_end = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, merge);

    LLVMPositionBuilderAtEnd(L->b, slow_bb);
    for (int e = 0; e < g; e++)
        if (!(e == 0 || e == g - 1 || a->mask))
            elem_masks[e] = element_mask(L, a, coords, r0, e);
    if (a->is_store) {
        for (int e = 0; e < g; e++) {
            LLVMValueRef idx = llvm_kernel_i64(L, e);
            LLVMValueRef ptr = LLVMBuildGEP2(L->b, mt, ptr0, &idx, 1, "");
            guarded_store(L, r, ptr, elem_masks[e], t->regs[r0 + e]);
        }
    } else {
        /* llvm.masked.load rather than g branches: O3 would otherwise merge
           the element loads with the vector path's and split the vector
           load; the masked load becomes per-element predicated loads only
           in code generation. */
        LLVMValueRef mask = LLVMGetUndef(LLVMVectorType(L->i1, (unsigned)g));
        LLVMValueRef pass = LLVMGetUndef(vt);
        for (int e = 0; e < g; e++) {
            LLVMValueRef i = llvm_kernel_i32(L, e);
            mask = LLVMBuildInsertElement(L->b, mask, elem_masks[e] ? elem_masks[e] : LLVMConstInt(L->i1, 1, 0), i, "");
            LLVMValueRef other = a->other ? a->other->regs[r0 + e] : zero_of(L, r->dtype);
            pass = LLVMBuildInsertElement(L->b, pass, to_memory(L, other, r->dtype), i, "");
        }
        LLVMTypeRef types[2] = {vt, LLVMTypeOf(ptr0)};
        LLVMValueRef args[3] = {ptr0, mask, pass};
        LLVMValueRef vec = llvm_kernel_intrinsic(L, "llvm.masked.load", types, 2, args, 3);
        unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
        LLVMAddCallSiteAttribute(vec, 1, LLVMCreateEnumAttribute(L->ctx, align_kind, (uint64_t)bytes));
        for (int e = 0; e < g; e++)
            slow_vals[e] = to_register(L, LLVMBuildExtractElement(L->b, vec, llvm_kernel_i32(L, e), ""), r->dtype);
    }
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, merge);

    LLVMPositionBuilderAtEnd(L->b, merge);
    if (!a->is_store) {
        LLVMBasicBlockRef blocks[2] = {vec_end, slow_end};
        for (int e = 0; e < g; e++) {
            LLVMValueRef phi = LLVMBuildPhi(L->b, llvm_kernel_reg_type(L, r->dtype), "");
            LLVMValueRef values[2] = {vec_vals[e], slow_vals[e]};
            LLVMAddIncoming(phi, values, blocks, 2);
            t->regs[r0 + e] = phi;
        }
    }
}

/* The condition under which every vector of this thread's part of the
   tile can go unmasked and aligned, tested once per thread (NULL when it
   cannot be decided that way: then each vector tests its own):
     - alignment: every vector starts at base + offset + sum_d c_d * stride_d
       elements with c_last a multiple of g (the thread's base along the last
       dim and each vector's register offset are, checked here at compile
       time), so (base + offset) and every other dim's stride being
       multiples of g elements make every vector aligned to g * bytes;
     - bounds: every bound is an interval per dim, so the thread's smallest
       and largest coordinate along each dim being in bounds puts all of its
       elements in bounds;
     - stores: the thread holds the first copy of its elements. */
static LLVMValueRef tile_fast_condition(Lowering *L, MemAccess *a, const ThreadInfo *ti, int g) {
    const Ref *r = a->ref;
    Tile *t = a->tile;
    int rank = t->type.rank;
    if (g < 2 || a->mask || rank == 0 || rank != r->rank || t->num_regs > 256)
        return NULL;
    if (layout_contiguous_run(t->map, rank - 1) % g != 0 || t->type.dims[rank - 1].size % g != 0)
        return NULL;
    int64_t lo[IR_MAX_RANK], hi[IR_MAX_RANK];
    for (int64_t reg = 0; reg < t->num_regs; reg++) {
        int64_t off[IR_MAX_RANK];
        layout_reg_offsets(t->map, reg, off);
        if (reg % g == 0 && off[rank - 1] % g != 0)
            return NULL;
        for (int d = 0; d < rank; d++) {
            if (reg == 0 || off[d] < lo[d])
                lo[d] = off[d];
            if (reg == 0 || off[d] > hi[d])
                hi[d] = off[d];
        }
    }
    int bytes = llvm_kernel_mem_bytes(r->dtype);
    LLVMValueRef origin = LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, r->dtype), r->base, (LLVMValueRef *)&r->offset, 1, "");
    LLVMValueRef bits = LLVMBuildPtrToInt(L->b, origin, L->i64, "");
    for (int d = 0; d < rank - 1; d++)
        if (t->type.dims[d].size > 1)
            bits = LLVMBuildOr(L->b, bits, LLVMBuildMul(L->b, r->dims[d].stride, llvm_kernel_i64(L, bytes), ""), "");
    LLVMValueRef misaligned = LLVMBuildAnd(L->b, bits, llvm_kernel_i64(L, (int64_t)g * bytes - 1), "");
    LLVMValueRef fast = LLVMBuildICmp(L->b, LLVMIntEQ, misaligned, llvm_kernel_i64(L, 0), "");
    LLVMValueRef first[IR_MAX_RANK], end[IR_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        first[d] = LLVMBuildAdd(L->b, ti->base[d], llvm_kernel_i32(L, lo[d]), "");
        end[d] = LLVMBuildAdd(L->b, ti->base[d], llvm_kernel_i32(L, hi[d]), "");
    }
    fast = llvm_kernel_and(L, fast, bounds_mask(L, r, first, &t->type));
    fast = llvm_kernel_and(L, fast, bounds_mask(L, r, end, &t->type));
    return llvm_kernel_and(L, fast, a->unique);
}

/* Every vector of the tile unmasked and aligned (the caller tested
   tile_fast_condition). */
static void access_fast(Lowering *L, MemAccess *a, int g) {
    const Ref *r = a->ref;
    Tile *t = a->tile;
    LLVMTypeRef mt = llvm_kernel_mem_type(L, r->dtype);
    LLVMTypeRef vt = LLVMVectorType(mt, (unsigned)g);
    int bytes = llvm_kernel_mem_bytes(r->dtype);
    for (int64_t r0 = 0; r0 < t->num_regs; r0 += g) {
        LLVMValueRef ptr = register_ptr(L, a, r0);
        if (a->is_store) {
            LLVMSetAlignment(LLVMBuildStore(L->b, store_vector(L, r, &t->regs[r0], g), ptr), (unsigned)(g * bytes));
        } else {
            LLVMValueRef vec = LLVMBuildLoad2(L->b, vt, ptr, "");
            LLVMSetAlignment(vec, (unsigned)(g * bytes));
            for (int e = 0; e < g; e++)
                t->regs[r0 + e] = to_register(L, LLVMBuildExtractElement(L->b, vec, llvm_kernel_i32(L, e), ""), r->dtype);
        }
    }
}

/* The edge path of a global tile access: element by element, each a
   predicated ld/st (PTX ISA 9.7.9.8, 9.7.9.10: `@p ld.global`), written as
   inline asm so that it stays one straight-line block per tile rather than
   a branch per element (LLVM has no predicated load; its masked loads
   become branches), which keeps the PTX short and ptxas fast. The asm has
   side effects, so it keeps its order with the kernel's other accesses. */
static LLVMValueRef predicated(Lowering *L, bool is_store, bool readonly, DType dtype, LLVMValueRef ptr,
                               int64_t byte_offset, LLVMValueRef pred, LLVMValueRef v) {
    int bits = llvm_kernel_mem_bytes(dtype) * 8;
    LLVMTypeRef it = LLVMIntTypeInContext(L->ctx, bits < 16 ? 16 : (unsigned)bits);
    const char *reg = bits <= 16 ? "h" : bits == 32 ? "r" : "l";
    const char *ptype = bits == 8 ? "u8" : bits == 16 ? "b16" : bits == 32 ? "b32" : "b64";
    LLVMValueRef bitsv = to_memory(L, v, dtype);
    LLVMTypeRef mt = llvm_kernel_mem_type(L, dtype);
    if (LLVMGetTypeKind(mt) != LLVMIntegerTypeKind)
        bitsv = LLVMBuildBitCast(L->b, bitsv, LLVMIntTypeInContext(L->ctx, (unsigned)bits), "");
    if (bits == 8)
        bitsv = LLVMBuildZExt(L->b, bitsv, it, "");
    char text[128], constraints[32];
    if (is_store) {
        snprintf(text, sizeof text, "@$2 st.global.%s [$0+%lld], $1;", ptype, (long long)byte_offset);
        snprintf(constraints, sizeof constraints, "l,%s,b,~{memory}", reg);
        LLVMTypeRef params[3] = {L->ptr_global, it, L->i1};
        LLVMTypeRef fty = LLVMFunctionType(L->void_type, params, 3, 0);
        LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), constraints, strlen(constraints), 1, 0,
                                           LLVMInlineAsmDialectATT, 0);
        LLVMValueRef args[3] = {ptr, bitsv, pred};
        LLVMBuildCall2(L->b, fty, fn, args, 3, "");
        return NULL;
    }
    snprintf(text, sizeof text, "mov.b%d $0, $3;\n\t@$2 ld.global%s.%s $0, [$1+%lld];", bits < 16 ? 16 : bits,
             readonly ? ".nc" : "", ptype,
             (long long)byte_offset);
    snprintf(constraints, sizeof constraints, "=&%s,l,b,%s,~{memory}", reg, reg);
    LLVMTypeRef params[3] = {L->ptr_global, L->i1, it};
    LLVMTypeRef fty = LLVMFunctionType(it, params, 3, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), constraints, strlen(constraints), 1, 0,
                                       LLVMInlineAsmDialectATT, 0);
    LLVMValueRef args[3] = {ptr, pred, bitsv};
    LLVMValueRef out = LLVMBuildCall2(L->b, fty, fn, args, 3, "");
    if (bits == 8)
        out = LLVMBuildTrunc(L->b, out, L->i8, "");
    if (LLVMGetTypeKind(mt) != LLVMIntegerTypeKind)
        out = LLVMBuildBitCast(L->b, out, mt, "");
    return to_register(L, out, dtype);
}

static void access_edge(Lowering *L, MemAccess *a, const ThreadInfo *ti, int g) {
    Tile *t = a->tile;
    int bytes = llvm_kernel_mem_bytes(a->ref->dtype);
    for (int64_t r0 = 0; r0 < t->num_regs; r0 += g) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < t->type.rank; d++)
            coords[d] = llvm_kernel_coord(L, t, ti, r0, d);
        int64_t elements;
        LLVMValueRef ptr = register_row_ptr(L, a, r0, &elements);
        for (int e = 0; e < g; e++) {
            int64_t reg = r0 + e, byte_offset = (elements + e) * bytes;
            LLVMValueRef m = element_mask(L, a, coords, r0, e);
            if (!m)
                m = LLVMConstInt(L->i1, 1, 0);
            if (a->is_store) {
                predicated(L, true, false, a->ref->dtype, ptr, byte_offset, m, t->regs[reg]);
            } else {
                LLVMValueRef other = a->other ? a->other->regs[reg] : zero_of(L, a->ref->dtype);
                t->regs[reg] = predicated(L, false, a->ref->readonly, a->ref->dtype, ptr, byte_offset, m, other);
            }
        }
    }
}

static void access_tile(Lowering *L, MemAccess *a) {
    Tile *t = a->tile;
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    if (a->is_store) {
        LLVMValueRef u = ti->unique;
        a->unique = LLVMIsAConstantInt(u) && LLVMConstIntGetZExtValue(u) == 1 ? NULL : u;
    }
    a->thread_ptr = element_ptr(L, a->ref, ti->base);
    access_thread(L, a, ti->base);
    int g = vector_width(a->ref, t);
    LLVMValueRef fast = tile_fast_condition(L, a, ti, g);
    if (!fast) {
        for (int64_t r0 = 0; r0 < t->num_regs; r0 += g)
            access_group(L, a, ti, r0, g);
        return;
    }
    /* One test per thread: all vectors straight-line, or each vector on
       its own (the general path, with its per-vector tests). */
    int64_t n = t->num_regs;
    LLVMBasicBlockRef fast_bb = llvm_kernel_block(L, a->is_store ? "st.tile" : "ld.tile");
    LLVMBasicBlockRef slow_bb = llvm_kernel_block(L, a->is_store ? "st.edge" : "ld.edge");
    LLVMBasicBlockRef merge = llvm_kernel_block(L, a->is_store ? "st.tile.done" : "ld.tile.done");
    LLVMBuildCondBr(L->b, fast, fast_bb, slow_bb);
    LLVMPositionBuilderAtEnd(L->b, fast_bb);
    access_fast(L, a, g);
    LLVMValueRef *fast_vals = NULL;
    if (!a->is_store) {
        fast_vals = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, n + 1);
        memcpy(fast_vals, t->regs, sizeof(LLVMValueRef) * (size_t)n);
    }
    LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, merge);
    LLVMPositionBuilderAtEnd(L->b, slow_bb);
    if (a->ref->space == SPACE_GLOBAL)
        access_edge(L, a, ti, g);
    else
        for (int64_t r0 = 0; r0 < n; r0 += g)
            access_group(L, a, ti, r0, g);
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(L->b);
    LLVMBuildBr(L->b, merge);
    LLVMPositionBuilderAtEnd(L->b, merge);
    if (!a->is_store) {
        LLVMBasicBlockRef blocks[2] = {fast_end, slow_end};
        for (int64_t i = 0; i < n; i++) {
            LLVMValueRef phi = LLVMBuildPhi(L->b, llvm_kernel_reg_type(L, r_dtype(a)), "");
            LLVMValueRef values[2] = {fast_vals[i], t->regs[i]};
            LLVMAddIncoming(phi, values, blocks, 2);
            t->regs[i] = phi;
        }
    }
}

/* Barriers around shared memory: one before every access of an `alloc`
   (barrier.c places it), so that it never meets another thread's access of
   an earlier phase. */
static void shared_phase(Lowering *L, IrOp *op, const Ref *r) {
    if (r->space == SPACE_SHARED)
        llvm_kernel_barrier_at(L, layout_op_plan(L->plan, op)->barriers, BARRIER_BEFORE_WRITE);
}

void llvm_memory_load(Lowering *L, IrOp *op) {
    IrValue *v = op->results[0];
    MemAccess a = {.ref = ref_of(L, op->operands[0])};
    a.tile = llvm_kernel_tile_new(L, layout_of(L->plan, v), &v->type);
    int next = 1;
    if (op->has_mask)
        a.mask = llvm_kernel_operand(L, op, next++);
    if (op->has_other)
        a.other = llvm_kernel_operand(L, op, next++);
    shared_phase(L, op, a.ref);
    access_tile(L, &a);
    llvm_kernel_set_tile(L, v, a.tile);
}

/* stmatrix.sync.aligned.m8n8.x4.shared.b16 (PTX ISA 9.7.14.5.16) of a
   tile in an mma accumulator's layout into a swizzled scratch: each lane
   holds a pair of columns (2 (l % 4), +1) of row l / 4 of an 8 x 8
   matrix, which is stmatrix's fragment, and gives the address of row l % 8
   of matrix l / 8 (16 bytes: one chunk, which the swizzle keeps whole).
   Four of the thread's pairs make one instruction (a group). A quarter of
   the stores of pairs, and a quarter of their addresses (the address
   arithmetic of a store a pair spilled at 128 x 256: docs/codegen.md "TMA
   stores"). stmatrix_store is the entry; it emits nothing and returns
   false for any other layout or swizzle. */
typedef struct RegOffset { int64_t at[IR_MAX_RANK]; } RegOffset;   /* a register's element offset */

/* The four matrices of a group, from its first: four in a row (a wgmma
   accumulator's column blocks, whose rows + 8 are another warp's in the
   tile's row order), or 2 x 2 of them (rows r and r + 8 of one thread: an
   mma.sync accumulator of a one-warp block; with more warps its registers
   step by 8 x the warps along a dim, and access_tile writes it). */
enum { STMATRIX_2X2, STMATRIX_ROW, STMATRIX_PATTERNS };
static const int stmatrix_patterns[STMATRIX_PATTERNS][4][2] = {
    [STMATRIX_2X2] = {{0, 0}, {8, 0}, {0, 8}, {8, 8}},
    [STMATRIX_ROW] = {{0, 0}, {0, 8}, {0, 16}, {0, 24}},
};

typedef struct StmatrixGroups {
    int pattern;          /* STMATRIX_2X2 or STMATRIX_ROW, the same for every group */
    int64_t count;
    int64_t *first_reg;   /* 4 a group: the first register of each matrix's pair */
    RegOffset *regs;      /* every register's element offset */
} StmatrixGroups;

/* Whether layout ll is stmatrix's fragment: a lane's pair at (l / 4,
   2 (l % 4)) of its 8 x 8 matrix, and the warps' part of a thread's
   coordinates whole matrices (so the thread's base less its lane's part
   is its warp's origin). */
static bool stmatrix_fragment(const LinearLayout *ll) {
    int lane_in = linear_in_index(ll, LINEAR_LANE), warp_in = linear_in_index(ll, LINEAR_WARP);
    int row = linear_out_index(ll, LINEAR_TILE0), col = linear_out_index(ll, LINEAR_TILE0 + 1);
    static const int lane_basis[5][2] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    if (lane_in < 0 || row < 0 || col < 0 || ll->in_bits[lane_in] != 5)
        return false;
    for (int b = 0; b < 5; b++)
        if (ll->bases[lane_in][b][row] != lane_basis[b][0] || ll->bases[lane_in][b][col] != lane_basis[b][1])
            return false;
    for (int b = 0; warp_in >= 0 && b < ll->in_bits[warp_in]; b++)
        if (ll->bases[warp_in][b][row] % 8 != 0 || ll->bases[warp_in][b][col] % 8 != 0)
            return false;
    return true;
}

/* Groups tile t's registers (pairs of adjacent columns, each pair's first
   at a matrix's corner) into fours of one pattern; false when no pattern
   covers every pair. */
static bool stmatrix_groups(Lowering *L, const Tile *t, StmatrixGroups *out) {
    int64_t n = t->num_regs;
    RegOffset *regs = ARENA_ARRAY(&L->kernel->arena, RegOffset, n);
    for (int64_t r = 0; r < n; r++)
        layout_reg_offsets(t->map, r, regs[r].at);
    for (int64_t r = 0; r < n; r += 2)
        if (regs[r].at[0] % 8 != 0 || regs[r].at[1] % 8 != 0 || regs[r + 1].at[0] != regs[r].at[0] ||
            regs[r + 1].at[1] != regs[r].at[1] + 1)
            return false;
    int64_t *first_reg = ARENA_ARRAY(&L->kernel->arena, int64_t, n);
    bool *taken = ARENA_ARRAY(&L->kernel->arena, bool, n);
    for (int pattern = 0; pattern < STMATRIX_PATTERNS; pattern++) {
        const int (*at)[2] = stmatrix_patterns[pattern];
        memset(taken, 0, sizeof *taken * (size_t)n);
        int64_t groups = 0;
        bool ok = true;
        for (int64_t r = 0; r < n && ok; r += 2) {
            if (taken[r])
                continue;
            for (int i = 0; i < 4 && ok; i++) {
                int64_t found = -1;
                for (int64_t s = 0; s < n && found < 0; s += 2)
                    if (!taken[s] && regs[s].at[0] == regs[r].at[0] + at[i][0] && regs[s].at[1] == regs[r].at[1] + at[i][1])
                        found = s;
                ok = found >= 0;
                if (ok) {
                    taken[found] = true;
                    first_reg[4 * groups + i] = found;
                }
            }
            groups++;
        }
        if (ok) {
            *out = (StmatrixGroups){.pattern = pattern, .count = groups, .first_reg = first_reg, .regs = regs};
            return true;
        }
    }
    return false;
}

/* Where lane l's address points in a group, less its thread's base
   coordinates: row l % 8 of matrix l / 8, placed by the pattern, minus
   the lane's own part of the base ((l / 4, 2 (l % 4)) of the fragment). */
static void stmatrix_lane_delta(int pattern, int64_t l, int64_t *row, int64_t *col) {
    int64_t m = l >> 3;
    *row = (l & 7) - (l >> 2) + (pattern == STMATRIX_2X2 ? 8 * (m & 1) : 0);
    *col = -2 * (l & 3) + (pattern == STMATRIX_2X2 ? 8 * (m >> 1) : 8 * m);
}

/* The same at run time, added to the thread's base (i32 row and column). */
static void stmatrix_lane_origin(Lowering *L, const Tile *t, int pattern, LLVMValueRef *row, LLVMValueRef *col) {
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    LLVMValueRef lane = L->lane;
    LLVMValueRef matrix = LLVMBuildLShr(L->b, lane, llvm_kernel_i32(L, 3), "");
    LLVMValueRef dr = LLVMBuildSub(L->b, LLVMBuildAnd(L->b, lane, llvm_kernel_i32(L, 7), ""),
                                   LLVMBuildLShr(L->b, lane, llvm_kernel_i32(L, 2), ""), "");
    LLVMValueRef dc = LLVMBuildNeg(L->b, LLVMBuildShl(L->b, LLVMBuildAnd(L->b, lane, llvm_kernel_i32(L, 3), ""),
                                                      llvm_kernel_i32(L, 1), ""), "");
    if (pattern == STMATRIX_2X2) {   /* matrix i at (8 (i % 2), 8 (i / 2)) */
        dr = LLVMBuildAdd(L->b, dr, LLVMBuildShl(L->b, LLVMBuildAnd(L->b, matrix, llvm_kernel_i32(L, 1), ""),
                                                 llvm_kernel_i32(L, 3), ""), "");
        dc = LLVMBuildAdd(L->b, dc, LLVMBuildShl(L->b, LLVMBuildLShr(L->b, matrix, llvm_kernel_i32(L, 1), ""),
                                                 llvm_kernel_i32(L, 3), ""), "");
    } else {   /* matrix i at (0, 8 i) */
        dc = LLVMBuildAdd(L->b, dc, LLVMBuildShl(L->b, matrix, llvm_kernel_i32(L, 3), ""), "");
    }
    *row = LLVMBuildAdd(L->b, ti->base[0], dr, "");
    *col = LLVMBuildAdd(L->b, ti->base[1], dc, "");
}

static int64_t swizzled_constant(Lowering *L, const SharedSwizzle *s, int64_t linear) {
    return LLVMConstIntGetSExtValue(swizzled_offset(L, s, llvm_kernel_i64(L, linear)));
}

/* The groups' addresses. The swizzle is linear over GF(2) on the offset's
   bits, so where a group lies d elements past a base whose offset has no
   bit of d in any thread, before the swizzle and after it, the group's
   address is the base's plus the constant swizzle(d): an immediate
   ([%rd+16384]). A base is a group whose address is computed (its own
   swizzle arithmetic); the rest take the first base that works. Sets
   base_of[g] (the index of group g's base among the groups) and
   immediate[g] (bytes). */
static void stmatrix_bases(Lowering *L, const Ref *scratch, const Tile *t, const StmatrixGroups *g, int64_t *base_of,
                           int64_t *immediate) {
    const LinearLayout *ll = layout_map_linear(t->map);
    int row = linear_out_index(ll, LINEAR_TILE0), col = linear_out_index(ll, LINEAR_TILE0 + 1);
    int64_t cols = LLVMConstIntGetSExtValue(scratch->dims[0].stride);
    /* each thread's lane's first row in a group, as a linear offset */
    int threads = L->plan->threads;
    int64_t *lane_start = ARENA_ARRAY(&L->kernel->arena, int64_t, threads);
    for (int w = 0; w < threads / 32; w++)
        for (int l = 0; l < 32; l++) {
            int64_t c[LINEAR_MAX_DIMS] = {0}, dr, dc;
            linear_apply_thread(ll, 0, l, w, c);
            stmatrix_lane_delta(g->pattern, l, &dr, &dc);
            lane_start[32 * w + l] = (c[row] + dr) * cols + c[col] + dc;
        }
    int elem_bytes = llvm_kernel_mem_bytes(scratch->dtype);
    for (int64_t k = 0; k < g->count; k++) {
        const int64_t *o = g->regs[g->first_reg[4 * k]].at;
        int64_t at = o[0] * cols + o[1];
        base_of[k] = k;
        immediate[k] = 0;
        for (int64_t b = 0; b < k; b++) {
            if (base_of[b] != b)
                continue;   /* not a base */
            const int64_t *ob = g->regs[g->first_reg[4 * b]].at;
            int64_t d = at - (ob[0] * cols + ob[1]);
            if (d < 0)
                continue;
            int64_t dswz = swizzled_constant(L, scratch->swizzle, d);
            bool fits = true;
            for (int th = 0; th < threads && fits; th++) {
                int64_t from = lane_start[th] + ob[0] * cols + ob[1];
                fits = (from & d) == 0 && (swizzled_constant(L, scratch->swizzle, from) & dswz) == 0;
            }
            if (fits) {
                base_of[k] = b;
                immediate[k] = dswz * elem_bytes;
                break;
            }
        }
    }
}

/* One stmatrix.x4 at base + immediate of four pairs. The immediate is in
   the instruction's text, not a separate add: an address LLVM could fold
   is loop-invariant in a persistent tile loop, so LICM would hoist it (16
   of them, 32 registers, held across the main loop and spilled in the
   128 x 256 matmul); only the bases are hoisted. */
static void emit_stmatrix(Lowering *L, LLVMValueRef base, int64_t immediate, LLVMValueRef *pairs) {
    LLVMTypeRef params[5] = {L->ptr_shared, L->i32, L->i32, L->i32, L->i32};
    LLVMTypeRef fty = LLVMFunctionType(L->void_type, params, 5, 0);
    char text[128];
    snprintf(text, sizeof text, "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0+%lld], {$1, $2, $3, $4};",
             (long long)immediate);
    static const char constraints[] = "l,r,r,r,r,~{memory}";
    LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), (char *)constraints, sizeof constraints - 1, 1, 0,
                                       LLVMInlineAsmDialectATT, 0);
    LLVMValueRef args[5] = {base, pairs[0], pairs[1], pairs[2], pairs[3]};
    LLVMBuildCall2(L->b, fty, fn, args, 5, "");
}

/* Pair p (registers p, p + 1) of tile t as one i32 of two 16-bit values:
   from the tile's own values, not store_vector's one vector conversion.
   LLVM moves a scalar conversion of a phi (the accumulator after a K loop
   that may not run) into the phi's predecessors, so 64 registers of pairs
   meet there instead of 128 of floats; ptxas fuses the two conversions
   into one F2FP.PACK_AB. */
static LLVMValueRef pair_of(Lowering *L, const Tile *t, int64_t p, DType dtype) {
    LLVMValueRef pair = LLVMGetUndef(LLVMVectorType(llvm_kernel_mem_type(L, dtype), 2));
    for (int e = 0; e < 2; e++)
        pair = LLVMBuildInsertElement(L->b, pair, to_memory(L, t->regs[p + e], dtype), llvm_kernel_i32(L, e), "");
    return LLVMBuildBitCast(L->b, pair, L->i32, "");
}

static bool stmatrix_store(Lowering *L, const Ref *scratch, Tile *t) {
    const LinearLayout *ll = t->type.rank == 2 ? layout_map_linear(t->map) : NULL;
    if (!ll || t->num_regs % 8 != 0 || t->num_regs > 1024 || !stmatrix_fragment(ll))
        return false;
    /* The immediates need a swizzle linear over the offset's bits: powers
       of two, rows not permuted, 16-bit elements (tma.c store_map makes no
       other, but a caller that did must not get wrong stores). */
    const SharedSwizzle *z = scratch->swizzle;
    if (!z || z->permute_rows || z->elem_bytes != 2 || (z->rows & (z->rows - 1)) || (z->cols & (z->cols - 1)) ||
        (z->panel & (z->panel - 1)))
        return false;
    StmatrixGroups g;
    if (!stmatrix_groups(L, t, &g))
        return false;
    int64_t *base_of = ARENA_ARRAY(&L->kernel->arena, int64_t, g.count);
    int64_t *immediate = ARENA_ARRAY(&L->kernel->arena, int64_t, g.count);
    stmatrix_bases(L, scratch, t, &g, base_of, immediate);
    LLVMValueRef row0, col0;
    stmatrix_lane_origin(L, t, g.pattern, &row0, &col0);
    LLVMValueRef *base_ptr = ARENA_ARRAY(&L->kernel->arena, LLVMValueRef, g.count);
    for (int64_t k = 0; k < g.count; k++) {
        if (base_of[k] == k) {
            const int64_t *o = g.regs[g.first_reg[4 * k]].at;
            LLVMValueRef coords[2] = {LLVMBuildAdd(L->b, row0, llvm_kernel_i32(L, o[0]), ""),
                                      LLVMBuildAdd(L->b, col0, llvm_kernel_i32(L, o[1]), "")};
            LLVMValueRef elements = swizzled_coords_offset(L, scratch, coords);
            base_ptr[k] = LLVMBuildGEP2(L->b, llvm_kernel_mem_type(L, scratch->dtype), scratch->base, &elements, 1, "");
        }
        LLVMValueRef pairs[4];
        for (int i = 0; i < 4; i++)
            pairs[i] = pair_of(L, t, g.first_reg[4 * k + i], scratch->dtype);
        emit_stmatrix(L, base_ptr[base_of[k]], immediate[k], pairs);
    }
    return true;
}

/* A TMA store's tile into its scratch, as the boxes of its map (tma.c):
   the scratch is a swizzled slot of rows x cols in panels, written in the
   tile's own layout (a dot's accumulator: pairs of columns, each warp's
   8 rows of a register in 8 different 16-byte chunks by the swizzle, no
   bank conflict); llvm_tma_store then stores the boxes. */
static void tma_store_scratch(Lowering *L, IrOp *op, const OpPlan *p) {
    const SharedSwizzle *sw = &p->tma_store_swizzle;
    Ref scratch = {.dtype = op->operands[1]->type.dtype, .space = SPACE_SHARED, .rank = 2, .swizzle = sw};
    scratch.base = llvm_kernel_smem(L, llvm_kernel_i32(L, p->scratch_offset));
    scratch.offset = llvm_kernel_i64(L, 0);
    scratch.dims[0] = (RefDim){.stride = llvm_kernel_i64(L, sw->cols)};
    scratch.dims[1] = (RefDim){.stride = llvm_kernel_i64(L, 1), .unit_stride = true};
    MemAccess a = {.ref = &scratch, .is_store = true, .tile = llvm_kernel_operand(L, op, 1)};
    if (p->tma_store_deferred)   /* the last tile's boxes out of the scratch before the barrier */
        llvm_tma_store_wait(L);
    llvm_kernel_barrier_at(L, p->barriers, BARRIER_BEFORE_WRITE);
    if (!stmatrix_store(L, &scratch, a.tile))
        access_tile(L, &a);
}

void llvm_memory_store(Lowering *L, IrOp *op) {
    const OpPlan *plan = layout_op_plan(L->plan, op);
    if (plan->tma_store) {
        tma_store_scratch(L, op, plan);
        llvm_tma_store(L, op);
        return;
    }
    MemAccess a = {.ref = ref_of(L, op->operands[0]), .is_store = true};
    a.tile = llvm_kernel_operand(L, op, 1);
    if (op->has_mask)
        a.mask = llvm_kernel_operand(L, op, 2);
    shared_phase(L, op, a.ref);
    access_tile(L, &a);
    /* a stationary operand's store that wgmma reads by descriptor (barrier.c
       publishes it at once, so that no loop after it starts unknown): the
       async proxy's reads after the generic writes (PTX ISA 9.7.13.4.18) */
    if (layout_op_plan(L->plan, op)->barriers & (1u << BARRIER_BEFORE_READ)) {
        llvm_kernel_intrinsic(L, "llvm.nvvm.fence.proxy.async.shared_cta", NULL, 0, NULL, 0);
        llvm_kernel_block_barrier(L);
    }
}

/* atom.add / atom.max / atom.min (PTX ISA 9.7.13.5) as relaxed atomicrmw;
   LLVM expands the kinds the target lacks (f32 max, bf16 add before sm_90)
   into compare-and-swap loops. Float max and min follow maxNum: a NaN
   operand loses. */
static LLVMAtomicRMWBinOp atomic_kind(IrCombine combine, DType dtype) {
    bool is_float = dtype_is_float(dtype), is_signed = dtype_is_signed(dtype);
    switch (combine) {
    case COMBINE_ADD: return is_float ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd;
    case COMBINE_MAX: return is_float ? LLVMAtomicRMWBinOpFMax : is_signed ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
    case COMBINE_MIN: return is_float ? LLVMAtomicRMWBinOpFMin : is_signed ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
    case COMBINE_MUL: break;   /* no atomic (ir_verify) */
    }
    return LLVMAtomicRMWBinOpAdd;
}

/* if (cond) atomicrmw(ptr, v): relaxed; cond NULL is always. */
static void guarded_atomic(Lowering *L, IrCombine combine, DType dtype, LLVMValueRef ptr, LLVMValueRef v,
                           LLVMValueRef cond) {
    LLVMBasicBlockRef merge = NULL;
    if (cond) {
        LLVMBasicBlockRef then_bb = llvm_kernel_block(L, "atom.in");
        merge = llvm_kernel_block(L, "atom.end");
        LLVMBuildCondBr(L->b, cond, then_bb, merge);
        LLVMPositionBuilderAtEnd(L->b, then_bb);
    }
    LLVMBuildAtomicRMW(L->b, atomic_kind(combine, dtype), ptr, v, LLVMAtomicOrderingMonotonic, 0);
    if (cond) {
        LLVMBuildBr(L->b, merge);
        LLVMPositionBuilderAtEnd(L->b, merge);
    }
}

void llvm_memory_atomic(Lowering *L, IrOp *op) {
    const Ref *r = ref_of(L, op->operands[0]);
    if (r->dtype == DT_BOOL)
        INTERNAL_ERROR("kernel '%s': atomics on bool", L->kernel->name);
    Tile *t = llvm_kernel_operand(L, op, 1);
    Tile *mask = op->has_mask ? llvm_kernel_operand(L, op, 2) : NULL;
    shared_phase(L, op, r);
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    LLVMValueRef unique = LLVMIsAConstantInt(ti->unique) && LLVMConstIntGetZExtValue(ti->unique) == 1 ? NULL : ti->unique;
    for (int64_t reg = 0; reg < t->num_regs; reg++) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < t->type.rank; d++)
            coords[d] = llvm_kernel_coord(L, t, ti, reg, d);
        LLVMValueRef ptr = element_ptr(L, r, coords);
        LLVMValueRef m = llvm_kernel_and(L, unique, bounds_mask(L, r, coords, &t->type));
        if (mask)
            m = llvm_kernel_and(L, m, mask->regs[reg]);
        guarded_atomic(L, op->combine, r->dtype, ptr, t->regs[reg], m);
    }
}

/* ---- gather and scatter (index tiles) ------------------------------------------- */

/* Element coordinates from index tiles are arbitrary i32s: each is tested
   against 0, the view's size and every bound of the view chain (what
   bounds_mask may skip for a tile's own positions, it may not here). */
static LLVMValueRef indexed_mask(Lowering *L, const Ref *r, const IrType *ref_type, LLVMValueRef *coords) {
    LLVMValueRef m = r->valid;
    for (int d = 0; d < r->rank; d++) {
        m = llvm_kernel_and(L, m, LLVMBuildICmp(L->b, LLVMIntSGE, coords[d], llvm_kernel_i32(L, 0), ""));
        if (!ref_type->dims[d].sym)
            m = llvm_kernel_and(L, m, LLVMBuildICmp(L->b, LLVMIntSLT, coords[d], llvm_kernel_i32(L, ref_type->dims[d].size), ""));
        for (int k = 0; k < r->dims[d].num_bounds; k++) {
            const RefBound *b = &r->dims[d].bounds[k];
            if (b->lo)
                m = llvm_kernel_and(L, m, LLVMBuildICmp(L->b, LLVMIntSGE, coords[d], b->lo, ""));
            if (b->hi)
                m = llvm_kernel_and(L, m, LLVMBuildICmp(L->b, LLVMIntSLT, coords[d], b->hi, ""));
        }
    }
    return m;
}

/* Ordering. A program reads as sequential code (the interpreter runs it so),
   but the threads of a block reach global memory in no order: an element a
   gather reads, or a scatter writes, is in general another thread's than
   the one an earlier or later access of the array used. So a gather or
   scatter whose array some other access of the kernel also touches, one of
   the two writing (atomics against atomics commute), has a block barrier
   before and after it, which orders the block's global accesses (PTX ISA,
   bar.sync: prior memory accesses are performed relative to the
   participating threads); a plain scatter in a loop is such a pair by
   itself, across trips. Ifs and loops are uniform, so every thread meets
   the barriers. Other programs are unordered, as for every store
   (docs/language.md 8.4). */

static bool writes_memory(IrOpcode o) {
    return o == IR_STORE || o == IR_ATOMIC || o == IR_SCATTER || o == IR_SCATTER_ATOMIC;
}

static bool is_atomic_op(IrOpcode o) { return o == IR_ATOMIC || o == IR_SCATTER_ATOMIC; }

static bool accesses_with(const IrBlock *block, const IrOp *self, const IrValue *root, bool in_loop) {
    for (const IrOp *o = block ? block->first : NULL; o; o = o->next) {
        if (accesses_with(o->body, self, root, in_loop || o->opcode == IR_FOR) ||
            accesses_with(o->else_body, self, root, in_loop))
            return true;
        bool memory = o->opcode == IR_LOAD || o->opcode == IR_GATHER || writes_memory(o->opcode);
        const IrValue *ref = o->opcode == IR_ASYNC_COPY ? o->operands[1] : memory ? o->operands[0] : NULL;
        if (!ref || ir_view_root(ref) != root)
            continue;
        bool either_writes = writes_memory(o->opcode) || writes_memory(self->opcode);
        if (!either_writes || (is_atomic_op(o->opcode) && is_atomic_op(self->opcode)))
            continue;
        if (o != self || (in_loop && !is_atomic_op(self->opcode)))
            return true;
    }
    return false;
}

static bool indexed_needs_order(const Lowering *L, const IrOp *op) {
    return accesses_with(L->kernel->body, op, ir_view_root(op->operands[0]), false);
}

/* gather ref[indices] mask other: one predicated ld.global per element,
   the value `other` (or 0) where the index is outside or the mask off. */
void llvm_memory_gather(Lowering *L, IrOp *op) {
    const Ref *r = ref_of(L, op->operands[0]);
    const IrType *ref_type = &op->operands[0]->type;
    int rank = ref_type->rank, next = 1 + rank;
    IrValue *v = op->results[0];
    Tile *t = llvm_kernel_tile_new(L, layout_of(L->plan, v), &v->type);
    Tile *index[IR_MAX_RANK];
    for (int d = 0; d < rank; d++)
        index[d] = llvm_kernel_operand(L, op, 1 + d);
    Tile *mask = op->has_mask ? llvm_kernel_operand(L, op, next++) : NULL;
    Tile *other = op->has_other ? llvm_kernel_operand(L, op, next++) : NULL;
    bool shared = r->space == SPACE_SHARED;   /* barrier.c orders it with the alloc's other accesses */
    bool ordered = !shared && indexed_needs_order(L, op);
    shared_phase(L, op, r);
    if (ordered)
        llvm_kernel_block_barrier(L);
    for (int64_t reg = 0; reg < t->num_regs; reg++) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < rank; d++)
            coords[d] = index[d]->regs[reg];
        LLVMValueRef pred = indexed_mask(L, r, ref_type, coords);
        if (mask)
            pred = llvm_kernel_and(L, pred, mask->regs[reg]);
        LLVMValueRef fallback = other ? other->regs[reg] : zero_of(L, r->dtype);
        LLVMValueRef ptr = element_ptr(L, r, coords);
        t->regs[reg] = pred && !shared ? predicated(L, false, r->readonly, r->dtype, ptr, 0, pred, fallback)
                                       : guarded_load(L, r, ptr, pred, fallback);
    }
    if (ordered)
        llvm_kernel_block_barrier(L);
    llvm_kernel_set_tile(L, v, t);
}

/* scatter ref[indices], value mask: a predicated st.global per element (one
   copy of each: a tile smaller than the block has copies in several
   threads); scatter_atomic: a relaxed atomicrmw per element, as atomic. */
void llvm_memory_scatter(Lowering *L, IrOp *op) {
    const Ref *r = ref_of(L, op->operands[0]);
    const IrType *ref_type = &op->operands[0]->type;
    int rank = ref_type->rank;
    Tile *t = llvm_kernel_operand(L, op, 1 + rank);
    Tile *index[IR_MAX_RANK];
    for (int d = 0; d < rank; d++)
        index[d] = llvm_kernel_operand(L, op, 1 + d);
    Tile *mask = op->has_mask ? llvm_kernel_operand(L, op, 2 + rank) : NULL;
    ThreadInfo *ti = llvm_kernel_thread(L, t->layout, &t->type);
    LLVMValueRef unique = LLVMIsAConstantInt(ti->unique) && LLVMConstIntGetZExtValue(ti->unique) == 1 ? NULL : ti->unique;
    bool shared = r->space == SPACE_SHARED;
    bool ordered = !shared && indexed_needs_order(L, op);
    shared_phase(L, op, r);
    if (ordered)
        llvm_kernel_block_barrier(L);
    for (int64_t reg = 0; reg < t->num_regs; reg++) {
        LLVMValueRef coords[IR_MAX_RANK];
        for (int d = 0; d < rank; d++)
            coords[d] = index[d]->regs[reg];
        LLVMValueRef m = llvm_kernel_and(L, unique, indexed_mask(L, r, ref_type, coords));
        if (mask)
            m = llvm_kernel_and(L, m, mask->regs[reg]);
        LLVMValueRef ptr = element_ptr(L, r, coords);
        if (op->opcode == IR_SCATTER) {
            if (m && !shared)
                predicated(L, true, false, r->dtype, ptr, 0, m, t->regs[reg]);
            else
                guarded_store(L, r, ptr, m, t->regs[reg]);
            continue;
        }
        guarded_atomic(L, op->combine, r->dtype, ptr, t->regs[reg], m);
    }
    if (ordered)
        llvm_kernel_block_barrier(L);
}

/* async_copy dst, src [mask]: each thread's vectors of the default load
   layout, 4, 8 or 16 bytes along the last dim, as cp.async (PTX ISA
   9.7.9.25.3: .cg, through L2 only, for 16 bytes; .ca otherwise) when the
   whole of the thread's part is in bounds and aligned (the test loads
   make, tile_fast_condition); otherwise, and for a masked copy, a load
   (0 where out of bounds or masked off) and a st.shared, which the next
   wait's barrier publishes like the asynchronous ones. Threads holding
   copies of an element (a tile smaller than the block) copy only once. */
void llvm_memory_async_copy(Lowering *L, IrOp *op) {
    const IrValue *srcv = op->operands[1];
    IrType type = srcv->type;
    type.kind = IRT_TILE;
    type.space = 0;
    type.access = 0;
    const Layout *layout = layout_blocked_default(L->kernel, &type, L->plan->threads);
    MemAccess in = {.ref = ref_of(L, srcv)};
    in.tile = llvm_kernel_tile_new(L, layout, &type);
    if (op->has_mask)
        in.mask = llvm_kernel_operand(L, op, 2);
    MemAccess out = {.ref = ref_of(L, op->operands[0]), .tile = in.tile, .is_store = true};
    llvm_kernel_barrier_at(L, layout_op_plan(L->plan, op)->barriers, BARRIER_BEFORE_WRITE);
    ThreadInfo *ti = llvm_kernel_thread(L, layout, &type);
    LLVMValueRef unique = ti->unique;
    LLVMBasicBlockRef done = NULL;
    if (!(LLVMIsAConstantInt(unique) && LLVMConstIntGetZExtValue(unique) == 1)) {
        LLVMBasicBlockRef copy = llvm_kernel_block(L, "cp.unique");
        done = llvm_kernel_block(L, "cp.unique.done");
        LLVMBuildCondBr(L->b, unique, copy, done);
        LLVMPositionBuilderAtEnd(L->b, copy);
    }
    in.thread_ptr = element_ptr(L, in.ref, ti->base);
    out.thread_ptr = element_ptr(L, out.ref, ti->base);
    access_thread(L, &in, ti->base);
    access_thread(L, &out, ti->base);
    int g = vector_width(in.ref, in.tile);
    int chunk = g * llvm_kernel_mem_bytes(type.dtype);
    LLVMValueRef fast = chunk == 4 || chunk == 8 || chunk == 16 ? tile_fast_condition(L, &in, ti, g) : NULL;
    LLVMBasicBlockRef slow_bb = NULL, merge = NULL;
    if (fast) {
        LLVMBasicBlockRef fast_bb = llvm_kernel_block(L, "cp.async");
        slow_bb = llvm_kernel_block(L, "cp.edge");
        merge = llvm_kernel_block(L, "cp.done");
        LLVMBuildCondBr(L->b, fast, fast_bb, slow_bb);
        LLVMPositionBuilderAtEnd(L->b, fast_bb);
        char name[64];
        snprintf(name, sizeof name, "llvm.nvvm.cp.async.%s.shared.global.%d", chunk == 16 ? "cg" : "ca", chunk);
        for (int64_t r0 = 0; r0 < in.tile->num_regs; r0 += g) {
            LLVMValueRef args[2] = {register_ptr(L, &out, r0), register_ptr(L, &in, r0)};
            llvm_kernel_intrinsic(L, name, NULL, 0, args, 2);
        }
        LLVMBuildBr(L->b, merge);
        LLVMPositionBuilderAtEnd(L->b, slow_bb);
    }
    if (!in.mask)   /* the source is global (ir_verify.c) */
        access_edge(L, &in, ti, g);
    else
        for (int64_t r0 = 0; r0 < in.tile->num_regs; r0 += g)
            access_group(L, &in, ti, r0, g);
    access_fast(L, &out, g);
    if (fast) {
        LLVMBuildBr(L->b, merge);
        LLVMPositionBuilderAtEnd(L->b, merge);
    }
    if (done) {
        LLVMBuildBr(L->b, done);
        LLVMPositionBuilderAtEnd(L->b, done);
    }
}
