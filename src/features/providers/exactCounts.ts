/**
 * Exact counts from a provider's counting endpoint, through the service client's request policy (timeouts,
 * retries that honour 429 and Retry-After, capped answers, no redirects, the key redacted from every message),
 * kept by content so the same text is never sent twice; failures worded in the client options' locale. No vscode:
 * unit-tested against stand-in servers.
 */
import { contentKey, type Provider, type ProviderId, type ProviderInput } from '../../core/providers/providers';
import { serviceOrigin } from '../../core/service/origin';
import { isServiceError, serviceErrorSummary } from '../../core/service/errors';
import { ENGLISH } from '../../core/util/locale';
import { ServiceClient, type ClientOptions } from '../service/client';

export interface ExactCount {
  tokens: number;
  provider: ProviderId;
  model: string;
  origin: string;
  /** When the provider confirmed it (epoch ms). */
  at: number;
}

export interface CountRequest {
  provider: Provider;
  endpoint: string;
  model: string;
  key: string;
  input: ProviderInput;
  signal?: AbortSignal;
}

export class ProviderCountError extends Error {
  constructor(
    message: string,
    readonly kind: string,
  ) {
    super(message);
    this.name = 'ProviderCountError';
  }
}

/** How many counts are kept (by content, provider, endpoint and model). */
const MAX_KEPT = 1000;

/** The input's texts, for the cache key: its text, or every message's role and text and the tools. */
function inputParts(input: ProviderInput): string[] {
  if ('text' in input) return ['text', input.text];
  const { messages, tools } = input.conversation;
  return ['conversation', JSON.stringify(messages), JSON.stringify(tools ?? null)];
}

export class ExactCounts {
  private readonly kept = new Map<string, ExactCount>();

  constructor(private readonly clientOptions: Partial<ClientOptions> = {}) {}

  private static key(provider: Provider, origin: string, model: string, input: ProviderInput): string {
    return `${provider.id} ${origin} ${model} ${contentKey(inputParts(input))}`;
  }

  /** The count already confirmed for this input, if any. */
  lookup(provider: Provider, endpoint: string, model: string, input: ProviderInput): ExactCount | undefined {
    const origin = serviceOrigin(endpoint);
    return origin ? this.kept.get(ExactCounts.key(provider, origin, model, input)) : undefined;
  }

  /** Asks the provider (or the cache); a failure is a ProviderCountError whose message names the provider and never holds the key. */
  async count(request: CountRequest, now = Date.now): Promise<ExactCount> {
    const { provider, endpoint, model, key, input, signal } = request;
    const { t } = this.clientOptions.locale ?? ENGLISH;
    const origin = serviceOrigin(endpoint);
    if (!origin) throw new ProviderCountError(t('{0}: the endpoint "{1}" is not an http(s) URL.', provider.label, endpoint), 'config');
    const cacheKey = ExactCounts.key(provider, origin, model, input);
    const kept = this.kept.get(cacheKey);
    if (kept) return kept;
    const client = new ServiceClient({
      maxRetries: 2,
      timeoutMs: 30_000,
      maxResponseBytes: 1024 * 1024,
      ...this.clientOptions,
      baseUrl: endpoint,
      apiKey: key,
      authHeaders: provider.headers,
    });
    let answer: unknown;
    try {
      const { body } = await client.request('POST', provider.path(model), provider.body(model, input), signal ? { signal } : {});
      answer = body.type === 'json' ? body.value : undefined;
    } catch (error) {
      if (!isServiceError(error)) throw error;
      throw new ProviderCountError(t('{0}: {1}', provider.label, serviceErrorSummary(error, t, 'endpoint')), error.kind);
    }
    const tokens = provider.read(answer);
    if (tokens === undefined)
      throw new ProviderCountError(
        t('{0}: the answer holds no token count ({1}).', provider.label, `${origin}${provider.path(model)}`),
        'malformedResponse',
      );
    const count: ExactCount = { tokens, provider: provider.id, model, origin, at: now() };
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(cacheKey, count);
    return count;
  }
}
