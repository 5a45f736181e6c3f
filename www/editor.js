// editor.js - the board editor: set up any position of a chess game (the pieces of
// that game, side to move, castling rights, Hannibal's hands and gates), see the
// engine's verdict on it as you go (POST /api/position), and start a game from it.

import { api } from './api.js';
import { ChessBoard } from './chessboard.js';
import { loadPieces, pieceIcon } from './pieces.js';

const $ = (id) => document.getElementById(id);
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

// FEN -> {squares (a1 first), extra (Hannibal's bracket), side, castling}
function parseFen(v, fen) {
  const [board, side = 'w', castling = '-'] = fen.trim().split(/\s+/);
  const bracket = board.match(/\[.*\]$/);
  const rows = board.replace(/\[.*\]$/, '').split('/').reverse();
  const squares = Array(v.files * v.ranks).fill('.');
  rows.forEach((row, r) => {
    let f = 0;
    for (const m of row.matchAll(/(\d+)|(.)/g)) {
      if (m[1]) { f += Number(m[1]); continue; }
      if (f < v.files && r < v.ranks) squares[r * v.files + f] = m[2];
      f++;
    }
  });
  return { squares, extra: bracket ? bracket[0] : '', side, castling };
}

function boardFen(v, squares) {
  const rows = [];
  for (let r = v.ranks - 1; r >= 0; r--) {
    let row = '', run = 0;
    for (let f = 0; f < v.files; f++) {
      const ch = squares[r * v.files + f];
      if (ch === '.') { run++; continue; }
      if (run) { row += run; run = 0; }
      row += ch;
    }
    rows.push(row + (run ? run : ''));
  }
  return rows.join('/');
}

export class BoardEditor {
  constructor(variants, onPlay) {
    this.variants = variants;
    this.onPlay = onPlay; // (variant, fen) => Promise
    this.dlg = $('editor-dialog');
    this.board = new ChessBoard($('editor-board'), $('chooser'), { onMove: () => {}, onGate: () => {} });
    $('editor-close').addEventListener('click', () => this.dlg.close());
    $('editor-start').addEventListener('click', () => this.load(this.v.start));
    $('editor-clear').addEventListener('click', () => {
      this.pos.squares.fill('.');
      this.pos.castling = '-';
      if (this.v.gating) this.pos.extra = '[]';
      this.changed();
    });
    $('editor-side').addEventListener('change', () => { this.pos.side = $('editor-side').value; this.changed(); });
    $('editor-extra').addEventListener('change', () => { this.pos.extra = $('editor-extra').value.trim(); this.changed(); });
    $('editor-fen').addEventListener('change', () => this.load($('editor-fen').value));
    for (const c of 'KQkq') {
      $(`editor-castle-${c === c.toUpperCase() ? 'w' : 'b'}${c.toLowerCase()}`).addEventListener('change', () => this.readCastling());
    }
    $('editor-play').addEventListener('click', async () => {
      $('editor-error').hidden = true;
      try {
        await this.onPlay(this.v.name, this.fen());
        this.dlg.close();
      } catch (e) {
        $('editor-error').textContent = e.message;
        $('editor-error').hidden = false;
      }
    });
  }

  async open(variantName, fen) {
    const v = this.variants.find((x) => x.name === variantName);
    if (!v || v.kind !== 'chess') return false;
    this.v = v;
    await loadPieces(v.pieces.map((p) => p.name));
    $('editor-title').textContent = `Board editor: ${v.title}`;
    $('editor-castling').hidden = v.rotated; // Diamondback castles without rights
    $('editor-extra-row').hidden = !v.gating;
    this.renderPalette();
    this.brush = v.pieces[0].letter;
    this.load(fen || v.start);
    if (!this.dlg.open) this.dlg.showModal();
    return true;
  }

  renderPalette() {
    const box = $('editor-palette');
    box.replaceChildren();
    const add = (letter, name, side) => {
      const b = document.createElement('button');
      b.className = 'ep';
      b.dataset.brush = letter;
      b.title = letter === '.' ? 'Empty the square' : `${side ? 'Black' : 'White'} ${name} (${letter})`;
      if (letter === '.') b.textContent = 'Empty';
      else b.appendChild(pieceIcon(name, letter, side, 30));
      b.addEventListener('click', () => { this.brush = letter; this.markBrush(); });
      box.appendChild(b);
    };
    for (const side of [0, 1]) for (const p of this.v.pieces) add(side ? p.letter.toLowerCase() : p.letter, p.name, side);
    add('.', 'empty', 0);
  }

  markBrush() {
    for (const b of $('editor-palette').children) b.classList.toggle('on', b.dataset.brush === this.brush);
  }

  load(fen) {
    this.pos = parseFen(this.v, fen);
    this.changed();
  }

  readCastling() {
    let c = '';
    for (const k of 'KQkq') if ($(`editor-castle-${k === k.toUpperCase() ? 'w' : 'b'}${k.toLowerCase()}`).checked) c += k;
    this.pos.castling = c || '-';
    this.changed();
  }

  fen() {
    const p = this.pos;
    return `${boardFen(this.v, p.squares)}${this.v.gating ? p.extra : ''} ${p.side} ${this.v.rotated ? '-' : p.castling} - 0 1`;
  }

  changed() {
    const p = this.pos, v = this.v;
    $('editor-side').value = p.side === 'b' ? 'b' : 'w';
    for (const k of 'KQkq') $(`editor-castle-${k === k.toUpperCase() ? 'w' : 'b'}${k.toLowerCase()}`).checked = p.castling.includes(k);
    $('editor-extra').value = p.extra;
    $('editor-fen').value = this.fen();
    this.markBrush();
    const st = {
      id: 'editor', version: 0, files: v.files, ranks: v.ranks, rotated: v.rotated, gating: false, pieces: v.pieces,
      board: { squares: p.squares.join(''), gates: ['', ''], hands: ['', ''], check: false },
      moves: [], last: null, result: { over: false }, side: 0,
    };
    const B = this.board;
    B.render(st, { flipped: false, interactive: false });
    B.svg.addEventListener('click', (e) => {
      const pt = B.svgPoint(e);
      const sq = B.squareAt(B.L, pt.x, pt.y);
      if (sq < 0) return;
      p.squares[sq] = p.squares[sq] === this.brush ? '.' : this.brush;
      this.changed();
    });
    this.check();
  }

  // the engine's verdict on the position, shown as it is built
  async check() {
    const fen = this.fen();
    const el = $('editor-verdict');
    let r;
    try {
      r = await api.checkPosition(this.v.name, fen);
    } catch (e) {
      r = { valid: false, error: e.message };
    }
    if (fen !== this.fen()) return; // a later edit is being checked
    el.classList.toggle('error', !r.valid);
    el.textContent = r.valid
      ? `A legal position${r.over ? `, but the game is already over (${r.over})` : `: ${r.moves} legal move${r.moves === 1 ? '' : 's'} for ${p0(fen)}`}.`
      : cap(r.error);
    $('editor-play').disabled = !r.valid || !!r.over;
  }
}

function p0(fen) { return fen.split(' ')[1] === 'b' ? 'Black' : 'White'; }
