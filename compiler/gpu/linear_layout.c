/*
 * linear_layout.c: layouts as linear maps over GF(2) (linear_layout.h says
 * what the map is and why registers may be mixed-radix).
 *
 * In: layout parameters (codegen.h's blocked and slice layouts, tensor-core
 * fragment shapes, shared-memory swizzles). Out: LinearLayouts and what is
 * computed from them: images, composition, inverses, free (replicated) bits,
 * the kind of a conversion, vector widths and shared-memory wavefronts.
 * Nothing here allocates; a LinearLayout is a value (about 6 KB).
 *
 * Linear algebra: a basis (one value per output dim) is packed into a
 * uint64_t, each output dim taking ceil(log2(size)) bits, so that XOR of
 * packed bases is XOR of bases; spans are kept as an XOR basis indexed by
 * leading bit (Gaussian elimination, one vector at a time).
 */
#include "linear_layout.h"
#include "layout_internal.h"   /* linear_from_layout reads the blocked parameters */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static int log2_exact(int64_t v) {
    int k = 0;
    while (((int64_t)1 << k) < v)
        k++;
    return k;
}

/* ---- the map ------------------------------------------------------------------ */

void linear_init(LinearLayout *l, int n_in, const LinearDimName *in, int n_out, const LinearDimName *out,
                 const int64_t *out_size) {
    memset(l, 0, sizeof *l);
    l->num_in = n_in;
    l->num_out = n_out;
    for (int i = 0; i < n_in; i++)
        l->in_name[i] = in[i];
    for (int d = 0; d < n_out; d++) {
        l->out_name[d] = out[d];
        l->out_size[d] = out_size[d];
    }
}

void linear_add_bit(LinearLayout *l, int in, const int32_t *basis) {
    if (l->in_bits[in] >= LINEAR_MAX_BITS)
        return;                                   /* the builders check sizes first */
    int b = l->in_bits[in]++;
    for (int d = 0; d < l->num_out; d++)
        l->bases[in][b][d] = basis[d];
    if (in != 0 || l->num_parts == 0)
        return;
    LinearPart *last = &l->parts[l->num_parts - 1];
    if (!last->affine) {
        last->bits++;
        return;
    }
    if (l->num_parts < LINEAR_MAX_PARTS)
        l->parts[l->num_parts++] = (LinearPart){.affine = false, .bits = 1, .first = b};
}

void linear_add_affine(LinearLayout *l, int radix, int dim, int64_t stride) {
    /* A part alternates with linear ones: a rank-8 blocked layout needs 16. */
    if (radix <= 1 || l->num_parts + 2 > LINEAR_MAX_PARTS)
        return;
    if (l->num_parts == 0 && l->in_bits[0] > 0)
        l->parts[l->num_parts++] = (LinearPart){.affine = false, .bits = l->in_bits[0], .first = 0};
    l->parts[l->num_parts++] = (LinearPart){.affine = true, .radix = radix, .dim = dim, .stride = stride};
}

bool linear_is_linear(const LinearLayout *l) {
    for (int p = 0; p < l->num_parts; p++)
        if (l->parts[p].affine)
            return false;
    return true;
}

int64_t linear_in_size(const LinearLayout *l, int in) {
    int64_t size = (int64_t)1 << l->in_bits[in];
    if (in == 0)
        for (int p = 0; p < l->num_parts; p++)
            if (l->parts[p].affine)
                size *= l->parts[p].radix;
    return size;
}

int linear_in_index(const LinearLayout *l, LinearDimName name) {
    for (int i = 0; i < l->num_in; i++)
        if (l->in_name[i] == name)
            return i;
    return -1;
}

int linear_out_index(const LinearLayout *l, LinearDimName name) {
    for (int d = 0; d < l->num_out; d++)
        if (l->out_name[d] == name)
            return d;
    return -1;
}

static void xor_bits(const LinearLayout *l, int in, int first, int bits, int64_t value, int64_t *out) {
    for (int j = 0; j < bits; j++)
        if (value >> j & 1)
            for (int d = 0; d < l->num_out; d++)
                out[d] ^= l->bases[in][first + j][d];
}

/* linear_apply's two parts: the XOR of the bases of the set bits (x) and
   the affine register parts' sum (add); the result is x + add. */
static void split_apply(const LinearLayout *l, const int64_t *in, int64_t *out, int64_t *add) {
    for (int d = 0; d < l->num_out; d++)
        out[d] = add[d] = 0;
    for (int i = 0; i < l->num_in; i++) {
        if (i > 0 || l->num_parts == 0) {
            xor_bits(l, i, 0, l->in_bits[i], in[i], out);
            continue;
        }
        int64_t v = in[0];
        for (int p = 0; p < l->num_parts; p++) {
            const LinearPart *part = &l->parts[p];
            if (part->affine) {
                add[part->dim] += v % part->radix * part->stride;
                v /= part->radix;
            } else {
                xor_bits(l, 0, part->first, part->bits, v & (((int64_t)1 << part->bits) - 1), out);
                v >>= part->bits;
            }
        }
    }
}

void linear_apply(const LinearLayout *l, const int64_t *in, int64_t *out) {
    int64_t add[LINEAR_MAX_DIMS];
    split_apply(l, in, out, add);
    for (int d = 0; d < l->num_out; d++)
        out[d] += add[d];
}

/* Every register's two parts for one thread, so that a scan over the
   lanes and warps of a distribution costs an XOR and an add a coordinate:
   coords(r, lane, warp) = (x[r] ^ lane_warp) + add[r] (the affine parts
   read only the register index). */
typedef struct RegParts {
    int dims;
    int64_t *x, *add;                  /* regs x dims each */
} RegParts;

static bool reg_parts_new(const LinearLayout *l, int64_t regs, RegParts *p) {
    p->dims = l->num_out;
    p->x = malloc(sizeof(int64_t) * (size_t)(regs * l->num_out * 2 + 1));
    if (!p->x)
        return false;
    p->add = p->x + regs * l->num_out;
    for (int64_t r = 0; r < regs; r++) {
        int64_t in[3] = {r, 0, 0};
        split_apply(l, in, p->x + r * l->num_out, p->add + r * l->num_out);
    }
    return true;
}

static void lane_warp_part(const LinearLayout *l, int64_t lane, int64_t warp, int64_t *out) {
    int64_t in[3] = {0, lane, warp}, add[LINEAR_MAX_DIMS];
    split_apply(l, in, out, add);
}

static void reg_coords(const RegParts *p, int64_t r, const int64_t *lane_warp, int64_t *c) {
    for (int d = 0; d < p->dims; d++)
        c[d] = (p->x[r * p->dims + d] ^ lane_warp[d]) + p->add[r * p->dims + d];
}

void linear_apply_thread(const LinearLayout *l, int64_t reg, int64_t lane, int64_t warp, int64_t *coords) {
    int64_t in[3] = {reg, lane, warp};
    linear_apply(l, in, coords);
}

/* The register parts, with the implicit single linear part made explicit. */
static int effective_parts(const LinearLayout *l, LinearPart *parts) {
    if (l->num_parts > 0) {
        memcpy(parts, l->parts, sizeof(LinearPart) * (size_t)l->num_parts);
        return l->num_parts;
    }
    if (l->num_in == 0 || l->in_bits[0] == 0)
        return 0;
    parts[0] = (LinearPart){.affine = false, .bits = l->in_bits[0], .first = 0};
    return 1;
}

bool linear_equal(const LinearLayout *a, const LinearLayout *b) {
    if (a->num_in != b->num_in || a->num_out != b->num_out)
        return false;
    for (int d = 0; d < a->num_out; d++)
        if (a->out_name[d] != b->out_name[d] || a->out_size[d] != b->out_size[d])
            return false;
    for (int i = 0; i < a->num_in; i++) {
        if (a->in_name[i] != b->in_name[i] || a->in_bits[i] != b->in_bits[i])
            return false;
        for (int j = 0; j < a->in_bits[i]; j++)
            for (int d = 0; d < a->num_out; d++)
                if (a->bases[i][j][d] != b->bases[i][j][d])
                    return false;
    }
    LinearPart pa[LINEAR_MAX_PARTS], pb[LINEAR_MAX_PARTS];
    int na = effective_parts(a, pa), nb = effective_parts(b, pb);
    if (na != nb)
        return false;
    for (int p = 0; p < na; p++) {
        if (pa[p].affine != pb[p].affine)
            return false;
        if (pa[p].affine ? pa[p].radix != pb[p].radix || pa[p].dim != pb[p].dim || pa[p].stride != pb[p].stride
                         : pa[p].bits != pb[p].bits || pa[p].first != pb[p].first)
            return false;
    }
    return true;
}

bool linear_compose(const LinearLayout *outer, const LinearLayout *inner, LinearLayout *result) {
    if (!linear_is_linear(inner) || !linear_is_linear(outer) || inner->num_out != outer->num_in)
        return false;
    for (int d = 0; d < inner->num_out; d++)
        if (inner->out_name[d] != outer->in_name[d] || inner->out_size[d] > ((int64_t)1 << outer->in_bits[d]))
            return false;
    LinearLayout r;
    linear_init(&r, inner->num_in, inner->in_name, outer->num_out, outer->out_name, outer->out_size);
    for (int i = 0; i < inner->num_in; i++)
        for (int j = 0; j < inner->in_bits[i]; j++) {
            int64_t mid[LINEAR_MAX_DIMS], out[LINEAR_MAX_DIMS];
            for (int d = 0; d < inner->num_out; d++)
                mid[d] = inner->bases[i][j][d];
            linear_apply(outer, mid, out);
            int32_t basis[LINEAR_MAX_DIMS];
            for (int d = 0; d < outer->num_out; d++)
                basis[d] = (int32_t)out[d];
            linear_add_bit(&r, i, basis);
        }
    *result = r;
    return true;
}

/* Packing bases into uint64_t: output dim d at bit offset[d], width[d] bits. */
typedef struct Packing {
    int offset[LINEAR_MAX_DIMS], width[LINEAR_MAX_DIMS], total;
} Packing;

static bool packing(const LinearLayout *l, Packing *p) {
    p->total = 0;
    for (int d = 0; d < l->num_out; d++) {
        p->offset[d] = p->total;
        p->width[d] = log2_exact(l->out_size[d] > 0 ? l->out_size[d] : 1);
        p->total += p->width[d];
    }
    return p->total <= 64;
}

static uint64_t pack(const Packing *p, const LinearLayout *l, const int32_t *basis) {
    uint64_t v = 0;
    for (int d = 0; d < l->num_out; d++)
        v |= (uint64_t)(uint32_t)basis[d] << p->offset[d];
    return v;
}

/* An XOR basis: span[k] has leading bit k (or is 0). */
typedef struct BitSpan {
    uint64_t v[64];
} BitSpan;

static uint64_t span_reduce(const BitSpan *s, uint64_t x) {
    for (int k = 63; k >= 0; k--)
        if ((x >> k & 1) && s->v[k])
            x ^= s->v[k];
    return x;
}

/* Adds x; false when it was already in the span. */
static bool span_add(BitSpan *s, uint64_t x) {
    x = span_reduce(s, x);
    if (!x)
        return false;
    int k = 63;
    while (!(x >> k & 1))
        k--;
    s->v[k] = x;
    return true;
}

bool linear_invert(const LinearLayout *l, LinearLayout *result) {
    if (!linear_is_linear(l))
        return false;
    Packing p;
    int in_total = 0;
    for (int i = 0; i < l->num_in; i++)
        in_total += l->in_bits[i];
    for (int d = 0; d < l->num_out; d++)
        if (!is_pow2(l->out_size[d]))
            return false;
    if (!packing(l, &p) || p.total != in_total || in_total > 64)
        return false;
    /* Rows: image (packed) and which input bits make it. Eliminate so that
       each output bit k has a row with leading bit k. */
    uint64_t image[64] = {0}, source[64] = {0};
    for (int i = 0, n = 0; i < l->num_in; i++)
        for (int j = 0; j < l->in_bits[i]; j++, n++) {
            uint64_t x = pack(&p, l, l->bases[i][j]), s = (uint64_t)1 << n;
            for (int k = 63; k >= 0; k--)
                if ((x >> k & 1) && image[k]) {
                    x ^= image[k];
                    s ^= source[k];
                }
            if (!x)
                return false;                     /* not full rank */
            int k = 63;
            while (!(x >> k & 1))
                k--;
            image[k] = x;
            source[k] = s;
        }
    /* Back-substitute so that row k is exactly bit k. */
    for (int k = 0; k < 64; k++) {
        if (!image[k])
            continue;
        for (int m = k - 1; m >= 0; m--)
            if ((image[k] >> m & 1) && image[m]) {
                image[k] ^= image[m];
                source[k] ^= source[m];
            }
    }
    int64_t sizes[LINEAR_MAX_DIMS];
    for (int i = 0; i < l->num_in; i++)
        sizes[i] = (int64_t)1 << l->in_bits[i];
    LinearLayout r;
    linear_init(&r, l->num_out, l->out_name, l->num_in, l->in_name, sizes);
    for (int d = 0; d < l->num_out; d++)
        for (int j = 0; j < p.width[d]; j++) {
            uint64_t s = source[p.offset[d] + j];
            int32_t basis[LINEAR_MAX_DIMS] = {0};
            for (int i = 0, n = 0; i < l->num_in; i++)
                for (int b = 0; b < l->in_bits[i]; b++, n++)
                    if (s >> n & 1)
                        basis[i] |= 1 << b;
            linear_add_bit(&r, d, basis);
        }
    *result = r;
    return true;
}

uint32_t linear_free_bits(const LinearLayout *l, int in) {
    Packing p;
    if (!packing(l, &p))
        return 0;
    BitSpan span;
    memset(&span, 0, sizeof span);
    uint32_t mask = 0;
    for (int i = 0; i <= in; i++)
        for (int j = 0; j < l->in_bits[i]; j++)
            if (!span_add(&span, pack(&p, l, l->bases[i][j])) && i == in)
                mask |= 1u << j;
    return mask;
}

static int64_t element_index(const LinearLayout *l, const int64_t *coords);

bool linear_is_injective(const LinearLayout *l) {
    for (int i = 0; i < l->num_in; i++)
        if (linear_free_bits(l, i))
            return false;
    if (linear_is_linear(l))
        return true;
    /* Affine digits: enumerate (inputs are at most 2^24 in all). */
    int64_t inputs = 1, elements = 1;
    for (int i = 0; i < l->num_in; i++)
        inputs *= linear_in_size(l, i);
    for (int d = 0; d < l->num_out; d++)
        elements *= l->out_size[d];
    if (inputs > elements)
        return false;
    char *seen = calloc((size_t)elements, 1);
    bool injective = seen != NULL;
    for (int64_t x = 0; x < inputs && injective; x++) {
        int64_t in[LINEAR_MAX_DIMS], out[LINEAR_MAX_DIMS], rest = x;
        for (int i = 0; i < l->num_in; i++) {
            in[i] = rest % linear_in_size(l, i);
            rest /= linear_in_size(l, i);
        }
        linear_apply(l, in, out);
        int64_t e = element_index(l, out);
        injective = e >= 0 && !seen[e];
        if (injective)
            seen[e] = 1;
    }
    free(seen);
    return injective;
}

bool linear_slice(const LinearLayout *parent, int dim, LinearLayout *out) {
    if (dim < 0 || dim >= parent->num_out)
        return false;
    LinearDimName names[LINEAR_MAX_DIMS];
    int64_t sizes[LINEAR_MAX_DIMS];
    for (int d = 0, k = 0; d < parent->num_out; d++)
        if (d != dim) {
            names[k] = (LinearDimName)(LINEAR_TILE0 + k);
            if (parent->out_name[d] < LINEAR_TILE0)
                names[k] = parent->out_name[d];
            sizes[k++] = parent->out_size[d];
        }
    LinearLayout r;
    linear_init(&r, parent->num_in, parent->in_name, parent->num_out - 1, names, sizes);
    /* The basis without `dim`; dropped when only `dim` moved (registers). */
    int32_t basis[LINEAR_MAX_DIMS];
    for (int i = 1; i < parent->num_in; i++)
        for (int j = 0; j < parent->in_bits[i]; j++) {
            for (int d = 0, k = 0; d < parent->num_out; d++)
                if (d != dim)
                    basis[k++] = parent->bases[i][j][d];
            linear_add_bit(&r, i, basis);
        }
    LinearPart parts[LINEAR_MAX_PARTS];
    int n = effective_parts(parent, parts);
    for (int p = 0; p < n; p++) {
        if (parts[p].affine) {
            if (parts[p].dim != dim)
                linear_add_affine(&r, parts[p].radix, parts[p].dim - (parts[p].dim > dim), parts[p].stride);
            continue;
        }
        for (int j = parts[p].first; j < parts[p].first + parts[p].bits; j++) {
            bool any = false;
            for (int d = 0, k = 0; d < parent->num_out; d++)
                if (d != dim) {
                    basis[k] = parent->bases[0][j][d];
                    any |= basis[k++] != 0;
                }
            if (any || parent->bases[0][j][dim] == 0)
                linear_add_bit(&r, 0, basis);
        }
    }
    *out = r;
    return true;
}

bool linear_thread_split_additive(const LinearLayout *dist) {
    if (dist->num_in != 3)
        return false;
    for (int d = 0; d < dist->num_out; d++) {
        /* Bits the register part can set: its linear bases', and those from
           the lowest stride bit up to the affine digits' largest sum. */
        int64_t regs = 0, threads = 0, affine_max = 0, low = -1;
        for (int j = 0; j < dist->in_bits[0]; j++)
            regs |= dist->bases[0][j][d];
        for (int p = 0; p < dist->num_parts; p++)
            if (dist->parts[p].affine && dist->parts[p].dim == d && dist->parts[p].stride > 0) {
                affine_max += (dist->parts[p].radix - 1) * dist->parts[p].stride;
                int64_t bit = dist->parts[p].stride & -dist->parts[p].stride;
                low = low < 0 || bit < low ? bit : low;
            }
        if (affine_max > 0) {
            int64_t affine = (((int64_t)1 << log2_exact(affine_max + 1)) - 1) & ~(low - 1);
            if (regs & affine)
                return false;
            regs |= affine;
        }
        for (int i = 1; i < 3; i++)
            for (int j = 0; j < dist->in_bits[i]; j++) {
                if (threads & dist->bases[i][j][d])
                    return false;
                threads |= dist->bases[i][j][d];
            }
        if (regs & threads)
            return false;
    }
    return true;
}

static const char *dim_name(LinearDimName name, char *buf, size_t size) {
    static const char *const fixed[] = {"register", "lane", "warp", "offset"};
    if (name < LINEAR_TILE0)
        return fixed[name];
    snprintf(buf, size, "dim%d", (int)(name - LINEAR_TILE0));
    return buf;
}

static void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...) {
    size_t len = strlen(buf);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static void format_bases(const LinearLayout *l, int in, int first, int bits, char *buf, size_t size) {
    for (int j = first; j < first + bits; j++) {
        append(buf, size, "%s(", j > first ? "," : "");
        for (int d = 0; d < l->num_out; d++)
            append(buf, size, "%s%d", d ? "," : "", (int)l->bases[in][j][d]);
        append(buf, size, ")");
    }
}

void linear_format(const LinearLayout *l, char *buf, size_t size) {
    char name[16];
    buf[0] = 0;
    append(buf, size, "linear<");
    for (int i = 0; i < l->num_in; i++) {
        append(buf, size, "%s%s=[", i ? " " : "", dim_name(l->in_name[i], name, sizeof name));
        if (i == 0 && l->num_parts > 0) {
            for (int p = 0; p < l->num_parts; p++) {
                const LinearPart *part = &l->parts[p];
                if (p)
                    append(buf, size, ",");
                if (part->affine)
                    append(buf, size, "{%d x %s:%lld}", part->radix,
                           dim_name(l->out_name[part->dim], name, sizeof name), (long long)part->stride);
                else
                    format_bases(l, 0, part->first, part->bits, buf, size);
            }
        } else {
            format_bases(l, i, 0, l->in_bits[i], buf, size);
        }
        append(buf, size, "]");
    }
    append(buf, size, " ->");
    for (int d = 0; d < l->num_out; d++)
        append(buf, size, "%s %s:%lld", d ? "," : "", dim_name(l->out_name[d], name, sizeof name),
               (long long)l->out_size[d]);
    append(buf, size, ">");
}

/* ---- builders ----------------------------------------------------------------- */

/* Sizes the builders accept: every input dim within LINEAR_MAX_BITS. */
static bool fits(int64_t elements) { return elements > 0 && elements <= ((int64_t)1 << LINEAR_MAX_BITS); }

static const LinearDimName thread_dims[3] = {LINEAR_REGISTER, LINEAR_LANE, LINEAR_WARP};

static void init_distributed(LinearLayout *l, int rank, const int64_t *shape) {
    LinearDimName out[LINEAR_MAX_DIMS];
    for (int d = 0; d < rank; d++)
        out[d] = (LinearDimName)(LINEAR_TILE0 + d);
    linear_init(l, 3, thread_dims, rank, out, shape);
}

/* A basis with value v on dim d (rank-2 builders use it most). */
static void add_unit(LinearLayout *l, int in, int dim, int64_t v) {
    int32_t basis[LINEAR_MAX_DIMS] = {0};
    if (dim >= 0)
        basis[dim] = (int32_t)v;
    linear_add_bit(l, in, basis);
}

/* `count` bits (count a power of two) on input `in` stepping dim d by
   step, 2 step, 4 step, ... */
static void add_run(LinearLayout *l, int in, int dim, int64_t step, int64_t count) {
    for (int64_t s = 1; s < count; s *= 2)
        add_unit(l, in, dim, step * s);
}

/* The root blocked layout of a chain of slices, the root dim of each of the
   tile's dims, and whether each root dim is present in the tile. */
static const Layout *resolve_root(const Layout *layout, int *dim_to_root) {
    if (layout->kind == LAYOUT_BLOCKED) {
        for (int d = 0; d < layout->rank; d++)
            dim_to_root[d] = d;
        return layout;
    }
    if (!layout->parent)
        return NULL;
    int parent[IR_MAX_RANK + 1];
    const Layout *root = resolve_root(layout->parent, parent);
    for (int d = 0, k = 0; d < layout->parent->rank; d++)
        if (d != layout->slice_dim)
            dim_to_root[k++] = parent[d];
    return root;
}

bool linear_from_layout(const Layout *layout, const IrType *shape, int num_warps, LinearLayout *out) {
    int dim_to_root[IR_MAX_RANK + 1];
    const Layout *root = resolve_root(layout, dim_to_root);
    if (!root || !is_pow2(num_warps) || num_warps > 1024 || shape->rank > IR_MAX_RANK)
        return false;
    int rank = shape->rank;
    int64_t sizes[LINEAR_MAX_DIMS], elements = 1;
    for (int d = 0; d < rank; d++) {
        sizes[d] = shape->dims[d].size > 0 ? shape->dims[d].size : 1;
        if (!fits(elements *= sizes[d]))
            return false;
    }
    init_distributed(out, rank, sizes);

    /* Which tile dim each root dim is (-1: sliced away or absent), and
       which tile dims live wholly in registers (not a power of two, or past
       the layout's rank): those get no lane or warp bases. */
    int tile_of_root[IR_MAX_RANK];
    bool in_regs[IR_MAX_RANK];
    for (int r = 0; r < root->rank; r++)
        tile_of_root[r] = -1;
    for (int d = 0; d < rank; d++) {
        in_regs[d] = d >= layout->rank || !is_pow2(sizes[d]);
        if (!in_regs[d])
            tile_of_root[dim_to_root[d]] = d;
    }
    for (int r = 0; r < root->rank; r++)
        if (!is_pow2(root->threads_per_warp[r]) || !is_pow2(root->warps_per_cta[r]) ||
            !is_pow2(root->size_per_thread[r]))
            return false;

    /* Lanes then warps are numbered along root dims in `order` (fastest
       first); a thread's coordinate along tile dim d is
       ((warp_r * tpw + lane_r) * spt) mod size. Bits past the layout's
       threads (fewer lanes than 32, fewer warps than num_warps) replicate. */
    for (int pass = 0; pass < 2; pass++) {
        int in = pass == 0 ? 1 : 2, total = pass == 0 ? 5 : log2_exact(num_warps), used = 0;
        for (int o = 0; o < root->rank; o++) {
            int r = root->order[o];
            int count = pass == 0 ? root->threads_per_warp[r] : root->warps_per_cta[r];
            int d = tile_of_root[r];
            int64_t step = (int64_t)root->size_per_thread[r] * (pass == 0 ? 1 : root->threads_per_warp[r]);
            for (int64_t s = 1; s < count && used < total; s *= 2, used++)
                add_unit(out, in, d, d >= 0 && step * s < sizes[d] ? step * s : 0);
        }
        for (; used < total; used++)
            add_unit(out, in, -1, 0);
    }

    /* Registers, row-major over the dims' register counts (the last dim
       least significant): along a dim of size >= reach, spt contiguous
       elements then a repeat every reach; shorter, min(size, spt). */
    for (int d = rank - 1; d >= 0; d--) {
        if (in_regs[d]) {
            if (is_pow2(sizes[d]))
                add_run(out, 0, d, 1, sizes[d]);
            else
                linear_add_affine(out, (int)sizes[d], d, 1);
            continue;
        }
        int r = dim_to_root[d];
        int64_t spt = root->size_per_thread[r];
        int64_t reach = spt * root->threads_per_warp[r] * root->warps_per_cta[r];
        if (sizes[d] >= reach) {
            add_run(out, 0, d, 1, spt);
            add_run(out, 0, d, reach, sizes[d] / reach);
        } else {
            add_run(out, 0, d, 1, sizes[d] < spt ? sizes[d] : spt);
        }
    }
    return true;
}

/* Lanes of every m16n8k16 fragment: (threadID_in_group = lane % 4, groupID
   = lane >> 2). `pair_dim` is where threadID_in_group steps by 2, `group_dim`
   where groupID steps by 1. */
static void mma_lanes(LinearLayout *l, int pair_dim, int group_dim) {
    add_run(l, 1, pair_dim, 2, 4);
    add_run(l, 1, group_dim, 1, 8);
}

bool linear_mma_sync(LinearMmaOperand operand, int64_t rows, int64_t cols, int warps_m, int warps_n,
                     LinearLayout *out) {
    if (!is_pow2(rows) || !is_pow2(cols) || !is_pow2(warps_m) || !is_pow2(warps_n) || !fits(rows * cols) ||
        warps_m * warps_n > 1024)
        return false;
    int64_t shape[2] = {rows, cols};
    init_distributed(out, 2, shape);
    switch (operand) {
    case LINEAR_MMA_A:                            /* M x K */
        if (rows % (16 * warps_m) || cols % 16)
            return false;
        add_unit(out, 0, 1, 1);                   /* a0 -> a1: column + 1 */
        add_unit(out, 0, 0, 8);                   /* a0 -> a2: row + 8 */
        add_unit(out, 0, 1, 8);                   /* a0 -> a4: column + 8 */
        add_run(out, 0, 1, 16, cols / 16);        /* k_rep */
        add_run(out, 0, 0, 16 * warps_m, rows / (16 * warps_m));
        mma_lanes(out, 1, 0);
        add_run(out, 2, -1, 0, warps_n);          /* A is the same for every warp_n */
        add_run(out, 2, 0, 16, warps_m);
        return true;
    case LINEAR_MMA_B:                            /* K x N */
        if (rows % 16 || cols % (8 * warps_n))
            return false;
        add_unit(out, 0, 0, 1);                   /* b0 -> b1: k + 1 */
        add_unit(out, 0, 0, 8);                   /* b0 -> b2: k + 8 */
        add_run(out, 0, 0, 16, rows / 16);        /* k_rep */
        add_run(out, 0, 1, 8 * warps_n, cols / (8 * warps_n));
        mma_lanes(out, 0, 1);
        add_run(out, 2, 1, 8, warps_n);
        add_run(out, 2, -1, 0, warps_m);          /* B is the same for every warp_m */
        return true;
    case LINEAR_MMA_C:                            /* M x N */
        if (rows % (16 * warps_m) || cols % (8 * warps_n))
            return false;
        add_unit(out, 0, 1, 1);                   /* c0 -> c1: column + 1 */
        add_unit(out, 0, 0, 8);                   /* c0 -> c2: row + 8 */
        add_run(out, 0, 1, 8 * warps_n, cols / (8 * warps_n));
        add_run(out, 0, 0, 16 * warps_m, rows / (16 * warps_m));
        mma_lanes(out, 1, 0);
        add_run(out, 2, 1, 8, warps_n);
        add_run(out, 2, 0, 16, warps_m);
        return true;
    }
    return false;
}

bool linear_ldmatrix(LinearMmaOperand operand, bool b_transposed, int64_t rows, int64_t cols, int warps_m,
                     int warps_n, LinearLayout *out) {
    if (operand == LINEAR_MMA_C || !is_pow2(rows) || !is_pow2(cols) || !is_pow2(warps_m) || !is_pow2(warps_n) ||
        !fits(rows * cols) || warps_m * warps_n > 1024)
        return false;
    int64_t shape[2] = {rows, cols};
    init_distributed(out, 2, shape);
    if (operand == LINEAR_MMA_A) {                /* M x K */
        if (rows % (16 * warps_m) || cols % 16)
            return false;
        add_run(out, 0, 1, 1, 8);                 /* the 16-byte row */
        add_run(out, 0, 1, 16, cols / 16);        /* k steps */
        add_run(out, 0, 0, 16 * warps_m, rows / (16 * warps_m));
        add_run(out, 1, 0, 1, 8);                 /* l % 8 */
        add_unit(out, 1, 0, 8 * warps_m);         /* matrix bit 0: row half */
        add_unit(out, 1, 1, 8);                   /* matrix bit 1: k half */
        add_run(out, 2, -1, 0, warps_n);
        add_run(out, 2, 0, 8, warps_m);
        return true;
    }
    /* B: n is dim 1 of K x N, dim 0 of the transposed staging N x K. */
    int n_dim = b_transposed ? 0 : 1, k_dim = 1 - n_dim;
    int64_t n = shape[n_dim], k = shape[k_dim];
    if (k % 16 || n % (16 * warps_n))
        return false;
    add_run(out, 0, b_transposed ? k_dim : n_dim, 1, 8);   /* the 16-byte row */
    add_run(out, 0, k_dim, 16, k / 16);           /* k steps */
    add_run(out, 0, n_dim, 16 * warps_n, n / (16 * warps_n));   /* pairs of n tiles */
    add_run(out, 1, b_transposed ? n_dim : k_dim, 1, 8);   /* l % 8 */
    add_unit(out, 1, k_dim, 8);                   /* matrix bit 0: k half */
    add_unit(out, 1, n_dim, 8 * warps_n);         /* matrix bit 1: the second n tile */
    add_run(out, 2, n_dim, 8, warps_n);
    add_run(out, 2, -1, 0, warps_m);
    return true;
}

/* Warps of a warpgroup own 16-row slabs; warpgroups own 64-row slabs. */
static bool wgmma_warps(LinearLayout *l, int num_warps, int64_t rows, int64_t *slab) {
    if (num_warps < 4 || num_warps % 4 || !is_pow2(num_warps) || num_warps > 1024 || !is_pow2(rows) ||
        !fits(rows * 256))
        return false;
    *slab = 16 * (int64_t)num_warps;
    if (rows % *slab)
        return false;
    add_run(l, 2, 0, 16, num_warps);
    return true;
}

bool linear_wgmma_acc(int64_t rows, int64_t n, int num_warps, LinearLayout *out) {
    if (n < 8 || n > 256 || n % 8)
        return false;
    int64_t shape[2] = {rows, n}, slab;
    init_distributed(out, 2, shape);
    add_unit(out, 0, 1, 1);                       /* d0 -> d1: column + 1 */
    add_unit(out, 0, 0, 8);                       /* d0 -> d2: row + 8 */
    if (is_pow2(n / 8))
        add_run(out, 0, 1, 8, n / 8);             /* d0 -> d4: column + 8, ... */
    else
        linear_add_affine(out, (int)(n / 8), 1, 8);
    mma_lanes(out, 1, 0);
    if (!wgmma_warps(out, num_warps, rows, &slab))
        return false;
    add_run(out, 0, 0, slab, rows / slab);        /* m_rep */
    return true;
}

bool linear_wgmma_a(int64_t rows, int64_t k, int num_warps, LinearLayout *out) {
    if (!is_pow2(k) || k % 16)
        return false;
    int64_t shape[2] = {rows, k}, slab;
    init_distributed(out, 2, shape);
    add_unit(out, 0, 1, 1);                       /* a0 -> a1: column + 1 */
    add_unit(out, 0, 0, 8);                       /* a0 -> a2: row + 8 */
    add_unit(out, 0, 1, 8);                       /* a0 -> a4: column + 8 */
    add_run(out, 0, 1, 16, k / 16);               /* k_rep */
    mma_lanes(out, 1, 0);
    if (!wgmma_warps(out, num_warps, rows, &slab))
        return false;
    add_run(out, 0, 0, slab, rows / slab);        /* m_rep */
    return true;
}

static void init_shared(LinearLayout *l, int rank, const int64_t *shape) {
    LinearDimName in = LINEAR_OFFSET, out[LINEAR_MAX_DIMS];
    for (int d = 0; d < rank; d++)
        out[d] = (LinearDimName)(LINEAR_TILE0 + d);
    linear_init(l, 1, &in, rank, out, shape);
}

bool linear_shared_row_major(const int64_t *shape, int rank, LinearLayout *out) {
    int64_t elements = 1;
    for (int d = 0; d < rank; d++)
        if (!is_pow2(shape[d]) || !fits(elements *= shape[d]))
            return false;
    init_shared(out, rank, shape);
    for (int d = rank - 1; d >= 0; d--)
        add_run(out, 0, d, 1, shape[d]);
    return true;
}

bool linear_shared_swizzled(int64_t rows, int64_t cols, int elem_bytes, int swizzle_bytes, LinearLayout *out) {
    int panel_bytes = swizzle_bytes ? swizzle_bytes : 16;
    if (!is_pow2(rows) || !is_pow2(cols) || !fits(rows * cols) || !is_pow2(elem_bytes) || elem_bytes > 16 || rows % 8 ||
        (swizzle_bytes != 0 && swizzle_bytes != 32 && swizzle_bytes != 64 && swizzle_bytes != 128))
        return false;
    int64_t panel = panel_bytes / elem_bytes;     /* elements per panel row */
    if (cols % panel)
        return false;
    int b = swizzle_bytes ? log2_exact(swizzle_bytes / 16) : 0, e = log2_exact(elem_bytes);
    int64_t shape[2] = {rows, cols};
    init_shared(out, 2, shape);
    int bits = log2_exact(rows * cols);
    for (int k = 0; k < bits; k++) {
        /* The logical byte address of physical byte address 2^(k+e): the
           swizzle is an involution (bits [7, 7+b) are XORed into [4, 4+b)). */
        int64_t a = (int64_t)1 << (k + e);
        a ^= (a >> 7 & ((1 << b) - 1)) << 4;
        int64_t o = a >> e;                       /* logical element index */
        int64_t col_in = o % panel, row = o / panel % rows, p = o / (panel * rows);
        int32_t basis[2] = {(int32_t)row, (int32_t)(p * panel + col_in)};
        linear_add_bit(out, 0, basis);
    }
    return true;
}

/* ---- queries ------------------------------------------------------------------ */

const char *linear_convert_name(LinearConvertKind kind) {
    static const char *const names[] = {"noop", "registers", "shuffle", "shared"};
    return names[kind];
}

/* dst's elements for each thread are inside src's for the same thread
   (within = 1) or the same warp (within = 2): for linear layouts, the
   thread (warp) of dst at t holds dst(t) + span(dst registers [+ lanes]),
   so dst's span must be inside src's and every thread bit's difference
   dst_k ^ src_k inside src's span. */
static bool held_within_linear(const LinearLayout *src, const LinearLayout *dst, int within) {
    Packing p;
    if (!packing(src, &p))
        return false;
    BitSpan span;
    memset(&span, 0, sizeof span);
    for (int i = 0; i < within; i++)
        for (int j = 0; j < src->in_bits[i]; j++)
            span_add(&span, pack(&p, src, src->bases[i][j]));
    for (int i = 0; i < within; i++)
        for (int j = 0; j < dst->in_bits[i]; j++)
            if (span_reduce(&span, pack(&p, dst, dst->bases[i][j])))
                return false;
    for (int i = within; i < 3; i++)
        for (int j = 0; j < src->in_bits[i]; j++)
            if (span_reduce(&span, pack(&p, src, src->bases[i][j]) ^ pack(&p, dst, dst->bases[i][j])))
                return false;
    return true;
}

static int64_t element_index(const LinearLayout *l, const int64_t *coords) {
    int64_t index = 0;
    for (int d = 0; d < l->num_out; d++) {
        if (coords[d] < 0 || coords[d] >= l->out_size[d])
            return -1;
        index = index * l->out_size[d] + coords[d];
    }
    return index;
}

/* The same by enumeration (any layouts): stamp the elements src gives each
   group of threads (a thread, or a warp's 32 lanes), then look up dst's. */
static bool held_within_enumerated(const LinearLayout *src, const LinearLayout *dst, int within) {
    int64_t elements = 1;
    for (int d = 0; d < src->num_out; d++)
        elements *= src->out_size[d];
    if (elements > ((int64_t)1 << 24))
        return false;
    int32_t *stamp = calloc((size_t)elements, sizeof *stamp);
    if (!stamp)
        return false;
    int64_t lanes = linear_in_size(src, 1), warps = linear_in_size(src, 2);
    int64_t groups = within == 1 ? lanes * warps : warps, per = within == 1 ? 1 : lanes;
    bool ok = true;
    for (int64_t g = 0; g < groups && ok; g++) {
        for (int pass = 0; pass < 2 && ok; pass++) {
            const LinearLayout *l = pass == 0 ? src : dst;
            for (int64_t t = g * per; t < (g + 1) * per && ok; t++)
                for (int64_t r = 0; r < linear_in_size(l, 0) && ok; r++) {
                    int64_t c[LINEAR_MAX_DIMS];
                    linear_apply_thread(l, r, t % lanes, t / lanes, c);
                    int64_t e = element_index(l, c);
                    if (e < 0)
                        ok = false;
                    else if (pass == 0)
                        stamp[e] = (int32_t)(g + 1);
                    else if (stamp[e] != g + 1)
                        ok = false;
                }
        }
    }
    free(stamp);
    return ok;
}

LinearConvertKind linear_convert_kind(const LinearLayout *src, const LinearLayout *dst) {
    if (src->num_in != 3 || dst->num_in != 3 || src->num_out != dst->num_out ||
        src->in_bits[1] != dst->in_bits[1] || src->in_bits[2] != dst->in_bits[2])
        return LINEAR_CVT_SHARED;
    for (int d = 0; d < src->num_out; d++)
        if (src->out_size[d] != dst->out_size[d])
            return LINEAR_CVT_SHARED;
    if (linear_equal(src, dst))
        return LINEAR_CVT_NOOP;
    bool linear = linear_is_linear(src) && linear_is_linear(dst);
    for (int within = 1; within <= 2; within++) {
        bool held = linear ? held_within_linear(src, dst, within) : held_within_enumerated(src, dst, within);
        if (held)
            return within == 1 ? LINEAR_CVT_REGISTERS : LINEAR_CVT_SHUFFLE;
    }
    return LINEAR_CVT_SHARED;
}

bool linear_shared_from_layout(LinearShared *shared, const LinearLayout *layout) {
    memset(shared, 0, sizeof *shared);
    shared->has_layout = true;
    shared->rank = layout->num_out;
    return linear_invert(layout, &shared->inverse);
}

void linear_shared_strided(LinearShared *shared, int rank, const int64_t *stride) {
    memset(shared, 0, sizeof *shared);
    shared->rank = rank;
    for (int d = 0; d < rank; d++)
        shared->stride[d] = stride[d];
}

int64_t linear_shared_offset(const LinearShared *shared, const int64_t *coords) {
    int64_t offset = 0;
    if (shared->has_layout) {
        linear_apply(&shared->inverse, coords, &offset);
        return offset;
    }
    for (int d = 0; d < shared->rank; d++)
        offset += coords[d] * shared->stride[d];
    return offset;
}

/* Does basis `b` step `width` along `dim` and nowhere else (the next
   element of a contiguous run)? */
static bool unit_step(const LinearLayout *dist, const int32_t *b, int dim, int64_t width) {
    if (b[dim] != width)
        return false;
    for (int d = 0; d < dist->num_out; d++)
        if (d != dim && b[d])
            return false;
    return true;
}

int linear_vector_width(const LinearLayout *dist, int dim) {
    LinearPart parts[LINEAR_MAX_PARTS];
    int n = effective_parts(dist, parts);
    int64_t width = 1;
    int used = 0;                                 /* low register bits in the run */
    int run_affine = -1;                          /* an affine part that extends it */
    for (int p = 0; p < n; p++) {
        if (parts[p].affine) {
            /* digits 0..radix-1 at stride `width` continue the run; an even
               radix keeps aligned runs of the next power of two. */
            if (parts[p].dim == dim && parts[p].stride == width) {
                run_affine = p;
                for (int64_t r = parts[p].radix; r % 2 == 0; r /= 2)
                    width *= 2;
            }
            break;
        }
        int j = 0;
        for (; j < parts[p].bits; j++) {
            if (!unit_step(dist, dist->bases[0][parts[p].first + j], dim, width))
                break;
            width *= 2;
            used++;
        }
        if (j < parts[p].bits)
            break;
    }
    /* Runs must start at multiples of the width: every other basis and
       stride along `dim` keeps the low bits clear. */
    for (int i = 0; i < dist->num_in; i++)
        for (int j = i == 0 ? used : 0; j < dist->in_bits[i]; j++)
            while (width > 1 && dist->bases[i][j][dim] % width)
                width /= 2;
    for (int p = 0; p < n; p++)
        if (parts[p].affine && p != run_affine && parts[p].dim == dim)
            while (width > 1 && parts[p].stride % width)
                width /= 2;
    return (int)width;
}

int linear_dim_run(const LinearLayout *dist, int dim) {
    int64_t width = 1;
    uint32_t run = 0;                             /* register bits in the run */
    for (int j = 0; j < dist->in_bits[0]; j++) {
        const int32_t *b = dist->bases[0][j];
        if (!b[dim])
            continue;
        if (!unit_step(dist, b, dim, width))
            break;
        width *= 2;
        run |= 1u << j;
    }
    for (int i = 0; i < dist->num_in; i++)
        for (int j = 0; j < dist->in_bits[i]; j++)
            if (!(i == 0 && (run >> j & 1)))
                while (width > 1 && dist->bases[i][j][dim] % width)
                    width /= 2;
    for (int p = 0; p < dist->num_parts; p++)
        if (dist->parts[p].affine && dist->parts[p].dim == dim)
            while (width > 1 && dist->parts[p].stride % width)
                width /= 2;
    return (int)width;
}

/* Whether every aligned run of v registers of every thread is at v
   consecutive offsets starting at a multiple of v. */
static bool shared_runs(const LinearLayout *dist, const LinearShared *shared, int64_t v) {
    int64_t regs = linear_in_size(dist, 0), lanes = linear_in_size(dist, 1), warps = linear_in_size(dist, 2);
    if (regs % v)
        return false;
    RegParts parts;
    if (!reg_parts_new(dist, regs, &parts))
        return false;
    bool ok = true;
    for (int64_t w = 0; w < warps && ok; w++)
        for (int64_t lane = 0; lane < lanes && ok; lane++) {
            int64_t lw[LINEAR_MAX_DIMS];
            lane_warp_part(dist, lane, w, lw);
            for (int64_t r = 0; r < regs && ok; r += v) {
                int64_t c[LINEAR_MAX_DIMS];
                reg_coords(&parts, r, lw, c);
                int64_t base = linear_shared_offset(shared, c);
                ok = base % v == 0;
                for (int64_t i = 1; i < v && ok; i++) {
                    reg_coords(&parts, r + i, lw, c);
                    ok = linear_shared_offset(shared, c) == base + i;
                }
            }
        }
    free(parts.x);
    return ok;
}

/* From the longest run down: runs of v registers are runs of v / 2 too,
   so the first that holds is the answer, and the longer ones that fail
   mostly fail at their first register (a full scan only for the answer). */
int linear_shared_vector_width(const LinearLayout *dist, const LinearShared *shared) {
    int64_t v = 1;
    while (v * 2 <= linear_in_size(dist, 0))
        v *= 2;
    while (v > 1 && !shared_runs(dist, shared, v))
        v /= 2;
    return (int)v;
}

int64_t linear_shared_wavefronts(const LinearLayout *dist, const LinearShared *shared, int elem_bytes, int vec,
                                 int64_t *ideal) {
    if (vec < 1 || !shared_runs(dist, shared, vec))
        return -1;
    return linear_shared_wavefronts_of_runs(dist, shared, elem_bytes, vec, ideal);
}

int64_t linear_shared_wavefronts_of_runs(const LinearLayout *dist, const LinearShared *shared, int elem_bytes, int vec,
                                         int64_t *ideal) {
    int64_t regs = linear_in_size(dist, 0), lanes = linear_in_size(dist, 1), warps = linear_in_size(dist, 2);
    int bytes = vec * elem_bytes;
    if (vec < 1 || regs % vec || bytes > 16 || lanes > 32)
        return -1;
    int phase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
    int64_t worst = -1, worst_ideal = 0;
    RegParts parts;
    if (!reg_parts_new(dist, regs, &parts))
        return -1;
    int64_t (*lw)[LINEAR_MAX_DIMS] = malloc(sizeof *lw * (size_t)(lanes + 1));
    if (!lw) {
        free(parts.x);
        return -1;
    }
    for (int64_t w = 0; w < warps; w++) {
        for (int64_t lane = 0; lane < lanes; lane++)
            lane_warp_part(dist, lane, w, lw[lane]);
        int64_t total = 0, total_ideal = 0;
        for (int64_t r = 0; r < regs; r += vec)
            for (int64_t first = 0; first < lanes; first += phase) {
                int64_t words[32 * 4];
                int n = 0;
                for (int64_t lane = first; lane < first + phase && lane < lanes; lane++) {
                    int64_t c[LINEAR_MAX_DIMS];
                    reg_coords(&parts, r, lw[lane], c);
                    int64_t addr = linear_shared_offset(shared, c) * elem_bytes;
                    for (int64_t word = addr / 4; word <= (addr + bytes - 1) / 4; word++) {
                        bool seen = false;
                        for (int k = 0; k < n && !seen; k++)
                            seen = words[k] == word;
                        if (!seen)
                            words[n++] = word;
                    }
                }
                int per_bank[32] = {0}, most = 0;
                for (int k = 0; k < n; k++) {
                    int bank = (int)(words[k] % 32);
                    if (++per_bank[bank] > most)
                        most = per_bank[bank];
                }
                total += most;
                total_ideal += (n + 31) / 32;
            }
        if (total > worst) {
            worst = total;
            worst_ideal = total_ideal;
        }
    }
    free(lw);
    free(parts.x);
    if (ideal)
        *ideal = worst_ideal;
    return worst;
}

int64_t linear_global_sectors(const LinearLayout *dist, int elem_bytes, int vec, int64_t *ideal) {
    int64_t regs = linear_in_size(dist, 0), lanes = linear_in_size(dist, 1), warps = linear_in_size(dist, 2);
    int last = dist->num_out - 1;
    if (vec < 1 || regs % vec || lanes > 32 || last < 0)
        return -1;
    int64_t row_sectors = (dist->out_size[last] * elem_bytes + 31) / 32;
    int64_t total = 0, total_ideal = 0;
    for (int64_t w = 0; w < warps; w++)
        for (int64_t r = 0; r < regs; r += vec) {
            /* a lane's vector lies in one row: (row, column / 32 bytes) names
               its sector, and a lane's bytes count once however many lanes
               hold copies */
            int64_t sectors[32 * 2], elems[32];
            int n = 0, m = 0;
            for (int64_t lane = 0; lane < lanes; lane++) {
                int64_t c[LINEAR_MAX_DIMS];
                linear_apply_thread(dist, r, lane, w, c);
                int64_t row = 0;
                for (int d = 0; d < last; d++)
                    row = row * dist->out_size[d] + c[d];
                int64_t elem = row * dist->out_size[last] + c[last];
                bool seen = false;
                for (int k = 0; k < m && !seen; k++)
                    seen = elems[k] == elem;
                if (seen)
                    continue;
                elems[m++] = elem;
                int64_t lo = c[last] * elem_bytes, hi = lo + (int64_t)vec * elem_bytes - 1;
                for (int64_t s = lo / 32; s <= hi / 32; s++) {
                    int64_t id = row * row_sectors + s;
                    bool known = false;
                    for (int k = 0; k < n && !known; k++)
                        known = sectors[k] == id;
                    if (!known && n < 64)
                        sectors[n++] = id;
                }
            }
            total += n;
            total_ideal += ((int64_t)m * vec * elem_bytes + 31) / 32;
        }
    if (ideal)
        *ideal = total_ideal;
    return total;
}
