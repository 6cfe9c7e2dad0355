/**
 * The one policy every service request runs under, as the runs see it: src/runs depends on this interface, not
 * on the service feature. requests.ts implements it: refusal in Restricted Mode, URL and key prompting (one key
 * per service origin), the confirmations of a workspace's URL and of plain http://, progress with cancellation,
 * the log line, and the message the user sees when a request fails.
 */
import type { ServiceError, ServiceErrorKind } from '../../core/service/errors';
import type { ServiceClient } from './client';
import type { ShownMessage } from './messages';

/** `untrusted`: refused in Restricted Mode. `declined`: the user did not confirm a workspace URL or plain http://. */
export type CallStatus = 'ok' | 'cancelled' | 'noUrl' | 'noKey' | 'error' | 'untrusted' | 'declined';

export type CallOutcome<T> =
  | { status: 'ok'; value: T }
  | { status: Exclude<CallStatus, 'ok'>; error?: ServiceError; errorKind?: ServiceErrorKind; message?: ShownMessage };

export interface CallOptions {
  /** Whether the request needs the API key (every POST does, spec 5). Default true. */
  needsKey?: boolean;
  /** Cancels the call from outside (besides the progress notification's Cancel button). */
  signal?: AbortSignal;
  /**
   * The whole command again, for "Try Again" and "Enter new API key": what it does with the answer
   * (a report, a message) must happen for the retried request too. Default: the request alone.
   */
  again?: () => Thenable<unknown>;
  /** Count the seconds in the progress notification (for runs that take a while). */
  showElapsed?: boolean;
}

/** What Set Service URL did. */
export interface UrlOutcome {
  status: 'ok' | 'cancelled' | 'invalid' | 'untrusted';
  url?: string;
  message?: string;
}

/** Where a request may go: the URL read once, and the origin its key belongs to. */
export interface Target {
  url: string;
  origin: string;
}

export interface RequestPolicy {
  /**
   * Runs one service operation the way every command should (see requests.ts). Never throws for service
   * failures; resolves with the outcome.
   */
  call<T>(title: string, run: (client: ServiceClient, signal: AbortSignal) => Promise<T>, options?: CallOptions): Promise<CallOutcome<T>>;
  /** Shows a message without waiting for it; a chosen action runs `onChoice`. */
  show(severity: ShownMessage['severity'], text: string, actions?: string[], onChoice?: (choice: string) => Promise<unknown>): ShownMessage;
  /** Shows why service commands do not run in Restricted Mode, or returns undefined when trusted (before asking anything). */
  refuseInRestrictedMode(): ShownMessage | undefined;
  /** With a URL sets it; without, asks in an input box, `explanation` saying why. */
  setServiceUrl(url?: string, explanation?: string): Promise<UrlOutcome>;
  /**
   * Where the service is, once every check a request passes has passed (Restricted Mode, a URL set, a workspace's URL
   * confirmed, plain http to another machine accepted), or why not, shown already: for what opens the service
   * without a request, like an application's page.
   */
  target(): Promise<Target | { status: 'untrusted' | 'noUrl' | 'declined'; message: ShownMessage }>;
}
