// Package htmltext extracts the visible text of an HTML page as a title and
// a list of paragraphs, and optionally only its main content.
//
// # Visible text
//
// [Extract] runs the golang.org/x/net/html tokenizer once over the page (no
// DOM is built, so broken HTML costs nothing extra) and keeps a stack of open
// elements. Text inside script, style, noscript, template, iframe, noembed,
// noframes, head (except the title) and elements marked hidden (the hidden
// attribute or an inline style "display:none") is dropped. Entities are
// decoded. A paragraph ends at every block-level element boundary (p, div,
// headings, list items, table cells and rows, section elements and so on) and
// at br and hr; inline elements (a, span, em, ...) join their text without a
// space, as a browser renders them. Runs of white space collapse to one
// space, except inside pre, where line breaks are kept and a blank line
// starts a new paragraph.
//
// # Main content
//
// Ellis Horowitz's lecture notes "Deduplication" (University of Southern
// California, 2011-2022) ask a near-duplicate detector to "ignore ads,
// navigation links and other elements that do not specifically relate to
// the contents of the web page" and to "focus on content blocks".
// With [Options.MainContent] set, Extract drops the text of blocks that are
// template rather than content, judged by block features:
//
//   - tags: nav, aside, footer, form, menu, dialog, and header unless it is
//     inside article or main;
//   - class and id names of block elements, split into parts at anything
//     that is not an ASCII letter or digit and lower-cased: a part that
//     contains nav, menu, sidebar, footer, breadcrumb, comment, advert,
//     banner, popular, sponsor, social, cookie or widget ("navheader",
//     "site-menu"), or that equals ad, ads, header, masthead, toolbar,
//     pager, pagination, versions, skip, share, sharing, promo, disqus,
//     related or relatedposts ("ad" but not "head", "related" but not
//     LibreOffice help's "relatedtopics", which is part of the article);
//     inline elements are not judged, so a code highlighter's
//     <span class="comment"> stays;
//   - ARIA roles navigation, banner, complementary, contentinfo and search
//     on block elements;
//   - link density: a paragraph of at least one link whose text is at least
//     two thirds link text and that lies in a list of at least three such
//     entries (a menu of links) is dropped, unless the page has a
//     table-of-contents container (class or id "toc"), whose entries are
//     part of the article in manuals.
//
// Name matching is a choice: the notes give no rule. The kind of rule
// follows Arc90's Readability and its port Mozilla Readability.js, which
// score blocks by class and id name patterns (their own lists differ), and
// the link-density feature follows Kohlschütter, Fankhauser and Nejdl,
// "Boilerplate Detection using Shallow Text Features" (WSDM 2010), whose
// boilerpipe classifies blocks by link density and text length. A page whose main content
// would be empty after the filter keeps its full visible text instead, so
// that a page of links is not reduced to nothing. Main-content mode only
// removes paragraphs: its paragraphs are always a subsequence of the full
// text's.
//
// Blocks that repeat across the pages of one site are the other signal the
// notes point at, and the one of template detection: Bar-Yossef and
// Rajagopalan, "Template Detection via Data Mining and its Applications"
// (WWW 2002), count the pagelets that recur across the pages of a site, and
// Yi, Liu and Li, "Eliminating Noisy Information in Web Pages for Data
// Mining" (KDD 2003), key each block by its path of tags and attributes in a
// site style tree, so that the same text in the article and in the sidebar
// are different blocks, as [Site] does. [Site] learns them from a site's pages, per host, per
// directory and per page skeleton, so that a template nobody wrote a rule
// for is still found: a manual's table of contents repeated on every page
// of the manual, a converter's header and colophon. It also lets an
// article's own list of links stay, which the link-density rule alone
// drops. [Boilerplate] is the simpler count of paragraphs over a whole
// host.
package htmltext
