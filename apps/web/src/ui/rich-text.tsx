import { type ReactNode, createElement, useMemo } from 'react';

/**
 * Renders article HTML as React elements through an allow-list, never with innerHTML. The
 * server already sanitised it when it was saved; this is the second wall: whatever tag or
 * attribute is not listed is dropped (its text kept), and links and images keep only
 * http(s), mailto and site-relative addresses.
 */
const TAGS = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
  'img',
  'hr',
  'span',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'svg',
  'math',
]);
const ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'width', 'height'],
  td: ['colSpan', 'rowSpan'],
  th: ['colSpan', 'rowSpan'],
};
const VOID = new Set(['br', 'hr', 'img']);

export function safeUrl(value: string, image: boolean): string | null {
  const url = value.trim();
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const { protocol } = new URL(url);
    if (protocol === 'https:' || protocol === 'http:' || (!image && protocol === 'mailto:'))
      return url;
  } catch {
    // Not an absolute URL and not site-relative: dropped.
  }
  return null;
}

function convert(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROP_WITH_CONTENT.has(tag)) return null;
  const children = Array.from(element.childNodes, (child, i) => convert(child, `${key}.${i}`));
  if (!TAGS.has(tag)) return children;
  const props: Record<string, string> = { key };
  for (const name of ATTRIBUTES[tag] ?? []) {
    const raw = element.getAttribute(name.toLowerCase());
    if (raw === null) continue;
    if (name === 'href' || name === 'src') {
      const url = safeUrl(raw, name === 'src');
      if (url) props[name] = url;
    } else {
      props[name] = raw;
    }
  }
  if (tag === 'a') Object.assign(props, { target: '_blank', rel: 'noopener noreferrer nofollow' });
  if (tag === 'img')
    Object.assign(props, { loading: 'lazy', style: { maxWidth: '100%', height: 'auto' } });
  return VOID.has(tag) ? createElement(tag, props) : createElement(tag, props, ...children);
}

export function RichText({ html, className }: { html: string; className?: string }) {
  const content = useMemo(() => {
    const document = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
    return Array.from(document.body.childNodes, (node, i) => convert(node, String(i)));
  }, [html]);
  return <div className={className}>{content}</div>;
}
