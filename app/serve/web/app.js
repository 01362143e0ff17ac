// app.js - the probing page of both games: a board editor over /board.svg, the answers of
// /api/probe, moves played by clicking them (the count follows: each move's answer carries the
// FEN after it). Makruk or Xiangqi by the control and by the FEN given (ten ranks: Xiangqi).
'use strict';

// Each game's board and men (FEN letters; Xiangqi's are Fairy-Stockfish's: B elephant, N horse).
const GAMES = {
  makruk: {
    files: 8, ranks: 8, men: ['K', 'M', 'S', 'N', 'R', 'P'], example: '8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1',
    sides: [L('White', 'ขาว'), L('Black', 'ดำ')],
  },
  xiangqi: {
    files: 9, ranks: 10, men: ['K', 'A', 'B', 'N', 'R', 'C', 'P'], example: '4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1',
    sides: [L('Red', 'แดง'), L('Black', 'ดำ')],
  },
};
const XIANGQI_NAMES = L({ K: 'general', A: 'advisor', B: 'elephant', N: 'horse', R: 'chariot', C: 'cannon', P: 'soldier' },
  { K: 'ขุน (将)', A: 'ที่ปรึกษา (士)', B: 'ช้าง (象)', N: 'ม้า (马)', R: 'รถ (车)', C: 'ปืนใหญ่ (炮)', P: 'ทหาร (兵)' });
const game = () => GAMES[state.game];
// The counting options of docs/rules.md §4, default first.
const RULES = {
  limit_precedence: ['min', 'khon_before_knights'],
  draw_when: ['exceeded', 'reached'],
  counter_mate: ['win', 'draw'],
  board_honour: ['first_opportunity', 'off'],
  switch_to_pieces: ['always', 'if_shorter'],
};
// The same options in words, for people (docs/rules.md §4).
const RULE_WORDS = LANG === 'th' ? {
  limit_precedence: ['นับศักดิ์เมื่อมีโคนหนึ่งกับม้าสอง', { min: 'ใช้ค่าน้อย: 32 (Fairy-Stockfish)', khon_before_knights: 'ใช้ของโคน: 44' }],
  draw_when: ['เสมอเมื่อฝ่ายที่นับ', { exceeded: 'เดินตาที่เกินศักดิ์', reached: 'นับถึงศักดิ์ (แบบกัมพูชา)' }],
  counter_mate: ['ฝ่ายที่นับรุกจน', { win: 'ชนะ', draw: 'ได้เพียงเสมอ' }],
  board_honour: ['นับศักดิ์กระดาน', { first_opportunity: 'นับตั้งแต่มีสิทธิ์ครั้งแรก', off: 'ไม่นับ' }],
  switch_to_pieces: ['กินหมากตัวสุดท้ายของฝ่ายที่นับแล้วเริ่มนับศักดิ์หมาก', { always: 'ทุกครั้ง', if_shorter: 'เฉพาะเมื่อจบเร็วกว่า' }],
} : {
  limit_precedence: ['Limit with a Khon and two Ma', { min: 'the smaller: 32 (Fairy-Stockfish)', khon_before_knights: "the Khon's: 44" }],
  draw_when: ['The count draws when the defender', { exceeded: 'completes the move after the limit', reached: 'reaches the limit (Cambodian)' }],
  counter_mate: ['A mate by the counting side', { win: 'wins', draw: 'only draws' }],
  board_honour: ["Board's honour", { first_opportunity: 'claimed at the first opportunity', off: 'not counted' }],
  switch_to_pieces: ["Baring the counter starts pieces' honour", { always: 'always', if_shorter: 'only if it ends sooner' }],
};
const NAMES = L({ K: 'Khun', M: 'Met', S: 'Khon', N: 'Ma', R: 'Ruea', P: 'Bia' },
  { K: 'ขุน', M: 'เม็ด', S: 'โคน', N: 'ม้า', R: 'เรือ', P: 'เบี้ย' });
const $ = (id) => document.getElementById(id);

const state = {
  game: 'makruk', // or 'xiangqi'
  letters: false, // Xiangqi: letters on the men for their characters
  board: Array(64).fill(''), // [rank * files + file], FEN letters
  side: 'w',
  countFields: null, // "88 8": the count fields of a FEN being followed, else null
  flip: false,
  tool: 'move',
  selected: null, // the square of the man to move (play mode)
  answer: null, // the last /api/probe answer
  line: null, // {rootFen, rootSide, steps, at}: the line shown, and the step at which the board is
  stepping: false, // the answer awaited is a step along the line shown
  drag: null, // {from, ghost}: a man being dragged (play mode)
  request: 0, // answers to older requests are dropped
  drawing: 0, // and so are older drawings of the board
};

function squareName(i) { return 'abcdefghi'[i % game().files] + (Math.floor(i / game().files) + 1); }
function squareIndex(name) { return (name.charCodeAt(0) - 97) + game().files * (Number(name.slice(1)) - 1); }

function placement() {
  const ranks = [];
  const { files } = game();
  for (let r = game().ranks - 1; r >= 0; r--) {
    let text = '', empty = 0;
    for (let f = 0; f < files; f++) {
      const man = state.board[r * files + f];
      if (!man) { empty++; continue; }
      if (empty) { text += empty; empty = 0; }
      text += man;
    }
    ranks.push(text + (empty ? empty : ''));
  }
  return ranks.join('/');
}

function fen() {
  if (state.game === 'xiangqi') return `${placement()} ${state.side} - - 0 1`;
  return `${placement()} ${state.side} - ${state.countFields || '- 0'} 1`;
}

// Reads a FEN into the editor; throws a message for a placement the board cannot show.
function loadFen(text) {
  const fields = text.trim().split(/[\s_]+/);
  const ranks = (fields[0] || '').split('/');
  // Ten ranks: a Xiangqi FEN; eight: Makruk's.
  if (ranks.length !== 8 && ranks.length !== 10)
    throw new Error(L('a FEN board has 8 ranks (Makruk) or 10 (Xiangqi) separated by /', 'กระดานใน FEN มี 8 แถว (หมากรุกไทย) หรือ 10 แถว (หมากรุกจีน) คั่นด้วย /'));
  const which = ranks.length === 10 ? 'xiangqi' : 'makruk';
  const { files, men } = GAMES[which];
  const letters = new RegExp(`[${men.join('')}${men.join('').toLowerCase()}]`);
  const board = Array(files * ranks.length).fill('');
  ranks.forEach((rank, i) => {
    let f = 0;
    for (const c of rank.replace(/~/g, '')) {
      if (/[1-9]/.test(c)) f += Number(c);
      else if (letters.test(c) && f < files) board[(ranks.length - 1 - i) * files + f++] = c;
      else throw new Error(L(`'${c}' is not a man (${men.join(' ')}) or a digit`, `'${c}' ไม่ใช่หมาก (${men.join(' ')}) หรือตัวเลข`));
    }
    if (f !== files) throw new Error(L(`rank ${ranks.length - i} does not have ${files} squares`, `แถวที่ ${ranks.length - i} ไม่ครบ ${files} ช่อง`));
  });
  if (fields[1] !== 'w' && fields[1] !== 'b') throw new Error(L(`the side to move is '${fields[1] || ''}': w or b`, `ฝ่ายที่เดินคือ '${fields[1] || ''}': ต้องเป็น w หรือ b`));
  if (which !== state.game) setGame(which, false); // only once the FEN is known to be good
  state.board = board;
  state.side = fields[1];
  const limit = fields[3];
  state.countFields = which === 'makruk' && limit && limit !== '-' && limit !== '0' ? `${limit} ${fields[4] || 0}` : null;
  $('count-kind').value = state.countFields ? 'fen' : 'fresh';
  syncControls();
}

function syncControls() {
  $(state.side === 'w' ? 'side-w' : 'side-b').checked = true;
  const kind = $('count-kind').value;
  $('count-kind').querySelector('[value=fen]').hidden = !state.countFields;
  $('count-value').hidden = kind !== 'pieces' && kind !== 'board';
  $('fen').value = fen();
}

// The count parameter of a request: "pieces:C" / "board:C" when the person set one.
function countParam() {
  const kind = $('count-kind').value;
  return kind === 'pieces' || kind === 'board' ? `${kind}:${$('count-value').value}` : '';
}

// The rule options that differ from the defaults, as request parameters.
function ruleParams() {
  if (state.game === 'xiangqi') return xiangqiRuleParams(); // Makruk's options are not Xiangqi's
  const params = {};
  for (const name of Object.keys(RULES)) {
    const value = document.getElementById(`rule-${name}`).value;
    if (value !== RULES[name][0]) params[name] = value;
  }
  return params;
}

// Xiangqi's repetition rules (rules=), where another set than asian (the default) is chosen.
function xiangqiRuleParams() {
  const set = $('xiangqi-rule-set').value;
  return state.game === 'xiangqi' && set !== 'asian' ? { rules: set } : {};
}

function query(params) {
  return Object.entries(params).filter(([, v]) => v !== '' && v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

// Redraws the board as the server draws it; a drawing asked for before a later one is dropped,
// so the board never goes back to a position left (answers can come back out of order).
async function drawBoard() {
  const drawing = ++state.drawing;
  const best = state.answer && state.answer.moves.length ? state.answer.moves[0].uci : '';
  const move = best.match(/^([a-i]\d+)([a-i]\d+)/);
  const params = { fen: fen(), flip: state.flip ? 1 : '', mark: state.selected !== null ? squareName(state.selected) : '', arrow: state.tool === 'move' && move ? move[1] + move[2] : '', letters: state.letters ? 1 : '' };
  const response = await fetch(`/board.svg?${query(params)}`);
  const svg = response.ok ? await response.text() : null;
  if (svg !== null && drawing === state.drawing) $('board').innerHTML = svg;
}

// A reference engine's word beyond the tables (mktb serve --engine): its move and evaluation
// under the count, said to be the engine's and not exact.
function showEngine(advice) {
  let text = '';
  if (advice && advice.busy) text = L(`${advice.engine} is busy with another position; ask again.`, `${advice.engine} กำลังคิดตำแหน่งอื่นอยู่ ลองถามอีกครั้ง`);
  else if (advice && advice.gone) text = L('The reference engine has stopped answering.', 'เอนจินอ้างอิงหยุดตอบแล้ว');
  else if (advice && advice.bestmove) {
    const s = advice.score || {};
    const score = s.mate !== undefined ? (s.mate > 0 ? L(`mates in ${s.mate}`, `รุกจนใน ${s.mate} ตา`) : L(`is mated in ${-s.mate}`, `ถูกรุกจนใน ${-s.mate} ตา`))
      : s.cp !== undefined ? L(`evaluation ${s.cp > 0 ? '+' : ''}${(s.cp / 100).toFixed(2)} for the side to move`, `ประเมิน ${s.cp > 0 ? '+' : ''}${(s.cp / 100).toFixed(2)} สำหรับฝ่ายที่เดิน`) : L('no evaluation', 'ไม่มีค่าประเมิน');
    text = L(`Engine, not the tables: ${advice.engine} plays ${advice.san || advice.bestmove} (${score}, depth ${advice.depth} in ${advice.movetime_ms} ms, under the count).`,
      `ความเห็นของเอนจิน ไม่ใช่ตาราง: ${advice.engine} เดิน ${advice.san || advice.bestmove} (${score}, ความลึก ${advice.depth} ใน ${advice.movetime_ms} มิลลิวินาที ตามการนับ)`);
  }
  $('engine').textContent = text;
  $('engine').hidden = !text;
}

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = !message;
}

function describeCount(count) {
  if (count.phase === 'none') return L('No count while a Bia is on the board.', 'ยังไม่นับขณะมีเบี้ยบนกระดาน');
  if (count.phase === 'bare_kings') return L('Bare kings: nothing left to count.', 'เหลือขุนเปล่าทั้งสองฝ่าย: ไม่มีอะไรให้นับ');
  if (!count.running) return L("No count runs while both sides have men (board's honour off).", 'ไม่นับขณะที่ทั้งสองฝ่ายมีหมาก (ปิดการนับศักดิ์กระดาน)');
  if (LANG === 'th')
    return `${count.phase === 'pieces' ? 'นับศักดิ์หมาก' : 'นับศักดิ์กระดาน'}: ${count.counter === 'black' ? 'ดำ' : count.counter === 'white' ? 'ขาว' : 'ฝ่ายที่เสียเปรียบ'}นับ ${count.announced} จาก ${count.limit_moves}`;
  const honour = count.phase === 'pieces' ? "Pieces' honour" : "Board's honour";
  const counter = count.counter ? count.counter[0].toUpperCase() + count.counter.slice(1) : 'The weaker side';
  return `${honour}: ${counter} counts, ${count.announced} of ${count.limit_moves} announced.`;
}

function showAnswer(answer) {
  $('verdict').textContent = answer.verdict;
  const xiangqi = answer.game === 'xiangqi';
  if (!answer.count) answer.count = { running: false, phase: 'none' }; // Xiangqi has no count
  // A count set by hand goes into the FEN box too, so that a copied FEN keeps it.
  if (answer.count.running && countParam()) $('fen').value = `${placement()} ${state.side} - ${answer.count.limit} ${answer.count.ply} 1`;
  // A new line, unless this answer is a step along the one shown (stepped to, or its next move
  // played on the board or from the list).
  if (!state.stepping) {
    const fields = answer.fen.split(' ');
    const rootFen = answer.count && answer.count.running ? `${fields[0]} ${fields[1]} - ${answer.count.limit} ${answer.count.ply} 1` : answer.fen;
    state.line = { rootFen, rootSide: fields[1], steps: answer.line_steps || [], at: -1, note: answer.line_note };
  }
  state.stepping = false;
  showLine();
  if (xiangqi) {
    // The rules the table follows, in words: where both sides are armed, a side that can hold
    // only by checking forever loses.
    $('pure').textContent = answer.rules.includes('chase=loss')
      ? L('Xiangqi under the Asian rules: stalemate loses; a side that can hold only by checking, or by chasing the same man, forever loses.', 'หมากรุกจีนตามกติกาเอเชีย: อับถือว่าแพ้; ฝ่ายที่ยื้อได้ด้วยการรุกหรือการไล่ตัวเดิมไม่หยุดเท่านั้นถือว่าแพ้')
      : answer.rules.includes('perpetual_check=loss')
      ? L('Xiangqi: stalemate loses; a side that can hold only by checking forever loses (perpetual chase not modelled).', 'หมากรุกจีน: อับถือว่าแพ้; ฝ่ายที่ยื้อได้ด้วยการรุกไม่หยุดเท่านั้นถือว่าแพ้ (ไม่รวมการไล่ไม่หยุด)')
      : answer.rules.includes('perpetual_check=draw')
      ? L('Xiangqi under the rule set none: stalemate loses; every endless line is a draw, perpetual check included.', 'หมากรุกจีนตามกติกา none: อับถือว่าแพ้; การเดินวนไม่สิ้นสุดทุกแบบเสมอ รวมถึงการรุกไม่หยุด')
      : L('Xiangqi: stalemate loses; with one side armless the perpetual-check rule changes nothing.', 'หมากรุกจีน: อับถือว่าแพ้; เมื่อฝ่ายหนึ่งไม่มีตัวรุก กติการุกไม่หยุดไม่เปลี่ยนผล');
    $('count-info').textContent = '';
  } else {
    $('pure').textContent = L(`Without counting: ${answer.pure_verdict}.`, `ถ้าไม่นับ: ${answer.pure_verdict}`);
    $('count-info').textContent = describeCount(answer.count);
  }
  $('legend').textContent = xiangqi
    ? L('* marks the moves that keep the best result. Click a move to play it.', '* คือตาเดินที่รักษาผลดีที่สุด คลิกตาเดินเพื่อเดิน')
    : L('* marks the moves that keep the best result under the count. Click a move to play it; the count runs on.', THAI.legend);
  $('line-title').textContent = xiangqi ? L('The line that keeps the result', 'แนวเดินที่รักษาผล')
    : L('The line that keeps the result, with the count after each move', THAI['line-title']);
  const heads = $('moves').querySelectorAll('thead th');
  heads[1].textContent = xiangqi ? L('Value', 'ผล') : L('Without counting', 'ไม่นับ');
  heads[2].textContent = xiangqi ? L('Under the perpetual-check rule', 'ตามกติการุกไม่หยุด') : L('Under the count', 'ตามการนับ');
  // Xiangqi's rule column only where the rule decides a move.
  $('moves').classList.toggle('no-rule', xiangqi && !answer.moves.some((m) => m.rule_result));
  const body = $('moves').querySelector('tbody');
  body.replaceChildren();
  for (const move of answer.moves) {
    const row = document.createElement('tr');
    // A move's category and rule_result are for the side to move after it (docs/api.md).
    const after = xiangqi ? (move.rule_result || move.category) : move.counted.category;
    const mover = { win: 'loss', loss: 'win', draw: 'draw' }[after];
    row.className = `${mover}${move.best ? ' best' : ''}`;
    row.dataset.uci = move.uci;
    row.title = L('Play this move', 'เดินตานี้');
    const mine = move.rule_result && { win: 'loss', loss: 'win' }[move.rule_result]; // the mover's
    const ruled = mine ? L(`${mine} (only the rule decides)`, `${{ win: 'ชนะ', loss: 'แพ้' }[mine]} (กติกาเท่านั้นที่ตัดสิน)`) : '';
    // Xiangqi's moves in WXF with the Chinese notation beside (俥五進七).
    for (const text of xiangqi ? [`${move.wxf} ${move.chinese}`, move.text.pure, ruled] : [move.san, move.text.pure, move.text.counted]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.appendChild(cell);
    }
    row.firstChild.className = 'uci';
    row.firstChild.title = move.uci;
    row.addEventListener('click', () => play(move));
    body.appendChild(row);
  }
}

// The line that keeps the result, as moves to step through: each numbered as in a game score
// ("1. Rd1", "1... Kc5"), with the count after it, the step shown marked.
function showLine() {
  const line = state.line;
  const list = $('line-moves');
  list.replaceChildren();
  // No line to mate where only the rule decides: the answer says why there is none.
  const none = state.answer && state.answer.line_none;
  $('line').hidden = !line || (!line.steps.length && !none);
  if (!line) return;
  if (!line.steps.length && none) {
    const item = document.createElement('li');
    item.textContent = none;
    list.appendChild(item);
  }
  let n = 1, white = line.rootSide === 'w';
  line.steps.forEach((step, i) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.step = i;
    button.textContent = `${white ? `${n}. ` : i === 0 ? `${n}... ` : ''}${step.san || step.wxf}`;
    if (step.chinese) {
      const chinese = document.createElement('small');
      chinese.textContent = ` ${step.chinese}`;
      chinese.lang = 'zh';
      button.appendChild(chinese);
    }
    if (step.count && step.count.running) {
      const count = document.createElement('small');
      count.textContent = ` ${step.count.announced}/${step.count.limit_moves}`;
      count.title = L(`count ${step.count.announced} of ${step.count.limit_moves}`, `นับ ${step.count.announced} จาก ${step.count.limit_moves}`);
      button.appendChild(count);
    }
    if (i === line.at) { button.classList.add('current'); button.setAttribute('aria-current', 'step'); }
    button.addEventListener('click', () => step(i));
    item.appendChild(button);
    list.appendChild(item);
    if (!white) n++;
    white = !white;
  });
  // Where only the rules decide, the line ends where a position repeats: the answer says so.
  if (line.note) {
    const item = document.createElement('li');
    item.className = 'note';
    item.textContent = line.note;
    list.appendChild(item);
  }
  $('line-back').disabled = line.at < 0;
  $('line-forward').disabled = line.at >= line.steps.length - 1;
}

// Shows the position after step `i` of the line (-1: where it starts), keeping the line.
function step(i) {
  const line = state.line;
  if (!line || i < -1 || i >= line.steps.length) return;
  loadFen(i < 0 ? line.rootFen : line.steps[i].fen);
  line.at = i;
  state.stepping = true;
  state.selected = null;
  refresh(true);
}

function clearAnswer(verdict) {
  state.line = null;
  showLine();
  state.answer = null;
  $('verdict').textContent = verdict;
  $('pure').textContent = '';
  $('count-info').textContent = '';
  $('moves').querySelector('tbody').replaceChildren();
}

// A FEN that could not be read: the error, and nothing left of the answer before it (its
// verdict, line and moves belong to another position).
function forget(error) {
  ++state.request; // an answer still on its way is dropped too
  showError(error);
  showEngine(null);
  clearAnswer(L('Correct the FEN, or set up a position on the board', 'แก้ FEN หรือตั้งตำแหน่งบนกระดาน'));
  document.querySelector('main').setAttribute('aria-busy', 'false');
}

// Asks the API about the position on the board, then redraws. `push`: a new history entry.
async function refresh(push = false) {
  syncControls();
  const params = { fen: fen().replace(/ /g, '_'), count: countParam(), ...ruleParams() };
  const lang = LANG === 'th' ? 'th' : '';
  const url = `/?${query(params)}`;
  $('share').href = url;
  if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
  const request = ++state.request;
  // Busy until this position's answer and board are both shown (screen readers wait; so do tests).
  document.querySelector('main').setAttribute('aria-busy', 'true');
  const done = () => { if (request === state.request) document.querySelector('main').setAttribute('aria-busy', 'false'); };
  let answer = null, error = '', advice = null;
  const kings = (k) => state.board.filter((m) => m === k).length;
  if (kings('K') !== 1 || kings('k') !== 1) {
    // a position being set up: nothing to ask yet
    state.answer = null;
    showError('');
    showEngine(null);
    clearAnswer(state.board.some(Boolean) ? (state.game === 'xiangqi' ? L('Place one general of each colour', 'วางขุนสีละหนึ่งตัว') : L('Place one Khun of each colour', 'วางขุนสีละหนึ่งตัว')) : L('Set up a position', 'ตั้งตำแหน่ง'));
    await drawBoard();
    done();
    return;
  }
  try {
    const response = await fetch(`/api/probe?${query({ fen: fen(), count: countParam(), line: 1, lang, ...ruleParams() })}`);
    const body = await response.json();
    if (response.ok) answer = body; else error = body.error;
    // Outside the tables: what the tables hold, how to make the missing ones, and a reference
    // engine's word where the server has one, marked as the engine's.
    if (response.status === 404 && body.material) {
      error += body.can_generate
        ? L(`. Make the table of ${body.material} and those of the endings it converts into with "${body.command} --tables DIR", and serve DIR.`,
          `. สร้างตาราง ${body.material} และตารางของเผด็จที่มันเปลี่ยนไปได้ด้วย "${body.command} --tables DIR" แล้วเปิด serve DIR`)
        : body.game === 'xiangqi'
          ? L(`. ${body.material} (${body.men} men) needs more memory to make than this machine has.`, `. ${body.material} (หมาก ${body.men} ตัว) ต้องใช้หน่วยความจำมากกว่าที่เครื่องนี้มีในการสร้าง`)
          : L(`. ${body.material} has ${body.men} men: more than mktb makes tables for.`, `. ${body.material} มีหมาก ${body.men} ตัว: มากเกินกว่าที่ mktb สร้างตารางได้`);
      advice = body.engine || null;
    }
  } catch (e) {
    error = L(`the server did not answer (${e.message})`, `เซิร์ฟเวอร์ไม่ตอบ (${e.message})`);
  }
  if (request !== state.request) return;
  state.answer = answer;
  showError(error ? L(`Cannot answer: ${error}`, `ตอบไม่ได้: ${error}`) : '');
  showEngine(advice);
  if (answer) showAnswer(answer); else clearAnswer(state.board.some(Boolean) ? L('No answer for this position', 'ไม่มีคำตอบสำหรับตำแหน่งนี้') : L('Set up a position', 'ตั้งตำแหน่ง'));
  await drawBoard();
  done();
}

// The listed move from one square to another (a Bia's promotion written with its suffix).
function findMove(from, to) {
  return state.answer.moves.find((m) => m.uci === from + to || m.uci === `${from + to}m`);
}

function play(move) {
  // The next move of the line shown: a step along it, which keeps the line.
  const line = state.line;
  if (line && line.steps[line.at + 1] && line.steps[line.at + 1].uci === move.uci) return step(line.at + 1);
  loadFen(move.fen); // the position after it, with the count as it runs on
  state.selected = null;
  refresh(true);
}

// A position edited by hand no longer follows the count of a FEN.
function edited() {
  if ($('count-kind').value === 'fen') $('count-kind').value = 'fresh';
  state.countFields = null;
  state.selected = null;
  refresh();
}

function clickSquare(square) {
  const i = squareIndex(square);
  if (state.tool === 'move') {
    const man = state.board[i];
    const own = man && (man === man.toUpperCase()) === (state.side === 'w');
    if (state.selected !== null && state.answer) {
      const move = findMove(squareName(state.selected), square);
      if (move) return play(move);
    }
    state.selected = own && state.selected !== i ? i : null;
    drawBoard();
    return;
  }
  if (state.tool === 'remove') state.board[i] = '';
  else state.board[i] = state.board[i] === state.tool ? '' : state.tool;
  edited();
}

function selectTool(tool) {
  state.tool = tool;
  state.selected = null;
  for (const b of document.querySelectorAll('.tool')) b.classList.toggle('selected', b.dataset.tool === tool);
  drawBoard();
}

// The palette of the game's men, the side to move's names, the controls only Makruk has.
function drawPalette() {
  const xiangqi = state.game === 'xiangqi';
  for (const span of document.querySelectorAll('#palette .men')) {
    span.replaceChildren();
    const first = span.dataset.colour === 'white';
    const side = game().sides[first ? 0 : 1];
    for (const m of game().men) {
      const letter = first ? m : m.toLowerCase();
      const name = xiangqi ? XIANGQI_NAMES[m] : NAMES[m];
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `tool${state.tool === letter ? ' selected' : ''}`;
      button.dataset.tool = letter;
      button.title = L(`Place ${side} ${name}`, `วาง${name}${side}`);
      const img = document.createElement('img');
      img.src = xiangqi ? `/man/${letter}.svg?game=xiangqi${state.letters ? '&letters=1' : ''}` : `/man/${letter}.svg`;
      img.alt = L(`${side} ${name}`, `${name}${side}`);
      button.appendChild(img);
      button.addEventListener('click', () => selectTool(letter));
      span.appendChild(button);
    }
  }
  // The legend of the men: each one's picture and name, for a phone's reader too (no hover).
  const legend = $('men-legend');
  legend.replaceChildren();
  for (const m of game().men) {
    const item = document.createElement('span');
    const img = document.createElement('img');
    img.src = xiangqi ? `/man/${m}.svg?game=xiangqi${state.letters ? '&letters=1' : ''}` : `/man/${m}.svg`;
    img.alt = '';
    item.append(img, `${m} ${xiangqi ? XIANGQI_NAMES[m] : NAMES[m]}`);
    legend.appendChild(item);
  }
  // The rules this game is answered under, and the page that states them.
  $('footer-text').textContent = xiangqi
    ? L('Distances are exact (retrograde analysis). Rules: Xiangqi as Fairy-Stockfish plays it, stalemate a loss, perpetual check forbidden:',
      'ระยะทุกค่าคำนวณแน่นอน (retrograde analysis) กติกา: หมากรุกจีนแบบ Fairy-Stockfish อับถือว่าแพ้ ห้ามรุกไม่หยุด:')
    : L("Distances are exact (retrograde analysis). Rules: Fairy-Stockfish's Makruk with its counting:", THAI.footer);
  $('rules-link').href = xiangqi ? '/docs/rules-xiangqi.md' : '/docs/rules.md';
  document.querySelector('label[for=fen]').textContent = xiangqi ? L('FEN (Fairy-Stockfish)', 'FEN (แบบ Fairy-Stockfish)')
    : L('FEN (Fairy-Stockfish; fields 4-5: the count)', THAI['fen-label']);
  $('side-w-name').textContent = game().sides[0];
  $('side-b-name').textContent = game().sides[1];
  for (const id of ['count-fieldset', 'rules']) $(id).hidden = xiangqi;
  $('xiangqi-rules').hidden = !xiangqi;
  $('letters-row').hidden = !xiangqi;
  $('game').value = state.game;
}

// Switches the game: its board, emptied (or `example`: the game's example position).
function setGame(which, example = true) {
  state.game = which;
  state.board = Array(GAMES[which].files * GAMES[which].ranks).fill('');
  state.countFields = null;
  state.selected = null;
  state.line = null;
  if (!['move', 'remove'].includes(state.tool)) state.tool = 'move';
  drawPalette();
  if (example) {
    loadFen(GAMES[which].example);
    refresh(true);
  }
}

function setup() {
  drawPalette();
  for (const [name, values] of Object.entries(RULES)) {
    const label = document.createElement('label');
    label.textContent = `${RULE_WORDS[name][0]}: `;
    label.title = name; // the option's name in docs/rules.md and the API
    const select = document.createElement('select');
    select.id = `rule-${name}`;
    for (const v of values) select.add(new Option(RULE_WORDS[name][1][v], v));
    select.addEventListener('change', () => refresh());
    label.appendChild(select);
    $('rules').appendChild(label);
  }
  for (const b of document.querySelectorAll('#palette > .tool')) b.addEventListener('click', () => selectTool(b.dataset.tool));
  $('game').addEventListener('change', () => setGame($('game').value));
  $('letters').addEventListener('change', () => { state.letters = $('letters').checked; drawPalette(); drawBoard(); });
  $('board').addEventListener('click', (e) => {
    const square = e.target.closest('[data-square]');
    if (square && !state.dragged) clickSquare(square.dataset.square);
    state.dragged = false;
  });
  // Drag and drop in play mode: press on one's own man, release on its destination.
  $('board').addEventListener('pointerdown', (e) => {
    const square = e.target.closest('[data-square]');
    if (state.tool !== 'move' || !square || !state.answer) return;
    const i = squareIndex(square.dataset.square);
    const man = state.board[i];
    if (!man || (man === man.toUpperCase()) !== (state.side === 'w')) return;
    const ghost = document.createElement('img');
    ghost.src = `/man/${man}.svg`;
    ghost.className = 'drag-ghost';
    ghost.hidden = true;
    document.body.appendChild(ghost);
    state.drag = { from: square.dataset.square, ghost, x: e.clientX, y: e.clientY };
    e.preventDefault();
  });
  window.addEventListener('pointermove', (e) => {
    const drag = state.drag;
    if (!drag) return;
    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 4) drag.ghost.hidden = false;
    drag.ghost.style.left = `${e.clientX}px`;
    drag.ghost.style.top = `${e.clientY}px`;
  });
  window.addEventListener('pointerup', (e) => {
    const drag = state.drag;
    if (!drag) return;
    state.drag = null;
    // A drag is a release away from the press (pointermove events may come late or merged).
    const moved = !drag.ghost.hidden || Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 4;
    drag.ghost.remove();
    if (!moved) return; // a click: clickSquare() handles it
    state.dragged = true; // the click that follows this release is not a second selection
    setTimeout(() => { state.dragged = false; }, 0);
    const target = document.elementFromPoint(e.clientX, e.clientY);
    const square = target && target.closest('#board [data-square]');
    const move = square && state.answer && findMove(drag.from, square.dataset.square);
    if (move) play(move); else { state.selected = null; drawBoard(); }
  });
  $('line-back').addEventListener('click', () => step(state.line.at - 1));
  $('line-forward').addEventListener('click', () => step(state.line.at + 1));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea') || !state.line || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: state.line.at - 1, ArrowRight: state.line.at + 1, Home: -1, End: state.line.steps.length - 1 }[e.key];
    if (to === undefined || to < -1 || to >= state.line.steps.length) return;
    e.preventDefault();
    step(to);
  });
  for (const id of ['side-w', 'side-b']) $(id).addEventListener('change', () => { state.side = $(id).value; edited(); });
  $('clear').addEventListener('click', () => { state.board.fill(''); edited(); });
  $('flip').addEventListener('click', () => { state.flip = !state.flip; drawBoard(); });
  $('swap').addEventListener('click', () => {
    state.board = state.board.map((m) => (m === m.toUpperCase() ? m.toLowerCase() : m.toUpperCase()));
    edited();
  });
  $('count-kind').addEventListener('change', () => {
    if ($('count-kind').value !== 'fen') state.countFields = null;
    refresh();
  });
  $('count-value').addEventListener('change', () => refresh());
  $('xiangqi-rule-set').addEventListener('change', () => refresh());
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    try {
      loadFen($('fen').value);
      state.selected = null;
      refresh(true);
    } catch (error) {
      forget(L(`Cannot read the FEN: ${error.message}`, `อ่าน FEN ไม่ได้: ${error.message}`));
    }
  });
  window.addEventListener('popstate', () => start());
  showServedRules();
  start();
}

// The position of the address (/?fen=...&count=...), else an example.
function start() {
  const params = new URLSearchParams(location.search);
  let unread = '';
  try {
    loadFen(params.get('fen') || GAMES[params.get('game') === 'xiangqi' ? 'xiangqi' : 'makruk'].example);
  } catch (error) {
    unread = L(`Cannot read the FEN of the address: ${error.message}`, `อ่าน FEN ในลิงก์ไม่ได้: ${error.message}`);
  }
  for (const [name, values] of Object.entries(RULES)) {
    const value = params.get(name);
    document.getElementById(`rule-${name}`).value = values.includes(value) ? value : values[0];
  }
  $('xiangqi-rule-set').value = ['none', 'check'].includes(params.get('rules')) ? params.get('rules') : 'asian';
  const count = /^(pieces|board):(\d+)$/.exec(params.get('count') || '');
  if (count) {
    $('count-kind').value = count[1];
    $('count-value').value = count[2];
  }
  if (unread) forget(unread); else refresh();
}

// The rule sets of the served tables (/api/rules): an option's other value is offered only
// where a served directory was built under it, and the panel says how to make the others.
async function showServedRules() {
  let served = [], body = {};
  try {
    body = await (await fetch(`/api/rules${LANG === 'th' ? '?lang=th' : ''}`)).json();
    served = body.served || [];
  } catch (e) {
    return; // the probes will say what is wrong
  }
  // Xiangqi's sets: each offered only where a directory of it is served.
  const xiangqiSets = (body.xiangqi || []).map((set) => set.rules);
  if (xiangqiSets.length) {
    for (const option of $('xiangqi-rule-set').options) option.disabled = !xiangqiSets.includes(option.value);
    $('xiangqi-rules-served').textContent = L(
      `Served here: ${xiangqiSets.join(', ')}. Another set needs tables of its own (mktb gen --game xiangqi --rules none --tables DIR ...), served beside these.`,
      `ที่เปิดอยู่ที่นี่: ${xiangqiSets.join(', ')} กติกาอื่นต้องใช้ตารางของตัวเอง (mktb gen --game xiangqi --rules none --tables DIR ...) แล้วเปิดคู่กับตารางเหล่านี้`);
  }
  if (!served.length) return;
  for (const name of Object.keys(RULES))
    for (const option of $(`rule-${name}`).options)
      option.disabled = !served.some((set) => set.options[name] === option.value);
  const words = served.map((set) => set.words).join('; ');
  $('rules-served').textContent = L(
    `Served here: tables built under ${words}. Other rules need tables of their own, made with the rule options (for example: mktb gen --men 4 --counter-mate draw --tables DIR) and served beside these (mktb serve --tables ... --tables DIR).`,
    `ตารางที่เปิดอยู่ที่นี่สร้างตาม ${words} กติกาอื่นต้องใช้ตารางของตัวเอง สร้างด้วยตัวเลือกกติกา (เช่น mktb gen --men 4 --counter-mate draw --tables DIR) แล้วเปิดคู่กับตารางเหล่านี้ (mktb serve --tables ... --tables DIR)`);
}

setup();
