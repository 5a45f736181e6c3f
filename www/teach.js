// teach.js - the rules dialog: each game's rules (the text files under rules/, the
// same words the terminal game's `rules` command prints) and piece diagrams drawn
// from the engine's own move tables (POST /api/diagram): every square a piece can
// reach from a square of an empty board, move-only, capture-only or both, and the
// path of a bent move. Click a square of the diagram to put the piece there.

import { api } from './api.js';
import { ChessBoard } from './chessboard.js';
import { loadPieces, pieceIcon, svgEl } from './pieces.js';

const $ = (id) => document.getElementById(id);
const texts = new Map(); // game -> rules text
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

function rulesName(variant) { return variant.startsWith('slangenspel') ? 'slangenspel' : variant; }

// the rules text as headings, paragraphs and lists (the first line is the title)
function renderText(box, text) {
  box.replaceChildren();
  let list = null;
  for (const line of text.split('\n')) {
    if (!line.trim()) { list = null; continue; }
    let el;
    if (line.startsWith('# ')) continue;
    if (line.startsWith('## ')) {
      el = document.createElement('h3');
      el.textContent = line.slice(3);
      list = null;
    } else if (line.startsWith('- ')) {
      if (!list) { list = document.createElement('ul'); box.appendChild(list); }
      const li = document.createElement('li');
      li.textContent = line.slice(2);
      list.appendChild(li);
      continue;
    } else {
      el = document.createElement('p');
      el.textContent = line;
      list = null;
    }
    box.appendChild(el);
  }
}

// Black-only pieces (the Snake) are drawn and asked for as Black's
function defaultSide(v, letter) {
  const board = v.start.split(' ')[0];
  return !board.includes(letter) && board.includes(letter.toLowerCase()) ? 1 : 0;
}

export class RulesDialog {
  constructor(variants) {
    this.variants = variants;
    this.dlg = $('rules-dialog');
    this.board = new ChessBoard($('diagram-board'), $('chooser'), { onMove: () => {}, onGate: () => {} });
    $('rules-close').addEventListener('click', () => this.dlg.close());
    this.dlg.addEventListener('click', (e) => { if (e.target === this.dlg) this.dlg.close(); });
  }

  // opens the rules of VARIANT; with a piece letter, that piece's diagram (on sq)
  async open(variantName, letter, side, sq) {
    const v = this.variants.find((x) => x.name === variantName);
    if (!v) return;
    this.v = v;
    $('rules-title').textContent = `How to play ${v.title}`;
    const name = rulesName(v.name);
    if (!texts.has(name)) {
      const r = await fetch(`rules/${name}.txt`);
      texts.set(name, r.ok ? await r.text() : `${v.summary ? `${v.summary}.\n\n` : ''}This game has no rules page of its own; the diagrams below show how each piece moves.`);
    }
    renderText($('rules-text'), texts.get(name));
    const chess = v.kind === 'chess';
    $('rules-pieces').hidden = !chess;
    if (!chess) { // nothing of another game's diagrams left behind
      for (const id of ['diagram-pieces', 'diagram-board', 'diagram-note']) $(id).replaceChildren();
    }
    if (!this.dlg.open) this.dlg.showModal();
    if (chess) {
      await loadPieces(v.pieces.map((p) => p.name));
      this.renderPicker();
      const first = letter || (v.pieces.find((p) => p.letter !== 'P' && p.letter !== 'K') || v.pieces[0]).letter;
      await this.show(first, side ?? defaultSide(v, first), sq);
      if (letter) $('rules-pieces').scrollIntoView({ block: 'start' });
    }
    if (!letter) this.dlg.scrollTop = 0;
  }

  renderPicker() {
    const box = $('diagram-pieces');
    box.replaceChildren();
    for (const p of this.v.pieces) {
      const b = document.createElement('button');
      b.className = 'dp';
      b.dataset.letter = p.letter;
      b.title = `${cap(p.name)}: ${p.betza} in XBetza`;
      const side = defaultSide(this.v, p.letter);
      b.append(pieceIcon(p.name, p.letter, side, 30), cap(p.name));
      b.addEventListener('click', () => this.show(p.letter, side));
      box.appendChild(b);
    }
  }

  async show(letter, side, sq) {
    const v = this.v;
    const p = v.pieces.find((x) => x.letter === letter);
    if (!p) return;
    if (sq === undefined || sq < 0) {
      const f = Math.floor((v.files - 1) / 2), r = Math.floor((v.ranks - 1) / 2);
      sq = (side ? v.ranks - 1 - r : r) * v.files + (side ? v.files - 1 - f : f);
    }
    let d;
    try {
      d = await api.diagram(v.name, letter, side, sq);
    } catch (e) {
      $('diagram-note').textContent = e.message;
      return;
    }
    this.cur = { letter, side, sq };
    for (const b of $('diagram-pieces').children) b.classList.toggle('on', b.dataset.letter === letter);
    const squares = Array(v.files * v.ranks).fill('.');
    squares[sq] = side ? letter.toLowerCase() : letter;
    const st = {
      id: 'diagram', version: 0, files: v.files, ranks: v.ranks, rotated: v.rotated, gating: false,
      pieces: v.pieces, board: { squares: squares.join(''), gates: ['', ''], hands: ['', ''], check: false },
      moves: [], last: null, result: { over: false }, side,
    };
    const B = this.board;
    B.render(st, { flipped: false, interactive: false });
    const L = B.L;
    const marks = svgEl('g', { class: 'reach' });
    const sqName = (s) => `${'abcdefghijklmnop'[s % v.files]}${Math.floor(s / v.files) + 1}`;
    const kinds = { both: 0, move: 0, capture: 0, hop: 0, bent: 0 };
    for (const t of d.targets) {
      const c = B.center(L, t.sq);
      const kind = t.move && t.capture ? 'both' : t.move ? 'move' : 'capture';
      kinds[kind]++;
      // a bent path: the squares passed do not lie on one line with start and target
      const pts = [sq, ...t.path, t.sq].map((s) => B.center(L, s));
      const cross = (a, b, o) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
      const bent = pts.some((pt) => Math.abs(cross(pts[0], pts[pts.length - 1], pt)) > 1);
      if (bent) {
        kinds.bent++;
        marks.appendChild(svgEl('polyline', { class: 'reach-path', points: pts.map((pt) => `${pt.x},${pt.y}`).join(' ') }));
      }
      const g = svgEl('g', { class: `reach-mark ${kind}${t.hop ? ' hop' : ''}`, 'data-sq': t.sq });
      if (kind === 'capture') {
        g.appendChild(svgEl('path', { d: `M${c.x - 11},${c.y - 11}L${c.x + 11},${c.y + 11}M${c.x + 11},${c.y - 11}L${c.x - 11},${c.y + 11}` }));
      } else {
        g.appendChild(svgEl('circle', { cx: c.x, cy: c.y, r: 12 }));
      }
      if (t.hop) { kinds.hop++; g.appendChild(svgEl('circle', { class: 'hop-ring', cx: c.x, cy: c.y, r: 20 })); }
      const title = svgEl('title');
      title.textContent = `${sqName(t.sq)}: ${kind === 'both' ? 'move or capture' : kind === 'move' ? 'move only' : 'capture only'}${t.hop ? ', over a piece' : ''}`;
      g.appendChild(title);
      marks.appendChild(g);
    }
    B.svg.insertBefore(marks, B.pieceLayer);
    B.svg.addEventListener('click', (e) => {
      const pt = B.svgPoint(e);
      const to = B.squareAt(B.L, pt.x, pt.y);
      if (to >= 0) this.show(letter, side, to);
    });
    const parts = [`${cap(p.name)} on ${sqName(sq)}: ${d.targets.length} square${d.targets.length === 1 ? '' : 's'}`];
    if (kinds.move) parts.push(`${kinds.move} move only`);
    if (kinds.capture) parts.push(`${kinds.capture} capture only`);
    if (kinds.bent) parts.push(`${kinds.bent} by a bent path`);
    if (kinds.hop) parts.push(`${kinds.hop} only over a piece`);
    $('diagram-note').textContent = `${parts.join(' \u00b7 ')}. Click any square to move it there.`;
  }
}
