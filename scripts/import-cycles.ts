// Fails when any source file of the repository reaches itself through its imports: `npm run
// lint` runs it before ESLint.
//
//   node --import tsx scripts/import-cycles.ts [--root DIR]
//
// The import graph is read with the TypeScript compiler's own parser and module resolution,
// with each package's tsconfig, so every alias resolves as the compiler sees it (`#platform/*`,
// `@/*` in the user app and the console, `@tradewind/contract/*`). Type-only imports count: a
// cycle of types still ties two modules into one (services.ts exists to break exactly such a
// loop). Only the repository's files are nodes; a dependency under node_modules is a leaf.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|cts)$/;

export interface ImportCycle {
  /** Every file of the tangle (a strongly connected component), relative to the root, sorted. */
  files: string[];
  /** One loop through it, from its first file back to that file. */
  path: string[];
}

export interface CycleOptions {
  root?: string;
  /** Files as if they were on disk (relative path → text): a test plants a cycle without writing one. */
  overlay?: Readonly<Record<string, string>>;
}

/** Each workspace's tsconfig and the root's (bench, scripts, vitest config). */
function tsconfigs(root: string): string[] {
  const found = [path.join(root, 'tsconfig.json')];
  for (const group of ['apps', 'packages']) {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      for (const config of [
        path.join(dir, name, 'tsconfig.json'),
        path.join(dir, name, 'sw', 'tsconfig.json'),
      ]) {
        if (fs.existsSync(config)) found.push(config);
      }
    }
  }
  return found;
}

/** The names of the repository's own packages (workspaces), which resolve to its files. */
function workspaceNames(root: string): string[] {
  const names: string[] = [];
  for (const group of ['apps', 'packages']) {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir)) {
      const manifest = path.join(dir, entry, 'package.json');
      if (fs.existsSync(manifest))
        names.push((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string }).name);
    }
  }
  return names;
}

/** Module specifiers of every import, re-export and literal dynamic `import()` in a file. */
function specifiers(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repository's import graph: file → the repository files it imports (absolute paths). */
export function importGraph(options: CycleOptions = {}): Map<string, Set<string>> {
  const root = options.root ?? ROOT;
  const overlay = new Map(
    Object.entries(options.overlay ?? {}).map(([file, text]) => [path.resolve(root, file), text]),
  );
  const host: ts.ModuleResolutionHost = {
    fileExists: (file) => overlay.has(file) || ts.sys.fileExists(file),
    readFile: (file) => overlay.get(file) ?? ts.sys.readFile(file),
    directoryExists: (dir) => ts.sys.directoryExists?.(dir) ?? true,
    realpath: ts.sys.realpath,
    getCurrentDirectory: () => root,
  };
  const workspaces = workspaceNames(root);
  /** A bare name that is no alias and no workspace package is a dependency: a leaf, and resolving it would cost most of the run. */
  const isExternal = (specifier: string, compilerOptions: ts.CompilerOptions): boolean => {
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#'))
      return false;
    if (
      Object.keys(compilerOptions.paths ?? {}).some((alias) =>
        specifier.startsWith(alias.replace(/\*$/, '')),
      )
    )
      return false;
    return !workspaces.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  };
  /** A relative path that names its file, extension and all (the house style), needs no resolver: most edges. */
  const resolve = (
    specifier: string,
    file: string,
    compilerOptions: ts.CompilerOptions,
    cache: ts.ModuleResolutionCache,
  ): string | undefined => {
    if (specifier.startsWith('.') && SOURCE.test(specifier)) {
      const direct = path.resolve(path.dirname(file), specifier);
      if (host.fileExists(direct)) return direct;
    }
    if (isExternal(specifier, compilerOptions)) return undefined;
    const resolved = ts.resolveModuleName(
      specifier,
      file,
      compilerOptions,
      host,
      cache,
    ).resolvedModule;
    if (!resolved || resolved.resolvedFileName.endsWith('.d.ts')) return undefined;
    // A workspace package resolves through its node_modules link to its real files: a node.
    return path.normalize(
      ts.sys.realpath?.(resolved.resolvedFileName) ?? resolved.resolvedFileName,
    );
  };
  const graph = new Map<string, Set<string>>();
  for (const config of tsconfigs(root)) {
    const read = ts.readConfigFile(config, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(config));
    const planted = [...overlay.keys()].filter(
      (file) => !parsed.fileNames.includes(file) && isUnder(file, path.dirname(config)),
    );
    const cache = ts.createModuleResolutionCache(
      path.dirname(config),
      (name) => name,
      parsed.options,
    );
    for (const file of [...parsed.fileNames, ...planted]) {
      if (file.endsWith('.d.ts') || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
      const text = host.readFile(file);
      if (text === undefined) continue;
      const edges = graph.get(file) ?? new Set<string>();
      graph.set(file, edges);
      for (const specifier of specifiers(file, text)) {
        const target = resolve(specifier, file, parsed.options, cache);
        if (target && isUnder(target, root)) edges.add(target);
      }
    }
  }
  return graph;
}

function isUnder(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return (
    !relative.startsWith('..') &&
    !path.isAbsolute(relative) &&
    !relative.split(path.sep).includes('node_modules')
  );
}

/** Strongly connected components of more than one file, or of one that imports itself (Tarjan, iterative). */
function tangles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: Iterator<string> }[] = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? new Set()).values() });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      const step = frame.edges.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target))
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(
          parent.node,
          Math.min(low.get(parent.node) as number, low.get(frame.node) as number),
        );
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) found.push(component);
    }
  }
  return found;
}

/** The shortest loop from `start` back to itself inside `members` (breadth first). */
function loopThrough(
  graph: Map<string, Set<string>>,
  start: string,
  members: Set<string>,
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const loop = [start];
        for (
          let at: string | undefined = node;
          at !== undefined && at !== start;
          at = previous.get(at)
        )
          loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Every import cycle of the repository, each tangle once, with one loop through it. */
export function findImportCycles(options: CycleOptions = {}): ImportCycle[] {
  const root = options.root ?? ROOT;
  const graph = importGraph(options);
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  return tangles(graph)
    .map((component) => {
      const files = component.map(relative).sort();
      const first = component.find((file) => relative(file) === files[0]) as string;
      return { files, path: loopThrough(graph, first, new Set(component)).map(relative) };
    })
    .sort((a, b) => (a.files[0] as string).localeCompare(b.files[0] as string));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  // `--root DIR` checks another tree (the test's fixtures); by default, this repository.
  const at = process.argv.indexOf('--root');
  const cycles = findImportCycles(
    at > 0 && process.argv[at + 1] ? { root: path.resolve(process.argv[at + 1] as string) } : {},
  );
  const ms = Math.round(performance.now() - started);
  if (cycles.length === 0) {
    console.log(`import cycles: none (${ms} ms)`);
  } else {
    console.error(
      `import cycles: ${cycles.length} (a module must not reach itself through its imports)`,
    );
    for (const cycle of cycles) {
      console.error(`\n  ${cycle.path.join('\n    → ')}`);
      if (cycle.files.length > cycle.path.length - 1)
        console.error(
          `    (tangled with: ${cycle.files.filter((file) => !cycle.path.includes(file)).join(', ')})`,
        );
    }
    process.exitCode = 1;
  }
}
