// e2e.mjs - plays every game of the Menagerie web app in headless Chromium as a person
// would (clicks, drags, the gate slots, the promotion and mancala choosers) and saves
// a screenshot of each board. Usage: node e2e.mjs BASE-URL SCREENSHOT-DIR
// Prints "ok NAME" or "FAIL NAME: why" per test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, shotDir] = process.argv.slice(2);
if (!base || !shotDir) {
  console.error('usage: node e2e.mjs BASE-URL SCREENSHOT-DIR');
  process.exit(2);
}
fs.mkdirSync(shotDir, { recursive: true });
let failures = 0;

function ok(name) { console.log(`ok ${name}`); }
function fail(name, why) { failures++; console.log(`FAIL ${name}: ${why}`); }

// ---- helpers ----

function sqIndex(name, files) {
  const f = name.charCodeAt(0) - 97, r = Number(name.slice(1)) - 1;
  return r * files + f;
}

async function state(page) {
  return page.evaluate(async () => {
    const id = location.hash.slice(1);
    const r = await fetch(`/api/games/${id}`);
    return r.json();
  });
}

// polls the game's state until COND holds
async function poll(page, cond, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    const st = await state(page);
    if (cond(st)) return st;
    if (Date.now() > end) throw new Error('timed out waiting for the game');
    await page.waitForTimeout(200);
  }
}

async function version(page) {
  return Number(await page.getAttribute('#board', 'data-version'));
}

// waits until the board shows a version after V
async function waitChange(page, v, timeout = 10000) {
  await page.waitForFunction((old) => Number(document.querySelector('#board').dataset.version) > old, v, { timeout });
}

async function center(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function sqCenter(page, sq) { return center(page, `.squares [data-sq="${sq}"]`); }

async function clickSq(page, sq) {
  const c = await sqCenter(page, sq);
  await page.mouse.click(c.x, c.y);
}

async function dragSq(page, from, to) {
  const a = await sqCenter(page, from), b = await sqCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 10, a.y + 6, { steps: 2 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

// plays FROM-TO on the board, by clicks or by drag; waits for the server's answer
async function move(page, files, from, to, how = 'click') {
  const v = await version(page);
  const a = sqIndex(from, files), b = sqIndex(to, files);
  if (how === 'drag') await dragSq(page, a, b);
  else {
    await clickSq(page, a);
    await clickSq(page, b);
  }
  await waitChange(page, v);
}

async function newGame(page, key, seat, setOptions) {
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.click(`#game-picker label[data-game="${key}"]`);
  if (setOptions) await setOptions(page);
  await page.click(`input[name=seat][value=${seat}] + span`);
  await page.click('#btn-start');
  await page.waitForSelector('#board:not([hidden]) svg.main');
  await page.waitForFunction(() => location.hash.length > 1);
}

async function shot(page, name) {
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(shotDir, `${name}.png`) });
}

async function test(name, page, fn) {
  try {
    await fn();
    ok(name);
  } catch (e) {
    fail(name, (e && e.message ? e.message : String(e)).split('\n')[0]);
    try { await shot(page, `failed-${name.replace(/[^a-z0-9]+/gi, '-')}`); } catch { /* ignore */ }
  }
}

function expect(cond, what) { if (!cond) throw new Error(what); }

// ---- the run ----

const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'menagerie-e2e-'));
const ctx = await chromium.launchPersistentContext(userDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--no-proxy-server',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1400, height: 900 },
});
ctx.setDefaultTimeout(15000);
const page = ctx.pages()[0] || await ctx.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
page.on('dialog', (d) => d.accept());

try {
  await test('page loads with every game', page, async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    const n = await page.locator('#game-picker label').count();
    expect(n === 6, `${n} games in the picker`);
    await shot(page, 'start');
  });

  await test('chess: drag, click, castling, flip', page, async () => {
    await newGame(page, 'chess', 'both');
    await move(page, 8, 'e2', 'e4', 'drag');
    await move(page, 8, 'e7', 'e5');
    await move(page, 8, 'g1', 'f3', 'drag');
    await move(page, 8, 'b8', 'c6');
    await move(page, 8, 'f1', 'c4');
    await move(page, 8, 'f8', 'c5');
    await move(page, 8, 'e1', 'g1', 'drag');
    const st = await state(page);
    expect(st.last.san === 'O-O' && st.board.squares[6] === 'K' && st.board.squares[5] === 'R', `last move ${st.last.san}`);
    const list = await page.textContent('#movelist');
    expect(/O-O/.test(list), 'the move list shows O-O');
    // legal targets on selection
    await clickSq(page, sqIndex('d7', 8));
    const targets = await page.locator('.targets circle').count();
    expect(targets === 2, `${targets} targets for d7`);
    await shot(page, 'chess');
    await clickSq(page, sqIndex('d7', 8));
    const a1 = await sqCenter(page, 0);
    await page.click('#btn-flip');
    const a1f = await sqCenter(page, 0);
    expect(a1f.y < a1.y, 'flipping puts a1 at the top');
    await shot(page, 'chess-flipped');
    await page.click('#btn-flip');
  });

  await test('chess: promotion chooser', page, async () => {
    const st = await page.evaluate(async () => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'chess', fen: '7k/P7/8/8/8/8/6K1/8 w - - 0 1', players: ['human', 'human'] }) });
      return r.json();
    });
    await page.goto(`${base}/#${st.id}`);
    await page.waitForSelector('#board svg.main');
    await clickSq(page, sqIndex('a7', 8));
    await clickSq(page, sqIndex('a8', 8));
    await page.waitForSelector('#chooser:not([hidden]) button.opt');
    const n = await page.locator('#chooser button.opt').count();
    expect(n === 4, `${n} promotion choices`);
    await shot(page, 'chess-promotion');
    const v = await version(page);
    await page.click('#chooser button[data-move="a7a8q"]');
    await waitChange(page, v);
    const after = await state(page);
    expect(after.board.squares[56] === 'Q' && after.last.san.startsWith('a8=Q'), `a8 holds ${after.board.squares[56]}`);
  });

  await test('snake vs. mongoose: a few moves', page, async () => {
    await newGame(page, 'snake-vs-mongoose', 'both');
    await move(page, 10, 'e3', 'e5', 'drag');
    await move(page, 10, 'f8', 'f6');
    await move(page, 10, 'b2', 'c2');
    await move(page, 10, 'a9', 'b7');
    const st = await state(page);
    expect(st.history.length === 4 && st.files === 10 && st.ranks === 10, `${st.history.length} moves`);
    await shot(page, 'snake-vs-mongoose');
  });

  await test('team-mate: a few moves', page, async () => {
    await newGame(page, 'team-mate', 'both');
    await move(page, 8, 'e2', 'e4');
    await move(page, 8, 'd7', 'd5', 'drag');
    await move(page, 8, 'e4', 'd5');
    await move(page, 8, 'h8', 'g6');
    const st = await state(page);
    expect(st.history.length === 4 && st.history[2].san.includes('x'), st.history.map((h) => h.san).join(' '));
    await shot(page, 'team-mate');
  });

  await test('diamondback: set-up option, King corners toward the players', page, async () => {
    await newGame(page, 'diamondback', 'both', async (p) => { await p.selectOption('#opt-setup', 'a2h7'); });
    let st = await state(page);
    expect(st.position.startsWith('3prnbk/4ppbq'), `start ${st.position}`);
    const a1 = await sqCenter(page, 0), h8 = await sqCenter(page, 63), a8 = await sqCenter(page, 56), h1 = await sqCenter(page, 7);
    expect(a1.y > h8.y && Math.abs(a1.x - h8.x) < 2 && a8.x < h1.x && Math.abs(a8.y - h1.y) < 2, 'a1 at the bottom corner, h8 at the top');
    // two moves of each side, chosen from the legal ones
    for (let i = 0; i < 4; i++) {
      st = await state(page);
      const m = st.moves.find((x) => x.kind === 'n' && st.board.squares[x.to] === '.');
      const v = await version(page);
      await clickSq(page, m.from);
      await clickSq(page, m.to);
      await waitChange(page, v);
    }
    st = await state(page);
    expect(st.history.length === 4, `${st.history.length} moves`);
    await shot(page, 'diamondback');
  });

  await test('hannibal: gate placement on the board and gating', page, async () => {
    await newGame(page, 'hannibal', 'both');
    await shot(page, 'hannibal-setup');
    let v = await version(page);
    await page.click('[data-gate="0:1"]');
    await page.waitForSelector('[data-gate="0:7"].pick');
    await shot(page, 'hannibal-gate-placement');
    await page.click('[data-gate="0:7"]');
    await waitChange(page, v);
    v = await version(page);
    await page.click('[data-gate="1:2"]');
    await page.waitForSelector('[data-gate="1:6"].pick');
    await page.click('[data-gate="1:6"]');
    await waitChange(page, v);
    let st = await state(page);
    expect(st.board.gates[0] === '.M.....F..' && st.board.gates[1] === '..m...f...', `gates ${st.board.gates}`);
    await move(page, 10, 'b1', 'c3', 'drag');
    st = await state(page);
    expect(st.board.squares[1] === 'M' && st.board.gates[0][1] === '.', 'the Manticore entered b1');
    await move(page, 10, 'e8', 'e7');
    await shot(page, 'hannibal');
  });

  await test('slangenspel: a capture through the chooser', page, async () => {
    await newGame(page, 'slangenspel', 'both');
    await page.click('[data-hole="5"]');
    await page.waitForSelector('#chooser:not([hidden]) button[data-move="5-x"]');
    await shot(page, 'slangenspel-chooser');
    const v = await version(page);
    await page.click('#chooser button[data-move="5-x"]');
    await waitChange(page, v);
    const st = await state(page);
    expect(st.mancala.stores[0] > 0 && st.history[0].text === '5-x', `store A ${st.mancala.stores[0]}`);
    await shot(page, 'slangenspel');
  });

  await test('slangenspel variant A against the engine', page, async () => {
    await newGame(page, 'slangenspel', 'first', async (p) => {
      await p.selectOption('#opt-slang', 'slangenspel-a');
      await p.selectOption('#movetime', '300');
    });
    await page.click('[data-hole="3"]');
    await page.waitForSelector('#chooser:not([hidden]) button[data-move="3+"]');
    await page.click('#chooser button[data-move="3+"]');
    await poll(page, (st) => st.history.length === 2 && !st.thinking, 20000);
    await page.waitForTimeout(400);
    const st = await state(page);
    expect(st.history.length === 2 && st.search && st.search.depth > 0, `${st.history.length} moves`);
    const stats = await page.textContent('#think-stats');
    expect(/depth/.test(stats), 'the search is shown');
    await shot(page, 'slangenspel-engine');
  });

  await test('chess against the engine', page, async () => {
    await newGame(page, 'chess', 'first', async (p) => { await p.selectOption('#movetime', '300'); });
    await move(page, 8, 'd2', 'd4', 'drag');
    await poll(page, (st) => st.engine_error || (st.history.length === 2 && !st.thinking), 20000);
    await page.waitForTimeout(400); // the page polls too
    const st = await state(page);
    await shot(page, 'chess-engine');
    expect(!st.engine_error, st.engine_error || '');
    expect(st.history.length === 2, `${st.history.length} moves`);
  });

  await test('saved games listed and resumed', page, async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    const n = await page.locator('#game-list li').count();
    expect(n >= 9, `${n} saved games`);
    await page.click('#game-list li:has-text("Hannibal")');
    await page.waitForSelector('#board[data-variant="hannibal"]');
    const st = await state(page);
    expect(st.history.length === 4, `${st.history.length} moves`);
  });

  await test('resign shows the result', page, async () => {
    await newGame(page, 'team-mate', 'both');
    await move(page, 8, 'e2', 'e4');
    await page.click('#btn-resign');
    await page.waitForSelector('#banner:not([hidden])');
    const text = await page.textContent('#banner');
    expect(/White wins/.test(text) && /resign/i.test(text), text);
    await shot(page, 'result');
  });

  if (errors.length) fail('no script errors on the page', errors.join(' | '));
  else ok('no script errors on the page');
} finally {
  await ctx.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
console.log(`${failures ? 'some' : 'all'} e2e tests done`);
process.exit(failures ? 1 : 0);
