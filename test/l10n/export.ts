/**
 * `npm run l10n`: writes l10n/bundle.l10n.json, every message the code translates with its English text, as
 * `@vscode/l10n-dev export` would (a translator copies it to bundle.l10n.<language>.json and translates the values).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUNDLE, exportBundle, translatedSources } from './scan';

const bundle = exportBundle(translatedSources());
fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
fs.writeFileSync(BUNDLE, `${JSON.stringify(bundle, null, 2)}\n`);
console.log(`${path.relative(process.cwd(), BUNDLE)}: ${Object.keys(bundle).length} messages`);
