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
  // Not yet translated (CONTRIBUTING: localisation says what is left): found because they sit in a check or a warnings list.
  {
    path: 'src/core/poscar/header.ts',
    text: 'the lattice vectors are left-handed (a·(b×c) = ${…} Å³ is negative): some programs refuse such cells; swapping two vectors (and their coordinate columns) fixes it',
    reason: 'a reader\'s problem text: its "Line 3:" frame is translated, the readers\' own texts are not yet',
  },
  {
    path: 'src/core/structures/xdatcar/read.ts',
    text: [
      '${…} atoms in one configuration: at most ${…} are read',
      'only the first ${…} configurations are read (${…} atoms in all; at most ${…} configurations or ${…} atoms): the rest of the file is left out',
      "a blank line where VASP writes 'Direct configuration=     1': read as Direct coordinates with blank lines between configurations, as pymatgen reads it (ASE reads only the first configuration)",
      'XDATCAR coordinates are fractional (VASP writes Direct): read as Direct, as ASE and pymatgen read them',
    ],
    reason: "a reader's problem texts, as for POSCAR",
  },
  {
    path: 'src/core/crystallography/xrd.ts',
    text: [
      'The wavelength must be between ${…} and ${…} Å, not ${…}.',
      'The 2θ range must lie within 0–180°, not ${…}–${…}°.',
      'The cell has no volume: its lattice vectors are not independent.',
      'The structure has no atoms.',
      'No X-ray scattering factors for "${…}".',
      'This cell of ${…} atoms needs more reflections than ${…} for any pattern.',
    ],
    reason: 'XrdError, which the command line (English) shares with the editor: not yet given a Locale',
  },
  {
    path: 'src/core/chat/',
    text: [
      'The chat template built a text of more than ${…} characters and was stopped.',
      'The chat template built a list of more than ${…} items and was stopped.',
      'The chat template in ${…} is ${…} characters, more than the ${…} a template may have.',
    ],
    reason: "TemplateError, raised in the render worker thread, which has no Locale yet (like the template's other errors)",
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
    "this.service.show('error', 'Open a file first.', [SHOW_LOG]);",
    'model.warnings.push(`${name} is not a number.`);',
    "return { refuse: 'Nothing to send.' };",
    "function checkName(v: string) { return v ? undefined : 'Enter a name.'; }",
    "const app = { check: (body) => firstProblem(body.x === 'Fe' ? undefined : '\"x\" must be Fe.') };",
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
    '12 Open a file first.',
    '13 ${…} is not a number.',
    '14 Nothing to send.',
    '15 Enter a name.',
    '16 "x" must be Fe.',
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
    "this.service.show('error', t('Open a file first.'), [labels().showLog]);",
    "f.warnings.push(f.t('{0} is not a number.', name));",
    "function checkName(v: string) { return v === 'Fe' ? undefined : t('Enter a name.'); }",
  ];
  assert.deepEqual(scan('src/features/demo.ts', clean.join('\n')), []);
});
