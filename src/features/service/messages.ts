/**
 * What the service commands tell the user: the message they return (what tests assert on), the action labels,
 * the one way a message is shown (with the actions every message understands), and the Restricted Mode refusal
 * (what a failed request's message says, and its actions, are core/service/failure.ts).
 */
import * as vscode from 'vscode';
import { serviceActions } from '../../core/service/failure';
import { notify } from '../../platform/notify';

/**
 * The action labels in VS Code's display language, read where a message is shown (not when the module loads, which
 * may be before the extension's translations are): the button says it, the choice is compared with it.
 */
export function labels() {
  const t = vscode.l10n.t;
  return {
    ...serviceActions(t),
    useBuiltin: t('Use the Built-in Local Service'),
    manageTrust: t('Manage Workspace Trust'),
    sendUnencrypted: t('Send Unencrypted'),
  };
}

/** A message shown to the user; commands return it, which is what tests assert on. */
export interface ShownMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
  actions: string[];
}

/** What "Set Service URL" and "Enter new API key" do on a message that has no handler of its own. */
export interface DefaultActions {
  setServiceUrl(): Thenable<unknown>;
  setApiKey(): Thenable<unknown>;
}

export class Messages {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly defaults: DefaultActions,
  ) {}

  /** Shows a message without waiting for it; a chosen action runs `onChoice`. */
  show(
    severity: ShownMessage['severity'],
    text: string,
    actions: string[] = [],
    onChoice?: (choice: string) => Promise<unknown>,
  ): ShownMessage {
    const message: ShownMessage = { severity, text, actions };
    const { setUrl, enterNewKey, manageTrust } = labels();
    const showFn = severity === 'error' ? notify.error : severity === 'warning' ? notify.warning : notify.info;
    void Promise.resolve(showFn(message.text, ...actions))
      .then((choice) => {
        if (choice === setUrl && !onChoice) return this.defaults.setServiceUrl();
        if (choice === enterNewKey && !onChoice) return this.defaults.setApiKey();
        if (choice === manageTrust) return vscode.commands.executeCommand('workbench.trust.manage');
        if (choice && onChoice) return onChoice(choice);
        return undefined;
      })
      .then(undefined, (error: unknown) => this.log.error(`Message action failed: ${String(error)}`));
    return message;
  }

  /**
   * The one Restricted Mode check: shows why service commands do not run there, or returns undefined when trusted.
   * Public for commands that ask the user something first (Run with Options…), so that they refuse before asking.
   */
  refuseInRestrictedMode(): ShownMessage | undefined {
    if (vscode.workspace.isTrusted) return undefined;
    return this.show(
      'error',
      vscode.l10n.t(
        'Token Lens does not use the service in Restricted Mode: this workspace is not trusted, and its settings could send your text, structures and API key to a server of its choosing. Token counts and the inspector work as usual. Trust the workspace to use the service commands.',
      ),
      [labels().manageTrust],
    );
  }
}
