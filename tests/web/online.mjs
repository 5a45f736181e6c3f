// online.mjs - a whole online game in headless Chromium between two browsers, with a
// third watching: Alice invites through the new-game card, Bob opens the link (on a
// phone-sized page) and joins, they move by clicking, the moves reach the other two
// pages pushed by the server (the page does not poll online games), Bob's page drops
// its connection and catches up, a spectator's and the wrong seat's moves are refused,
// and White's flag falls. Screenshots of each page go to SCREENSHOT-DIR.
// Usage: node online.mjs BASE-URL SCREENSHOT-DIR. Prints "ok NAME" / "FAIL NAME: why".
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, shotDir] = process.argv.slice(2);
if (!base || !shotDir) {
  console.error('usage: node online.mjs BASE-URL SCREENSHOT-DIR');
  process.exit(2);
}
fs.mkdirSync(shotDir, { recursive: true });
let failures = 0;
function ok(name) { console.log(`ok web online ${name}`); }
function fail(name, why) { failures++; console.log(`FAIL web online ${name}: ${why}`); }

const sq = (name) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);
async function click(page, name) {
  const el = page.locator(`.squares [data-sq="${sq(name)}"]`).first();
  await el.scrollIntoViewIfNeeded();
  const b = await el.boundingBox();
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
}
async function move(page, from, to) { await click(page, from); await click(page, to); }
const version = async (page) => Number(await page.getAttribute('#board', 'data-version'));
async function waitVersion(page, v, timeout = 8000) {
  await page.waitForFunction((want) => Number(document.querySelector('#board').dataset.version) >= want, v, { timeout });
}
// a request from inside PAGE (its cookie, its origin)
async function post(page, p, body) {
  return page.evaluate(async ([p, body]) => {
    const r = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  }, [p, body]);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const desk = { viewport: { width: 1280, height: 900 } };
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  const [ca, cb, cw] = [await browser.newContext(desk), await browser.newContext(phone), await browser.newContext(desk)];
  const [alice, bob, watcher] = [await ca.newPage(), await cb.newPage(), await cw.newPage()];
  const polls = [];
  bob.on('request', (r) => { if (/\/api\/games\/[0-9a-f]{12}$/.test(r.url())) polls.push(r.url()); });

  // Step 1. Alice invites: chess, White, an 8-second clock.
  let id, link;
  try {
    await alice.goto(base);
    await alice.waitForSelector('#game-picker input');
    await alice.locator('#game-picker label', { hasText: 'orthodox chess' }).first().click();
    await alice.locator('#seat-choice label', { hasText: 'Online' }).click();
    await alice.fill('#opt-name', 'Alice');
    await alice.selectOption('#opt-online-side', 'white');
    await alice.evaluate(() => { const o = new Option('8+0', '8+0'); document.querySelector('#clock').add(o); o.selected = true; });
    await alice.click('#btn-start');
    await alice.waitForSelector('#invite-box:not([hidden])');
    link = await alice.inputValue('#invite-link');
    id = link.split('#')[1].split('/')[0];
    if (!/#[0-9a-f]{12}\/join\/[0-9a-f]{64}$/.test(link)) throw new Error(`invitation link ${link}`);
    await alice.screenshot({ path: path.join(shotDir, 'online-invite.png') });
    ok('invite');
  } catch (e) { fail('invite', e.message); throw e; }

  // Step 2. Bob opens the link and joins; the watcher opens the game.
  try {
    await bob.goto(link);
    await bob.waitForSelector('#join-box:not([hidden]) #btn-join:not([hidden])');
    await bob.fill('#join-name', 'Bob');
    await bob.click('#btn-join');
    await bob.waitForFunction(() => /You play Black/.test(document.querySelector('#online-line').textContent));
    await watcher.goto(`${base}#${id}`);
    await watcher.waitForFunction(() => /You are watching/.test(document.querySelector('#online-line').textContent));
    if (!(await watcher.locator('#join-box').isHidden())) throw new Error('the watcher is offered a seat taken');
    await alice.waitForFunction(() => /Bob/.test(document.querySelector('#player-1 .name').textContent));
    ok('join');
  } catch (e) { fail('join', e.message); }

  // Step 3. Moves by clicking, pushed to the other pages.
  try {
    let v = await version(alice);
    await move(alice, 'e2', 'e4');
    await waitVersion(bob, v + 1);
    await waitVersion(watcher, v + 1);
    v = await version(bob);
    await move(bob, 'e7', 'e5');
    await waitVersion(alice, v + 1);
    await waitVersion(watcher, v + 1);
    ok('moves arrive live');
  } catch (e) { fail('moves arrive live', e.message); }

  // Step 4. Refusals: the watcher, and Bob for White.
  try {
    const w = await post(watcher, `/api/games/${id}/move`, { move: 'g1f3' });
    const b = await post(bob, `/api/games/${id}/move`, { move: 'g1f3' });
    const r = await post(watcher, `/api/games/${id}/resign`, {});
    if (w.status !== 403 || b.status !== 403 || r.status !== 403) throw new Error(`statuses ${w.status} ${b.status} ${r.status}`);
    ok('spectator and wrong seat refused');
  } catch (e) { fail('spectator and wrong seat refused', e.message); }

  // Step 5. Bob's page loses its connection while Alice moves, then catches up.
  try {
    await cb.setOffline(true);
    const v = await version(alice);
    await move(alice, 'g1', 'f3');
    await waitVersion(alice, v + 1);
    await bob.waitForTimeout(500);
    await cb.setOffline(false);
    await waitVersion(bob, v + 1, 15000);
    const last = await bob.evaluate(() => document.querySelector('#movelist').textContent);
    if (!/Nf3/.test(last)) throw new Error(`Bob's moves: ${last}`);
    await bob.screenshot({ path: path.join(shotDir, 'online-phone-bob.png') });
    ok('reconnect catches up');
  } catch (e) { fail('reconnect catches up', e.message); }

  // Step 6. Bob moves; then nobody does, and White's 8 seconds run out.
  try {
    const v = await version(bob);
    await move(bob, 'b8', 'c6');
    await waitVersion(alice, v + 1);
    for (const p of [alice, bob, watcher])
      await p.waitForFunction(() => /White's time ran out/i.test(document.querySelector('#result').textContent), null, { timeout: 15000 });
    await watcher.screenshot({ path: path.join(shotDir, 'online-watcher.png') });
    await alice.screenshot({ path: path.join(shotDir, 'online-flag.png') });
    ok('flag falls on every page');
  } catch (e) { fail('flag falls on every page', e.message); }

  if (polls.length > 3) fail('no polling', `Bob's page asked for the state ${polls.length} times`);
  else ok('no polling');

  // Step 7. The lobby: Alice posts a seek, Bob sees it arrive and takes it; both land in
  // the game, and the watcher's lobby lists it as being played.
  try {
    await alice.goto(base);
    await bob.goto(base);
    await watcher.goto(base);
    await alice.waitForSelector('#game-picker input');
    await alice.locator('#game-picker label', { hasText: 'snakes against' }).first().click();
    await alice.locator('#seat-choice label', { hasText: 'Online' }).click();
    await alice.selectOption('#opt-online-how', 'lobby');
    await alice.click('#btn-start');
    const row = (p) => p.locator('#seek-list tr', { hasText: 'Snake vs' });
    await row(bob).locator('button.primary').waitFor({ timeout: 8000 });
    await row(watcher).waitFor({ timeout: 8000 });
    await row(alice).locator('button:not(.primary)').waitFor(); // her own: Cancel
    await bob.screenshot({ path: path.join(shotDir, 'online-lobby-phone.png'), fullPage: true });
    await row(bob).locator('button.primary').click();
    await bob.waitForFunction(() => /You play/.test(document.querySelector('#online-line').textContent));
    await alice.waitForFunction(() => /You play/.test(document.querySelector('#online-line')?.textContent || ''), null, { timeout: 8000 });
    await watcher.waitForFunction(() => document.querySelectorAll('#live-list li').length >= 1, null, { timeout: 8000 });
    await watcher.waitForFunction(() => ![...document.querySelectorAll('#seek-list tr')].some((tr) => /Snake vs/.test(tr.textContent)), null, { timeout: 8000 });
    await watcher.screenshot({ path: path.join(shotDir, 'online-lobby.png') });
    ok('lobby seek taken');
  } catch (e) { fail('lobby seek taken', e.message); }
} finally {
  await browser.close();
}
console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
