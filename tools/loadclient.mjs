// loadclient.mjs - the client side of tools/loadfault.sh (node, no packages).
//   node loadclient.mjs conns BASE PATH N ROUNDS
//       ROUNDS times, N requests at once, each on its own connection; prints
//       {requests, ok, statuses, resets, errors, ms_max, ms_median}
//   node loadclient.mjs slow BASE N SECONDS
//       N connections that send a request header one byte a second (slowloris)
//       while ordinary requests go through, 50 at once every half second; prints
//       {slow, slow_cut_by_server, ok, failed, ms_max, ms_median}
//   node loadclient.mjs play BASE N SECONDS FILE
//       N two-person chess games, each playing random legal moves as fast as the
//       server answers, until SECONDS pass or the server stops answering; writes
//       {id: plies the server acknowledged} to FILE; prints the replies by status
//   node loadclient.mjs verify BASE FILE
//       compares the games the server has with FILE: held (same plies), ahead
//       (a move saved whose reply was cut by a kill), lost (acknowledged, missing)
// Loopback only: BASE must be http://127.x.x.x:PORT.
import http from 'node:http';
import net from 'node:net';

const [mode, base, ...rest] = process.argv.slice(2);
const url = new URL(base);
if (!/^127\./.test(url.hostname)) {
  console.error('loadclient: loopback addresses only');
  process.exit(2);
}

function get(path) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const r = http.get({ host: url.hostname, port: url.port, path, agent: false, timeout: 60000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: Date.now() - t0 }));
      res.on('error', (e) => resolve({ error: e.code || e.message, ms: Date.now() - t0 }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', (e) => resolve({ error: e.code || e.message, ms: Date.now() - t0 }));
  });
}

function call(method, path, body) {
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = method === 'GET' ? {} : { 'Content-Type': 'application/json' };
    const r = http.request({ host: url.hostname, port: url.port, path, method, headers, agent: false, timeout: 60000 }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, json });
      });
      res.on('error', () => resolve({ status: 0 }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', () => resolve({ status: 0 }));
    r.end(data);
  });
}

async function play(n, seconds, file) {
  const fs = await import('node:fs');
  const acked = {};
  const statuses = {};
  const count = (st) => { statuses[st] = (statuses[st] || 0) + 1; };
  const end = Date.now() + seconds * 1000;
  let down = false;
  const save = () => fs.writeFileSync(file, JSON.stringify(acked));
  process.on('SIGTERM', () => { save(); process.exit(0); });
  async function one() {
    let st = null;
    while (!down && Date.now() < end) {
      if (!st || st.result.over || !st.moves.length) {
        const r = await call('POST', '/api/games', { variant: 'chess', players: ['human', 'human'] });
        count(r.status);
        if (r.status === 0) { down = true; break; }
        if (r.status !== 201) { await new Promise((ok) => setTimeout(ok, 200)); continue; }
        st = r.json;
        acked[st.id] = 0;
      }
      const m = st.moves[Math.floor(Math.random() * st.moves.length)];
      const r = await call('POST', `/api/games/${st.id}/move`, { move: m.text });
      count(r.status);
      if (r.status === 0) { down = true; break; }
      if (r.status === 200) {
        st = r.json;
        acked[st.id] = st.history.length;
      } else {
        await new Promise((ok) => setTimeout(ok, 200)); // 5xx: the move is not kept; retry later
      }
      save();
    }
  }
  await Promise.all(Array.from({ length: n }, one));
  save();
  return { games: Object.keys(acked).length, moves_acknowledged: Object.values(acked).reduce((a, b) => a + b, 0), statuses };
}

async function verify(file) {
  const fs = await import('node:fs');
  const acked = JSON.parse(fs.readFileSync(file, 'utf8'));
  const r = await call('GET', '/api/games');
  const have = {};
  for (const g of r.json || []) if (g.id) have[g.id] = g.plies;
  const out = { games: 0, held: 0, ahead: 0, lost_games: 0, lost_moves: 0, skipped_files: (r.json || []).filter((g) => g.skipped).length };
  for (const [id, plies] of Object.entries(acked)) {
    out.games++;
    if (!(id in have)) { out.lost_games++; out.lost_moves += plies; continue; }
    if (have[id] === plies) out.held++;
    else if (have[id] > plies) out.ahead++;
    else out.lost_moves += plies - have[id];
  }
  return out;
}

function summary(results) {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const statuses = {};
  const errors = {};
  for (const r of results) {
    if (r.status) statuses[r.status] = (statuses[r.status] || 0) + 1;
    if (r.error) errors[r.error] = (errors[r.error] || 0) + 1;
  }
  return {
    requests: results.length,
    ok: results.filter((r) => r.status === 200).length,
    statuses,
    resets: errors.ECONNRESET || 0,
    errors,
    ms_max: ms[ms.length - 1] || 0,
    ms_median: ms[Math.floor(ms.length / 2)] || 0,
  };
}

async function conns(path, n, rounds) {
  const all = [];
  for (let i = 0; i < rounds; i++) all.push(...(await Promise.all(Array.from({ length: n }, () => get(path)))));
  return summary(all);
}

async function slow(n, seconds) {
  const header = `GET /api/games HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: ${'a'.repeat(4000)}`;
  let cut = 0;
  const socks = [];
  for (let i = 0; i < n; i++) {
    const s = net.connect({ host: url.hostname, port: +url.port });
    s.on('error', () => {});
    s.on('close', () => { cut++; });
    s.pos = 0;
    socks.push(s);
  }
  const drip = setInterval(() => {
    for (const s of socks) if (!s.destroyed && s.pos < header.length) s.write(header[s.pos++]);
  }, 1000);
  const end = Date.now() + seconds * 1000;
  const results = [];
  while (Date.now() < end) {
    results.push(...(await Promise.all(Array.from({ length: 50 }, () => get('/api/games')))));
    await new Promise((r) => setTimeout(r, 500));
  }
  clearInterval(drip);
  const sum = summary(results);
  const closedBefore = cut;
  for (const s of socks) s.destroy();
  return { slow: n, slow_cut_by_server: closedBefore, ok: sum.ok, failed: sum.requests - sum.ok, ms_max: sum.ms_max, ms_median: sum.ms_median };
}

let out;
if (mode === 'conns') out = await conns(rest[0], +rest[1], +rest[2]);
else if (mode === 'slow') out = await slow(+rest[0], +rest[1]);
else if (mode === 'play') out = await play(+rest[0], +rest[1], rest[2]);
else if (mode === 'verify') out = await verify(rest[0]);
else {
  console.error('usage: loadclient.mjs conns BASE PATH N ROUNDS | slow BASE N SECONDS | play BASE N SECONDS FILE | verify BASE FILE');
  process.exit(2);
}
console.log(JSON.stringify(out));
