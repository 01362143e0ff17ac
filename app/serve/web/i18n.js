// i18n.js - the pages' words in English and Thai (the players' language), chosen by the
// browser's language and the switch in the header (remembered in localStorage). The English text
// is the pages' own; an element marked data-i18n="key" (data-i18n-title, data-i18n-label for its
// title and aria-label) takes the Thai of that key. Scripts say their words with L(english, thai).
'use strict';

const LANG = (() => {
  const chosen = localStorage.getItem('mktb-lang');
  if (chosen === 'en' || chosen === 'th') return chosen;
  return (navigator.languages || [navigator.language]).some((l) => /^th\b/i.test(l)) ? 'th' : 'en';
})();
const L = (en, th) => (LANG === 'th' ? th : en);

const THAI = {
  tagline: 'เผด็จหมากรุกไทยและหมากรุกจีนที่คำนวณครบทุกตำแหน่ง: ใครชนะ ในกี่ตา ภายในการนับหรือไม่?',
  'tagline-endings': 'แต่ละเผด็จมีอะไรบ้าง',
  'nav-probe': 'ถามตำแหน่ง', 'nav-endings': 'เผด็จทั้งหมด', 'nav-api': 'API',
  board: 'กระดาน: คลิกที่ช่อง', tools: 'เครื่องมือ',
  play: 'เดิน', 'play-title': 'เดิน: คลิกหมาก แล้วคลิกช่องที่จะไป', remove: 'ลบ', 'remove-title': 'ลบหมาก',
  'side-to-move': 'ฝ่ายที่เดิน', white: 'ขาว', black: 'ดำ',
  game: 'เกม', makruk: 'หมากรุกไทย', xiangqi: 'หมากรุกจีน (象棋)', letters: 'แสดงตัวอักษรบนหมาก (K A E H R C P)',
  clear: 'ล้างกระดาน', flip: 'กลับกระดาน', swap: 'สลับสี',
  count: 'การนับ', 'count-state': 'สถานะการนับ', 'count-fresh': 'ยังไม่เริ่ม: การนับที่ตำแหน่งนี้เริ่ม',
  'count-pieces': 'นับศักดิ์หมาก: ฝ่ายขุนเปล่านับล่าสุดถึง', 'count-board': 'นับศักดิ์กระดาน: ฝ่ายที่เสียเปรียบนับถึง', 'count-fen': 'ตาม FEN',
  'count-announced': 'นับล่าสุด',
  rules: 'กติกาการนับ',
  'xiangqi-rules': 'กติกาการเดินซ้ำ',
  'xiangqi-rules-label': 'ตอบตามกติกา',
  'xiangqi-check': 'check: ฝ่ายที่รุกไม่หยุดแพ้',
  'xiangqi-asian': 'asian: ฝ่ายที่รุกหรือไล่ตัวเดิมไม่หยุดแพ้',
  'xiangqi-none': 'none: การเดินวนไม่สิ้นสุดทุกแบบเสมอ',
  'rules-note': 'ตอบจากตารางที่สร้างตามกติกาเหล่านี้ (กติกา §4) เซิร์ฟเวอร์มีหนึ่งโฟลเดอร์ต่อชุดกติกา',
  'fen-label': 'FEN (แบบ Fairy-Stockfish; ช่องที่ 4-5 คือการนับ)', load: 'โหลด',
  'set-up': 'ตั้งตำแหน่ง', share: 'ลิงก์ของตำแหน่งนี้',
  'line-title': 'แนวเดินที่รักษาผล พร้อมการนับหลังแต่ละตา',
  'line-back': 'ถอยหนึ่งตา (ลูกศรซ้าย)', 'line-forward': 'ไปหนึ่งตา (ลูกศรขวา)',
  'th-move': 'ตาเดิน', 'th-pure': 'ไม่นับ', 'th-counted': 'ตามการนับ',
  legend: '* คือตาเดินที่รักษาผลดีที่สุดตามการนับ คลิกตาเดินเพื่อเดิน การนับจะดำเนินต่อ',
  footer: 'ระยะทุกค่าคำนวณแน่นอน (retrograde analysis) กติกา: หมากรุกไทยของ Fairy-Stockfish พร้อมการนับ:',
  'rules-link': 'กติกาที่ mktb ใช้',
  'footer-endings': 'ตัวเลขจากไฟล์สถิติที่ mktb gen เขียนไว้ข้างตาราง; "ภายในการนับใหม่": ชนะภายในการนับที่ตำแหน่งนั้นเริ่ม',
  endings: 'เผด็จ', 'th-ending': 'เผด็จ', 'th-men': 'จำนวนหมาก', 'th-positions': 'ตำแหน่ง (ขาวเดิน)',
  'th-white-wins': 'ขาวชนะ', 'th-draws': 'เสมอ', 'th-counted-wins': 'ขาวชนะภายในการนับใหม่',
  'th-longest': 'รุกจนยาวที่สุด', 'th-file': 'ไฟล์',
};

function applyLanguage() {
  document.documentElement.lang = LANG;
  if (LANG === 'th')
    for (const e of document.querySelectorAll('[data-i18n], [data-i18n-title], [data-i18n-label]')) {
      if (e.dataset.i18n && THAI[e.dataset.i18n]) e.textContent = THAI[e.dataset.i18n];
      if (e.dataset.i18nTitle && THAI[e.dataset.i18nTitle]) e.title = THAI[e.dataset.i18nTitle];
      if (e.dataset.i18nLabel && THAI[e.dataset.i18nLabel]) e.setAttribute('aria-label', THAI[e.dataset.i18nLabel]);
    }
  const button = document.getElementById('lang-switch');
  button.textContent = LANG === 'th' ? 'English' : 'ภาษาไทย';
  button.lang = LANG === 'th' ? 'en' : 'th';
  button.addEventListener('click', () => {
    localStorage.setItem('mktb-lang', LANG === 'th' ? 'en' : 'th');
    location.reload();
  });
}

applyLanguage();
