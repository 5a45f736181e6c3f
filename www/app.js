// app.js - the Menagerie page: choose a game, play it against the engine, a person
// at the same screen or a friend online (an invitation link; the moves arrive live
// over Server-Sent Events), and come back to saved games. All rules live in the server.

import { api, pingMs } from './api.js';
import { ChessBoard } from './chessboard.js';
import { SnakeBoard } from './mancala.js';
import { loadPieces, pieceIcon } from './pieces.js';
import { playSound, setSound, soundOn } from './sound.js';
import { BoardEditor } from './editor.js';
import { RulesDialog } from './teach.js';

const $ = (id) => document.getElementById(id);

// The games the page offers, from the server's /api/variants (each chess game's
// definition file gives its title, summary and emblem piece); the mancala's four
// rule sets are one game with a rules option.
let GAMES = [];
function offeredGames(variants) {
  return variants
    .filter((v) => v.kind !== 'mancala' || v.name === 'slangenspel')
    .map((v) => ({ key: v.name, name: v.title, icon: v.icon || 'king', more: !v.order || v.user,
      sub: v.summary || `${v.files}\u00d7${v.ranks}` }));
}
const SLANG = [
  ['slangenspel', 'Standard rules'],
  ['slangenspel-a', 'Variant A: store moves'],
  ['slangenspel-b', 'Variant B: endgame rules'],
  ['slangenspel-ab', 'Variants A and B'],
];
const FILES = 'abcdefghijklmnop';

const app = {
  variants: [],
  levels: null,    // GET /api/levels
  pick: 'snake-vs-mongoose',
  game: null,      // the state of the open game
  flipped: false,
  flipFor: null,   // the game id the flip belongs to
  pollTimer: 0,
  goAsked: -1,     // version at which the page last asked the engine to move
  busy: false,
  bannerClosed: null,
  review: null,    // {ply, list}: looking at an earlier position
  positions: null, // {id, version, list}: every position of the open game (GET positions)
  drawOffer: null, // the side offering a draw to the other person at this screen
  clockAt: 0,      // when the open game's clock was read (performance.now())
  clockTimer: 0,
  clockAsked: 0,
  showEngine: {},  // game id -> the engine's thinking is shown (default: not while a person plays it)
  analysis: null,  // {id, ply, data}: the analysis shown, when the Analyse button is on
  analysisTimer: 0,
  note: null,      // {id, version, sq, picked}: the piece last clicked that cannot move now
  you: {},         // online game id -> the side this browser plays (null: watching)
  joinToken: null, // {id, token}: the invitation this page was opened with
  stream: null,    // {id, es}: the open game's live events (online games)
  declined: null,  // "id:version" of an offer this player declined
  goneSince: null, // {id, at}: when this page saw the opponent leave (performance.now())
  lobby: null,     // the lobby as last pushed: {seeks, games}
  followed: new Set(), // games my seeks became, already opened
  goneTimer: 0,
  me: { name: null, account: false }, // GET /api/me: the account this session is logged in to
  ratings: new Map(), // player name (lower case) -> {at, data (GET /api/players/NAME) or null}
};
const GONE_MS = 30000; // the server's WEB_GONE_S: a claim may be made after it
const NAME_KEY = 'menagerie-name';
const INVITE_KEY = 'menagerie-invites';
let chessBoard, snakeBoard, rules, editor;

function variant(name) { return app.variants.find((v) => v.name === name); }
function isMancala(st) { return st && st.kind === 'mancala'; }
function sideName(st, side) { return isMancala(st) ? (side ? 'B' : 'A') : (side ? 'Black' : 'White'); }
// "tap" on a touch screen, "click" with a mouse
function tapOrClick() { return matchMedia('(pointer: coarse)').matches ? 'tap' : 'click'; }
function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

function say(msg, isError) {
  const el = $('action-msg');
  el.textContent = msg || '';
  el.classList.toggle('error', !!isError);
}

// ---- the new-game card ----

// The games with a place in the list (their files' order=) first; the classic
// variants and the user's games folded under "More variants".
function renderPicker() {
  const box = $('game-picker');
  const open = box.querySelector('details.more-games');
  const wasOpen = open ? open.open : false;
  box.replaceChildren();
  const more = document.createElement('details');
  more.className = 'more-games';
  const sum = document.createElement('summary');
  const moreList = document.createElement('div');
  more.append(sum, moreList);
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
    if (g.more) {
      moreList.appendChild(label);
      if (g.key === app.pick) more.open = true;
    } else box.appendChild(label);
  }
  const n = more.querySelectorAll('label').length;
  if (n) {
    sum.textContent = `More variants (${n})`;
    more.open ||= wasOpen;
    box.appendChild(more);
  }
  renderOptions();
  showLevel();
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

// What a level means, in the engine's words (GET /api/levels: its caps and
// measured strength, per kind of game).
function levelText(n, kind) {
  const list = app.levels && app.levels[kind === 'mancala' ? 'mancala' : 'chess'];
  const l = list && list.find((x) => x.level === n);
  return l ? l.text : '';
}

// whom level N plays like, in a player's words (measured for the chess games only)
function levelLike(n, kind) {
  const list = app.levels && app.levels[kind === 'mancala' ? 'mancala' : 'chess'];
  const l = list && list.find((x) => x.level === n);
  return l && l.like ? l.like : '';
}

// the level last chosen, here or during a game, is the next game's
const LEVEL_KEY = 'menagerie-level';
function rememberLevel(n) { localStorage.setItem(LEVEL_KEY, String(n)); }

function showLevel() {
  const n = Number($('level').value);
  $('level-out').textContent = String(n);
  const kind = app.pick === 'slangenspel' ? 'mancala' : 'chess';
  const like = levelLike(n, kind);
  $('level-like').textContent = like ? `Plays like a ${like}.` : '';
  $('level-note').textContent = levelText(n, kind);
  $('level-note').title = app.levels && kind === 'chess' ? app.levels.source : '';
}

function pickedVariant() {
  return app.pick === 'slangenspel' ? $('opt-slang').value : app.pick;
}

// ---- online games ----

function you(st) { return st && st.online ? (app.you[st.id] ?? null) : null; }
function invites() {
  try { return JSON.parse(sessionStorage.getItem(INVITE_KEY)) || {}; } catch { return {}; }
}
function inviteLink(id, token) { return `${location.origin}${location.pathname}#${id}/join/${token}`; }

// the live events of an online game: every change arrives as the game's state
function follow(st) {
  if (app.stream && (!st || !st.online || app.stream.id !== st.id)) {
    app.stream.es.close();
    app.stream = null;
  }
  if (!st || !st.online || app.stream) return;
  const es = new EventSource(api.eventsUrl(st.id));
  app.stream = { id: st.id, es };
  es.addEventListener('state', (ev) => {
    const fresh = JSON.parse(ev.data);
    if (app.game && app.game.id === fresh.id && fresh.version >= app.game.version) show(fresh);
  });
  es.addEventListener('gone', () => { closeGame(); refreshList(); });
  es.addEventListener('presence', (ev) => {
    if (!app.game || app.game.id !== st.id) return;
    app.game.present = JSON.parse(ev.data).present;
    renderOnline();
  });
  es.onerror = () => { $('online-line').textContent = 'Connection lost: reconnecting…'; };
  es.onopen = () => { if (app.game) renderOnline(); };
}

function renderOnline() {
  const st = app.game;
  const card = $('online-card');
  card.hidden = !st.online;
  if (!st.online) return;
  const me = you(st), over = st.result.over;
  const free = [0, 1].find((s) => !st.seats[s].held);
  const token = invites()[st.id];
  $('invite-box').hidden = !(me !== null && free !== undefined && token && !over);
  if (token) $('invite-link').value = inviteLink(st.id, token);
  const joinable = me === null && free !== undefined && !over;
  const invited = app.joinToken && app.joinToken.id === st.id;
  $('join-box').hidden = !joinable;
  $('btn-join').hidden = st.invitation && !invited;
  $('join-name').hidden = $('btn-join').hidden;
  $('join-text').innerHTML = '';
  $('join-text').append(Object.assign(document.createElement('b'), {
    textContent: st.invitation && !invited ? 'This game waits for the player it was sent to.'
      : `Play ${sideName(st, free)} against ${st.seats[1 - (free ?? 0)].name || 'the other player'}?` }));
  const live = app.stream && app.stream.es.readyState === EventSource.OPEN;
  const opp = me === null ? null : 1 - me;
  const gone = opp !== null && free === undefined && !over && st.present && !st.present[opp];
  $('online-line').textContent = me !== null
    ? `You play ${sideName(st, me)}${free !== undefined ? ' · waiting for your opponent' : ''}${gone ? ' · your opponent left the page' : ''}${live ? ' · live' : ''}`
    : `You are watching${live ? ' · live' : ''}`;
  if (me !== null && pingMs()) $('online-line').textContent += ` · ping ${pingMs()} ms`;
  // a player gone on their own move may be claimed against after GONE_MS
  clearTimeout(app.goneTimer);
  if (!gone || st.side !== opp) app.goneSince = null;
  else if (!app.goneSince || app.goneSince.id !== st.id) app.goneSince = { id: st.id, at: performance.now() };
  const wait = app.goneSince ? GONE_MS - (performance.now() - app.goneSince.at) : Infinity;
  $('claim-box').hidden = !(wait <= 0);
  if (app.goneSince && wait > 0) app.goneTimer = setTimeout(renderOnline, wait + 100);
  $('btn-abort').hidden = me === null || over || st.started;
}

// ---- accounts, ratings and the player page ----

// NAME with its rating in VARIANT ("Alice (1543?)", '?' while provisional) when
// RATED; the rating is fetched once and the panel and lobby drawn again with it
function withRating(name, variant, rated) {
  if (!rated || !name) return name;
  const key = name.toLowerCase();
  const got = app.ratings.get(key);
  if (!got || (got.data === undefined && performance.now() - got.at > 10000)) {
    app.ratings.set(key, { at: performance.now(), data: undefined });
    api.player(name).then((d) => d, () => null).then((data) => {
      app.ratings.set(key, { at: performance.now(), data });
      if (app.game) renderPanel();
      if (app.lobby) renderLobby(app.lobby);
    });
    return name;
  }
  if (!got.data) return name;
  const r = got.data.ratings.find((x) => x.game === variant);
  return r ? `${name} (${r.rating}${r.provisional ? '?' : ''})` : `${name} (1500?)`;
}

function renderAccount() {
  const me = app.me;
  $('account-guest').hidden = me.account;
  $('account-in').hidden = !me.account;
  $('account-name').textContent = me.account ? me.name : '';
  $('account-name').href = me.account ? `#@${encodeURIComponent(me.name)}` : '#';
  $('opt-rated').disabled = !me.account;
  if (!me.account) $('opt-rated').checked = false;
  $('rated-note').hidden = me.account;
  $('rated-row').title = me.account ? 'The result moves both players\u2019 ratings in this game' : 'Log in to play rated games';
  for (const id of ['opt-name', 'join-name']) {
    $(id).disabled = me.account;
    $(id).value = me.account ? me.name : localStorage.getItem(NAME_KEY) || '';
  }
}

async function refreshMe() {
  try { app.me = await api.me(); } catch { app.me = { name: null, account: false }; }
  renderAccount();
}

function openAccount(register) {
  const d = $('account-dialog');
  d.dataset.mode = register ? 'register' : 'login';
  $('account-title').textContent = register ? 'Register' : 'Log in';
  $('acc-submit').textContent = register ? 'Register' : 'Log in';
  $('acc-password').autocomplete = register ? 'new-password' : 'current-password';
  $('acc-rules').hidden = !register;
  $('acc-error').hidden = true;
  $('acc-password').value = '';
  d.showModal();
  $('acc-name').focus();
}

function wireAccount() {
  $('btn-login').addEventListener('click', () => openAccount(false));
  $('btn-register').addEventListener('click', () => openAccount(true));
  $('acc-cancel').addEventListener('click', () => $('account-dialog').close());
  $('account-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const register = $('account-dialog').dataset.mode === 'register';
    const name = $('acc-name').value.trim(), password = $('acc-password').value;
    try {
      await (register ? api.register(name, password) : api.login(name, password));
      $('acc-password').value = '';
      $('account-dialog').close();
      await refreshMe();
      if (app.game) await show(await api.state(app.game.id));
    } catch (err) {
      $('acc-error').textContent = err.message;
      $('acc-error').hidden = false;
    }
  });
  $('btn-logout').addEventListener('click', async () => {
    try { await api.logout(); } catch { /* the page shows a guest anyway */ }
    await refreshMe();
    if (app.game) await show(await api.state(app.game.id));
  });
}

// a small line chart of one game's rating history: plain SVG
function ratingChart(title, points) {
  const W = 320, H = 120, P = 28;
  const NS = 'http://www.w3.org/2000/svg';
  const box = document.createElement('figure');
  box.className = 'chart';
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${title}: rating history`);
  const rs = points.map((p) => p[1]);
  const lo = Math.min(...rs, 1500) - 20, hi = Math.max(...rs, 1500) + 20;
  const n = points.length;
  const x = (i) => P + (n > 1 ? (i * (W - P - 8)) / (n - 1) : (W - P - 8) / 2);
  const y = (r) => 8 + ((hi - r) * (H - 24)) / (hi - lo);
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(NS, 'line');
    Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => l.setAttribute(k, v));
    l.setAttribute('class', cls);
    svg.appendChild(l);
  };
  const label = (tx, ty, text) => {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', tx);
    t.setAttribute('y', ty);
    t.setAttribute('class', 'chart-label');
    t.textContent = text;
    svg.appendChild(t);
  };
  line(P, y(1500), W - 8, y(1500), 'chart-base');
  label(2, y(hi - 20) + 4, String(Math.round(hi - 20)));
  label(2, y(lo + 20) + 4, String(Math.round(lo + 20)));
  const pl = document.createElementNS(NS, 'polyline');
  pl.setAttribute('points', points.map((p, i) => `${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' '));
  pl.setAttribute('class', 'chart-line');
  svg.appendChild(pl);
  points.forEach((p, i) => {
    const c = document.createElementNS(NS, 'circle');
    c.setAttribute('cx', x(i).toFixed(1));
    c.setAttribute('cy', y(p[1]).toFixed(1));
    c.setAttribute('r', 2.5);
    c.setAttribute('class', 'chart-dot');
    const t = document.createElementNS(NS, 'title');
    t.textContent = `${p[1]} \u00b7 ${new Date(p[0] * 1000).toLocaleDateString()}`;
    c.appendChild(t);
    svg.appendChild(c);
  });
  label(P, H - 2, new Date(points[0][0] * 1000).toLocaleDateString());
  box.append(cap, svg);
  return box;
}

function gameLine(g, name) {
  const names = g.names || ['?', '?'];
  const res = g.result === '*' ? 'playing' : g.result;
  return `${names[0] || '?'} v ${names[1] || '?'} \u00b7 ${g.title} \u00b7 ${res}${g.reason ? ` (${g.reason})` : ''}`;
}

async function showPlayer(name) {
  const hash = location.hash;
  closeGame();
  history.replaceState(null, '', hash);
  $('welcome').hidden = true;
  const page = $('player-page');
  page.hidden = false;
  $('pp-name').textContent = name;
  $('pp-since').textContent = 'Loading…';
  let d;
  try {
    d = await api.player(name);
  } catch (e) {
    $('pp-since').textContent = e.status === 404 ? 'No player of that name on this site.' : e.message;
    for (const id of ['pp-ratings', 'pp-charts', 'pp-games']) $(id).replaceChildren();
    return;
  }
  app.ratings.set(d.name.toLowerCase(), { at: performance.now(), data: d });
  $('game-title').textContent = d.name;
  $('pp-name').textContent = d.name;
  $('pp-since').textContent = `Playing here since ${new Date(d.created * 1000).toLocaleDateString()}`;
  const tbody = $('pp-ratings');
  tbody.replaceChildren();
  for (const r of d.ratings) {
    const tr = document.createElement('tr');
    for (const text of [gameTitle(r.game), `${r.rating}${r.provisional ? '?' : ''}`, `\u00b1${r.rd}`, String(r.games)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  $('pp-unrated').hidden = d.ratings.length > 0;
  const charts = $('pp-charts');
  charts.replaceChildren();
  for (const r of d.ratings) {
    const pts = d.history[r.game] || [];
    if (pts.length) charts.appendChild(ratingChart(gameTitle(r.game), pts));
  }
  const ul = $('pp-games');
  ul.replaceChildren();
  for (const g of d.games) {
    const li = document.createElement('li');
    li.textContent = gameLine(g, d.name);
    li.tabIndex = 0;
    li.addEventListener('click', () => { location.hash = g.id; });
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter') location.hash = g.id; });
    ul.appendChild(li);
  }
  $('pp-nogames').hidden = d.games.length > 0;
}

// ---- the lobby: open seeks and the games being played, pushed by the server ----

function fmtTc(ms, inc) { return ms ? `${Math.round(ms / 60000 * 10) / 10}+${Math.round(inc / 1000)}` : 'none'; }
function gameTitle(variant) { const v = variant && app.variants.find((x) => x.name === variant); return v ? v.title : variant; }

function renderLobby(lobby) {
  app.lobby = lobby;
  const tbody = $('seek-list');
  tbody.replaceChildren();
  const open = lobby.seeks.filter((s) => !s.game);
  $('seek-empty').hidden = open.length > 0;
  for (const s of open) {
    const tr = document.createElement('tr');
    for (const text of [withRating(s.name, s.variant, s.rated), `${gameTitle(s.variant)}${s.rated ? ' \u00b7 rated' : ''}`,
      s.side, fmtTc(s.clock_ms, s.inc_ms)]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    const td = document.createElement('td');
    const b = document.createElement('button');
    b.textContent = s.mine ? 'Cancel' : 'Play';
    b.className = s.mine ? '' : 'primary';
    b.addEventListener('click', async () => {
      try {
        if (s.mine) { await api.cancelSeek(s.id); return; }
        const name = app.me.name || $('opt-name').value.trim() || localStorage.getItem(NAME_KEY) || 'Anonymous';
        const st = await api.acceptSeek(s.id, name);
        app.flipped = st.you === 1;
        app.flipFor = st.id;
        location.hash = st.id;
      } catch (e) { $('new-error').textContent = e.message; $('new-error').hidden = false; }
    });
    td.appendChild(b);
    tr.appendChild(td);
    tbody.appendChild(tr);
  }
  // a seek of mine became a game: go there, once
  for (const s of lobby.seeks) {
    if (s.mine && s.game && !app.followed.has(s.game)) {
      app.followed.add(s.game);
      if (!app.game || !app.game.online || app.game.result.over) location.hash = s.game;
    }
  }
  const ul = $('live-list');
  ul.replaceChildren();
  $('live-empty').hidden = lobby.games.length > 0;
  for (const g of lobby.games) {
    const li = document.createElement('li');
    li.textContent = `${g.names[0]} v ${g.names[1]} \u00b7 ${g.title} \u00b7 move ${Math.floor(g.plies / 2) + 1}`;
    li.tabIndex = 0;
    li.addEventListener('click', () => { location.hash = g.id; });
    ul.appendChild(li);
  }
}

function followLobby() {
  const es = new EventSource(api.lobbyUrl);
  es.addEventListener('lobby', (ev) => renderLobby(JSON.parse(ev.data)));
}

async function joinGame() {
  const st = app.game;
  const name = app.me.name || $('join-name').value.trim() || 'Anonymous';
  if (!app.me.account) localStorage.setItem(NAME_KEY, name);
  const token = app.joinToken && app.joinToken.id === st.id ? app.joinToken.token : undefined;
  const after = await act(() => api.join(st.id, name, token));
  if (after) {
    app.joinToken = null;
    history.replaceState(null, '', `#${st.id}`);
  }
}

function seatPlayers() {
  const seat = document.querySelector('input[name=seat]:checked').value;
  return { first: ['human', 'engine'], second: ['engine', 'human'], both: ['human', 'human'], none: ['engine', 'engine'] }[seat];
}

function readNewGame() {
  const name = pickedVariant();
  const body = {};
  body.variant = name;
  if (name === 'diamondback') body.setup = $('opt-setup').value;
  if (document.querySelector('input[name=seat]:checked').value === 'online') {
    body.online = true;
    body.name = $('opt-name').value.trim() || 'Anonymous';
    body.side = $('opt-online-side').value;
    body.seek = $('opt-online-how').value === 'lobby';
    if (app.me.account && $('opt-rated').checked) body.rated = true;
    if (!app.me.account) localStorage.setItem(NAME_KEY, body.name);
  } else {
    body.players = seatPlayers();
  }
  body.level = Number($('level').value);
  body.movetime_ms = Number($('movetime').value);
  const [base, inc] = $('clock').value.split('+').map(Number);
  if (base) { body.clock_ms = base * 1000; body.inc_ms = inc * 1000; }
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

// starts a game from BODY (else the new-game card), or by calling MAKE; errors go to
// the new-game card, or are thrown when MAKE is given
async function startGame(body, make) {
  $('new-error').hidden = true;
  try {
    const asked = body || (make ? null : readNewGame());
    if (asked && asked.seek) { // a seek: the lobby shows it, and brings its game when taken
      const { seek, online, ...opts } = asked;
      await api.seek(opts);
      closeGame();
      $('lobby').scrollIntoView({ behavior: 'smooth', block: 'start' });
      return;
    }
    const st = make ? await make() : await api.create(asked);
    if (st.invite) sessionStorage.setItem(INVITE_KEY, JSON.stringify({ ...invites(), [st.id]: st.invite }));
    app.flipped = st.online ? st.you === 1 : st.players[0] === 'engine' && st.players[1] === 'human';
    app.flipFor = st.id;
    app.bannerClosed = null;
    location.hash = st.id;
    await show(st);
    refreshList();
  } catch (e) {
    if (make) throw e;
    $('new-error').textContent = e.message;
    $('new-error').hidden = false;
  }
}

// ---- positions in and out ----

// a pasted PGN (or Slangenspel record) is imported; anything else is a FEN (or a
// Slangenspel position text) of the game chosen above
async function openPasted() {
  const text = $('paste-text').value.trim();
  const err = $('paste-error');
  err.hidden = true;
  if (!text) return;
  const opts = { players: seatPlayers(), level: Number($('level').value), movetime_ms: Number($('movetime').value) };
  try {
    const pgn = /^\[/.test(text) || /^1\.\s/.test(text);
    await startGame(null, pgn ? () => api.importGame(text, opts) : () => api.create({ variant: pickedVariant(), fen: text, ...opts }));
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}

// the editor starts from the open game's position, else from the chosen game's start
async function openEditor() {
  const st = app.game;
  const err = $('paste-error');
  err.hidden = true;
  const opened = st && !isMancala(st) ? await editor.open(st.variant, st.position) : await editor.open(pickedVariant());
  if (!opened) {
    err.textContent = 'The board editor sets up chess games; for Slangenspel paste a position text above.';
    err.hidden = false;
  }
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const t = document.createElement('textarea');
    t.value = text;
    document.body.appendChild(t);
    t.select();
    document.execCommand('copy');
    t.remove();
  }
  say(`${what} copied to the clipboard.`);
  $('action-msg').dataset.copied = text;
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
  // saved files the server could not load come first, marked, never hidden
  const skipped = list.filter((g) => g.skipped);
  list = list.filter((g) => !g.skipped);
  list.sort((a, b) => b.updated - a.updated);
  const ul = $('game-list');
  ul.replaceChildren();
  $('saved-count').textContent = list.length ? `(${list.length})` : '';
  $('saved-empty').hidden = list.length + skipped.length > 0;
  for (const f of skipped) {
    const li = document.createElement('li');
    li.className = 'skipped';
    li.innerHTML = '<div class="gl-main"><div class="gl-title"></div><div class="gl-sub"></div></div>';
    li.querySelector('.gl-title').textContent = `Not loaded: ${f.file}`;
    li.querySelector('.gl-sub').textContent = `${f.error} \u00b7 the file is kept in the data folder`;
    li.title = `${f.file}: ${f.error}`;
    ul.appendChild(li);
  }
  for (const g of list) {
    const li = document.createElement('li');
    li.dataset.id = g.id;
    if (app.game && app.game.id === g.id) li.className = 'on';
    const key = g.kind === 'mancala' ? 'slangenspel' : g.variant;
    const icon = pieceIcon((GAMES.find((x) => x.key === key) || { icon: 'king' }).icon, '', g.kind === 'mancala' ? 0 : 1, 24);
    icon.classList.add('gicon');
    const main = document.createElement('div');
    main.className = 'gl-main';
    const who = (p, s) => (g.online ? (g.names[s] || '?') : p === 'engine' ? 'Engine' : 'Person');
    const m = g.kind === 'mancala';
    const status = g.result !== '*'
      ? `${g.result}${g.reason ? ` \u00b7 ${g.reason}` : ''}`
      : `${m ? (g.side ? 'B' : 'A') : (g.side ? 'Black' : 'White')} to move`;
    main.innerHTML = '<div class="gl-title"></div><div class="gl-sub"></div>';
    main.firstChild.textContent = `${g.title}`;
    main.lastChild.textContent = `${who(g.players[0], 0)} v ${who(g.players[1], 1)} \u00b7 ${g.plies} ply \u00b7 ${status} \u00b7 ${ago(g.updated)}`;
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
    del.hidden = !!g.online; // a game between people stays on the site
    li.append(icon, main, del);
    li.addEventListener('click', () => { location.hash = g.id; });
    ul.appendChild(li);
  }
}

function closeGame() {
  app.game = null;
  app.review = null;
  clearTimeout(app.clockTimer);
  clearTimeout(app.analysisTimer);
  app.analysis = null;
  document.body.classList.remove('playing');
  clearTimeout(app.pollTimer);
  follow(null);
  $('online-card').hidden = true;
  $('board').hidden = true;
  $('board-bar').hidden = true;
  $('panel').hidden = true;
  $('banner').hidden = true;
  $('chooser').hidden = true;
  $('welcome').hidden = false;
  $('player-page').hidden = true;
  $('game-title').textContent = '';
  if (location.hash) history.replaceState(null, '', location.pathname);
}

// ---- the open game ----

function humanToMove(st) {
  return !st.result.over && !st.thinking && st.players[st.side] === 'human' &&
    (!st.online || (you(st) === st.side && st.seats[0].held && st.seats[1].held));
}

async function show(st) {
  const first = !app.game || app.game.id !== st.id;
  const changed = first || app.game.version !== st.version || app.game.thinking !== st.thinking;
  if (st.online && 'you' in st) app.you[st.id] = st.you; // the stream's states say nobody's side
  if (first && app.flipFor !== st.id) {
    app.flipped = st.online ? you(st) === 1 : st.players[0] === 'engine' && st.players[1] === 'human';
    app.flipFor = st.id;
    app.bannerClosed = null;
  }
  if (first) await loadPieces(st.pieces.map((p) => p.name));
  const before = app.game;
  app.game = st;
  if (first) { app.review = null; app.drawOffer = null; }
  else if (before.history.length !== st.history.length) app.drawOffer = null;
  if (!first && st.history.length > before.history.length) moveSound(st);
  if ((app.review || st.gating) && changed) {
    try { await loadPositions(); } catch { /* the review keeps its list */ }
  }
  if (st.rated && st.result.over && !(before && before.id === st.id && before.result.over)) {
    for (const seat of st.seats || []) if (seat.name) app.ratings.delete(seat.name.toLowerCase());
  }
  document.body.classList.add('playing');
  $('welcome').hidden = true;
  $('player-page').hidden = true;
  $('board').hidden = false;
  $('board-bar').hidden = false;
  $('panel').hidden = false;
  $('game-title').textContent = st.title;
  if (changed) renderBoard();
  renderPanel();
  renderOnline();
  follow(st);
  if (changed && app.analysis && app.analysis.id === st.id && app.analysis.ply !== viewedPly()) analyse();
  for (const li of $('game-list').children) li.classList.toggle('on', li.dataset.id === st.id);
  // a game opened from the list or an address: bring the board into view
  if (first) {
    const top = $('board-wrap').getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.5) $('board-wrap').scrollIntoView({ block: 'start' });
  }
  schedule();
}

function moveSound(st) {
  const last = st.history[st.history.length - 1];
  if (st.result.over) playSound('end');
  else if (st.board && st.board.check) playSound('check');
  else playSound(last && /x/.test(last.san) ? 'capture' : 'move');
}

// ---- review: every position of the game, from the server ----

async function loadPositions() {
  const st = app.game;
  if (!st) return null;
  if (app.positions && app.positions.id === st.id && app.positions.version === st.version) return app.positions.list;
  const list = await api.positions(st.id);
  if (app.game && app.game.id === st.id) app.positions = { id: st.id, version: st.version, list };
  return list;
}

// the position after PLY half-moves as a game state the boards can draw
function reviewState(st, list, ply) {
  const pos = list[ply];
  const view = { ...st, side: pos.side, moves: [], last: pos.last, position: pos.position,
    result: ply === list.length - 1 ? st.result : { over: false, score: '*', winner: null, reason: '' } };
  if (isMancala(st)) {
    view.mancala = parseMancala(st.variant, pos.position);
    view.mancala.before = ply > 0 ? parseMancala(st.variant, list[ply - 1].position) : null;
  } else {
    view.board = pos.board;
  }
  return view;
}

// Slangenspel position text: holes, stores, side, then variant A's used store moves
function parseMancala(variant, text) {
  const f = text.trim().split(/\s+/);
  const m = { holes: f[0].split('/').map(Number), stores: [Number(f[1]), Number(f[2])], side: f[3] === 'b' ? 1 : 0 };
  if (/^slangenspel-a/.test(variant)) m.used = [Number(f[4]) || 0, Number(f[5]) || 0];
  return m;
}

async function reviewTo(ply) {
  const st = app.game;
  if (!st) return;
  let list;
  try {
    list = await loadPositions();
  } catch (e) {
    say(e.message, true);
    return;
  }
  if (!list || !app.game || app.game.id !== st.id) return;
  ply = Math.max(0, Math.min(ply, list.length - 1));
  app.review = ply === list.length - 1 ? null : { ply, list };
  renderBoard();
  renderPanel();
  renderReviewBar();
  analyse();
}

function viewedPly() {
  return app.review ? app.review.ply : app.game ? app.game.history.length : 0;
}

function renderReviewBar() {
  const r = app.review;
  $('review-bar').hidden = !r;
  $('hint').hidden = !!r;
  $('board').classList.toggle('reviewing', !!r);
  if (r) {
    const st = app.game;
    const h = st.history[r.ply - 1];
    $('review-where').textContent = r.ply === 0 ? 'Start position' : `After ${moveLabel(st, r.ply - 1)} ${h ? h.san : ''}`;
  }
  const n = app.game ? app.game.history.length : 0;
  const at = viewedPly();
  $('nav-first').disabled = $('nav-prev').disabled = $('rv-prev').disabled = at === 0;
  $('nav-next').disabled = $('nav-last').disabled = $('rv-next').disabled = at >= n;
}

// "12." or "12..." for the move at history index I
function moveLabel(st, i) {
  const { number, offset } = numbering(st);
  const k = i + offset;
  return `${number + Math.floor(k / 2)}${k % 2 ? '\u2026' : '.'}`;
}

// the start position's move number and whether the second player moved first
function numbering(st) {
  const parts = st.initial.split(' ');
  if (isMancala(st)) return { number: 1, offset: parts[3] === 'b' ? 1 : 0 };
  return { number: Number(parts[5]) || 1, offset: parts[1] === 'b' ? 1 : 0 };
}

// how the boards take clicks: moves when a person is to move; while the engine is,
// the person's own pieces can be picked up (opts.mine, -1 for none)
function boardOpts() {
  const st = app.game;
  const mine = app.review || st.result.over ? -1 : st.online ? you(st) ?? -1
    : !vsEngine(st) ? -1 : st.players.indexOf('human');
  return { flipped: app.flipped, interactive: !app.review && humanToMove(st), mine, keys: true };
}

function renderBoard() {
  const live = app.game;
  const st = app.review ? reviewState(live, app.review.list, app.review.ply) : live;
  const opts = boardOpts();
  $('chooser').hidden = true;
  if (isMancala(st)) {
    snakeBoard.render(st, opts);
  } else {
    if (chessBoard.st && chessBoard.st.id !== st.id) { chessBoard.sel = chessBoard.kf = -1; chessBoard.resetGates(); }
    if (chessBoard.st && chessBoard.st.version !== st.version) chessBoard.resetGates();
    chessBoard.render(st, opts);
  }
  $('board').dataset.variant = st.variant;
  $('board').dataset.game = st.id;
  $('board').dataset.version = st.version;
  $('board').dataset.ply = viewedPly();
  renderHint();
  renderBanner();
  renderReviewBar();
  renderAnalysis();
}

function renderHint() {
  const el = $('hint');
  el.replaceChildren();
  hintText(app.game, el);
  pieceNote(app.game, el);
}

// a click on a square with no move now: which piece it is, whose, why it does not
// move, and a way to its diagram in the rules
function pieceNote(st, el) {
  const n = app.note;
  if (!n || n.id !== st.id || n.version !== st.version) return;
  if (isMancala(st)) { mancalaNote(st, n.sq, el); return; }
  const ch = st.board.squares[n.sq];
  if (!ch || ch === '.' || ch === '*') return;
  const letter = ch.toUpperCase(), side = ch === letter ? 0 : 1;
  const name = (st.pieces.find((p) => p.letter === letter) || { name: '?' }).name;
  const where = `${FILES[n.sq % st.files]}${Math.floor(n.sq / st.files) + 1}`;
  const own = vsEngine(st) ? st.players[side] === 'human' : st.side === side;
  const box = document.createElement('span');
  box.className = 'piece-note';
  box.id = 'piece-note';
  let text = `${own ? 'Your' : `${sideName(st, side)}\u2019s`} ${cap(name)} on ${where}`;
  if (n.picked) text += ' is picked up: its moves show when it is your turn.';
  else if (own && humanToMove(st)) text += ' has no move now.';
  else if (own && !st.result.over) text += ': wait for your turn.';
  else text += '.';
  const b = document.createElement('button');
  b.id = 'btn-piece-rules';
  b.textContent = `How the ${cap(name)} moves`;
  b.addEventListener('click', () => rules.open(st.variant, letter, side, n.sq));
  box.append(pieceIcon(name, ch, side, 24), text, b);
  el.appendChild(box);
}

// a tap on a hole that cannot be sown now says why
function mancalaNote(st, hole, el) {
  const side = hole <= 8 ? 0 : 1;
  const box = document.createElement('span');
  box.className = 'piece-note';
  box.id = 'piece-note';
  if (st.result.over) box.textContent = 'The game is over.';
  else if (!humanToMove(st)) box.textContent = `Hole ${hole}: wait, it is the engine\u2019s turn.`;
  else if (side !== st.side) box.textContent = `Hole ${hole} is ${sideName(st, side)}\u2019s: sow from your ring (${st.side ? 'inner, 9\u201316' : 'outer, 1\u20138'}).`;
  else box.textContent = `Hole ${hole} cannot be sown now${st.mancala.holes[hole - 1] ? '' : ': it is empty'}.`;
  el.appendChild(box);
}

function hintText(st, el) {
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
    add(`${who}${tapOrClick()} a hole of your ring (${st.side ? 'inner, 9\u201316' : 'outer, 1\u20138'}), then choose the direction.`);
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
  add(`${who}drag a piece, or ${tapOrClick()} it and then its target.`);
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
  const score = document.createElement('span');
  score.className = 'score';
  score.textContent = st.result.score;
  why.append(`${cap(st.result.reason)} \u00b7 `, score);
  const close = document.createElement('button');
  close.textContent = 'Look at the board';
  close.addEventListener('click', () => { app.bannerClosed = `${st.id}:${st.version}`; b.hidden = true; });
  const again = document.createElement('button');
  again.className = 'primary';
  again.id = 'btn-rematch';
  again.textContent = 'Rematch';
  again.title = 'The same game again, sides swapped';
  again.addEventListener('click', () => rematch(st));
  const row = document.createElement('div');
  row.className = 'banner-btns';
  again.hidden = !!st.online; // online, a rematch is a new invitation (the new-game card)
  row.append(again, close);
  b.append(big, why, row);
  b.hidden = false;
}

// a new game of the same kind with the sides swapped (a person keeps playing the engine)
function rematch(st) {
  const body = { variant: st.variant, players: [st.players[1], st.players[0]], level: st.level, movetime_ms: st.movetime_ms };
  if (st.variant === 'diamondback') body.setup = 'random';
  if (st.clock) { body.clock_ms = st.clock.base_ms; body.inc_ms = st.clock.inc_ms; }
  app.flipped = !app.flipped;
  startGame(body);
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
    const seatName = st.seats && st.seats[side].name;
    const who = st.online ? `${seatName ? withRating(seatName, st.variant, st.rated) : 'waiting for a player…'}${you(st) === side ? ' (you)' : ''}`
      : st.players[side] === 'engine' ? `Menagerie engine (level ${st.level})` : 'Person';
    el.querySelector('.name').textContent = `${sideName(st, side)}${m ? (side ? ' \u00b7 inner ring' : ' \u00b7 outer ring') : ''}: ${who}`;
    el.querySelector('.dot').classList.toggle('mancala', m);
    el.classList.toggle('to-move', !st.result.over && st.side === side);
  }
  const turn = $('turn');
  if (st.result.over) {
    turn.textContent = '';
  } else {
    turn.innerHTML = '';
    const { number, offset } = numbering(st);
    turn.append(`${sideName(st, st.side)} to move \u00b7 move ${number + Math.floor((st.history.length + offset) / 2)}`);
    if (st.board && st.board.check) {
      const c = document.createElement('span');
      c.className = 'check';
      c.textContent = ' \u00b7 check!';
      turn.appendChild(c);
    }
  }
  const setup = diamondbackSetup(st);
  $('setup-line').hidden = !setup;
  $('setup-line').textContent = setup ? `Set-up ${setup}: White's Queen on ${setup.slice(0, 2)}, Black's on ${setup.slice(2)}` : '';
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
  const shown = engineShown(st);
  // after a take-back the last search and verdict belong to a position no longer on the board
  const fresh = st.search && st.search.ply <= st.history.length - (st.thinking ? 0 : 1);
  const an = analysisLines();
  if (an && an.lines.length) {
    score = an.lines[0].score; mate = an.lines[0].mate; exact = an.lines[0].exact;
  } else if (!shown) {
    // hidden during a game against the engine
  } else if (st.thinking && st.search && st.search.ply === st.history.length) {
    const sign = st.search.side === 0 ? 1 : -1;
    score = sign * st.search.score; mate = sign * st.search.mate; exact = st.search.exact;
  } else if (st.eval && fresh) {
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

  const s = shown && fresh ? st.search : null;
  $('show-engine-label').hidden = !vsEngine(st);
  $('show-engine').checked = shown;
  $('thinking').hidden = !shown;
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

  renderAnalysis();
  renderMoves();
  renderLegend();
  app.clockAt = performance.now();
  renderClocks();

  // controls
  const over = st.result.over;
  $('btn-undo').disabled = app.busy || (!st.history.length && !over);
  $('btn-go').hidden = st.thinking;
  $('btn-go').disabled = app.busy || over;
  $('btn-stop').hidden = !st.thinking;
  $('btn-draw').disabled = app.busy || over;
  $('btn-resign').disabled = app.busy || over;
  const both = st.players[0] === st.players[1];
  $('btn-draw').textContent = 'Offer draw';
  $('btn-draw').disabled = app.busy || over || !!app.drawOffer;
  $('draw-offer').hidden = !app.drawOffer || over || !both;
  $('takeback-offer').hidden = true;
  $('btn-undo').textContent = 'Take back';
  $('btn-go').hidden = $('btn-go').hidden || st.online;
  $('btn-stop').hidden = $('btn-stop').hidden || st.online;
  document.querySelector('.engine-set').hidden = st.online;
  if (st.online) { // people online: offers go to the other player, who answers them
    const me = you(st), them = me === null ? null : 1 - me;
    const full = st.seats[0].held && st.seats[1].held;
    const declined = app.declined === `${st.id}:${st.version}`;
    $('btn-undo').textContent = st.takeback_offer === me && me !== null ? 'Take-back asked' : 'Ask take-back';
    $('btn-undo').disabled = app.busy || over || me === null || !full || st.takeback_offer === me || !st.history.length;
    $('btn-draw').textContent = st.draw_offer === me && me !== null ? 'Draw offered' : 'Offer draw';
    $('btn-draw').disabled = app.busy || over || me === null || !full || st.draw_offer === me;
    $('btn-resign').disabled = app.busy || over || me === null || !full;
    $('draw-offer-text').textContent = 'Your opponent offers a draw.';
    $('draw-offer').hidden = over || them === null || st.draw_offer !== them || declined;
    $('takeback-offer').hidden = over || them === null || st.takeback_offer !== them || declined;
  }
  $('btn-copy-fen').textContent = m ? 'Copy position' : 'Copy FEN';
  for (const o of $('g-level').options) {
    const like = levelLike(Number(o.value), st.kind);
    o.textContent = like ? `${o.value} \u00b7 ${like}` : o.value;
  }
  $('g-level').value = String(st.level);
  $('g-level').title = levelText(st.level, st.kind);
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
    const side = v && !v.start.split(' ')[0].includes(p.letter) ? 1 : 0;
    d.append(pieceIcon(p.name, p.letter, side, 26), cap(p.name), b);
    d.dataset.letter = p.letter;
    d.addEventListener('click', () => rules.open(st.variant, p.letter, side));
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
  const { number, offset } = numbering(st);
  const hist = st.history;
  const viewing = viewedPly();
  const gated = gatedPieces(st);
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
        cell.dataset.ply = i + 1;
        if (gated[i]) {
          const g = document.createElement('span');
          g.className = 'gated';
          g.textContent = `/${gated[i]}`;
          cell.appendChild(g);
          cell.title += ` (the ${gated[i]} enters)`;
        }
        if (i === hist.length - 1) cell.classList.add('last');
        if (app.review && i === viewing - 1) cell.classList.add('viewing');
      } else if (i < 0) {
        cell.textContent = '\u2026';
      }
      li.appendChild(cell);
    }
    ol.appendChild(li);
  }
  const cur = ol.querySelector('.viewing');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  else ol.scrollTop = ol.scrollHeight;
}

// Hannibal: the letter of the piece each move gated in (from the positions list)
function gatedPieces(st) {
  const out = [];
  const P = app.positions;
  if (!st.gating || !P || P.id !== st.id) return out;
  const list = P.list;
  for (let i = 0; i + 1 < list.length && i < st.history.length; i++) {
    const a = list[i].board, b = list[i + 1].board, last = list[i + 1].last;
    if (!a || !b || !last || last.from < 0) continue;
    const side = list[i].side, f = last.from % st.files;
    const was = (a.gates[side] || '')[f];
    if (was && was !== '.' && (b.gates[side] || '')[f] === '.' && b.squares[last.from] === was) out[i] = was.toUpperCase();
  }
  return out;
}

// Diamondback: the set-up's name from where the Queens stood at the start
function diamondbackSetup(st) {
  if (st.variant !== 'diamondback') return null;
  const rows = st.initial.split(' ')[0].split('/').reverse();
  const where = {};
  rows.forEach((row, r) => {
    let f = 0;
    for (const m of row.matchAll(/(\d+)|(.)/g)) {
      if (m[1]) { f += Number(m[1]); continue; }
      if (m[2] === 'Q' || m[2] === 'q') where[m[2]] = `${'abcdefgh'[f]}${r + 1}`;
      f++;
    }
  });
  return where.Q && where.q ? `${where.Q}${where.q}` : null;
}

// ---- the engine's thinking and the analysis ----

function vsEngine(st) { return st.players[0] !== st.players[1]; }

function engineShown(st) {
  const v = app.showEngine[st.id];
  return v === undefined ? !vsEngine(st) : v;
}

// the analysis of the position on the board, or null (also while it is for another)
function analysisLines() {
  const a = app.analysis, st = app.game;
  if (!a || !st || a.id !== st.id || a.ply !== viewedPly() || !a.data || a.data.ply !== a.ply) return null;
  return a.data;
}

// a person against the engine, the game not over: no analysis (the server refuses it)
function noHelp(st) { return vsEngine(st) && !st.result.over; }

function renderAnalysis() {
  const st = app.game;
  if (app.analysis && noHelp(st)) { app.analysis = null; clearTimeout(app.analysisTimer); }
  const a = app.analysis;
  const on = !!(a && st && a.id === st.id);
  $('btn-analyse').disabled = noHelp(st);
  $('btn-analyse').title = noHelp(st) ? 'Analysis opens when the game against the engine is over'
    : 'The engine\u2019s best lines for the position on the board';
  $('btn-analyse').classList.toggle('on', on);
  $('btn-analyse').textContent = on ? 'Stop analysis' : 'Analyse';
  $('analysis').hidden = !on;
  const data = analysisLines();
  if (!isMancala(st)) chessBoard.arrows(data ? data.lines : []);
  if (!on) return;
  const ol = $('analysis-lines');
  ol.replaceChildren();
  const state = $('analysis-state');
  if (!data) { state.textContent = 'Analysing\u2026'; return; }
  const depth = data.lines.length ? data.lines[0].depth : 0;
  state.textContent = data.error ? data.error : `${data.running ? 'Analysing' : 'Analysis'} of the position on the board${depth ? ` \u00b7 depth ${depth}` : ''}${data.running ? '\u2026' : ''}`;
  for (const l of data.lines) {
    const li = document.createElement('li');
    const sc = document.createElement('span');
    sc.className = 'sc';
    sc.textContent = fmtScore(st, l.score, l.mate, l.exact);
    const ln = document.createElement('span');
    ln.className = 'ln';
    ln.textContent = l.pv_san;
    li.append(sc, ln);
    ol.appendChild(li);
  }
}

// (re)starts the analysis of the position on the board when the Analyse button is on
async function analyse() {
  const st = app.game, a = app.analysis;
  clearTimeout(app.analysisTimer);
  if (!st || !a || a.id !== st.id) return;
  const ply = viewedPly();
  if (a.ply !== ply || !a.data) {
    a.ply = ply;
    a.data = null;
    try {
      a.data = await api.analyse(st.id, ply, 2000);
    } catch (e) {
      a.data = { ply, lines: [], running: false, error: e.message };
    }
  } else if (a.data.running) {
    try {
      const d = await api.analysis(st.id);
      if (d.ply === a.ply) a.data = d;
    } catch { /* keep the last reading */ }
  }
  if (app.analysis !== a) return;
  renderPanel();
  if (a.data && (a.data.running || a.ply !== viewedPly())) app.analysisTimer = setTimeout(analyse, 400);
}

// ---- clocks: the server's reading, counted down here between readings ----

function fmtClock(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const m = Math.floor(s / 60), r = Math.floor(s % 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
}

function renderClocks() {
  clearTimeout(app.clockTimer);
  const st = app.game;
  const c = st && st.clock;
  for (const side of [0, 1]) {
    const el = $(`clock-${side}`);
    el.hidden = !c;
    if (!c) continue;
    const running = c.running === side;
    const left = c.left_ms[side] - (running ? performance.now() - app.clockAt : 0);
    el.textContent = fmtClock(left);
    el.classList.toggle('running', running);
    el.classList.toggle('low', left < 10000);
    // the flag falls when the server says so: ask it once the time is up
    if (running && left <= 0 && performance.now() - app.clockAsked > 1000) {
      app.clockAsked = performance.now();
      setTimeout(refresh, 150);
    }
  }
  if (c && c.running !== null) app.clockTimer = setTimeout(renderClocks, 100);
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
  // #ID, or #ID/join/TOKEN: an invitation to an online game
  const [id, join, token] = location.hash.replace(/^#/, '').split('/');
  if (id && id.startsWith('@')) { await showPlayer(decodeURIComponent(id.slice(1))); return; }
  if (join === 'join' && token) app.joinToken = { id, token };
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
  $('level').addEventListener('input', () => { showLevel(); rememberLevel($('level').value); });
  $('btn-start').addEventListener('click', () => startGame());
  $('btn-show-new').addEventListener('click', () => { $('new-game').scrollIntoView({ behavior: 'smooth' }); $('game-picker').querySelector('input:checked').focus(); });
  $('brand').addEventListener('click', (e) => { e.preventDefault(); closeGame(); });
  for (const r of document.querySelectorAll('input[name=seat]')) {
    r.addEventListener('change', () => {
      const seat = document.querySelector('input[name=seat]:checked').value;
      $('engine-opts').style.opacity = seat === 'both' || seat === 'online' ? 0.45 : 1;
      $('online-opts').hidden = seat !== 'online';
      $('btn-start').textContent = seat === 'online' && $('opt-online-how').value === 'lobby' ? 'Post in the lobby' : 'Start game';
    });
  }
  $('opt-online-how').addEventListener('change', () => {
    const lobby = $('opt-online-how').value === 'lobby';
    $('online-note').textContent = lobby ? 'Your offer waits in the lobby: whoever accepts it first plays you.'
      : 'You get a link to send: whoever opens it first plays you; anyone with the game\u2019s address can watch.';
    $('btn-start').textContent = lobby ? 'Post in the lobby' : 'Start game';
  });
  $('opt-name').value = $('join-name').value = localStorage.getItem(NAME_KEY) || '';
  wireAccount();
  $('btn-flip').addEventListener('click', () => { app.flipped = !app.flipped; renderBoard(); });
  $('btn-undo').addEventListener('click', () => act(() => api.undo(app.game.id, app.game.online ? 1 : undoCount(app.game))));
  $('btn-go').addEventListener('click', () => act(() => api.go(app.game.id)));
  $('btn-stop').addEventListener('click', () => act(() => api.stop(app.game.id)));
  $('btn-resign').addEventListener('click', () => {
    const st = app.game;
    if (st.online) {
      if (confirm('Resign this game?')) act(() => api.resign(st.id));
      return;
    }
    const humans = [0, 1].filter((s) => st.players[s] === 'human');
    const side = humans.length === 1 ? humans[0] : st.side;
    if (!confirm(`Resign for ${sideName(st, side)}?`)) return;
    act(() => api.resign(st.id, side));
  });
  $('btn-draw').addEventListener('click', async () => {
    const st = app.game;
    if (st.online) { act(() => api.draw(st.id)); return; }
    const humans = [0, 1].filter((side) => st.players[side] === 'human');
    if (humans.length === 2) {
      // two people at one screen: the other side answers
      if (!confirm(`Offer a draw for ${sideName(st, st.side)}?`)) return;
      app.drawOffer = st.side + 1;
      $('draw-offer-text').textContent = `${sideName(st, st.side)} offers a draw. ${sideName(st, 1 - st.side)}, do you accept?`;
      renderPanel();
      return;
    }
    if (!confirm('Offer the engine a draw?')) return;
    const after = await act(() => api.draw(st.id));
    if (after && !after.draw_accepted) say('The engine declines the draw: it judges its position better.');
  });
  $('btn-draw-accept').addEventListener('click', () => { app.drawOffer = null; act(() => api.draw(app.game.id)); });
  $('btn-takeback-accept').addEventListener('click', () => act(() => api.undo(app.game.id, 1)));
  const decline = () => { app.declined = `${app.game.id}:${app.game.version}`; renderPanel(); };
  $('btn-takeback-decline').addEventListener('click', decline);
  $('btn-join').addEventListener('click', joinGame);
  $('btn-abort').addEventListener('click', () => { if (confirm('Abort this game? It ends without a result.')) act(() => api.abort(app.game.id)); });
  $('btn-claim-win').addEventListener('click', () => act(() => api.claim(app.game.id, 'win')));
  $('btn-claim-draw').addEventListener('click', () => act(() => api.claim(app.game.id, 'draw')));
  $('btn-copy-invite').addEventListener('click', () => copyText($('invite-link').value, 'Link'));
  $('btn-draw-decline').addEventListener('click', () => {
    const st = app.game;
    if (st.online) { decline(); return; }
    say(`${sideName(st, 1 - (app.drawOffer - 1))} declines the draw.`);
    app.drawOffer = null;
    renderPanel();
  });
  // review
  $('nav-first').addEventListener('click', () => reviewTo(0));
  $('nav-prev').addEventListener('click', () => reviewTo(viewedPly() - 1));
  $('rv-prev').addEventListener('click', () => reviewTo(viewedPly() - 1));
  $('rv-next').addEventListener('click', () => reviewTo(viewedPly() + 1));
  $('nav-next').addEventListener('click', () => reviewTo(viewedPly() + 1));
  $('nav-last').addEventListener('click', () => reviewTo(Infinity));
  $('btn-live').addEventListener('click', () => reviewTo(Infinity));
  $('movelist').addEventListener('click', (e) => {
    const cell = e.target.closest('[data-ply]');
    if (!cell) return;
    // one column (phone, tablet): the list is below the board, so bring the board back
    reviewTo(Number(cell.dataset.ply)).then(() => {
      if (matchMedia('(max-width: 1100px)').matches) $('board-wrap').scrollIntoView({ block: 'start' });
    });
  });
  // positions in and out
  $('btn-copy-fen').addEventListener('click', () => copyText(app.review ? app.review.list[app.review.ply].position : app.game.position, 'Position'));
  $('btn-copy-pgn').addEventListener('click', async () => {
    try { copyText(await api.exportText(app.game.id), 'Game'); } catch (e) { say(e.message, true); }
  });
  $('btn-paste').addEventListener('click', openPasted);
  $('btn-editor').addEventListener('click', () => openEditor());
  // rules
  $('btn-rules-pick').addEventListener('click', () => rules.open(pickedVariant()));
  $('btn-rules').addEventListener('click', () => rules.open(app.game.variant));
  // the engine's thinking and the analysis
  $('show-engine').addEventListener('change', () => { app.showEngine[app.game.id] = $('show-engine').checked; renderPanel(); });
  $('btn-analyse').addEventListener('click', () => {
    const st = app.game;
    app.analysis = app.analysis && app.analysis.id === st.id ? null : { id: st.id, ply: -1, data: null };
    renderPanel();
    analyse();
  });
  // sound
  const showSound = () => {
    $('btn-sound').textContent = soundOn() ? 'Sound on' : 'Sound off';
    $('btn-sound').setAttribute('aria-pressed', String(soundOn()));
  };
  $('btn-sound').addEventListener('click', () => { setSound(!soundOn()); showSound(); });
  showSound();

  // a level chosen during a game says what it means (touch screens have no tooltip)
  $('g-level').addEventListener('change', async () => {
    const st = await act(() => api.options(app.game.id, { level: Number($('g-level').value) }));
    if (st) {
      rememberLevel(st.level);
      $('level').value = String(st.level);
      showLevel();
      const like = levelLike(st.level, st.kind);
      say(`${levelText(st.level, st.kind)}${like ? ` It plays like a ${like}.` : ''}`);
    }
  });
  $('g-movetime').addEventListener('change', () => act(() => api.options(app.game.id, { movetime_ms: Number($('g-movetime').value) })));
  // a move typed in: SAN or coordinates, as the server reads them (e4, Nf3, e2e4, 5+)
  $('move-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    const st = app.game;
    if (!text || !st) return;
    if (app.review || !humanToMove(st)) { say(app.review ? 'Back to the game first to move.' : 'Wait for your turn.', true); return; }
    if (await play(text)) $('move-input').value = '';
  });
  window.addEventListener('hashchange', openFromHash);
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { chessBoard.hideChooser(); snakeBoard.hideChooser(); }
    if (!app.game || $('rules-dialog').open || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    const to = { ArrowLeft: viewedPly() - 1, ArrowRight: viewedPly() + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    reviewTo(to);
  });
}

// A new game's level: the one last chosen, else one a newcomer can beat; its time
// per move: the engine's default (the terminal game's too).
function useLevelDefaults(lv) {
  const kept = Number(localStorage.getItem(LEVEL_KEY));
  $('level').value = String(kept >= 1 && kept <= 20 ? kept : lv.first_level);
  const mt = $('movetime');
  const ms = String(lv.default_movetime_ms);
  if (![...mt.options].some((o) => o.value === ms)) mt.add(new Option(`${lv.default_movetime_ms / 1000} s`, ms));
  mt.value = ms;
}

async function main() {
  const chooser = $('chooser');
  chessBoard = new ChessBoard($('board'), chooser, {
    onMove: (m) => play(m),
    onGate: () => { chessBoard.render(app.game, boardOpts()); renderHint(); },
    onInspect: (sq, picked) => {
      if (app.review) return;
      app.note = { id: app.game.id, version: app.game.version, sq, picked };
      renderHint();
    },
    announce: (words) => { $('board-live').textContent = words; },
  });
  snakeBoard = new SnakeBoard($('board'), chooser, {
    onMove: (m) => play(m),
    onInspect: (hole) => {
      if (app.review) return;
      app.note = { id: app.game.id, version: app.game.version, sq: hole, picked: false };
      renderHint();
    },
  });
  wire();
  try {
    [app.variants, app.levels] = await Promise.all([api.variants(), api.levels()]);
  } catch (e) {
    $('new-error').textContent = `Cannot reach the server: ${e.message}`;
    $('new-error').hidden = false;
    return;
  }
  GAMES = offeredGames(app.variants);
  useLevelDefaults(app.levels);
  for (let l = 1; l <= 20; l++) $('g-level').add(new Option(String(l), String(l)));
  const names = new Set(GAMES.map((g) => g.icon));
  for (const v of app.variants) for (const p of v.pieces) names.add(p.name);
  await loadPieces([...names]);
  rules = new RulesDialog(app.variants);
  editor = new BoardEditor(app.variants, (variant, fen) => startGame(null, () => api.create({
    variant, fen, players: seatPlayers(), level: Number($('level').value), movetime_ms: Number($('movetime').value) })));
  renderPicker();
  renderGallery();
  await refreshMe();
  await refreshList();
  followLobby();
  await openFromHash();
  document.body.dataset.ready = '1';
}

main();
