// endings.js - the endings pages: an overview table from /api/endings and, for one ending,
// the win/draw/loss figures per side to move and a histogram of mate distances as SVG.
'use strict';

const $ = (id) => document.getElementById(id);
const percent = (n, d) => (d ? `${(100 * n / d).toFixed(2)} %` : '-');
const number = (n) => (n === null || n === undefined ? '-' : n.toLocaleString('en'));

function cell(row, content) {
  const td = document.createElement('td');
  if (content instanceof Node) td.appendChild(content); else td.textContent = content;
  row.appendChild(td);
}

function link(href, text) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

// A bar chart of {moves: positions} as SVG (one bar per distance).
function histogram(counts, label) {
  const ns = 'http://www.w3.org/2000/svg';
  const keys = Object.keys(counts).map(Number).sort((a, b) => a - b);
  const max = Math.max(1, ...keys.map((k) => counts[k]));
  const width = Math.max(200, keys.length * 8 + 40), height = 140;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.setAttribute('class', 'bars');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  keys.forEach((k, i) => {
    const h = Math.max(1, Math.round(100 * counts[k] / max));
    const bar = document.createElementNS(ns, 'rect');
    bar.setAttribute('x', 30 + i * 8);
    bar.setAttribute('y', 110 - h);
    bar.setAttribute('width', 6);
    bar.setAttribute('height', h);
    const title = document.createElementNS(ns, 'title');
    title.textContent = L(`${k} moves: ${number(counts[k])} positions`, `${k} ตา: ${number(counts[k])} ตำแหน่ง`);
    bar.appendChild(title);
    svg.appendChild(bar);
    if (i % 5 === 0 || i === keys.length - 1) {
      const text = document.createElementNS(ns, 'text');
      text.setAttribute('x', 30 + i * 8);
      text.setAttribute('y', 126);
      text.textContent = k;
      svg.appendChild(text);
    }
  });
  const caption = document.createElementNS(ns, 'text');
  caption.setAttribute('x', 30);
  caption.setAttribute('y', 12);
  caption.textContent = label;
  svg.appendChild(caption);
  return svg;
}

// The longest mate in moves, said for the side to move: an odd number of plies is its own mate
// ("White mates in 19"), an even one the mate it suffers ("White is mated in 19").
function mateWords(plies, side) {
  if (LANG === 'th') return plies % 2 ? `${side}รุกจนใน ${(plies + 1) / 2} ตา` : `${side}ถูกรุกจนใน ${plies / 2} ตา`;
  return plies % 2 ? `${side} mates in ${(plies + 1) / 2}` : `${side} is mated in ${plies / 2}`;
}

function overview(data) {
  $('rules').textContent = L(`Counting rules: ${data.rules_words}.`, `กติกาการนับ: ${data.rules_words}`);
  $('rules').title = data.rules; // the options' names, as docs/rules.md and the API spell them
  const body = $('endings').querySelector('tbody');
  for (const e of data.endings) {
    const row = document.createElement('tr');
    const xiangqi = e.game === 'xiangqi';
    const w = e.statistics ? e.statistics.sides[xiangqi ? 'red_to_move' : 'white_to_move'] : null;
    cell(row, link(`/endings?ending=${e.ending}${xiangqi ? '&game=xiangqi' : ''}`, xiangqi ? L(`${e.ending} (Xiangqi)`, `${e.ending} (หมากรุกจีน)`) : e.ending));
    cell(row, e.men);
    cell(row, w ? number(w.legal) : '-');
    cell(row, w ? percent(w.wins, w.legal) : '-');
    cell(row, w ? percent(w.draws, w.legal) : '-');
    cell(row, w && w.counted_wins !== null ? percent(w.counted_wins, w.legal) : '-');
    cell(row, w && w.longest_mate_fen ? link(`/?fen=${w.longest_mate_fen.replace(/ /g, '_')}`, mateWords(w.longest_mate_plies, xiangqi ? L('Red', 'แดง') : L('White', 'ขาว'))) : '-');
    cell(row, `${(e.file_bytes / 1024).toFixed(1)} KiB`);
    body.appendChild(row);
  }
}

function detail(e) {
  $('overview').hidden = true;
  $('detail').hidden = false;
  $('detail-title').textContent = e.game === 'xiangqi' ? L(`${e.ending} (Xiangqi)`, `${e.ending} (หมากรุกจีน)`) : e.ending;
  const root = $('detail-body');
  if (!e.statistics) {
    root.textContent = L('No statistics file beside this table (generate it again with mktb gen).', 'ไม่มีไฟล์สถิติข้างตารางนี้ (สร้างใหม่ด้วย mktb gen)');
    return;
  }
  const xiangqi = e.game === 'xiangqi';
  const first = xiangqi ? ['red_to_move', L('Red to move', 'แดงเดิน'), L('Red', 'แดง')] : ['white_to_move', L('White to move', 'ขาวเดิน'), L('White', 'ขาว')];
  for (const [key, title, side] of [first, ['black_to_move', L('Black to move', 'ดำเดิน'), L('Black', 'ดำ')]]) {
    const s = e.statistics.sides[key];
    const h = document.createElement('h3');
    h.textContent = title;
    root.appendChild(h);
    const table = document.createElement('table');
    for (const [name, value] of [
      [L('Legal positions', 'ตำแหน่งที่ถูกกติกา'), number(s.legal)],
      [L('Wins for the side to move', 'ฝ่ายที่เดินชนะ'), `${number(s.wins)} (${percent(s.wins, s.legal)})`],
      [L('Draws', 'เสมอ'), `${number(s.draws)} (${percent(s.draws, s.legal)})`],
      [L('Losses', 'ฝ่ายที่เดินแพ้'), `${number(s.losses)} (${percent(s.losses, s.legal)})`],
      ...(xiangqi ? [
        // Of the plain draws, those the perpetual-check rule decides (absent: one side armless).
        [L('Draws the rule wins', 'เสมอที่กติกาให้ชนะ'), s.rule_wins === undefined ? '-' : `${number(s.rule_wins)} (${percent(s.rule_wins, s.legal)})`],
        [L('Draws the rule loses', 'เสมอที่กติกาให้แพ้'), s.rule_losses === undefined ? '-' : number(s.rule_losses)],
      ] : [
        [L('Wins within a fresh count', 'ชนะภายในการนับใหม่'), s.counted_wins === null ? '-' : `${number(s.counted_wins)} (${percent(s.counted_wins, s.legal)})`],
        [L('Losses within a fresh count', 'แพ้ภายในการนับใหม่'), s.counted_losses === null ? '-' : number(s.counted_losses)],
      ]),
    ]) {
      const row = document.createElement('tr');
      cell(row, name);
      cell(row, value);
      table.appendChild(row);
    }
    const row = document.createElement('tr');
    cell(row, L('Longest mate', 'รุกจนยาวที่สุด'));
    cell(row, s.longest_mate_fen ? link(`/?fen=${s.longest_mate_fen.replace(/ /g, '_')}`, `${mateWords(s.longest_mate_plies, side)}: ${s.longest_mate_fen}`) : '-');
    table.appendChild(row);
    root.appendChild(table);
    if (Object.keys(s.win_in_moves).length) root.appendChild(histogram(s.win_in_moves, L(`${title}: wins by moves to mate`, `${title}: ชนะ แยกตามจำนวนตาถึงรุกจน`)));
    if (Object.keys(s.loss_in_moves).length) root.appendChild(histogram(s.loss_in_moves, L(`${title}: losses by moves to mate`, `${title}: แพ้ แยกตามจำนวนตาถึงรุกจน`)));
  }
  root.appendChild(link('/endings', L('All endings', 'เผด็จทั้งหมด')));
}

async function main() {
  const params = new URLSearchParams(location.search);
  const name = params.get('ending'), gameParam = params.get('game') === 'xiangqi' ? '?game=xiangqi' : '';
  try {
    const response = await fetch(name ? `/api/endings/${encodeURIComponent(name)}${gameParam}` : `/api/endings${LANG === 'th' ? '?lang=th' : ''}`);
    const body = await response.json();
    if (!response.ok) throw new Error(body.error);
    if (name) detail(body); else overview(body);
  } catch (error) {
    $('error').textContent = L(`Cannot show the endings: ${error.message}`, `แสดงเผด็จไม่ได้: ${error.message}`);
    $('error').hidden = false;
  }
}

main();
