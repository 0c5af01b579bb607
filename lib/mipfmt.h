/*
 * libmipfmt: reading and writing MIP's files (raw profiles, map files,
 * indexed profiles). Shared by mipdata and the plugin's profile-use pass.
 * The on-disk layouts come from mip/layout/\*.inc; docs/formats.md
 * describes them.
 *
 * Errors: functions that can fail return 0 on success and -1 on failure,
 * with one line in err->msg that names the file and the problem.
 */
#ifndef MIPFMT_H
#define MIPFMT_H

#include <stddef.h>
#include <stdint.h>

#include "mip/format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The interface, by concern (lib/mipfmt/), in the order its declarations
 * build on each other. */
#include "mipfmt/file.h"
#include "mipfmt/map.h"
#include "mipfmt/mib.h"
#include "mipfmt/raw.h"
#include "mipfmt/profile.h"
#include "mipfmt/view.h"
#include "mipfmt/decide.h"

#ifdef __cplusplus
}
#endif

#endif
