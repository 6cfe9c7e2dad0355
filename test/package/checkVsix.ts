/**
 * Lists a built .vsix (as `vsce ls` would, with sizes), prints its size, and fails when it carries
 * anything vsixRules.ts forbids or does not expect.
 *
 *   node out/test/package/checkVsix.js [token-lens.vsix]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { shippedRankFiles } from '../../src/core/tokenizers/tiktoken/ranks';
import { ALL_ENCODINGS } from '../../src/core/tokenizers/registry';
import { checkVsix, type VsixEntry } from './vsixRules';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Twice today's size: room for features, not for a second copy of the rank files or a dev build. */
export const MAX_VSIX_BYTES = 6 * 1024 * 1024;

/** Reads every entry of a zip through its central directory (a .vsix is a plain, small zip). */
export function readZip(zip: Buffer): VsixEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: VsixEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`corrupt central directory at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const kb = (n: number) => `${(n / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KB`;

function main(file: string): number {
  const bytes = fs.readFileSync(file);
  const entries = readZip(bytes);
  const manifestEntry = entries.find((e) => e.name === 'extension/package.json');
  const manifest = manifestEntry ? (JSON.parse(manifestEntry.data.toString('utf8')) as { icon?: string }) : {};
  for (const e of [...entries].sort((a, b) => a.name.localeCompare(b.name)))
    console.log(`  ${e.name.padEnd(52)} ${kb(e.data.length).padStart(12)}`);
  console.log(
    `${path.relative(process.cwd(), file)}: ${entries.length} files, ${kb(bytes.length)} (${bytes.length} bytes, budget ${kb(MAX_VSIX_BYTES)})`,
  );
  const problems = checkVsix(
    entries,
    { rankFiles: shippedRankFiles(ALL_ENCODINGS), icon: manifest.icon, maxBytes: MAX_VSIX_BYTES },
    bytes.length,
  );
  for (const p of problems) console.error(`  ✗ ${p}`);
  console.log(problems.length ? `FAILED: ${problems.length} problem(s) in the package` : 'package contents OK');
  return problems.length ? 1 : 0;
}

if (require.main === module) {
  try {
    process.exit(main(path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'token-lens.vsix'))));
  } catch (err) {
    console.error(`checkVsix: ${(err as Error).message}`);
    process.exit(1);
  }
}
