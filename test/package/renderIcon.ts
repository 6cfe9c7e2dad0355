/**
 * Renders media/icon.svg to media/icon.png (256x256, transparent corners) with the Chromium the
 * tests use: `npm run build:tests && node out/test/package/renderIcon.js`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, REPO_ROOT } from '../runner/paths';

async function main(): Promise<void> {
  const svg = fs.readFileSync(path.join(REPO_ROOT, 'media', 'icon.svg'), 'utf8');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'media', 'icon.png'), png);
    console.log(`media/icon.png: ${png.length} bytes`);
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
