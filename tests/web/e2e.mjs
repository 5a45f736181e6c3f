// e2e.mjs - plays every game of the Menagerie web app in headless Chromium as a person
// would (clicks, drags, the gate slots, the promotion and mancala choosers) and saves
// a screenshot of each board. Usage: node e2e.mjs BASE-URL SCREENSHOT-DIR
// Prints "ok NAME" or "FAIL NAME: why" per test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, shotDir] = process.argv.slice(2);
const GAMES = ['snake-vs-mongoose', 'team-mate', 'diamondback', 'hannibal', 'chess', 'slangenspel'];
if (!base || !shotDir) {
  console.error('usage: node e2e.mjs BASE-URL SCREENSHOT-DIR');
  process.exit(2);
}
fs.mkdirSync(shotDir, { recursive: true });
let failures = 0;

const t0 = Date.now();
function ok(name) { console.log(`ok ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`); }
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

// (the board may be drawn anew meanwhile, when the engine moves: then once more)
async function center(page, selector) {
  for (let i = 0; ; i++) {
    try {
      await page.locator(selector).first().scrollIntoViewIfNeeded();
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`${selector} is not on the page`);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    } catch (e) {
      if (i >= 2 || !/not attached|not on the page/.test(e.message)) throw e;
    }
  }
}

async function sqCenter(page, sq) { return center(page, `.squares [data-sq="${sq}"]`); }

async function clickSq(page, sq) {
  const c = await sqCenter(page, sq);
  await page.mouse.click(c.x, c.y);
}

async function dragSq(page, from, to) {
  await page.locator('#board svg.main').scrollIntoViewIfNeeded();
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

// E2E_ONLY=REGEX runs only the tests whose names match (while working on one)
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : null;

async function test(name, page, fn) {
  if (only && !only.test(name)) return;
  try {
    await fn();
    ok(name);
  } catch (e) {
    fail(name, (e && e.message ? e.message : String(e)).split('\n')[0]);
    try { await shot(page, `failed-${name.replace(/[^a-z0-9]+/gi, '-')}`); } catch { /* ignore */ }
  }
}

function expect(cond, what) { if (!cond) throw new Error(what); }

// a second browser, with a phone's touch screen
async function touchPhone() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const tp = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  return { browser, tp };
}

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
    // One entry per chess game's definition file, and the mancala once.
    const vs = await (await fetch(`${base}/api/variants`)).json();
    const want = vs.filter((v) => v.kind !== 'mancala').map((v) => v.name).concat(['slangenspel']);
    const got = await page.locator('#game-picker label').evaluateAll((ls) => ls.map((l) => l.dataset.game));
    expect(got.length === want.length && want.every((g) => got.includes(g)),
      `picker ${got.join(',')} against ${want.join(',')}`);
    expect(got.slice(0, 6).join() === 'snake-vs-mongoose,team-mate,diamondback,hannibal,slangenspel,chess', `the order: ${got.join(',')}`);
    // each level says what it means, in the engine's words for the game chosen
    const lv = await (await fetch(`${base}/api/levels`)).json();
    // a first visit starts at a level a newcomer can beat, said in plain words
    expect(await page.inputValue('#level') === String(lv.first_level) && await page.inputValue('#movetime') === String(lv.default_movetime_ms), 'the first level and the engine\'s time');
    expect(await page.textContent('#level-like') === `Plays like a ${lv.chess[lv.first_level - 1].like}.` && lv.chess[lv.first_level - 1].like === 'beginner', await page.textContent('#level-like'));
    const setLevel = (n) => page.$eval('#level', (el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }, String(n));
    await setLevel(8);
    expect(await page.textContent('#level-note') === lv.chess[7].text, `level 8: ${await page.textContent('#level-note')}`);
    expect(/^Plays like a club player\.$/.test(await page.textContent('#level-like')), await page.textContent('#level-like'));
    // the choice is remembered
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.inputValue('#level') === '8', `after a reload: level ${await page.inputValue('#level')}`);
    await page.click('#game-picker label[data-game="slangenspel"]');
    expect(await page.textContent('#level-note') === lv.mancala[7].text, 'the mancala\'s level 8');
    await setLevel(lv.default_level);
    await page.click('#game-picker label[data-game="snake-vs-mongoose"]');
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

  await test('keyboard and screen readers: one h1, labelled landmarks and squares, arrows and Enter, a typed move', page, async () => {
    await newGame(page, 'chess', 'both');
    expect(await page.locator('h1').count() === 1, 'one h1');
    const asides = await page.locator('aside').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')));
    expect(asides.length === 2 && asides.every(Boolean) && asides[0] !== asides[1], `landmarks: ${asides}`);
    expect(await page.getAttribute(`.squares [data-sq="${sqIndex('e2', 8)}"]`, 'aria-label') === 'e2, White pawn', 'the square e2 is labelled');
    // the keyboard starts on a piece that may move; go to e2 from a1, pick it up, two up, put it down
    await page.focus('#board svg.main');
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp']) await page.keyboard.press(k);
    expect(await page.textContent('#board-live') === 'e2, White pawn', `the focus said: ${await page.textContent('#board-live')}`);
    await page.keyboard.press('Enter');
    expect(/picked up: 2 moves/.test(await page.textContent('#board-live')), await page.textContent('#board-live'));
    let v = await version(page);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.textContent('#board-live') === 'e4, empty, a move', await page.textContent('#board-live'));
    await page.keyboard.press('Enter');
    await waitChange(page, v);
    expect((await state(page)).history[0].san === 'e4', 'e4 by the keyboard');
    // the board keeps the focus after the move, and the arrows did not step the review
    expect(await page.evaluate(() => document.activeElement === document.querySelector('#board svg.main')), 'the board lost the focus');
    // a move typed in SAN, then a bad one: a clear error, nothing played
    v = await version(page);
    await page.fill('#move-input', 'Nc6');
    await page.press('#move-input', 'Enter');
    await waitChange(page, v);
    expect((await state(page)).history[1].san === 'Nc6' && await page.inputValue('#move-input') === '', 'Nc6 typed');
    const n0 = errors.length;
    await page.fill('#move-input', 'Ke5');
    await page.press('#move-input', 'Enter');
    await page.waitForFunction(() => /illegal|cannot/.test(document.querySelector('#action-msg').textContent));
    expect((await state(page)).history.length === 2, 'a bad typed move played nothing');
    errors.push(...errors.splice(n0).filter((e) => !/status of 400/.test(e))); // the refused move's reply
  });

  await test('chess: promotion chooser', page, async () => {
    const st = await page.evaluate(async () => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'chess', fen: '7k/P7/8/8/8/8/6K1/8 w - - 0 1', players: ['human', 'human'] }) });
      return r.json();
    });
    await page.goto(`${base}/#${st.id}`);
    await page.waitForSelector(`#board[data-game="${st.id}"] svg.main`);
    await clickSq(page, sqIndex('a7', 8));
    await clickSq(page, sqIndex('a8', 8));
    await page.waitForSelector('#chooser:not([hidden]) button.opt');
    const n = await page.locator('#chooser button.opt').count();
    expect(n === 4, `${n} promotion choices`);
    await shot(page, 'chess-promotion');
    const v = await version(page);
    // from the keyboard the chooser takes the focus: to a8's corner, down to a7, Enter, Up, Enter
    await page.click('#chooser .cancel');
    await page.focus('#board svg.main');
    for (let i = 0; i < 7; i++) { await page.keyboard.press('ArrowLeft'); await page.keyboard.press('ArrowUp'); }
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#chooser:not([hidden]) button.opt:focus');
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
    // pawn steps read c3-c4 (two pawns could go there) or e3, never cc4 or f6e6
    const list = await page.locator('#movelist .mv').allTextContents();
    expect(list.length === 4 && list.every((t) => !/^[a-h][a-h]\d$|^[a-h]\d[a-h]\d$/.test(t)), `the move list: ${list.join(' ')}`);
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

  // The engine at its quickest: level 1, 0.3 s a move.
  const quickEngine = async (p) => {
    await p.$eval('#level', (el) => { el.value = '1'; el.dispatchEvent(new Event('input')); });
    await p.selectOption('#movetime', '300');
  };
  const dialogOpen = () => page.evaluate(() => document.querySelector('#rules-dialog').open);
  // the person's turn again, on the board
  const ourTurn = (p, n) => p.waitForFunction((k) => document.querySelector('#board').dataset.ply === String(k) &&
    document.querySelector('.pieces .movable, .hole.movable'), n, { timeout: 20000 });

  await test('hannibal against the engine by clicks: set-up, a piece picked up while the engine thinks, gating, castling', page, async () => {
    await newGame(page, 'hannibal', 'first', quickEngine);
    // the Manticore behind b, the Falcon behind c
    await page.click('[data-gate="0:1"]');
    await page.waitForSelector('[data-gate="0:2"].pick');
    await page.click('[data-gate="0:2"]');
    await page.waitForFunction(() => document.querySelector('#board').dataset.ply === '1');
    // at once, while the engine sets up: a click on our Elephant picks it up, no dialog
    await clickSq(page, sqIndex('c1', 10));
    expect(!(await dialogOpen()), 'a click on our own piece opened a dialog');
    const picked = await page.textContent('#hint');
    expect(await page.locator('.selection .mark-sel').count() === 1, `the Elephant is not picked up: ${picked}`);
    // its targets show when it is our turn; a click on one plays it, and the Falcon enters c1
    await ourTurn(page, 2);
    await page.waitForSelector('.targets circle');
    let v = await version(page);
    await clickSq(page, sqIndex('e3', 10));
    await waitChange(page, v);
    let st = await state(page);
    expect(st.board.squares[sqIndex('e3', 10)] === 'E' && st.board.squares[sqIndex('c1', 10)] === 'F', `after Ee3: ${st.position}`);
    // a Black piece: a note under the board with the way to its diagram, no dialog
    await ourTurn(page, 4);
    await clickSq(page, sqIndex('a9', 10));
    await page.waitForSelector('#piece-note #btn-piece-rules');
    expect(!(await dialogOpen()) && /Black.s Rook on a9/.test(await page.textContent('#piece-note')), await page.textContent('#hint'));
    await move(page, 10, 'i1', 'h3');
    // fast castling: the King leaps to i1, the Rook comes to f1
    await ourTurn(page, 6);
    st = await state(page);
    const castle = st.moves.find((m) => m.kind === 'c' && m.to === sqIndex('i1', 10)) || st.moves.find((m) => m.kind === 'c');
    expect(castle, `no castling in ${st.position}`);
    v = await version(page);
    await clickSq(page, castle.from);
    await clickSq(page, castle.to);
    if (await page.locator('#chooser:not([hidden])').count()) await page.click(`#chooser button[data-move="${castle.text}"]`);
    await waitChange(page, v);
    st = await state(page);
    expect(st.history[6] && st.history[6].text === castle.text && st.board.squares[5] === 'R', `after castling: ${st.history.map((h) => h.san).join(' ')}`);
    expect(!(await dialogOpen()), 'a dialog opened during the game');
    await shot(page, 'hannibal-engine');
  });

  await test('slangenspel on a phone: 30 plies by taps, each with its path shown', page, async () => {
    const { browser: tb, tp } = await touchPhone();
    try {
      tp.on('pageerror', (e) => errors.push(e.message));
      await tp.goto(`${base}/`);
      await tp.waitForSelector('body[data-ready="1"]');
      await tp.tap('#game-picker label[data-game="slangenspel"]');
      await tp.tap('input[name=seat][value=both] + span');
      await tp.tap('#btn-start');
      await tp.waitForSelector('#board svg.main');
      const get = () => tp.evaluate(async () => (await fetch(`/api/games/${location.hash.slice(1)}`)).json());
      // a tap on the other player's hole says why nothing happens
      await tp.tap('[data-hole="12"]');
      await tp.waitForSelector('#piece-note');
      expect(/B.s/.test(await tp.textContent('#piece-note')), await tp.textContent('#hint'));
      // each ply as a person plays it: what the board offers, a tap on a hole, one on a choice
      for (let ply = 0; ply < 30; ply++) {
        const now = await tp.evaluate(() => ({ v: Number(document.querySelector('#board').dataset.version),
          holes: [...document.querySelectorAll('.hole.movable')].map((h) => Number(h.dataset.hole)),
          over: !document.querySelector('#banner').hidden }));
        if (now.over) throw new Error(`the game ended after ${ply} plies`);
        if (!now.holes.length) {
          await tp.tap('#hint button'); // no sowing possible: pass
        } else {
          const hole = now.holes[(ply * 7) % now.holes.length];
          await tp.tap(`[data-hole="${hole}"]`);
          // every hole the eggs go to is marked on the board, the chooser below it
          const seen = await (await tp.waitForFunction(() => {
            const bs = [...document.querySelectorAll('#chooser:not([hidden]) button.opt')];
            if (!bs.length) return null;
            const board = document.querySelector('#board svg.main').getBoundingClientRect();
            return { moves: bs.map((b) => b.dataset.move), eggs: Number(/sow (\d+)/.exec(document.querySelector('#chooser h3').textContent)[1]),
              steps: document.querySelectorAll('.sow-step').length, ends: document.querySelectorAll('.sow-end').length,
              below: document.querySelector('#chooser').getBoundingClientRect().top >= board.bottom - 1 };
          })).jsonValue();
          expect(seen.steps >= Math.min(seen.eggs, 16) && seen.ends >= 1, `hole ${hole}: ${seen.steps} holes marked for ${seen.eggs} eggs`);
          expect(seen.below, 'the chooser covers the snake');
          await tp.tap(`#chooser button[data-move="${seen.moves[ply % seen.moves.length]}"]`);
        }
        await tp.waitForFunction((old) => Number(document.querySelector('#board').dataset.version) > old, now.v);
      }
      expect((await get()).history.length === 30, 'thirty plies');
      await tp.screenshot({ path: path.join(shotDir, 'phone-slangenspel-30.png') });
    } finally {
      await tb.close();
    }
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
    expect(await page.isHidden('#thinking'), 'the engine\'s search is hidden during a game against it');
    await page.check('#show-engine');
    const stats = await page.textContent('#think-stats');
    expect(/depth/.test(stats), 'the search is shown on request');
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
    // a level chosen during the game says what it means
    await page.selectOption('#g-level', '9');
    await page.waitForFunction(() => /^Level 9 searches/.test(document.querySelector('#action-msg').textContent));
    expect((await state(page)).level === 9, 'the game plays on at level 9');
  });

  await test('saved games listed and resumed', page, async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    const n = await page.locator('#game-list li').count();
    expect(n >= 9, `${n} saved games`);
    await page.click('#game-list li:has-text("Hannibal"):has-text("Person v Person")');
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

  await test('review: a saved game by keys, clicks and back to live', page, async () => {
    await newGame(page, 'chess', 'both');
    for (const [a, b] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6']]) await move(page, 8, a, b);
    await page.goto(`${base}/`); // reopen it as a saved game
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('#game-list li:has-text("Chess")');
    await page.waitForSelector('#board[data-ply="4"]');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('#board[data-ply="3"]');
    let st = await state(page);
    // the board shows the position after 2. Nf3: no knight on c6 yet, one on f3
    const pieceOn = (sq) => page.locator(`.pieces [data-sq="${sq}"]`).count();
    expect(await pieceOn(sqIndex('c6', 8)) === 0 && await pieceOn(sqIndex('f3', 8)) === 1, 'the board after Nf3');
    expect(st.history.length === 4, 'the game itself is unchanged');
    expect(await page.isVisible('#review-bar') && /Nf3/.test(await page.textContent('#review-where')), 'the review bar names the move');
    await page.keyboard.press('Home');
    await page.waitForSelector('#board[data-ply="0"]');
    expect(await pieceOn(sqIndex('e2', 8)) === 1, 'Home shows the start position');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#board[data-ply="1"]');
    await page.click('#movelist [data-ply="2"]');
    await page.waitForSelector('#board[data-ply="2"]');
    expect(await page.locator('#movelist .mv.viewing').textContent() === 'e5', 'the viewed move is marked in the list');
    await shot(page, 'review');
    await page.click('#btn-live');
    await page.waitForSelector('#board[data-ply="4"]');
    expect(!(await page.isVisible('#review-bar')), 'back to the live position');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('End');
    await page.waitForSelector('#board[data-ply="4"]');
    // moving is possible again after the review
    await move(page, 8, 'f1', 'c4');
    st = await state(page);
    expect(st.history.length === 5, `${st.history.length} moves`);
  });

  await test('rules and piece diagrams: legend, rules page, a piece not ours to move', page, async () => {
    await newGame(page, 'team-mate', 'both');
    await page.click('#legend .lg[data-letter="A"]');
    await page.waitForSelector('#rules-dialog[open] #diagram-board svg.main');
    await page.waitForFunction(() => document.querySelectorAll('#diagram-board .reach-mark').length === 24);
    expect(/Acromantula on d4: 24 squares/.test(await page.textContent('#diagram-note')), await page.textContent('#diagram-note'));
    expect(await page.locator('#diagram-board .reach-path').count() === 20, 'bent paths drawn');
    expect(/64-move rule/.test(await page.textContent('#rules-text')), 'the rules text');
    await shot(page, 'rules-team-mate');
    // another square: click a1 of the diagram
    await page.locator('#diagram-board .squares [data-sq="0"]').click();
    await page.waitForFunction(() => /on a1/.test(document.querySelector('#diagram-note').textContent));
    await page.click('#rules-close');
    // a Black piece while White is to move: a note under the board, then its diagram from its square
    await clickSq(page, sqIndex('g8', 8));
    await page.click('#piece-note #btn-piece-rules');
    await page.waitForSelector('#rules-dialog[open]');
    await page.waitForFunction(() => /Knight on g8: 3 squares/.test(document.querySelector('#diagram-note').textContent));
    await page.click('#rules-close');
    // pawn: move-only ahead, capture-only diagonally
    await page.click('#legend .lg[data-letter="P"]');
    await page.waitForFunction(() => document.querySelectorAll('#diagram-board .reach-mark.capture').length === 2 && document.querySelectorAll('#diagram-board .reach-mark.move').length === 1);
    await page.click('#rules-close');
    // every game has its rules, Slangenspel with variants A and B
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    for (const [key, word] of [['snake-vs-mongoose', 'Mongoose'], ['diamondback', 'corner'], ['hannibal', 'Gating'], ['chess', 'Castling'], ['slangenspel', 'Variant B'], ['shatranj', 'Alfil']]) {
      // the classic variants are folded under "More variants"
      if (key === 'shatranj') await page.click('.more-games summary');
      await page.click(`#game-picker label[data-game="${key}"]`);
      await page.click('#btn-rules-pick');
      await page.waitForSelector('#rules-dialog[open] #rules-text p');
      expect((await page.textContent('#rules-text')).includes(word), `${key} rules mention ${word}`);
      if (key === 'hannibal') {
        await page.click('#diagram-pieces [data-letter="F"]');
        await page.waitForFunction(() => /Falcon on e5: 16 squares/.test(document.querySelector('#diagram-note').textContent));
        await shot(page, 'rules-hannibal-falcon');
      }
      if (key === 'slangenspel') {
        expect(await page.isHidden('#rules-pieces'), 'no piece diagrams for the mancala');
        expect(await page.locator('#rules-pieces button, #rules-pieces svg').count() === 0, 'another game\'s diagrams kept in the mancala\'s rules');
      }
      await page.click('#rules-close');
    }
  });

  await test('draws: confirmation, the other person declines or accepts; rematch', page, async () => {
    await newGame(page, 'chess', 'both');
    await move(page, 8, 'e2', 'e4');
    await page.click('#btn-draw');
    await page.waitForSelector('#draw-offer:not([hidden])');
    expect(/Black offers a draw. White, do you accept/.test(await page.textContent('#draw-offer')), 'the offer');
    await page.click('#btn-draw-decline');
    await page.waitForSelector('#draw-offer', { state: 'hidden' });
    let st = await state(page);
    expect(!st.result.over, 'declined: the game goes on');
    await move(page, 8, 'e7', 'e5');
    await page.click('#btn-draw');
    await page.click('#btn-draw-accept');
    await page.waitForSelector('#banner:not([hidden])');
    st = await state(page);
    expect(st.result.over && st.result.score === '1/2-1/2', `result ${st.result.score}`);
    const old = st.id;
    await page.click('#btn-rematch');
    await page.waitForFunction((id) => location.hash.length > 1 && location.hash.slice(1) !== id, old);
    st = await state(page);
    expect(st.variant === 'chess' && st.history.length === 0 && !st.result.over, 'a new game');
  });

  await test('mated King marked, the banner keeps "0-1" on one line', page, async () => {
    await newGame(page, 'chess', 'both');
    for (const [a, b] of [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]) await move(page, 8, a, b);
    await page.waitForSelector('#banner:not([hidden])');
    expect(await page.locator('.marks [data-mated], .marks .mark-mated').count() >= 1, 'the mated King is marked');
    const lines = await page.evaluate(() => {
      const el = document.querySelector('#banner .score');
      return el.getClientRects().length;
    });
    expect(lines === 1 && (await page.textContent('#banner .score')) === '0-1', 'the score on one line');
    await shot(page, 'checkmate');
  });

  await test('positions in and out: paste a FEN and a PGN, copy FEN', page, async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('#game-picker label[data-game="chess"]');
    await page.click('input[name=seat][value=both] + span');
    await page.fill('#paste-text', 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 12');
    await page.click('#btn-paste');
    await page.waitForSelector('#board:not([hidden]) svg.main');
    expect(/move 12/.test(await page.textContent('#turn')), `the move number: ${await page.textContent('#turn')}`);
    await move(page, 8, 'g1', 'f3');
    expect(/12\./.test(await page.textContent('#movelist')), 'the list numbers from 12');
    expect(/move 12/.test(await page.textContent('#turn')), 'Black to move, still move 12');
    await page.click('#btn-copy-fen');
    await page.waitForFunction(() => /copied/.test(document.querySelector('#action-msg').textContent));
    const copied = await page.getAttribute('#action-msg', 'data-copied');
    expect(copied.startsWith('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq'), copied);
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('input[name=seat][value=both] + span');
    await page.fill('#paste-text', '[Variant "team-mate"]\n\n1. e4 e5 2. Nf3 *');
    await page.click('#btn-paste');
    await page.waitForSelector('#board[data-variant="team-mate"]');
    const st = await state(page);
    expect(st.history.length === 3, `${st.history.length} moves imported`);
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('#game-picker label[data-game="chess"]');
    await page.fill('#paste-text', 'not a position');
    const n0 = errors.length;
    await page.click('#btn-paste');
    await page.waitForSelector('#paste-error:not([hidden])');
    expect(/FEN/i.test(await page.textContent('#paste-error')), await page.textContent('#paste-error'));
    // the browser logs the refused request (400): expected here
    errors.push(...errors.splice(n0).filter((e) => !/status of 400/.test(e)));
  });

  await test('board editor: a Hannibal position built and played from', page, async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('#game-picker label[data-game="hannibal"]');
    await page.click('input[name=seat][value=both] + span');
    await page.click('#btn-editor');
    await page.waitForSelector('#editor-dialog[open] #editor-board svg.main');
    await page.waitForFunction(() => /72 legal moves/.test(document.querySelector('#editor-verdict').textContent));
    await page.click('#editor-clear');
    await page.waitForFunction(() => /king/i.test(document.querySelector('#editor-verdict').textContent));
    expect(await page.isDisabled('#editor-play'), 'an empty board cannot be played');
    const put = async (brush, sq) => {
      await page.click(`#editor-palette [data-brush="${brush}"]`);
      await page.locator(`#editor-board .squares [data-sq="${sqIndex(sq, 10)}"]`).click();
    };
    await put('K', 'f1');
    await put('k', 'f9');
    await put('R', 'a1');
    await put('p', 'c7');
    await page.fill('#editor-extra', '[MbFh]');
    await page.locator('#editor-extra').dispatchEvent('change');
    await page.waitForFunction(() => /legal moves for White/.test(document.querySelector('#editor-verdict').textContent));
    const fen = await page.inputValue('#editor-fen');
    expect(fen === '5k4/10/2p7/10/10/10/10/10/R4K4[MbFh] w - - 0 1', fen);
    await shot(page, 'editor');
    await page.click('#editor-play');
    await page.waitForSelector('#board[data-variant="hannibal"]');
    await move(page, 10, 'a1', 'a8');
    const st = await state(page);
    expect(st.history.length === 1 && st.board.squares[sqIndex('a8', 10)] === 'R', 'played from the edited position');
  });

  await test('clocks: a 3+2 game shows both clocks; a flag fall ends a game', page, async () => {
    await newGame(page, 'chess', 'both', async (p) => { await p.selectOption('#clock', '180+2'); });
    let st = await state(page);
    expect(st.clock && st.clock.base_ms === 180000 && st.clock.inc_ms === 2000, 'the 3+2 clock');
    expect(/^[23]:[0-9]{2}$/.test(await page.textContent('#clock-0')) && await page.isVisible('#clock-1.clock'), 'both clocks shown');
    await move(page, 8, 'e2', 'e4');
    st = await state(page);
    expect(st.clock.running === 1 && st.clock.left_ms[0] > 178000, `White's clock after the move: ${st.clock.left_ms[0]}`);
    // a tiny time control: Black's flag falls while the page counts down
    st = await page.evaluate(async () => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'chess', fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', players: ['human', 'human'], clock_ms: 1500 }) });
      return r.json();
    });
    await page.goto(`${base}/#${st.id}`);
    await page.waitForSelector('#banner:not([hidden])', { timeout: 8000 });
    const text = await page.textContent('#banner');
    expect(/White wins/.test(text) && /time ran out/.test(text), text);
    expect(await page.textContent('#clock-1') === '0:00.0', `Black's clock shows ${await page.textContent('#clock-1')}`);
    await shot(page, 'clock-flag');
  });

  await test('analysis: best lines in SAN, an arrow, follows the review; hidden against the engine', page, async () => {
    await newGame(page, 'chess', 'both');
    await move(page, 8, 'e2', 'e4');
    await page.click('#btn-analyse');
    await page.waitForFunction(() => document.querySelectorAll('#analysis-lines li').length >= 2, null, { timeout: 10000 });
    expect(await page.locator('#board .arrows').count() === 1, 'an arrow for the best move');
    await page.waitForFunction(() => document.querySelectorAll('#board .arrows .arrow').length === document.querySelectorAll('#analysis-lines li').length, null, { timeout: 10000 });
    const fade = await page.locator('#board .arrows .arrow').evaluateAll((as) => as.map((a) => Number(a.getAttribute('opacity'))));
    expect(fade.length >= 2 && fade.every((o, i) => !i || o > fade[i - 1]), `one arrow a line, the best the strongest: ${fade}`);
    const first = await page.textContent('#analysis-lines li .ln');
    expect(/^[a-hNBRQKO]/.test(first), `a line in SAN: ${first}`);
    await shot(page, 'analysis');
    // the start position under review: the analysis follows it
    await page.keyboard.press('Home');
    await page.waitForSelector('#board[data-ply="0"]');
    await page.waitForFunction(() => { const a = document.querySelector('#board .arrows'); return a && a.dataset.from === '12' || (a && /^(1|6)$/.test(a.dataset.from)) || (a && Number(a.dataset.from) < 16); }, null, { timeout: 10000 });
    await page.click('#btn-analyse');
    expect(await page.locator('#board .arrows').count() === 0 && await page.isHidden('#analysis'), 'analysis off: no arrow, no lines');
    // against the engine its thinking is hidden until asked for; a take-back leaves no stale search
    await newGame(page, 'chess', 'first', async (p) => { await p.selectOption('#movetime', '300'); });
    await move(page, 8, 'd2', 'd4');
    await poll(page, (st) => st.history.length === 2 && !st.thinking, 20000);
    await page.waitForTimeout(400);
    expect(await page.isHidden('#thinking') && (await page.textContent('#eval-text')).trim() === '\u2013', 'the engine\'s evaluation is hidden');
    expect(await page.isDisabled('#btn-analyse'), 'no analysis during a game against the engine');
    await page.check('#show-engine');
    expect(await page.isVisible('#thinking') && /depth/.test(await page.textContent('#think-stats')), 'shown on request');
    const v = await version(page);
    await page.click('#btn-undo');
    await waitChange(page, v);
    const st = await state(page);
    expect(st.history.length === 0, `${st.history.length} moves after the take-back`);
    expect((await page.textContent('#think-stats')) === '' && (await page.textContent('#pv')) === '' && (await page.textContent('#eval-text')).trim() === '\u2013', 'no stale search after the take-back');
    // after the game, analysis opens
    await page.click('#btn-resign');
    await page.waitForSelector('#banner:not([hidden])');
    await page.click('#btn-analyse');
    await page.waitForFunction(() => document.querySelectorAll('#analysis-lines li').length >= 2, null, { timeout: 10000 });
  });

  await test('Diamondback: the set-up chosen at random is named', page, async () => {
    await newGame(page, 'diamondback', 'both');
    const text = await page.textContent('#setup-line');
    const st = await state(page);
    expect(/^Set-up (b1|a2)(g8|h7)/.test(text), text);
    expect(st.position.split(' ')[0].includes(text.includes('b1g8') || text.includes('b1h7') ? 'KQNRP3' : 'KBNRP3'), 'the named set-up is the one on the board');
  });

  await test('sound switch', page, async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-ready="1"]');
    const before = await page.textContent('#btn-sound');
    await page.click('#btn-sound');
    const after = await page.textContent('#btn-sound');
    expect(before !== after && /Sound (on|off)/.test(after), `${before} -> ${after}`);
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.textContent('#btn-sound') === after, 'the choice is remembered');
  });

  // phones and tablets: no horizontal scrolling, the board and every control in view
  // every game on a phone; on a tablet the widest boards
  for (const [w, h, name, games] of [[390, 844, 'phone', GAMES], [768, 1024, 'tablet', ['snake-vs-mongoose', 'hannibal', 'slangenspel']]]) {
    await test(`${name} ${w}x${h}: no horizontal overflow, board and controls fit, touch`, page, async () => {
      const tp = await ctx.newPage();
      try {
        await tp.setViewportSize({ width: w, height: h });
        await tp.goto(`${base}/`);
        await tp.waitForSelector('body[data-ready="1"]');
        const fits = () => tp.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        expect(await fits(), 'the start page is wider than the screen');
        const picker = await tp.locator('#game-picker').boundingBox();
        expect(picker && picker.y < h, 'the game chooser is on the first screen');
        for (const g of games) {
          await tp.click(`#game-picker label[data-game="${g}"]`);
          await tp.click('input[name=seat][value=both] + span');
          await tp.click('#btn-start');
          await tp.waitForSelector(`#board[data-variant^="${g}"] svg.main`);
          expect(await fits(), `${g}: wider than the screen`);
          const board = await tp.locator('#board svg.main').boundingBox();
          expect(board.x >= 0 && board.x + board.width <= w + 0.5 && board.y >= 0 && board.y + board.height <= h, `${g}: the board is not wholly in view`);
          for (const id of ['btn-flip', 'btn-undo', 'btn-resign', 'btn-draw', 'btn-copy-pgn', 'btn-rules', 'nav-prev', 'nav-next']) {
            const box = await tp.locator(`#${id}`).boundingBox();
            expect(box && box.x >= 0 && box.x + box.width <= w + 0.5, `${g}: #${id} is cut off`);
          }
          if (g === 'diamondback') {
            // each file and rank letter stands on the frame, none off its edge (the h and the 8)
            const off = await tp.evaluate(() => {
              const frame = document.querySelector('#board svg.main .frame');
              return [...document.querySelectorAll('#board .coord.out.diamond')].filter((t) => {
                // the glyph's body: its box less the font's spare room above and below
                const b = t.getBBox(), cx = b.x + b.width / 2, cy = b.y + b.height / 2, w = b.width * 0.3, h = b.height * 0.3;
                return ![[cx - w, cy - h], [cx + w, cy - h], [cx - w, cy + h], [cx + w, cy + h]]
                  .every(([x, y]) => frame.isPointInFill(new DOMPoint(x, y)));
              }).map((t) => t.textContent);
            });
            expect(!off.length, `diamondback: labels off the frame: ${off.join(' ')}`);
          }
          await tp.screenshot({ path: path.join(shotDir, `${name}-${g}.png`) });
          await tp.evaluate(() => window.scrollTo(0, 0));
        }
        await tp.screenshot({ path: path.join(shotDir, `${name}-full.png`), fullPage: true });
        // a saved game opened from the list (below the board) comes with its board in view
        await tp.locator('#game-list li').last().click();
        await tp.waitForFunction(() => location.hash.length > 1);
        await tp.waitForTimeout(300);
        const top = await tp.evaluate(() => document.querySelector('#board-wrap').getBoundingClientRect().top);
        expect(top >= 0 && top < h / 2, `a resumed game's board starts at ${top}`);
      } finally {
        await tp.close();
      }
    });
  }

  await test('touch: tap a piece, then its target; drag another with a finger', page, async () => {
    const { browser: tctx, tp } = await touchPhone();
    try {
      // what the page saw, for a failure's line: script errors, failed requests
      const seen = [];
      tp.on('pageerror', (e) => seen.push(`script error: ${e.message}`));
      tp.on('requestfailed', (r) => seen.push(`request failed: ${r.url()} ${r.failure() && r.failure().errorText}`));
      tp.on('response', (r) => { if (r.status() >= 400) seen.push(`HTTP ${r.status()}: ${r.url()}`); });
      // a review step: tap, then the board must show ply n; else say what it shows
      // (the page keeps the touch and click events it got since the last tap, for that line)
      const reviewStep = async (selector, n) => {
        await tp.evaluate(() => {
          if (!window.tapLog) for (const t of ['touchstart', 'touchend', 'touchcancel', 'click', 'contextmenu']) {
            document.addEventListener(t, (e) => {
              const el = e.target.closest && e.target.closest('[data-ply], [id]');
              window.tapLog.push(`${t} on ${!el ? e.target.nodeName : el.dataset.ply ? `ply ${el.dataset.ply}` : `#${el.id}`}`);
            }, true);
          }
          window.tapLog = [];
        });
        await tp.tap(selector);
        try {
          await tp.waitForSelector(`#board[data-ply="${n}"]`);
        } catch {
          const state = await tp.evaluate(() => { const $ = (id) => document.getElementById(id); return `the board shows ply ${$('board').dataset.ply} (version ${$('board').dataset.version}), review bar ${$('review-bar').hidden ? 'hidden' : 'shown'}, message "${$('action-msg').textContent}", page scrolled ${window.scrollY}, events: ${window.tapLog.join(', ') || 'none'}`; });
          await tp.screenshot({ path: path.join(shotDir, 'failed-touch-phone.png') });
          throw new Error(`a tap on ${selector} did not show ply ${n}: ${state}${seen.length ? `; ${seen.join('; ')}` : ''}`);
        }
      };
      await tp.goto(`${base}/`);
      await tp.waitForSelector('body[data-ready="1"]');
      await tp.tap('#game-picker label[data-game="chess"]');
      await tp.tap('input[name=seat][value=both] + span');
      await tp.tap('#btn-start');
      await tp.waitForSelector('#board svg.main');
      const v = Number(await tp.getAttribute('#board', 'data-version'));
      const c = async (sq) => { const b = await tp.locator(`.squares [data-sq="${sq}"]`).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
      const [x1, y1] = await c(sqIndex('e2', 8));
      const [x2, y2] = await c(sqIndex('e4', 8));
      await tp.touchscreen.tap(x1, y1);
      await tp.touchscreen.tap(x2, y2);
      await tp.waitForFunction((old) => Number(document.querySelector('#board').dataset.version) > old, v);
      let st = await tp.evaluate(async () => (await fetch(`/api/games/${location.hash.slice(1)}`)).json());
      expect(st.history.length === 1 && st.history[0].san === 'e4', 'the tapped move is played');
      // a finger drags e7 to e5: touch events as the screen sends them
      const cdp = await tp.context().newCDPSession(tp);
      const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
      const [x3, y3] = await c(sqIndex('e7', 8));
      const [x4, y4] = await c(sqIndex('e5', 8));
      const v2 = Number(await tp.getAttribute('#board', 'data-version'));
      await touch('touchStart', x3, y3);
      for (let i = 1; i <= 8; i++) await touch('touchMove', x3 + (x4 - x3) * i / 8, y3 + (y4 - y3) * i / 8);
      await touch('touchEnd');
      await tp.waitForFunction((old) => Number(document.querySelector('#board').dataset.version) > old, v2);
      st = await tp.evaluate(async () => (await fetch(`/api/games/${location.hash.slice(1)}`)).json());
      expect(st.history.length === 2 && st.history[1].san === 'e5', `the dragged move: ${st.history.map((h) => h.san).join(' ')}`);
      expect(await tp.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the drag scrolled the page sideways');
      await tp.screenshot({ path: path.join(shotDir, 'phone-touch.png') });
      // review on the phone: a move tapped in the list (below the board) brings the board
      // back into view, and the bar under it steps through the game
      await tp.locator('#movelist [data-ply="1"]').scrollIntoViewIfNeeded();
      await tp.waitForTimeout(200);
      await reviewStep('#movelist [data-ply="1"]', 1);
      const top = await tp.evaluate(() => document.querySelector('#board svg.main').getBoundingClientRect().top);
      expect(top >= 0 && top < 200, `the board is at ${top} after a tap in the move list`);
      await reviewStep('#rv-prev', 0);
      await reviewStep('#rv-next', 1);
      await tp.screenshot({ path: path.join(shotDir, 'phone-review.png') });
    } finally {
      await tctx.close();
    }
  });

  if (errors.length) fail('no script errors on the page', errors.join(' | '));
  else ok('no script errors on the page');
} finally {
  await ctx.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
console.log(`${failures ? 'some' : 'all'} e2e tests done`);
process.exit(failures ? 1 : 0);
