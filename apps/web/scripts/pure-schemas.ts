/**
 * The contract's schemas are module-level constants built by zod calls, which a bundler keeps
 * (a call may have effects), so a page that used one schema of a module shipped all of them.
 * `markPureSchemas` wraps each top-level `const X = z.…(…)` initializer in an arrow called at
 * once and marked pure: evaluated when and as before, dropped when nothing reads X. In the
 * contract those initializers build schemas and nothing else (vite.config.ts applies it to
 * packages/contract/src only).
 */

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A call whose callee chain starts at the identifier `z`: `z.string().check(…)`. */
function rootedAtZ(node: Node): boolean {
  if (node.type !== 'CallExpression') return false;
  for (let at = node; ;) {
    if (at.type === 'CallExpression') at = at.callee as Node;
    else if (at.type === 'MemberExpression') at = at.object as Node;
    else return at.type === 'Identifier' && at.name === 'z';
  }
}

/** `code` with its schema initializers marked pure; `parse` gives an ESTree program with UTF-16 offsets. */
export function markPureSchemas(code: string, parse: (code: string) => unknown): string {
  const inits: Node[] = [];
  for (const statement of (parse(code) as { body: Node[] }).body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node) : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const { init } of declaration.declarations as { init: Node | null }[])
      if (init && rootedAtZ(init)) inits.push(init);
  }
  let out = code;
  for (const init of inits.reverse()) {
    // The offsets are the code's own; were they not, the module would be corrupted: fail instead.
    if (!code.startsWith('z.', init.start))
      throw new Error('markPureSchemas: offsets do not match');
    const expression = out.slice(init.start, init.end);
    out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => ${expression})()${out.slice(init.end)}`;
  }
  return out;
}
