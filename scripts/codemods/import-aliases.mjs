// Rewrites module paths that climb three or more folders ('../../../x') into the package.json "imports"
// aliases (#src/…, #server/…, #tests/…), so a file can move without its imports turning into a count of dots.
// Shorter relative paths stay as they are. Only real module specifiers change (import/export declarations,
// import(), import types, vi.mock() and its siblings): a string such as '../../../../etc/passwd' in a test
// payload is left alone. Running it twice changes nothing the second time.
//
// Each alias in package.json is a list, e.g. "#src/*": ["./src/*", "./src/*.ts", "./src/*.tsx"], so that the
// imports stay without extensions for every tool: Vite/Vitest and tsx take the first entry and add the
// extension themselves; TypeScript does not add extensions to an "imports" target and falls through to the
// entry that names an existing file.
//
//   node scripts/codemods/import-aliases.mjs          rewrite the files, list what changed
//   node scripts/codemods/import-aliases.mjs --check  only list; exits 1 when something would change
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '../..');
const folders = ['src', 'server', 'sw', 'tests', 'bench', 'scripts'];
const extensions = ['.ts', '.tsx', '.mjs'];
const skipped = new Set(['node_modules', 'dist', 'dev-dist', 'coverage', 'test-results']);
const checkOnly = process.argv.includes('--check');

/** alias prefix -> folder, read from package.json so the two never disagree ("#src/*" -> "src"). */
function readAliases() {
  const { imports = {} } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const aliases = [];
  for (const [key, target] of Object.entries(imports)) {
    const first = Array.isArray(target) ? target[0] : target;
    if (!key.endsWith('/*') || typeof first !== 'string' || !first.startsWith('./') || !first.endsWith('/*')) continue;
    aliases.push({ prefix: key.slice(0, -1), folder: first.slice(2, -2) });
  }
  // The longest folder wins, should an alias ever point inside another one.
  return aliases.sort((a, b) => b.folder.length - a.folder.length);
}

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

const viModuleCalls = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);

/** The string literals that name a module, wherever TypeScript's syntax says so. */
function moduleSpecifiers(sourceFile) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier);
    } else if (ts.isImportTypeNode(node)) {
      const literal = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      if (literal && ts.isStringLiteral(literal)) found.push(literal);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const [first] = node.arguments;
      const callee = node.expression;
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isViCall =
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'vi' &&
        viModuleCalls.has(callee.name.text);
      if ((isDynamicImport || isViCall) && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        found.push(first);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

const climbsThreeFolders = (specifier) => /^(\.\.\/){3,}/.test(specifier);

function aliasFor(file, specifier, aliases) {
  const target = path
    .relative(root, path.resolve(path.dirname(file), specifier))
    .split(path.sep)
    .join('/');
  const alias = aliases.find(({ folder }) => target === folder || target.startsWith(`${folder}/`));
  return alias ? alias.prefix + target.slice(alias.folder.length + 1) : undefined;
}

const aliases = readAliases();
if (aliases.length === 0) {
  console.error('package.json has no "imports" aliases of the form "#name/*": "./folder/*".');
  process.exit(1);
}

let changedFiles = 0;
let changedImports = 0;
const unmapped = [];
for (const folder of folders) {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) continue;
  for (const file of sourceFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('../../../')) continue;
    const kind = file.endsWith('.tsx')
      ? ts.ScriptKind.TSX
      : file.endsWith('.mjs')
        ? ts.ScriptKind.JS
        : ts.ScriptKind.TS;
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
    const edits = [];
    for (const literal of moduleSpecifiers(sourceFile)) {
      if (!climbsThreeFolders(literal.text)) continue;
      const replacement = aliasFor(file, literal.text, aliases);
      if (!replacement) {
        unmapped.push(`${path.relative(root, file)}: '${literal.text}'`);
        continue;
      }
      // Keep the quote character; replace only what is between the quotes.
      edits.push({ start: literal.getStart(sourceFile) + 1, end: literal.getEnd() - 1, text: replacement });
    }
    if (edits.length === 0) continue;
    let next = text;
    for (const edit of edits.sort((a, b) => b.start - a.start)) {
      next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
    }
    changedFiles += 1;
    changedImports += edits.length;
    console.log(`${path.relative(root, file)}: ${edits.length}`);
    if (!checkOnly) fs.writeFileSync(file, next);
  }
}

for (const line of unmapped) console.warn(`no alias covers ${line}`);
const verb = checkOnly ? 'would change' : 'changed';
console.log(`${verb} ${changedImports} import path(s) in ${changedFiles} file(s)`);
if (checkOnly && changedImports > 0) process.exit(1);
