// load_fake.mjs - a stand-in for the online games of `menagerie serve`, with a fault,
// to show that tools/loadtest.mjs catches it (tests/scripts/web_load.sh). Node, no
// packages; loopback, a free port, printed as "http://127.0.0.1:PORT/".
//   node tests/web/load_fake.mjs lose   the first spectator stream of each game hears
//                                       nothing after the game's 3rd ply
//   node tests/web/load_fake.mjs dup    each stream sends the event of the 4th ply twice
//   node tests/web/load_fake.mjs wrong  streams show the 2nd ply as another move
//   node tests/web/load_fake.mjs cut    no fault: streams are cut after a second, and
//                                       resume at their Last-Event-ID
// Games: create (POST /api/games), join, move, GET the state, events; the moves are
// two dummies, "a1" and "b2", and a game never ends.
import http from 'node:http';

const fault = process.argv[2];
const games = new Map();
let serial = 0;

function state(g) {
  return { id: g.id, version: g.version, side: g.history.length % 2, history: g.history,
    moves: [{ text: 'a1' }, { text: 'b2' }], result: { over: false } };
}

function event(g, s) {
  const st = state(g);
  if (fault === 'wrong' && st.history.length >= 2)
    st.history = st.history.map((h, i) => (i === 1 ? { text: 'zz', san: 'zz' } : h));
  const text = `id: ${g.version}\nevent: state\ndata: ${JSON.stringify(st)}\n\n`;
  if (fault === 'lose' && s.spectatorIndex === 0 && g.history.length > 3) return;
  s.res.write(text);
  if (fault === 'dup' && g.history.length === 4) s.res.write(text);
}

function reply(res, status, body, cookie) {
  const headers = { 'Content-Type': 'application/json' };
  if (cookie) headers['Set-Cookie'] = `menagerie_session=${cookie}; Path=/; HttpOnly; SameSite=Strict`;
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    const m = req.url.match(/^\/api\/games(?:\/([0-9a-f]+)(?:\/(\w+))?)?$/);
    const g = m && m[1] ? games.get(m[1]) : null;
    if (!m || (m[1] && !g)) return reply(res, 404, { error: 'no such thing', status: 404 });
    if (!m[1] && req.method === 'POST') {
      const id = (++serial).toString(16).padStart(12, '0');
      const ng = { id, version: 1, history: [], streams: [], spectators: 0 };
      games.set(id, ng);
      return reply(res, 201, { ...state(ng), invite: 'f'.repeat(64) }, `c${id}`);
    }
    if (m[2] === 'join') {
      g.version++;
      return reply(res, 200, state(g), `j${g.id}`);
    }
    if (m[2] === 'move') {
      g.history.push({ text: JSON.parse(body).move, san: 'x' });
      g.version++;
      for (const s of g.streams) event(g, s);
      return reply(res, 200, state(g));
    }
    if (m[2] === 'events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const s = { res, spectatorIndex: req.headers.cookie ? -1 : g.spectators++ };
      g.streams.push(s);
      if (req.headers['last-event-id'] !== String(g.version)) event(g, s);
      if (fault === 'cut') setTimeout(() => res.destroy(), 1000);
      res.on('close', () => { g.streams = g.streams.filter((x) => x !== s); });
      return undefined;
    }
    if (!m[2] && req.method === 'GET') return reply(res, 200, state(g));
    return reply(res, 405, { error: 'not here', status: 405 });
  });
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/`));
process.on('SIGTERM', () => process.exit(0));
