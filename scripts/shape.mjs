#!/usr/bin/env node
// `npm run shape`: measures the source tree's shape — functions over 60 lines, import circles
// between source files (with and without type-only imports), and folders holding more than 20
// files directly. `--json` prints the figures for a test or a note.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LONG_FUNCTION = 60;
const CROWDED_FOLDER = 20;

/** Every TypeScript source file under packages/<name>/src. */
export function sourceFiles(base = root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const pkg of readdirSync(join(base, 'packages'))) {
    const src = join(base, 'packages', pkg, 'src');
    try {
      if (statSync(src).isDirectory()) walk(src);
    } catch {
      // a package without sources
    }
  }
  return out.sort();
}

function nameOf(node, sf) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  return '(anonymous)';
}

/** Functions, methods and arrow functions longer than `limit` lines. */
export function longFunctions(files, limit = LONG_FUNCTION, base = root) {
  const found = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)
      ) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) {
          found.push({ file: relative(base, file), line: start + 1, name: nameOf(node, sf), lines });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

function isTypeOnly(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return false;
    if (clause.isTypeOnly) return true;
    if (clause.name) return false;
    const bindings = clause.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) return false;
    return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
  }
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((e) => e.isTypeOnly)
    );
  }
  return false;
}

/** Relative imports between source files: file → [{ to, typeOnly }]. */
export function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const edges = [];
    for (const node of sf.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
      const spec = node.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
      const target = resolve(dirname(file), spec.text).replace(/\.js$/, '');
      const to = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')].find((c) => known.has(c));
      if (to) edges.push({ to, typeOnly: isTypeOnly(node) });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan). */
export function circles(graph, { withTypes }) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const connect = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const { to, typeOnly } of graph.get(v) ?? []) {
      if (typeOnly && !withTypes) continue;
      if (!idx.has(to)) {
        connect(to);
        low.set(v, Math.min(low.get(v), low.get(to)));
      } else if (on.has(to)) low.set(v, Math.min(low.get(v), idx.get(to)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) connect(v);
  return out;
}

/** Source folders holding more than `limit` files directly. */
export function crowdedFolders(files, limit = CROWDED_FOLDER, base = root) {
  const counts = new Map();
  for (const file of files) {
    const dir = relative(base, dirname(file));
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, n]) => n > limit)
    .map(([folder, files]) => ({ folder, files }))
    .sort((a, b) => b.files - a.files);
}

export function measure(base = root) {
  const files = sourceFiles(base);
  const graph = importGraph(files);
  const rel = (list) => list.map((c) => c.map((f) => relative(base, f)));
  return {
    sourceFiles: files.length,
    longFunctions: longFunctions(files, LONG_FUNCTION, base),
    circles: rel(circles(graph, { withTypes: false })),
    circlesWithTypes: rel(circles(graph, { withTypes: true })),
    crowdedFolders: crowdedFolders(files, CROWDED_FOLDER, base),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const shape = measure();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(shape, null, 2));
  } else {
    console.log(`${shape.sourceFiles} source files`);
    console.log(`\nfunctions over ${LONG_FUNCTION} lines: ${shape.longFunctions.length}`);
    for (const f of shape.longFunctions) console.log(`  ${f.lines}\t${f.name}\t${f.file}:${f.line}`);
    console.log(
      `\nimport circles: ${shape.circles.length} (${shape.circlesWithTypes.length} counting type-only imports)`,
    );
    for (const c of shape.circlesWithTypes) console.log(`  ${c.join(' ↔ ')}`);
    console.log(`\nfolders with over ${CROWDED_FOLDER} files: ${shape.crowdedFolders.length}`);
    for (const f of shape.crowdedFolders) console.log(`  ${f.files}\t${f.folder}`);
  }
}
