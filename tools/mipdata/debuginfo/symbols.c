/*
 * The ELF symbol table, for code DWARF does not cover (a program built
 * without -g): the function symbol that holds an address, and for a
 * local one the source file its FILE symbol names.
 */
#include <stdlib.h>

#include "elf_image.h"
#include "index.h"

void symbols_read(struct debuginfo *di, struct elf_image *img) {
  size_t n;
  struct elf_function *symbols = elf_image_function_symbols(img, &n);
  di->symbols = mip_xcalloc(n ? n : 1, sizeof *di->symbols);
  for (size_t i = 0; i < n; i++)
    di->symbols[i] =
        (struct symbol){symbols[i].addr, symbols[i].size,
                        mip_intern(&di->interner, symbols[i].name),
                        mip_intern_path(&di->interner, symbols[i].file)};
  di->symbol_count = n;
  free(symbols);
}

const struct symbol *symbols_find(const struct debuginfo *di, uint64_t addr) {
  size_t at;
  UPPER_BOUND(di->symbols, di->symbol_count, addr, addr, at);
  if (!at)
    return NULL;
  const struct symbol *sym = &di->symbols[at - 1];
  return !sym->size || addr - sym->addr < sym->size ? sym : NULL;
}
