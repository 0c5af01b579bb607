/*
 * What a link's objects need, whatever its command line says:
 *
 *   the runtime      an instrumented object: it has a counter section
 *                    (__mip_cov: every instrumented function has a
 *                    coverage byte), whichever plugin version built it
 *   the interposer   an object built with heap mode: it leaves a
 *                    __mip_heap_* symbol undefined (the heap hooks, the
 *                    heap link symbol of include/mip/link.h, or an older
 *                    plugin's interposed free)
 *   its own runtime  an object built with order or edges mode: it leaves
 *                    __mip_first_call or __mip_edge_sample undefined,
 *                    which only a runtime linked into the image defines
 *                    (no -fmip-shared-runtime)
 *   libmip_alloc.a   a hinted allocation call, which a rebuild with
 *                    -fmip-use writes at cold and hot heap sites
 *                    (__mip_malloc_hint, ..., operator new with a
 *                    __hot_cold_t): the object leaves it undefined
 *
 * The link's ELF relocatable objects and the members of its static
 * archives are looked at in order, and the search stops as soon as each
 * need asked for is found. Only section headers and symbol tables are read
 * (the files are mapped, so the pages of code and data are never
 * touched): section names first, then, in an object that has counters or
 * when hinted calls are looked for, the undefined symbols, which come
 * after the local ones (the counters' among them) in a symbol table.
 * Anything that is not a regular, readable ELF relocatable object or
 * archive (a shared library, a linker script, a missing file, a source,
 * a corrupt file) is passed over without a word: the linker reports what
 * it cannot use, and nothing here may fail a build the linker would
 * accept.
 */
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mipcc.h"

#define HINT_PREFIX "__mip_"
#define HINT_SUFFIX "_hint"
#define HOT_COLD_SUFFIX "12__hot_cold_t" /* the mangled __hot_cold_t */
#define HEAP_PREFIX "__mip_heap_"
/* What order and edges code calls (rt/profile/order.c, edges.c). */
#define FIRST_CALL "__mip_first_call"
#define EDGE_SAMPLE "__mip_edge_sample"
#define COUNTER_SECTION "__mip_cov"

bool is_hinted_name(const char *name) {
  size_t n = strlen(name);
  if (n > strlen(HINT_PREFIX) + strlen(HINT_SUFFIX) &&
      has_prefix(name, HINT_PREFIX) && has_suffix(name, HINT_SUFFIX))
    return true;
  return has_suffix(name, HOT_COLD_SUFFIX);
}

/* What one object needs, of what is looked for. symbol[k]: the name that
 * says so (pointing into the object's data), NULL for the counters. */
struct object_needs {
  unsigned found;
  const char *symbol[NEEDS];
};

static int bit_index(unsigned need) { return __builtin_ctz(need); }

const struct need_at *need_at(const struct link_scan *scan, enum need need) {
  return &scan->at[bit_index(need)];
}

static void found(struct object_needs *o, unsigned need, const char *symbol) {
  o->found |= need;
  o->symbol[bit_index(need)] = symbol;
}

/* The object's symbol table section and whether it has counters. */
static Elf_Scn *read_sections(Elf *elf, bool *counters) {
  size_t names;
  Elf_Scn *symtab = NULL;
  *counters = false;
  if (elf_getshdrstrndx(elf, &names) != 0)
    return NULL;
  for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn;
       scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr))
      continue;
    if (shdr.sh_type == SHT_SYMTAB && !symtab)
      symtab = scn;
    const char *name = elf_strptr(elf, names, shdr.sh_name);
    if (name && strcmp(name, COUNTER_SECTION) == 0)
      *counters = true;
  }
  return symtab;
}

/* Looks for the needs in look among the undefined global symbols. */
static void read_symbols(Elf *elf, Elf_Scn *scn, unsigned look,
                         struct object_needs *o) {
  GElf_Shdr shdr;
  if (!gelf_getshdr(scn, &shdr))
    return;
  Elf_Scn *strscn = elf_getscn(elf, shdr.sh_link);
  Elf_Data *syms = elf_getdata(scn, NULL);
  Elf_Data *strs = strscn ? elf_getdata(strscn, NULL) : NULL;
  if (!shdr.sh_entsize || !syms || !strs || !strs->d_buf)
    return;
  const char *names = strs->d_buf;
  size_t size = strs->d_size;
  size_t count = shdr.sh_size / shdr.sh_entsize;
  /* sh_info: the first global symbol; the locals before it are never
   * undefined. gelf_getsym checks the index against the data it was
   * given. */
  for (size_t i = shdr.sh_info ? shdr.sh_info : 1; i < count && look; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(syms, (int)i, &sym))
      break;
    if (sym.st_shndx != SHN_UNDEF || sym.st_name >= size)
      continue;
    const char *name = names + sym.st_name;
    /* Every name looked for starts with '_': most names stop here. */
    size_t left = size - sym.st_name;
    if (name[0] != '_' || strnlen(name, left) == left)
      continue;
    if ((look & NEED_HEAP) && has_prefix(name, HEAP_PREFIX)) {
      found(o, NEED_HEAP, name);
      look &= ~NEED_HEAP;
    } else if ((look & NEED_OWN_STATE) && (strcmp(name, FIRST_CALL) == 0 ||
                                           strcmp(name, EDGE_SAMPLE) == 0)) {
      found(o, NEED_OWN_STATE, name);
      look &= ~NEED_OWN_STATE;
    } else if ((look & NEED_HINT) && is_hinted_name(name)) {
      found(o, NEED_HINT, name);
      look &= ~NEED_HINT;
    }
  }
}

static struct object_needs scan_object(Elf *elf, unsigned look) {
  struct object_needs o = {0};
  GElf_Ehdr ehdr;
  if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr) ||
      ehdr.e_type != ET_REL)
    return o;
  bool counters;
  Elf_Scn *symtab = read_sections(elf, &counters);
  if (counters && (look & NEED_RUNTIME))
    found(&o, NEED_RUNTIME, NULL);
  /* Heap code is instrumented code: without counters, only a hinted call
   * is still worth the walk. */
  look &= counters ? NEED_HEAP | NEED_OWN_STATE | NEED_HINT : NEED_HINT;
  if (symtab && look)
    read_symbols(elf, symtab, look, &o);
  return o;
}

/* Records what the object (file, or member of archive file) newly
 * contributes. */
static void take(struct link_scan *out, const struct object_needs *o,
                 const char *file, const char *member) {
  for (int k = 0; k < NEEDS; k++) {
    unsigned need = 1u << k;
    if (!(o->found & need) || (out->found & need))
      continue;
    out->found |= need;
    out->at[k] = (struct need_at){file, member ? xstrdup(member) : NULL,
                                  o->symbol[k] ? xstrdup(o->symbol[k]) : NULL};
  }
}

/* Every ELF member of the archive ar (whatever else it holds, such as
 * bitcode, is passed over), in order, until all that is wanted is found. */
static void scan_archive(int fd, Elf *ar, const char *file, unsigned wanted,
                         struct link_scan *out) {
  Elf_Cmd cmd = ELF_C_READ_MMAP;
  Elf *member;
  while ((out->found & wanted) != wanted &&
         (member = elf_begin(fd, cmd, ar)) != NULL) {
    struct object_needs o = scan_object(member, wanted & ~out->found);
    if (o.found) {
      Elf_Arhdr *hdr = elf_getarhdr(member);
      take(out, &o, file, hdr && hdr->ar_name ? hdr->ar_name : "?");
    }
    cmd = elf_next(member);
    elf_end(member);
  }
}

static void scan_file(const char *path, unsigned wanted,
                      struct link_scan *out) {
  /* O_NONBLOCK: a FIFO named as an input must not hang the driver (it is
   * then passed over as not a regular file). */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (elf && elf_kind(elf) == ELF_K_AR) {
      scan_archive(fd, elf, path, wanted, out);
    } else if (elf) {
      struct object_needs o = scan_object(elf, wanted & ~out->found);
      take(out, &o, path, NULL);
    }
    if (elf)
      elf_end(elf);
  }
  close(fd);
}

void scan_link(const struct strvec *files, unsigned wanted,
               struct link_scan *out) {
  memset(out, 0, sizeof *out);
  if (!wanted || elf_version(EV_CURRENT) == EV_NONE)
    return; /* (cannot happen with the libelf built against) */
  for (size_t i = 0; i < files->n && (out->found & wanted) != wanted; i++)
    scan_file(files->v[i], wanted, out);
}
