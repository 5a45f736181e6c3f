// chessboard.js - draws a chess-like board from the game state (any size, Hannibal's
// gate slots, Diamondback turned 45 degrees with the King corners toward the players)
// and turns clicks and drags into moves.

import { pieceGroup, svgEl } from './pieces.js';

const S = 64; // one square, in SVG units
const M = 24; // margin for coordinates
const G = 52; // height of a row of gate slots
const GAP = 8;
const R2 = Math.SQRT2;

export class ChessBoard {
  constructor(el, chooser, { onMove, onGate, onInspect, announce }) {
    this.el = el;
    this.chooser = chooser;
    this.onMove = onMove;
    this.onGate = onGate;
    this.announce = announce; // words for a screen reader (keyboard play)
    this.kf = -1; // the square with the keyboard's focus
    this.onInspect = onInspect; // a click on a piece that cannot move now (sq, whether picked up)
    this.sel = -1;
    this.drag = null;
    this.gatePick = [];
  }

  // ---- geometry ----

  layout(st, flipped) {
    const files = st.files, ranks = st.ranks;
    const diamond = st.rotated;
    const gating = st.gating;
    if (diamond) {
      const h = S / R2; // half diagonal of a square
      const size = (files + ranks) * h + 2 * M + 56; // room for large coordinates
      return { diamond, files, ranks, flipped, gating, h, W: size, H: size, cx: size / 2, cy: size / 2 };
    }
    const top = M + (gating ? G + GAP : 0);
    const W = files * S + 2 * M;
    const H = ranks * S + 2 * M + (gating ? 2 * (G + GAP) : 0);
    return { diamond, files, ranks, flipped, gating, x0: M, y0: top, W, H };
  }

  // centre of a square, in SVG units
  center(L, sq) {
    let f = sq % L.files, r = Math.floor(sq / L.files);
    if (L.flipped) { f = L.files - 1 - f; r = L.ranks - 1 - r; }
    if (L.diamond) {
      const u = f - (L.files - 1) / 2, v = r - (L.ranks - 1) / 2;
      return { x: L.cx + (u - v) * L.h, y: L.cy - (u + v) * L.h };
    }
    return { x: L.x0 + (f + 0.5) * S, y: L.y0 + (L.ranks - r - 0.5) * S };
  }

  squareShape(L, sq, cls) {
    const c = this.center(L, sq);
    if (L.diamond) {
      const h = L.h;
      return svgEl('polygon', { class: cls, points: `${c.x},${c.y - h} ${c.x + h},${c.y} ${c.x},${c.y + h} ${c.x - h},${c.y}` });
    }
    return svgEl('rect', { class: cls, x: c.x - S / 2, y: c.y - S / 2, width: S, height: S });
  }

  // the square under an SVG point, or -1
  squareAt(L, x, y) {
    let f, r;
    if (L.diamond) {
      const a = (x - L.cx) / L.h, b = -(y - L.cy) / L.h; // a = u - v, b = u + v
      f = Math.round((a + b) / 2 + (L.files - 1) / 2);
      r = Math.round((b - a) / 2 + (L.ranks - 1) / 2);
    } else {
      f = Math.floor((x - L.x0) / S);
      r = L.ranks - 1 - Math.floor((y - L.y0) / S);
    }
    if (f < 0 || r < 0 || f >= L.files || r >= L.ranks) return -1;
    if (L.flipped) { f = L.files - 1 - f; r = L.ranks - 1 - r; }
    return r * L.files + f;
  }

  // gate slot of SIDE behind file F
  gateRect(L, side, f) {
    const vf = L.flipped ? L.files - 1 - f : f;
    const below = (side === 0) !== L.flipped;
    const y = below ? L.y0 + L.ranks * S + M + GAP : 0;
    return { x: L.x0 + vf * S + 3, y, w: S - 6, h: G };
  }

  svgPoint(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  // ---- drawing ----

  render(st, opts) {
    this.st = st;
    this.opts = opts;
    const L = this.L = this.layout(st, opts.flipped);
    this.names = {};
    for (const p of st.pieces) this.names[p.letter] = p.name;
    const hadFocus = this.svg && document.activeElement === this.svg;
    const svg = this.svg = svgEl('svg', { class: 'main', viewBox: `0 0 ${L.W} ${L.H}` });
    this.el.style.setProperty('--aspect', (L.W / L.H).toFixed(3));
    const defs = svgEl('defs');
    defs.innerHTML = '<radialGradient id="check-glow"><stop offset="0" stop-color="#ff2a12" stop-opacity="0.95"/>' +
      '<stop offset="0.55" stop-color="#e8321c" stop-opacity="0.55"/><stop offset="1" stop-color="#e8321c" stop-opacity="0"/></radialGradient>';
    svg.appendChild(defs);

    const nsq = L.files * L.ranks;
    const board = st.board;
    // frame
    if (L.diamond) {
      const h = L.h, n = L.files;
      const ext = n * h + 42;
      svg.appendChild(svgEl('polygon', { class: 'frame', points: `${L.cx},${L.cy - ext} ${L.cx + ext},${L.cy} ${L.cx},${L.cy + ext} ${L.cx - ext},${L.cy}` }));
    } else {
      svg.appendChild(svgEl('rect', { class: 'frame', x: 0, y: L.y0 - M, width: L.W, height: L.ranks * S + 2 * M, rx: 10 }));
    }
    // squares
    const layer = (name) => { const g = svgEl('g', { class: name }); svg.appendChild(g); return g; };
    const sqLayer = layer('squares');
    for (let sq = 0; sq < nsq; sq++) {
      if (board.squares[sq] === '*') continue;
      const f = sq % L.files, r = Math.floor(sq / L.files);
      const shape = this.squareShape(L, sq, `sq ${(f + r) % 2 ? 'light' : 'dark'}`);
      shape.dataset.sq = sq;
      shape.setAttribute('role', 'img');
      shape.setAttribute('aria-label', this.squareWords(sq));
      sqLayer.appendChild(shape);
    }
    // coordinates
    this.drawCoords(svg, L);
    // gates
    if (L.gating) this.drawGates(svg, L, st);
    // marks
    const marks = layer('marks');
    this.marks = marks;
    const last = st.last;
    if (last && last.from >= 0) marks.appendChild(this.squareShape(L, last.from, 'mark-last'));
    if (last && last.to >= 0 && last.to !== last.from) marks.appendChild(this.squareShape(L, last.to, 'mark-last'));
    if (board.check && !st.result.over) {
      const king = st.side ? 'k' : 'K';
      const ksq = board.squares.indexOf(king);
      if (ksq >= 0) {
        const c = this.center(L, ksq);
        marks.appendChild(svgEl('circle', { class: 'mark-check', cx: c.x, cy: c.y, r: S * 0.62 }));
      }
    }
    // the mated King: a red ring and a "#" badge
    if (st.result.over && /checkmate/i.test(st.result.reason || '') && st.result.winner !== null) {
      const ksq = board.squares.indexOf(st.result.winner ? 'K' : 'k');
      if (ksq >= 0) {
        const c = this.center(L, ksq);
        marks.appendChild(svgEl('circle', { class: 'mark-check', cx: c.x, cy: c.y, r: S * 0.62 }));
        marks.appendChild(svgEl('circle', { class: 'mark-mated', cx: c.x, cy: c.y, r: S * 0.44 }));
        this.matedAt = { x: c.x + S * 0.34, y: c.y - S * 0.34 };
        marks.dataset.mated = ksq;
      }
    }
    this.selLayer = layer('selection');
    // pieces
    const pl = this.pieceLayer = layer('pieces');
    this.pieceEls = {};
    const movable = this.movableSquares();
    const P = L.diamond ? S * 0.92 : S * 0.9;
    for (let sq = 0; sq < nsq; sq++) {
      const ch = board.squares[sq];
      if (ch === '.' || ch === '*') continue;
      const side = ch === ch.toUpperCase() ? 0 : 1;
      const name = this.names[ch.toUpperCase()] || '?';
      const c = this.center(L, sq);
      const g = svgEl('g', { class: `piece${movable.has(sq) ? ' movable' : ''}`, transform: `translate(${c.x - P / 2},${c.y - P / 2}) scale(${P / 100})`, 'data-sq': sq });
      g.appendChild(pieceGroup(name, ch, side));
      pl.appendChild(g);
      this.pieceEls[sq] = g;
    }
    this.targetLayer = layer('targets');
    if (marks.dataset.mated) {
      const b = layer('mated');
      b.appendChild(svgEl('circle', { class: 'mated-badge', cx: this.matedAt.x, cy: this.matedAt.y, r: 11 }));
      const t = svgEl('text', { class: 'mated-text', x: this.matedAt.x, y: this.matedAt.y });
      t.textContent = '#';
      b.appendChild(t);
    }
    this.kfLayer = layer('kfocus-layer');
    if (opts.keys) {
      svg.setAttribute('tabindex', '0');
      svg.setAttribute('role', 'application');
      svg.setAttribute('aria-label', 'Board. Arrow keys move from square to square, Enter or Space picks a piece up and puts it down, Escape drops it.');
      svg.addEventListener('keydown', (e) => this.key(e));
      svg.addEventListener('focus', () => { if (this.kf < 0) this.kf = this.firstFocus(); this.showFocus(); });
    }
    this.el.replaceChildren(svg);
    if (hadFocus) svg.focus();
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', () => this.cancelDrag());
    if (this.sel >= 0 && !movable.has(this.sel) && !this.pickable(this.sel)) this.sel = -1;
    if (this.kf >= nsq) this.kf = -1;
    this.showSelection();
    this.showFocus();
  }

  // ---- keyboard ----

  sqName(sq) { return `${'abcdefghijklmnop'[sq % this.st.files]}${Math.floor(sq / this.st.files) + 1}`; }

  // "e2, White pawn" / "e4, empty"
  squareWords(sq) {
    const ch = this.st.board.squares[sq];
    if (ch === '.' || ch === '*') return `${this.sqName(sq)}, empty`;
    const side = ch === ch.toUpperCase() ? 'White' : 'Black';
    return `${this.sqName(sq)}, ${side} ${this.names[ch.toUpperCase()] || 'piece'}`;
  }

  // where the keyboard starts: the selected piece, else a piece that may move, else a1
  firstFocus() {
    if (this.sel >= 0) return this.sel;
    const m = this.st.moves.find((x) => x.from >= 0);
    return m ? m.from : 0;
  }

  showFocus() {
    if (!this.kfLayer) return;
    this.kfLayer.replaceChildren();
    if (this.kf >= 0 && this.kf < this.L.files * this.L.ranks) this.kfLayer.appendChild(this.squareShape(this.L, this.kf, 'kfocus'));
  }

  say(words) { if (this.announce) this.announce(words); }

  key(e) {
    const L = this.L;
    if (this.kf < 0) this.kf = this.firstFocus();
    // arrows as seen on the screen: up is toward the far side (a flipped board: rank 1)
    const d = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (d) {
      e.preventDefault();
      e.stopPropagation();
      const s = L.flipped ? -1 : 1;
      const f = Math.min(L.files - 1, Math.max(0, (this.kf % L.files) + s * d[0]));
      const r = Math.min(L.ranks - 1, Math.max(0, Math.floor(this.kf / L.files) + s * d[1]));
      this.kf = r * L.files + f;
      this.showFocus();
      const target = this.sel >= 0 && this.st.moves.some((m) => m.from === this.sel && m.to === this.kf);
      this.say(`${this.squareWords(this.kf)}${target ? ', a move' : ''}`);
      return;
    }
    if (e.key === 'Escape' && this.sel >= 0) {
      this.select(-1);
      this.say('Put back');
      return;
    }
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    const sq = this.kf;
    if (!this.interactive()) {
      if (this.pickable(sq)) { this.select(this.sel === sq ? -1 : sq); this.say(`${this.squareWords(sq)} picked up: its moves come on your turn`); }
      if (this.onInspect) this.onInspect(sq, this.sel === sq);
      return;
    }
    if (this.sel >= 0 && sq !== this.sel && this.tryMove(this.sel, sq)) {
      const first = this.chooser.hidden ? null : this.chooser.querySelector('button.opt');
      if (first) first.focus(); // a promotion or a castling to choose: from the keyboard too
      return;
    }
    if (this.movableSquares().has(sq)) {
      const again = this.sel === sq;
      this.select(again ? -1 : sq);
      const n = new Set(this.st.moves.filter((m) => m.from === sq && m.to >= 0).map((m) => m.to)).size;
      this.say(again ? 'Put back' : `${this.squareWords(sq)} picked up: ${n} move${n === 1 ? '' : 's'}`);
    } else {
      this.select(-1);
      if (this.onInspect) this.onInspect(sq, false);
      this.say(this.squareWords(sq));
    }
  }

  drawCoords(svg, L) {
    const g = svgEl('g');
    const letters = 'abcdefghijklmnop';
    for (let f = 0; f < L.files; f++) {
      const sq = f; // rank 1
      const c = this.center(L, L.flipped ? (L.ranks - 1) * L.files + f : sq);
      let x, y;
      if (L.diamond) {
        // along the lower right edge (White) or the upper left (flipped)
        const c0 = this.center(L, sq);
        const d = L.flipped ? -1 : 1;
        x = c0.x + d * (L.h * 0.5 + 11); y = c0.y + d * (L.h * 0.5 + 11);
      } else {
        x = c.x; y = L.y0 + L.ranks * S + M / 2 + 1;
      }
      const t = svgEl('text', { class: `coord out${L.diamond ? ' diamond' : ''}`, x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      t.textContent = letters[f];
      g.appendChild(t);
    }
    for (let r = 0; r < L.ranks; r++) {
      const sq = r * L.files;
      let x, y;
      const c0 = this.center(L, sq);
      if (L.diamond) {
        const d = L.flipped ? -1 : 1;
        x = c0.x - d * (L.h * 0.5 + 11); y = c0.y + d * (L.h * 0.5 + 11);
      } else {
        x = M / 2; y = c0.y;
      }
      const t = svgEl('text', { class: `coord out${L.diamond ? ' diamond' : ''}`, x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      t.textContent = String(r + 1);
      g.appendChild(t);
    }
    svg.appendChild(g);
  }

  // Hannibal: a slot behind every file of each side's back rank
  drawGates(svg, L, st) {
    const g = svgEl('g', { class: 'gates' });
    this.gateLayer = g;
    const setup = this.setupInfo();
    const letters = 'abcdefghijklmnop';
    for (let side = 0; side < 2; side++) {
      const row = st.board.gates[side] || '';
      for (let f = 0; f < L.files; f++) {
        const R = this.gateRect(L, side, f);
        const ch = row[f] && row[f] !== '.' ? row[f] : null;
        const pending = setup && setup.side === side ? this.gatePick.find((p) => p.file === f) : null;
        const pickable = setup && setup.side === side && !pending && setup.files(this.gatePick).has(f);
        const closed = setup && setup.side === side && !pickable && !pending && !ch;
        const rect = svgEl('rect', { class: `gate-slot${pickable ? ' pick' : ''}${closed ? ' closed' : ''}`, x: R.x, y: R.y, width: R.w, height: R.h, rx: 8, 'data-gate': `${side}:${f}` });
        g.appendChild(rect);
        const letter = ch || (pending ? pending.letter : null);
        if (letter) {
          const P = G - 6;
          const name = this.names[letter.toUpperCase()] || '?';
          const pg = svgEl('g', { transform: `translate(${R.x + R.w / 2 - P / 2},${R.y + 3}) scale(${P / 100})`, 'pointer-events': 'none', opacity: pending ? 0.75 : 1 });
          pg.appendChild(pieceGroup(name, letter, side));
          g.appendChild(pg);
        } else if (!pickable) {
          const t = svgEl('text', { class: 'gate-label', x: R.x + R.w / 2, y: R.y + R.h / 2 + 4 });
          t.textContent = letters[f];
          g.appendChild(t);
        } else {
          const t = svgEl('text', { class: 'gate-label', x: R.x + R.w / 2, y: R.y + R.h / 2 + 4, 'pointer-events': 'none' });
          t.textContent = '+';
          t.setAttribute('style', 'font-size:22px;fill:#1d6b5f');
          g.appendChild(t);
        }
      }
    }
    svg.appendChild(g);
  }

  // ---- what may move ----

  interactive() { return this.opts && this.opts.interactive; }

  // while the engine is to move, a piece of the person's side (opts.mine) may be
  // picked up: its targets show once it is that side's turn
  pickable(sq) {
    const mine = this.opts && this.opts.mine;
    if (this.interactive() || mine === undefined || mine < 0 || sq < 0) return false;
    const ch = this.st.board.squares[sq];
    return ch !== '.' && ch !== '*' && (ch === ch.toUpperCase() ? 0 : 1) === mine;
  }

  movableSquares() {
    const set = new Set();
    if (!this.interactive()) return set;
    for (const m of this.st.moves) if (m.from >= 0) set.add(m.from);
    return set;
  }

  // Hannibal set-up: the pieces to place and the files still open, or null
  setupInfo() {
    const st = this.st;
    if (!this.interactive() || !st.moves.length || !st.moves.every((m) => m.kind === 's')) return null;
    const parse = (t) => [...t.matchAll(/([A-Z])([a-z])/g)].map((x) => ({ letter: x[1], file: x[2].charCodeAt(0) - 97 }));
    const all = st.moves.map((m) => ({ text: m.text, pairs: parse(m.text) }));
    const order = all[0].pairs.map((p) => p.letter);
    const fits = (mv, picks) => picks.every((p, i) => mv.pairs[i] && mv.pairs[i].file === p.file);
    return {
      side: st.side,
      order,
      files: (picks) => {
        const set = new Set();
        const i = picks.length;
        for (const mv of all) if (fits(mv, picks) && mv.pairs[i]) set.add(mv.pairs[i].file);
        return set;
      },
      complete: (picks) => all.find((mv) => mv.pairs.length === picks.length && fits(mv, picks)),
    };
  }

  nextGateLetter() {
    const s = this.setupInfo();
    if (!s) return null;
    const letter = s.order[this.gatePick.length];
    return letter ? (s.side ? letter.toLowerCase() : letter) : null;
  }

  resetGates() {
    this.gatePick = [];
  }

  // ---- selection and moving ----

  showSelection() {
    this.selLayer.replaceChildren();
    this.targetLayer.replaceChildren();
    if (this.sel < 0) return;
    const L = this.L;
    this.selLayer.appendChild(this.squareShape(L, this.sel, 'mark-sel'));
    if (!this.interactive()) return; // picked up while the engine is to move
    const seen = new Set();
    for (const m of this.st.moves) {
      if (m.from !== this.sel || m.to < 0 || seen.has(m.to)) continue;
      seen.add(m.to);
      const c = this.center(L, m.to);
      const occupied = this.st.board.squares[m.to] !== '.';
      if (occupied) {
        this.targetLayer.appendChild(svgEl('circle', { class: 'target-ring', cx: c.x, cy: c.y, r: S * 0.43, 'stroke-width': S * 0.09 }));
      } else {
        this.targetLayer.appendChild(svgEl('circle', { class: 'target-dot', cx: c.x, cy: c.y, r: S * 0.16 }));
      }
    }
  }

  select(sq) {
    this.sel = sq;
    this.showSelection();
  }

  tryMove(from, to) {
    const opts = this.st.moves.filter((m) => m.from === from && m.to === to);
    if (!opts.length) return false;
    if (opts.length === 1) {
      this.sel = -1;
      this.onMove(opts[0].text);
      return true;
    }
    this.choose(to, opts);
    return true;
  }

  // several moves share from and to: promotion, or castling beside a plain king step
  choose(to, opts) {
    const side = this.st.side;
    const box = this.chooser;
    box.replaceChildren();
    box.classList.remove('docked');
    const h = document.createElement('h3');
    const promo = opts.every((m) => m.promo);
    h.textContent = promo ? 'Promote to' : 'Which move?';
    box.appendChild(h);
    const row = document.createElement('div');
    row.className = promo ? 'opts' : 'opts column';
    for (const m of opts) {
      const b = document.createElement('button');
      b.className = promo ? 'opt' : 'opt text';
      b.dataset.move = m.text;
      if (promo) {
        const name = this.names[m.promo] || m.promo;
        const svg = svgEl('svg', { viewBox: '0 0 100 100' });
        svg.appendChild(pieceGroup(name, m.promo, side));
        b.appendChild(svg);
        const l = document.createElement('span');
        l.className = 'lbl';
        l.textContent = name;
        b.appendChild(l);
        b.title = m.san;
      } else {
        const mv = document.createElement('span');
        mv.className = 'mv';
        mv.textContent = m.san;
        const d = document.createElement('span');
        d.textContent = m.kind === 'c' ? 'castle' : m.kind === 'e' ? 'en passant' : 'move';
        b.append(mv, d);
      }
      b.addEventListener('click', () => { this.hideChooser(); this.sel = -1; this.onMove(m.text); });
      row.appendChild(b);
    }
    box.appendChild(row);
    const cancel = document.createElement('button');
    cancel.className = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => { this.hideChooser(); this.select(-1); });
    box.appendChild(cancel);
    box.hidden = false;
    // place it beside the target square
    const c = this.center(this.L, to);
    const rect = this.svg.getBoundingClientRect();
    const wrap = box.parentElement.getBoundingClientRect();
    const k = rect.width / this.L.W;
    let x = rect.left - wrap.left + c.x * k + S * k * 0.55;
    let y = rect.top - wrap.top + c.y * k - 40;
    const bw = box.offsetWidth, bh = box.offsetHeight;
    if (x + bw > wrap.width) x = rect.left - wrap.left + c.x * k - S * k * 0.55 - bw;
    y = Math.max(0, Math.min(y, wrap.height - bh));
    box.style.left = `${Math.max(0, x)}px`;
    box.style.top = `${y}px`;
  }

  // an arrow for each suggested move (analysis lines, best first: the later ones
  // thinner and fainter), or none for an empty list; the group carries the best's squares
  arrows(list) {
    if (!this.svg) return;
    const old = this.svg.querySelector('.arrows');
    if (old) old.remove();
    const shown = list.filter((m) => m.from >= 0 && m.to >= 0 && m.from !== m.to);
    if (!shown.length) return;
    const g = svgEl('g', { class: 'arrows', 'data-from': shown[0].from, 'data-to': shown[0].to });
    // the worst first, so that the best is drawn on top
    for (let i = shown.length - 1; i >= 0; i--) {
      const a = this.center(this.L, shown[i].from), b = this.center(this.L, shown[i].to);
      const len = Math.hypot(b.x - a.x, b.y - a.y), ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
      const k = 1 - 0.22 * i; // size
      const tip = { x: b.x - ux * S * 0.12, y: b.y - uy * S * 0.12 };
      const base = { x: tip.x - ux * 26 * k, y: tip.y - uy * 26 * k };
      const w = 17 * k;
      const one = svgEl('g', { class: `arrow rank-${i + 1}`, opacity: (1 - 0.3 * i).toFixed(2) });
      one.appendChild(svgEl('line', { class: 'best-arrow', x1: a.x, y1: a.y, x2: base.x, y2: base.y, style: `stroke-width:${(11 * k).toFixed(1)}px` }));
      one.appendChild(svgEl('polygon', { class: 'best-head', points: `${tip.x},${tip.y} ${base.x - uy * w},${base.y + ux * w} ${base.x + uy * w},${base.y - ux * w}` }));
      g.appendChild(one);
    }
    this.svg.insertBefore(g, this.targetLayer);
  }

  hideChooser() {
    this.chooser.hidden = true;
    this.chooser.replaceChildren();
  }

  // ---- pointer ----

  down(e) {
    if (e.button > 0) return;
    if (!this.interactive()) {
      const p = this.svgPoint(e);
      const sq = this.L ? this.squareAt(this.L, p.x, p.y) : -1;
      if (this.pickable(sq)) this.select(this.sel === sq ? -1 : sq);
      this.inspect(e);
      return;
    }
    if (!this.chooser.hidden) this.hideChooser();
    const gate = e.target.closest && e.target.closest('[data-gate]');
    if (gate) {
      this.clickGate(gate.dataset.gate);
      return;
    }
    const p = this.svgPoint(e);
    const sq = this.squareAt(this.L, p.x, p.y);
    const movable = this.movableSquares();
    // a target of the selected piece: move there (also onto one of our own pieces,
    // as a Diamondback king castling onto its rook)
    if (this.sel >= 0 && sq >= 0 && sq !== this.sel && this.tryMove(this.sel, sq)) return;
    if (movable.has(sq)) {
      const again = this.sel === sq;
      this.select(sq);
      this.drag = { sq, x: e.clientX, y: e.clientY, on: false, id: e.pointerId, again };
      this.svg.setPointerCapture(e.pointerId);
      e.preventDefault();
    } else {
      this.select(-1);
      this.inspect(e);
    }
  }

  // a square with no move of ours now: the page says why (never a dialog, so that
  // every click on the board stays on the board)
  inspect(e) {
    if (!this.onInspect || !this.L) return;
    const p = this.svgPoint(e);
    const sq = this.squareAt(this.L, p.x, p.y);
    if (sq < 0 || this.st.board.squares[sq] === '*') return;
    this.onInspect(sq, this.sel === sq);
  }

  move(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    if (!d.on && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 4) {
      d.on = true;
      const el = this.pieceEls[d.sq];
      if (el) el.classList.add('dragging');
      const ch = this.st.board.squares[d.sq];
      const side = ch === ch.toUpperCase() ? 0 : 1;
      const rect = this.svg.getBoundingClientRect();
      const px = (this.L.diamond ? S * 0.92 : S * 0.9) * rect.width / this.L.W;
      const ghost = svgEl('svg', { class: 'ghost-piece', viewBox: '0 0 100 100', width: px, height: px });
      ghost.appendChild(pieceGroup(this.names[ch.toUpperCase()] || '?', ch, side));
      document.body.appendChild(ghost);
      d.ghost = ghost;
      d.px = px;
    }
    if (d.on) {
      d.ghost.style.left = `${e.clientX - d.px / 2}px`;
      d.ghost.style.top = `${e.clientY - d.px / 2}px`;
    }
  }

  up(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = null;
    if (d.ghost) d.ghost.remove();
    const el = this.pieceEls[d.sq];
    if (el) el.classList.remove('dragging');
    if (!d.on) { // a click: selects the piece, or drops the selection when it was selected
      if (d.again) this.select(-1);
      return;
    }
    const p = this.svgPoint(e);
    const to = this.squareAt(this.L, p.x, p.y);
    if (to >= 0 && to !== d.sq && this.tryMove(d.sq, to)) return;
    if (to !== d.sq) this.select(-1);
  }

  cancelDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    if (this.drag && this.pieceEls[this.drag.sq]) this.pieceEls[this.drag.sq].classList.remove('dragging');
    this.drag = null;
  }

  clickGate(key) {
    const [side, f] = key.split(':').map(Number);
    const s = this.setupInfo();
    if (!s || s.side !== side) return;
    const i = this.gatePick.findIndex((p) => p.file === f);
    if (i >= 0) {
      this.gatePick = this.gatePick.slice(0, i); // take back this placement and the later ones
    } else if (s.files(this.gatePick).has(f)) {
      this.gatePick.push({ letter: s.order[this.gatePick.length], file: f });
    } else {
      return;
    }
    const done = s.complete(this.gatePick);
    if (done) {
      this.gatePick = [];
      this.onMove(done.text);
      return;
    }
    this.onGate();
  }
}
