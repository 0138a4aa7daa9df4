import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/app/styles.css');

/**
 * Chromium reads CSS nesting, so a rule left unclosed silently turns every rule after it
 * into a descendant selector that matches nothing (this happened once in a merge).
 */
describe('app styles', () => {
  it('every rule is closed and none is nested outside an at-rule', () => {
    const css = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const stack: string[] = [];
    let selector = '';
    for (const char of css) {
      if (char === '{') {
        const name = selector.trim();
        const parent = stack[stack.length - 1];
        expect(
          parent === undefined || parent.startsWith('@'),
          `"${name}" is nested inside "${parent}"`,
        ).toBe(true);
        stack.push(name);
        selector = '';
      } else if (char === '}') {
        expect(stack.pop(), 'a closing brace without a rule').toBeDefined();
        selector = '';
      } else if (char === ';') {
        selector = '';
      } else {
        selector += char;
      }
    }
    expect(stack).toEqual([]);
  });
});

/** The custom properties a block of the stylesheet sets, `var(--x)` resolved within it. */
function tones(selector: string): Map<string, string> {
  const css = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const start = css.indexOf(`${selector} {`);
  expect(start, `${selector} is in the stylesheet`).toBeGreaterThanOrEqual(0);
  const body = css.slice(start, css.indexOf('}', start));
  const map = new Map<string, string>();
  for (const [, name, value] of body.matchAll(/(--[\w-]+):\s*([^;]+);/g)) map.set(name!, value!);
  for (const [name, value] of map) {
    const ref = /^var\((--[\w-]+)\)$/.exec(value);
    if (ref) map.set(name, map.get(ref[1]!) ?? value);
  }
  return map;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * antd-mobile draws tags, texts and outlines in its tones; each theme sets every one it uses as
 * text, or antd's own (#ff3141 for danger: 3.6:1 on white) shows through. A cancelled IEO's tag
 * failed axe that way in the light theme.
 */
describe("text tones (antd-mobile's, the chart legend's) read at AA (4.5:1) on the surface, both themes", () => {
  const TEXT_TONES = [
    ...['primary', 'success', 'warning', 'danger', 'weak'].map((t) => `--adm-color-${t}`),
    // The chart legend's moving averages.
    '--tw-ma7',
    '--tw-ma25',
  ];
  it.each([
    [':root', 'light'],
    ["html[data-prefers-color-scheme='dark']", 'dark'],
  ])('%s (%s)', (selector) => {
    const theme = tones(selector);
    const surface = theme.get('--tw-surface')!;
    for (const tone of TEXT_TONES) {
      const value = theme.get(tone);
      expect(value, `${tone} is set`).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(value!, surface), `${tone} ${value} on ${surface}`).toBeGreaterThanOrEqual(
        4.5,
      );
    }
  });
});
