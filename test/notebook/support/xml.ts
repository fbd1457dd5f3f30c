/** One parsed XML element. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*$/;
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function checkText(s: string, where: number): void {
  if (s.includes('<')) throw new Error(`stray "<" at ${where}`);
  if (s.replace(ENTITY, '').includes('&')) throw new Error(`bad entity near ${where}: ${s.slice(0, 40)}`);
}

function unescape(s: string): string {
  return s.replace(ENTITY, (e) =>
    e === '&amp;' ? '&' : e === '&lt;' ? '<' : e === '&gt;' ? '>' : e === '&quot;' ? '"' : e === '&apos;' ? "'" : String.fromCodePoint(Number(e.startsWith('&#x') ? `0x${e.slice(3, -1)}` : e.slice(2, -1))),
  );
}

function parseAttrs(src: string, at: number): Record<string, string> {
  const attrs: Record<string, string> = {};
  const re = /\s+([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/gy;
  let i = 0;
  while (i < src.length) {
    if (/^\s*$/.test(src.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(src);
    if (!m) throw new Error(`bad attribute syntax at ${at + i}: ${src.slice(i, i + 40)}`);
    const [, name = '', , dq, sq] = m;
    if (!NAME.test(name)) throw new Error(`bad attribute name ${name}`);
    if (name in attrs) throw new Error(`duplicate attribute ${name} at ${at + i}`);
    const value = dq ?? sq ?? '';
    checkText(value, at + i);
    attrs[name] = unescape(value);
    i = re.lastIndex;
  }
  return attrs;
}

/**
 * A small, strict XML well-formedness check (enough for the SVG the charts make): balanced
 * tags, one root, quoted and unique attributes, only the five named entities and character
 * references. Throws on the first problem; returns the root element.
 */
export function parseXml(src: string): XmlElement {
  const body = src.replace(/^\s*<\?xml[^?]*\?>/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const tag = /<!--[\s\S]*?-->|<(\/?)([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const between = body.slice(last, m.index);
    checkText(between, last);
    if (stack.length === 0 && between.trim()) throw new Error(`text outside the root at ${last}`);
    if (stack.length) stack[stack.length - 1]!.text += unescape(between);
    last = tag.lastIndex;
    if (m[0].startsWith('<!--')) continue;
    const [, close, name = '', attrSrc = '', selfClose] = m;
    if (!NAME.test(name)) throw new Error(`bad tag name ${name} at ${m.index}`);
    if (close) {
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> at ${m.index} closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    const el: XmlElement = { name, attrs: parseAttrs(attrSrc, m.index), children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else if (root) throw new Error(`second root <${name}> at ${m.index}`);
    else root = el;
    if (!selfClose) stack.push(el);
  }
  const rest = body.slice(last);
  checkText(rest, last);
  if (rest.trim()) throw new Error('text after the root');
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element below (and including) `el` with this name. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = el.name === name ? [el] : [];
  for (const c of el.children) out.push(...findAll(c, name));
  return out;
}

/** All text inside an element, its children included. */
export function textOf(el: XmlElement): string {
  return el.text + el.children.map(textOf).join('');
}
