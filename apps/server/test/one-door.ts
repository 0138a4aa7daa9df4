import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The scanner behind one-door.test.ts. One door to the ledger (ARCHITECTURE §5): only
 * modules/ledger writes the ledger's tables and `assets`. Reading them elsewhere is allowed; writing them is not, whether by SQL text
 * (`insert into`, `update`, `delete from`, `truncate`, `merge into`, `copy` naming one of the
 * tables, in any string or template literal, a table's Drizzle object interpolated included)
 * or by Drizzle (`.insert(t)`, `.update(t)`, `.delete(t)` on one of the tables' objects,
 * however it was imported or renamed). Schema definitions (`tables.ts`) and migrations (outside
 * `src`) are not scanned. The lint boundary (lint-boundaries.test.ts) keeps other modules from
 * importing the tables at all; this scan is what holds if that rule is ever loosened.
 *
 * What it cannot see: SQL assembled from pieces (`'insert into ' + name`), and a table object
 * handed in as a parameter. Neither is a pattern of this code base.
 */

export const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
export const LEDGER_DIR = path.join(SRC, 'modules/ledger');
export const LEDGER_TABLES = path.join(LEDGER_DIR, 'tables.ts');

interface LedgerTable {
  /** The SQL name, e.g. `ledger_postings`. */
  table: string;
  /** The Drizzle object's exported name, e.g. `postings`. */
  exportName: string;
}

/** The ledger's tables, read off its schema file: `export const <name> = pgTable('<table>', …)`. */
export function ledgerTables(file = LEDGER_TABLES): LedgerTable[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const out: LedgerTable[] = [];
  for (const statement of source.statements) {
    if (
      !ts.isVariableStatement(statement) ||
      !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (
        !ts.isIdentifier(declaration.name) ||
        !init ||
        !ts.isCallExpression(init) ||
        init.expression.getText(source) !== 'pgTable'
      )
        continue;
      const [name] = init.arguments;
      if (name && ts.isStringLiteral(name))
        out.push({ table: name.text, exportName: declaration.name.text });
    }
  }
  return out;
}

const WRITE = String.raw`(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into|copy)\s+(?:only\s+)?`;

/** Where a specifier points, without its extension (relative, or the server's `#modules/` and `#platform/`). */
function resolveSpecifier(fromFile: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith('.')) target = path.resolve(path.dirname(fromFile), specifier);
  else if (specifier.startsWith('#modules/'))
    target = path.join(SRC, 'modules', specifier.slice('#modules/'.length));
  else if (specifier.startsWith('#platform/'))
    target = path.join(SRC, 'platform', specifier.slice('#platform/'.length));
  else return null;
  return target.replace(/\.(ts|js)$/, '');
}

/** The text of a string or template literal, each substitution kept as `${expression}`. */
function literalText(node: ts.Node, source: ts.SourceFile): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return (
      node.head.text +
      node.templateSpans
        .map((span) => `\${${span.expression.getText(source)}}${span.literal.text}`)
        .join('')
    );
  }
  return null;
}

/** Every write to a ledger table in `file`, as `file:line: what`. */
export function ledgerWrites(
  file: string,
  tables = ledgerTables(),
  tablesFile = LEDGER_TABLES,
): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const exportNames = new Map(tables.map((t) => [t.exportName, t.table]));
  const tablesTarget = tablesFile.replace(/\.ts$/, '');
  // Local names bound to the tables' Drizzle objects, and namespaces holding them.
  const bound = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    if (resolveSpecifier(file, statement.moduleSpecifier.text) !== tablesTarget) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        const table = exportNames.get((element.propertyName ?? element.name).text);
        if (table) bound.set(element.name.text, table);
      }
    }
  }
  /** The ledger table an expression names (`postings`, `ledger.postings`), if any. */
  const tableOf = (node: ts.Node): string | undefined => {
    if (ts.isIdentifier(node)) return bound.get(node.text);
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      namespaces.has(node.expression.text)
    )
      return exportNames.get(node.name.text);
    return undefined;
  };
  const names = [...tables.map((t) => t.table)].join('|');
  const bySqlName = new RegExp(String.raw`\b${WRITE}(?:"?public"?\.)?"?(${names})"?(?![\w$])`, 'i');
  const interpolated = [
    ...bound.keys(),
    ...[...namespaces].flatMap((ns) => tables.map((t) => `${ns}\\.${t.exportName}`)),
  ];
  const byObject =
    interpolated.length > 0
      ? new RegExp(String.raw`\b${WRITE}\$\{\s*(${interpolated.join('|')})\s*\}`, 'i')
      : null;

  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(
      `${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${what}`,
    );
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['insert', 'update', 'delete'].includes(node.expression.name.text)
    ) {
      const [first] = node.arguments;
      const table = first ? tableOf(first) : undefined;
      if (table) at(node, `Drizzle .${node.expression.name.text}() on ${table}`);
    }
    const literal = literalText(node, source);
    if (literal !== null) {
      const match = bySqlName.exec(literal) ?? byObject?.exec(literal);
      if (match) at(node, `SQL "${match[0].replace(/\s+/g, ' ')}"`);
      // A template's spans are inside it: the whole text was just checked.
      if (ts.isTemplateExpression(node)) {
        node.templateSpans.forEach((span) => visit(span.expression));
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every .ts file under `dir`, but the ledger's own and schema definitions. */
export function scannedFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name === 'tables.ts') return [];
    if (file.startsWith(`${LEDGER_DIR}${path.sep}`)) return [];
    return [file];
  });
}
