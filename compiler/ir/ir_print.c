/*
 * ir_print.c: the textual form of the tile IR (docs/ir.md has the grammar).
 *
 * In: a module or one kernel, verified or not. Out: deterministic text that
 * ir_parse reads back to the same IR, so print(parse(print(x))) == print(x)
 * byte for byte. Values are numbered %0, %1, ... in the order they appear
 * in the text, restarting for each kernel; parameters print by name.
 * Printing overwrites IrValue.id (the scratch field) with that number.
 */
#include "ir.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ------------------------------------------------------------- */

/* The shortest %.Ng that reads back as the same double, so that the text is
   stable and exact. A float always shows it is one ("1.0", not "1"); the
   parser needs no dtype to tell a float cparam from an integer one. */
static void format_double(double v, char *buf, size_t size) {
    if (isnan(v)) {
        snprintf(buf, size, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, size, v < 0 ? "-inf" : "inf");
        return;
    }
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(buf, size, "%.*g", precision, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (strspn(buf, "-0123456789") == strlen(buf)) {
        size_t n = strlen(buf);
        if (n + 2 < size)
            memcpy(buf + n, ".0", 3);
    }
}

/* ---- grid expressions ---------------------------------------------------- */

/* Precedence: sums 1, products 2, atoms 3. A right operand of equal
   precedence is parenthesized so that the text parses (left to right) back
   to the same tree. */
static int grid_precedence(const GridExpr *e) {
    switch (e->kind) {
    case GRID_ADD: case GRID_SUB: return 1;
    case GRID_MUL: case GRID_DIV: case GRID_REM: return 2;
    default: return 3;
    }
}

typedef struct TextBuf {
    char *buf;
    size_t size, len;
} TextBuf;

static void text_append(TextBuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_append(TextBuf *t, const char *fmt, ...) {
    if (t->len >= t->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->len += (size_t)k;
}

static void grid_format_into(TextBuf *t, const GridExpr *e, int depth) {
    if (!e || depth > 200) {
        text_append(t, "?");
        return;
    }
    const char *op = NULL, *call = NULL;
    switch (e->kind) {
    case GRID_CONST: text_append(t, "%" PRId64, e->value); return;
    case GRID_SIZE: text_append(t, "%s", e->size ? e->size : "?"); return;
    case GRID_RESIDENT: text_append(t, "resident_blocks()"); return;
    case GRID_ADD: op = "+"; break;
    case GRID_SUB: op = "-"; break;
    case GRID_MUL: op = "*"; break;
    case GRID_DIV: op = "/"; break;
    case GRID_REM: op = "%"; break;
    case GRID_CDIV: call = "cdiv"; break;
    case GRID_MIN: call = "min"; break;
    case GRID_MAX: call = "max"; break;
    }
    if (call) {
        text_append(t, "%s(", call);
        grid_format_into(t, e->lhs, depth + 1);
        text_append(t, ", ");
        grid_format_into(t, e->rhs, depth + 1);
        text_append(t, ")");
        return;
    }
    if (!op) {
        text_append(t, "?");
        return;
    }
    int prec = grid_precedence(e);
    bool left_parens = e->lhs && grid_precedence(e->lhs) < prec;
    bool right_parens = e->rhs && grid_precedence(e->rhs) <= prec;
    text_append(t, left_parens ? "(" : "");
    grid_format_into(t, e->lhs, depth + 1);
    text_append(t, left_parens ? ") %s " : " %s ", op);
    text_append(t, right_parens ? "(" : "");
    grid_format_into(t, e->rhs, depth + 1);
    text_append(t, right_parens ? ")" : "");
}

/* A buffer size that holds the text of `expr` whole (size names have no
   length limit). */
static size_t grid_expr_format_size(const GridExpr *expr) {
    if (!expr)
        return 8;
    if (expr->kind == GRID_CONST)
        return 24;
    if (expr->kind == GRID_SIZE)
        return strlen(expr->size) + 1;
    if (expr->kind == GRID_RESIDENT)
        return sizeof "resident_blocks()";
    /* "cdiv(a, b)", "(a - b)": the operands and at most 8 more characters */
    return grid_expr_format_size(expr->lhs) + grid_expr_format_size(expr->rhs) + 8;
}

void grid_expr_format(const GridExpr *expr, char *buf, size_t size) {
    if (size == 0)
        return;
    buf[0] = '\0';
    TextBuf t = {buf, size, 0};
    grid_format_into(&t, expr, 0);
}

/* ---- numbering ----------------------------------------------------------- */

static void number_block(IrBlock *block, int *next);

/* The order matches the text: an op's results, then its blocks' arguments
   and contents. */
static void number_op(IrOp *op, int *next) {
    for (int i = 0; i < op->num_results; i++)
        op->results[i]->id = (*next)++;
    if (op->body)
        number_block(op->body, next);
    if (op->else_body)
        number_block(op->else_body, next);
}

static void number_block(IrBlock *block, int *next) {
    for (int i = 0; i < block->num_args; i++)
        block->args[i]->id = (*next)++;
    for (IrOp *op = block->first; op; op = op->next)
        number_op(op, next);
}

/* ---- ops ----------------------------------------------------------------- */

/* Sized for the type: symbolic sizes may have names of any length. */
static void print_type(const IrType *type, FILE *out) {
    char small[256];
    size_t size = 96;
    for (int d = 0; d < type->rank && d < IR_MAX_RANK; d++)
        size += (type->dims[d].sym ? strlen(type->dims[d].sym) : 21) + 2;
    char *buf = size <= sizeof small ? small : malloc(size);
    if (!buf) {
        buf = small;
        size = sizeof small;
    }
    ir_type_format(type, buf, size);
    fputs(buf, out);
    if (buf != small)
        free(buf);
}

/* Parameters have no defining op and belong to no block: they print by
   name. Everything else prints by number. */
static void print_value(const IrValue *value, FILE *out) {
    if (!value)
        fputs("%<null>", out);
    else if (!value->def && !value->arg_of && value->name)
        fprintf(out, "%%%s", value->name);
    else
        fprintf(out, "%%%d", value->id);
}

static void print_operands(const IrOp *op, int from, int to, FILE *out) {
    for (int i = from; i < to && i < op->num_operands; i++) {
        if (i > from)
            fputs(", ", out);
        print_value(op->operands[i], out);
    }
}

/* A memory op's optional operands from operand k: ' mask M' and ' other O'. */
static void print_mask_other(const IrOp *op, int k, FILE *out) {
    if (op->has_mask && k < op->num_operands) {
        fputs(" mask ", out);
        print_value(op->operands[k++], out);
    }
    if (op->has_other && k < op->num_operands) {
        fputs(" other ", out);
        print_value(op->operands[k++], out);
    }
}

static void print_indent(int depth, FILE *out) {
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
}

static void print_result_types(const IrOp *op, FILE *out) {
    if (op->num_results == 0)
        return;
    fputs(" : ", out);
    for (int i = 0; i < op->num_results; i++) {
        if (i > 0)
            fputs(", ", out);
        print_type(&op->results[i]->type, out);
    }
}

static void print_loc(Span loc, FILE *out) {
    fprintf(out, " loc(%d:%d:%d)\n", loc.line, loc.col, loc.end_col);
}

static void print_block_ops(const IrBlock *block, int depth, FILE *out);

static void print_const_value(const IrOp *op, FILE *out) {
    DType dtype = op->num_results > 0 ? op->results[0]->type.dtype : DT_I32;
    char buf[64];
    if (dtype_is_float(dtype)) {
        format_double(op->float_value, buf, sizeof buf);
        fputs(buf, out);
    } else if (dtype == DT_BOOL && (op->int_value == 0 || op->int_value == 1)) {
        fputs(op->int_value ? "true" : "false", out);
    } else if (dtype == DT_U64) {
        fprintf(out, "%" PRIu64, (uint64_t)op->int_value);   /* its bits, read unsigned */
    } else {
        fprintf(out, "%" PRId64, op->int_value);
    }
}

static void print_view_dims(const IrOp *op, FILE *out) {
    const IrType *source = op->num_operands > 0 && op->operands[0] ? &op->operands[0]->type : NULL;
    int rank = source ? source->rank : 0;
    fputc('[', out);
    for (int i = 0; i < rank; i++) {
        if (i > 0)
            fputs(", ", out);
        const IrViewDim *d = op->view_dims ? &op->view_dims[i] : NULL;
        if (!d || d->kind == VIEW_FULL) {
            fputc(':', out);
            continue;
        }
        if (d->offset_operand >= 0 && d->offset_operand < op->num_operands)
            print_value(op->operands[d->offset_operand], out);
        else
            fputs("%<bad>", out);
        if (d->kind == VIEW_RANGE)
            fprintf(out, ":+%" PRId64, d->size);
    }
    fputc(']', out);
}

static void print_string(const char *s, FILE *out) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void print_op(const IrOp *op, int depth, FILE *out) {
    print_indent(depth, out);
    for (int i = 0; i < op->num_results; i++) {
        if (i > 0)
            fputs(", ", out);
        print_value(op->results[i], out);
    }
    if (op->num_results > 0)
        fputs(" = ", out);
    fputs(ir_opcode_name(op->opcode), out);
    if (op->opcode == IR_DOT && op->fp8)
        fputs(" fp8", out);

    switch (op->opcode) {
    case IR_CONST:
        fputc(' ', out);
        print_const_value(op, out);
        break;
    case IR_PROGRAM_ID:
    case IR_NUM_PROGRAMS:
        fprintf(out, " %d", op->axis);
        break;
    case IR_EXTRACT:
    case IR_PERMUTE: {
        fputc(' ', out);
        print_operands(op, 0, op->num_operands, out);
        int rank = op->num_operands > 0 && op->operands[0] ? op->operands[0]->type.rank : 0;
        fputs(" [", out);
        for (int i = 0; i < rank; i++)
            fprintf(out, "%s%" PRId64, i ? ", " : "", op->starts ? op->starts[i] : 0);
        fputc(']', out);
        break;
    }
    case IR_PRINT:
        fputc(' ', out);
        print_string(op->text ? op->text : "", out);
        if (op->num_operands) {
            fputc(' ', out);
            print_operands(op, 0, op->num_operands, out);
        }
        break;
    case IR_ASSERT:
        fputc(' ', out);
        print_operands(op, 0, op->num_operands, out);
        fputc(' ', out);
        print_string(op->text ? op->text : "", out);
        break;
    case IR_REDUCE:
    case IR_SCAN:
        fprintf(out, " %s ", ir_combine_name(op->combine));
        print_operands(op, 0, op->num_operands, out);
        fprintf(out, " axis %d", op->axis);
        break;
    case IR_FLIP:
        fputc(' ', out);
        print_operands(op, 0, op->num_operands, out);
        fprintf(out, " axis %d", op->axis);
        break;
    case IR_VIEW:
        fputc(' ', out);
        print_operands(op, 0, 1, out);
        print_view_dims(op, out);
        break;
    case IR_LOAD:
        fputc(' ', out);
        print_operands(op, 0, 1, out);
        print_mask_other(op, 1, out);
        break;
    case IR_GATHER:
    case IR_SCATTER:
    case IR_SCATTER_ATOMIC: {   /* ref[indices] (, value) (mask m) (other o) */
        int rank = op->operands[0]->type.rank, k = 1 + rank;
        if (op->opcode == IR_SCATTER_ATOMIC)
            fprintf(out, " %s", ir_combine_name(op->combine));
        fputc(' ', out);
        print_value(op->operands[0], out);
        fputc('[', out);
        print_operands(op, 1, k, out);
        fputc(']', out);
        if (op->opcode != IR_GATHER && k < op->num_operands) {
            fputs(", ", out);
            print_value(op->operands[k++], out);
        }
        print_mask_other(op, k, out);
        break;
    }
    case IR_STORE:
    case IR_ATOMIC:
    case IR_ASYNC_COPY:   /* store's form: destination, source, mask */
        if (op->opcode == IR_ATOMIC)
            fprintf(out, " %s", ir_combine_name(op->combine));
        fputc(' ', out);
        print_operands(op, 0, 2, out);
        if (op->has_mask && op->num_operands > 2) {
            fputs(" mask ", out);
            print_value(op->operands[2], out);
        }
        break;
    case IR_ASYNC_WAIT:
        fprintf(out, " %lld", (long long)op->int_value);
        break;
    case IR_FOR: {
        const IrBlock *body = op->body;
        fputc(' ', out);
        if (body && body->num_args > 0)
            print_value(body->args[0], out);
        else
            fputs("%<noiv>", out);
        fputs(" = ", out);
        print_operands(op, 0, 1, out);
        fputs(" to ", out);
        print_operands(op, 1, 2, out);
        fputs(" step ", out);
        print_operands(op, 2, 3, out);
        if (op->num_operands > 3) {
            fputs(" iter(", out);
            for (int i = 3; i < op->num_operands; i++) {
                if (i > 3)
                    fputs(", ", out);
                if (body && i - 2 < body->num_args)
                    print_value(body->args[i - 2], out);
                else
                    fputs("%<noarg>", out);
                fputs(" = ", out);
                print_value(op->operands[i], out);
            }
            fputc(')', out);
        }
        if (op->int_value > 0 && body && op->int_value < body->num_args) {
            fputs(" until ", out);
            print_value(body->args[op->int_value], out);
        }
        print_result_types(op, out);
        fputs(" {\n", out);
        if (body)
            print_block_ops(body, depth + 1, out);
        print_indent(depth, out);
        fputc('}', out);
        print_loc(op->loc, out);
        return;
    }
    case IR_IF:
        fputc(' ', out);
        print_operands(op, 0, op->num_operands, out);
        print_result_types(op, out);
        fputs(" {\n", out);
        if (op->body)
            print_block_ops(op->body, depth + 1, out);
        print_indent(depth, out);
        fputc('}', out);
        if (op->else_body) {
            fputs(" else {\n", out);
            print_block_ops(op->else_body, depth + 1, out);
            print_indent(depth, out);
            fputc('}', out);
        }
        print_loc(op->loc, out);
        return;
    default:
        if (op->num_operands > 0) {
            fputc(' ', out);
            print_operands(op, 0, op->num_operands, out);
        }
        break;
    }
    print_result_types(op, out);
    print_loc(op->loc, out);
}

/* The annotations of ir_print_kernel_annotated, while it prints (one
   printer at a time: tessc prints from one thread). */
static const IrPrintHooks *print_hooks;

static void print_block_ops(const IrBlock *block, int depth, FILE *out) {
    for (const IrOp *op = block->first; op; op = op->next) {
        if (print_hooks && print_hooks->before_op)
            print_hooks->before_op(print_hooks->ctx, op, depth, out);
        print_op(op, depth, out);
        if (print_hooks && print_hooks->after_op)
            print_hooks->after_op(print_hooks->ctx, op, depth, out);
    }
}

/* ---- kernels and modules ------------------------------------------------- */

static const char *param_kind_name(IrParamKind kind) {
    switch (kind) {
    case PARAM_ARRAY: return "array";
    case PARAM_SCALAR: return "scalar";
    case PARAM_SIZE: return "size";
    }
    return "?";
}

void ir_print_kernel(const IrKernel *kernel, FILE *out) {
    int next = 0;
    number_block(kernel->body, &next);

    fprintf(out, "kernel %s", kernel->name ? kernel->name : "?");
    if (kernel->num_cparams > 0) {
        fputc('<', out);
        for (int i = 0; i < kernel->num_cparams; i++) {
            const IrCParam *c = &kernel->cparams[i];
            fprintf(out, "%s%s = ", i ? ", " : "", c->name);
            if (c->is_float) {
                char buf[64];
                format_double(c->float_value, buf, sizeof buf);
                fputs(buf, out);
            } else {
                fprintf(out, "%" PRId64, c->int_value);
            }
        }
        fputc('>', out);
    }
    fputc('(', out);
    for (int i = 0; i < kernel->num_params; i++) {
        const IrParam *p = &kernel->params[i];
        fprintf(out, "%s%%%s: %s ", i ? ", " : "", p->name, param_kind_name(p->kind));
        if (p->value)
            print_type(&p->value->type, out);
        else
            fputs("?", out);
        if (p->strides && p->value) {
            fputs(" strides [", out);
            for (int d = 0; d < p->value->type.rank; d++) {
                if (p->strides[d].sym)
                    fprintf(out, "%s%s", d ? ", " : "", p->strides[d].sym);
                else
                    fprintf(out, "%s%" PRId64, d ? ", " : "", p->strides[d].size);
            }
            fputc(']', out);
        }
    }
    fputs(")\n    grid (", out);
    for (int i = 0; i < kernel->grid_rank && i < 3; i++) {
        size_t size = grid_expr_format_size(kernel->grid[i]);
        char *buf = malloc(size);
        if (buf)
            grid_expr_format(kernel->grid[i], buf, size);
        fprintf(out, "%s%s", i ? ", " : "", buf ? buf : "?");
        free(buf);
    }
    fprintf(out, ") warps %d stages %d", kernel->warps, kernel->stages);
    for (int i = 0; i < kernel->num_covers; i++) {
        const IrCover *c = &kernel->covers[i];
        fprintf(out, " cover(%%%s, %d, %" PRId64 ")",
                c->param >= 0 && c->param < kernel->num_params ? kernel->params[c->param].name : "?", c->dim,
                c->block);
    }
    fprintf(out, " loc(%d:%d:%d) {\n", kernel->loc.line, kernel->loc.col, kernel->loc.end_col);
    print_block_ops(kernel->body, 1, out);
    fputs("}\n", out);
}

void ir_print_kernel_annotated(const IrKernel *kernel, FILE *out, const IrPrintHooks *hooks) {
    print_hooks = hooks;
    ir_print_kernel(kernel, out);
    print_hooks = NULL;
}

/* The source name is a quoted string with C escapes for '"', '\\' and bytes
   outside printable ASCII, so any file name survives the round trip. */

void ir_print_module(const IrModule *module, FILE *out) {
    fputs("module ", out);
    print_string(module->source_name ? module->source_name : "", out);
    fputc('\n', out);
    for (int i = 0; i < module->kernels.len; i++) {
        fputc('\n', out);
        ir_print_kernel(module->kernels.items[i], out);
    }
}
