/*
 * diag.c: the one place that prints user-facing diagnostics.
 *
 *     file:line:col: error: message
 *         source line
 *         ^~~~
 *
 * Columns count bytes, tabs in the echoed line are kept so the caret lines
 * up. Errors stop printing after DIAG_MAX_ERRORS; the count still grows so
 * that the driver knows the run failed.
 */
#include "base.h"

#include <string.h>

static const SourceFile *current_file;
static int error_count;
static bool suppress_notes;   /* notes of an error past the limit are dropped too */
static FILE *diag_output;     /* NULL: stderr */

void diag_set_output(FILE *out) { diag_output = out; }
static FILE *diag_stream(void) { return diag_output ? diag_output : stderr; }

void diag_set_source(const SourceFile *file) { current_file = file; }
int diag_error_count(void) { return error_count; }
void diag_reset(void) { error_count = 0; suppress_notes = false; }

/* Finds line `line` (1-based) of the current file. */
static const char *line_start(int line, size_t *length) {
    if (!current_file || line < 1)
        return NULL;
    const char *p = current_file->text, *end = p + current_file->length;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    if (p > end)
        return NULL;
    const char *q = p;
    while (q < end && *q != '\n')
        q++;
    if (q > p && q[-1] == '\r')
        q--;
    *length = (size_t)(q - p);
    return p;
}

static void show_source(Span span) {
    size_t length;
    const char *text = line_start(span.line, &length);
    if (!text)
        return;
    fputs("    ", diag_stream());
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        /* Bytes that would garble a terminal are shown as '?'. */
        fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', diag_stream());
    }
    fputs("\n    ", diag_stream());
    int col = span.col < 1 ? 1 : span.col;
    for (int i = 1; i < col && (size_t)(i - 1) < length; i++)
        fputc(text[i - 1] == '\t' ? '\t' : ' ', diag_stream());
    fputc('^', diag_stream());
    int end = span.end_col > col ? span.end_col : col + 1;
    if ((size_t)end > length + 1)
        end = (int)length + 1;
    for (int i = col + 1; i < end; i++)
        fputc('~', diag_stream());
    fputc('\n', diag_stream());
}

static void report(const char *kind, Span span, const char *fmt, va_list ap) {
    const char *name = current_file ? current_file->name : "tessc";
    if (span.line > 0)
        fprintf(diag_stream(), "%s:%d:%d: %s: ", name, span.line, span.col, kind);
    else
        fprintf(diag_stream(), "%s: %s: ", name, kind);
    vfprintf(diag_stream(), fmt, ap);
    fputc('\n', diag_stream());
    if (span.line > 0)
        show_source(span);
}

void diag_error(Span span, const char *fmt, ...) {
    error_count++;
    if (error_count > DIAG_MAX_ERRORS) {
        suppress_notes = true;
        if (error_count == DIAG_MAX_ERRORS + 1)
            fprintf(diag_stream(), "tessc: too many errors (%d); stopping here\n", DIAG_MAX_ERRORS);
        return;
    }
    suppress_notes = false;
    va_list ap;
    va_start(ap, fmt);
    report("error", span, fmt, ap);
    va_end(ap);
}

void diag_note(Span span, const char *fmt, ...) {
    if (suppress_notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    report("note", span, fmt, ap);
    va_end(ap);
}

void diag_warning(Span span, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report("warning", span, fmt, ap);
    va_end(ap);
}

void diag_error_plain(const char *fmt, ...) {
    error_count++;
    va_list ap;
    va_start(ap, fmt);
    fputs("tessc: error: ", diag_stream());
    vfprintf(diag_stream(), fmt, ap);
    fputc('\n', diag_stream());
    va_end(ap);
}
