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
