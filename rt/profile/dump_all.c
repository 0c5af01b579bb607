/*
 * mip_dump(), the one public entry point (declared in mip/mip.h): every
 * image's profile written at once. It reaches the other images' runtimes
 * through their notes (note.c), so it works from any copy, whichever
 * image the caller is in. Everything here may run in a signal handler: no
 * stdio, no malloc.
 *
 * A member of libmip_rt.a of its own, linked only into an image that asks
 * for it: an instrumented object that refers to mip_dump also refers to
 * MIP_RT_DUMP_SYMBOL (include/mip/link.h), and the heap runtime uses the
 * list of objects below. An image without it still has its note and
 * descriptor (note.c), so another image's mip_dump writes its profile.
 *
 * The loaded objects, for the writers: mip_dump() finds every image's
 * runtime through them, heap profiles record their segments.
 *
 * dl_iterate_phdr takes the dynamic loader's lock. A child forked while
 * another thread of its parent held that lock (an unwinder, a profiler, a
 * dlopen in progress) inherits it held by a thread it does not have: any
 * dl_iterate_phdr in the child waits forever, and the child would hang at
 * exit, writing its profile. Nor may the parent take the lock to prepare
 * for the child: a fork that waits for the loader's lock can wait for as
 * long as another thread keeps taking it, which a plain fork never does.
 * So a forked child reads the loader's list for debuggers (_r_debug)
 * instead, with no lock: it has one thread, nothing changes the list
 * under it. Each object's program headers are found from the kernel's
 * (the executable's) or from its ELF header in memory, and kept only if
 * they locate the object's own dynamic section.
 */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <sys/auxv.h>

#include "mip/link.h"
#include "sys.h"

/* What an instrumented object that calls mip_dump refers to. */
MIP_RT_HIDDEN const char mip_rt_dump_anchor __asm__(MIP_RT_DUMP_SYMBOL) = 1;

/* Whether the program headers at phdr, loaded at bias, are those of the
 * object whose dynamic section is at dynamic (none: a static executable). */
static int headers_match(const ElfW(Phdr) *phdr, size_t count,
                         uintptr_t bias, const void *dynamic) {
  for (size_t i = 0; i < count; i++)
    if (phdr[i].p_type == PT_DYNAMIC)
      return bias + phdr[i].p_vaddr == (uintptr_t)dynamic;
  return dynamic == NULL;
}

/* Whether the page at p is mapped (mincore fails with ENOMEM if not):
 * a header is read only where there is one to read. */
static int page_mapped(uintptr_t p) {
  unsigned char resident;
  return p && (p & 4095) == 0 &&
         mip_rt_syscall3(SYS_mincore, (long)p, 1, (long)&resident) == 0;
}

/* The object as dl_iterate_phdr would report it (no load counts, no TLS):
 * 1, or 0 if its headers cannot be found. */
static int object_of(const struct link_map *map, struct dl_phdr_info *info) {
  *info = (struct dl_phdr_info){.dlpi_addr = map->l_addr,
                                .dlpi_name = map->l_name};
  const ElfW(Phdr) *phdr = (const void *)getauxval(AT_PHDR);
  size_t count = getauxval(AT_PHNUM);
  if (!phdr || !headers_match(phdr, count, map->l_addr, map->l_ld)) {
    /* A library: its first segment maps its ELF header at its bias. */
    const ElfW(Ehdr) *elf = (const void *)map->l_addr;
    if (!page_mapped(map->l_addr) || elf->e_ident[EI_MAG0] != ELFMAG0 ||
        elf->e_ident[EI_MAG1] != ELFMAG1 || elf->e_ident[EI_MAG2] != ELFMAG2 ||
        elf->e_ident[EI_MAG3] != ELFMAG3 ||
        elf->e_phentsize != sizeof(ElfW(Phdr)) ||
        elf->e_phoff + (uint64_t)elf->e_phnum * sizeof(ElfW(Phdr)) > 4096)
      return 0; /* the headers within the page found mapped */
    phdr = (const void *)(map->l_addr + elf->e_phoff);
    count = elf->e_phnum;
    if (!headers_match(phdr, count, map->l_addr, map->l_ld))
      return 0;
  }
  info->dlpi_phdr = phdr;
  info->dlpi_phnum = (ElfW(Half))count;
  return 1;
}

/* The loader's list, namespace by namespace (r_next from version 2). */
static int each_listed_object(mip_rt_object_fn fn, void *arg) {
  for (const struct r_debug_extended *ns = (const void *)&_r_debug; ns;
       ns = ns->base.r_version >= 2 ? ns->r_next : NULL)
    for (const struct link_map *map = ns->base.r_map; map; map = map->l_next) {
      struct dl_phdr_info info;
      if (!object_of(map, &info))
        continue;
      int rc = fn(&info, sizeof info, arg);
      if (rc)
        return rc;
    }
  return 0;
}

int mip_rt_each_object(mip_rt_object_fn fn, void *arg) {
  return mip_rt_forked() ? each_listed_object(fn, arg)
                         : dl_iterate_phdr(fn, arg);
}

/* The runtimes of the loaded images, gathered first: each dump runs with
 * the loader's lock released (a heap dump waits for table locks, whose
 * holders may themselves wait for the loader's lock, in a signal handler
 * that dumps). Up to DUMP_BATCH at a time, from object index from on. */
#define DUMP_BATCH 32

struct gather {
  struct mip_rt_descriptor found[DUMP_BATCH];
  size_t count;
  size_t from, index; /* objects to skip, objects seen */
};

static int gather_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct gather *g = arg;
  if (g->index++ < g->from)
    return 0;
  if (mip_rt_find_descriptor(info, &g->found[g->count]))
    g->count++;
  return g->count == DUMP_BATCH; /* full: the rest next time */
}

/* Default visibility: the one symbol the runtime exports. Any image's copy
 * will do, since each writes every image's profile. */
__attribute__((visibility("default"))) int mip_dump(void);

/* Set while a mip_dump() of this copy is under way. A second call meanwhile,
 * from another thread or from a signal handler that interrupted the first,
 * returns at once: the dump under way writes the same files, and dumps
 * that queued up behind each other (a timer that fires faster than a dump
 * takes on a loaded machine) would leave the program no time to run. */
static int dumping;

int mip_dump(void) {
  if (__atomic_exchange_n(&dumping, 1, __ATOMIC_ACQUIRE))
    return -1;
  int saved = errno;
  int rc = 0;
  for (size_t from = 0;;) {
    struct gather g = {.from = from};
    int more = mip_rt_each_object(gather_object, &g);
    for (size_t i = 0; i < g.count; i++)
      if (g.found[i].dump() != 0)
        rc = -1;
    if (!more)
      break;
    from = g.index;
  }
  errno = saved;
  __atomic_store_n(&dumping, 0, __ATOMIC_RELEASE);
  return rc;
}
