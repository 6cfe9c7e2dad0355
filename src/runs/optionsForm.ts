/**
 * Run with Options…: a quick form of a relaxation's or an MD run's parameters. A list shows each parameter
 * with its value; picking one edits it (a number in a validated input box, a choice or true/false in a pick
 * list) and comes back to the list; "Run" sends. The values are remembered per workspace, seeded from the
 * settings; what they may be and what is sent is core/runs/parameters.ts.
 */
import * as vscode from 'vscode';
import {
  parameterRow,
  PARAMETERS,
  reviveValues,
  validateInput,
  parseValue,
  type Parameter,
  type ParameterKind,
  type ParameterValues,
} from '../core/runs/parameters';
import { config } from '../platform/config';
import { hostLocale } from '../platform/locale';

const MEMORY = (kind: ParameterKind) => `tokenLens.runOptions.${kind}`;

type Item = vscode.QuickPickItem & { action: 'run' | 'reset' | Parameter };

/** The form's values: the workspace's last ones, else the settings (anything invalid: the default). */
export function rememberedValues(memory: vscode.Memento, kind: ParameterKind): ParameterValues {
  return reviveValues(kind, memory.get(MEMORY(kind)), config.parameters(kind));
}

/** Asks for the parameters, starting from `start`; the values to send, or undefined when the user left the form. */
export async function askParameters(
  memory: vscode.Memento,
  kind: ParameterKind,
  title: string,
  start: ParameterValues = rememberedValues(memory, kind),
): Promise<ParameterValues | undefined> {
  let values = reviveValues(kind, start);
  let active: Parameter | 'run' = 'run';
  for (;;) {
    const picked = await pickItem(kind, title, values, active);
    if (!picked) return undefined;
    if (picked === 'run') {
      await memory.update(MEMORY(kind), values);
      return values;
    }
    if (picked === 'reset') values = reviveValues(kind, config.parameters(kind));
    else {
      active = picked;
      const value = await editValue(picked, values[picked.name]!, title);
      if (value !== undefined) values = { ...values, [picked.name]: value };
    }
    await memory.update(MEMORY(kind), values);
  }
}

function items(kind: ParameterKind, values: ParameterValues): Item[] {
  const run: Item = {
    label: vscode.l10n.t(`$(play) Run`),
    description: kind === 'relax' ? vscode.l10n.t('relax with these values') : vscode.l10n.t('run MD with these values'),
    action: 'run',
  };
  const rows: Item[] = PARAMETERS[kind].map((p) => ({ label: p.name, ...parameterRow(p, values[p.name]!, hostLocale()), action: p }));
  const reset: Item = {
    label: vscode.l10n.t('Reset to Settings'),
    description: vscode.l10n.t('the values of the tokenLens settings'),
    action: 'reset',
  };
  return [run, ...rows, { label: '', kind: vscode.QuickPickItemKind.Separator, action: 'reset' }, reset];
}

/** The list; resolves with what was picked, or undefined when it was closed. */
function pickItem(
  kind: ParameterKind,
  title: string,
  values: ParameterValues,
  active: Parameter | 'run',
): Promise<Item['action'] | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = vscode.l10n.t('Pick a parameter to change it, or Run');
  pick.ignoreFocusOut = true;
  pick.items = items(kind, values);
  const current = pick.items.find((i) => i.action === active);
  if (current) pick.activeItems = [current];
  return new Promise((resolve) => {
    let chosen: Item['action'] | undefined;
    pick.onDidAccept(() => {
      chosen = (pick.selectedItems[0] ?? pick.activeItems[0])?.action;
      if (chosen) pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

/** One parameter's new value; undefined when the user went back without one. */
async function editValue(p: Parameter, value: string | number | boolean, title: string): Promise<string | number | boolean | undefined> {
  if (p.type === 'number') {
    const text = await vscode.window.showInputBox({
      title: `${title}: ${p.name}`,
      prompt: vscode.l10n.t('{0} ({1}): {2}. Default {3}.', p.name, p.unit, p.about(hostLocale().t), p.default),
      value: String(value),
      ignoreFocusOut: true,
      validateInput: (v) => validateInput(p, v, hostLocale()),
    });
    if (text === undefined) return undefined;
    const parsed = parseValue(p, text);
    return parsed.ok ? parsed.value : undefined;
  }
  const choices = p.type === 'boolean' ? ['true', 'false'] : [...p.choices];
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({
      label: c,
      description: c === String(p.default) ? vscode.l10n.t('default') : undefined,
      picked: c === String(value),
    })),
    { title: `${title}: ${p.name}`, placeHolder: p.about(hostLocale().t), ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  const parsed = parseValue(p, picked.label);
  return parsed.ok ? parsed.value : undefined;
}
