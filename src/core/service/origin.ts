/**
 * Which service a URL names, and the rules that follow from it (pure: no `vscode` import). An API key
 * belongs to the origin (scheme, host, port) of the service it was entered for and is never sent to another.
 */

/** The secret name the extension used before keys were bound to origins (one key for every URL). */
export const LEGACY_API_KEY_SECRET = 'tokenLens.service.apiKey';

const KEY_SECRET_PREFIX = 'tokenLens.apiKey:';

/**
 * The origin of a service URL in the one spelling `URL` gives it: lower-case scheme and host, default port
 * dropped, IDN in punycode, IPv6 in brackets. Undefined for anything that is not an http(s) URL.
 */
export function serviceOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
}

/** The SecretStorage name of the key for one origin. */
export function apiKeySecretName(origin: string): string {
  return `${KEY_SECRET_PREFIX}${origin}`;
}

/** Whether a host name or address is this machine: localhost, *.localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4 !== null && v4.slice(1).every((part) => Number(part) <= 255);
}

/**
 * The http-warning rule, the same wherever a URL comes from (settings, a command argument, the input box):
 * plain http:// to another machine sends the key and the data unencrypted.
 */
export function isUnencryptedRemote(url: string): boolean {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
  } catch {
    return false;
  }
}

/** Trims, drops a pasted "Bearer " prefix; undefined when nothing usable is left. */
export function normalizeApiKey(value: string | undefined): string | undefined {
  const key = value
    ?.trim()
    .replace(/^bearer\s+/i, '')
    .trim();
  return key ? key : undefined;
}

/** Where the service URL in effect comes from, given what `WorkspaceConfiguration.inspect` reports. */
export type UrlSource = 'user' | 'workspace' | 'default';

export interface InspectedSetting<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/**
 * A URL counts as the workspace's when a workspace (or folder) value is set and differs from the user's own:
 * a workspace repeating the user's URL adds nothing to confirm.
 */
export function urlSource(inspected: InspectedSetting<string> | undefined): UrlSource {
  const clean = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() ? value.trim().replace(/\/+$/, '') : undefined;
  const workspace = clean(inspected?.workspaceFolderValue) ?? clean(inspected?.workspaceValue);
  const user = clean(inspected?.globalValue);
  if (workspace !== undefined && workspace !== user) return 'workspace';
  return user !== undefined || workspace !== undefined ? 'user' : 'default';
}

/**
 * The origin an earlier version's single key moves to: that of the URL in the user's own settings, never a
 * workspace's (a folder's settings could otherwise claim the key). Undefined while the user has none.
 */
export function legacyKeyOrigin(inspected: InspectedSetting<string> | undefined): string | undefined {
  const user = inspected?.globalValue;
  return typeof user === 'string' ? serviceOrigin(user) : undefined;
}

/** Validates a base URL typed by the user; returns the message to show, or undefined when fine. */
export function validateServiceUrl(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter the base URL of the service, e.g. https://example.org/api';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'This is not a URL. Enter it with its scheme, e.g. https://example.org/api';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https:// (or http:// for a local server).';
  if (url.search || url.hash) return 'Enter the base URL only, without ?query or #fragment.';
  if (url.username || url.password) return 'Do not put credentials in the URL; Token Lens sends the API key in a header.';
  return undefined;
}
