import type { SaxesTagNS } from 'saxes';
import { AppError, invalid } from '../../core/errors';

/** An XML element as the WebDAV methods read it: namespace URI, local name, attributes, children in order. */
export interface XmlElement {
  ns: string;
  local: string;
  attrs: { ns: string; local: string; value: string }[];
  children: (XmlElement | string)[];
}

export const DAV_NS = 'DAV:';
/** Request bodies larger than this are refused before parsing (PROPFIND, PROPPATCH). */
export const MAX_XML_BYTES = 1024 * 1024;
/** Elements deeper than this are refused (a deep document costs stack and memory for nothing). */
const MAX_DEPTH = 64;
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** saxes, loaded at the first WebDAV body (start-up of every server; issue 39). */
const saxes = (): typeof import('saxes') => require('saxes');

/**
 * Parses a request body with saxes: strict, namespace-aware, and without DTD support (a DOCTYPE is refused, so there
 * is no entity expansion and no external entity). Null for an empty body.
 */
export function parseXml(text: string): XmlElement | null {
  if (text.trim() === '') return null;
  const parser = new (saxes().SaxesParser)({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('doctype', () => {
    throw invalid('XML with a DOCTYPE is refused');
  });
  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagNS;
    if (stack.length >= MAX_DEPTH) throw invalid('XML nested too deeply');
    const attrs = Object.values(t.attributes)
      .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
      .map((a) => ({ ns: a.uri, local: a.local, value: a.value }));
    const el: XmlElement = { ns: t.uri, local: t.local, attrs, children: [] };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => void (stack.length && stack[stack.length - 1]!.children.push(t)));
  parser.on('cdata', (t) => void (stack.length && stack[stack.length - 1]!.children.push(t)));
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw invalid('malformed XML');
  }
  if (!root) throw invalid('malformed XML');
  return root;
}

/** Child elements only (text and whitespace skipped). */
export const elements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');

export const isDav = (el: XmlElement, local: string) => el.ns === DAV_NS && el.local === local;

export function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * An element and its content as XML text with every namespace declared where it is used (prefixes p0, p1… per
 * element tree; no default namespace, so an element without a prefix is in no namespace). The text a dead property
 * is stored as and handed back in PROPFIND, whatever prefixes the document around it uses.
 */
export function serialize(el: XmlElement): string {
  const out: string[] = [];
  write(el, new Map(), out);
  return out.join('');
}

function write(el: XmlElement, scope: Map<string, string>, out: string[]): void {
  const local = new Map(scope);
  const decls: string[] = [];
  const prefixOf = (ns: string) => {
    if (ns === XML_NS) return 'xml';
    let p = local.get(ns);
    if (!p) {
      p = `p${local.size}`;
      local.set(ns, p);
      decls.push(` xmlns:${p}="${escapeXml(ns)}"`);
    }
    return p;
  };
  const name = el.ns ? `${prefixOf(el.ns)}:${el.local}` : el.local;
  const attrs = el.attrs.map((a) => ` ${a.ns ? `${prefixOf(a.ns)}:` : ''}${a.local}="${escapeXml(a.value)}"`).join('');
  out.push(`<${name}${decls.join('')}${attrs}`);
  if (el.children.length === 0) return void out.push('/>');
  out.push('>');
  for (const c of el.children) {
    if (typeof c === 'string') out.push(escapeXml(c));
    else write(c, local, out);
  }
  out.push(`</${name}>`);
}

/** The text content of an element (its text children joined, trimmed). */
export const textOf = (el: XmlElement): string => el.children.filter((c): c is string => typeof c === 'string').join('').trim();
