/*
 * free, realloc and reallocarray redirected where the process's free is
 * not MIP's (docs/heap.md, "Lifetimes and code MIP did not instrument").
 * Interposition is symbol lookup: the first definition of free in the
 * lookup order is everybody's. A heap library loaded with dlopen comes
 * after libc in it (the global scope is searched first), and a heap
 * library linked by an executable built without heap mode exports no
 * free: then every object calls libc's free, and the blocks that code MIP
 * did not instrument frees would die unseen.
 *
 * So the owner of the heap state, when the process's free is no
 * interposed free (heap_interpose.c's probe says), rewrites the GOT slots
 * through which the loaded objects call free, realloc and reallocarray or
 * take their address: the JUMP_SLOT, GLOB_DAT and absolute (R_X86_64_64,
 * R_AARCH64_ABS64: rt/arch/)
 * relocations naming them,
 * found through PT_DYNAMIC, in every object of the main namespace but the
 * dynamic loader and the vDSO, libc's own included (glibc calls free
 * through its PLT so that an interposed allocator sees every free). A slot
 * in RELRO pages is written between two mprotect calls, its page read-only
 * again after. A slot is rewritten only when it holds the process's
 * definition, or (JUMP_SLOT) the lazy-binding stub of its own PLT; one
 * bound elsewhere (the object's own free, the PLT stub of a non-PIE
 * executable that took free's address, which jumps through a slot
 * rewritten already) is left alone.
 *
 * Objects loaded later: the slots of dlopen and dlsym are redirected too,
 * and both look for new objects (dl_iterate_phdr's load count) before
 * doing their work. They cannot patch what dlopen loads once it returns:
 * glibc knows the caller of dlopen by its return address (whose RPATH,
 * RUNPATH, $ORIGIN and namespace apply to the load), so the redirected
 * dlopen jumps to the real one rather than calling it, and the objects it
 * loaded are patched at the next dlsym or dlopen, the way a caller reaches
 * their code. Only what their constructors free goes unseen. The owner's
 * own slots of dlopen and dlsym are redirected too (an executable's code
 * calls them); the runtime's lookups (RTLD_DEFAULT, RTLD_NEXT) go on to the
 * real dlsym unchanged.
 *
 * An object that another thread is still loading is left for later: its
 * relocation may not have reached the slot yet (a lazy JUMP_SLOT gets the
 * load address added to what it holds) and its RELRO pages are not
 * protected yet (the loader would fault after a patch made them
 * read-only). The loader protects an object's RELRO pages right after
 * relocating it, so RELRO pages that /proc/self/maps shows read-only mean
 * an object done, which can be told without waiting for the loader's
 * lock (a thread waiting for it inside this image would still be in it
 * when a dlclose that holds the lock unmaps it). An object without RELRO
 * pages is patched only from a constructor or the preinit entry
 * (trusted), where no other thread is loading one. A page that maps shows
 * read-only is made writable around the store, then read-only again.
 *
 * Every rewritten slot points into the process's trampolines (heap.h):
 * code in a page of its own, never unmapped, each entry a jump through a
 * word that holds the owner's function while the redirection is in
 * effect and the real function otherwise. So a pointer that escaped (read
 * from a slot, or what dlsym on a handle returns, which the redirected
 * dlsym turns into the trampoline) stays good after the owner's library
 * is unloaded: then the trampolines go back to the real functions and
 * every slot to what it held. dlsym(RTLD_DEFAULT) and dlsym(RTLD_NEXT)
 * answers are left as they are: they depend on the caller's scope, which a
 * call from here would change.
 *
 * Slots are written with one aligned 8-byte store: a thread calling
 * through one meanwhile takes the old function or the new. The lists are
 * in mmap'd memory; one thread at a time looks for new objects, the
 * others go on without waiting.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "heap.h"

uint32_t mip_rt_heap_patch = 1;

enum { FREE, REALLOC, REALLOCARRAY, DLOPEN, DLSYM, FUNCTIONS };
_Static_assert(FUNCTIONS == MIP_RT_HEAP_TRAMPOLINES, "trampoline entries");
static const char *const names[FUNCTIONS] = {"free", "realloc",
                                             "reallocarray", "dlopen", "dlsym"};

typedef void *(*dlopen_fn)(const char *, int);
typedef void *(*dlsym_fn)(void *, const char *);

#define PAGE 4096u
#define ENTRY 16u /* bytes of trampoline code per function */
#define MAX_OBJECTS 4096u
#define MAX_SLOTS 32768u
#define MAX_RANGES 16384u
#define MAX_TRIES 16u /* scans that find an object not loaded yet */
#define NONE UINT32_MAX

static uintptr_t target[FUNCTIONS]; /* the real functions */
static uintptr_t trampoline;        /* the process's trampolines */
static uint32_t active;             /* this image redirects */
static uint32_t scan_lock;
static const char *why_not = "free is not redirected";

/* ---- What is redirected ------------------------------------------------- */

struct object {
  uintptr_t base;
  const void *dynamic;
  const char *name;
  uint32_t patched; /* its slots are in the list */
  uint32_t tries;   /* scans that found it not ready */
  uint32_t seen;    /* by the scan under way (unloaded when not) */
  uint32_t moved;   /* its index after a compaction */
};

struct slot {
  uintptr_t *at;
  uintptr_t old;
  uint32_t object;
  uint32_t fn;
};

struct lists {
  uint32_t objects, slots, ranges;
  uint32_t ranges_complete; /* maps was read to its end */
  uint64_t adds, subs;      /* dl_iterate_phdr's counts at the last scan */
  uint32_t waiting;         /* objects found not ready by the last scan */
  uint32_t reserved;
  struct object object[MAX_OBJECTS];
  struct slot slot[MAX_SLOTS];
  struct mip_rt_heap_range range[MAX_RANGES]; /* read-only, from maps */
};
static struct lists *lists;

/* ---- ELF ---------------------------------------------------------------- */

/* The dynamic relocations: with addends (Rela) on x86-64 and AArch64,
 * without (Rel, the addend in the slot) on Armv7. */
#if UINTPTR_MAX == UINT32_MAX
#define R_TYPE ELF32_R_TYPE
#define R_SYM ELF32_R_SYM
#else
#define R_TYPE ELF64_R_TYPE
#define R_SYM ELF64_R_SYM
#endif
#if MIP_RT_ELF_REL
typedef ElfW(Rel) reloc;
#define RELOC_ADDEND(e) 0
#define DT_RELOC DT_REL
#define DT_RELOCSZ DT_RELSZ
#define DT_RELOCENT DT_RELENT
#else
typedef ElfW(Rela) reloc;
#define RELOC_ADDEND(e) ((e)->r_addend)
#define DT_RELOC DT_RELA
#define DT_RELOCSZ DT_RELASZ
#define DT_RELOCENT DT_RELAENT
#endif

/* What an object's PT_DYNAMIC says, addresses made absolute (glibc has
 * relocated them in place, but not those of the vDSO). */
struct dynamic {
  const ElfW(Sym) *symtab;
  const char *strtab;
  size_t strsz;
  const reloc *jmprel, *rela;
  size_t pltrelsz, relasz, relaent;
  int plt_rela; /* the PLT's relocations are of the same kind */
  const uint32_t *gnu_hash, *hash;
  const ElfW(Half) *versym;
  const char *soname;
};

struct view {
  const struct dl_phdr_info *info;
  const ElfW(Dyn) *dyn;
  uintptr_t relro_start, relro_end; /* the pages the loader protects */
  struct dynamic d;
};

static uintptr_t absolute(uintptr_t base, uintptr_t v) {
  return base && v < base ? base + v : v;
}

static int view_of(const struct dl_phdr_info *info, struct view *v) {
  *v = (struct view){.info = info};
  uintptr_t base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_DYNAMIC) {
      v->dyn = (const ElfW(Dyn) *)(base + ph->p_vaddr);
    } else if (ph->p_type == PT_GNU_RELRO) {
      v->relro_start = (base + ph->p_vaddr) & ~(uintptr_t)(PAGE - 1);
      v->relro_end =
          (base + ph->p_vaddr + ph->p_memsz) & ~(uintptr_t)(PAGE - 1);
    }
  }
  if (!v->dyn)
    return 0;
  struct dynamic *d = &v->d;
  size_t soname = 0;
  int has_soname = 0;
  d->relaent = sizeof(reloc);
  for (const ElfW(Dyn) *e = v->dyn; e->d_tag != DT_NULL; e++) {
    uintptr_t p = absolute(base, e->d_un.d_ptr);
    switch (e->d_tag) {
    case DT_SYMTAB: d->symtab = (const ElfW(Sym) *)p; break;
    case DT_STRTAB: d->strtab = (const char *)p; break;
    case DT_STRSZ: d->strsz = e->d_un.d_val; break;
    case DT_JMPREL: d->jmprel = (const reloc *)p; break;
    case DT_PLTRELSZ: d->pltrelsz = e->d_un.d_val; break;
    case DT_PLTREL: d->plt_rela = e->d_un.d_val == DT_RELOC; break;
    case DT_RELOC: d->rela = (const reloc *)p; break;
    case DT_RELOCSZ: d->relasz = e->d_un.d_val; break;
    case DT_RELOCENT: d->relaent = e->d_un.d_val; break;
    case DT_GNU_HASH: d->gnu_hash = (const uint32_t *)p; break;
    case DT_HASH: d->hash = (const uint32_t *)p; break;
    case DT_VERSYM: d->versym = (const ElfW(Half) *)p; break;
    case DT_SONAME: soname = e->d_un.d_val, has_soname = 1; break;
    }
  }
  if (!d->symtab || !d->strtab || d->relaent < sizeof(reloc))
    return 0;
  if (has_soname && soname < d->strsz)
    d->soname = d->strtab + soname;
  return 1;
}

static const char *symbol_name(const struct dynamic *d, uint32_t i) {
  uint32_t at = d->symtab[i].st_name;
  return at < d->strsz ? d->strtab + at : "";
}

/* Symbol i, if it defines name: at the address at (any version), or with
 * at 0 as the default version. */
static uintptr_t defined(const struct view *v, uint32_t i, const char *name,
                         uintptr_t at) {
  const ElfW(Sym) *s = &v->d.symtab[i];
  if (s->st_shndx == SHN_UNDEF || ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC ||
      !mip_rt_streq(symbol_name(&v->d, i), name))
    return 0;
  uintptr_t a = v->info->dlpi_addr + s->st_value;
  if (at ? a != at : v->d.versym && (v->d.versym[i] & 0x8000))
    return 0;
  return a;
}

/* The object's definition of name (see defined), through its hash table;
 * 0 when it has none. */
static uintptr_t find(const struct view *v, const char *name, uintptr_t at) {
  const struct dynamic *d = &v->d;
  uintptr_t a = 0;
  if (d->gnu_hash) {
    const uint32_t *ht = d->gnu_hash;
    uint32_t nbuckets = ht[0], first = ht[1], bloom_words = ht[2];
    const uint32_t *buckets =
        (const uint32_t *)((const ElfW(Addr) *)&ht[4] + bloom_words);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t h = 5381;
    for (const char *c = name; *c; c++)
      h = h * 33 + (uint8_t)*c;
    uint32_t i = nbuckets ? buckets[h % nbuckets] : 0;
    for (; i >= first && i; i++) {
      uint32_t h2 = chain[i - first];
      if ((h | 1) == (h2 | 1) && (a = defined(v, i, name, at)))
        return a;
      if (h2 & 1)
        break;
    }
  } else if (d->hash) {
    uint32_t nbucket = d->hash[0], nchain = d->hash[1], h = 0;
    const uint32_t *bucket = &d->hash[2], *chain = bucket + nbucket;
    for (const char *c = name; *c; c++) {
      h = (h << 4) + (uint8_t)*c;
      uint32_t g = h & 0xf0000000u;
      h = (h ^ (g >> 24)) & ~g;
    }
    for (uint32_t i = nbucket ? bucket[h % nbucket] : 0; i && i < nchain;
         i = chain[i])
      if ((a = defined(v, i, name, at)))
        return a;
  }
  return 0;
}

/* The dynamic loader and the vDSO are never patched. */
static int skipped(const struct view *v) {
  uintptr_t base = v->info->dlpi_addr;
  unsigned long vdso = getauxval(AT_SYSINFO_EHDR), loader = getauxval(AT_BASE);
  if ((vdso && base == vdso) || (loader && base == loader))
    return 1;
  const char *s = v->d.soname, *ld = "ld-linux";
  while (s && *ld && *s == *ld)
    s++, ld++;
  return s && !*ld;
}

/* The first object of the main namespace (the executable), from this
 * image's link map, which must be in it. */
static const struct link_map *main_chain;

/* Whether the object is in the main namespace (not one dlmopen made,
 * whose libc is another). Within dl_iterate_phdr, which keeps the list
 * from changing. */
static int in_main_namespace(const struct view *v) {
  for (const struct link_map *l = main_chain; l; l = l->l_next)
    if (l->l_addr == v->info->dlpi_addr && l->l_ld == v->dyn)
      return 1;
  return 0;
}

static int function_named(const char *s) {
  for (int fn = 0; fn < FUNCTIONS; fn++)
    if (*s == *names[fn] && mip_rt_streq(s, names[fn]))
      return fn;
  return -1;
}

/* ---- The definitions the process calls ---------------------------------- */

struct finding {
  const char *name;
  uintptr_t at;   /* dlsym's answer */
  int holder;     /* the object holding it was met */
  uintptr_t result;
};

static int find_definition(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct finding *f = arg;
  struct view v;
  if (!f->holder) {
    if (!mip_rt_object_has(info, f->at, 1))
      return 0;
    f->holder = 1;
    if (!view_of(info, &v) || find(&v, f->name, f->at))
      return 1; /* a definition: dlsym's answer stands */
    f->result = 0; /* a PLT stub: the definition is further on */
    return 0;
  }
  if (!view_of(info, &v) || skipped(&v))
    return 0;
  f->result = find(&v, f->name, 0);
  return f->result != 0;
}

uintptr_t mip_rt_heap_process_function(const char *name) {
  int saved = errno;
  uintptr_t at = (uintptr_t)dlsym(RTLD_DEFAULT, name);
  struct finding f = {name, at, 0, at};
  if (at)
    dl_iterate_phdr(find_definition, &f);
  errno = saved;
  return f.result;
}

static int exported(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct view v;
  const char *name = *(const char **)arg;
  if (!mip_rt_object_has(info, (uintptr_t)&exported, 1))
    return 0;
  *(const char **)arg = view_of(info, &v) && find(&v, name, 0) ? name : NULL;
  return 1;
}

int mip_rt_heap_exports(const char *name) {
  const char *found = name;
  return dl_iterate_phdr(exported, &found) && found;
}

static int holds(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  if (!mip_rt_object_has(info, (uintptr_t)&holds, 1))
    return 0;
  *(int *)arg = mip_rt_object_has(info, *(uintptr_t *)arg, 9);
  return 1;
}

int mip_rt_heap_jumps_to(uintptr_t at, uintptr_t to) {
  uintptr_t ask = at;
  if (!dl_iterate_phdr(holds, &ask) || !ask)
    return 0;
  return mip_rt_direct_jump((const uint8_t *)at) == to;
}

/* ---- Trampolines -------------------------------------------------------- */

static uint64_t *trampoline_word(int fn) {
  return (uint64_t *)(trampoline + PAGE) + fn;
}

/* The process's trampolines, made by the first image to redirect (each
 * going to the real function), shared through the header so that no
 * load and unload of a library adds a page. */
static uintptr_t trampolines(void) {
  struct mip_rt_heap_header *hd = MIP_RT_HEAP_HEADER;
  uint64_t t = __atomic_load_n(&hd->trampolines, __ATOMIC_ACQUIRE);
  if (t)
    return (uintptr_t)t;
  uint8_t *m = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return 0;
  uint64_t *words = (uint64_t *)(m + PAGE);
  for (uint32_t i = 0; i < PAGE; i++)
    m[i] = MIP_RT_TRAP_BYTE;
  for (int fn = 0; fn < FUNCTIONS; fn++) {
    mip_rt_trampoline_put(m + ENTRY * fn, &words[fn]);
    words[fn] = target[fn];
  }
  if (mprotect(m, PAGE, PROT_READ | PROT_EXEC) != 0) {
    munmap(m, 2 * PAGE);
    return 0;
  }
  uint64_t none = 0;
  if (!__atomic_compare_exchange_n(&hd->trampolines, &none, (uint64_t)m, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    munmap(m, 2 * PAGE);
    return (uintptr_t)none;
  }
  return (uintptr_t)m;
}

/* ---- Read-only pages ---------------------------------------------------- */

void mip_rt_heap_maps_feed(struct mip_rt_heap_maps *m, const char *text,
                           size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = text[i];
    if (c == '\n') {
      if (m->field >= 3 && !m->writable) {
        if (m->count < m->cap)
          m->ranges[m->count++] = (struct mip_rt_heap_range){m->start, m->end};
        else
          m->complete = 0;
      }
      m->start = m->end = 0, m->field = m->writable = 0;
    } else if (m->field < 2) {
      uintptr_t *v = m->field ? &m->end : &m->start;
      if (c >= '0' && c <= '9')
        *v = *v << 4 | (uintptr_t)(c - '0');
      else if (c >= 'a' && c <= 'f')
        *v = *v << 4 | (uintptr_t)(c - 'a' + 10);
      else
        m->field++; /* '-', then ' ' */
    } else if (m->field < 6) {
      /* The permissions, "rwxp": the second letter says writable. */
      if (m->field == 3)
        m->writable = c == 'w';
      m->field++;
    }
  }
}

/* The read-only ranges of the address space. */
static void read_ranges(void) {
  struct lists *l = lists;
  struct mip_rt_heap_maps m = {.ranges = l->range, .cap = MAX_RANGES,
                               .complete = 1};
  l->ranges = 0;
  l->ranges_complete = 0;
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  char buf[2048];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      m.complete = 0;
      break;
    }
    mip_rt_heap_maps_feed(&m, buf, (size_t)n);
  }
  close(fd);
  l->ranges = m.count;
  l->ranges_complete = m.complete;
}

static int read_only(uintptr_t a) {
  for (uint32_t i = 0; i < lists->ranges; i++)
    if (a >= lists->range[i].start && a < lists->range[i].end)
      return 1;
  return 0;
}

/* ---- Slots -------------------------------------------------------------- */

static int writable(const struct dl_phdr_info *info, uintptr_t a) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && a >= start &&
        a - start + 8 <= ph->p_memsz)
      return 1;
  }
  return 0;
}

/* One aligned store; a read-only page (RELRO, or so in maps) made
 * writable around it, then read-only again. */
static int store(const struct view *v, uintptr_t *at, uintptr_t value) {
  uintptr_t a = (uintptr_t)at;
  if ((a >= v->relro_start && a < v->relro_end) || read_only(a)) {
    void *page = (void *)(a & ~(uintptr_t)(PAGE - 1));
    if (mprotect(page, PAGE, PROT_READ | PROT_WRITE) != 0)
      return 0;
    __atomic_store_n(at, value, __ATOMIC_RELEASE);
    mprotect(page, PAGE, PROT_READ);
    return 1;
  }
  if (!writable(v->info, a))
    return 0;
  __atomic_store_n(at, value, __ATOMIC_RELEASE);
  return 1;
}

struct scan {
  int trusted;
  uint32_t waiting;     /* objects not ready */
  const char *unwritable; /* an object whose slot could not be written */
  uint32_t full;
};

/* A slot naming function fn: redirected when it holds the process's
 * definition, or the lazy-binding stub of the object's own PLT. */
static void redirect(struct scan *sc, const struct view *v, uint32_t object,
                     int fn, uint32_t type, uintptr_t *at) {
  uintptr_t now = __atomic_load_n(at, __ATOMIC_RELAXED);
  uintptr_t to = trampoline + ENTRY * fn + MIP_RT_THUMB_BIT;
  if (now == to)
    return;
  if (now != target[fn] &&
      !(type == MIP_RT_R_JUMP_SLOT && mip_rt_object_has(v->info, now, 1) &&
        !find(v, names[fn], now)))
    return;
  if (lists->slots == MAX_SLOTS) {
    sc->full = 1;
    return;
  }
  if (!store(v, at, to)) {
    sc->unwritable = v->info->dlpi_name;
    return;
  }
  lists->slot[lists->slots++] = (struct slot){at, now, object, (uint32_t)fn};
}

static void redirect_all(struct scan *sc, const struct view *v,
                         uint32_t object, const reloc *r, size_t bytes) {
  const struct dynamic *d = &v->d;
  for (size_t k = 0; r && k + d->relaent <= bytes; k += d->relaent) {
    const reloc *e = (const reloc *)((const char *)r + k);
    uint32_t type = R_TYPE(e->r_info), sym = R_SYM(e->r_info);
    /* (Rel: an absolute slot's addend is in it, and the slot is taken
     * only if it holds the function's address: redirect.) */
    if (!sym || (type != MIP_RT_R_JUMP_SLOT && type != MIP_RT_R_GLOB_DAT &&
                 (type != MIP_RT_R_ABS64 || RELOC_ADDEND(e))))
      continue;
    /* This image's too: its own code may call dlopen and dlsym (an
     * executable's), and the runtime's lookups (RTLD_DEFAULT, RTLD_NEXT)
     * go to the real dlsym, from their real caller, all the same. */
    int fn = function_named(symbol_name(d, sym));
    if (fn < 0 || !target[fn])
      continue;
    uintptr_t a = v->info->dlpi_addr + e->r_offset;
    if (!(a & (sizeof(uintptr_t) - 1)) &&
        mip_rt_object_has(v->info, a, sizeof(uintptr_t)))
      redirect(sc, v, object, fn, type, (uintptr_t *)a);
  }
}

/* ---- Scans -------------------------------------------------------------- */

/* Whether the loader is done with the object (see the top). */
static int ready(const struct scan *sc, const struct view *v) {
  if (v->relro_start == v->relro_end || !lists->ranges_complete)
    return sc->trusted;
  return read_only(v->relro_start);
}

static uint32_t known(const struct view *v) {
  for (uint32_t i = 0; i < lists->objects; i++) {
    const struct object *o = &lists->object[i];
    if (o->base == v->info->dlpi_addr && o->dynamic == v->dyn &&
        o->name == v->info->dlpi_name)
      return i;
  }
  return NONE;
}

static int scan_object(struct dl_phdr_info *info, size_t size, void *arg) {
  struct scan *sc = arg;
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    lists->adds = info->dlpi_adds, lists->subs = info->dlpi_subs;
  struct view v;
  if (!view_of(info, &v) || skipped(&v) || !in_main_namespace(&v))
    return 0;
  uint32_t i = known(&v);
  if (i == NONE) {
    if (lists->objects == MAX_OBJECTS) {
      sc->full = 1;
      return 0;
    }
    i = lists->objects++;
    lists->object[i] = (struct object){info->dlpi_addr, v.dyn,
                                       info->dlpi_name, 0, 0, 0, 0};
  }
  struct object *o = &lists->object[i];
  o->seen = 1;
  if (o->patched || o->tries >= MAX_TRIES)
    return 0;
  if (!ready(sc, &v)) {
    if (++o->tries < MAX_TRIES)
      sc->waiting++;
    return 0;
  }
  if (v.d.plt_rela)
    redirect_all(sc, &v, i, v.d.jmprel, v.d.pltrelsz);
  redirect_all(sc, &v, i, v.d.rela, v.d.relasz);
  o->patched = 1;
  return 0;
}

/* Objects no longer loaded leave the lists, with their slots. */
static void forget_unloaded(void) {
  struct lists *l = lists;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < l->objects; i++)
    l->object[i].moved = l->object[i].seen ? kept++ : NONE;
  uint32_t slots = 0;
  for (uint32_t s = 0; s < l->slots; s++) {
    uint32_t to = l->object[l->slot[s].object].moved;
    if (to != NONE) {
      l->slot[slots] = l->slot[s];
      l->slot[slots++].object = to;
    }
  }
  for (uint32_t i = 0; i < l->objects; i++) {
    if (l->object[i].moved != NONE) {
      l->object[l->object[i].moved] = l->object[i];
      l->object[l->object[i].moved].seen = 0;
    }
  }
  l->objects = kept;
  l->slots = slots;
}

static void report_once(uint32_t *done, const char *a, const char *b,
                        const char *c) {
  if (!__atomic_exchange_n(done, 1, __ATOMIC_RELAXED))
    mip_rt_report(a, b, c);
}

/* Under scan_lock, while active. */
static void scan(int trusted) {
  static uint32_t told_unwritable, told_full;
  struct scan sc = {.trusted = trusted};
  read_ranges();
  dl_iterate_phdr(scan_object, &sc);
  forget_unloaded();
  lists->waiting = sc.waiting;
  if (sc.unwritable)
    report_once(&told_unwritable, "heap profiling cannot redirect free in '",
                *sc.unwritable ? sc.unwritable : "the executable",
                "' (a GOT slot cannot be written): its frees go unseen");
  if (sc.full)
    report_once(&told_full, "heap profiling redirects free in at most 4096 "
                "objects and 32768 slots: ",
                "frees in the others go unseen", "");
}

static int counts(struct dl_phdr_info *info, size_t size, void *arg) {
  uint64_t *c = arg;
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
    c[0] = info->dlpi_adds, c[1] = info->dlpi_subs;
  return 1;
}

/* Before dlopen and dlsym: objects loaded or unloaded since the last
 * scan, or not ready then, are looked at (unless another thread is at
 * it). errno kept. */
static void refresh(void) {
  if (!__atomic_load_n(&active, __ATOMIC_ACQUIRE))
    return;
  int saved = errno;
  uint64_t c[2] = {0, 0};
  dl_iterate_phdr(counts, c);
  if (!__atomic_exchange_n(&scan_lock, 1, __ATOMIC_ACQUIRE)) {
    if (__atomic_load_n(&active, __ATOMIC_ACQUIRE) &&
        (c[0] != lists->adds || c[1] != lists->subs || lists->waiting))
      scan(0);
    mip_rt_heap_unlock(&scan_lock);
  }
  errno = saved;
}

/* ---- dlopen and dlsym --------------------------------------------------- */

/* Jumps to the real dlopen, so that it sees its caller's return address. */
static void *got_dlopen(const char *file, int mode) {
  refresh();
  __attribute__((musttail)) return ((dlopen_fn)target[DLOPEN])(file, mode);
}

/* free, realloc or reallocarray looked up in a handle (whatever the
 * caller, the handle's scope decides) come back as their trampolines;
 * everything else as dlsym says, the real dlsym seeing the caller. */
static void *got_dlsym(void *handle, const char *name) {
  refresh();
  int fn = handle != RTLD_DEFAULT && handle != RTLD_NEXT && name
               ? function_named(name)
               : -1;
  if (fn < 0 || fn >= DLOPEN) {
    __attribute__((musttail)) return ((dlsym_fn)target[DLSYM])(handle, name);
  }
  void *r = ((dlsym_fn)target[DLSYM])(handle, name);
  if (r && (uintptr_t)r == target[fn] &&
      __atomic_load_n(&active, __ATOMIC_ACQUIRE))
    r = (void *)(trampoline + ENTRY * fn + MIP_RT_THUMB_BIT);
  return r;
}

/* ---- Start and stop ----------------------------------------------------- */

static int chain_head(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  const struct link_map *l = arg;
  while (l->l_prev)
    l = l->l_prev;
  main_chain = l;
  return 1;
}

/* Whether this image is in the main namespace; main_chain then. */
static int find_main_chain(void) {
  Dl_info info;
  struct link_map *self = NULL;
  Lmid_t id = -1;
  if (!dladdr1((void *)&find_main_chain, &info, (void **)&self,
               RTLD_DL_LINKMAP) ||
      !self || dlinfo(self, RTLD_DI_LMID, &id) != 0 || id != LM_ID_BASE)
    return 0;
  dl_iterate_phdr(chain_head, self);
  return main_chain != NULL;
}

/* NULL when the redirection is in effect, else why not. */
static const char *start(int trusted) {
  if (!mip_rt_heap_patch)
    return "heap_patch=0 in MIP_OPTIONS";
  uintptr_t t[3];
  if (!mip_rt_heap_interpose_targets(t) || !t[FREE] || !t[REALLOC])
    return "free and realloc were not found";
  target[FREE] = t[FREE];
  target[REALLOC] = t[REALLOC];
  target[REALLOCARRAY] = t[REALLOCARRAY];
  target[DLOPEN] = mip_rt_heap_process_function("dlopen");
  target[DLSYM] = mip_rt_heap_process_function("dlsym");
  if (!find_main_chain())
    return "the library is not in the main namespace (dlmopen)";
  if (!lists && !(lists = mip_rt_heap_map(sizeof *lists)))
    return "no memory for its lists";
  trampoline = trampolines();
  if (!trampoline)
    return "no executable memory for its trampolines";
  const uintptr_t ours[FUNCTIONS] = {
      (uintptr_t)__mip_heap_interposed_free,
      (uintptr_t)__mip_heap_interposed_realloc,
      (uintptr_t)__mip_heap_interposed_reallocarray, (uintptr_t)got_dlopen,
      (uintptr_t)got_dlsym};
  for (int fn = 0; fn < FUNCTIONS; fn++)
    if (target[fn])
      __atomic_store_n(trampoline_word(fn), ours[fn], __ATOMIC_RELEASE);
  mip_rt_heap_lock(&scan_lock);
  __atomic_store_n(&active, 1, __ATOMIC_RELEASE);
  scan(trusted);
  mip_rt_heap_unlock(&scan_lock);
  return NULL;
}

void mip_rt_heap_got_start(int trusted) {
  if (mip_rt_heap_process_free_is_mip() ||
      __atomic_load_n(&active, __ATOMIC_ACQUIRE))
    return;
  int saved = errno;
  const char *why = start(trusted);
  if (why)
    why_not = why;
  errno = saved;
}

static int restore_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  struct view v;
  uint32_t i;
  if (!view_of(info, &v) || (i = known(&v)) == NONE)
    return 0;
  for (uint32_t s = 0; s < lists->slots; s++) {
    const struct slot *sl = &lists->slot[s];
    uintptr_t ours = trampoline + ENTRY * sl->fn + MIP_RT_THUMB_BIT;
    if (sl->object == i && __atomic_load_n(sl->at, __ATOMIC_RELAXED) == ours)
      store(&v, sl->at, sl->old);
  }
  return 0;
}

void mip_rt_heap_got_stop(void) {
  if (!__atomic_exchange_n(&active, 0, __ATOMIC_SEQ_CST))
    return;
  int saved = errno;
  why_not = "the library that redirected free was unloaded";
  /* First what makes every slot safe: the trampolines to the real
   * functions. */
  for (int fn = 0; fn < FUNCTIONS; fn++)
    if (target[fn])
      __atomic_store_n(trampoline_word(fn), target[fn], __ATOMIC_RELEASE);
  /* Then the slots, unless a scan holds the lists (it never waits for
   * the loader's lock, which the dlclose that brings us here holds; but
   * one a fork interrupted holds them forever in the child). */
  if (mip_rt_heap_try_lock_for(&scan_lock, 4096)) {
    read_ranges();
    dl_iterate_phdr(restore_object, NULL);
    munmap(lists, sizeof *lists);
    lists = NULL;
    mip_rt_heap_unlock(&scan_lock);
  }
  errno = saved;
}

int mip_rt_heap_frees_seen(const char **why) {
  if (mip_rt_heap_process_free_is_mip() ||
      __atomic_load_n(&active, __ATOMIC_ACQUIRE))
    return 1;
  *why = why_not;
  return 0;
}
