/**
 * The two questions asked before data leaves for a service the user may not have chosen: a URL from the
 * workspace's settings (once per workspace, until its URL changes) and plain http:// to another machine (once
 * per origin, remembered across workspaces). Notifications with buttons, not modal dialogs (which VS Code
 * refuses to show in extension tests): the request waits for the answer either way, and closing one is "no".
 */
import * as vscode from 'vscode';
import { notify } from '../../platform/notify';
import { labels } from './messages';

/** workspaceState: the workspace-provided service URL the user confirmed for this workspace. */
const CONFIRMED_WORKSPACE_URL = 'tokenLens.service.confirmedWorkspaceUrl';
/** globalState: http:// origins on other machines the user agreed to send to unencrypted. */
const UNENCRYPTED_ORIGINS = 'tokenLens.service.unencryptedOrigins';

export class Confirmations {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Whether the workspace's URL may be used: asked until the user says yes for this URL. */
  async workspaceUrl(url: string, origin: string): Promise<boolean> {
    if (this.context.workspaceState.get(CONFIRMED_WORKSPACE_URL) === url) return true;
    const use = vscode.l10n.t('Use This URL');
    const choice = await notify.warning(
      vscode.l10n.t(
        'This workspace’s settings set the Token Lens service URL to {0}. Token Lens would send your text or structure there, with the API key you keep for {1} (other services’ keys are never sent there). Use it for this workspace?',
        url,
        origin,
      ),
      use,
      vscode.l10n.t('Don’t Use'),
    );
    if (choice !== use) return false;
    await this.workspaceUrlSaved(url);
    this.log.info(`Workspace service URL ${url} confirmed for this workspace`);
    return true;
  }

  /** A URL the user saved into the workspace's settings themselves: nothing left to confirm. */
  workspaceUrlSaved(url: string): Thenable<void> {
    return this.context.workspaceState.update(CONFIRMED_WORKSPACE_URL, url);
  }

  /** Whether plain http:// to `origin` may be used: asked once per origin. */
  async unencrypted(origin: string): Promise<boolean> {
    const accepted = this.context.globalState.get<string[]>(UNENCRYPTED_ORIGINS, []);
    if (accepted.includes(origin)) return true;
    const send = labels().sendUnencrypted;
    const choice = await notify.warning(
      vscode.l10n.t(
        '{0} is plain http://: anyone on the network between you and it could read your API key and what you send. Use https:// unless this is a network you trust. Send unencrypted to {0} (asked once for this origin)?',
        origin,
      ),
      send,
      vscode.l10n.t('Don’t Send'),
    );
    if (choice !== send) return false;
    await this.context.globalState.update(UNENCRYPTED_ORIGINS, [...accepted, origin]);
    this.log.warn(`Sending to ${origin} over plain http:// (the user agreed)`);
    return true;
  }
}
