/**
 * Reads src/ with the TypeScript compiler API for localisation: the messages the code translates (the keys of
 * l10n/bundle.l10n.json, what `@vscode/l10n-dev export` would write) and the user-facing English that does not go
 * through the translation (test/unit/repo/l10n.literals.test.ts). Used by `npm run l10n` and by the unit tests.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');

/** Folders whose text is deliberately English (CONTRIBUTING's localisation section says why). */
const NOT_TRANSLATED = ['src/server/', 'src/cli.ts', 'src/cliStructure.ts', 'src/cliXrd.ts'];

export interface Found {
  /** Path from the repository root, with forward slashes. */
  file: string;
  line: number;
  text: string;
}

export function sourceFiles(dir = path.join(ROOT, 'src')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `file` absolute (read from disk unless `text` is given) or relative to the repository. */
export function parse(file: string, text = fs.readFileSync(path.resolve(ROOT, file), 'utf8')): ts.SourceFile {
  const name = path.isAbsolute(file) ? path.relative(ROOT, file) : file;
  return ts.createSourceFile(name.split(path.sep).join('/'), text, ts.ScriptTarget.ES2022, true);
}

const translated = (file: string): boolean => !NOT_TRANSLATED.some((prefix) => file.startsWith(prefix));

/** The translated sources of src/, parsed. */
export function translatedSources(): ts.SourceFile[] {
  return sourceFiles()
    .map((file) => parse(file))
    .filter((source) => translated(source.fileName));
}

function literalText(node: ts.Node): string | undefined {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

function found(source: ts.SourceFile, node: ts.Node, text: string): Found {
  return { file: source.fileName, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, text };
}

/** `t(…)`, `l10n.t(…)`, `locale.t(…)`, `this.locale.t(…)`: a call that translates its first argument. */
function isTranslate(call: ts.CallExpression): boolean {
  const callee = call.expression;
  return (ts.isIdentifier(callee) && callee.text === 't') || (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
}

/** Which arguments of a call are messages: t's first, plural's two phrases (util/locale.ts). */
function messageArguments(call: ts.CallExpression): readonly ts.Expression[] {
  if (isTranslate(call)) return call.arguments.slice(0, 1);
  const callee = call.expression;
  if (ts.isIdentifier(callee) && callee.text === 'plural') return call.arguments.slice(2, 4);
  return [];
}

/**
 * A table of messages the code translates one by one: `const PAGE_MESSAGES = [...] as const`, or a record of them
 * (`const SERVICE_MESSAGES = { badRequest: ['…', '…'] }`): every value in it, however nested.
 */
function messageTable(node: ts.Node): readonly ts.Expression[] {
  if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || !node.name.text.endsWith('_MESSAGES')) return [];
  const out: ts.Expression[] = [];
  const collect = (value: ts.Expression | undefined): void => {
    while (value && (ts.isAsExpression(value) || ts.isParenthesizedExpression(value))) value = value.expression;
    if (value && ts.isArrayLiteralExpression(value)) value.elements.forEach(collect);
    else if (value && ts.isObjectLiteralExpression(value))
      value.properties.forEach((p) => ts.isPropertyAssignment(p) && collect(p.initializer));
    else if (value && node.initializer !== value) out.push(value);
  };
  collect(node.initializer);
  return out;
}

/** Every message a source translates, with where. */
export function messages(source: ts.SourceFile): Found[] {
  const out: Found[] = [];
  const visit = (node: ts.Node): void => {
    const candidates = ts.isCallExpression(node) ? messageArguments(node) : messageTable(node);
    for (const argument of candidates) {
      const text = literalText(argument);
      if (text !== undefined) out.push(found(source, argument, text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The bundle `@vscode/l10n-dev export` would write: each message its own English text, sorted. */
export function exportBundle(sources: readonly ts.SourceFile[]): Record<string, string> {
  const keys = [...new Set(sources.flatMap((s) => messages(s).map((m) => m.text)))].sort();
  return Object.fromEntries(keys.map((key) => [key, key]));
}

// ---- user-facing English outside the mechanism ----

/** Icons ($(sync~spin)) and placeholders ({0}) are not words. */
const words = (text: string): boolean => /[A-Za-z]{2,}/.test(text.replace(/\$\([\w~-]+\)|\{\d+\}/g, ''));
/** A phrase, not a class list ('control toggle'), a message type or a selector: capitalised, or two words. */
const phrase = (text: string): boolean => !/^[a-z][\w -]*$/.test(text) && /^[^A-Za-z]*[A-Z][a-z]|[A-Za-z]{2,}[,:]? [A-Za-z]{2,}/.test(text);

const NOTIFY = new Set(['error', 'warning', 'info']);
const WINDOW_TEXT = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showQuickPick',
  'showInputBox',
  'setStatusBarMessage',
  'withProgress',
]);
/** Constructors whose text argument (by position) the user reads. */
const SHOWN_BY_CONSTRUCTOR: Record<string, number[]> = {
  TreeItem: [0],
  Diagnostic: [1],
  MarkdownString: [0],
  Hover: [0],
  CodeAction: [0],
  CodeLens: [],
  ThemeIcon: [],
};
const MARKDOWN_METHODS = new Set(['appendMarkdown', 'appendText']);
/** Properties of quick picks, input boxes, tree items, status bar items, code lenses, progress, diagnostics and refusals. */
const SHOWN_PROPERTIES = new Set([
  'refuse',
  'label',
  'description',
  'detail',
  'tooltip',
  'title',
  'placeholder',
  'placeHolder',
  'prompt',
  'validationMessage',
  'message',
  'saveLabel',
  'openLabel',
]);
/** Assigned (item.text = …) these are shown too; in object literals they are usually data. */
const SHOWN_ASSIGNED = new Set([...SHOWN_PROPERTIES, 'text', 'textContent', 'ariaLabel']);
const PAGE_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt']);

/** The English pieces of an expression the user will read: literals, template text, both sides of + and ?:. */
function englishIn(source: ts.SourceFile, node: ts.Node, out: Found[]): void {
  const text = literalText(node);
  if (text !== undefined) {
    if (words(text)) out.push(found(source, node, text));
  } else if (ts.isTemplateExpression(node)) {
    const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    if (pieces.some(words)) out.push(found(source, node, pieces.join('${…}')));
    for (const span of node.templateSpans) englishIn(source, span.expression, out);
  } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    englishIn(source, node.left, out);
    englishIn(source, node.right, out);
  } else if (ts.isConditionalExpression(node)) {
    englishIn(source, node.whenTrue, out);
    englishIn(source, node.whenFalse, out);
  } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
    englishIn(source, node.right, out);
  } else if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) {
    englishIn(source, node.expression, out);
  } else if (ts.isArrayLiteralExpression(node)) {
    for (const element of node.elements) englishIn(source, element, out);
  }
}

const calleeName = (callee: ts.Expression): string | undefined =>
  ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;

/** The arguments of a call or `new` the user reads. */
function shownArguments(node: ts.CallExpression | ts.NewExpression): readonly ts.Expression[] {
  const name = calleeName(node.expression);
  const args = node.arguments ?? [];
  if (!name) return [];
  if (ts.isNewExpression(node)) return (SHOWN_BY_CONSTRUCTOR[name] ?? []).flatMap((i) => (args[i] ? [args[i]] : []));
  const receiver = ts.isPropertyAccessExpression(node.expression) ? node.expression.expression.getText() : '';
  if (receiver === 'notify' && NOTIFY.has(name)) return args;
  // messages.show('error', text, actions): the service's one way to show a message (features/service/messages.ts).
  if (name === 'show' && args[0] && NOTIFY.has(literalText(args[0]) ?? '')) return args.slice(1);
  // model.warnings.push(…): a result's warnings are shown in its view.
  if ((name === 'push' || name === 'unshift') && /\bwarnings$/.test(receiver)) return args;
  if (WINDOW_TEXT.has(name) || MARKDOWN_METHODS.has(name)) return args;
  if (name === 'setAttribute' && args[0] && PAGE_ATTRIBUTES.has(literalText(args[0]) ?? '')) return args.slice(1);
  return [];
}

const propertyName = (name: ts.PropertyName | ts.MemberName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;

/** The expression a node shows the user, if it is one of the sinks. */
function sinks(node: ts.Node): readonly ts.Node[] {
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) return shownArguments(node);
  if (ts.isPropertyAssignment(node) && SHOWN_PROPERTIES.has(propertyName(node.name) ?? '')) return [node.initializer];
  if (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(node.left) &&
    SHOWN_ASSIGNED.has(node.left.name.text)
  )
    return [node.right];
  return [];
}

const SELECTOR_METHODS = new Set(['querySelector', 'querySelectorAll', 'closest', 'matches']);

/** Where a literal in a page is data, not text: keys, types, comparisons, imports, errors for the log. */
function isData(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isLiteralTypeNode(parent)) return true;
  if (ts.isCaseClause(parent) || ts.isElementAccessExpression(parent) || ts.isPropertyAssignment(parent)) {
    return !ts.isPropertyAssignment(parent) || parent.name === node || !SHOWN_PROPERTIES.has(propertyName(parent.name) ?? '');
  }
  if (ts.isBinaryExpression(parent)) {
    const k = parent.operatorToken.kind;
    return [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.InKeyword].includes(k);
  }
  if (ts.isCallExpression(parent) && SELECTOR_METHODS.has(calleeName(parent.expression) ?? '')) return true;
  return ts.isNewExpression(parent) && parent.expression.getText() === 'Error';
}

const insideTranslation = (node: ts.Node): boolean =>
  ts.isCallExpression(node.parent) && messageArguments(node.parent).includes(node as ts.Expression);

/** A literal or template in a page whose text reads as a phrase. */
function pagePhrase(source: ts.SourceFile, node: ts.Node, out: Found[]): void {
  const text = literalText(node);
  const pieces = ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)] : [];
  if (text !== undefined ? phrase(text) : pieces.some(phrase)) out.push(found(source, node, text ?? pieces.join('${…}')));
}

/** Checks of what the user typed (`check`, `checkJid`…): what they return is the message the input box shows. */
const CHECK = /^check[A-Z]?/;

/** The name of a named function, method or property a node sits in; an unnamed arrow counts as its enclosing one's. */
function enclosingName(node: ts.Node): string | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name) return n.name.getText();
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && (ts.isPropertyAssignment(n.parent) || ts.isVariableDeclaration(n.parent)))
      return n.parent.name.getText();
  }
  return undefined;
}

/**
 * User-facing English in a source that does not go through t(): the sinks everywhere, any phrase in a page or in a
 * check of the user's input.
 */
export function untranslated(source: ts.SourceFile): Found[] {
  const out: Found[] = [];
  const page = source.fileName.startsWith('src/webviews/pages/');
  const visit = (node: ts.Node): void => {
    for (const shown of sinks(node)) englishIn(source, shown, out);
    const literal = literalText(node) !== undefined || ts.isTemplateExpression(node);
    const everyPhrase = page || CHECK.test(enclosingName(node) ?? '');
    if (everyPhrase && literal && !insideTranslation(node) && !isData(node)) pagePhrase(source, node, out);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(`${f.line}:${f.text}`) && !!seen.add(`${f.line}:${f.text}`));
}
