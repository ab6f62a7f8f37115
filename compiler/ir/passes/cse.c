/*
 * cse.c: common-subexpression elimination over pure ops.
 *
 * Requires: a verified kernel.
 * Preserves: verification and meaning. A duplicate's uses move to the
 *   earlier equivalent op, which dominates them.
 * Leaves behind: nothing; the duplicate is removed.
 *
 * Two ops are equivalent when both are pure (ir_opcode_is_pure: no memory
 * effects, no blocks), with the same opcode, the same operand values, the
 * same attributes (constants compared bit for bit, so 0.0 and -0.0 stay
 * apart) and the same result types. Scoping follows the block structure:
 * walking the blocks in order with a scoped table, an op inside a for or if
 * block may reuse an equivalent op of an enclosing block, never the reverse,
 * and never one of a sibling block. Loads are not merged (a store may come
 * between them), nor are allocs (each is a buffer of its own).
 */
#include "ir.h"

#include <string.h>

typedef struct CseEntry {
    uint64_t hash;
    IrOp *op;
    int prev_in_bucket;     /* entry index, -1 at the end of the chain */
    int bucket;
} CseEntry;

typedef struct Cse {
    IrKernel *kernel;
    Arena scratch;
    int *buckets;           /* head entry index per bucket, -1 when empty */
    int num_buckets;
    CseEntry *entries;
    int len, cap;
} Cse;

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static uint64_t double_bits(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

static uint64_t hash_type(uint64_t h, const IrType *t) {
    h = mix(h, (uint64_t)t->kind * 31 + (uint64_t)t->dtype);
    h = mix(h, (uint64_t)t->rank);
    for (int i = 0; i < t->rank; i++)
        h = mix(h, t->dims[i].sym ? (uint64_t)(uintptr_t)t->dims[i].sym : (uint64_t)t->dims[i].size);
    return h;
}

/* The attributes each opcode uses (ir.h), nothing else: the others may hold
   stale values. */
static uint64_t hash_op(const IrOp *op) {
    uint64_t h = mix(0, (uint64_t)op->opcode);
    for (int i = 0; i < op->num_operands; i++)
        h = mix(h, (uint64_t)(uintptr_t)op->operands[i]);
    for (int i = 0; i < op->num_results; i++)
        h = hash_type(h, &op->results[i]->type);
    switch (op->opcode) {
    case IR_CONST:
        h = mix(h, (uint64_t)op->int_value);
        h = mix(h, double_bits(op->float_value));
        break;
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS:
        h = mix(h, (uint64_t)op->axis);
        break;
    case IR_REDUCE:
    case IR_SCAN:
        h = mix(h, (uint64_t)op->axis * 4 + (uint64_t)op->combine);
        break;
    default:
        break;
    }
    return h;
}

static bool same_op(const IrOp *a, const IrOp *b) {
    if (a->opcode != b->opcode || a->num_operands != b->num_operands || a->num_results != b->num_results)
        return false;
    for (int i = 0; i < a->num_operands; i++)
        if (a->operands[i] != b->operands[i])
            return false;
    for (int i = 0; i < a->num_results; i++)
        if (!ir_type_equal(&a->results[i]->type, &b->results[i]->type))
            return false;
    switch (a->opcode) {
    case IR_CONST:
        return a->int_value == b->int_value && double_bits(a->float_value) == double_bits(b->float_value);
    case IR_PROGRAM_ID: case IR_NUM_PROGRAMS:
        return a->axis == b->axis;
    case IR_REDUCE:
    case IR_SCAN:
        return a->axis == b->axis && a->combine == b->combine;
    case IR_FLIP:
        return a->axis == b->axis;
    case IR_DOT:
        return a->fp8 == b->fp8;
    case IR_EXTRACT:
    case IR_PERMUTE: {
        int rank = a->operands[0]->type.rank;
        for (int i = 0; i < rank; i++)
            if (a->starts[i] != b->starts[i])
                return false;
        return true;
    }
    case IR_VIEW: {
        int rank = a->operands[0]->type.rank;
        for (int i = 0; i < rank; i++) {
            const IrViewDim *x = &a->view_dims[i], *y = &b->view_dims[i];
            if (x->kind != y->kind || (x->kind != VIEW_FULL && x->offset_operand != y->offset_operand) ||
                (x->kind == VIEW_RANGE && x->size != y->size))
                return false;
        }
        return true;
    }
    default:
        return true;
    }
}

/* Twice as many buckets, each chain rebuilt in push order, so that popping
   newest first still restores every bucket's head. */
static void table_grow(Cse *C) {
    C->num_buckets *= 2;
    C->buckets = ARENA_ARRAY(&C->scratch, int, C->num_buckets);
    for (int i = 0; i < C->num_buckets; i++)
        C->buckets[i] = -1;
    for (int i = 0; i < C->len; i++) {
        CseEntry *e = &C->entries[i];
        e->bucket = (int)(e->hash % (uint64_t)C->num_buckets);
        e->prev_in_bucket = C->buckets[e->bucket];
        C->buckets[e->bucket] = i;
    }
}

static void table_push(Cse *C, uint64_t hash, IrOp *op) {
    /* A fixed number of buckets made a long kernel quadratic: chains grew
       with the kernel. At most two entries per bucket on average. */
    if (C->len >= 2 * C->num_buckets)
        table_grow(C);
    if (C->len == C->cap) {
        int cap = C->cap ? C->cap * 2 : 256;
        CseEntry *entries = ARENA_ARRAY(&C->scratch, CseEntry, cap);
        if (C->len)
            memcpy(entries, C->entries, sizeof(CseEntry) * (size_t)C->len);
        C->entries = entries;
        C->cap = cap;
    }
    int bucket = (int)(hash % (uint64_t)C->num_buckets);
    CseEntry *e = &C->entries[C->len];
    e->hash = hash;
    e->op = op;
    e->bucket = bucket;
    e->prev_in_bucket = C->buckets[bucket];
    C->buckets[bucket] = C->len++;
}

/* Drops the entries of the scope that started at `mark`, newest first. */
static void table_pop(Cse *C, int mark) {
    while (C->len > mark) {
        CseEntry *e = &C->entries[--C->len];
        C->buckets[e->bucket] = e->prev_in_bucket;
    }
}

static IrOp *table_find(Cse *C, uint64_t hash, const IrOp *op) {
    int bucket = (int)(hash % (uint64_t)C->num_buckets);
    for (int i = C->buckets[bucket]; i >= 0; i = C->entries[i].prev_in_bucket)
        if (C->entries[i].hash == hash && same_op(C->entries[i].op, op))
            return C->entries[i].op;
    return NULL;
}

static void cse_block(Cse *C, IrBlock *block) {
    int mark = C->len;
    IrOp *next;
    for (IrOp *op = block->first; op; op = next) {
        next = op->next;
        /* Operands first: an earlier duplicate's uses read its twin now, so
           that ops built on duplicates are duplicates too. */
        ir_resolve_operands(op);
        if (op->body)
            cse_block(C, op->body);
        if (op->else_body)
            cse_block(C, op->else_body);
        if (!ir_opcode_is_pure(op->opcode) || op->num_results != 1)
            continue;
        uint64_t hash = hash_op(op);
        IrOp *earlier = table_find(C, hash, op);
        if (earlier) {
            ir_forward(op->results[0], earlier->results[0]);
            ir_op_remove(op);
        } else {
            table_push(C, hash, op);
        }
    }
    table_pop(C, mark);
}

void pass_cse(IrKernel *kernel) {
    Cse cse;
    memset(&cse, 0, sizeof cse);
    cse.kernel = kernel;
    cse.num_buckets = 1024;
    cse.buckets = ARENA_ARRAY(&cse.scratch, int, cse.num_buckets);
    for (int i = 0; i < cse.num_buckets; i++)
        cse.buckets[i] = -1;
    cse_block(&cse, kernel->body);
    ir_apply_forwards(kernel->body);
    arena_free(&cse.scratch);
}
