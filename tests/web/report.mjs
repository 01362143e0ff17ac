// report.mjs REPORT_DIR OUT_DIR - the teaching report as a reader sees it, in Debian's chromium
// (headless, playwright-core): the overview lists every ending and links the taught ones; an
// ending's page shows every diagram (each image loads), its histogram, a solution revealed by a
// click, a legend of the men, captions with capitals, histograms within the page; the worksheet
// (no solution) and its answer key (one answer per position, a few pages) printed apart;
// distances in moves everywhere; the regulation page; no console error on any page; screenshots
// and printed PDFs (A4) land in OUT_DIR.
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync, statSync } from 'node:fs';
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
  check('counting rules in words, not option names', !(await page.textContent('body')).includes('limit_precedence='));
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
  check('a legend of the men with their Thai names', (await page.textContent('.legend')).includes('Khon (S)'));
  const captions = await page.$$eval('figcaption', (cs) => cs.map((c) => c.textContent.replace(/^(White|Black) to move\. /, '')));
  check('captions start with a capital', captions.every((c) => /^[A-Z]/.test(c)), JSON.stringify(captions.filter((c) => !/^[A-Z]/.test(c))));
  const histogramFits = await page.$$eval('svg.histogram', (s) => s.every((h) => h.getBoundingClientRect().width <= document.body.clientWidth));
  check('histograms fit the printed page', histogramFits);
  // Worksheet and answer key apart: the worksheet holds no solution, the key one per position.
  const positions = (await page.$$('figure')).length;
  await page.setViewportSize({ width: 794, height: 1123 }); // an A4 page at 96 dpi, as printed
  await page.goto(url('KSMvK.worksheet.html'));
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  const sheet = await page.textContent('body');
  check('worksheet: every position', (await page.$$('figure')).length === positions, positions);
  check('worksheet: no solution', !sheet.includes('Best:') && !sheet.includes('Not:') && (await page.$$('details')).length === 0);
  check('worksheet: the men legend', sheet.includes('Ruea (R)'));
  // Each diagram with the count in words, its task and a space for the answer; "find the
  // fastest mate" only where the side to move mates within the count (the claims' facts).
  const sheetFigures = await page.$$eval('figure', (fs) => fs.map((f) => ({ text: f.textContent, answer: !!f.querySelector('.answer') })));
  check('worksheet: an answer space per diagram', sheetFigures.every((f) => f.answer), sheetFigures.length);
  check("worksheet: the count in words (KSMvK: pieces' honour, 44 moves)", sheetFigures.every((f) => /Pieces' honour: (White|Black) counts from \d+ to 44; (White|Black) has \d+ moves\./.test(f.text)), sheetFigures[0].text);
  const claims = JSON.parse(readFileSync(`${report}/KSMvK.json`, 'utf8'));
  const fastest = sheetFigures.filter((f, i) => f.text.includes('Find the fastest mate'));
  const fastestClaims = claims.filter((c) => sheetFigures.find((f) => f.text.includes(c.fen) && f.text.includes('Find the fastest mate')));
  check('worksheet: "find the fastest mate" only on positions won within the count', fastestClaims.every((c) => c.facts.counted === 'win'),
    JSON.stringify(fastestClaims.filter((c) => c.facts.counted !== 'win').map((c) => c.id)));
  const drawnLongest = claims.filter((c) => c.theme === 'longest' && c.facts.counted !== 'win');
  check('worksheet: counted draws among the longest mates get another task', drawnLongest.every((c) => !sheetFigures.find((f) => f.text.includes(c.fen)).text.includes('Find the fastest mate')));
  await page.screenshot({ path: `${outDir}/worksheet.png`, fullPage: false });
  await page.pdf({ path: `${outDir}/KSMvK.worksheet.pdf`, format: 'A4' });
  // A page per theme, none holding only the heading and legend or a diagram spilled from the
  // theme before; a line for the pupil's name and the date; the positions numbered per theme.
  const pdfPagesOf = (file) => (readFileSync(file, 'latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
  const themesOnSheet = (await page.$$('.themes section')).length;
  check('worksheet: one printed page per theme', pdfPagesOf(`${outDir}/KSMvK.worksheet.pdf`) === themesOnSheet,
    `${pdfPagesOf(`${outDir}/KSMvK.worksheet.pdf`)} pages, ${themesOnSheet} themes`);
  check('worksheet: a name and date line', /Name\s+Date/.test(await page.textContent('.name-line')));
  const numbers = await page.$$eval('.themes section', (ss) => ss.map((s) => [...s.querySelectorAll('figcaption > b')].map((b) => b.textContent).join(' ')));
  check('worksheet: numbered per theme as the key', numbers.every((n) => n.startsWith('1.')), JSON.stringify(numbers));
  await page.goto(url('KSMvK.answers.html'));
  const answers = await page.$$eval('.key li', (lis) => lis.map((l) => l.textContent));
  check('answer key: one answer per position', answers.length === positions, `${answers.length} of ${positions}`);
  check('answer key: the solutions', answers.filter((a) => a.includes('Best:')).length >= positions / 2);
  await page.screenshot({ path: `${outDir}/answer-key.png`, fullPage: false });
  await page.pdf({ path: `${outDir}/KSMvK.answers.pdf`, format: 'A4' });
  // The page counts: the answer key is a few pages, not a diagram per solution.
  const pdfPages = (file) => (readFileSync(file, 'latin1').match(/\/Type\s*\/Page[^s]/g) || []).length;
  // No diagram per solution, and each solution's whole line (the claims' line, move by move).
  check('answer key: no diagrams, a few pages', (await page.$$('img')).length === 0
    && pdfPages(`${outDir}/KSMvK.answers.pdf`) <= 8, pdfPages(`${outDir}/KSMvK.answers.pdf`));
  const keyLines = await page.$$eval('.key li', (lis) => lis.map((l) => (l.querySelector('.line') || { textContent: '' }).textContent));
  const moveCount = (text) => text.replace(/\([^)]*\)/g, ' ').split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t)).length;
  const keyClaims = JSON.parse(readFileSync(`${report}/KSMvK.json`, 'utf8'));
  check('answer key: every line whole', keyClaims.every((c, i) => moveCount(keyLines[i] || '') === c.line.length),
    JSON.stringify(keyClaims.map((c, i) => [c.line.length, moveCount(keyLines[i] || '')]).filter(([a, b]) => a !== b).slice(0, 3)));
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize({ width: 1100, height: 1400 });
  // Distances in moves on every page (the overview and the ending pages alike).
  for (const name of ['index.html', 'KSMvK.html', 'KSMvK.answers.html']) {
    await page.goto(url(name));
    check(`${name}: distances in moves`, !(await page.textContent('body')).includes(' plies'));
  }
  await page.goto(url('regulation.html'));
  check('regulation page', (await page.$$('table tr')).length >= 10);
  // It fits an A4 page (794 px wide at 96 dpi): nothing cut off on the right.
  await page.setViewportSize({ width: 794, height: 1123 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check('regulation page fits A4', wide <= 794, `${wide} px`);
  await page.emulateMedia({ media: 'print' });
  await page.pdf({ path: `${outDir}/regulation.pdf`, format: 'A4' });
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize({ width: 1100, height: 1400 });

  // Thai: every page in Thai beside the English one; a browser whose language is Thai is taken
  // there, the switch back to English is remembered; the men's Thai names and the counting
  // terms of the sources on the pages, the worksheet and the regulation (which fits A4 too).
  const thai = await browser.newContext({ locale: 'th-TH', viewport: { width: 1100, height: 1400 } });
  const th = await thai.newPage();
  th.on('pageerror', (e) => errors.push(e.message));
  await th.goto(url('index.html'));
  await th.waitForURL(/index\.th\.html$/);
  check('Thai browser: the Thai overview', (await th.textContent('h1')) === 'เผด็จหมากรุกไทย');
  await th.click('a[href="KSMvK.th.html"]');
  await th.waitForSelector('figure img');
  const thaiPage = await th.textContent('body');
  check("Thai page: the men's Thai names", ['ขุน', 'เม็ด', 'โคน', 'ม้า', 'เรือ', 'เบี้ย', 'เบี้ยหงาย'].every((n) => thaiPage.includes(n)));
  check("Thai page: pieces' honour in the sources' term", thaiPage.includes('นับศักดิ์หมาก'));
  check('Thai page: claims and verdicts in Thai', (await th.$$eval('figcaption b', (bs) => bs.map((b) => b.textContent))).every((t) => /^(ขาว|ดำ)เดิน$/.test(t)));
  await th.goto(url('KSMvK.worksheet.th.html'));
  const thaiSheet = await th.$$eval('figure', (fs) => fs.map((f) => f.textContent));
  check('Thai worksheet: every position, the count in words, an answer space', thaiSheet.length === positions
    && thaiSheet.every((t) => t.includes('นับศักดิ์หมาก') && t.includes('คำตอบ:')), thaiSheet[0]);
  await th.goto(url('regulation.th.html'));
  await th.setViewportSize({ width: 794, height: 1123 });
  check('Thai regulation fits A4', (await th.evaluate(() => document.documentElement.scrollWidth)) <= 794);
  check('Thai regulation in Thai', (await th.textContent('body')).includes('ฝ่ายที่อ่อนกว่า') && (await th.textContent('table')).includes('เบี้ย'));
  await th.click('a[hreflang="en"]');
  await th.waitForURL(/regulation\.html$/);
  await th.goto(url('index.html'));
  check('the switch to English is kept', th.url().endsWith('index.html') && (await th.textContent('h1')) === 'Makruk endings', th.url());
  // The English choice kept: a Thai page's address turns to the English one.
  await th.goto(url('KSMvK.worksheet.th.html'));
  await th.waitForURL(/KSMvK\.worksheet\.html$/);
  await thai.close();
} catch (e) {
  check('the walk through the report', false, e.stack);
} finally {
  await browser.close();
}
check('no console errors', errors.length === 0, JSON.stringify(errors));
check('every diagram file', readdirSync(`${report}/diagrams`).length > 0);
console.log(failures.length ? `${failures.length} failures` : `all report checks passed; screenshot and PDF in ${outDir}`);
process.exit(failures.length ? 1 : 0);
