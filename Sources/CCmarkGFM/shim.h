// cmark-gfm (GitHub's CommonMark parser) and its core extensions (tables). Only SheafCore
// imports this module, and only MarkdownBlocks.swift calls it: the parser decides the block
// structure of a note (code, HTML, paragraphs, table rows); Sheaf's own scanner reads the links.
#ifndef SHEAF_CCMARKGFM_SHIM_H
#define SHEAF_CCMARKGFM_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

/// The parser options Sheaf uses, as one value (the option macros are plain ints, but keeping
/// the choice here keeps it in one place): footnote definitions are containers, not link
/// reference definitions that would swallow their paragraph.
static inline int sheaf_cmark_options(void) {
    return CMARK_OPT_FOOTNOTES;
}
#endif
