import { createHash } from 'node:crypto';

/** The report's only style sheet, inline and allowed by its hash: the page needs nothing else. */
export const REPORT_CSS = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ddd;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.15em .5em;text-align:left;vertical-align:top}
td.n{text-align:right}.m{color:#777}.p{color:#16622c}.f{color:#a11}.u{color:#777}
#items{table-layout:fixed;width:100%}.w1{width:10%}.w2{width:22%}.w3{width:12%}.w4{width:36%}.w5{width:8%}.w6{width:7%}#items td,#items th{overflow-wrap:anywhere}#items td>:first-child{margin-top:0}#items h1,#items h2,#items h3{font-size:1.05em}
pre,code{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.9em}ul{margin:0;padding-left:1.1em}`;

/** The CSP source that allows exactly {@link REPORT_CSS}. */
export const REPORT_CSS_HASH = `'sha256-${createHash('sha256').update(REPORT_CSS).digest('base64')}'`;

/**
 * The report's Content-Security-Policy: nothing may load or run (no script, image, font, frame,
 * fetch or form target), only the one style sheet by its hash; links still open when clicked.
 */
export const REPORT_CSP = `default-src 'none'; style-src ${REPORT_CSS_HASH}; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`;
