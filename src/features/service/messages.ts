/**
 * What the service commands tell the user: the message they return (what tests assert on), the action labels,
 * the one way a message is shown (with the actions every message understands), the Restricted Mode refusal,
 * and what a failed request's message says for each kind of failure.
 */
import * as vscode from 'vscode';
import type { ServiceError } from '../../core/service/errors';
import { notify } from '../../platform/notify';

export const ENTER_NEW_KEY = 'Enter new API key';
export const SET_URL = 'Set Service URL';
export const SHOW_LOG = 'Show Log';
export const OPEN_SETTINGS = 'Open Settings';
export const TRY_AGAIN = 'Try Again';
export const USE_BUILTIN = 'Use the Built-in Local Service';
const MANAGE_TRUST = 'Manage Workspace Trust';

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
    const showFn = severity === 'error' ? notify.error : severity === 'warning' ? notify.warning : notify.info;
    void Promise.resolve(showFn(message.text, ...actions))
      .then((choice) => {
        if (choice === SET_URL && !onChoice) return this.defaults.setServiceUrl();
        if (choice === ENTER_NEW_KEY && !onChoice) return this.defaults.setApiKey();
        if (choice === MANAGE_TRUST) return vscode.commands.executeCommand('workbench.trust.manage');
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
      [MANAGE_TRUST],
    );
  }
}

/** What a failed request's message says (what happened, then what to do) and the actions it offers. */
export function failureMessage(error: ServiceError, url: string, timeoutSeconds: number): { text: string; actions: string[] } {
  const said = sentence(error.message);
  switch (error.kind) {
    case 'unauthorized':
      return {
        text: `${said} Enter a new API key (from the account settings of the service’s web site) and Token Lens will try again.`,
        actions: [ENTER_NEW_KEY],
      };
    case 'badRequest':
      return {
        text: /tokenizer/i.test(error.detail ?? '')
          ? `${said} Choose a tokenizer the service lists (Token Lens: Select Tokenizer) and try again.`
          : `${said} Check the input and try again.`,
        actions: [SHOW_LOG],
      };
    case 'notFound':
      return { text: `${said} If the service URL (${url}) is wrong, set it again.`, actions: [SET_URL, SHOW_LOG] };
    case 'rateLimited': {
      const wait = error.retryAfterMs !== undefined ? ` in ${Math.ceil(error.retryAfterMs / 1000)} s` : ' in a minute';
      return { text: `${said} The service allows 100 requests per minute per API key; try again${wait}.`, actions: [TRY_AGAIN] };
    }
    case 'server':
      return {
        text: `${said}${error.retries ? ` Token Lens retried ${error.retries} times.` : ''} Try again later; the log has the details.`,
        actions: [TRY_AGAIN, SHOW_LOG],
      };
    case 'notImplemented':
      return { text: said, actions: [SHOW_LOG] };
    case 'timeout':
      return {
        text: `${said} Large computations can take a minute; raise “tokenLens.service.timeoutSeconds” (now ${timeoutSeconds} s) or try again.`,
        actions: [TRY_AGAIN, OPEN_SETTINGS],
      };
    case 'network':
      return { text: `${said} Check the service URL (${url}) and your network connection.`, actions: [TRY_AGAIN, SET_URL, SHOW_LOG] };
    case 'malformedResponse':
      return {
        text: `${said} Check that the service URL (${url}) points at the service and not at another web site.`,
        actions: [SET_URL, SHOW_LOG],
      };
    default:
      return { text: said, actions: [SET_URL] };
  }
}

/** Ends a message with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
