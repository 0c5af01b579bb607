/*
 * Writes the raw profile: header, section table, then each counter section
 * verbatim (layouts in mip/layout/raw_*.inc). The bytes go to a temporary
 * file next to the target, which is renamed over it at the end, so a reader
 * sees either the old file or the whole new one, never a torn one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mip/io.h"
#include "mip/layouts.h"
#include "mip_rt.h"

static uint64_t align8(uint64_t v) { return (v + 7) & ~(uint64_t)7; }

static int write_header(int fd, const struct mip_rt_image *image,
                        const struct mip_rt_payload *sections, size_t count) {
  struct mip_rec_raw_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_RAW_MAGIC;
  h.version = MIP_RAW_VERSION;
  h.header_size = mip_rec_raw_header_size;
  h.section_count = (uint32_t)count;
  h.build_id_size = image->build_id_size;
  mip_copy_bytes(h.build_id, image->build_id, image->build_id_size);
  h.pid = (uint32_t)getpid();
  for (size_t i = 0; i < count; i++)
    if (sections[i].kind < 64)
      h.modes |= MIP_MODE_BIT(sections[i].kind);

  uint8_t buf[mip_rec_raw_header_size +
              MIP_RT_MAX_PAYLOADS * mip_rec_raw_section_size + 8];
  mip_rec_raw_header_encode(&h, buf);
  uint64_t at = mip_rec_raw_header_size;
  uint64_t offset = align8(at + count * mip_rec_raw_section_size);
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_raw_section s = {
        .kind = sections[i].kind,
        .elem_size = sections[i].elem_size,
        .link_addr = sections[i].link_addr,
        .size = sections[i].size,
        .offset = offset,
    };
    mip_rec_raw_section_encode(&s, buf + at);
    at += mip_rec_raw_section_size;
    offset = align8(offset + s.size);
  }
  while (at % 8)
    buf[at++] = 0;
  return mip_write_all(fd, buf, at);
}

static int write_payloads(int fd, const struct mip_rt_payload *sections,
                          size_t count) {
  static const uint8_t zeros[8];
  for (size_t i = 0; i < count; i++) {
    const struct mip_rt_payload *p = &sections[i];
    if (p->write ? p->write(fd, p) != 0
                 : mip_write_all(fd, p->data, p->size) != 0)
      return -1;
    uint64_t pad = align8(sections[i].size) - sections[i].size;
    if (pad && mip_write_all(fd, zeros, pad) != 0)
      return -1;
  }
  return 0;
}

/* Creates the directories leading to path, like mkdir -p. */
static void make_parents(const char *path) {
  char dir[MIP_RT_PATH_MAX];
  size_t n = mip_rt_append(dir, 0, sizeof dir, path);
  if (n >= sizeof dir)
    return;
  for (size_t i = 1; i < n; i++) {
    if (dir[i] != '/')
      continue;
    dir[i] = '\0';
    mkdir(dir, 0777);
    dir[i] = '/';
  }
}

/* The temporary file: "<path>.tmp.<tid>", which is "<path>.tmp.<pid>" in
 * the main thread and unique among all threads of all processes, so
 * concurrent writers never share one. A write that starts while another is
 * under way in this image (a signal handler interrupting one in the same
 * thread) adds ".<n>". */
static uint32_t writers, nested_writes;

static int open_temp(const char *path, char *temp, size_t size) {
  size_t n = mip_rt_append(temp, 0, size, path);
  n = mip_rt_append(temp, n, size, ".tmp.");
  n = mip_rt_append_u64(temp, n, size, (uint64_t)syscall(SYS_gettid));
  if (__atomic_load_n(&writers, __ATOMIC_RELAXED) > 1) {
    n = mip_rt_append(temp, n, size, ".");
    n = mip_rt_append_u64(
        temp, n, size,
        __atomic_add_fetch(&nested_writes, 1, __ATOMIC_RELAXED));
  }
  if (n >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENOENT) {
    make_parents(temp);
    fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  return fd;
}

static uint64_t file_size(const struct mip_rt_payload *sections,
                          size_t count) {
  uint64_t size =
      align8(mip_rec_raw_header_size + count * mip_rec_raw_section_size);
  for (size_t i = 0; i < count; i++)
    size += align8(sections[i].size);
  return size;
}

static int write_file(const char *path, const struct mip_rt_image *image,
                      const struct mip_rt_payload *sections, size_t count,
                      const char **why) {
  char temp[MIP_RT_PATH_MAX + 48];
  int fd = open_temp(path, temp, sizeof temp);
  if (fd < 0) {
    *why = strerrordesc_np(errno);
    return -1;
  }
  if (write_header(fd, image, sections, count) != 0 ||
      write_payloads(fd, sections, count) != 0) {
    *why = strerrordesc_np(errno ? errno : EIO);
    close(fd);
    unlink(temp);
    return -1;
  }
  if (close(fd) != 0 || rename(temp, path) != 0) {
    *why = strerrordesc_np(errno);
    unlink(temp);
    return -1;
  }
  return 0;
}

const struct mip_rt_payload_source *mip_rt_heap_payloads;

/* A stand-in for edges.c, which replaces it when linked. */
__attribute__((weak)) size_t mip_rt_edge_payloads(struct mip_rt_payload *out,
                                                  size_t max) {
  (void)out;
  (void)max;
  return 0;
}

static int write_raw(const char *path, const struct mip_rt_image *image,
                     uint64_t *size, const char **why) {
  struct mip_rt_payload sections[MIP_RT_MAX_PAYLOADS];
  size_t count = mip_rt_counter_payloads(image, sections, MIP_RT_MAX_PAYLOADS);
  count += mip_rt_edge_payloads(sections + count, MIP_RT_MAX_PAYLOADS - count);
  /* The heap payloads come from a snapshot they release afterwards. */
  const struct mip_rt_payload_source *heap = mip_rt_heap_payloads;
  if (heap)
    count = heap->add(sections, count, MIP_RT_MAX_PAYLOADS);
  int rc = write_file(path, image, sections, count, why);
  *size = file_size(sections, count);
  if (heap)
    heap->release(sections, count);
  return rc;
}

int mip_rt_write_raw_size(const char *path, const struct mip_rt_image *image,
                          uint64_t *size, const char **why) {
  __atomic_add_fetch(&writers, 1, __ATOMIC_RELAXED);
  int rc = write_raw(path, image, size, why);
  __atomic_sub_fetch(&writers, 1, __ATOMIC_RELAXED);
  return rc;
}

int mip_rt_write_raw(const char *path, const struct mip_rt_image *image,
                     const char **why) {
  uint64_t size;
  return mip_rt_write_raw_size(path, image, &size, why);
}
