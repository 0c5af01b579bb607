"""host.py LIB: Python loads the heap library with ctypes and frees its
blocks through ctypes: free and realloc of the main program's handle
(ctypes.CDLL(None)) and of libc's. Prints the site lines host.c prints,
exits 3."""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
for name in ("lib_alloc", "lib_alloc_grow", "lib_alloc_keep"):
    getattr(lib, name).restype = ctypes.c_void_p
    getattr(lib, name).argtypes = [ctypes.c_size_t]
process = ctypes.CDLL(None)
libc = ctypes.CDLL("libc.so.6")
for handle in (process, libc):
    handle.free.argtypes = [ctypes.c_void_p]
    handle.realloc.restype = ctypes.c_void_p
    handle.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

truth = {"lib_alloc": [0, 0, 0], "lib_alloc_ptr": [0, 0, 0],
         "lib_alloc_grow": [0, 0, 0], "lib_alloc_keep": [0, 0, 0]}


def born(site, n):
    truth[site][0] += 1
    truth[site][1] += n
    truth[site][2] += 1


for i in range(40):
    p = lib.lib_alloc(100 + i)
    born("lib_alloc", 100 + i)
    (process if i % 2 else libc).free(p)
    truth["lib_alloc"][2] -= 1
for i in range(10):
    p = lib.lib_alloc_grow(16 + i)
    born("lib_alloc_grow", 16 + i)
    p = (libc if i % 2 else process).realloc(p, 3000 + i)
    truth["lib_alloc_grow"][2] -= 1
    process.free(p)
kept = [lib.lib_alloc_keep(48) for _ in range(3)]
for _ in kept:
    born("lib_alloc_keep", 48)
for site in ("lib_alloc", "lib_alloc_ptr", "lib_alloc_grow", "lib_alloc_keep"):
    print("site %s %d %d %d" % (site, *truth[site]))
sys.exit(3)
