// mancala.js - Slangenspel drawn as a coiled snake: 16 holes along its body from the
// tail (outside, beside hole 1) to the head (centre, beside hole 16), holes 1-8 on the
// outer ring (player A), 9-16 on the inner ring (player B), a store for each player.

import { svgEl } from './pieces.js';

const W = 1100, H = 780;
const CX = 550, CY = 392;
const R0 = 318;           // radius of the centre line at hole 1
const TURN = 116;         // the centre line comes this much closer each turn
const K = TURN / (2 * Math.PI);
const STEP = Math.PI / 4; // eight holes a turn
const BODY = 96;          // width of the body
const HOLE = 31;          // radius of a hole
const PHI0 = Math.PI * 0.6; // where hole 1 lies (screen angle; 0 = right, clockwise)
const TAIL = -1.3;        // the tail tip, as angle before hole 1
const HEAD = 15 * STEP + 1.25;

// a point of the centre line at parameter t (angle travelled from hole 1)
function spiral(t, flipped) {
  const r = R0 - K * t;
  const a = PHI0 + t + (flipped ? Math.PI : 0);
  return { x: CX + r * Math.cos(a), y: CY + r * Math.sin(a), r, a };
}

function bodyWidth(t) {
  if (t < TAIL + 0.02) return 2;
  if (t < 0.15) return 4 + (BODY - 4) * Math.pow((t - TAIL) / (0.15 - TAIL), 0.8);
  const neck = 15 * STEP + 0.35;
  if (t > neck) return BODY - (BODY - 48) * Math.min(1, (t - neck) / (HEAD - neck));
  return BODY;
}

export function parseMove(text) {
  const m = /^(S?)(\d+)([+-])(x?)$/.exec(text);
  if (!m) return { pass: text === 'pass', text };
  return { text, store: !!m[1], hole: Number(m[2]), dir: m[3] === '+' ? 1 : -1, capture: !!m[4] };
}

// the holes a sowing of N eggs from HOLE reaches, in order
export function sowPath(hole, n, dir) {
  const out = [];
  let h = hole;
  for (let i = 0; i < n; i++) {
    h = ((h - 1 + dir + 16) % 16) + 1;
    out.push(h);
  }
  return out;
}

export class SnakeBoard {
  constructor(el, chooser, { onMove, onInspect }) {
    this.el = el;
    this.chooser = chooser;
    this.onMove = onMove;
    this.onInspect = onInspect; // a tap on a hole that cannot be sown now
    this.sel = 0;
  }

  render(st, opts) {
    this.st = st;
    this.opts = opts;
    const flipped = !!opts.flipped;
    const m = st.mancala;
    const svg = this.svg = svgEl('svg', { class: 'main', viewBox: `0 0 ${W} ${H}` });
    this.el.style.setProperty('--aspect', (W / H).toFixed(3));
    const defs = svgEl('defs');
    defs.innerHTML = `
      <linearGradient id="skin" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#9cb35a"/><stop offset="0.5" stop-color="#7f9a42"/><stop offset="1" stop-color="#62803a"/>
      </linearGradient>
      <pattern id="scales" width="22" height="14" patternUnits="userSpaceOnUse">
        <path d="M0 14 Q5.5 4 11 14 Q16.5 4 22 14" fill="none" stroke="#4d6a28" stroke-width="1.4" opacity="0.55"/>
        <path d="M-11 7 Q-5.5 -3 0 7 Q5.5 -3 11 7 Q16.5 -3 22 7 Q27.5 -3 33 7" fill="none" stroke="#4d6a28" stroke-width="1.4" opacity="0.55"/>
      </pattern>
      <radialGradient id="pit" cx="0.5" cy="0.42" r="0.6">
        <stop offset="0" stop-color="#2a1c10"/><stop offset="0.8" stop-color="#4a3421"/><stop offset="1" stop-color="#5d442b"/>
      </radialGradient>
      <radialGradient id="ground" cx="0.5" cy="0.5" r="0.6">
        <stop offset="0" stop-color="#efe2c2"/><stop offset="1" stop-color="#dcc9a0"/>
      </radialGradient>`;
    svg.appendChild(defs);
    svg.appendChild(svgEl('rect', { x: 0, y: 0, width: W, height: H, rx: 18, fill: 'url(#ground)' }));

    this.labels = [];
    this.drawBody(svg, flipped);
    this.drawHead(svg, flipped);
    for (const l of this.labels) svg.appendChild(l);

    // holes
    const before = m.before;
    const last = st.last ? parseMove(st.last.text) : null;
    let lastPath = [];
    if (last && last.hole && before) {
      const n = last.store ? 5 : before.holes[last.hole - 1];
      lastPath = sowPath(last.hole, n, last.dir);
    }
    const movable = this.movableHoles();
    const holes = svgEl('g');
    this.holeEls = {};
    for (let i = 1; i <= 16; i++) {
      const p = spiral((i - 1) * STEP, flipped);
      const cls = ['hole', i <= 8 ? 'ring-a' : 'ring-b'];
      if (movable.has(i)) cls.push('movable');
      if (this.sel === i) cls.push('selected');
      if (last && last.hole === i) cls.push('last-from');
      const g = svgEl('g', { class: cls.join(' '), 'data-hole': i, tabindex: '0', role: 'button',
        'aria-label': `hole ${i}, ${i <= 8 ? 'A' : 'B'}, ${m.holes[i - 1]} egg${m.holes[i - 1] === 1 ? '' : 's'}` });
      g.appendChild(svgEl('circle', { class: 'pit', cx: p.x, cy: p.y, r: HOLE, fill: 'url(#pit)' }));
      if (lastPath.length && lastPath[lastPath.length - 1] === i) {
        g.appendChild(svgEl('circle', { cx: p.x, cy: p.y, r: HOLE + 7, fill: 'none', stroke: '#ffd54a', 'stroke-width': 4, 'stroke-dasharray': '6 5' }));
      }
      g.appendChild(svgEl('circle', { class: 'rim', cx: p.x, cy: p.y, r: HOLE }));
      const n = m.holes[i - 1];
      const added = before ? Math.max(0, n - (before.holes[i - 1] || 0)) : 0;
      this.drawEggs(g, p, n, added);
      const t = svgEl('text', { class: 'count', x: p.x, y: p.y });
      t.textContent = String(n);
      g.appendChild(t);
      // the hole's number, in a badge on the rim, outward
      const out = HOLE + 6;
      const nx = p.x + Math.cos(p.a) * out, ny = p.y + Math.sin(p.a) * out;
      g.appendChild(svgEl('circle', { class: 'num-badge', cx: nx, cy: ny, r: 12 }));
      const num = svgEl('text', { class: 'num', x: nx, y: ny + 1 });
      num.textContent = String(i);
      g.appendChild(num);
      const title = svgEl('title');
      title.textContent = `hole ${i} (${i <= 8 ? 'A, outer ring' : 'B, inner ring'}): ${n} egg${n === 1 ? '' : 's'}`;
      g.appendChild(title);
      holes.appendChild(g);
      this.holeEls[i] = g;
    }
    svg.appendChild(holes);
    this.previewLayer = svgEl('g');
    svg.appendChild(this.previewLayer);

    this.drawStores(svg, st, flipped);
    this.el.replaceChildren(svg);
    svg.addEventListener('click', (e) => this.click(e));
    // a hole with the keyboard's focus: Enter or Space as a click
    svg.addEventListener('keydown', (e) => {
      if ((e.key === 'Enter' || e.key === ' ') && e.target.closest && e.target.closest('[data-hole]')) {
        e.preventDefault();
        this.click(e);
        const first = this.chooser.querySelector('button.opt');
        if (!this.chooser.hidden && first) first.focus();
      }
    });
  }

  drawBody(svg, flipped) {
    const left = [], right = [], mid = [];
    for (let t = TAIL; t <= HEAD + 1e-9; t += 0.02) {
      const p = spiral(t, flipped), q = spiral(t + 0.01, flipped);
      const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1;
      const nx = -dy / len, ny = dx / len, w = bodyWidth(t) / 2;
      left.push(`${(p.x + nx * w).toFixed(1)},${(p.y + ny * w).toFixed(1)}`);
      right.push(`${(p.x - nx * w).toFixed(1)},${(p.y - ny * w).toFixed(1)}`);
      if (t > 0.2) mid.push(`${p.x.toFixed(1)},${p.y.toFixed(1)}`);
    }
    const outline = `M${left.join(' L')} L${right.reverse().join(' L')} Z`;
    svg.appendChild(svgEl('path', { d: outline, fill: 'rgba(70,50,20,0.18)', transform: 'translate(4,7)' }));
    svg.appendChild(svgEl('path', { d: outline, fill: 'url(#skin)', stroke: '#3f5620', 'stroke-width': 3, 'stroke-linejoin': 'round' }));
    svg.appendChild(svgEl('path', { d: outline, fill: 'url(#scales)' }));
    // a row of darker diamonds down the back
    svg.appendChild(svgEl('path', { d: `M${mid.join(' L')}`, fill: 'none', stroke: '#4f6b2a', 'stroke-width': 16, 'stroke-dasharray': '10 26', 'stroke-linecap': 'round', opacity: 0.5 }));
    // the tail tip
    const tip = spiral(TAIL, flipped);
    const lt = svgEl('text', { class: 'mancala-label', x: tip.x + Math.cos(tip.a) * 26, y: tip.y + Math.sin(tip.a) * 26 + 5 });
    lt.textContent = 'tail';
    this.labels.push(lt);
  }

  drawHead(svg, flipped) {
    const p = spiral(HEAD, flipped), q = spiral(HEAD + 0.05, flipped);
    const ang = Math.atan2(q.y - p.y, q.x - p.x) * 180 / Math.PI;
    const g = svgEl('g', { transform: `translate(${p.x},${p.y}) rotate(${ang})` });
    g.innerHTML = `
      <path d="M44 0 l16 -1 l6 -6 m-6 6 l6 6" stroke="#c0392b" stroke-width="2.8" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
      <path d="M-22 -25 C4 -32 32 -20 46 0 C32 20 4 32 -22 25 C-30 12 -30 -12 -22 -25 Z" fill="url(#skin)" stroke="#3f5620" stroke-width="3"/>
      <path d="M-22 -25 C4 -32 32 -20 46 0 C32 20 4 32 -22 25 C-30 12 -30 -12 -22 -25 Z" fill="url(#scales)"/>
      <path d="M-4 -8 C6 -12 16 -10 24 -4 M-4 8 C6 12 16 10 24 4" stroke="#4f6b2a" stroke-width="3" fill="none" opacity="0.6"/>
      <ellipse cx="12" cy="-15" rx="7" ry="5.5" fill="#f7e9a8" stroke="#2b2b18" stroke-width="2"/>
      <ellipse cx="12" cy="15" rx="7" ry="5.5" fill="#f7e9a8" stroke="#2b2b18" stroke-width="2"/>
      <ellipse cx="13.5" cy="-15" rx="1.8" ry="4.2" fill="#111"/>
      <ellipse cx="13.5" cy="15" rx="1.8" ry="4.2" fill="#111"/>
      <circle cx="38" cy="-5" r="1.6" fill="#2b3a16"/><circle cx="38" cy="5" r="1.6" fill="#2b3a16"/>`;
    svg.appendChild(g);
    // beside the head, on the side of the centre
    const rad = ang * Math.PI / 180;
    let nx = -Math.sin(rad), ny = Math.cos(rad);
    if ((CX - p.x) * nx + (CY - p.y) * ny < 0) { nx = -nx; ny = -ny; }
    const lh = svgEl('text', { class: 'mancala-label', x: p.x + Math.cos(rad) * 12 + nx * 44, y: p.y + Math.sin(rad) * 12 + ny * 44 + 5 });
    lh.textContent = 'head';
    this.labels.push(lh);
  }

  drawEggs(g, p, n, added) {
    const shown = Math.min(n, 12);
    for (let k = 0; k < shown; k++) {
      let ex, ey;
      if (shown === 1) { ex = p.x; ey = p.y + 13; } else {
        const a = -Math.PI / 2 + (2 * Math.PI * k) / shown;
        const rr = shown <= 6 ? 19 : 21;
        ex = p.x + Math.cos(a) * rr; ey = p.y + Math.sin(a) * rr;
      }
      const fresh = k >= shown - Math.min(added, shown);
      g.appendChild(svgEl('ellipse', { class: `egg${fresh ? ' new' : ''}`, cx: ex, cy: ey, rx: 4.4, ry: 5.6 }));
    }
  }

  drawStores(svg, st, flipped) {
    const m = st.mancala;
    const who = (side) => (st.players[side] === 'engine' ? 'engine' : 'person');
    const place = [{ x: 112, y: H - 104 }, { x: W - 112, y: 104 }];
    if (flipped) place.reverse();
    for (let side = 0; side < 2; side++) {
      const { x, y } = place[side];
      const g = svgEl('g', { class: 'store' });
      const toMove = !st.result.over && st.side === side;
      g.appendChild(svgEl('ellipse', { class: `store-bowl ${side ? 'b' : 'a'}${toMove ? ' to-move' : ''}`, cx: x, cy: y, rx: 96, ry: 74 }));
      const c = svgEl('text', { class: 'store-count', x, y: y + 12 });
      c.textContent = String(m.stores[side]);
      g.appendChild(c);
      const l = svgEl('text', { class: 'store-label', x, y: y - 34 });
      l.textContent = side ? 'B store' : 'A store';
      g.appendChild(l);
      const sub = svgEl('text', { class: 'store-sub', x, y: y + 36 });
      sub.textContent = `${side ? 'inner' : 'outer'} ring \u00b7 ${who(side)}`;
      g.appendChild(sub);
      if (m.used) {
        const u = svgEl('text', { class: 'store-sub', x, y: y + 54 });
        u.textContent = `store moves left: ${3 - m.used[side]}`;
        g.appendChild(u);
      }
      svg.appendChild(g);
    }
  }

  interactive() { return this.opts && this.opts.interactive; }

  movableHoles() {
    const set = new Set();
    if (!this.interactive()) return set;
    for (const mv of this.st.moves) {
      const p = parseMove(mv.text);
      if (p.hole) set.add(p.hole);
    }
    return set;
  }

  click(e) {
    const g = e.target.closest && e.target.closest('[data-hole]');
    if (!g) return;
    const hole = Number(g.dataset.hole);
    if (!this.movableHoles().has(hole)) {
      if (!this.chooser.hidden) this.hideChooser();
      if (this.onInspect) this.onInspect(hole);
      return;
    }
    this.sel = hole;
    for (const [i, el] of Object.entries(this.holeEls)) el.classList.toggle('selected', Number(i) === hole);
    this.choose(hole);
  }

  // the moves from one hole: up or down, leaving the last egg or capturing with it
  choose(hole) {
    const st = this.st;
    const opts = st.moves.map((mv) => parseMove(mv.text)).filter((p) => p.hole === hole);
    const box = this.chooser;
    box.replaceChildren();
    const h = document.createElement('h3');
    const n = opts[0] && opts[0].store ? 5 : st.mancala.holes[hole - 1];
    h.textContent = opts[0] && opts[0].store ? `Hole ${hole}: sow 5 eggs from your store` : `Hole ${hole}: sow ${n} egg${n === 1 ? '' : 's'}`;
    box.appendChild(h);
    const row = document.createElement('div');
    row.className = 'opts column';
    opts.sort((a, b) => b.dir - a.dir || a.capture - b.capture);
    const paths = opts.map((p) => sowPath(hole, n, p.dir));
    opts.forEach((p, i) => {
      const path = paths[i];
      const end = path[path.length - 1];
      const b = document.createElement('button');
      b.className = 'opt text';
      b.dataset.move = p.text;
      const mv = document.createElement('span');
      mv.className = 'mv';
      mv.textContent = p.text;
      const d = document.createElement('span');
      const where = p.dir > 0 ? 'up' : 'down';
      d.textContent = p.capture
        ? `${where}, last egg onto the ${end === 16 ? 'head' : 'tail'}: capture`
        : `${where}, last egg in hole ${end}`;
      b.append(mv, d);
      b.addEventListener('mouseenter', () => this.preview(opts, paths, i));
      b.addEventListener('focus', () => this.preview(opts, paths, i));
      b.addEventListener('mouseleave', () => this.preview(opts, paths, -1));
      b.addEventListener('click', () => { this.hideChooser(); this.sel = 0; this.onMove(p.text); });
      row.appendChild(b);
    });
    box.appendChild(row);
    const cancel = document.createElement('button');
    cancel.className = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => { this.hideChooser(); this.sel = 0; this.holeEls[hole].classList.remove('selected'); });
    box.appendChild(cancel);
    // under the board, out of the snake's way; the paths are drawn on the board
    box.classList.add('docked');
    box.style.left = box.style.top = '';
    box.hidden = false;
    this.preview(opts, paths, -1);
  }

  // where the eggs of each choice go: every hole sown, numbered in order, in the
  // colour of its direction (up amber, down blue), and the last one ringed with the
  // moves that end there; FOCUS (an index of OPTS, -1 none) drawn stronger
  preview(opts, paths, focus) {
    this.previewLayer.replaceChildren();
    const flipped = !!this.opts.flipped;
    const ends = new Map(); // last hole -> the moves ending there
    opts.forEach((p, i) => {
      const path = paths[i];
      const end = path[path.length - 1];
      ends.set(end, [...(ends.get(end) || []), p.text]);
      const strong = focus < 0 || focus === i;
      const colour = p.dir > 0 ? '#ffd54a' : '#8fd8ff';
      path.forEach((hole, k) => {
        const c = spiral((hole - 1) * STEP, flipped);
        const g = svgEl('g', { class: `sow-step${strong ? '' : ' faint'}`, 'data-hole': hole, 'pointer-events': 'none' });
        g.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: HOLE - 3, fill: 'none', stroke: colour, 'stroke-width': strong ? 4 : 2 }));
        // the step's number, inside the hole, toward the centre of the snake
        const x = c.x - Math.cos(c.a) * (HOLE - 13), y = c.y - Math.sin(c.a) * (HOLE - 13);
        g.appendChild(svgEl('circle', { cx: x, cy: y, r: 10, fill: colour }));
        const t = svgEl('text', { class: 'sow-num', x, y: y + 1 });
        t.textContent = String(k + 1);
        g.appendChild(t);
        this.previewLayer.appendChild(g);
      });
    });
    for (const [end, texts] of ends) {
      const c = spiral((end - 1) * STEP, flipped);
      this.previewLayer.appendChild(svgEl('circle', { class: 'sow-end', cx: c.x, cy: c.y, r: HOLE + 7, 'pointer-events': 'none' }));
      const x = c.x + Math.cos(c.a) * (HOLE + 34), y = c.y + Math.sin(c.a) * (HOLE + 34);
      const t = svgEl('text', { class: 'sow-tag', x, y, 'pointer-events': 'none' });
      t.textContent = texts.join(' ');
      this.previewLayer.appendChild(t);
    }
  }

  hideChooser() {
    this.chooser.hidden = true;
    this.chooser.classList.remove('docked');
    this.chooser.replaceChildren();
    if (this.previewLayer) this.previewLayer.replaceChildren();
  }
}
