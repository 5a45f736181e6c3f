// fuzz.mjs - sends N seeded random requests (methods, routes, ids, JSON bodies both
// plausible and broken) to a Menagerie server on loopback and checks that each gets
// an HTTP answer below 500 with a JSON body for /api/. Usage: node fuzz.mjs PORT [N] [SEED]
// Prints "ok ..." or "FAIL ..." lines. Uses only node's own http module.
import http from 'node:http';

const port = Number(process.argv[2]);
const count = Number(process.argv[3] || 300);
let seed = Number(process.argv[4] || 12345);
function rnd(n) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; }
function pick(a) { return a[rnd(a.length)]; }

function send(method, path, body, type = 'application/json') {
  return new Promise((resolve) => {
    const headers = { 'Content-Type': type };
    if (body !== null) headers['Content-Length'] = Buffer.byteLength(body);
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, timeout: 20000 }, (res) => {
      let data = '';
      res.on('data', (c) => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode, data }));
    });
    req.on('error', (e) => resolve({ status: 0, data: String(e) }));
    req.on('timeout', () => { req.destroy(); resolve({ status: 0, data: 'timeout' }); });
    if (body !== null) req.write(body);
    req.end();
  });
}

const variants = ['chess', 'diamondback', 'hannibal', 'snake-vs-mongoose', 'team-mate', 'slangenspel',
  'slangenspel-a', 'slangenspel-b', 'slangenspel-ab', 'x', '', 'CHESS'];
const ids = [];
const junk = () => pick(['', 'null', '{}', '[]', '{"a":', '"str"', '123', '{"move":null}', '{"move":{}}',
  '\u0000\u0001', '{"variant":"chess"}', '{"count":-1}', '{"count":1e308}', '{"level":NaN}',
  '{"players":["engine","engine"],"variant":"slangenspel","movetime_ms":50}', '{"side":7}',
  '{"fen":"' + 'x'.repeat(rnd(900)) + '","variant":"' + pick(variants) + '"}',
  '{"gates":[' + pick(['null', '"random"', '"MaFb"', '1', '[]']) + ',' + pick(['null', '"random"', '"McFd"']) + '],"variant":"hannibal"}',
  '{"move":"' + pick(['e2e4', 'O-O', 'MbFh', '3+', '16-x', 'S5+', 'pass', 'a1a1', 'e7e8q', '\\u00ff', 'zz']) + '"}',
  '{"pgn":"' + pick(['[Variant \\"chess\\"] 1. e4 e5 *', '1. e4 (1. d4) {x} $1 *', '[Variant \\"slangenspel\\"] 1. 3+ 12+x', '[[[[', '']) + '"}']);

let bad = 0;
for (const v of variants.slice(0, 9)) {
  const r = await send('POST', '/api/games', JSON.stringify({ variant: v, players: ['human', v.startsWith('s') ? 'engine' : 'human'], movetime_ms: 50 }));
  if (r.status === 201) ids.push(JSON.parse(r.data).id);
  else { bad++; console.log(`FAIL fuzz: cannot start ${v}: ${r.status}`); }
}
for (let i = 0; i < count; i++) {
  const id = ids.length && rnd(4) ? pick(ids) : pick(['zzz', '000000000000', '..', '%00', 'a'.repeat(rnd(100))]);
  const route = pick(['/api/variants', '/api/games', '/api/import', `/api/games/${id}`, `/api/games/${id}/moves`,
    `/api/games/${id}/move`, `/api/games/${id}/go`, `/api/games/${id}/stop`, `/api/games/${id}/undo`,
    `/api/games/${id}/resign`, `/api/games/${id}/draw`, `/api/games/${id}/options`, `/api/games/${id}/export`,
    '/api', '/api/', '/api//games', '/api/games/x/y/z', '/', '/app.js', '/nope']);
  const method = pick(['GET', 'POST', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD']);
  let body = method === 'GET' || method === 'HEAD' ? null : junk();
  if (route === '/api/games' && method === 'POST' && rnd(2)) body = JSON.stringify({ variant: pick(variants.slice(0, 9)), players: [pick(['human', 'engine']), 'human'], movetime_ms: 50 });
  const r = await send(method, route, body, rnd(10) ? 'application/json' : 'text/plain');
  if (r.status === 201 && route === '/api/games') {
    try { ids.push(JSON.parse(r.data).id); } catch { /* counted below */ }
  }
  const api = route.startsWith('/api');
  let json = true;
  if (api && method !== 'HEAD' && !(route.endsWith('/export') && r.status === 200)) {
    try { JSON.parse(r.data); } catch { json = false; }
  }
  if (r.status === 0 || r.status >= 500 || !json) {
    bad++;
    if (bad <= 5) console.log(`FAIL fuzz ${method} ${route.slice(0, 60)} ${String(body).slice(0, 60)}: ${r.status} ${r.data.slice(0, 100)}`);
  }
}
// stop any engines the fuzz started
for (const id of ids) await send('DELETE', `/api/games/${id}`, '{}');
if (bad) console.log(`FAIL fuzz: ${bad} of ${count} requests got no proper answer`);
else console.log(`ok fuzz: ${count} random requests answered below 500 with JSON`);
