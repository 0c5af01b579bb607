/*
 * Does a link need libmip_alloc.a? At -fmip-use the plugin rewrites the
 * allocation calls of cold and hot heap sites into hinted ones
 * (__mip_malloc_hint, ..., operator new with a __hot_cold_t), which that
 * library defines. An object that was compiled with such calls leaves
 * them undefined in its symbol table; this looks for one in the link's
 * ELF relocatable objects and in the members of its static archives.
 *
 * Only symbol tables are read (the files are mapped, so the pages of the
 * code and data sections are never touched), and the search stops at the
 * first reference. Anything that is not a regular, readable ELF
 * relocatable object or archive (a shared library, a linker script, a
 * missing file, a source, a corrupt file) is passed over without a word:
 * the linker reports what it cannot use, and nothing here may fail a build
 * the linker would accept.
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

bool is_hinted_name(const char *name) {
  size_t n = strlen(name);
  if (n > strlen(HINT_PREFIX) + strlen(HINT_SUFFIX) &&
      has_prefix(name, HINT_PREFIX) && has_suffix(name, HINT_SUFFIX))
    return true;
  return has_suffix(name, HOT_COLD_SUFFIX);
}

/* The first undefined symbol of elf's symbol table that names a hinted
 * function; NULL when there is none (or no symbol table, or it cannot be
 * read). The name points into elf's data. */
static const char *undefined_hint(Elf *elf) {
  for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn;
       scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB)
      continue;
    Elf_Scn *strscn = elf_getscn(elf, shdr.sh_link);
    Elf_Data *syms = elf_getdata(scn, NULL);
    Elf_Data *strs = strscn ? elf_getdata(strscn, NULL) : NULL;
    if (!shdr.sh_entsize || !syms || !strs || !strs->d_buf)
      return NULL;
    const char *names = strs->d_buf;
    size_t size = strs->d_size;
    size_t count = shdr.sh_size / shdr.sh_entsize;
    /* Symbol 0 is the null symbol. gelf_getsym checks the index against
     * the data it was given. */
    for (size_t i = 1; i < count; i++) {
      GElf_Sym sym;
      if (!gelf_getsym(syms, (int)i, &sym))
        break;
      if (sym.st_shndx != SHN_UNDEF || sym.st_name >= size)
        continue;
      const char *name = names + sym.st_name;
      /* Both spellings start with '_': most names stop here. */
      if (name[0] != '_')
        continue;
      size_t left = size - sym.st_name;
      if (strnlen(name, left) < left && is_hinted_name(name))
        return name;
    }
    return NULL; /* an object has one symbol table */
  }
  return NULL;
}

/* Every ELF member of the archive ar (whatever else it holds, such as
 * bitcode, is passed over), in order. */
static bool archive_refers(int fd, Elf *ar, struct hint_ref *ref) {
  Elf_Cmd cmd = ELF_C_READ_MMAP;
  Elf *member;
  while ((member = elf_begin(fd, cmd, ar)) != NULL) {
    const char *symbol =
        elf_kind(member) == ELF_K_ELF ? undefined_hint(member) : NULL;
    if (symbol) {
      Elf_Arhdr *hdr = elf_getarhdr(member);
      ref->member = xstrdup(hdr && hdr->ar_name ? hdr->ar_name : "?");
      ref->symbol = xstrdup(symbol);
      elf_end(member);
      return true;
    }
    cmd = elf_next(member);
    elf_end(member);
  }
  return false;
}

static bool is_relocatable(Elf *elf) {
  GElf_Ehdr ehdr;
  return gelf_getehdr(elf, &ehdr) && ehdr.e_type == ET_REL;
}

static bool file_refers(const char *path, struct hint_ref *ref) {
  /* O_NONBLOCK: a FIFO named as an input must not hang the driver (it is
   * then passed over as not a regular file). */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return false;
  bool found = false;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (elf && elf_kind(elf) == ELF_K_AR) {
      found = archive_refers(fd, elf, ref);
    } else if (elf && elf_kind(elf) == ELF_K_ELF && is_relocatable(elf)) {
      const char *symbol = undefined_hint(elf);
      if (symbol) {
        ref->member = NULL;
        ref->symbol = xstrdup(symbol);
        found = true;
      }
    }
    if (elf)
      elf_end(elf);
  }
  close(fd);
  if (found)
    ref->file = path;
  return found;
}

bool find_hint_ref(const struct strvec *files, struct hint_ref *ref) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return false; /* cannot happen with the libelf built against */
  for (size_t i = 0; i < files->n; i++)
    if (file_refers(files->v[i], ref))
      return true;
  return false;
}
