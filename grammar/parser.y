/*
 * parser.y: the grammar of .tess files, building the AST of ast.h.
 *
 * In: tokens from lexer.l. Out: a Program whose nodes, declarations and
 * lists all live in the caller's arena. grammar/tess.ebnf is the same
 * grammar written for people; the two change together.
 *
 * Every node's span starts at its first token; its end is the end of the
 * whole construct when that is on the same line, else the end of the first
 * token (see YYLLOC_DEFAULT and span_of). Declarations carry the span of
 * their name, which is what notes point at.
 *
 * Syntax errors are reported by report_syntax_error in plain words with
 * token spellings. Recovery resynchronises at the end of a statement (';'
 * or the '}' of its block), at the '{' of a kernel body or of a for/if
 * body, at the ')' of a parameter list and at the next 'kernel' or 'const'
 * at top level, so one run reports the errors of every statement. The tree
 * built around an error has holes (NULL statements are dropped); the driver
 * does not run sema after syntax errors.
 */

%define api.pure full
%define api.location.type {Loc}
%define parse.error custom
%define parse.lac full
%locations
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {ParseState *ps}

%code requires {
#include "ast.h"

/* A token's or a construct's extent: first byte, the byte after the last,
   and the end of the first token (where a multi-line construct's caret
   run stops). */
typedef struct Loc {
    int line, col;
    int end_line, end_col;
    int first_end_col;
} Loc;

/* The value of an INT or FLOAT token: the text as written, and its value. */
typedef struct Literal {
    const char *text;
    int64_t int_value;
    double float_value;
} Literal;

/* An optional '@space' suffix. */
typedef struct SpaceSuffix {
    bool present;
    MemSpace space;
} SpaceSuffix;

/* An array parameter's '[' dims [';' strides] ']'. */
typedef struct ParamShape {
    PtrVec dims, strides;
    bool has_strides;
} ParamShape;

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* What the parser and the lexer share for one file. */
typedef struct ParseState {
    Arena *arena;
    const SourceFile *file;
    Program *program;
    Kernel *kernel;            /* the kernel whose clauses are being read */
    Span warps_span, stages_span;  /* first clause of each kind, line 0 if none yet */

    /* lexer position: of the next byte */
    int line, col;
    int brace_depth;           /* '{' minus '}': a ';' inside ends a statement */
    Loc comment_open;
    bool pending_lex_error;    /* a lexical error since the last token */
    int lex_errors;

    /* the last token handed out (the parser's lookahead) and the one before */
    Loc tok_loc, prev_loc;
    int tok_kind, prev_kind, prev2_kind;   /* token numbers of it and the two before */
    char tok_copy[24], prev_text[24];      /* their text (cut at 23 bytes) */
    char stmt_word[24];        /* a name that began the current statement (after ';', '{', '}') */
    Loc stmt_loc;
    bool stmt_open;            /* ... and no ';' or '}' since */
    bool quiet_until_kernel;   /* a statement Tessera lacks was reported: its block's
                                  braces lose the parser; no more syntax errors until
                                  the next 'kernel' or 'const' */
    const char *tok_text;      /* flex's buffer: valid until the next token */
    int tok_length;
    bool tok_after_lex_error;
} ParseState;

/* lexer.l: runs a scanner over ps->file. */
void lex_begin(ParseState *ps, yyscan_t *scanner);
void lex_end(yyscan_t scanner);

/* A construct's location: from its first symbol to its last. An empty rule
   sits, with no width, just after what precedes it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                     \
    do {                                                                \
        if (N) {                                                        \
            (Cur).line = YYRHSLOC(Rhs, 1).line;                         \
            (Cur).col = YYRHSLOC(Rhs, 1).col;                           \
            (Cur).first_end_col = YYRHSLOC(Rhs, 1).first_end_col;       \
            (Cur).end_line = YYRHSLOC(Rhs, N).end_line;                 \
            (Cur).end_col = YYRHSLOC(Rhs, N).end_col;                   \
        } else {                                                        \
            (Cur).line = (Cur).end_line = YYRHSLOC(Rhs, 0).end_line;    \
            (Cur).col = (Cur).end_col = YYRHSLOC(Rhs, 0).end_col;       \
            (Cur).first_end_col = (Cur).end_col;                        \
        }                                                               \
    } while (0)
}

%code {
#include <math.h>
#include <string.h>

#include "lexer.h"

static Span span_of(Loc loc);
static Node *node(ParseState *ps, NodeKind kind, Loc loc);
static Node *int_node(ParseState *ps, Literal lit, Loc loc);
static Node *float_node(ParseState *ps, Literal lit, Loc loc);
static Node *special_float_node(ParseState *ps, bool is_inf, Loc loc);
static Node *bool_node(ParseState *ps, bool value, Loc loc);
static Node *name_node(ParseState *ps, const char *name, Loc loc);
static Node *unary(ParseState *ps, int op, Node *operand, Loc loc);
static Node *binary(ParseState *ps, int op, Node *lhs, Node *rhs, Loc loc);
static Node *nested(ParseState *ps, Node *n);
static PtrVec list1(ParseState *ps, void *item);
static PtrVec list_push(ParseState *ps, PtrVec list, void *item);
static SpaceSuffix space_suffix(ParseState *ps, const char *name, Loc loc);
static void duplicate_clause(const char *clause, Span first, Loc again);
static void yyerror(Loc *loc, yyscan_t scanner, ParseState *ps, const char *message);
}

%union {
    const char *name;
    Literal lit;
    DType dtype;
    int op;
    Access access;
    SpaceSuffix space;
    ParamShape pshape;
    Node *node;
    PtrVec list;
    ConstDecl *const_decl;
    CParamDecl *cparam;
    ParamDecl *param;
    BlockSpec *block;
    Kernel *kernel;
}

/* Declared first so that they come first in "expected ..." lists. */
%token ';' ')' ']' '}' ','
%token <name> IDENT "identifier"
%token <name> STRING "string"
%token <lit> INT "integer literal"
%token <lit> FLOAT "float literal"
%token <dtype> DTYPE "dtype"
%token KW_CONST "const" KW_KERNEL "kernel" KW_IN "in" KW_OUT "out" KW_INOUT "inout"
       KW_GRID "grid" KW_BLOCK "block" KW_WARPS "warps" KW_STAGES "stages"
       KW_LET "let" KW_VAR "var" KW_FOR "for" KW_IF "if" KW_ELSE "else"
       KW_WHILE "while" KW_BREAK "break" KW_CONTINUE "continue" KW_RETURN "return"
       KW_STEP "step" KW_AS "as" KW_REF "ref" KW_NONE "None" KW_INF "inf"
       KW_NAN "nan" KW_TRUE "true" KW_FALSE "false"
%token ELLIPSIS "..." DOTDOT ".." ARROW "->" LE "<=" GE ">=" EQ "==" NE "!="
       AND "&&" OR "||" SHL "<<" SHR ">>" ADD_ASSIGN "+=" SUB_ASSIGN "-=" MUL_ASSIGN "*="
       DIV_ASSIGN "/=" UNDERSCORE "_"

%type <const_decl> const_decl
%type <kernel> kernel kernel_head
%type <list> cparams_opt cparam_list params_opt param_list shape_opt expr_list
%type <pshape> param_shape_opt
%type <list> exprs_opt bdim_list names_opt name_list stmts args_opt arg_list index_items
%type <cparam> cparam
%type <node> cparam_value
%type <param> param
%type <access> access_opt
%type <space> space_opt
%type <block> block_spec
%type <node> bdim block stmt for_stmt while_stmt if_stmt else_opt step_opt
%type <op> assign_op cmp_op
%type <node> expr and_expr cmp_expr bor_expr bxor_expr band_expr shift_expr add_expr mul_expr cast_expr unary_expr
%type <node> postfix_expr primary arg type_arg index_item

%initial-action {
    @$ = (Loc){1, 1, 1, 1, 1};
}

%%

/* program := (const_decl | kernel)* */
program
    : %empty
    | program decl
    ;

/* Recovery at top level: skip to the next 'kernel' or 'const', or past a
   ';'. Errors are reported again at once from a point where a declaration
   surely starts (bison would otherwise wait for three good tokens). */
decl
    : const_decl   { ptrvec_push(ps->arena, &ps->program->consts, $1); }
    | kernel       { ptrvec_push(ps->arena, &ps->program->kernels, $1); }
    | error {
        if (yychar == KW_KERNEL || yychar == KW_CONST)
            yyerrok;
    }
    | error ';'    { yyerrok; }
    ;

/* const_decl := 'const' IDENT '=' expr ';' */
const_decl
    : "const" IDENT '=' expr ';' {
        $$ = ARENA_NEW(ps->arena, ConstDecl);
        $$->name = $2;
        $$->span = span_of(@2);
        $$->value = $4;
    }
    ;

/* kernel := kernel_head clause* block */
kernel
    : kernel_head clauses block        { $$ = $1; $$->body = $3; }
    | kernel_head clauses error block  { yyerrok; $$ = $1; $$->body = $4; }
    ;

/* kernel_head := 'kernel' IDENT ['<' cparam (',' cparam)* [','] '>']
                  '(' [param (',' param)* [',']] ')' */
kernel_head
    : "kernel" IDENT cparams_opt '(' params_opt ')' {
        $$ = ARENA_NEW(ps->arena, Kernel);
        $$->name = $2;
        $$->span = span_of(@2);
        $$->cparams = $3;
        $$->params = $5;
        ps->kernel = $$;
        ps->warps_span = ps->stages_span = (Span){0, 0, 0};
    }
    | "kernel" IDENT cparams_opt '(' error ')' {
        yyerrok;
        $$ = ARENA_NEW(ps->arena, Kernel);
        $$->name = $2;
        $$->span = span_of(@2);
        $$->cparams = $3;
        ps->kernel = $$;
        ps->warps_span = ps->stages_span = (Span){0, 0, 0};
    }
    ;

cparams_opt
    : %empty                          { $$ = (PtrVec){0}; }
    | '<' cparam_list comma_opt '>'   { $$ = $2; }
    | '<' error '>'                   { yyerrok; $$ = (PtrVec){0}; }
    ;

cparam_list
    : cparam                   { $$ = list1(ps, $1); }
    | cparam_list ',' cparam   { $$ = list_push(ps, $1, $3); }
    ;

comma_opt
    : %empty
    | ','
    ;

/* cparam := IDENT ['=' cparam_value] */
cparam
    : IDENT {
        $$ = ARENA_NEW(ps->arena, CParamDecl);
        $$->name = $1;
        $$->span = span_of(@1);
    }
    | IDENT '=' cparam_value {
        $$ = ARENA_NEW(ps->arena, CParamDecl);
        $$->name = $1;
        $$->span = span_of(@1);
        $$->default_value = $3;
    }
    ;

/* A default inside '<...>' is a literal, a name, a negated literal or a
   parenthesised expression, so that a '>' always closes the list.
   cparam_value := INT | FLOAT | 'inf' | 'nan' | 'true' | 'false' | IDENT
                 | '-' (INT | FLOAT | 'inf') | '(' expr ')' */
cparam_value
    : INT              { $$ = int_node(ps, $1, @1); }
    | FLOAT            { $$ = float_node(ps, $1, @1); }
    | "inf"            { $$ = special_float_node(ps, true, @1); }
    | "nan"            { $$ = special_float_node(ps, false, @1); }
    | "true"           { $$ = bool_node(ps, true, @1); }
    | "false"          { $$ = bool_node(ps, false, @1); }
    | IDENT            { $$ = name_node(ps, $1, @1); }
    | '-' INT          { $$ = unary(ps, OP_NEG, int_node(ps, $2, @2), @$); }
    | '-' FLOAT        { $$ = unary(ps, OP_NEG, float_node(ps, $2, @2), @$); }
    | '-' "inf"        { $$ = unary(ps, OP_NEG, special_float_node(ps, true, @2), @$); }
    | '(' expr ')'     { $$ = $2; }
    ;

params_opt
    : %empty                  { $$ = (PtrVec){0}; }
    | param_list comma_opt    { $$ = $1; }
    ;

param_list
    : param                   { $$ = list1(ps, $1); }
    | param_list ',' param    { $$ = list_push(ps, $1, $3); }
    ;

/* param := IDENT ':' ['in' | 'out' | 'inout'] DTYPE
             ['[' dim (',' dim)* [';' stride (',' stride)*] ']'] ['@' IDENT]
   Without '[...]' the parameter is a scalar; after ';' an array's strides,
   one per dim, in elements. The '@space' is kept so that sema can reject
   '@shared' with a clear message. */
param
    : IDENT ':' access_opt DTYPE param_shape_opt space_opt {
        ParamDecl *p = ARENA_NEW(ps->arena, ParamDecl);
        p->name = $1;
        p->span = span_of(@1);
        p->has_access = @3.end_col != @3.col || @3.end_line != @3.line;
        p->access = $3;
        /* An implicit 'in' is attributed to the name. */
        p->access_span = p->has_access ? span_of(@3) : p->span;
        p->dtype = $4;
        p->dtype_span = span_of(@4);
        p->dims = $5.dims;
        p->strides = $5.strides;
        p->has_strides = $5.has_strides;
        p->strides_span = span_of(@5);
        p->is_array = $5.dims.len > 0;
        p->has_space = $6.present;
        p->space = $6.space;
        p->space_span = $6.present ? span_of(@6) : (Span){0, 0, 0};
        $$ = p;
    }
    ;

access_opt
    : %empty     { $$ = ACCESS_IN; }
    | "in"       { $$ = ACCESS_IN; }
    | "out"      { $$ = ACCESS_OUT; }
    | "inout"    { $$ = ACCESS_INOUT; }
    ;

shape_opt
    : %empty               { $$ = (PtrVec){0}; }
    | '[' expr_list ']'    { $$ = $2; }
    ;

param_shape_opt
    : %empty                             { $$ = (ParamShape){{0}, {0}, false}; }
    | '[' expr_list ']'                  { $$ = (ParamShape){$2, {0}, false}; }
    | '[' expr_list ';' expr_list ']'    { $$ = (ParamShape){$2, $4, true}; }
    ;

space_opt
    : %empty         { $$ = (SpaceSuffix){false, SPACE_GLOBAL}; }
    | '@' IDENT      { $$ = space_suffix(ps, $2, @$); }
    ;

clauses
    : %empty
    | clauses clause
    ;

/* clause := 'grid' '(' expr (',' expr)* [','] ')'
           | block_spec
           | 'warps' expr
           | 'stages' expr
   Clauses come in any order. A second grid, warps or stages clause is an
   error here (nothing later could tell it was written twice); a second
   block spec for one array is left to sema. */
clause
    : "grid" '(' expr_list comma_opt ')' {
        Kernel *k = ps->kernel;
        if (k->has_grid)
            duplicate_clause("grid", k->grid_span, @$);
        k->has_grid = true;
        k->grid = $3;
        k->grid_span = span_of(@$);
    }
    | block_spec       { ptrvec_push(ps->arena, &ps->kernel->blocks, $1); }
    | "warps" expr {
        if (ps->warps_span.line)
            duplicate_clause("warps", ps->warps_span, @$);
        ps->warps_span = span_of(@$);
        ps->kernel->warps = $2;
    }
    | "stages" expr {
        if (ps->stages_span.line)
            duplicate_clause("stages", ps->stages_span, @$);
        ps->stages_span = span_of(@$);
        ps->kernel->stages = $2;
    }
    ;

/* block_spec := 'block' IDENT '[' bdim (',' bdim)* ']'
                 '(' [IDENT (',' IDENT)* [',']] ')' '->' '(' [expr (',' expr)* [',']] ')' */
block_spec
    : "block" IDENT '[' bdim_list ']' '(' names_opt ')' "->" '(' exprs_opt ')' {
        BlockSpec *b = ARENA_NEW(ps->arena, BlockSpec);
        b->array = $2;
        b->span = span_of(@$);
        b->array_span = span_of(@2);
        b->dims = $4;
        b->map_params = $7;
        b->map_results = $11;
        Loc map = @6;
        map.end_line = @12.end_line;
        map.end_col = @12.end_col;
        b->map_span = span_of(map);
        $$ = b;
    }
    ;

bdim_list
    : bdim                  { $$ = list1(ps, $1); }
    | bdim_list ',' bdim    { $$ = list_push(ps, $1, $3); }
    ;

/* bdim := expr | '_' */
bdim
    : expr    { $$ = $1; }
    | "_"     { $$ = node(ps, N_UNDERSCORE, @1); }
    ;

names_opt
    : %empty                 { $$ = (PtrVec){0}; }
    | name_list comma_opt    { $$ = $1; }
    ;

name_list
    : IDENT                  { $$ = list1(ps, name_node(ps, $1, @1)); }
    | name_list ',' IDENT    { $$ = list_push(ps, $1, name_node(ps, $3, @3)); }
    ;

exprs_opt
    : %empty                 { $$ = (PtrVec){0}; }
    | expr_list comma_opt    { $$ = $1; }
    ;

expr_list
    : expr                   { $$ = list1(ps, $1); }
    | expr_list ',' expr     { $$ = list_push(ps, $1, $3); }
    ;

/* block := '{' stmt* '}' */
block
    : '{' stmts '}' {
        $$ = node(ps, N_BLOCK, @$);
        $$->items = $2;
        $$ = nested(ps, $$);
    }
    | '{' stmts error '}' {
        yyerrok;
        $$ = node(ps, N_BLOCK, @$);
        $$->items = $2;
        $$ = nested(ps, $$);
    }
    ;

stmts
    : %empty        { $$ = (PtrVec){0}; }
    | stmts stmt    { $$ = $1; if ($2) ptrvec_push(ps->arena, &$$, $2); }
    ;

/* stmt := 'let' IDENT '=' expr ';'
         | 'var' IDENT '=' expr ';'
         | postfix_expr ('=' | '+=' | '-=' | '*=' | '/=') expr ';'
         | expr ';'
         | for_stmt
         | while_stmt
         | if_stmt
         | 'break' ';' | 'continue' ';' | 'return' ';'
   After an error, skip to the next ';' (or the block's '}'). */
stmt
    : "let" IDENT '=' expr ';' {
        $$ = node(ps, N_LET, @$);
        $$->name = $2;
        $$->rhs = $4;
    }
    | "var" IDENT '=' expr ';' {
        $$ = node(ps, N_VAR, @$);
        $$->name = $2;
        $$->rhs = $4;
    }
    | postfix_expr assign_op expr ';' {
        $$ = node(ps, N_ASSIGN, @$);
        $$->op = $2;
        $$->lhs = $1;
        $$->rhs = $3;
    }
    | expr ';' {
        $$ = node(ps, N_EXPR_STMT, @$);
        $$->lhs = $1;
    }
    | for_stmt       { $$ = $1; }
    | while_stmt     { $$ = $1; }
    | if_stmt        { $$ = $1; }
    | "break" ';'    { $$ = node(ps, N_BREAK, @$); }
    | "continue" ';' { $$ = node(ps, N_CONTINUE, @$); }
    | "return" ';'   { $$ = node(ps, N_RETURN, @$); }
    | error ';'      { yyerrok; $$ = NULL; }
    ;

assign_op
    : '='         { $$ = OP_ASSIGN; }
    | "+="        { $$ = OP_ADD; }
    | "-="        { $$ = OP_SUB; }
    | "*="        { $$ = OP_MUL; }
    | "/="        { $$ = OP_DIV; }
    ;

/* for_stmt := 'for' IDENT 'in' expr '..' expr ['step' expr] block
   A broken header is skipped up to the body, which is still parsed, or up
   to a ';' when there is no body. */
for_stmt
    : "for" IDENT "in" expr ".." expr step_opt block {
        $$ = node(ps, N_FOR, @$);
        $$->name = $2;
        $$->lhs = $4;
        $$->rhs = $6;
        $$->step = $7;
        $$->body = $8;
        $$ = nested(ps, $$);
    }
    | "for" error block    { yyerrok; $$ = NULL; }
    | "for" error ';'      { yyerrok; $$ = NULL; }
    ;

/* while_stmt := 'while' expr block */
while_stmt
    : "while" expr block {
        $$ = node(ps, N_WHILE, @$);
        $$->cond = $2;
        $$->body = $3;
        $$ = nested(ps, $$);
    }
    | "while" error block    { yyerrok; $$ = NULL; }
    | "while" error ';'      { yyerrok; $$ = NULL; }
    ;

step_opt
    : %empty          { $$ = NULL; }
    | "step" expr     { $$ = $2; }
    ;

/* if_stmt := 'if' expr block ['else' (block | if_stmt)] */
if_stmt
    : "if" expr block else_opt {
        $$ = node(ps, N_IF, @$);
        $$->cond = $2;
        $$->then_body = $3;
        $$->else_body = $4;
        $$ = nested(ps, $$);
    }
    | "if" error block else_opt    { yyerrok; $$ = NULL; }
    | "if" error ';'               { yyerrok; $$ = NULL; }
    ;

else_opt
    : %empty              { $$ = NULL; }
    | "else" block        { $$ = $2; }
    | "else" if_stmt      { $$ = $2; }
    ;

/* expr := and_expr ('||' and_expr)* */
expr
    : and_expr                { $$ = $1; }
    | expr "||" and_expr      { $$ = binary(ps, OP_OR, $1, $3, @$); }
    ;

/* and_expr := cmp_expr ('&&' cmp_expr)* */
and_expr
    : cmp_expr                  { $$ = $1; }
    | and_expr "&&" cmp_expr    { $$ = binary(ps, OP_AND, $1, $3, @$); }
    ;

/* cmp_expr := bor_expr [cmp_op bor_expr]    (comparisons do not chain) */
cmp_expr
    : bor_expr                     { $$ = $1; }
    | bor_expr cmp_op bor_expr     { $$ = binary(ps, $2, $1, $3, @$); }
    ;

cmp_op
    : "=="    { $$ = OP_EQ; }
    | "!="    { $$ = OP_NE; }
    | '<'     { $$ = OP_LT; }
    | "<="    { $$ = OP_LE; }
    | '>'     { $$ = OP_GT; }
    | ">="    { $$ = OP_GE; }
    ;

/* The bitwise operators bind tighter than comparisons, as in Python (and
   Triton): `x & mask == 0` is `(x & mask) == 0`. */
/* bor_expr := bxor_expr ('|' bxor_expr)* */
bor_expr
    : bxor_expr                  { $$ = $1; }
    | bor_expr '|' bxor_expr     { $$ = binary(ps, OP_BOR, $1, $3, @$); }
    ;

/* bxor_expr := band_expr ('^' band_expr)* */
bxor_expr
    : band_expr                  { $$ = $1; }
    | bxor_expr '^' band_expr    { $$ = binary(ps, OP_BXOR, $1, $3, @$); }
    ;

/* band_expr := shift_expr ('&' shift_expr)* */
band_expr
    : shift_expr                 { $$ = $1; }
    | band_expr '&' shift_expr   { $$ = binary(ps, OP_BAND, $1, $3, @$); }
    ;

/* shift_expr := add_expr (('<<' | '>>') add_expr)* */
shift_expr
    : add_expr                   { $$ = $1; }
    | shift_expr "<<" add_expr   { $$ = binary(ps, OP_SHL, $1, $3, @$); }
    | shift_expr ">>" add_expr   { $$ = binary(ps, OP_SHR, $1, $3, @$); }
    ;

/* add_expr := mul_expr (('+' | '-') mul_expr)* */
add_expr
    : mul_expr                  { $$ = $1; }
    | add_expr '+' mul_expr     { $$ = binary(ps, OP_ADD, $1, $3, @$); }
    | add_expr '-' mul_expr     { $$ = binary(ps, OP_SUB, $1, $3, @$); }
    ;

/* mul_expr := cast_expr (('*' | '/' | '%') cast_expr)* */
mul_expr
    : cast_expr                 { $$ = $1; }
    | mul_expr '*' cast_expr    { $$ = binary(ps, OP_MUL, $1, $3, @$); }
    | mul_expr '/' cast_expr    { $$ = binary(ps, OP_DIV, $1, $3, @$); }
    | mul_expr '%' cast_expr    { $$ = binary(ps, OP_REM, $1, $3, @$); }
    ;

/* cast_expr := unary_expr ('as' DTYPE)*    (-x as f16 is (-x) as f16) */
cast_expr
    : unary_expr                 { $$ = $1; }
    | cast_expr "as" DTYPE {
        $$ = node(ps, N_CAST, @$);
        $$->lhs = $1;
        $$->dtype = $3;
        $$ = nested(ps, $$);
    }
    ;

/* unary_expr := ('-' | '!' | '~') unary_expr | postfix_expr */
unary_expr
    : postfix_expr           { $$ = $1; }
    | '-' unary_expr         { $$ = unary(ps, OP_NEG, $2, @$); }
    | '!' unary_expr         { $$ = unary(ps, OP_NOT, $2, @$); }
    | '~' unary_expr         { $$ = unary(ps, OP_BNOT, $2, @$); }
    ;

/* postfix_expr := primary ('[' index_item (',' index_item)* ']' | '.' 'T')* */
postfix_expr
    : primary                              { $$ = $1; }
    | postfix_expr '[' index_items ']' {
        $$ = node(ps, N_INDEX, @$);
        $$->lhs = $1;
        $$->items = $3;
        $$ = nested(ps, $$);
    }
    | postfix_expr '.' IDENT {
        if (strcmp($3, "T") != 0)
            diag_error(span_of(@3), "only '.T' (transpose) is supported after '.', not '.%s'", $3);
        $$ = node(ps, N_TRANSPOSE, @$);
        $$->lhs = $1;
        $$ = nested(ps, $$);
    }
    ;

index_items
    : index_item                    { $$ = list1(ps, $1); }
    | index_items ',' index_item    { $$ = list_push(ps, $1, $3); }
    ;

/* index_item := '...' | [expr] ':' [expr] | 'None' | expr */
index_item
    : "..."            { $$ = node(ps, N_ELLIPSIS, @$); }
    | "None"           { $$ = node(ps, N_NONE, @$); }
    | expr             { $$ = $1; }
    | ':'              { $$ = node(ps, N_SLICE, @$); }
    | expr ':'         { $$ = node(ps, N_SLICE, @$); $$->lhs = $1; $$ = nested(ps, $$); }
    | ':' expr         { $$ = node(ps, N_SLICE, @$); $$->rhs = $2; $$ = nested(ps, $$); }
    | expr ':' expr    { $$ = node(ps, N_SLICE, @$); $$->lhs = $1; $$->rhs = $3; $$ = nested(ps, $$); }
    ;

/* primary := INT | FLOAT | 'inf' | 'nan' | 'true' | 'false' | IDENT | STRING
            | IDENT '(' [arg (',' arg)* [',']] ')'
            | '(' expr ')'
            | '[' [expr (',' expr)* [',']] ']' */
primary
    : INT                       { $$ = int_node(ps, $1, @1); }
    | FLOAT                     { $$ = float_node(ps, $1, @1); }
    | "inf"                     { $$ = special_float_node(ps, true, @1); }
    | "nan"                     { $$ = special_float_node(ps, false, @1); }
    | "true"                    { $$ = bool_node(ps, true, @1); }
    | "false"                   { $$ = bool_node(ps, false, @1); }
    | IDENT                     { $$ = name_node(ps, $1, @1); }
    | STRING                    { $$ = node(ps, N_STRING, @1); $$->name = $1; }
    | IDENT '(' args_opt ')' {
        $$ = node(ps, N_CALL, @$);
        $$->name = $1;
        $$->items = $3;
        $$ = nested(ps, $$);
    }
    | '(' expr ')'              { $$ = $2; }
    | '[' exprs_opt ']' {
        $$ = node(ps, N_LIST, @$);
        $$->items = $2;
        $$ = nested(ps, $$);
    }
    ;

args_opt
    : %empty                  { $$ = (PtrVec){0}; }
    | arg_list comma_opt      { $$ = $1; }
    ;

arg_list
    : arg                     { $$ = list1(ps, $1); }
    | arg_list ',' arg        { $$ = list_push(ps, $1, $3); }
    ;

/* arg := expr | IDENT '=' expr | type_arg */
arg
    : expr                    { $$ = $1; }
    | IDENT '=' expr {
        $$ = node(ps, N_KWARG, @$);
        $$->name = $1;
        $$->lhs = $3;
        $$ = nested(ps, $$);
    }
    | type_arg                { $$ = $1; }
    ;

/* type_arg := DTYPE ['[' expr (',' expr)* ']'] ['@' IDENT]
   A type is only ever an argument: zeros([4], f32), alloc(f32[128, 64] @shared). */
type_arg
    : DTYPE shape_opt space_opt {
        $$ = node(ps, N_TYPE, @$);
        $$->dtype = $1;
        $$->items = $2;
        $$->has_space = $3.present;
        $$->space = $3.space;
        if ($3.present)
            $$->space_span = span_of(@3);
        $$ = nested(ps, $$);
    }
    ;

%%

static Span span_of(Loc loc) {
    int end = loc.end_line == loc.line ? loc.end_col : loc.first_end_col;
    return (Span){loc.line, loc.col, end};
}

static Node *node(ParseState *ps, NodeKind kind, Loc loc) {
    return ast_new(ps->arena, kind, span_of(loc));
}

static Node *int_node(ParseState *ps, Literal lit, Loc loc) {
    Node *n = node(ps, N_INT, loc);
    n->int_value = lit.int_value;
    n->text = lit.text;
    return n;
}

static Node *float_node(ParseState *ps, Literal lit, Loc loc) {
    Node *n = node(ps, N_FLOAT, loc);
    n->float_value = lit.float_value;
    n->text = lit.text;
    return n;
}

/* 'inf' and 'nan' are float literals spelled as words. */
static Node *special_float_node(ParseState *ps, bool is_inf, Loc loc) {
    Node *n = node(ps, N_FLOAT, loc);
    n->float_value = is_inf ? INFINITY : NAN;
    n->text = is_inf ? "inf" : "nan";
    return n;
}

static Node *bool_node(ParseState *ps, bool value, Loc loc) {
    Node *n = node(ps, N_BOOL, loc);
    n->int_value = value;
    n->text = value ? "true" : "false";
    return n;
}

static Node *name_node(ParseState *ps, const char *name, Loc loc) {
    Node *n = node(ps, N_NAME, loc);
    n->name = name;
    return n;
}

static Node *unary(ParseState *ps, int op, Node *operand, Loc loc) {
    Node *n = node(ps, N_UNARY, loc);
    n->op = op;
    n->lhs = operand;
    return nested(ps, n);
}

static Node *binary(ParseState *ps, int op, Node *lhs, Node *rhs, Loc loc) {
    Node *n = node(ps, N_BINARY, loc);
    n->op = op;
    n->lhs = lhs;
    n->rhs = rhs;
    return nested(ps, n);
}

/* Nesting limits. Later phases (sema, lowering, --emit ast, the passes over
   nested regions) walk the tree recursively, so its depth must be bounded
   for any input: a chain like 'a + a + ... + a' never fills the parser's
   stack (the rules are left-recursive) but makes a tree as deep as it is
   long. An expression may nest PARSE_MAX_EXPR_DEPTH operators, calls,
   casts and index levels; blocks (the kernel body, for, if, else) nest at
   most PARSE_MAX_BLOCK_DEPTH deep, the limit of tile IR's reader too, so
   that --emit ir always reads back. Both are far beyond hand-written
   kernels and well inside the C stack, with sanitizers on as well. */
enum { PARSE_MAX_EXPR_DEPTH = 256, PARSE_MAX_BLOCK_DEPTH = 64 };

static int child_depth(const Node *child) { return child ? child->depth : 0; }

/* Sets n->depth from its children (expressions: expression levels; blocks
   and the statements that own blocks: block levels) and reports the node
   where a limit is first crossed, once. */
static Node *nested(ParseState *ps, Node *n) {
    (void)ps;
    int depth = 0;
    if (n->kind == N_BLOCK) {
        for (int i = 0; i < n->items.len; i++)
            if (child_depth(n->items.items[i]) > depth)
                depth = child_depth(n->items.items[i]);
        n->depth = depth + 1;
        if (n->depth == PARSE_MAX_BLOCK_DEPTH + 1)
            diag_error(n->span, "blocks nested too deeply (more than %d levels)", PARSE_MAX_BLOCK_DEPTH);
        return n;
    }
    if (n->kind == N_FOR || n->kind == N_IF) {
        n->depth = child_depth(n->body);
        if (child_depth(n->then_body) > n->depth)
            n->depth = child_depth(n->then_body);
        /* An else-if is an if inside the else block: one level more. */
        int else_depth = child_depth(n->else_body) + (n->else_body && n->else_body->kind == N_IF);
        if (else_depth > n->depth)
            n->depth = else_depth;
        if (n->else_body && n->else_body->kind == N_IF && else_depth == PARSE_MAX_BLOCK_DEPTH + 1)
            diag_error(n->else_body->span, "blocks nested too deeply (more than %d levels)", PARSE_MAX_BLOCK_DEPTH);
        return n;
    }
    const Node *children[3] = {n->lhs, n->rhs, n->step};
    for (int i = 0; i < 3; i++)
        if (child_depth(children[i]) > depth)
            depth = child_depth(children[i]);
    for (int i = 0; i < n->items.len; i++)
        if (child_depth(n->items.items[i]) > depth)
            depth = child_depth(n->items.items[i]);
    n->depth = depth + 1;
    if (n->depth == PARSE_MAX_EXPR_DEPTH + 1)
        diag_error(n->span, "expression nested too deeply (more than %d levels); split it with 'let'",
                   PARSE_MAX_EXPR_DEPTH);
    return n;
}

static PtrVec list1(ParseState *ps, void *item) {
    PtrVec list = {0};
    ptrvec_push(ps->arena, &list, item);
    return list;
}

static PtrVec list_push(ParseState *ps, PtrVec list, void *item) {
    ptrvec_push(ps->arena, &list, item);
    return list;
}

static SpaceSuffix space_suffix(ParseState *ps, const char *name, Loc loc) {
    (void)ps;
    if (strcmp(name, "global") == 0)
        return (SpaceSuffix){true, SPACE_GLOBAL};
    if (strcmp(name, "shared") == 0)
        return (SpaceSuffix){true, SPACE_SHARED};
    diag_error(span_of(loc), "unknown memory space '@%s' (expected '@global' or '@shared')", name);
    return (SpaceSuffix){true, SPACE_GLOBAL};
}

static void duplicate_clause(const char *clause, Span first, Loc again) {
    diag_error(span_of(again), "duplicate '%s' clause", clause);
    diag_note(first, "first '%s' clause here", clause);
}

/* ---- syntax error messages ------------------------------------------------ */

/* Bison calls this only when its stack is full: the input nests deeper
   than any kernel would (blocks when many braces are open, else an
   expression). */
static void yyerror(Loc *loc, yyscan_t scanner, ParseState *ps, const char *message) {
    (void)scanner;
    if (strcmp(message, "memory exhausted") == 0 && ps->brace_depth > PARSE_MAX_BLOCK_DEPTH)
        diag_error(span_of(*loc), "blocks nested too deeply (more than %d levels)", PARSE_MAX_BLOCK_DEPTH);
    else if (strcmp(message, "memory exhausted") == 0)
        diag_error(span_of(*loc), "expression nested too deeply");
    else
        diag_error(span_of(*loc), "%s", message);
}

/* A token kind as the user would write it: 'kernel', ';', or a word. */
static const char *symbol_spelling(yysymbol_kind_t kind, char *buffer, size_t size) {
    switch (kind) {
    case YYSYMBOL_YYEOF: return "end of file";
    case YYSYMBOL_IDENT: return "an identifier";
    case YYSYMBOL_STRING: return "a string";
    case YYSYMBOL_INT: return "an integer";
    case YYSYMBOL_FLOAT: return "a float";
    case YYSYMBOL_DTYPE: return "a dtype";
    default: break;
    }
    /* Bison spells character tokens "';'" and aliases "\"kernel\"". */
    const char *name = yysymbol_name(kind);
    size_t n = strlen(name);
    if (n >= 2 && (name[0] == '"' || name[0] == '\'')) {
        name++;
        n -= 2;
    }
    snprintf(buffer, size, "'%.*s'", (int)n, name);
    return buffer;
}

/* The lookahead token, with its text where the kind alone says too little. */
static void describe_lookahead(ParseState *ps, yysymbol_kind_t kind, char *buffer, size_t size) {
    char spelling[64];
    int n = ps->tok_length > 40 ? 40 : ps->tok_length;
    switch (kind) {
    case YYSYMBOL_IDENT: snprintf(buffer, size, "identifier '%.*s'", n, ps->tok_text); break;
    case YYSYMBOL_STRING: snprintf(buffer, size, "string %.*s", n, ps->tok_text); break;
    case YYSYMBOL_INT: snprintf(buffer, size, "integer '%.*s'", n, ps->tok_text); break;
    case YYSYMBOL_FLOAT: snprintf(buffer, size, "float '%.*s'", n, ps->tok_text); break;
    case YYSYMBOL_DTYPE: snprintf(buffer, size, "dtype '%.*s'", n, ps->tok_text); break;
    default: snprintf(buffer, size, "%s", symbol_spelling(kind, spelling, sizeof spelling));
    }
}

/* Whether token kind `k` is one of the space-separated spellings in `set`
   (bison numbers character tokens by order of appearance, so they are
   matched by name). */
static bool symbol_in(yysymbol_kind_t k, const char *set) {
    char name[16];
    char buffer[64];
    snprintf(name, sizeof name, "%s", symbol_spelling(k, buffer, sizeof buffer));
    size_t n = strlen(name);
    if (n < 3 || name[0] != '\'')
        return false;
    for (const char *p = set; *p;) {
        size_t w = strcspn(p, " ");
        if (w == n - 2 && memcmp(p, name + 1, w) == 0)
            return true;
        p += w;
        p += strspn(p, " ");
    }
    return false;
}

static bool starts_expression(yysymbol_kind_t k) {
    return k == YYSYMBOL_INT || k == YYSYMBOL_FLOAT || k == YYSYMBOL_IDENT || k == YYSYMBOL_STRING ||
           symbol_in(k, "inf nan true false ( [ - ! ~");
}

/* Tokens that could continue an expression: operators, postfix and calls. */
static bool continues_expression(yysymbol_kind_t k) {
    return symbol_in(k, "* / % + - < > <= >= == != && || & | ^ << >> as [ . ( = += -= *= /=");
}

static bool is_comparison(yysymbol_kind_t k) {
    return symbol_in(k, "< > <= >= == !=");
}

/* Statements of other languages that Tessera lacks, with what to write
   instead (docs/errors.md); each comes with a block, which loses the
   parser. */
static const char *parse_missing_statement(const char *word) {
    static const struct {
        const char *word, *instead;
    } table[] = {
        {"loop", "write 'while true { ... }', leaving it with 'break'"},
        {"do", "write 'while COND { ... }'"},
        {"elif", "write 'else if'"},
        {"switch", "write 'if ... else if ...'"},
        {"match", "write 'if ... else if ...'"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(word, table[i].word) == 0)
            return table[i].instead;
    return NULL;
}

/* Syntax errors that a word of another language explains: a keyword where
   a name belongs ("expected an identifier, found 'out'") and a statement
   keyword Tessera lacks (read as a name, then something that cannot follow
   it). True when reported. */
static bool misused_word(ParseState *ps, const yysymbol_kind_t *expected, int count, Span at) {
    /* a name alone (a parameter, a let), not any expression or statement,
       which a keyword may start or which it may be a misplaced one of */
    bool name_expected = false, expression_expected = false;
    for (int i = 0; i < count; i++) {
        name_expected |= expected[i] == YYSYMBOL_IDENT;
        expression_expected |= expected[i] == YYSYMBOL_INT;
    }
    if (name_expected && !expression_expected && ps->tok_kind >= KW_CONST && ps->tok_kind <= KW_FALSE) {
        diag_error(at, "'%s' is a keyword and cannot be a name", ps->tok_copy);
        if (ps->tok_kind == KW_IN || ps->tok_kind == KW_OUT || ps->tok_kind == KW_INOUT)
            diag_note(at, "'in', 'out' and 'inout' give an array parameter's access, as in 'y: out f32[N]'");
        return true;
    }
    /* The word, then what cannot follow a name (`loop {`), or the
       word called, then a block (`switch (x) {`) */
    const char *instead = ps->prev_kind == IDENT && (ps->prev2_kind == ';' || ps->prev2_kind == '{' ||
                                                     ps->prev2_kind == '}')
                              ? parse_missing_statement(ps->prev_text)
                              : NULL;
    Loc where = ps->prev_loc;
    const char *word = ps->prev_text;
    if (!instead && ps->stmt_open && ps->tok_kind == '{' && ps->prev_kind == ')') {
        instead = parse_missing_statement(ps->stmt_word);
        where = ps->stmt_loc;
        word = ps->stmt_word;
    }
    if (instead) {
        Span at_word = {where.line, where.col, where.first_end_col};
        diag_error(at_word, "'%s' is not a statement in Tessera; %s", word, instead);
        ps->quiet_until_kernel = true;   /* its block loses the parser */
        return true;
    }
    return false;
}

/* Turns bison's "unexpected X, expecting A or B" into a message in the
 * user's words. The expected tokens (exact, thanks to LAC) are grouped:
 * expression starters become "an expression", statement starters "a
 * statement", and operators that could continue the expression are left
 * out. A missing ';' at the end of a line is reported just after the
 * last token of the statement, where it belongs. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, ParseState *ps) {
    (void)scanner;
    yysymbol_kind_t lookahead = yypcontext_token(ctx);
    Span at = span_of(*yypcontext_location(ctx));
    /* The token after a lexical error: that error already explains it. */
    if (ps->tok_after_lex_error || ps->quiet_until_kernel)
        return 0;
    /* `return x;` from Triton or Pallas: a kernel returns nothing */
    if (ps->prev_kind == KW_RETURN && lookahead != YYSYMBOL_YYEOF && ps->tok_kind != '}') {
        diag_error(at, "'return' takes no value in Tessera; a kernel's results are what it stores into its 'out' arrays");
        return 0;
    }

    yysymbol_kind_t expected[YYNTOKENS];
    int count = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    bool expression = false, statement = false, operators = false;
    for (int i = 0; i < count; i++) {
        if (expected[i] == YYSYMBOL_FLOAT)
            expression = true;
        if (expected[i] == YYSYMBOL_KW_LET)
            statement = true;
        if (symbol_in(expected[i], "+"))
            operators = true;
    }
    const char *phrases[8];
    char buffers[8][64];
    int phrase_count = 0;
    bool too_many = false;
    if (statement)
        phrases[phrase_count++] = "a statement";
    else if (expression)
        phrases[phrase_count++] = "an expression";
    for (int i = 0; i < count; i++) {
        yysymbol_kind_t k = expected[i];
        if ((statement || expression) && (starts_expression(k) || k == YYSYMBOL_DTYPE))
            continue;
        if (statement && (k == YYSYMBOL_KW_LET || k == YYSYMBOL_KW_VAR || k == YYSYMBOL_KW_FOR ||
                          k == YYSYMBOL_KW_IF || k == YYSYMBOL_KW_WHILE || k == YYSYMBOL_KW_BREAK ||
                          k == YYSYMBOL_KW_CONTINUE || k == YYSYMBOL_KW_RETURN))
            continue;
        if (operators && continues_expression(k))
            continue;
        /* "expected end of file" helps nobody when something else would do. */
        if (k == YYSYMBOL_YYEOF && count > 1)
            continue;
        if (phrase_count == 6) {
            too_many = true;
            break;
        }
        phrases[phrase_count] = symbol_spelling(k, buffers[phrase_count], sizeof buffers[0]);
        phrase_count++;
    }

    char found[96];
    describe_lookahead(ps, lookahead, found, sizeof found);
    if (misused_word(ps, expected, count, at))
        return 0;

    if (count == 2 && symbol_in(expected[0], ",") && symbol_in(expected[1], ">") &&
        continues_expression(lookahead)) {
        diag_error(at, "the default of a compile-time parameter must be a literal, a name or "
                       "an expression in parentheses");
        return 0;
    }
    if (operators && is_comparison(lookahead)) {
        diag_error(at, "comparison operators cannot be chained; use '&&' or parentheses");
        return 0;
    }
    bool only_semicolon = phrase_count == 1 && strcmp(phrases[0], "';'") == 0;
    if (only_semicolon && (lookahead == YYSYMBOL_YYEOF || symbol_in(lookahead, "}") ||
                           ps->prev_loc.end_line != ps->tok_loc.line)) {
        Span after = {ps->prev_loc.end_line, ps->prev_loc.end_col, ps->prev_loc.end_col + 1};
        diag_error(after, "expected ';' after %s",
                   ps->brace_depth > 0 || symbol_in(lookahead, "}") ? "statement"
                                                                     : "const declaration");
        return 0;
    }
    if (phrase_count == 0 || too_many) {
        diag_error(at, "unexpected %s", found);
        return 0;
    }
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; i < phrase_count; i++) {
        const char *sep = i == 0 ? "" : i == phrase_count - 1 ? " or " : ", ";
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", sep, phrases[i]);
        if (used >= sizeof list)
            break;
    }
    diag_error(at, "expected %s, found %s", list, found);
    return 0;
}

Program *parse_program(Arena *arena, const SourceFile *file) {
    ParseState ps = {.arena = arena, .file = file};
    ps.program = ARENA_NEW(arena, Program);
    ps.program->file = file;
    diag_set_source(file);
    yyscan_t scanner;
    lex_begin(&ps, &scanner);
    yyparse(scanner, &ps);
    lex_end(scanner);
    return ps.program;
}
