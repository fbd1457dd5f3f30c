import MarkdownIt from 'markdown-it';

/** Link schemes a rendered answer may carry: anything else (javascript:, data:, vbscript:…) is not a link. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/** Whether a link target may be rendered: http(s) and mailto only (no relative or scheme-less tricks). */
export function isSafeLink(url: string): boolean {
  return SAFE_LINK.test(url.trim());
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.validateLink = isSafeLink;
// Pictures from elsewhere are not fetched (the page's CSP would refuse them anyway): shown as their alt text and address.
md.disable('image');
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const t = tokens[idx]!;
  t.attrSet('rel', 'noopener noreferrer nofollow');
  t.attrSet('target', '_blank');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/**
 * Renders untrusted Markdown (an answer, a report file) to HTML that is safe to insert in
 * the page: raw HTML is escaped as text, links are http(s)/mailto only, no images.
 */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
