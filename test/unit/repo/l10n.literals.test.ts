/**
 * No user-facing English outside the translation: notifications, quick picks, input boxes, status bar items, tree
 * items, diagnostics, hovers, code lenses and every phrase of the webview pages go through t() (or a *_MESSAGES
 * table). What is deliberately English is allowed below, each with its reason (CONTRIBUTING: localisation).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse, translatedSources, untranslated, type Found } from '../../l10n/scan';

interface Allowed {
  /** A file, or a folder ending in /. */
  path: string;
  /** The literal as the scanner reports it (or any of several); none: everything in `path`. */
  text?: string | readonly string[];
  reason: string;
}

const ALLOWED: Allowed[] = [
  // Deliberately English.
  { path: 'src/core/structures/languages.ts', reason: 'format names (POSCAR, CIF, vasprun.xml…), as the formats call themselves' },
  { path: 'src/core/providers/providers.ts', reason: "providers' names" },
  { path: 'src/features/models/catalog.ts', reason: "models' names as their publishers write them" },
  {
    path: 'src/core/tokenizers/',
    reason: "the tokenizer registry's descriptions are the service's specification list (GET /tokenizers answers them)",
  },
  { path: 'src/features/chatTool/', reason: "the chat tool's answer is read by the language model, as its modelDescription" },
  {
    path: 'src/webviews/pages/inspector/',
    reason: 'typed PageMessage: the compiler keeps these in PAGE_MESSAGES (core/inspector/strings.ts), which the host translates',
  },
  {
    path: 'src/webviews/pages/structure/main.ts',
    text: 'Lattice="${…}"',
    reason: 'the Extended XYZ comment line handed to 3Dmol, not shown',
  },
  {
    path: 'src/core/applications/',
    text: [
      'JVASP-1002',
      'Si',
      'GaAs',
      'Ga As',
      'Fe Co Ni Cr Mn',
      'Fe2O3 + C',
      'Fe + CO2',
      'elements HAS ALL "Ga","As"',
      'elements HAS ANY "Na","Mg" AND nelements = 2',
      'nelements = 1',
      'chemical_formula_reduced = "TiO2"',
      'formation_energy_peratom',
      'optb88vdw_bandgap',
      'bulk_modulus_kv',
      'shear_modulus_gv',
      'tight_binding',
      'all',
      'any',
      'exact',
    ],
    reason: "values of the service's requests (identifiers, formulas, OPTIMADE filters, model and mode names), typed as they are sent",
  },
];

const allows = (a: Allowed, f: Found): boolean =>
  (a.path.endsWith('/') ? f.file.startsWith(a.path) : f.file === a.path) &&
  (a.text === undefined || (typeof a.text === 'string' ? a.text === f.text : a.text.includes(f.text)));

test('no user-facing English outside t() in src/ (or allowed here with a reason)', () => {
  const found = translatedSources().flatMap(untranslated);
  const left = found.filter((f) => !ALLOWED.some((a) => allows(a, f)));
  assert.deepEqual(
    left.map((f) => `${f.file}:${f.line} ${JSON.stringify(f.text)}`),
    [],
    'literal English the user reads: wrap it in t() (l10n.t / locale.t), then npm run l10n',
  );
  const unused = ALLOWED.filter((a) => !found.some((f) => allows(a, f)));
  assert.deepEqual(unused, [], 'allow-list entries that match nothing any more');
});

const scan = (file: string, text: string): string[] => untranslated(parse(file, text)).map((f) => `${f.line} ${f.text}`);

test('the scanner finds a planted literal in each kind of place the user reads', () => {
  const planted = [
    "void notify.error('Could not save the file.');",
    "void notify.warning(`${name} is gone`, 'Open Settings');",
    "vscode.window.setStatusBarMessage('Token Lens: saved', 3000);",
    "item.text = '$(symbol-numeric) 12 tokens';",
    "item.tooltip = ok ? 'Counting' : t('Done');",
    "const pick = { label: 'Relax', description: 'with the defaults' };",
    "new vscode.TreeItem('Runs');",
    "new vscode.Diagnostic(range, 'Line 3: ' + problem);",
    "new vscode.MarkdownString('**Elements**');",
    "void vscode.window.showInputBox({ prompt: 'Supercell', placeHolder: t('2 2 1') });",
    'markdown.appendMarkdown(`Largest force ${f} eV/Å`);',
  ];
  assert.deepEqual(scan('src/features/demo.ts', planted.join('\n')), [
    '1 Could not save the file.',
    '2 ${…} is gone',
    '2 Open Settings',
    '3 Token Lens: saved',
    '4 $(symbol-numeric) 12 tokens',
    '5 Counting',
    '6 Relax',
    '6 with the defaults',
    '7 Runs',
    '8 Line 3: ',
    '9 **Elements**',
    '10 Supercell',
    '11 Largest force ${…} eV/Å',
  ]);
});

test('in a page every phrase counts, data does not', () => {
  const page = [
    "import { el } from '../bridge';",
    "const hint = el('p', 'hint', 'Waiting for the service.');",
    "button.textContent = 'Pause';",
    "if (message.type === 'Show Structure') return;",
    "const header = t('Cell before and after');",
    "speed.setAttribute('aria-label', 'Frames per second');",
    "throw new Error('Page broken: no app element');",
    "document.querySelector('header .status');",
    "app.querySelector('.plot-area canvas');",
    "const bar = el('div', 'toolbar player');",
  ];
  assert.deepEqual(scan('src/webviews/pages/demo/main.ts', page.join('\n')), [
    '2 Waiting for the service.',
    '3 Pause',
    '6 Frames per second',
  ]);
});

test('what goes through t() passes', () => {
  const clean = [
    "void notify.error(t('Could not save the file.'));",
    "item.text = `$(symbol-numeric) ${plural(locale, n, '{0} token', '{0} tokens')}`;",
    "const pick = { label: t('Relax'), description: name };",
    'new vscode.Diagnostic(range, message);',
    "const data = { type: 'copy', text: value };",
  ];
  assert.deepEqual(scan('src/features/demo.ts', clean.join('\n')), []);
});
