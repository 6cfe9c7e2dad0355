/** Compares the service's tokenization with the local engine's and explains differences, worded by `t`. Pure. */
import type { TokenizeResult } from '../tokenizers/types';
import { codeCell } from '../util/markdown';
import { findTokenizer } from '../tokenizers/registry';
import { markdownText } from '../util/outsideText';
import { substitute, type Translate } from '../util/locale';

export interface TokenDifference {
  index: number;
  local?: { token: string; id: number };
  remote?: { token: string; id: number };
}

export interface Comparison {
  /** Same tokens and same ids. */
  identical: boolean;
  /** Same token texts (the ids may still differ). */
  sameSplit: boolean;
  remoteCount: number;
  localCount: number;
  firstDifference?: TokenDifference;
  /** Plain sentences for the user, in order of relevance. */
  explanations: string[];
}

const SPECIAL = /<\|(endoftext|fim_prefix|fim_middle|fim_suffix|endofprompt|im_start|im_end)\|>/;

export function compareResults(
  requested: string,
  text: string,
  remote: TokenizeResult,
  local: TokenizeResult,
  localSpecialTokens: 'text' | 'special',
  t: Translate = substitute,
): Comparison {
  const identical =
    remote.n_tokens === local.n_tokens &&
    remote.tokens.every((t, i) => t === local.tokens[i]) &&
    remote.token_ids.every((id, i) => id === local.token_ids[i]);
  const sameSplit = remote.tokens.length === local.tokens.length && remote.tokens.every((t, i) => t === local.tokens[i]);
  const firstDifference = firstDifferenceOf(remote, local);
  const info = findTokenizer(requested);
  const explanations = sideNotes(requested, text, remote, local, t);
  if (identical) {
    explanations.unshift(t('The service and the local engine agree: {0} tokens, same token texts and ids.', remote.n_tokens));
  } else if (sameSplit) {
    explanations.unshift(
      info?.kind === 'character' || info?.kind === 'whitespace'
        ? t(
            'Same {0} tokens, different ids: the spec leaves the ids of the {1} tokenizer open, so the service numbers them its own way.',
            remote.n_tokens,
            info.kind,
          )
        : t(
            'Same {0} tokens, different ids: the service uses a different vocabulary numbering than the local {1} encoding.',
            remote.n_tokens,
            info?.kind ?? requested,
          ),
    );
  } else {
    explanations.unshift(
      firstDifference
        ? t(
            'The service counts {0} tokens and Token Lens {1}. They first differ at token {2}: local {3}, service {4}.',
            remote.n_tokens,
            local.n_tokens,
            firstDifference.index + 1,
            describe(firstDifference.local, t),
            describe(firstDifference.remote, t),
          )
        : t('The service counts {0} tokens and Token Lens {1}.', remote.n_tokens, local.n_tokens),
    );
    explanations.push(...splitNotes(requested, text, localSpecialTokens, explanations.length === 1, t));
  }
  return {
    identical,
    sameSplit,
    remoteCount: remote.n_tokens,
    localCount: local.n_tokens,
    ...(firstDifference ? { firstDifference } : {}),
    explanations,
  };
}

function firstDifferenceOf(remote: TokenizeResult, local: TokenizeResult): TokenDifference | undefined {
  const length = Math.max(remote.tokens.length, local.tokens.length);
  for (let i = 0; i < length; i++) {
    if (remote.tokens[i] === local.tokens[i] && remote.token_ids[i] === local.token_ids[i]) continue;
    return {
      index: i,
      ...(i < local.tokens.length ? { local: { token: local.tokens[i]!, id: local.token_ids[i]! } } : {}),
      ...(i < remote.tokens.length ? { remote: { token: remote.tokens[i]!, id: remote.token_ids[i]! } } : {}),
    };
  }
  return undefined;
}

/** What differs around the tokens: the tokenizer's name in the answer, the text, how characters are counted. */
function sideNotes(requested: string, text: string, remote: TokenizeResult, local: TokenizeResult, t: Translate): string[] {
  const notes: string[] = [];
  const info = findTokenizer(requested);
  if (remote.tokenizer !== requested) {
    notes.push(
      info && info.name !== info.kind
        ? t(
            'The service answered with tokenizer "{0}" for the name "{1}" (locally "{1}" is an alias of {2}): it reports the resolved name rather than echoing the name sent.',
            remote.tokenizer,
            requested,
            info.kind,
          )
        : t(
            'The service answered with tokenizer "{0}" for the name "{1}": it reports the resolved name rather than echoing the name sent.',
            remote.tokenizer,
            requested,
          ),
    );
  }
  if (remote.text !== text) {
    notes.push(
      t(
        'The service returned a different text than was sent (for example, line endings or Unicode normalization changed), so the counts are not of the same text.',
      ),
    );
  }
  if (remote.n_chars !== local.n_chars) {
    notes.push(
      t(
        'The service counts {0} characters and Token Lens {1}: one side counts UTF-16 code units or bytes instead of Unicode characters.',
        remote.n_chars,
        local.n_chars,
      ),
    );
  }
  return notes;
}

/** Why the two may split the text differently; `nothingElse` when no other note explains it. */
function splitNotes(requested: string, text: string, localSpecialTokens: 'text' | 'special', nothingElse: boolean, t: Translate): string[] {
  const notes: string[] = [];
  const info = findTokenizer(requested);
  if (SPECIAL.test(text)) {
    notes.push(
      localSpecialTokens === 'special'
        ? t(
            'The text contains special-token strings such as <|endoftext|>: Token Lens counts each as one special token (setting tokenLens.specialTokens = "special"), while the service counts them as ordinary text.',
          )
        : t(
            'The text contains special-token strings such as <|endoftext|>: Token Lens counts them as ordinary text (setting tokenLens.specialTokens = "text"); the service may count each as one special token.',
          ),
    );
  }
  if (info && info.name !== info.kind) {
    notes.push(t('"{0}" is an alias: Token Lens resolves it to {1}; the service may map it to another encoding.', requested, info.kind));
  }
  if (info?.kind === 'whitespace') {
    notes.push(
      t('The spec leaves open whether separators are tokens of the whitespace tokenizer; the service and Token Lens decide differently.'),
    );
  }
  if (nothingElse && notes.length === 0) {
    notes.push(t('The service may run a different version of the encoding. The local count is what Token Lens shows in the status bar.'));
  }
  return notes;
}

function describe(side: { token: string; id: number } | undefined, t: Translate): string {
  return side ? t('{0} (id {1})', JSON.stringify(side.token), side.id) : t('nothing (the text ended)');
}

/** A markdown report: the summary, the explanations, and the first tokens side by side. */
export function comparisonMarkdown(
  requested: string,
  remote: TokenizeResult,
  local: TokenizeResult | undefined,
  comparison: Comparison | undefined,
  serviceUrl: string,
  maxRows = 200,
  t: Translate = substitute,
): string {
  const lines = [
    `# ${t('Token Lens: service tokenization')}`,
    '',
    t('Service: {0}', inline(serviceUrl)),
    '',
    `| | ${t('Service')} | ${t('Token Lens (local)')} |`,
    '|---|---|---|',
    `| ${t('Tokenizer')} | ${cell(remote.tokenizer)} | ${cell(local?.tokenizer ?? requested)} |`,
    `| ${t('Tokens')} | ${inline(remote.n_tokens)} | ${local?.n_tokens ?? '—'} |`,
    `| ${t('Characters')} | ${inline(remote.n_chars)} | ${local?.n_chars ?? '—'} |`,
    '',
  ];
  if (comparison) for (const sentence of comparison.explanations) lines.push(`- ${inline(sentence)}`);
  else lines.push(`- ${t('Token Lens has no local tokenizer of this name, so there is nothing to compare with.')}`);
  lines.push(
    '',
    `## ${remote.n_tokens > maxRows ? t('Tokens (first {0} of {1})', maxRows, remote.n_tokens) : t('Tokens')}`,
    '',
    `| # | ${t('Service token')} | ${t('Service id')} | ${t('Local token')} | ${t('Local id')} |`,
    '|---:|---|---:|---|---:|',
  );
  const rows = Math.min(maxRows, Math.max(remote.tokens.length, local?.tokens.length ?? 0));
  for (let i = 0; i < rows; i++) {
    const mark = local && (remote.tokens[i] !== local.tokens[i] || remote.token_ids[i] !== local.token_ids[i]) ? ' ≠' : '';
    lines.push(
      `| ${i + 1}${mark} | ${cell(remote.tokens[i])} | ${inline(remote.token_ids[i] ?? '')} | ${cell(local?.tokens[i])} | ${local?.token_ids[i] ?? ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Prose or a number that came with the service's answer: shown as text, never as a link, HTML or a line break. */
const inline = (value: unknown): string => markdownText(value, Infinity);

function cell(token: string | undefined): string {
  return token === undefined ? '' : codeCell(token);
}
