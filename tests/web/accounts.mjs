// accounts.mjs - accounts on the page in headless Chromium: Alice registers through
// the header's dialog, Bob (on a phone-sized page) through the API; the Rated box
// is enabled once logged in; they play a rated game that Bob resigns; the players
// panel shows their ratings, and Alice's player page (#@Alice) its table, chart and
// games. Screenshots of each page go to SCREENSHOT-DIR.
// Usage: node accounts.mjs BASE-URL SCREENSHOT-DIR. Prints "ok NAME" / "FAIL NAME: why".
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [base, shotDir] = process.argv.slice(2);
if (!base || !shotDir) {
  console.error('usage: node accounts.mjs BASE-URL SCREENSHOT-DIR');
  process.exit(2);
}
fs.mkdirSync(shotDir, { recursive: true });
let failures = 0;
function ok(name) { console.log(`ok web accounts ${name}`); }
function fail(name, why) { failures++; console.log(`FAIL web accounts ${name}: ${why}`); }
async function step(name, fn) {
  try { await fn(); ok(name); } catch (e) { fail(name, String(e.message || e).split('\n')[0]); }
}
// a request from inside PAGE (its cookie, its origin)
async function post(page, p, body) {
  return page.evaluate(async ([p, body]) => {
    const r = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  }, [p, body]);
}
const shot = (page, name) => page.screenshot({ path: path.join(shotDir, `${name}.png`) });

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const desk = { viewport: { width: 1280, height: 900 } };
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  const [alice, bob] = [await (await browser.newContext(desk)).newPage(), await (await browser.newContext(phone)).newPage()];
  let id;
  await step('register through the dialog', async () => {
    await alice.goto(base);
    await alice.waitForSelector('body[data-ready="1"]');
    if (!(await alice.isDisabled('#opt-rated'))) throw new Error('Rated enabled for a guest');
    await alice.click('#btn-register');
    await alice.fill('#acc-name', 'Alice');
    await alice.fill('#acc-password', 'alice-secret-41');
    await shot(alice, 'register-dialog');
    await alice.click('#acc-submit');
    await alice.waitForSelector('#account-in:not([hidden])');
    if ((await alice.textContent('#account-name')) !== 'Alice') throw new Error('no name in the header');
    if (await alice.isDisabled('#opt-rated')) throw new Error('Rated still disabled');
  });
  await step('a rated game, resigned', async () => {
    await bob.goto(base);
    await bob.waitForSelector('body[data-ready="1"]');
    const r = await post(bob, '/api/register', { name: 'Bob', password: 'bob-secret-4242' });
    if (r.status !== 201) throw new Error(JSON.stringify(r));
    await bob.reload();
    await bob.waitForSelector('#account-in:not([hidden])');
    await alice.locator('#game-picker label', { hasText: 'orthodox chess' }).first().click();
    await alice.locator('#seat-choice label', { hasText: 'Online' }).click();
    await alice.check('#opt-rated');
    await alice.selectOption('#opt-online-side', 'white');
    await alice.selectOption('#opt-online-how', 'lobby');
    await alice.click('#btn-start');
    await bob.waitForSelector('#seek-list button.primary');
    await shot(bob, 'lobby-phone');
    await bob.click('#seek-list button.primary');
    await bob.waitForSelector('#board:not([hidden])');
    id = (await bob.evaluate(() => location.hash)).slice(1);
    // the lobby brings Alice to the game (tests/web/online.mjs checks that); here
    // only the accounts matter, so a slow push is not waited out
    const followed = await alice.waitForFunction((g) => location.hash === `#${g}`, id, { timeout: 15000 }).then(() => true, () => false);
    if (!followed) await alice.evaluate((g) => { location.hash = g; }, id);
    await alice.waitForFunction(() => !document.querySelector('#board').hidden, null, { timeout: 8000 });
    for (const [p, m] of [[alice, 'e2e4'], [bob, 'e7e5']]) {
      const x = await post(p, `/api/games/${id}/move`, { move: m });
      if (x.status !== 200) throw new Error(JSON.stringify(x.body));
    }
    const x = await post(bob, `/api/games/${id}/resign`, {});
    if (x.status !== 200) throw new Error(JSON.stringify(x.body));
    await alice.waitForFunction(() => /Alice \(\d+\?\)/.test(document.querySelector('#player-0').textContent), null, { timeout: 8000 })
      .catch(async () => { throw new Error(`White's line: ${await alice.textContent('#player-0')}`); });
    // both players' ratings are fetched after the end, each in its own request
    await alice.waitForFunction(() => /Bob \(1[0-4]\d\d\?\)/.test(document.querySelector('#player-1').textContent), null, { timeout: 8000 })
      .catch(async () => { throw new Error(`Bob's line: ${await alice.textContent('#player-1')}`); });
    await shot(alice, 'rated-game');
    await shot(bob, 'rated-game-phone');
  });
  await step('the player page', async () => {
    for (const [p, name] of [[alice, 'player-page'], [bob, 'player-page-phone']]) {
      await p.evaluate(() => { location.hash = '@Alice'; });
      await p.waitForSelector('#pp-charts svg polyline', { state: 'attached' });
      const rows = await p.locator('#pp-ratings tr').count();
      if (rows !== 1) throw new Error(`${rows} rating rows`);
      if ((await p.locator('#pp-games li').count()) !== 1) throw new Error('no game listed');
      await shot(p, name);
    }
    await alice.click('#pp-games li');
    await alice.waitForFunction((g) => location.hash === `#${g}` && !document.querySelector('#board').hidden, id);
  });
  await step('log out', async () => {
    await alice.click('#btn-logout');
    await alice.waitForSelector('#account-guest:not([hidden])');
    if (!(await alice.isDisabled('#opt-rated'))) throw new Error('Rated enabled after logout');
  });
} finally {
  await browser.close();
}
process.exit(failures ? 1 : 0);
