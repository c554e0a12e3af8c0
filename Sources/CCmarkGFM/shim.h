// cmark-gfm (GitHub's CommonMark parser) and its core extensions (tables). Only SheafCore
// imports this module: MarkdownBlocks.swift, where the parser decides the block structure of a
// note (code, HTML, paragraphs, table rows) and Sheaf's own scanner reads the links, and
// MarkdownHTML.swift, which renders a note for `sheaf serve`.
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

/// The options of the HTML a web view shows: safe mode (raw HTML left out, dangerous link
/// schemes emptied; cmark-gfm's default, named here so that it stays the choice), footnotes as
/// in `sheaf_cmark_options`, and bytes that are not UTF-8 replaced.
static inline int sheaf_cmark_html_options(void) {
    return CMARK_OPT_FOOTNOTES | CMARK_OPT_SAFE | CMARK_OPT_VALIDATE_UTF8;
}
#endif
