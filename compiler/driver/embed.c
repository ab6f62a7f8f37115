/*
 * embed.c: tessc --emit header and --emit source, C bindings for a file's
 * kernels with everything they need embedded.
 *
 * In: the file's stem, its compiled kernels (CodegenKernel: IR, entry,
 * threads per arch), the manifest text that names the images, and the images (PTX and
 * cubins) by file name. Out: STEM.h, with one typed launch function per
 * kernel, and STEM.c, with the manifest and images as byte arrays and the
 * functions' definitions, which load the manifest through
 * tessrt_manifest_load_memory on first use (once, under a lock) and launch
 * through tessrt_launch: the runtime picks the artifact by compute capability,
 * checks the contracts and computes the grid.
 *
 * Choices (docs/build-integration.md): the generated files include no CUDA
 * header, as tessrt.h does not: a stream is `void *` (a CUstream or a
 * cudaStream_t converts to it) and an array is a `uint64_t` device address (a
 * CUdeviceptr converts to it). Both files compile warning-free as C11 and as
 * C++ with -Wall -Wextra. Nothing in them depends on the time, the directory
 * or the host: the same input gives the same bytes.
 */
#include "codegen.h"
#include "manifest.h"

#include <string.h>

/* Names a C or C++ program cannot use for a parameter, and `stream`; the
   launch functions' own locals start with "tessera_". */
static const char *const embed_reserved[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
    "catch", "char", "char16_t", "char32_t", "char8_t", "class", "compl", "concept", "const", "consteval",
    "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
    "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
    "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
    "public", "register", "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
    "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "stream",
};

/* A parameter's name in C: the Tessera name, with '_' appended when C or
   C++ reserves it. */
static void embed_param_name(const char *name, char *buf, size_t size) {
    bool reserved = name[0] == '_' || strncmp(name, "tessera_", 8) == 0;
    for (size_t i = 0; i < sizeof embed_reserved / sizeof embed_reserved[0]; i++)
        reserved |= strcmp(name, embed_reserved[i]) == 0;
    snprintf(buf, size, "%s%s", name, reserved ? "_" : "");
}

/* A file name inside a C string literal or a comment, as C escapes: the
   name is any bytes (a '"' would end the literal and let the rest of the
   name be code, a '*' '/' would end the comment), so everything but
   printable ASCII is an octal escape, '"' and '\\' are escaped, a '?' after
   a '?' is '\?' (no trigraph) and a '/' after a '*' is written '\/' in a
   comment (where nothing is interpreted). The generated files stay ASCII. */
static void embed_put_name(const char *name, bool comment, FILE *out) {
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(out, "\\%03o", *p);
        else if ((*p == '?' && p > (const unsigned char *)name && p[-1] == '?') ||
                 (comment && *p == '/' && p > (const unsigned char *)name && p[-1] == '*'))
            fprintf(out, "\\%c", *p);
        else
            fputc(*p, out);
    }
}

/* Whether `#include "STEM.h"` can name the header: a header name has no
   escapes, so a '"', '\\', '\'' or a byte outside printable ASCII cannot be
   written in it (C11 6.4.7). */
static bool embed_includable(const char *stem) {
    for (const unsigned char *p = (const unsigned char *)stem; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' || *p == '\'')
            return false;
    return true;
}

/* The stem as an identifier: what is not a letter or digit becomes '_'. */
static void embed_identifier(const char *stem, char *buf, size_t size) {
    size_t n = 0;
    if (stem[0] >= '0' && stem[0] <= '9' && n + 1 < size)
        buf[n++] = '_';
    for (const char *p = stem; *p && n + 1 < size; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        buf[n++] = ok ? c : '_';
    }
    buf[n] = '\0';
}

static const char *embed_c_type(const IrParam *p) {
    DType dtype = p->value ? p->value->type.dtype : DT_I32;
    if (p->kind == PARAM_ARRAY)
        return "uint64_t";
    switch (dtype) {
    case DT_BOOL: return "bool";
    case DT_I8: return "int8_t";
    case DT_I16: return "int16_t";
    case DT_I32: return "int32_t";
    case DT_I64: return "int64_t";
    case DT_U8: return "uint8_t";
    case DT_U16: return "uint16_t";
    case DT_U32: return "uint32_t";
    case DT_U64: return "uint64_t";
    case DT_F16:
    case DT_BF16: return "uint16_t";
    case DT_F32: return "float";
    case DT_F64: return "double";
    default: return "int32_t";
    }
}

/* The tessrt_arg member and dtype constant of a scalar. */
static void embed_scalar_member(DType dtype, const char **member, const char **constant) {
    static const struct {
        DType dtype;
        const char *member, *constant;
    } table[] = {
        {DT_BOOL, "b", "TESSRT_BOOL"}, {DT_I8, "i8", "TESSRT_I8"},      {DT_I16, "i16", "TESSRT_I16"},
        {DT_I32, "i32", "TESSRT_I32"}, {DT_I64, "i64", "TESSRT_I64"},   {DT_U8, "u8", "TESSRT_U8"},
        {DT_U32, "u32", "TESSRT_U32"}, {DT_F16, "bits16", "TESSRT_F16"}, {DT_BF16, "bits16", "TESSRT_BF16"},
        {DT_F32, "f32", "TESSRT_F32"}, {DT_F64, "f64", "TESSRT_F64"},   {DT_U16, "u16", "TESSRT_U16"},
        {DT_U64, "u64", "TESSRT_U64"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].dtype == dtype) {
            *member = table[i].member;
            *constant = table[i].constant;
            return;
        }
    }
    *member = "i32";
    *constant = "TESSRT_I32";
}

/* "tessrt_status relu_launch(void *stream, uint64_t x, uint64_t o, int32_t N)" */
static void embed_prototype(const IrKernel *k, FILE *out) {
    fprintf(out, "tessrt_status %s_launch(void *stream", k->name);
    for (int i = 0; i < k->num_params; i++) {
        char name[256];
        embed_param_name(k->params[i].name, name, sizeof name);
        fprintf(out, ", %s %s", embed_c_type(&k->params[i]), name);
    }
    fputc(')', out);
}

/* The comment above a prototype: the parameters as Tessera declares them,
   the grid and the block size. */
static void embed_kernel_comment(const CodegenKernel *c, FILE *out) {
    const IrKernel *k = c->kernel;
    /* threads are per artifact (each target's plan has its own) */
    bool same = true;
    for (int a = 1; a < c->num_archs; a++)
        same &= c->archs[a].threads == c->archs[0].threads;
    fprintf(out, "/* kernel %s (entry %s), ", k->name, c->entry);
    if (same)
        fprintf(out, "%d threads per block\n", c->num_archs ? c->archs[0].threads : 0);
    else
        for (int a = 0; a < c->num_archs; a++)
            fprintf(out, "%s%s: %d threads per block%s", a ? ", " : "", c->archs[a].arch->name, c->archs[a].threads,
                    a + 1 == c->num_archs ? "\n" : "");
    for (int i = 0; i < k->num_params; i++) {
        const IrParam *p = &k->params[i];
        char type[256] = "?";
        if (p->value)
            ir_type_format(&p->value->type, type, sizeof type);
        fprintf(out, " *   %-10s %s%s\n", p->name, type,
                p->kind == PARAM_ARRAY    ? " (device pointer)"
                : p->kind == PARAM_SIZE   ? " (a size, >= 0)"
                : p->value && (p->value->type.dtype == DT_F16 || p->value->type.dtype == DT_BF16)
                    ? " (the raw 16 bits)"
                    : "");
    }
    fputs(" *   grid (", out);
    for (int d = 0; d < k->grid_rank; d++) {
        char expr[512];
        manifest_format_expr(k->grid[d], expr, sizeof expr);
        fprintf(out, "%s%s", d ? ", " : "", expr);
    }
    fputs(")\n */\n", out);
}

void embed_header(const EmbedInput *in, FILE *out) {
    char id[256], guard[256];
    embed_identifier(in->stem, id, sizeof id);
    for (size_t i = 0; i <= strlen(id); i++)
        guard[i] = id[i] >= 'a' && id[i] <= 'z' ? (char)(id[i] - 'a' + 'A') : id[i];
    fputs("/*\n * ", out);
    embed_put_name(in->stem, true, out);
    fputs(".h: C bindings for the kernels of ", out);
    embed_put_name(in->source_name, true, out);
    fprintf(out,
            ".\n"
            " * Generated by tessc %s (--emit header); do not edit.\n"
            " *\n"
            " * ", TESSC_VERSION);
    embed_put_name(in->stem, true, out);
    fprintf(out,
            ".c (--emit source) defines these functions and embeds the PTX, the\n"
            " * cubins and the launch manifest; link it with libtessrt. Each NAME_launch\n"
            " * loads the kernels on its first call (once, thread-safe), picks the\n"
            " * artifact for the current device's compute capability, checks the\n"
            " * arguments and contracts, computes the grid and launches on `stream` (a\n"
            " * CUstream or cudaStream_t; NULL is the default stream). Arrays are device\n"
            " * addresses (CUdeviceptr). Launches are asynchronous. On failure,\n"
            " * tessrt_last_error() says why; nothing exits.\n"
            " */\n"
            "#ifndef TESSERA_GENERATED_%s_H\n"
            "#define TESSERA_GENERATED_%s_H\n"
            "\n"
            "#include <tessrt.h>\n"
            "\n"
            "#ifdef __cplusplus\n"
            "extern \"C\" {\n"
            "#endif\n"
            "\n"
            "/* The manifest of ",
            guard, guard);
    embed_put_name(in->source_name, true, out);
    fprintf(out,
            ", loaded from the embedded copy on the first call;\n"
            "   for the tessrt_* functions (tessrt_kernel_get, tessrt_kernel_prepare). */\n"
            "tessrt_status %s_manifest(tessrt_manifest **out);\n",
            id);
    for (int i = 0; i < in->num_kernels; i++) {
        fputc('\n', out);
        embed_kernel_comment(&in->kernels[i], out);
        embed_prototype(in->kernels[i].kernel, out);
        fputs(";\n", out);
    }
    fprintf(out,
            "\n"
            "#ifdef __cplusplus\n"
            "}\n"
            "#endif\n"
            "\n"
            "#endif\n");
}

static void embed_bytes(const char *name, const char *data, size_t size, FILE *out) {
    fprintf(out, "static const unsigned char %s[%zu] = {", name, size ? size : 1);
    for (size_t i = 0; i < size; i++)
        fprintf(out, "%s%u,", i % 20 == 0 ? "\n    " : "", (unsigned char)data[i]);
    if (size == 0)
        fputs("0", out);
    fputs("\n};\n", out);
}

void embed_source(const EmbedInput *in, FILE *out) {
    char id[256];
    embed_identifier(in->stem, id, sizeof id);
    fputs("/*\n * ", out);
    embed_put_name(in->stem, true, out);
    fputs(".c: the kernels of ", out);
    embed_put_name(in->source_name, true, out);
    fprintf(out, ", embedded, and their launch functions.\n * Generated by tessc %s (--emit source); do not edit. See ",
            TESSC_VERSION);
    embed_put_name(in->stem, true, out);
    fputs(".h.\n */\n", out);
    if (embed_includable(in->stem)) {
        fprintf(out, "#include \"%s.h\"\n", in->stem);
    } else {
        /* The functions are defined below before any use, so the header's
           prototypes are not needed here; its types come from tessrt.h. */
        fputs("/* (the header cannot be named in an #include: its name has characters a header name cannot hold) */\n"
              "#include <tessrt.h>\n", out);
    }
    fputs("\n"
          "#include <pthread.h>\n"
          "\n"
          "/* The launch manifest (docs/manifest.md), as tessc --emit manifest writes it. */\n", out);
    char name[300];
    snprintf(name, sizeof name, "tessera_%s_manifest_json", id);
    embed_bytes(name, in->manifest, in->manifest_size, out);
    for (int i = 0; i < in->num_images; i++) {
        fputs("\n/* ", out);
        embed_put_name(in->images[i].file, true, out);
        fputs(" */\n", out);
        snprintf(name, sizeof name, "tessera_%s_image%d", id, i);
        embed_bytes(name, in->images[i].data, in->images[i].size, out);
    }
    fprintf(out, "\nstatic const tessrt_image tessera_%s_images[%d] = {\n", id, in->num_images ? in->num_images : 1);
    for (int i = 0; i < in->num_images; i++)
    {
        fputs("    {\"", out);
        embed_put_name(in->images[i].file, false, out);
        fprintf(out, "\", tessera_%s_image%d, sizeof tessera_%s_image%d},\n", id, i, id, i);
    }
    if (in->num_images == 0)
        fputs("    {\"\", 0, 0},\n", out);
    fprintf(out,
            "};\n"
            "\n"
            "static tessrt_manifest *tessera_%s_loaded;\n"
            "static pthread_mutex_t tessera_%s_lock = PTHREAD_MUTEX_INITIALIZER;\n"
            "\n"
            "tessrt_status %s_manifest(tessrt_manifest **out) {\n"
            "    tessrt_manifest *m = __atomic_load_n(&tessera_%s_loaded, __ATOMIC_ACQUIRE);\n"
            "    if (!m) {\n"
            "        tessrt_status s = TESSRT_OK;\n"
            "        pthread_mutex_lock(&tessera_%s_lock);\n"
            "        m = tessera_%s_loaded;\n"
            "        if (!m) {\n"
            "            s = tessrt_manifest_load_memory(\"",
            id, id, id, id, id, id);
    embed_put_name(in->stem, false, out);
    fprintf(out,
            ".manifest.json (embedded)\",\n"
            "                                            (const char *)tessera_%s_manifest_json, %zu,\n"
            "                                            tessera_%s_images, %d, &m);\n"
            "            if (s == TESSRT_OK)\n"
            "                __atomic_store_n(&tessera_%s_loaded, m, __ATOMIC_RELEASE);\n"
            "        }\n"
            "        pthread_mutex_unlock(&tessera_%s_lock);\n"
            "        if (s != TESSRT_OK)\n"
            "            return s;\n"
            "    }\n"
            "    *out = m;\n"
            "    return TESSRT_OK;\n"
            "}\n",
            id, in->manifest_size, id, in->num_images, id, id);
    bool scalars = false;
    for (int i = 0; i < in->num_kernels; i++)
        for (int p = 0; p < in->kernels[i].kernel->num_params; p++)
            scalars |= in->kernels[i].kernel->params[p].kind == PARAM_SCALAR;
    if (scalars)
        fprintf(out,
                "\n"
                "static tessrt_arg tessera_%s_scalar(tessrt_dtype dtype) {\n"
                "    tessrt_arg a = {TESSRT_ARG_SCALAR, dtype, {0}};\n"
                "    return a;\n"
                "}\n",
                id);
    for (int i = 0; i < in->num_kernels; i++) {
        const IrKernel *k = in->kernels[i].kernel;
        fputc('\n', out);
        embed_prototype(k, out);
        fprintf(out,
                " {\n"
                "    tessrt_manifest *tessera_m;\n"
                "    tessrt_kernel *tessera_k;\n"
                "    tessrt_status tessera_s = %s_manifest(&tessera_m);\n"
                "    if (tessera_s == TESSRT_OK)\n"
                "        tessera_s = tessrt_manifest_kernel_at(tessera_m, %d, &tessera_k);\n"
                "    if (tessera_s != TESSRT_OK)\n"
                "        return tessera_s;\n"
                "    tessrt_arg tessera_args[%d];\n",
                id, i, k->num_params ? k->num_params : 1);
        for (int p = 0; p < k->num_params; p++) {
            const IrParam *param = &k->params[p];
            char arg[256];
            embed_param_name(param->name, arg, sizeof arg);
            if (param->kind == PARAM_ARRAY) {
                fprintf(out, "    tessera_args[%d] = tessrt_arg_array(%s);\n", p, arg);
            } else if (param->kind == PARAM_SIZE) {
                fprintf(out, "    tessera_args[%d] = tessrt_arg_size(%s);\n", p, arg);
            } else {
                const char *member, *constant;
                embed_scalar_member(param->value ? param->value->type.dtype : DT_I32, &member, &constant);
                fprintf(out, "    tessera_args[%d] = tessera_%s_scalar(%s);\n", p, id, constant);
                fprintf(out, "    tessera_args[%d].value.%s = %s;\n", p, member, arg);
            }
        }
        fprintf(out, "    return tessrt_launch(tessera_k, TESSRT_DEVICE_CURRENT, tessera_args, %d, stream);\n}\n",
                k->num_params);
    }
}
