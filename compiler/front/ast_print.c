/*
 * ast_print.c: node constructors and the --emit ast form.
 *
 * The printed form is an indented S-expression, one node a line, each line
 * ending with the node's span as LINE:COL-ENDCOL. Children are indented two
 * spaces under their parent; a node's closing parenthesis follows its last
 * child. The form is deterministic (no addresses, no sema annotations), so
 * tests match it line by line:
 *
 *     (kernel relu2x1 3:8-15
 *       (param x f32 array 3:16-17
 *         (name N 3:23-24))
 *       (grid 4:5-29
 *         (call cdiv 4:11-28
 *           (name N 4:16-17)
 *           (name BLOCK 4:19-24)))
 *
 * Declarations print their fields in source order; an attribute the source
 * left out is left out (a parameter without 'in'/'out'/'inout' shows no
 * access, a kernel without 'warps' no warps line). Group lines that are not
 * nodes, such as (dims or (map-params, carry no span.
 */
#include "ast.h"

#include <inttypes.h>
#include <string.h>

Node *ast_new(Arena *arena, NodeKind kind, Span span) {
    Node *node = ARENA_NEW(arena, Node);
    node->kind = kind;
    node->span = span;
    return node;
}

const char *ast_kind_name(NodeKind kind) {
    switch (kind) {
    case N_INT: return "int";
    case N_FLOAT: return "float";
    case N_BOOL: return "bool";
    case N_NAME: return "name";
    case N_STRING: return "string";
    case N_UNARY: return "unary";
    case N_BINARY: return "binary";
    case N_CAST: return "cast";
    case N_CALL: return "call";
    case N_KWARG: return "kwarg";
    case N_INDEX: return "index";
    case N_TRANSPOSE: return "transpose";
    case N_LIST: return "list";
    case N_TYPE: return "type";
    case N_ELLIPSIS: return "ellipsis";
    case N_SLICE: return "slice";
    case N_NONE: return "none";
    case N_UNDERSCORE: return "underscore";
    case N_LET: return "let";
    case N_VAR: return "var";
    case N_ASSIGN: return "assign";
    case N_EXPR_STMT: return "expr";
    case N_FOR: return "for";
    case N_WHILE: return "while";
    case N_BREAK: return "break";
    case N_CONTINUE: return "continue";
    case N_RETURN: return "return";
    case N_IF: return "if";
    case N_BLOCK: return "block";
    }
    return "?";
}

const char *ast_op_spelling(int op) {
    switch (op) {
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_REM: return "%";
    case OP_LT: return "<";
    case OP_GT: return ">";
    case OP_NOT: return "!";
    case OP_ASSIGN: return "=";
    case OP_EQ: return "==";
    case OP_NE: return "!=";
    case OP_LE: return "<=";
    case OP_GE: return ">=";
    case OP_AND: return "&&";
    case OP_OR: return "||";
    case OP_NEG: return "-";
    case OP_BAND: return "&";
    case OP_BOR: return "|";
    case OP_BXOR: return "^";
    case OP_SHL: return "<<";
    case OP_SHR: return ">>";
    case OP_BNOT: return "~";
    }
    return "?";
}

static void print_node(const Node *node, int depth, FILE *out);

static void indent(int depth, FILE *out) {
    fprintf(out, "\n%*s", depth * 2, "");
}

static void print_span(Span span, FILE *out) {
    fprintf(out, " %d:%d-%d", span.line, span.col, span.end_col);
}

static void print_nodes(const PtrVec *nodes, int depth, FILE *out) {
    for (int i = 0; i < nodes->len; i++)
        print_node(nodes->items[i], depth, out);
}

/* A labelled group of nodes on lines of their own: "(dims" ... ")". */
static void print_group(const char *label, const PtrVec *nodes, int depth, FILE *out) {
    indent(depth, out);
    fprintf(out, "(%s", label);
    print_nodes(nodes, depth + 1, out);
    fputc(')', out);
}

/* Prints `node` on a new line at `depth`, then its children below it. */
static void print_node(const Node *node, int depth, FILE *out) {
    indent(depth, out);
    if (!node) {
        /* Only a tree with syntax errors has holes. */
        fputs("(missing)", out);
        return;
    }
    fprintf(out, "(%s", ast_kind_name(node->kind));
    switch (node->kind) {
    case N_INT: {
        fprintf(out, " %s", node->text ? node->text : "?");
        /* Show the value where the spelling differs from it (hex, '_'). */
        char value[32];
        snprintf(value, sizeof value, "%" PRId64, node->int_value);
        if (!node->text || strcmp(value, node->text) != 0)
            fprintf(out, " =%s", value);
        break;
    }
    case N_FLOAT:
        fprintf(out, " %s", node->text ? node->text : "?");
        break;
    case N_BOOL:
        fputs(node->int_value ? " true" : " false", out);
        break;
    case N_STRING:
        fprintf(out, " \"%s\"", node->name);
        break;
    case N_NAME:
    case N_CALL:
    case N_KWARG:
    case N_LET:
    case N_VAR:
    case N_FOR:
        fprintf(out, " %s", node->name);
        break;
    case N_UNARY:
    case N_BINARY:
        fprintf(out, " %s", ast_op_spelling(node->op));
        break;
    case N_ASSIGN:
        fprintf(out, " %s%s", node->op == OP_ASSIGN ? "" : ast_op_spelling(node->op), "=");
        break;
    case N_CAST:
        fprintf(out, " %s", dtype_name(node->dtype));
        break;
    case N_TYPE:
        fprintf(out, " %s", dtype_name(node->dtype));
        if (node->has_space)
            fprintf(out, " @%s", space_name(node->space));
        break;
    case N_SLICE:
        /* Which bounds were written: "lo:hi", "lo:", ":hi" or ":". */
        fprintf(out, " %s:%s", node->lhs ? "lo" : "", node->rhs ? "hi" : "");
        break;
    default:
        break;
    }
    print_span(node->span, out);

    switch (node->kind) {
    case N_UNARY:
    case N_CAST:
    case N_KWARG:
    case N_TRANSPOSE:
    case N_EXPR_STMT:
        print_node(node->lhs, depth + 1, out);
        break;
    case N_BINARY:
    case N_ASSIGN:
        print_node(node->lhs, depth + 1, out);
        print_node(node->rhs, depth + 1, out);
        break;
    case N_SLICE:
        if (node->lhs)
            print_node(node->lhs, depth + 1, out);
        if (node->rhs)
            print_node(node->rhs, depth + 1, out);
        break;
    case N_INDEX:
        print_node(node->lhs, depth + 1, out);
        print_nodes(&node->items, depth + 1, out);
        break;
    case N_CALL:
    case N_LIST:
    case N_TYPE:
    case N_BLOCK:
        print_nodes(&node->items, depth + 1, out);
        break;
    case N_LET:
    case N_VAR:
        print_node(node->rhs, depth + 1, out);
        break;
    case N_FOR:
        print_node(node->lhs, depth + 1, out);
        print_node(node->rhs, depth + 1, out);
        if (node->step) {
            indent(depth + 1, out);
            fputs("(step", out);
            print_node(node->step, depth + 2, out);
            fputc(')', out);
        }
        print_node(node->body, depth + 1, out);
        break;
    case N_WHILE:
        print_node(node->cond, depth + 1, out);
        print_node(node->body, depth + 1, out);
        break;
    case N_IF:
        print_node(node->cond, depth + 1, out);
        print_node(node->then_body, depth + 1, out);
        if (node->else_body) {
            indent(depth + 1, out);
            fputs("(else", out);
            print_node(node->else_body, depth + 2, out);
            fputc(')', out);
        }
        break;
    default:
        break;
    }
    fputc(')', out);
}

static void print_param(const ParamDecl *param, FILE *out) {
    indent(1, out);
    fprintf(out, "(param %s", param->name);
    if (param->has_access)
        fprintf(out, " %s", access_name(param->access));
    fprintf(out, " %s %s", dtype_name(param->dtype), param->is_array ? "array" : "scalar");
    if (param->has_space)
        fprintf(out, " @%s", space_name(param->space));
    print_span(param->span, out);
    print_nodes(&param->dims, 2, out);
    fputc(')', out);
}

static void print_block_spec(const BlockSpec *block, FILE *out) {
    indent(1, out);
    fprintf(out, "(blockspec %s", block->array);
    print_span(block->span, out);
    print_group("dims", &block->dims, 2, out);
    print_group("map-params", &block->map_params, 2, out);
    print_group("map-results", &block->map_results, 2, out);
    fputc(')', out);
}

/* A launch clause holding one expression: "(warps" EXPR ")". */
static void print_clause(const char *name, const Node *value, FILE *out) {
    indent(1, out);
    fprintf(out, "(%s", name);
    print_node(value, 2, out);
    fputc(')', out);
}

static void print_kernel(const Kernel *kernel, FILE *out) {
    fprintf(out, "(kernel %s", kernel->name);
    print_span(kernel->span, out);
    for (int i = 0; i < kernel->cparams.len; i++) {
        const CParamDecl *cparam = kernel->cparams.items[i];
        indent(1, out);
        fprintf(out, "(cparam %s", cparam->name);
        print_span(cparam->span, out);
        if (cparam->default_value)
            print_node(cparam->default_value, 2, out);
        fputc(')', out);
    }
    for (int i = 0; i < kernel->params.len; i++)
        print_param(kernel->params.items[i], out);
    if (kernel->has_grid) {
        indent(1, out);
        fputs("(grid", out);
        print_span(kernel->grid_span, out);
        print_nodes(&kernel->grid, 2, out);
        fputc(')', out);
    }
    for (int i = 0; i < kernel->blocks.len; i++)
        print_block_spec(kernel->blocks.items[i], out);
    if (kernel->warps)
        print_clause("warps", kernel->warps, out);
    if (kernel->stages)
        print_clause("stages", kernel->stages, out);
    print_node(kernel->body, 1, out);
    fputs(")\n", out);
}

/* Constants first, then kernels, each in source order. */
void ast_print(const Program *program, FILE *out) {
    for (int i = 0; i < program->consts.len; i++) {
        const ConstDecl *decl = program->consts.items[i];
        fprintf(out, "(const %s", decl->name);
        print_span(decl->span, out);
        print_node(decl->value, 1, out);
        fputs(")\n", out);
    }
    for (int i = 0; i < program->kernels.len; i++)
        print_kernel(program->kernels.items[i], out);
}
