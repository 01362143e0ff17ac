// page.mjs BASE_URL OUT_DIR - the page of `mktb serve` as a person uses it, in Debian's chromium
// (headless, driven by playwright-core): set up K+Ruea vs K by clicks, read the verdict and the
// moves from the page, play a move from the list and another on the board, follow a count, load
// a FEN, see errors reported on the page, open the endings pages; no console error anywhere, every
// diagram loads; screenshots in OUT_DIR. The verdicts are checked against the API's answers
// (themselves checked against `mktb probe --json` and hand-checked values by serve.py).
import { chromium } from 'playwright-core';

const [base, outDir] = process.argv.slice(2);
const failures = [];
const check = (what, ok, detail = '') => {
  if (!ok) { failures.push(what); console.log(`FAILED: ${what} ${detail}`); }
};
const api = async (fen, extra = '') => (await fetch(`${base}/api/probe?fen=${fen.replace(/ /g, '_')}${extra}`)).json();

const browser = await chromium.launch({
  executablePath: process.env.MKTB_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 950 } });
page.setDefaultTimeout(15000);
const errors = [];
let expected = null; // a step provoking a 400 or 404 on purpose: chromium logs the failed fetch
page.on('console', (m) => {
  if (m.type() !== 'error') return;
  if (expected && m.text().includes(`status of ${expected}`)) return;
  errors.push(m.text());
});
page.on('pageerror', (e) => errors.push(e.message));
page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));

const verdict = () => page.textContent('#verdict');
const fenShown = () => page.inputValue('#fen');
const settled = () => page.waitForFunction(() => document.querySelector('main').getAttribute('aria-busy') === 'false');
// The verdict shown, and the page done with it (its answer and board drawn: <main aria-busy=false>).
const waitVerdict = (text) => page.waitForFunction((t) => document.querySelector('#verdict').textContent === t
  && document.querySelector('main').getAttribute('aria-busy') === 'false', text)
  .catch(async () => check(`verdict "${text}"`, false, `shown: "${await verdict()}"`));

try {
  // The example position the page opens with.
  await page.goto(`${base}/`);
  const example = await api('8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1');
  await waitVerdict(example.verdict);

  // A legend of the men (a phone has no hover to show the palette's titles); no Xiangqi-only
  // control on the Makruk page; the footer's link to the rules opens the rules, served.
  const legendText = await page.textContent('#men-legend');
  check('a legend of the men', ['Khun', 'Met', 'Khon', 'Ma', 'Ruea', 'Bia'].every((n) => legendText.includes(n))
    && (await page.$$('#men-legend img')).length === 6, legendText);
  check('no Xiangqi-only checkbox on the Makruk page', !(await page.isVisible('#letters-row')));
  const rulesHref = await page.getAttribute('#rules-link', 'href');
  const rulesPage = await fetch(`${base}${rulesHref}`);
  check("the footer's rules link served", rulesPage.status === 200 && (await rulesPage.text()).includes('Makruk'), `${rulesHref} ${rulesPage.status}`);
  // The rules panel offers only what the served tables answer (one set here: the defaults) and
  // says how to make the others.
  check('rules not served: not offered', await page.$eval('#rule-counter_mate option[value=draw]', (o) => o.disabled)
    && !(await page.$eval('#rule-counter_mate option[value=win]', (o) => o.disabled)));
  check('the rules panel says what to generate', (await page.textContent('#rules-served')).includes('mktb gen --men 4 --counter-mate draw'),
    await page.textContent('#rules-served'));

  // Set up K+Ruea vs K by clicks: clear, pick each man from the palette, click its square.
  await page.click('#clear');
  await waitVerdict('Set up a position');
  for (const [tool, square] of [['k', 'a8'], ['K', 'b6'], ['R', 'h1']]) {
    await page.click(`[data-tool="${tool}"]`);
    await page.click(`#board rect[data-square="${square}"]`);
    await page.waitForSelector(`#board [data-square="${square}"]`);
  }
  await page.click('#side-w');
  await page.waitForFunction(() => document.querySelector('#fen').value === 'k7/8/1K6/8/8/8/8/7R w - - 0 1');
  const krvk = await api('k7/8/1K6/8/8/8/8/7R w - - 0 1');
  // Mate in one; K+Ruea vs K counts to 16 from 3 men, the attacker to move: 14 moves (docs/rules.md 3.1).
  check('KRvK verdict from the API', krvk.verdict === 'White wins within the count: 1 of 14 moves needed', krvk.verdict);
  await waitVerdict(krvk.verdict);
  check('pure verdict', (await page.textContent('#pure')).includes('White mates in 1'));
  const rows = await page.$$eval('#moves tbody tr', (trs) => trs.map((t) => ({ uci: t.dataset.uci, best: t.classList.contains('best'), text: t.textContent })));
  check('moves listed, best first', rows.length === krvk.moves.length && rows[0].uci === 'h1h8' && rows[0].best, JSON.stringify(rows[0]));
  check('moves in SAN', rows[0].text.startsWith('Rh8#'), rows[0].text);
  check('moves in the API order', rows.map((r) => r.uci).join() === krvk.moves.map((m) => m.uci).join());
  // The winning line (the API's line=1) in SAN, and the legend of '*'.
  await page.waitForFunction(() => !document.querySelector('#line').hidden);
  check('winning line shown', (await page.textContent('#line-moves')).includes('1. Rh8#'), await page.textContent('#line'));
  check('legend of *', (await page.textContent('#legend')).includes('* marks the moves that keep the best result'));
  await page.screenshot({ path: `${outDir}/page.png`, fullPage: true });

  // Play Rh8 from the list: mate, and the count runs on in the FEN.
  await page.click('#moves tbody tr:first-child');
  await waitVerdict('Black is checkmated');
  check('FEN after Rh8', (await fenShown()) === 'k6R/8/1K6/8/8/8/8/8 b - 32 6 1', await fenShown());
  check('address shares the position', page.url().includes('fen=k6R%2F8%2F1K6'), page.url());

  // Back, then the same move on the board: click the Ruea, then its square.
  await page.goBack();
  await waitVerdict(krvk.verdict);
  await page.click('[data-tool="move"]');
  await page.click('#board rect[data-square="h1"]');
  await page.waitForSelector('#board rect[data-square="h1"][fill="#f4e04d"]');
  await page.click('#board rect[data-square="h8"]');
  await waitVerdict('Black is checkmated');

  // The line, stepped through: forward by the keyboard, each move with the count after it, the
  // board at each step the FEN the API gives for it; back with the button; the line stays.
  // The page writes move number 1 in its FENs: the first five fields are the position.
  const fen5 = (f) => `${f.split(' ').slice(0, 5).join(' ')} `;
  const long = await api('k7/8/1K6/8/8/8/8/1R6 w - - 0 1', '&line=1');
  await page.fill('#fen', 'k7/8/1K6/8/8/8/8/1R6 w - - 0 1');
  await page.click('#fen-form button');
  await waitVerdict(long.verdict);
  await page.waitForFunction(() => !document.querySelector('#line').hidden);
  const stepTexts = await page.$$eval('#line-moves button', (bs) => bs.map((b) => b.textContent));
  check('the line as moves to step, with the count after each', stepTexts.length === long.line_steps.length
    && stepTexts[0] === `1. ${long.line_steps[0].san} ${long.line_steps[0].count.announced}/16`
    && stepTexts[1] === `${long.line_steps[1].san} ${long.line_steps[1].count.announced}/16`, JSON.stringify(stepTexts.slice(0, 3)));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((f) => document.querySelector('#fen').value.startsWith(f), fen5(long.line_steps[1].fen));
  await waitVerdict((await api(long.line_steps[1].fen)).verdict);
  check('two steps forward: the second step marked', (await page.textContent('#line-moves .current')).startsWith(long.line_steps[1].san));
  check('the line kept while stepping', (await page.$$('#line-moves button')).length === long.line_steps.length);
  await page.click('#line-back');
  await page.waitForFunction((f) => document.querySelector('#fen').value.startsWith(f), fen5(long.line_steps[0].fen));
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#fen').value === 'k7/8/1K6/8/8/8/8/1R6 w - 32 5 1');
  await waitVerdict(long.verdict);
  check('back at the start: back disabled', await page.$eval('#line-back', (b) => b.disabled));

  // Drag and drop: the Ruea dragged from b1 to h1 plays Rh1 (a move the API lists).
  const box = async (sq) => page.$eval(`#board rect[data-square="${sq}"]`, (r) => { const b = r.getBoundingClientRect(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; });
  const from = await box('b1'), to = await box('h1');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  const dropped = long.moves.find((m) => m.uci === 'b1h1');
  await page.waitForFunction((f) => document.querySelector('#fen').value.startsWith(f), fen5(dropped.fen))
    .catch(async () => check('drag and drop plays the move', false, await fenShown()));
  await waitVerdict((await api(dropped.fen)).verdict);

  // A board's honour count set by hand: the counter at 60.
  await page.fill('#fen', 'k7/8/8/8/8/8/m7/R3K3 w - - 0 1');
  await page.click('#fen-form button');
  await waitVerdict((await api('k7/8/8/8/8/8/m7/R3K3 w - - 0 1')).verdict);
  await page.selectOption('#count-kind', 'board');
  await page.fill('#count-value', '60');
  await page.dispatchEvent('#count-value', 'change');
  const board60 = await api('k7/8/8/8/8/8/m7/R3K3 w - - 0 1', '&count=board:60');
  await waitVerdict(board60.verdict);
  check('count in the address', page.url().includes('count=board%3A60'), page.url());
  // The count set by hand is written into the FEN box: the counter (Black) has just announced
  // 60, so countingPly = 2c - 1 = 119 (docs/rules.md 3.4).
  await page.waitForFunction(() => document.querySelector('#fen').value === 'k7/8/8/8/8/8/m7/R3K3 w - 128 119 1');
  check('count in the FEN box', (await fenShown()) === 'k7/8/8/8/8/8/m7/R3K3 w - 128 119 1', await fenShown());
  // The rules in words, not option names.
  const ruleLabels = await page.$$eval('#rules label', (ls) => ls.map((l) => l.textContent).join(' | '));
  check('rules in words', !ruleLabels.includes('first_opportunity') && ruleLabels.includes("Board's honour: claimed at the first opportunity"), ruleLabels);

  // Other counting rules: no tables of them here, said on the page; back to the defaults.
  expected = 404;
  const here = page.url();
  await page.goto(`${here}&counter_mate=draw`);
  await page.waitForFunction(() => document.querySelector('#error').textContent.includes('no tables built under'));
  check('rules from the address', (await page.inputValue('#rule-counter_mate')) === 'draw');
  await settled(); // the board's failed request logged too
  expected = null;
  await page.goto(here);
  await waitVerdict(board60.verdict);

  // A win by baring the defender: each move's row gives both figures, as the headline does
  // (Kd1, any reply, Rxa2 bares the king in 2 moves; Rxa2+ itself bares it at once).
  await page.goto(`${base}/?fen=k7/8/8/8/8/8/m7/R3K3_w_-_-_0_1`);
  await waitVerdict((await api('k7/8/8/8/8/8/m7/R3K3 w - - 0 1')).verdict);
  const baringRows = await page.$$eval('#moves tbody tr', (trs) => Object.fromEntries(trs.map((t) => [t.dataset.uci, t.textContent])));
  check('a baring win: both figures in the row', baringRows.e1d1.includes('bares the king in 2 of 65 moves, then mates in')
    && baringRows.a1a2.includes('bares the king, then mates in 12 of 13 moves'), JSON.stringify(baringRows).slice(0, 300));
  // The Bia headline in one line.
  await page.goto(`${base}/?fen=8/8/8/3k4/8/3P4/8/R2K4_w_-_-_0_1`);
  await waitVerdict((await api('8/8/8/3k4/8/3P4/8/R2K4 w - - 0 1')).verdict);
  const lines = await page.$eval('#verdict', (e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight));
  check('the Bia headline in one line', lines < 1.5, `${lines} lines: ${await verdict()}`);

  // Errors are shown on the page: a FEN the board cannot hold, a position the rules forbid.
  await page.fill('#fen', 'k7/9/8 w');
  await page.click('#fen-form button');
  await page.waitForFunction(() => !document.querySelector('#error').hidden);
  check('bad FEN reported', (await page.textContent('#error')).includes('Cannot read the FEN'));
  check('a bad FEN clears the old verdict, line and moves', (await verdict()).startsWith('Correct the FEN')
    && (await page.$$('#moves tbody tr')).length === 0 && await page.$eval('#line', (e) => e.hidden), await verdict());
  // A side to move other than w or b is refused, not read as White.
  await page.fill('#fen', 'k7/8/1K6/8/8/8/8/7R x - - 0 1');
  await page.click('#fen-form button');
  await page.waitForFunction(() => document.querySelector('#error').textContent.includes("the side to move is 'x'"));
  // Outside the tables: which tables would answer, and how to make them.
  expected = 404;
  await page.fill('#fen', '8/8/8/3k4/8/8/8/RRS1K3 w - - 0 1');
  await page.click('#fen-form button');
  await page.waitForFunction(() => document.querySelector('#error').textContent.includes('mktb gen KRRSvK'));
  check('beyond the tables: what the tables hold', (await page.textContent('#error')).includes('every ending up to 4 men'));
  // The served engine's word (run-page.sh gives fairy-stockfish when it is installed), marked.
  if (process.env.MKTB_PAGE_ENGINE) {
    await page.waitForSelector('#engine:not([hidden])');
    const word = await page.textContent('#engine');
    check("beyond the tables: the engine's move, marked as the engine's", /^Engine, not the tables: Fairy-Stockfish .* plays [KRSM][a-h]?x?[a-h][1-8]/.test(word), word);
  } else console.log("skipped: the engine's word on the page (no fairy-stockfish)");
  // More men than mktb makes tables for: no "mktb gen" advice.
  await page.fill('#fen', 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1');
  await page.click('#fen-form button');
  await page.waitForFunction(() => document.querySelector('#error').textContent.includes('more than mktb makes tables for'));
  check('32 men: no mktb gen advice', !(await page.textContent('#error')).includes('mktb gen'));
  await settled(); // the board's failed request logged too
  expected = null;
  expected = 400;
  await page.fill('#fen', 'kK6/8/8/8/8/8/8/7R w - - 0 1');
  await page.click('#fen-form button');
  await page.waitForFunction(() => document.querySelector('#error').textContent.includes('Cannot answer: bad FEN'));
  await settled(); // the board's failed request logged too
  expected = null;

  // Every diagram loads and is well-formed SVG.
  const images = await page.$$eval('#palette img', (imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0));
  check('palette diagrams load', images.length === 12 && images.every(Boolean), JSON.stringify(images));
  const parsed = await page.evaluate(async () => {
    const text = await (await fetch('/board.svg?fen=k7/8/1K6/8/8/8/8/7R_w&arrow=h1h8')).text();
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return !doc.querySelector('parsererror') && doc.querySelectorAll('rect[data-square]').length;
  });
  check('board.svg parses as XML', parsed === 64, parsed);

  // On a phone the board comes first, the verdict and the move list right under it (within the
  // first two screens), the editor after them.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1`);
  await waitVerdict(krvk.verdict);
  const top = (sel) => page.$eval(sel, (e) => e.getBoundingClientRect().top + window.scrollY);
  const [boardTop, verdictTop, movesTop, paletteTop] = [await top('#board'), await top('#verdict'), await top('#moves'), await top('#palette')];
  check('phone: the board first, then the verdict, the moves, the editor', boardTop < verdictTop && verdictTop < movesTop && movesTop < paletteTop,
    `${boardTop} ${verdictTop} ${movesTop} ${paletteTop}`);
  // A position with a long move list (17 moves) and line: the line's steps on the board's
  // screen, the FEN box within one screen of the board.
  const busy = '4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1';
  await page.goto(`${base}/?fen=${busy.replace(/ /g, '_')}`);
  await waitVerdict((await api(busy)).verdict);
  const box2 = (sel) => page.$eval(sel, (e) => { const b = e.getBoundingClientRect(); return { top: b.top + window.scrollY, bottom: b.bottom + window.scrollY }; });
  const [board2, steps2, fen2, moves2] = [await box2('#board'), await box2('#line-moves'), await box2('#fen'), await box2('#moves')];
  check('phone: the line\'s steps and the board on one screen', steps2.bottom - board2.top <= 844, `${board2.top} -> ${steps2.bottom}`);
  check('phone: the FEN box within one screen of the board', fen2.top - board2.bottom < 844 && fen2.top < moves2.top, `${board2.bottom} -> ${fen2.top}`);
  await page.screenshot({ path: `${outDir}/page-narrow.png`, fullPage: true });
  await page.setViewportSize({ width: 1200, height: 900 });

  // The endings pages.
  await page.goto(`${base}/endings`);
  const listed = (await (await fetch(`${base}/api/endings`)).json()).endings.length;
  await page.waitForSelector('#endings tbody tr');
  check('every ending listed', (await page.$$('#endings tbody tr')).length === listed);
  const rulesText = await page.textContent('#rules');
  check('the counting rules in words, not option names', rulesText.includes('usual rules') && !rulesText.includes('='), rulesText);
  await page.click('#endings a[href="/endings?ending=KRvK"]');
  await page.waitForSelector('#detail svg.bars');
  const detailText = await page.textContent('#detail-body');
  check('KRvK detail', (await page.textContent('#detail-title')) === 'KRvK' && detailText.includes('Legal positions'));
  // KRvK's longest mates (docs/statistics-4men.txt): White to move mates in 16; Black to move is mated in 16.
  check('longest mates in moves, said for the side to move', detailText.includes('White mates in 16:') && detailText.includes('Black is mated in 16:') && !detailText.includes('plies'), detailText);
  await page.screenshot({ path: `${outDir}/endings.png`, fullPage: true });

  // Xiangqi on the same page: a ten-rank FEN switches the board (9 x 10 points, the men with
  // their characters); the verdict and every move (WXF) as the API gives them; a move played on
  // the board gives the FEN the API gives for it; a bad FEN reported; the control switches back.
  const xfen = '4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1';
  const xiangqi = await api(xfen);
  check('Xiangqi API answer', xiangqi.game === 'xiangqi' && xiangqi.moves.length > 0, JSON.stringify(xiangqi).slice(0, 200));
  await page.goto(`${base}/?fen=${xfen.replace(/ /g, '_')}`);
  await waitVerdict(xiangqi.verdict);
  check('Xiangqi: the board has 90 points', (await page.$$('#board rect[data-square]')).length === 90);
  check('Xiangqi: the men with their characters', (await page.textContent('#board svg')).includes('俥') && (await page.textContent('#board svg')).includes('將'));
  check('Xiangqi: the game control follows the FEN', (await page.inputValue('#game')) === 'xiangqi');
  check("Xiangqi: the footer links Xiangqi's rules", (await page.getAttribute('#rules-link', 'href')) === '/docs/rules-xiangqi.md'
    && (await fetch(`${base}/docs/rules-xiangqi.md`)).status === 200);
  check('Xiangqi: the letters checkbox shown', await page.isVisible('#letters-row'));
  check('Xiangqi: no rule column where the rule decides nothing (one side armless)',
    !(await page.isVisible('#moves thead th:nth-child(3)')));
  const xrows = await page.$$eval('#moves tbody tr', (trs) => trs.map((t) => t.firstChild.textContent));
  check('Xiangqi: every move in WXF and Chinese, in the API order', xrows.join() === xiangqi.moves.map((m) => `${m.wxf} ${m.chinese}`).join(), xrows.join());
  check('Xiangqi: the mate in Chinese notation', xrows.some((r) => r === 'R5+7 俥五進七') && (await page.textContent('#line-moves')).includes('俥五進七'),
    `${xrows.join()} | ${await page.textContent('#line-moves')}`);
  const xbest = xiangqi.moves[0];
  const [, xfrom, xto] = xbest.uci.match(/^([a-i]\d+)([a-i]\d+)$/);
  await page.click(`#board rect[data-square="${xfrom}"]`);
  await page.waitForSelector(`#board rect[data-square="${xfrom}"][fill="#f4e04d"]`);
  await page.click(`#board rect[data-square="${xto}"]`);
  await page.waitForFunction((f) => document.querySelector('#fen').value.startsWith(f), xbest.fen.split(' ').slice(0, 2).join(' ') + ' ');
  await waitVerdict((await api(xbest.fen)).verdict);
  expected = 400;
  await page.fill('#fen', '4k4/4a4/9/9/9/9/9/9/4R4/3K6 w - - 0 1');
  await page.click('#fen-form button');
  await page.waitForFunction(() => document.querySelector('#error').textContent.includes('Cannot read the FEN'));
  await settled(); // the board's failed request logged too
  expected = null;
  await page.screenshot({ path: `${outDir}/page-xiangqi.png`, fullPage: false });
  // A win only the perpetual-check rule gives (KRvKN, checked by hand: Black can hold only by
  // checking, every move but Nh2+ loses, and has no other way now): headlined as the win under
  // the rules, the plain draw beside it, and the line of checks until the position repeats.
  const hold = '9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1';
  await page.goto(`${base}/?fen=${hold.replace(/ /g, '_')}`);
  await waitVerdict('Red wins: Black can hold only by checking or chasing for ever, which the rules forbid, and has no other way left (without the rule: a draw)');
  check('rule win: the line to the repetition', (await page.textContent('#line')).includes('Black checked on every move between, and loses by the rule')
    && await page.isVisible('#line'), await page.textContent('#line'));
  check('rule win: the rule column shown', await page.isVisible('#moves thead th:nth-child(3)'));
  // The rule set none, served from a directory of its own: the same position is a draw there,
  // and the address keeps the choice.
  check('rule sets: both offered', await page.isVisible('#xiangqi-rules')
    && (await page.$$eval('#xiangqi-rule-set option', (os) => os.filter((o) => !o.disabled).map((o) => o.value).join())) === 'asian,none');
  await page.click('#xiangqi-rules summary');
  await page.selectOption('#xiangqi-rule-set', 'none');
  await waitVerdict('draw');
  check('rule sets: none named', (await page.textContent('#pure')).includes('rule set none')
    && (await page.getAttribute('#share', 'href')).includes('rules=none'), await page.textContent('#pure'));
  await page.selectOption('#xiangqi-rule-set', 'asian');
  await waitVerdict('Red wins: Black can hold only by checking or chasing for ever, which the rules forbid, and has no other way left (without the rule: a draw)');
  await page.selectOption('#game', 'makruk');
  await page.waitForFunction(() => document.querySelectorAll('#board rect[data-square]').length === 64);

  // Thai: a browser whose language is Thai gets the page in Thai (the men's Thai names, the
  // counting terms of the sources), the verdict as the API says it with lang=th; the switch
  // turns it to English and the choice is kept.
  const thai = await browser.newContext({ locale: 'th-TH', viewport: { width: 1200, height: 950 } });
  const th = await thai.newPage();
  th.on('pageerror', (e) => errors.push(e.message));
  const thaiAnswer = await api('8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1', '&lang=th');
  check('API in Thai: the verdict', thaiAnswer.verdict.startsWith('ขาวชนะภายในการนับ') && thaiAnswer.moves[0].text.counted.includes('ตา'), thaiAnswer.verdict);
  await th.goto(`${base}/?fen=8/3k4/6M1/2K1S3/8/8/8/8_b_-_88_8_1`);
  await th.waitForFunction((v) => document.querySelector('#verdict').textContent === v, thaiAnswer.verdict)
    .catch(async () => check('Thai: the verdict', false, await th.textContent('#verdict')));
  check('Thai: the page says so', (await th.getAttribute('html', 'lang')) === 'th');
  check("Thai: the count in the sources' terms", (await th.textContent('#count-info')).includes('นับศักดิ์หมาก'), await th.textContent('#count-info'));
  const thaiTitles = await th.$$eval('#palette .tool', (bs) => bs.map((b) => b.title).join(' '));
  check("Thai: the men's Thai names", ['ขุน', 'เม็ด', 'โคน', 'ม้า', 'เรือ', 'เบี้ย'].every((n) => thaiTitles.includes(n)), thaiTitles);
  check('Thai: the headings', (await th.textContent('#moves thead')).includes('ตามการนับ') && (await th.textContent('#pure')).startsWith('ถ้าไม่นับ'));
  // The server's errors in Thai too: an illegal position (the kings side by side), a count
  // out of range, rules not served (in words, not the options' names).
  await th.goto(`${base}/?fen=kK6/8/8/8/8/8/8/7R_w_-_-_0_1`);
  await th.waitForFunction(() => document.querySelector('#error').textContent.includes('ขุนสองฝ่ายยืนติดกัน'))
    .catch(async () => check('Thai: an illegal position said in Thai', false, await th.textContent('#error')));
  check('Thai: no English in the error', !/bad FEN|kings/.test(await th.textContent('#error')), await th.textContent('#error'));
  await th.goto(`${base}/?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&counter_mate=draw`);
  await th.waitForFunction(() => document.querySelector('#error').textContent.includes('ฝ่ายที่นับรุกจนได้เพียงเสมอ'))
    .catch(async () => check('Thai: rules not served, in Thai words', false, await th.textContent('#error')));
  check('Thai: no option names shown', !/counter_mate|limit_precedence/.test(await th.textContent('#error')));
  check("Thai: 'always' is not the page's word for a draw",
    await th.$eval('#rule-switch_to_pieces option[value=always]', (o) => o.textContent !== 'เสมอ'));
  await th.goto(`${base}/endings`);
  await th.waitForSelector('#endings tbody tr');
  check('Thai: the endings page', (await th.textContent('#endings thead')).includes('เผด็จ') && (await th.textContent('#rules')).includes('กติกาการนับ'), await th.textContent('#rules'));
  await th.click('#lang-switch');
  await th.waitForFunction(() => document.documentElement?.lang === 'en');
  check('Thai: the switch turns the page to English', (await th.textContent('#endings thead')).includes('Ending'));
  await th.goto(`${base}/`);
  await th.waitForFunction(() => document.querySelector('#verdict').textContent.startsWith('White'));
  check('the choice of language is kept', (await th.getAttribute('html', 'lang')) === 'en');
  await th.screenshot({ path: `${outDir}/page-english-after-switch.png` });
  await thai.close();
} catch (e) {
  check('the walk through the page', false, e.stack);
} finally {
  await browser.close();
}
check('no console errors', errors.length === 0, JSON.stringify(errors));
console.log(failures.length ? `${failures.length} failures` : `all page checks passed; screenshots in ${outDir}`);
process.exit(failures.length ? 1 : 0);
