/*
 * kobalt_fortran_gen.c -- writes the Fortran module `kobalt` (kobalt.f90) at build time.
 *
 *   kobalt_fortran_gen TEMPLATE KOBALT_H OUTPUT
 *
 * Nothing in the generated module is written by hand twice:
 *   - the routines come from kobalt_routines_all.def (kobalt_routines.def once per
 *     precision), expanded here exactly as kobalt.h expands it: each entry gives its
 *     full name (kobalt_dgemm_strided), its parameter list as text (#params does not
 *     expand KOBALT_T) and what KOBALT_T is (double/float); translate() turns every C
 *     parameter into a Fortran dummy;
 *   - the enumerations are read from kobalt.h (every `typedef enum { ... } name;`):
 *     their type names become integer(c_int), value dummies and their enumerators
 *     named constants whose values come from compiling kobalt.h here (table
 *     `constants`). An enumerator missing from that table stops the build.
 * A C parameter type that translate() does not know also stops the build: a new kind
 * of parameter needs a decision here, never a silent guess.
 *
 * TEMPLATE (fortran/kobalt.f90.in) is the fixed Fortran: the module frame, the service
 * functions and the string helpers. Its lines "!@CONSTANTS@", "!@PUBLIC@" and
 * "!@INTERFACES@" are replaced by the generated parts.
 */
#include <kobalt/kobalt.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what is generated from ------------------------------------------------------- */

typedef struct {
    const char *name;   /* "kobalt_dgemm_strided" */
    const char *params; /* "(kobalt_layout layout, ..., kobalt_int batch)", with KOBALT_T */
    const char *real;   /* what KOBALT_T is for this entry: "double" or "float" */
} routine;

/* kobalt_routines_all.def includes kobalt_routines.def once per precision, exactly as
 * kobalt.h does. */
static const routine routines[] = {
#define KOBALT_ROUTINE(name, params, args, route) \
    {KOBALT_STRINGIFY(KOBALT_NAME(name)), #params, KOBALT_STRINGIFY(KOBALT_T)},
#include <kobalt/kobalt_routines_all.def>
#undef KOBALT_ROUTINE
};
#define NROUTINES (sizeof routines / sizeof routines[0])

typedef struct {
    const char *name;
    long value;
} constant;

/* Values of kobalt.h's enumerators and version macros, as the C compiler sees them. */
#define C(x) {#x, (long)(x)}
static const constant constants[] = {
    C(KOBALT_SUCCESS), C(KOBALT_INVALID_ARGUMENT), C(KOBALT_NOT_SUPPORTED),
    C(KOBALT_NO_BACKEND), C(KOBALT_OUT_OF_MEMORY), C(KOBALT_BACKEND_ERROR),
    C(KOBALT_ROW_MAJOR), C(KOBALT_COL_MAJOR),
    C(KOBALT_NO_TRANS), C(KOBALT_TRANS), C(KOBALT_CONJ_TRANS),
    C(KOBALT_UPPER), C(KOBALT_LOWER),
    C(KOBALT_NON_UNIT), C(KOBALT_UNIT),
    C(KOBALT_LEFT), C(KOBALT_RIGHT),
    C(KOBALT_PLUS_TIMES), C(KOBALT_MIN_PLUS), C(KOBALT_MAX_PLUS), C(KOBALT_MIN_TIMES),
    C(KOBALT_MAX_TIMES), C(KOBALT_MIN_MAX), C(KOBALT_MAX_MIN), C(KOBALT_OR_AND),
};
#undef C
#define NCONSTANTS (sizeof constants / sizeof constants[0])

static const constant versions[] = {
    {"KOBALT_VERSION_MAJOR", KOBALT_VERSION_MAJOR},
    {"KOBALT_VERSION_MINOR", KOBALT_VERSION_MINOR},
    {"KOBALT_VERSION_PATCH", KOBALT_VERSION_PATCH},
};

/* The Fortran type of each C type KOBALT_T stands for. */
static const struct {
    const char *c, *fortran;
} reals[] = {{"double", "real(c_double)"}, {"float", "real(c_float)"}};

/* Parameters named here may be NULL in C; in Fortran they are optional and an absent
 * argument passes NULL (Fortran 2018, TS 29113). docs/api.md: ipiv == NULL means no
 * pivoting. */
static const char *const nullable[] = {"ipiv", "descIpiv"};

/* ---- small helpers ---------------------------------------------------------------- */

static const char *program = "kobalt_fortran_gen";
static char tmp_path[4096]; /* the output being written, removed on failure */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (tmp_path[0]) remove(tmp_path);
    exit(1);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open %s", path);
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (!s) die("out of memory");
    s[len] = '\0';
    return s;
}

/* Replaces C comments by spaces, in place. */
static void strip_comments(char *s)
{
    for (char *p = s; *p; ++p) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end ? end + 2 : p + strlen(p);
            memset(p, ' ', (size_t)(stop - p));
            p = stop - 1;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') *p++ = ' ';
            --p;
        }
    }
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident(int c) { return isalnum(c) || c == '_'; }

/* ---- enumerations of kobalt.h ----------------------------------------------------- */

#define MAX_ENUMS 32
#define MAX_NAME 64
static char enum_types[MAX_ENUMS][MAX_NAME]; /* kobalt_layout, ... */
static size_t nenum_types;

typedef struct {
    char name[MAX_NAME];
    long value;
    int group; /* index into enum_types */
} enumerator;
static enumerator enumerators[256];
static size_t nenumerators;

static const constant *find_constant(const char *name)
{
    for (size_t i = 0; i < NCONSTANTS; ++i)
        if (strcmp(constants[i].name, name) == 0) return &constants[i];
    return NULL;
}

/* Collects every `typedef enum { A = 1, B, ... } name;` of the header text. */
static void parse_enums(char *header, const char *path)
{
    strip_comments(header);
    for (char *p = header; (p = strstr(p, "typedef enum")) != NULL;) {
        char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
        if (!close) die("%s: unterminated typedef enum", path);
        char *q = close + 1;
        while (isspace((unsigned char)*q)) ++q;
        size_t n = 0;
        while (is_ident(q[n])) ++n;
        if (n == 0 || n >= MAX_NAME || nenum_types == MAX_ENUMS)
            die("%s: cannot read the name of a typedef enum", path);
        memcpy(enum_types[nenum_types], q, n);
        enum_types[nenum_types][n] = '\0';
        /* Enumerators: the identifier that starts each comma-separated item. */
        for (char *e = open + 1; e < close;) {
            while (e < close && !is_ident_start(*e)) ++e;
            if (e >= close) break;
            size_t len = 0;
            while (is_ident(e[len])) ++len;
            if (len >= MAX_NAME) die("%s: enumerator name too long", path);
            enumerator *en = &enumerators[nenumerators++];
            memcpy(en->name, e, len);
            en->name[len] = '\0';
            en->group = (int)nenum_types;
            const constant *c = find_constant(en->name);
            if (!c)
                die("%s: enumerator %s of %s has no entry in the table `constants` of "
                    "fortran/kobalt_fortran_gen.c; add it there",
                    path, en->name, enum_types[nenum_types]);
            en->value = c->value;
            char *comma = memchr(e, ',', (size_t)(close - e));
            e = comma ? comma + 1 : close;
        }
        ++nenum_types;
        p = q + n;
    }
    if (nenum_types == 0) die("%s: no typedef enum found", path);
}

static int is_enum_type(const char *t)
{
    for (size_t i = 0; i < nenum_types; ++i)
        if (strcmp(enum_types[i], t) == 0) return 1;
    return 0;
}

/* ---- translating a C parameter to a Fortran dummy --------------------------------- */

#define MAX_PARAMS 40
typedef struct {
    char name[MAX_NAME];   /* the C (and Fortran) name */
    char ctype[160];       /* the declaration without the name, e.g. "const KOBALT_T * const []" */
    char fdecl[160];       /* the Fortran declaration without the name */
    const char *dim;       /* "" or "(*)" */
} param;

/* Splits "const KOBALT_T *const A[]" into its name "A" and the canonical type text
 * "const KOBALT_T * const []" (tokens separated by single spaces). */
static void split_decl(const char *decl, param *p, const char *where)
{
    char tokens[16][MAX_NAME];
    size_t ntok = 0;
    for (const char *s = decl; *s;) {
        if (isspace((unsigned char)*s)) {
            ++s;
            continue;
        }
        if (ntok == 16) die("%s: declaration '%s' too long", where, decl);
        size_t len = 1;
        if (is_ident_start(*s))
            while (is_ident(s[len])) ++len;
        else if (s[0] == '[' && s[1] == ']')
            len = 2;
        if (len >= MAX_NAME) die("%s: token too long in '%s'", where, decl);
        memcpy(tokens[ntok], s, len);
        tokens[ntok++][len] = '\0';
        s += len;
    }
    /* The name is the last identifier. */
    size_t at = ntok;
    while (at > 0 && !is_ident_start(tokens[at - 1][0])) --at;
    if (at < 2) die("%s: cannot read the parameter '%s'", where, decl);
    strcpy(p->name, tokens[at - 1]);
    p->ctype[0] = '\0';
    for (size_t i = 0; i < ntok; ++i) {
        if (i == at - 1) continue;
        if (p->ctype[0]) strcat(p->ctype, " ");
        strcat(p->ctype, tokens[i]);
    }
}

static int same_fortran_name(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

static int is_nullable(const char *name)
{
    for (size_t i = 0; i < sizeof nullable / sizeof nullable[0]; ++i)
        if (strcmp(nullable[i], name) == 0) return 1;
    return 0;
}

/* The Fortran declaration of one C parameter; `real` is the Fortran type of KOBALT_T. */
static void translate(param *p, const char *real, const char *where)
{
    const char *t = p->ctype;
    const char *opt = is_nullable(p->name) ? ", optional" : "";
    p->dim = "";
    if (strcmp(t, "kobalt_int") == 0) {
        strcpy(p->fdecl, "integer(c_int64_t), value");
    } else if (is_enum_type(t)) {
        strcpy(p->fdecl, "integer(c_int), value");
    } else if (strcmp(t, "KOBALT_T") == 0) {
        snprintf(p->fdecl, sizeof p->fdecl, "%s, value", real);
    } else if (strcmp(t, "const KOBALT_T *") == 0) { /* strided data, read */
        snprintf(p->fdecl, sizeof p->fdecl, "%s, intent(in)%s", real, opt);
        p->dim = "(*)";
    } else if (strcmp(t, "KOBALT_T *") == 0) { /* strided data, read and written */
        snprintf(p->fdecl, sizeof p->fdecl, "%s, intent(inout)%s", real, opt);
        p->dim = "(*)";
    } else if (strcmp(t, "const KOBALT_T * const []") == 0 ||
               strcmp(t, "KOBALT_T * const []") == 0) { /* array of item pointers */
        snprintf(p->fdecl, sizeof p->fdecl, "type(c_ptr), intent(in)%s", opt);
        p->dim = "(*)";
    } else if (strcmp(t, "const int *") == 0) {
        snprintf(p->fdecl, sizeof p->fdecl, "integer(c_int), intent(in)%s", opt);
        p->dim = "(*)";
    } else if (strcmp(t, "int *") == 0) {
        snprintf(p->fdecl, sizeof p->fdecl, "integer(c_int), intent(inout)%s", opt);
        p->dim = "(*)";
    } else if (strcmp(t, "const kobalt_matrix_desc *") == 0) { /* the bind(C) type of kobalt.f90.in */
        snprintf(p->fdecl, sizeof p->fdecl, "type(kobalt_matrix_desc), intent(in)%s", opt);
    } else {
        die("%s: parameter '%s' has the C type '%s', which has no Fortran translation; "
            "teach translate() in fortran/kobalt_fortran_gen.c",
            where, p->name, t);
    }
}

/* Splits "(a, b, c)" at its top-level commas and translates each parameter. */
static size_t parse_params(const char *text, param *out, const char *real, const char *where)
{
    const char *s = strchr(text, '('), *end = strrchr(text, ')');
    if (!s || !end) die("%s: parameter list '%s' is not parenthesised", where, text);
    ++s;
    size_t n = 0;
    while (s < end) {
        const char *comma = s;
        while (comma < end && *comma != ',') ++comma;
        char decl[256];
        size_t len = (size_t)(comma - s);
        if (len >= sizeof decl) die("%s: parameter too long", where);
        memcpy(decl, s, len);
        decl[len] = '\0';
        if (n == MAX_PARAMS) die("%s: too many parameters", where);
        split_decl(decl, &out[n], where);
        translate(&out[n], real, where);
        ++n;
        s = comma + 1;
    }
    /* Fortran names are case-insensitive: A and a would be one dummy. */
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            if (same_fortran_name(out[i].name, out[j].name))
                die("%s: parameters '%s' and '%s' are the same name in Fortran", where,
                    out[i].name, out[j].name);
    return n;
}

/* ---- writing ---------------------------------------------------------------------- */

/* Writes `words` joined by ", " after `head`, breaking lines before column ~100 with
 * Fortran continuation (`indent` starts each continued line); `tail` follows the last
 * word. */
static void write_wrapped(FILE *out, const char *head, const char *const *words, size_t n,
                          const char *tail, const char *indent)
{
    size_t col = (size_t)fprintf(out, "%s", head);
    for (size_t i = 0; i < n; ++i) {
        if (i > 0) {
            if (col + strlen(words[i]) + 2 > 96) {
                fprintf(out, ", &\n%s", indent);
                col = strlen(indent);
            } else {
                col += (size_t)fprintf(out, ", ");
            }
        }
        col += (size_t)fprintf(out, "%s", words[i]);
    }
    fprintf(out, "%s\n", tail);
}

static void write_constants(FILE *out)
{
    int group = -1;
    for (size_t i = 0; i < nenumerators; ++i) {
        const enumerator *e = &enumerators[i];
        if (e->group != group) {
            group = e->group;
            fprintf(out, "%s  ! %s\n", i ? "\n" : "", enum_types[group]);
        }
        fprintf(out, "  integer(c_int), parameter, public :: %s = %ld\n", e->name, e->value);
    }
    fprintf(out, "\n  ! version of kobalt.h this module was generated from\n");
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; ++i)
        fprintf(out, "  integer(c_int), parameter, public :: %s = %ld\n", versions[i].name,
                versions[i].value);
}

static void write_public(FILE *out)
{
    for (size_t r = 0; r < NROUTINES; ++r) fprintf(out, "  public :: %s\n", routines[r].name);
}

/* The C prototype as a Fortran comment, wrapped. */
static void write_prototype_comment(FILE *out, const char *fname, const param *ps, size_t n,
                                    const char *real_c)
{
    char head[128];
    snprintf(head, sizeof head, "    ! kobalt_status %s(", fname);
    const char *words[MAX_PARAMS];
    char buf[MAX_PARAMS][320];
    for (size_t i = 0; i < n; ++i) {
        /* the C type with KOBALT_T replaced by double/float, then the name */
        char t[200] = "";
        const char *s = ps[i].ctype;
        while (*s) {
            if (strncmp(s, "KOBALT_T", 8) == 0) {
                if (strlen(t) + strlen(real_c) >= sizeof t) die("%s: type too long", fname);
                strcat(t, real_c);
                s += 8;
            } else {
                if (strlen(t) + 1 >= sizeof t) die("%s: type too long", fname);
                strncat(t, s, 1);
                ++s;
            }
        }
        /* "T * const []" reads better as "T *const name[]" */
        char *arr = strstr(t, " []");
        if (arr) {
            *arr = '\0';
            snprintf(buf[i], sizeof buf[i], "%.199s %.63s[]", t, ps[i].name);
        } else {
            snprintf(buf[i], sizeof buf[i], "%.199s %.63s", t, ps[i].name);
        }
        for (char *q = buf[i]; (q = strstr(q, "* ")) != NULL;) memmove(q + 1, q + 2, strlen(q + 2) + 1);
        words[i] = buf[i];
    }
    /* comments are not continued with '&': each line is a comment of its own */
    size_t col = (size_t)fprintf(out, "%s", head);
    for (size_t i = 0; i < n; ++i) {
        if (i > 0) {
            if (col + strlen(words[i]) + 2 > 96) {
                fprintf(out, ",\n    !     ");
                col = 10;
            } else {
                col += (size_t)fprintf(out, ", ");
            }
        }
        col += (size_t)fprintf(out, "%s", words[i]);
    }
    fprintf(out, ");\n");
}

static const char *fortran_real(const routine *r)
{
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; ++i)
        if (strcmp(reals[i].c, r->real) == 0) return reals[i].fortran;
    die("%s: KOBALT_T is '%s', which has no Fortran type; add it to `reals`", r->name, r->real);
    return NULL;
}

static void write_interfaces(FILE *out)
{
    const char *last_real = "";
    for (size_t r = 0; r < NROUTINES; ++r) {
        const routine *rt = &routines[r];
        const char *fname = rt->name;
        const char *real = fortran_real(rt);
        if (strcmp(rt->real, last_real) != 0)
            fprintf(out, "\n    ! ---- KOBALT_T = %s: %s ----\n", rt->real, real);
        last_real = rt->real;
        if (strlen(fname) > 63) die("%s: longer than Fortran's 63 characters", fname);
        param ps[MAX_PARAMS];
        size_t n = parse_params(rt->params, ps, real, fname);
        for (size_t i = 0; i < n; ++i)
            if (same_fortran_name(ps[i].name, "status"))
                die("%s: a parameter named 'status' clashes with the result name", fname);

        fputc('\n', out);
        write_prototype_comment(out, fname, ps, n, rt->real);
        const char *names[MAX_PARAMS];
        for (size_t i = 0; i < n; ++i) names[i] = ps[i].name;
        char head[128];
        snprintf(head, sizeof head, "    function %s(", fname);
        write_wrapped(out, head, names, n, ") &", "        ");
        fprintf(out, "        bind(C, name=\"%s\") result(status)\n", fname);
        int uses_desc = 0;
        for (size_t i = 0; i < n; ++i) uses_desc |= strstr(ps[i].ctype, "kobalt_matrix_desc") != NULL;
        fprintf(out, "      import :: c_int, c_int64_t, c_float, c_double, c_ptr%s\n",
                uses_desc ? ", kobalt_matrix_desc" : "");
        for (size_t i = 0; i < n; ++i)
            fprintf(out, "      %s :: %s%s\n", ps[i].fdecl, ps[i].name, ps[i].dim);
        fprintf(out, "      integer(c_int) :: status\n");
        fprintf(out, "    end function %s\n", fname);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s TEMPLATE KOBALT_H OUTPUT\n", program);
        return 2;
    }
    char *template = read_file(argv[1]);
    char *header = read_file(argv[2]);
    parse_enums(header, argv[2]);

    snprintf(tmp_path, sizeof tmp_path, "%s.tmp", argv[3]);
    FILE *out = fopen(tmp_path, "w");
    if (!out) die("cannot write %s", tmp_path);
    int seen[3] = {0, 0, 0};
    for (char *line = template; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (strncmp(line, "!@CONSTANTS@", 12) == 0) {
            write_constants(out);
            seen[0] = 1;
        } else if (strncmp(line, "!@PUBLIC@", 9) == 0) {
            write_public(out);
            seen[1] = 1;
        } else if (strncmp(line, "!@INTERFACES@", 13) == 0) {
            write_interfaces(out);
            seen[2] = 1;
        } else {
            fwrite(line, 1, len, out);
            fputc('\n', out);
        }
        line += len + (nl ? 1 : 0);
    }
    if (!seen[0] || !seen[1] || !seen[2])
        die("%s lacks one of the lines !@CONSTANTS@, !@PUBLIC@, !@INTERFACES@", argv[1]);
    if (fclose(out) != 0) die("cannot write %s", tmp_path);
    if (rename(tmp_path, argv[3]) != 0) die("cannot rename %s to %s", tmp_path, argv[3]);
    free(template);
    free(header);
    return 0;
}
