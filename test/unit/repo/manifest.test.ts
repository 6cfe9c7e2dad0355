/**
 * The manifest against the code: the tokenizer setting offers exactly the registry's tokenizers with
 * the registry's descriptions, every %key% in package.json has its English text in package.nls.json
 * (and nothing there is unused), and the token commands sit in the menus a user looks in.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SETTING_DEFAULTS } from '../../../src/core/settings';
import { TOKENIZERS } from '../../../src/core/tokenizers/index';
import { PARAMETERS, type Parameter } from '../../../src/core/runs/parameters';

const PARAMETER_SETTINGS = new Map<string, Parameter>([...PARAMETERS.relax, ...PARAMETERS.md].map((p) => [p.setting, p]));

const root = join(__dirname, '..', '..', '..', '..');
const manifestText = readFileSync(join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText);
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (value: string): string => {
  const key = /^%(.+)%$/.exec(value)?.[1];
  assert.ok(key, `${value} is a %key% reference`);
  assert.ok(key in nls, `package.nls.json has ${key}`);
  return nls[key]!;
};

test('the tokenizer setting lists the registry, in order, each with the registry description', () => {
  const setting = manifest.contributes.configuration.properties['tokenLens.tokenizer'];
  assert.deepEqual(
    setting.enum,
    TOKENIZERS.map((t) => t.name),
  );
  for (const tool of manifest.contributes.languageModelTools ?? []) {
    // Examples, not an enum: the tool also takes the model tokenizers a user added at run time.
    const tokenizer = tool.inputSchema?.properties?.tokenizer;
    assert.equal(tokenizer?.enum, undefined, `${tool.name}: no enum, so added models are accepted`);
    const names = tokenizer?.examples;
    if (names)
      assert.deepEqual(
        names,
        TOKENIZERS.map((t) => t.name),
        `${tool.name}: the tool's tokenizer names`,
      );
  }
  assert.deepEqual(
    setting.enumDescriptions.map(text),
    TOKENIZERS.map((t) => t.description),
  );
  assert.equal(setting.default, 'cl100k_base');
});

test('package.json declares every setting with the default the extension reads (core/settings.ts), and no other', () => {
  const declared = Object.entries(manifest.contributes.configuration.properties as Record<string, { default: unknown }>).map(
    ([key, value]) => [key.replace(/^tokenLens\./, ''), value.default] as const,
  );
  assert.deepEqual(Object.fromEntries(declared), SETTING_DEFAULTS);
  assert.ok(declared.every(([key]) => key in SETTING_DEFAULTS));
});

test('every setting is described through package.nls.json, ordered, integers typed as integers', () => {
  const properties = Object.entries<Record<string, unknown>>(manifest.contributes.configuration.properties);
  const orders = properties.map(([, p]) => p.order);
  assert.deepEqual(
    [...orders].sort((a, b) => Number(a) - Number(b)),
    properties.map((_, i) => i + 1),
    'order 1..n, each once',
  );
  for (const [name, property] of properties) {
    const description = (property.markdownDescription ?? property.description) as string | undefined;
    assert.ok(description && text(description).length > 10, `${name} has a description`);
    const parameter = PARAMETER_SETTINGS.get(name.replace(/^tokenLens\./, ''));
    if (parameter?.type === 'number') {
      // A relax or MD parameter: typed and bounded as core/runs/parameters.ts checks it (the reference server's ranges).
      assert.equal(property.type, parameter.integer ? 'integer' : 'number', `${name} type`);
      assert.deepEqual([property.minimum, property.maximum], [parameter.min, parameter.max], `${name} range`);
    } else if (parameter?.type === 'choice') assert.deepEqual(property.enum, parameter.choices, `${name} choices`);
    // A number whose default is a whole number holds whole numbers; a fractional default (a wavelength in Å, a tolerance in Å) is a number.
    else if (typeof property.default === 'number')
      assert.equal(property.type, Number.isInteger(property.default) ? 'integer' : 'number', `${name} holds a whole number`);
  }
  assert.equal(PARAMETER_SETTINGS.size, 9, 'every parameter has its setting');
});

test('every command title and category is a %key% with English text, and package.nls.json has no unused key', () => {
  for (const command of manifest.contributes.commands) {
    assert.ok(text(command.title).length > 0, command.command);
    assert.equal(text(command.category), 'Token Lens');
  }
  const used = new Set([...manifestText.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]));
  assert.deepEqual(
    Object.keys(nls).filter((k) => !used.has(k)),
    [],
    'keys nothing refers to',
  );
  // What a chat model reads (the tool's modelDescription and input schema) stays English on purpose.
  const shown = structuredClone(manifest.contributes);
  for (const tool of shown.languageModelTools ?? []) {
    delete tool.name; // an identifier
    delete tool.modelDescription;
    delete tool.inputSchema;
  }
  const literal = /"(title|description|markdownDescription|name|contents|contextualTitle|displayName|userDescription)": "[^%$]/.exec(
    JSON.stringify(shown, null, 1),
  );
  assert.equal(literal?.[0], undefined, 'no literal user-facing text left in contributes');
});

test('count and inspector: hidden from the palette without an editor, in the context menu with a selection, inspector on the editor title', () => {
  const menus = manifest.contributes.menus;
  const entry = (menu: string, command: string) => menus[menu].find((m: { command: string }) => m.command === command);
  for (const command of ['tokenLens.countSelection', 'tokenLens.openInspector']) {
    assert.equal(entry('commandPalette', command)?.when, 'editorIsOpen', `${command} in the palette only with an editor`);
    assert.equal(entry('editor/context', command)?.when, 'editorHasSelection', `${command} in the context menu with a selection`);
  }
  const title = entry('editor/title', 'tokenLens.openInspector');
  assert.match(title?.group ?? '', /^navigation/, 'a button on the editor title');
  const inspector = manifest.contributes.commands.find((c: { command: string }) => c.command === 'tokenLens.openInspector');
  assert.match(inspector.icon, /^\$\([a-z-]+\)$/, 'the button has a codicon');
});

test('Relax and MD with Options… sit wherever their plain commands do, right after them; Run Again with Options… beside Run Again', () => {
  const menus = manifest.contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
  for (const [plain, options] of [
    ['tokenLens.relax', 'tokenLens.relaxWithOptions'],
    ['tokenLens.md', 'tokenLens.mdWithOptions'],
  ]) {
    for (const [menu, entries] of Object.entries(menus)) {
      const base = entries.find((m) => m.command === plain);
      const added = entries.find((m) => m.command === options);
      assert.equal(Boolean(added), Boolean(base), `${options} in ${menu} exactly when ${plain} is`);
      if (!base || !added) continue;
      assert.equal(added.when, base.when, `${menu}: shown when the plain command is`);
      if (base.group) assert.equal(added.group!.split('@')[0], base.group.split('@')[0], `${menu}: the same group`);
      if (base.group) assert.ok(Number(added.group!.split('@')[1]) > Number(base.group.split('@')[1]), `${menu}: after it`);
      assert.ok(entries.indexOf(added) > entries.indexOf(base));
    }
  }
  const again = menus['view/item/context']!.filter((m) => m.command === 'tokenLens.runs.againWithOptions');
  assert.equal(again.length, 1);
  assert.match(again[0]!.when!, /viewItem =~ .*\\\.options\$/, 'only on relax and MD runs that have ended');
  assert.equal(menus.commandPalette!.find((m) => m.command === 'tokenLens.runs.againWithOptions')?.when, 'false');
});
