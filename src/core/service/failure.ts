/**
 * What a failed request's message says (what happened, then what to do) and the actions it offers, worded in the
 * Locale the extension gives (features/service/requests.ts passes hostLocale()). Pure, so a unit test reads it.
 */
import type { Locale, Translate } from '../util/locale';
import { serviceErrorSummary, type ServiceError } from './errors';

/** The buttons of the service's messages, worded by `t`: shown so, and the user's choice compared with the same words. */
export const serviceActions = (t: Translate) => ({
  enterNewKey: t('Enter new API key'),
  setUrl: t('Set Service URL'),
  showLog: t('Show Log'),
  openSettings: t('Open Settings'),
  tryAgain: t('Try Again'),
});

export interface FailureMessage {
  text: string;
  actions: string[];
}

export function failureMessage(error: ServiceError, url: string, timeoutSeconds: number, { t }: Locale): FailureMessage {
  const said = sentence(serviceErrorSummary(error, t));
  const a = serviceActions(t);
  switch (error.kind) {
    case 'unauthorized':
      return {
        text: t('{0} Enter a new API key (from the account settings of the service’s web site) and Token Lens will try again.', said),
        actions: [a.enterNewKey],
      };
    case 'badRequest':
      return {
        text: /tokenizer/i.test(error.detail ?? '')
          ? t('{0} Choose a tokenizer the service lists (Token Lens: Select Tokenizer) and try again.', said)
          : t('{0} Check the input and try again.', said),
        actions: [a.showLog],
      };
    case 'notFound':
      return { text: t('{0} If the service URL ({1}) is wrong, set it again.', said, url), actions: [a.setUrl, a.showLog] };
    case 'rateLimited':
      return {
        text:
          error.retryAfterMs !== undefined
            ? t(
                '{0} The service allows 100 requests per minute per API key; try again in {1} s.',
                said,
                Math.ceil(error.retryAfterMs / 1000),
              )
            : t('{0} The service allows 100 requests per minute per API key; try again in a minute.', said),
        actions: [a.tryAgain],
      };
    case 'server':
      return {
        text: error.retries
          ? t('{0} Token Lens retried {1} times. Try again later; the log has the details.', said, error.retries)
          : t('{0} Try again later; the log has the details.', said),
        actions: [a.tryAgain, a.showLog],
      };
    case 'notImplemented':
      return { text: said, actions: [a.showLog] };
    case 'timeout':
      return {
        text: t(
          '{0} Large computations can take a minute; raise “tokenLens.service.timeoutSeconds” (now {1} s) or try again.',
          said,
          timeoutSeconds,
        ),
        actions: [a.tryAgain, a.openSettings],
      };
    case 'network':
      return {
        text: t('{0} Check the service URL ({1}) and your network connection.', said, url),
        actions: [a.tryAgain, a.setUrl, a.showLog],
      };
    case 'malformedResponse':
      return {
        text: t('{0} Check that the service URL ({1}) points at the service and not at another web site.', said, url),
        actions: [a.setUrl, a.showLog],
      };
    default:
      return { text: said, actions: [a.setUrl] };
  }
}

/** Ends a message with a full stop unless it already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}
