// app.js - the Menagerie page: choose a game, play it against the engine or a person
// at the same screen, and come back to saved games. All rules live in the server.

import { api } from './api.js';
import { ChessBoard } from './chessboard.js';
import { SnakeBoard } from './mancala.js';
import { loadPieces, pieceIcon } from './pieces.js';

const $ = (id) => document.getElementById(id);

// How the page offers each game; the server's /api/variants has the rest.
const GAMES = [
  { key: 'snake-vs-mongoose', name: 'Snake vs. Mongoose', icon: 'mongoose', sub: '10\u00d710 \u00b7 snakes against mongooses' },
  { key: 'team-mate', name: 'Team-Mate Chess', icon: 'acromantula', sub: '8\u00d78 \u00b7 no piece mates alone' },
  { key: 'diamondback', name: 'Diamondback Chess', icon: 'king', sub: '8\u00d78 played along the diagonal' },
  { key: 'hannibal', name: 'Hannibal Chess', icon: 'elephant', sub: '10\u00d79 \u00b7 with Manticore and Falcon' },
  { key: 'chess', name: 'Chess', icon: 'knight', sub: 'orthodox chess' },
  { key: 'slangenspel', name: 'Slangenspel', icon: 'snake', sub: 'the snake mancala \u00b7 16 holes' },
];
const SLANG = [
  ['slangenspel', 'Standard rules'],
  ['slangenspel-a', 'Variant A: store moves'],
  ['slangenspel-b', 'Variant B: endgame rules'],
  ['slangenspel-ab', 'Variants A and B'],
];
const FILES = 'abcdefghijklmnop';

const app = {
  variants: [],
  pick: 'snake-vs-mongoose',
  game: null,      // the state of the open game
  flipped: false,
  flipFor: null,   // the game id the flip belongs to
  pollTimer: 0,
  goAsked: -1,     // version at which the page last asked the engine to move
  busy: false,
  bannerClosed: null,
};
let chessBoard, snakeBoard;

function variant(name) { return app.variants.find((v) => v.name === name); }
function isMancala(st) { return st && st.kind === 'mancala'; }
function sideName(st, side) { return isMancala(st) ? (side ? 'B' : 'A') : (side ? 'Black' : 'White'); }
function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

function say(msg, isError) {
  const el = $('action-msg');
  el.textContent = msg || '';
  el.classList.toggle('error', !!isError);
}

// ---- the new-game card ----

function renderPicker() {
  const box = $('game-picker');
  box.replaceChildren();
  for (const g of GAMES) {
    const v = variant(g.key);
    if (!v) continue;
    const label = document.createElement('label');
    label.className = g.key === app.pick ? 'on' : '';
    label.dataset.game = g.key;
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'game';
    input.value = g.key;
    input.checked = g.key === app.pick;
    input.addEventListener('change', () => { app.pick = g.key; renderPicker(); });
    const icon = pieceIcon(g.icon, '', g.key === 'slangenspel' ? 0 : 1, 30);
    icon.classList.add('gicon');
    if (g.key === 'diamondback') icon.style.transform = 'rotate(45deg)';
    const text = document.createElement('span');
    const title = g.name || v.title;
    text.innerHTML = `<div class="gname"></div><div class="gsub"></div>`;
    text.firstChild.textContent = title;
    text.lastChild.textContent = g.sub;
    label.append(input, icon, text);
    box.appendChild(label);
  }
  renderOptions();
}

function selectRow(label, id, options, value) {
  const row = document.createElement('label');
  row.className = 'row';
  row.append(label);
  const sel = document.createElement('select');
  sel.id = id;
  for (const [v, t] of options) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = t;
    if (v === value) o.selected = true;
    sel.appendChild(o);
  }
  row.appendChild(sel);
  return row;
}

function renderOptions() {
  const box = $('game-options');
  box.replaceChildren();
  const mancala = app.pick === 'slangenspel';
  $('seat-first').textContent = mancala ? 'Play A (first)' : 'Play White';
  $('seat-second').textContent = mancala ? 'Play B' : 'Play Black';
  if (app.pick === 'diamondback') {
    const setups = variant('diamondback').setups.map((s) => [s, `Queens on ${s.slice(0, 2)} and ${s.slice(2)}`]);
    box.appendChild(selectRow('Set-up', 'opt-setup', [['random', 'Random'], ...setups], 'random'));
    const note = document.createElement('p');
    note.className = 'note';
    note.textContent = 'Each side may swap its Queen with its light-squared Bishop (White b1/a2, Black g8/h7).';
    box.appendChild(note);
  }
  if (app.pick === 'hannibal') {
    const files = [...FILES.slice(0, 10)].filter((f) => f !== 'f');
    for (const [side, who] of [[0, 'White'], [1, 'Black']]) {
      const row = document.createElement('div');
      row.className = 'gate-row';
      row.append(`${who} gates:`);
      const m = document.createElement('select');
      m.id = `opt-gate-m${side}`;
      m.innerHTML = '<option value="board">on the board</option><option value="random">random</option>' +
        files.map((f) => `<option value="${f}">Manticore behind ${f}</option>`).join('');
      const fsel = document.createElement('select');
      fsel.id = `opt-gate-f${side}`;
      fsel.innerHTML = files.map((f) => `<option value="${f}">Falcon behind ${f}</option>`).join('');
      fsel.value = side ? 'g' : 'h';
      fsel.hidden = true;
      m.addEventListener('change', () => { fsel.hidden = !/^[a-j]$/.test(m.value); });
      row.append(m, fsel);
      box.appendChild(row);
    }
    const note = document.createElement('p');
    note.className = 'note';
    note.textContent = 'Each side first puts its Manticore and Falcon behind two files (not the King\u2019s); they enter when the piece in front first moves.';
    box.appendChild(note);
  }
  if (mancala) {
    box.appendChild(selectRow('Rules', 'opt-slang', SLANG, 'slangenspel'));
  }
}

function readNewGame() {
  let name = app.pick;
  const body = {};
  if (name === 'slangenspel') name = $('opt-slang').value;
  body.variant = name;
  if (name === 'diamondback') body.setup = $('opt-setup').value;
  const seat = document.querySelector('input[name=seat]:checked').value;
  body.players = { first: ['human', 'engine'], second: ['engine', 'human'], both: ['human', 'human'], none: ['engine', 'engine'] }[seat];
  body.level = Number($('level').value);
  body.movetime_ms = Number($('movetime').value);
  if (name === 'hannibal') {
    const gates = [null, null];
    for (const side of [0, 1]) {
      const m = $(`opt-gate-m${side}`).value, f = $(`opt-gate-f${side}`).value;
      if (m === 'random') gates[side] = 'random';
      else if (m !== 'board') gates[side] = `M${m}F${f}`;
    }
    if (gates[1] && !gates[0]) {
      throw new Error('Black\u2019s gates can be set here only when White\u2019s are too.');
    }
    body.gates = gates;
  }
  return body;
}

async function startGame() {
  $('new-error').hidden = true;
  try {
    const st = await api.create(readNewGame());
    app.flipped = st.players[0] === 'engine' && st.players[1] === 'human';
    app.flipFor = st.id;
    app.bannerClosed = null;
    location.hash = st.id;
    await show(st);
    refreshList();
  } catch (e) {
    $('new-error').textContent = e.message;
    $('new-error').hidden = false;
  }
}

// ---- saved games ----

function ago(t) {
  const s = Math.max(0, Date.now() / 1000 - t);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(t * 1000).toLocaleDateString();
}

async function refreshList() {
  let list;
  try {
    list = await api.games();
  } catch {
    return;
  }
  list.sort((a, b) => b.updated - a.updated);
  const ul = $('game-list');
  ul.replaceChildren();
  $('saved-count').textContent = list.length ? `(${list.length})` : '';
  $('saved-empty').hidden = list.length > 0;
  for (const g of list) {
    const li = document.createElement('li');
    li.dataset.id = g.id;
    if (app.game && app.game.id === g.id) li.className = 'on';
    const key = g.kind === 'mancala' ? 'slangenspel' : g.variant;
    const icon = pieceIcon((GAMES.find((x) => x.key === key) || GAMES[4]).icon, '', g.kind === 'mancala' ? 0 : 1, 24);
    icon.classList.add('gicon');
    const main = document.createElement('div');
    main.className = 'gl-main';
    const who = (p) => (p === 'engine' ? 'Engine' : 'Person');
    const m = g.kind === 'mancala';
    const status = g.result !== '*'
      ? `${g.result}${g.reason ? ` \u00b7 ${g.reason}` : ''}`
      : `${m ? (g.side ? 'B' : 'A') : (g.side ? 'Black' : 'White')} to move`;
    main.innerHTML = '<div class="gl-title"></div><div class="gl-sub"></div>';
    main.firstChild.textContent = `${g.title}`;
    main.lastChild.textContent = `${who(g.players[0])} v ${who(g.players[1])} \u00b7 ${g.plies} ply \u00b7 ${status} \u00b7 ${ago(g.updated)}`;
    const del = document.createElement('button');
    del.className = 'gl-del';
    del.title = 'Delete this game';
    del.textContent = '\u00d7';
    del.addEventListener('click', async (e) => {
      e.stopPropagation();
      if (!confirm(`Delete this ${g.title} game?`)) return;
      try {
        await api.remove(g.id);
      } catch (err) {
        say(err.message, true);
      }
      if (app.game && app.game.id === g.id) closeGame();
      refreshList();
    });
    li.append(icon, main, del);
    li.addEventListener('click', () => { location.hash = g.id; });
    ul.appendChild(li);
  }
}

function closeGame() {
  app.game = null;
  clearTimeout(app.pollTimer);
  $('board').hidden = true;
  $('board-bar').hidden = true;
  $('panel').hidden = true;
  $('banner').hidden = true;
  $('chooser').hidden = true;
  $('welcome').hidden = false;
  $('game-title').textContent = '';
  if (location.hash) history.replaceState(null, '', location.pathname);
}

// ---- the open game ----

function humanToMove(st) {
  return !st.result.over && !st.thinking && st.players[st.side] === 'human';
}

async function show(st) {
  const first = !app.game || app.game.id !== st.id;
  const changed = first || app.game.version !== st.version || app.game.thinking !== st.thinking;
  if (first && app.flipFor !== st.id) {
    app.flipped = st.players[0] === 'engine' && st.players[1] === 'human';
    app.flipFor = st.id;
    app.bannerClosed = null;
  }
  if (first) await loadPieces(st.pieces.map((p) => p.name));
  app.game = st;
  $('welcome').hidden = true;
  $('board').hidden = false;
  $('board-bar').hidden = false;
  $('panel').hidden = false;
  $('game-title').textContent = st.title;
  if (changed) renderBoard();
  renderPanel();
  for (const li of $('game-list').children) li.classList.toggle('on', li.dataset.id === st.id);
  schedule();
}

function renderBoard() {
  const st = app.game;
  const opts = { flipped: app.flipped, interactive: humanToMove(st) };
  $('chooser').hidden = true;
  if (isMancala(st)) {
    snakeBoard.render(st, opts);
  } else {
    if (chessBoard.st && chessBoard.st.id !== st.id) { chessBoard.sel = -1; chessBoard.resetGates(); }
    if (chessBoard.st && chessBoard.st.version !== st.version) chessBoard.resetGates();
    chessBoard.render(st, opts);
  }
  $('board').dataset.variant = st.variant;
  $('board').dataset.version = st.version;
  renderHint();
  renderBanner();
}

function renderHint() {
  const st = app.game;
  const el = $('hint');
  el.replaceChildren();
  const add = (html) => { const s = document.createElement('span'); s.innerHTML = html; el.appendChild(s); };
  if (st.result.over) { add(`Game over: <b>${resultHeadline(st)}</b>`); return; }
  if (st.thinking) { add('The engine is thinking\u2026'); return; }
  if (st.players[st.side] === 'engine') {
    add(st.engine_error ? 'The engine cannot move here. Use <b>Take back</b>, or play both sides yourself (change players below).' : 'Waiting for the engine\u2026');
    if (st.engine_error) addPlayBoth(el);
    return;
  }
  const who = st.players[0] === 'human' && st.players[1] === 'human' ? `<b>${sideName(st, st.side)}</b> to move: ` : 'Your move: ';
  if (isMancala(st)) {
    if (st.moves.length === 1 && st.moves[0].text === 'pass') {
      add(`${who}no sowing is possible, you must pass. `);
      const b = document.createElement('button');
      b.textContent = 'Pass';
      b.addEventListener('click', () => play('pass'));
      el.appendChild(b);
      return;
    }
    add(`${who}click a hole of your ring (${st.side ? 'inner, 9\u201316' : 'outer, 1\u20138'}), then choose the direction.`);
    return;
  }
  const next = chessBoard.nextGateLetter();
  if (next) {
    const names = {};
    for (const p of st.pieces) names[p.letter] = p.name;
    const name = names[next.toUpperCase()];
    add(`${who}put your `);
    el.appendChild(pieceIcon(name, next, st.side, 30));
    add(` <b>${cap(name)}</b> in a gate slot behind your back rank.`);
    const b = document.createElement('button');
    b.textContent = 'Random';
    b.style.marginLeft = '0.5rem';
    b.addEventListener('click', () => {
      const setups = st.moves.filter((m) => m.kind === 's');
      play(setups[Math.floor(Math.random() * setups.length)].text);
    });
    el.appendChild(b);
    return;
  }
  add(`${who}drag a piece, or click it and then its target.`);
}

function addPlayBoth(el) {
  const b = document.createElement('button');
  b.textContent = 'Play both sides';
  b.style.marginLeft = '0.5rem';
  b.addEventListener('click', () => act(() => api.options(app.game.id, { players: ['human', 'human'] })));
  el.appendChild(b);
}

function resultHeadline(st) {
  const r = st.result;
  if (r.winner === null || r.winner === undefined) return 'Draw';
  return `${sideName(st, r.winner)} wins`;
}

function renderBanner() {
  const st = app.game;
  const b = $('banner');
  if (!st.result.over || app.bannerClosed === `${st.id}:${st.version}`) { b.hidden = true; return; }
  b.replaceChildren();
  const big = document.createElement('div');
  big.className = 'big';
  big.textContent = resultHeadline(st);
  const why = document.createElement('div');
  why.className = 'why';
  why.textContent = `${cap(st.result.reason)} \u00b7 ${st.result.score}`;
  const close = document.createElement('button');
  close.textContent = 'Look at the board';
  close.addEventListener('click', () => { app.bannerClosed = `${st.id}:${st.version}`; b.hidden = true; });
  b.append(big, why, close);
  b.hidden = false;
}

function fmtScore(st, score, mate, exact) {
  if (mate) return `${mate > 0 ? '+' : '-'}M${Math.abs(mate)}`;
  if (isMancala(st) && exact) return score ? `${sideName(st, score > 0 ? 0 : 1)} wins by ${Math.abs(score)}, proven` : 'Draw, proven';
  if (isMancala(st)) return `${score > 0 ? '+' : ''}${score} egg${Math.abs(score) === 1 ? '' : 's'}`;
  return `${score > 0 ? '+' : ''}${(score / 100).toFixed(2)}`;
}

function fmtNodes(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}

function renderPanel() {
  const st = app.game;
  const m = isMancala(st);
  for (const side of [0, 1]) {
    const el = $(`player-${side}`);
    const who = st.players[side] === 'engine' ? `Menagerie engine (level ${st.level})` : 'Person';
    el.querySelector('.name').textContent = `${sideName(st, side)}${m ? (side ? ' \u00b7 inner ring' : ' \u00b7 outer ring') : ''}: ${who}`;
    el.querySelector('.dot').classList.toggle('mancala', m);
    el.classList.toggle('to-move', !st.result.over && st.side === side);
  }
  const turn = $('turn');
  if (st.result.over) {
    turn.textContent = '';
  } else {
    turn.innerHTML = '';
    turn.append(`${sideName(st, st.side)} to move \u00b7 move ${Math.floor(st.history.length / 2) + 1}`);
    if (st.board && st.board.check) {
      const c = document.createElement('span');
      c.className = 'check';
      c.textContent = ' \u00b7 check!';
      turn.appendChild(c);
    }
  }
  const res = $('result');
  if (st.result.over) {
    res.innerHTML = '<b></b><span></span>';
    res.firstChild.textContent = `${resultHeadline(st)} (${st.result.score})`;
    res.lastChild.textContent = cap(st.result.reason);
    res.hidden = false;
  } else {
    res.hidden = true;
  }

  // evaluation: the latest search while thinking, else the engine's last verdict
  const bar = $('evalbar');
  bar.classList.toggle('mancala', m);
  let score = null, mate = 0, exact = false;
  if (st.thinking && st.search && st.search.ply === st.history.length) {
    const sign = st.search.side === 0 ? 1 : -1;
    score = sign * st.search.score; mate = sign * st.search.mate; exact = st.search.exact;
  } else if (st.eval) {
    score = st.eval.score; mate = st.eval.mate; exact = st.eval.exact;
  }
  let frac = 0.5;
  if (score !== null) {
    frac = mate ? (mate > 0 ? 1 : 0) : 0.5 + 0.5 * Math.tanh(score / (m ? 10 : 450));
    $('eval-text').textContent = fmtScore(st, score, mate, exact);
  } else {
    $('eval-text').textContent = '\u2013';
  }
  $('evalfill').style.width = `${(frac * 100).toFixed(1)}%`;
  $('evalbar').title = m ? 'A (amber) against B (teal)' : 'White against Black';

  const s = st.search;
  const stateEl = $('think-state');
  stateEl.replaceChildren();
  if (st.thinking) {
    const sp = document.createElement('span');
    sp.className = 'spinner';
    stateEl.append(sp, ` Thinking for ${sideName(st, st.side)}\u2026`);
    stateEl.classList.remove('muted');
  } else {
    stateEl.textContent = s ? `Last search (${sideName(st, s.side)})` : 'Engine idle';
    stateEl.classList.add('muted');
  }
  if (s) {
    const sign = s.side === 0 ? 1 : -1;
    $('think-stats').textContent = `depth ${s.depth}${s.seldepth > s.depth ? `/${s.seldepth}` : ''} \u00b7 ${fmtNodes(s.nodes)} nodes \u00b7 ${fmtNodes(s.nps)} n/s \u00b7 ${(s.time_ms / 1000).toFixed(1)} s \u00b7 ${fmtScore(st, sign * s.score, sign * s.mate, s.exact)}`;
    $('pv').textContent = s.pv_san || s.pv;
  } else {
    $('think-stats').textContent = '';
    $('pv').textContent = '';
  }
  const ee = $('engine-error');
  ee.textContent = st.engine_error || '';
  ee.hidden = !st.engine_error;

  renderMoves();
  renderLegend();

  // controls
  const over = st.result.over;
  $('btn-undo').disabled = app.busy || (!st.history.length && !over);
  $('btn-go').hidden = st.thinking;
  $('btn-go').disabled = app.busy || over;
  $('btn-stop').hidden = !st.thinking;
  $('btn-draw').disabled = app.busy || over;
  $('btn-resign').disabled = app.busy || over;
  const both = st.players[0] === st.players[1];
  $('btn-draw').textContent = both && st.players[0] === 'human' ? 'Agree draw' : 'Offer draw';
  $('g-level').value = String(st.level);
  if (![...$('g-movetime').options].some((o) => o.value === String(st.movetime_ms))) {
    const o = document.createElement('option');
    o.value = String(st.movetime_ms);
    o.textContent = `${st.movetime_ms / 1000} s`;
    $('g-movetime').appendChild(o);
  }
  $('g-movetime').value = String(st.movetime_ms);
  $('btn-export').href = api.exportUrl(st.id);
  $('btn-export').setAttribute('download', `${st.variant}-${st.id}.${m ? 'sgn' : 'pgn'}`);
}

function renderLegend() {
  const st = app.game;
  const card = $('legend-card');
  card.hidden = isMancala(st);
  if (card.hidden || card.dataset.variant === st.variant) return;
  card.dataset.variant = st.variant;
  const v = variant(st.variant);
  const box = $('legend');
  box.replaceChildren();
  for (const p of st.pieces) {
    const d = document.createElement('div');
    d.className = 'lg';
    const betza = v ? (v.pieces.find((x) => x.letter === p.letter) || {}).betza : '';
    d.title = `${cap(p.name)} (${p.letter})${betza ? `: moves ${betza} in Betza notation` : ''}`;
    const b = document.createElement('b');
    b.textContent = p.letter;
    d.append(pieceIcon(p.name, p.letter, 0, 26), cap(p.name), b);
    box.appendChild(d);
  }
}

function renderGallery() {
  const box = $('gallery');
  const seen = new Set();
  for (const v of app.variants) {
    for (const p of v.pieces) {
      if (seen.has(p.name)) continue;
      seen.add(p.name);
      const f = document.createElement('figure');
      const icons = document.createElement('div');
      icons.append(pieceIcon(p.name, p.letter, 0, 40), pieceIcon(p.name, p.letter, 1, 40));
      const c = document.createElement('figcaption');
      c.textContent = cap(p.name);
      f.append(icons, c);
      box.appendChild(f);
    }
  }
}

function renderMoves() {
  const st = app.game;
  const ol = $('movelist');
  ol.replaceChildren();
  // the start position's side and move number
  const parts = st.initial.split(' ');
  let number = 1, offset = 0;
  if (isMancala(st)) {
    offset = parts[3] === 'b' ? 1 : 0;
  } else {
    offset = parts[1] === 'b' ? 1 : 0;
    number = Number(parts[5]) || 1;
  }
  const hist = st.history;
  const rows = Math.ceil((hist.length + offset) / 2);
  for (let r = 0; r < rows; r++) {
    const li = document.createElement('li');
    const no = document.createElement('span');
    no.className = 'no';
    no.textContent = `${number + r}.`;
    li.appendChild(no);
    for (let c = 0; c < 2; c++) {
      const i = r * 2 + c - offset;
      const cell = document.createElement('span');
      cell.className = 'mv';
      if (i >= 0 && i < hist.length) {
        cell.textContent = hist[i].san;
        cell.title = hist[i].text;
        if (i === hist.length - 1) cell.classList.add('last');
      } else if (i < 0) {
        cell.textContent = '\u2026';
      }
      li.appendChild(cell);
    }
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

// ---- talking to the server ----

function schedule() {
  clearTimeout(app.pollTimer);
  const st = app.game;
  if (!st) return;
  if (st.thinking) {
    app.pollTimer = setTimeout(refresh, 250);
  } else if (!st.result.over && st.players[st.side] === 'engine' && !st.engine_error && app.goAsked !== st.version) {
    // the engine is to move and nobody asked it yet (a resumed game, for example)
    app.goAsked = st.version;
    act(() => api.go(st.id), true);
  }
}

async function refresh() {
  const st = app.game;
  if (!st) return;
  try {
    const fresh = await api.state(st.id);
    if (app.game && app.game.id === fresh.id) {
      await show(fresh);
      if (!fresh.thinking && st.thinking) refreshList();
    }
  } catch (e) {
    if (e.status === 404) { closeGame(); refreshList(); } else app.pollTimer = setTimeout(refresh, 1000);
  }
}

async function act(fn, quiet) {
  if (!app.game) return;
  app.busy = true;
  if (!quiet) say('');
  try {
    const st = await fn();
    app.busy = false;
    await show(st);
    refreshList();
    return st;
  } catch (e) {
    app.busy = false;
    say(e.message, true);
    if (app.game) refresh();
  }
  return null;
}

function play(move) {
  return act(() => api.move(app.game.id, move));
}

async function openFromHash() {
  const id = location.hash.replace(/^#/, '');
  if (!id) { closeGame(); return; }
  if (app.game && app.game.id === id) return;
  try {
    const st = await api.state(id);
    await show(st);
  } catch (e) {
    closeGame();
    $('new-error').textContent = e.status === 404 ? 'That game is not on this server.' : e.message;
    $('new-error').hidden = false;
  }
}

function undoCount(st) {
  // take back until a person is to move again
  if (st.result.over && st.history.length === 0) return 1;
  const other = 1 - st.side;
  if (st.thinking) return 1;
  return st.players[other] === 'human' || st.history.length < 2 ? 1 : 2;
}

function wire() {
  $('level').addEventListener('input', () => { $('level-out').textContent = $('level').value; });
  $('btn-start').addEventListener('click', startGame);
  $('btn-show-new').addEventListener('click', () => { $('new-game').scrollIntoView({ behavior: 'smooth' }); $('game-picker').querySelector('input:checked').focus(); });
  $('brand').addEventListener('click', (e) => { e.preventDefault(); closeGame(); });
  for (const r of document.querySelectorAll('input[name=seat]')) {
    r.addEventListener('change', () => {
      const seat = document.querySelector('input[name=seat]:checked').value;
      $('engine-opts').style.opacity = seat === 'both' ? 0.45 : 1;
    });
  }
  $('btn-flip').addEventListener('click', () => { app.flipped = !app.flipped; renderBoard(); });
  $('btn-undo').addEventListener('click', () => act(() => api.undo(app.game.id, undoCount(app.game))));
  $('btn-go').addEventListener('click', () => act(() => api.go(app.game.id)));
  $('btn-stop').addEventListener('click', () => act(() => api.stop(app.game.id)));
  $('btn-resign').addEventListener('click', () => {
    const st = app.game;
    const humans = [0, 1].filter((s) => st.players[s] === 'human');
    const side = humans.length === 1 ? humans[0] : st.side;
    if (!confirm(`Resign for ${sideName(st, side)}?`)) return;
    act(() => api.resign(st.id, side));
  });
  $('btn-draw').addEventListener('click', async () => {
    const st = await act(() => api.draw(app.game.id));
    if (st && !st.draw_accepted) say('The engine declines the draw.');
  });
  for (let l = 1; l <= 20; l++) {
    const o = document.createElement('option');
    o.value = o.textContent = String(l);
    $('g-level').appendChild(o);
  }
  $('g-level').addEventListener('change', () => act(() => api.options(app.game.id, { level: Number($('g-level').value) })));
  $('g-movetime').addEventListener('change', () => act(() => api.options(app.game.id, { movetime_ms: Number($('g-movetime').value) })));
  window.addEventListener('hashchange', openFromHash);
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { chessBoard.hideChooser(); snakeBoard.hideChooser(); }
  });
}

async function main() {
  const chooser = $('chooser');
  chessBoard = new ChessBoard($('board'), chooser, {
    onMove: (m) => play(m),
    onGate: () => { chessBoard.render(app.game, { flipped: app.flipped, interactive: humanToMove(app.game) }); renderHint(); },
  });
  snakeBoard = new SnakeBoard($('board'), chooser, { onMove: (m) => play(m) });
  wire();
  try {
    app.variants = await api.variants();
  } catch (e) {
    $('new-error').textContent = `Cannot reach the server: ${e.message}`;
    $('new-error').hidden = false;
    return;
  }
  const names = new Set(GAMES.map((g) => g.icon));
  for (const v of app.variants) for (const p of v.pieces) names.add(p.name);
  await loadPieces([...names]);
  renderPicker();
  renderGallery();
  await refreshList();
  await openFromHash();
  document.body.dataset.ready = '1';
}

main();
