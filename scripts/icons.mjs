// Renders static/icons/icon.svg to the PNG sizes the web manifest lists:
// `node scripts/icons.mjs` (run again after changing the SVG; the PNGs are committed).
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('static/icons/icon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [name, size, inset] of [['icon-192.png', 192, 0], ['icon-512.png', 512, 0], ['icon-maskable-512.png', 512, 0.1]]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const pad = Math.round(size * inset);
  const background = inset ? '#1f4e5f' : 'transparent';
  await page.setContent(`<body style="margin:0;background:${background}"><div style="padding:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px">${svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body>`);
  await page.screenshot({ path: `static/icons/${name}`, omitBackground: !inset });
  await page.close();
}
await browser.close();
console.log('icons written');
