/*
 * The flame graph page's sources (tools/mipdata/flame/), as strings: the
 * build generates their definitions (tools/build.mk, embed.sh) into the
 * build directory, so the page's script and styles are edited and
 * reviewed as the files they are.
 */
#ifndef MIPDATA_FLAME_ASSETS_H
#define MIPDATA_FLAME_ASSETS_H

extern const char flame_html[]; /* the page, with @TITLE@, @CSS@, @DATA@ and
                                   @JS@ where the rest goes */
extern const char flame_css[];
extern const char flame_js[];

#endif
