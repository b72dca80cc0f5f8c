// `pnpm check:cycles`: no import cycle inside any workspace package, counting type-only imports.
//
// A cycle makes module order matter (a value read before its module ran is `undefined`) and ties
// files together so none can move alone; type-only cycles are counted too, because they are the
// same knot in the code's structure and turn into value cycles with the first value import.
//
// For every folder under packages/, apps/ and tooling/ it reads every .ts, .tsx, .mts, .cts, .js,
// .mjs and .cjs file (tests included; not node_modules, dist or dot-folders, nor .d.ts files,
// which mirror a .js file beside them) and follows the relative specifiers of `import`,
// `import type`, `export … from`, `import x = require()`, dynamic `import()`, `import('…')` type
// references (incl. `typeof import('…')` and JSDoc ones) within the package: `./x.js` is `x.ts`
// (or .tsx, or the .js itself), `./x.mjs` is `x.mts`, `./dir` is `dir/index.ts`. Bare specifiers
// (other packages) are not followed: packages depend on each other in one direction, which the
// package manager already enforces. Each strongly connected component (Tarjan) of two or more
// files, or a file importing itself, is a cycle; the script prints a shortest chain through it.
//
// Usage: node tooling/scripts/check-import-cycles.mjs [repo-dir]
// Exit code 0 and "no import cycles in N files of M packages", or 1 and every cycle by package.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const WORKSPACE_FOLDERS = ['packages', 'apps', 'tooling'];
const SOURCE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);
/** What a specifier's extension may stand for, TypeScript sources first (as `tsc` resolves). */
const EXTENSION_CANDIDATES = {
  '.js': ['.ts', '.tsx', '.js'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};
const EXTENSIONLESS_CANDIDATES = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/** Every source file under `dir` (absolute paths), sorted so the output is stable. */
function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files.sort();
}

/** The module specifiers `source` imports or re-exports, values and types alike. */
export function importedSpecifiers(fileName, source) {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const specifiers = [];
  const add = (node) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) specifiers.push(node.text);
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal);
    }
    // JSDoc (`@type {import('./x.js').T}`) is not among a node's children.
    for (const doc of node.jsDoc ?? []) visit(doc);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return specifiers;
}

/** The file a relative specifier names, if it is one of `files`. */
function resolveSpecifier(fromFile, specifier, files) {
  const base = resolve(dirname(fromFile), specifier);
  const extension = Object.keys(EXTENSION_CANDIDATES).find((ext) => base.endsWith(ext));
  const candidates = [base];
  if (extension !== undefined) {
    const stem = base.slice(0, -extension.length);
    candidates.unshift(...EXTENSION_CANDIDATES[extension].map((ext) => stem + ext));
  }
  candidates.push(...EXTENSIONLESS_CANDIDATES.map((ext) => base + ext));
  candidates.push(...EXTENSIONLESS_CANDIDATES.map((ext) => join(base, `index${ext}`)));
  return candidates.find((candidate) => files.has(candidate));
}

/** Strongly connected components of `graph` (Map of node → Set of nodes), Tarjan's algorithm. */
function stronglyConnectedComponents(graph) {
  const index = new Map();
  const lowLink = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [{ node: root, edges: [...graph.get(root)], next: 0 }];
    index.set(root, index.size);
    lowLink.set(root, index.get(root));
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.next < frame.edges.length) {
        const target = frame.edges[frame.next++];
        if (!index.has(target)) {
          index.set(target, index.size);
          lowLink.set(target, index.get(target));
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edges: [...graph.get(target)], next: 0 });
        } else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        lowLink.set(parent, Math.min(lowLink.get(parent), lowLink.get(frame.node)));
      }
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      components.push(component.sort());
    }
  }
  return components;
}

/** A shortest chain from `start` back to itself within `component` (breadth-first). */
function shortestCycle(graph, start, component) {
  const members = new Set(component);
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const between = [];
        for (let at = node; at !== start; at = previous.get(at)) between.unshift(at);
        return [start, ...between, start];
      }
      if (previous.has(target)) continue;
      previous.set(target, node);
      queue.push(target);
    }
  }
  return [start, start];
}

/** The import cycles of one package: each a chain of paths relative to `packageDir`, plus its size. */
export function packageCycles(packageDir) {
  const paths = sourceFiles(packageDir);
  const files = new Set(paths);
  const graph = new Map();
  for (const file of paths) {
    const targets = new Set();
    for (const specifier of importedSpecifiers(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, specifier, files);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, targets);
  }
  const cycles = stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1 || graph.get(component[0]).has(component[0]))
    .map((component) => ({
      chain: shortestCycle(graph, component[0], component).map((file) => relative(packageDir, file)),
      files: component.map((file) => relative(packageDir, file)),
    }));
  return { fileCount: paths.length, cycles };
}

/** The package folders of the workspace under `repoDir`. */
function packageDirs(repoDir) {
  return WORKSPACE_FOLDERS.flatMap((folder) => {
    const dir = join(repoDir, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
      .sort()
      .map((name) => join(dir, name));
  });
}

function main() {
  const repoDir = resolve(process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url)));
  let fileCount = 0;
  let packageCount = 0;
  let cycleCount = 0;
  for (const packageDir of packageDirs(repoDir)) {
    const result = packageCycles(packageDir);
    if (result.fileCount === 0) continue;
    packageCount++;
    fileCount += result.fileCount;
    if (result.cycles.length === 0) continue;
    cycleCount += result.cycles.length;
    console.log(`${relative(repoDir, packageDir).split(sep).join('/')}:`);
    for (const { chain, files } of result.cycles) {
      const others =
        files.length > chain.length - 1 ? ` (${files.length} files in the knot: ${files.join(', ')})` : '';
      console.log(`  ${chain.join(' → ')}${others}`);
    }
  }
  if (cycleCount > 0) {
    console.log(
      `${cycleCount} import cycle${cycleCount === 1 ? '' : 's'} in ${fileCount} files of ${packageCount} packages`,
    );
    process.exitCode = 1;
    return;
  }
  console.log(`no import cycles in ${fileCount} files of ${packageCount} packages`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
