// report.mjs REPORT_DIR OUT_DIR - the teaching report as a reader sees it, in Debian's chromium
// (headless, playwright-core): the overview lists every ending and links the taught ones; an
// ending's page shows every diagram (each image loads), its histogram, a solution revealed by a
// click; the regulation page; no console error on any page; a screenshot and a printed PDF
// (A4, one theme per page) land in OUT_DIR.
import { chromium } from 'playwright-core';
import { readdirSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [report, outDir] = process.argv.slice(2);
const url = (name) => pathToFileURL(`${report}/${name}`).href;
const failures = [];
const check = (what, ok, detail = '') => {
  if (!ok) { failures.push(what); console.log(`FAILED: ${what} ${detail}`); }
};

const browser = await chromium.launch({
  executablePath: process.env.MKTB_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
page.setDefaultTimeout(15000);
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(e.message));
page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));

try {
  await page.goto(url('index.html'));
  const rows = await page.$$eval('table tr', (trs) => trs.length - 1);
  check('overview lists the endings', rows >= 35, rows);
  await page.click('a[href="KSMvK.html"]');
  await page.waitForSelector('figure img');
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  const images = await page.$$eval('figure img', (imgs) => imgs.map((i) => i.naturalWidth > 0));
  check('every diagram loads', images.length >= 15 && images.every(Boolean), JSON.stringify(images));
  check('histogram', (await page.$$('svg.histogram')).length >= 1);
  check('KMITL figure on the page', (await page.textContent('table')).includes('83.49 %'));
  const first = page.locator('details').first();
  check('solution hidden', !(await first.evaluate((d) => d.open)));
  await first.locator('summary').click();
  check('solution shown by a click', (await first.evaluate((d) => d.open)) && (await first.textContent()).includes('Best:'));
  await page.screenshot({ path: `${outDir}/report.png`, fullPage: false });
  await page.emulateMedia({ media: 'print' });
  await page.pdf({ path: `${outDir}/KSMvK.pdf`, format: 'A4' });
  check('printed', statSync(`${outDir}/KSMvK.pdf`).size > 10000);
  await page.emulateMedia({ media: 'screen' });
  await page.goto(url('regulation.html'));
  check('regulation page', (await page.$$('table tr')).length >= 10);
} catch (e) {
  check('the walk through the report', false, e.stack);
} finally {
  await browser.close();
}
check('no console errors', errors.length === 0, JSON.stringify(errors));
check('every diagram file', readdirSync(`${report}/diagrams`).length > 0);
console.log(failures.length ? `${failures.length} failures` : `all report checks passed; screenshot and PDF in ${outDir}`);
process.exit(failures.length ? 1 : 0);
