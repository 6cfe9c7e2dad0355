/**
 * The bench's package row: builds token-lens.vsix as `npm run package` does (minified, checked), reports
 * its size and largest files, then rebuilds the development bundles the packaging replaced.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readZip } from '../package/checkVsix';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const VSIX = path.join(REPO_ROOT, 'token-lens.vsix');

export interface PackageReport {
  bytes?: number;
  files?: number;
  largest?: { name: string; bytes: number }[];
  /** The package check passed (no source maps, tests, server, duplicates…). */
  checked: boolean;
  error?: string;
}

function npm(script: string): { ok: boolean; output: string } {
  const r = spawnSync('npm', ['run', script, '--silent'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 300_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

export function benchPackage(): PackageReport {
  const built = npm('package');
  const restored = npm('build');
  if (!fs.existsSync(VSIX)) return { checked: false, error: `npm run package made no .vsix:\n${built.output.slice(-2000)}` };
  const entries = readZip(fs.readFileSync(VSIX));
  return {
    bytes: fs.statSync(VSIX).size,
    files: entries.length,
    largest: entries
      .map((e) => ({ name: e.name.replace(/^extension\//, ''), bytes: e.data.length }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 3),
    checked: built.ok,
    ...(restored.ok ? {} : { error: `npm run build failed after packaging:\n${restored.output.slice(-2000)}` }),
  };
}
