#!/usr/bin/env node
// loadtest.mjs - a load test of online games on `menagerie serve` (node, standard
// library only). It starts no server: give it the base URL of one that runs.
//
//   node tools/loadtest.mjs [OPTIONS] URL
//   node tools/loadtest.mjs [OPTIONS] --servers URL1,URL2
//
// What it does:
//   1. makes G online games (POST /api/games, then POST /api/games/ID/join with the
//      invitation), each between two sessions of its own (cookies kept by hand);
//   2. opens each player's stream (GET /api/games/ID/events with the seat's cookie)
//      and S spectator streams spread over the games, a few dozen at a time;
//   3. plays: each game makes about one move a second (the players alternate, each
//      a random legal move from the state's `moves`), for a warm-up W then D seconds;
//      a game that ends is replaced by a new one between the same two sessions;
//   4. measures, for each move played after the warm-up, the time from sending its
//      POST to the arrival on the opponent's stream of the state whose history holds
//      it (and the same to every stream of the game), and the time its POST took;
//   5. checks every stream: event ids grow, history only grows and never changes a
//      ply it showed, and agrees with the moves acknowledged. A move answered 200 that
//      has not reached every stream of its game (the two players' and its spectators')
//      within --lost-after seconds is lost; a stream that shows the same version twice,
//      a ply changed or a shorter history counts as duplicated.
//   6. counts failed requests (non-2xx or no answer, by request and status), stream
//      reconnects (a stream that ends resumes with Last-Event-ID) and stalls (no byte
//      for 45 s: the server pings every 5 s); with --pid, the server's RSS and CPU
//      time; and the tool's own event-loop lag (when large, it was short of CPU).
//   With --servers, sessions and spectators go round-robin over the servers (for two
//   processes serving the same games).
//
// Options (defaults in brackets):
//   --games G [200]       games played at once
//   --spectators S [1000] spectator streams, spread over the games round-robin
//   --duration D [300]    seconds measured, after the warm-up
//   --warmup W [10]       seconds played before measuring
//   --interval MS [1000]  time between two moves of one game
//   --lost-after SEC [10] a move not on every stream of its game by then is lost
//   --pid PID[,PID]       the server's process (one per server): its memory (VmRSS of
//                         /proc/PID/status) before the streams open, with all open,
//                         and per stream
//   --variant NAME [chess]
//   --seed N              the moves' random numbers (default: the time)
//   --json FILE           also write the summary to FILE as JSON
//   --quiet               no progress lines
//
// Prints a progress line every 10 s and a summary table at the end. Exit status: 0
// when every move reached every stream once; 1 when a move was lost, duplicated or
// disagreed, or no move was played; 2 when the run could not start (bad options, no
// server, games not made, too low an open-file limit).
//
// Open files: the tool holds one socket per stream (2 G + S) plus a few dozen for
// requests. When the soft limit (`ulimit -n`) is too low and the hard one allows it,
// it runs itself again under a raised soft limit; else it says how to raise it. The
// server raises its own limit (up to its hard limit).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// ---- options ----

function usage(msg) {
  if (msg) console.error(`loadtest: ${msg}`);
  console.error('usage: node tools/loadtest.mjs [--games G] [--spectators S] [--duration D] [--warmup W]\n' +
    '         [--interval MS] [--lost-after SEC] [--pid PID[,PID]] [--variant NAME] [--seed N]\n' +
    '         [--json FILE] [--quiet] (URL | --servers URL1,URL2)');
  process.exit(2);
}

const opt = { games: 200, spectators: 1000, duration: 300, warmup: 10, interval: 1000, lostAfter: 10,
  pids: [], variant: 'chess', seed: Date.now() >>> 0, json: null, quiet: false, servers: [] };
{
  const a = process.argv.slice(2);
  const num = (name, v, min) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min) usage(`${name} wants a number of at least ${min}`);
    return n;
  };
  for (let i = 0; i < a.length; i++) {
    const k = a[i];
    const v = () => a[++i];
    if (k === '--games') opt.games = Math.floor(num(k, v(), 1));
    else if (k === '--spectators') opt.spectators = Math.floor(num(k, v(), 0));
    else if (k === '--duration') opt.duration = num(k, v(), 1);
    else if (k === '--warmup') opt.warmup = num(k, v(), 0);
    else if (k === '--interval') opt.interval = num(k, v(), 10);
    else if (k === '--lost-after') opt.lostAfter = num(k, v(), 1);
    else if (k === '--pid') opt.pids = String(v() || '').split(',').map((p) => Math.floor(num(k, p, 1)));
    else if (k === '--variant') opt.variant = v() || usage('--variant wants a name');
    else if (k === '--seed') opt.seed = Math.floor(num(k, v(), 0)) >>> 0;
    else if (k === '--json') opt.json = v() || usage('--json wants a file');
    else if (k === '--quiet') opt.quiet = true;
    else if (k === '--servers') opt.servers.push(...String(v() || '').split(',').filter(Boolean));
    else if (k === '-h' || k === '--help') usage();
    else if (k.startsWith('-')) usage(`unknown option ${k}`);
    else opt.servers.push(k);
  }
  if (!opt.servers.length) usage('no server URL');
}

const servers = opt.servers.map((u) => {
  let url;
  try {
    url = new URL(u);
  } catch {
    usage(`not a URL: ${u}`);
  }
  if (url.protocol !== 'http:') usage(`only http:// URLs: ${u}`);
  return { url, host: url.hostname.replace(/^\[|\]$/g, ''), port: +url.port || 80,
    agent: new http.Agent({ keepAlive: true, maxSockets: 48, timeout: 20000 }) };
});
let nextServer = 0;
const takeServer = () => servers[nextServer++ % servers.length];

// ---- the open-file limit ----

function fileLimits(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/limits`, 'utf8').match(/^Max open files\s+(\S+)\s+(\S+)/m);
    const n = (s) => (s === 'unlimited' ? Infinity : Number(s));
    return m ? { soft: n(m[1]), hard: n(m[2]) } : null;
  } catch {
    return null;
  }
}
const needFiles = 2 * opt.games + opt.spectators + servers.length * 48 + 64;
{
  const lim = fileLimits('self');
  if (lim && lim.soft < needFiles) {
    if (lim.hard >= needFiles && !process.env.LOADTEST_RAISED) {
      const want = Math.min(lim.hard, Math.max(needFiles, 4096));
      const r = spawnSync('/bin/sh', ['-c', 'ulimit -n "$0" && exec "$@"', String(want), process.execPath,
        ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, LOADTEST_RAISED: '1' } });
      process.exit(r.status === null ? 2 : r.status);
    }
    console.error(`loadtest: ${needFiles} sockets wanted but the open-file limit is ${lim.soft} (hard ${lim.hard}).\n` +
      `Raise it in the shell that runs the tool (\`ulimit -n ${needFiles}\`; above the hard limit only root can,\n` +
      'or through /etc/security/limits.conf), or ask for fewer --games/--spectators.');
    process.exit(2);
  }
}
for (const pid of opt.pids) {
  const lim = fileLimits(pid);
  if (!lim) console.error(`loadtest: warning: no process ${pid} (--pid): no memory figures for it`);
  else if (lim.hard < needFiles) console.error(`loadtest: warning: server ${pid} may hold at most ${lim.hard} files`);
}

// ---- figures ----

let seed = opt.seed;
function random() { // mulberry32
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const st = {
  failed: {}, // "METHOD route status" -> count
  reconnects: 0, reconnectWhy: {}, stalls: 0,
  moves: 0, movesMeasured: 0, lost: 0, lostPairs: 0, lostSamples: [],
  dup: 0, dupSamples: [], otherEvents: {}, wrong: 0, wrongSamples: [],
  latOpp: [], latAll: [], latPost: [], gamesMade: 0, gamesEnded: 0, streamsOpen: 0,
  rss: { before: null, open: null, peak: null, end: null },
  cpu: { from: null, to: null },
};
const loopDelay = monitorEventLoopDelay({ resolution: 10 }); // the tool's own lag: its figures hold when small
const bump = (o, k, n = 1) => { o[k] = (o[k] || 0) + n; };
const fail = (what, status) => bump(st.failed, `${what} ${status}`);
const sample = (list, x) => { if (list.length < 10) list.push(x); };

function rss() { // kB, summed over --pid, or null
  if (!opt.pids.length) return null;
  let sum = 0;
  for (const pid of opt.pids) {
    try {
      const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
      if (!m) return null;
      sum += Number(m[1]);
    } catch {
      return null;
    }
  }
  return sum;
}
function cpuSeconds() { // user + system time, summed over --pid, or null
  if (!opt.pids.length) return null;
  let sum = 0;
  for (const pid of opt.pids) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      sum += (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
    } catch {
      return null;
    }
  }
  return sum;
}
function noteRss() {
  const r = rss();
  if (r !== null && (st.rss.peak === null || r > st.rss.peak)) st.rss.peak = r;
  return r;
}

function quantile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const ms = (x) => (x === null || x === undefined ? '-' : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
const mb = (kb) => (kb === null ? '-' : `${(kb / 1024).toFixed(1)} MB`);
const now = () => performance.now();
const sleep = (t) => new Promise((ok) => setTimeout(ok, t));

// ---- requests ----

// call(session, METHOD, PATH, BODY): {status, json, error}; the session's cookie goes
// with the request and a new one from Set-Cookie is kept.
function call(session, method, path, body) {
  const srv = session.srv;
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = {};
    if (method !== 'GET') headers['Content-Type'] = 'application/json';
    if (session.cookie) headers.Cookie = session.cookie;
    const r = http.request({ host: srv.host, port: srv.port, path, method, headers, agent: srv.agent, timeout: 30000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        for (const c of res.headers['set-cookie'] || []) {
          const m = c.match(/^(menagerie_session=[^;]*)/);
          if (m) session.cookie = m[1];
        }
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, json });
      });
      res.on('error', (e) => resolve({ status: 0, error: e.code || e.message }));
    });
    r.on('timeout', () => r.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    r.on('error', (e) => resolve({ status: 0, error: e.code || e.message }));
    r.end(data);
  });
}

// ---- streams ----

let running = true; // false once the run is over: streams that end stay closed
let playing = true; // false once the moves stop: no new move, no new game

class Stream {
  constructor(slot, srv, cookie, seat) {
    this.slot = slot;
    this.srv = srv;
    this.cookie = cookie;
    this.seat = seat; // 0, 1, or -1 for a spectator
    this.version = null;
    this.hist = []; // the move texts it has shown
    this.closed = false;
    this.req = null;
    this.lastData = now();
    this.backoff = 100;
    this.first = null; // resolves at the first event or failure of the first connection
  }

  open() {
    this.first = this.first || new Promise((ok) => { this.firstDone = ok; });
    const headers = { Accept: 'text/event-stream' };
    if (this.cookie) headers.Cookie = this.cookie;
    if (this.version !== null) headers['Last-Event-ID'] = String(this.version);
    const path = `/api/games/${this.slot.id}/events`;
    let over = false;
    const done = (why) => {
      if (over) return;
      over = true;
      if (this.req === req) this.req = null;
      if (this.live) { this.live = false; st.streamsOpen--; }
      if (this.firstDone) { this.firstDone(false); this.firstDone = null; }
      if (this.closed || !running) return;
      st.reconnects++;
      bump(st.reconnectWhy, why);
      setTimeout(() => { if (!this.closed && running) this.open(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, 2000);
    };
    const req = http.get({ host: this.srv.host, port: this.srv.port, path, headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        fail('GET events', res.statusCode);
        res.resume();
        res.on('end', () => done(`status ${res.statusCode}`));
        return;
      }
      this.live = true;
      st.streamsOpen++;
      this.lastData = now();
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        this.lastData = now();
        buf += chunk;
        let cut;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          this.event(buf.slice(0, cut));
          buf = buf.slice(cut + 2);
        }
      });
      res.on('end', () => done('ended by the server'));
      res.on('error', (e) => done(e.code || e.message));
      res.on('close', () => done('closed'));
    });
    req.on('error', (e) => {
      if (!this.closed && running && !this.live) fail('GET events', e.code || e.message);
      done(e.code || e.message);
    });
    this.req = req;
  }

  close() {
    this.closed = true;
    if (this.req) this.req.destroy();
  }

  event(text) {
    let id = null;
    let type = 'message';
    const data = [];
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) continue; // a ping
      const c = line.indexOf(':');
      const field = c < 0 ? line : line.slice(0, c);
      const value = c < 0 ? '' : line.slice(c + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) return;
    if (this.firstDone) { this.firstDone(true); this.firstDone = null; }
    this.backoff = 100;
    if (type !== 'state') {
      bump(st.otherEvents, type); // "gone": the game was deleted
      return;
    }
    let state;
    try {
      state = JSON.parse(data.join('\n'));
    } catch {
      this.dup('data that is not JSON');
      return;
    }
    const version = Number(id);
    const hist = Array.isArray(state.history) ? state.history.map((h) => h.text) : [];
    // Step 1. Event ids grow; history only grows and keeps what it showed.
    if (this.version !== null && !(version > this.version)) this.dup(`version ${version} after ${this.version}`);
    if (state.version !== version) this.dup(`id ${id} for version ${state.version}`);
    if (hist.length < this.hist.length) this.dup(`history shrank from ${this.hist.length} to ${hist.length} plies`);
    for (let i = 0; i < Math.min(hist.length, this.hist.length); i++)
      if (hist[i] !== this.hist[i]) {
        this.dup(`ply ${i + 1} was ${this.hist[i]}, now ${hist[i]}`);
        break;
      }
    // Step 2. The new plies arrive.
    const t = now();
    const from = this.hist.length;
    this.version = version;
    this.hist = hist;
    for (let p = from + 1; p <= hist.length; p++) this.slot.arrived(this, p, t);
  }

  dup(why) {
    st.dup++;
    sample(st.dupSamples, `game ${this.slot.id} ${this.seat < 0 ? 'spectator' : `seat ${this.seat}`}: ${why}`);
  }
}

// ---- games ----

let measureFrom = Infinity; // performance.now() bounds of the measured window
let measureTo = Infinity;

class Slot {
  constructor(index) {
    this.index = index;
    this.creator = { srv: takeServer(), cookie: null };
    this.joiner = { srv: takeServer(), cookie: null };
    this.streams = [];
    this.sent = new Map(); // ply -> {t0, text, ackAt, oppAt}
    this.checked = 0; // plies checked on every stream
    this.ending = false;
    this.timer = null;
    this.busy = false;
  }

  async make() {
    const r = await call(this.creator, 'POST', '/api/games', { variant: opt.variant, online: true, side: 'white',
      name: `Load${this.index}w`, clock_ms: 0, inc_ms: 0 });
    if (r.status !== 201 || !r.json || !r.json.invite) {
      fail('POST games', r.status || r.error);
      return false;
    }
    const j = await call(this.joiner, 'POST', `/api/games/${r.json.id}/join`, { name: `Load${this.index}b`, token: r.json.invite });
    if (j.status !== 200 || !j.json) {
      fail('POST join', j.status || j.error);
      return false;
    }
    st.gamesMade++;
    this.id = r.json.id;
    this.state = j.json;
    this.sent.clear();
    this.checked = 0;
    this.ending = false;
    return true;
  }

  streamsFor(spectators) {
    this.streams = [new Stream(this, this.creator.srv, this.creator.cookie, 0),
      new Stream(this, this.joiner.srv, this.joiner.cookie, 1),
      ...spectators.map((srv) => new Stream(this, srv, null, -1))];
  }

  plies() { return this.state.history.length; }

  arrived(stream, ply, t) {
    const rec = this.sent.get(ply);
    if (!rec) return;
    const counted = rec.t0 >= measureFrom && rec.t0 < measureTo;
    if (counted) st.latAll.push(t - rec.t0);
    if (stream.seat >= 0 && stream.seat !== rec.seat && rec.oppAt === undefined) {
      rec.oppAt = t;
      if (counted) st.latOpp.push(t - rec.t0);
    }
  }

  schedule(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.move(), delay);
  }

  async move() {
    if (!playing || this.ending || this.busy) return;
    this.busy = true;
    const t0 = now();
    const state = this.state;
    if (state.result && state.result.over) return this.end();
    if (!state.moves || !state.moves.length) {
      this.busy = false;
      return this.resync(this.creator).then(() => this.schedule(opt.interval));
    }
    // Step 1. The player to move sends a random legal move.
    const seat = state.side === 0 ? 0 : 1;
    const who = seat === 0 ? this.creator : this.joiner;
    const m = state.moves[Math.floor(random() * state.moves.length)];
    const ply = state.history.length + 1;
    const rec = { t0, text: m.text, seat };
    this.sent.set(ply, rec);
    const r = await call(who, 'POST', `/api/games/${this.id}/move`, { move: m.text });
    // Step 2. Its answer: the state after it, or a resynchronisation.
    if (r.status === 200 && r.json && Array.isArray(r.json.history)) {
      rec.ackAt = now();
      st.moves++;
      if (t0 >= measureFrom && t0 < measureTo) {
        st.movesMeasured++;
        st.latPost.push(rec.ackAt - t0);
      }
      const h = r.json.history;
      if (h.length !== ply || h[ply - 1].text !== m.text) {
        st.wrong++;
        sample(st.wrongSamples, `game ${this.id}: ${m.text} answered with ${h.length} plies, last ${h.length ? h[h.length - 1].text : '-'}`);
      }
      this.state = r.json;
    } else {
      this.sent.delete(ply);
      fail('POST move', r.status || r.error);
      await this.resync(who);
    }
    this.busy = false;
    if (!playing) return;
    if (this.state.result && this.state.result.over) return this.end();
    const spent = now() - t0;
    this.schedule(Math.max(0, opt.interval * (0.9 + 0.2 * random()) - spent));
  }

  async resync(who) {
    const r = await call(who, 'GET', `/api/games/${this.id}`);
    if (r.status === 200 && r.json && Array.isArray(r.json.history)) this.state = r.json;
    else fail('GET game', r.status || r.error);
  }

  // The game is over: once its last move is checked on every stream, a new game
  // between the same two sessions takes its place, with new streams.
  async end() {
    this.ending = true;
    this.busy = false;
    st.gamesEnded++;
    while (this.checked < this.plies()) await sleep(100);
    if (!playing) return;
    for (const s of this.streams) s.close();
    const servers = this.streams.slice(2).map((s) => s.srv);
    for (let tries = 0; playing; tries++) {
      if (await this.make()) break;
      await sleep(Math.min(5000, 500 * (tries + 1)));
    }
    if (!playing) return;
    this.streamsFor(servers);
    await Promise.all(this.streams.map((s) => { s.open(); return s.first; }));
    this.schedule(opt.interval * random());
  }

  // Checks the acknowledged plies that every stream shows, or that are past
  // --lost-after (or all of them, with force).
  sweep(t, force) {
    if (!this.id) return;
    while (this.checked < this.plies()) {
      const p = this.checked + 1;
      const rec = this.sent.get(p);
      if (!rec) { this.checked = p; continue; } // a move not acknowledged (a timeout), found by a resync
      if (rec.ackAt === undefined) break; // its answer has not come yet
      const missing = this.streams.filter((s) => s.hist.length < p);
      if (missing.length && !force && t - rec.ackAt < opt.lostAfter * 1000) break;
      if (missing.length) {
        st.lost++;
        st.lostPairs += missing.length;
        sample(st.lostSamples, `game ${this.id} ply ${p} (${rec.text}): not on ${missing.map((s) => (s.seat < 0 ? 'spectator' : `seat ${s.seat}`)).join(', ')} ` +
          `(${missing.filter((s) => s.live).length} of them connected) ${Math.round(t - rec.ackAt)} ms after its 200`);
      }
      const differ = this.streams.filter((s) => s.hist.length >= p && s.hist[p - 1] !== rec.text);
      if (differ.length) {
        st.wrong++;
        sample(st.wrongSamples, `game ${this.id} ply ${p}: played ${rec.text}, a stream shows ${differ[0].hist[p - 1]}`);
      }
      this.checked = p;
      this.sent.delete(p);
    }
  }
}

// ---- the run ----

function load() { return os.loadavg().map((x) => x.toFixed(2)).join(' '); }

function summary(wall) {
  const opp = Float64Array.from(st.latOpp).sort();
  const all = Float64Array.from(st.latAll).sort();
  const post = Float64Array.from(st.latPost).sort();
  const conns = 2 * opt.games + opt.spectators;
  const per = st.rss.before !== null && st.rss.open !== null ? ((st.rss.open - st.rss.before) / conns) : null;
  return {
    date: new Date().toISOString(), servers: opt.servers, games: opt.games, spectators: opt.spectators,
    duration_s: opt.duration, warmup_s: opt.warmup, interval_ms: opt.interval, seed: opt.seed,
    streams: conns, moves: st.moves, moves_measured: st.movesMeasured,
    moves_per_s: +(st.movesMeasured / opt.duration).toFixed(1),
    latency_ms: { p50: quantile(opp, 0.5), p90: quantile(opp, 0.9), p99: quantile(opp, 0.99), max: opp.length ? opp[opp.length - 1] : null, n: opp.length },
    answer_ms: { p50: quantile(post, 0.5), p99: quantile(post, 0.99), max: post.length ? post[post.length - 1] : null },
    latency_all_streams_ms: { p50: quantile(all, 0.5), p90: quantile(all, 0.9), p99: quantile(all, 0.99), max: all.length ? all[all.length - 1] : null, n: all.length },
    lost: st.lost, lost_stream_deliveries: st.lostPairs, duplicated: st.dup, disagreed: st.wrong,
    failed: st.failed, other_events: st.otherEvents, reconnects: st.reconnects, reconnect_why: st.reconnectWhy, stalls: st.stalls,
    games_made: st.gamesMade, games_ended: st.gamesEnded,
    rss_kb: st.rss, rss_per_stream_kb: per === null ? null : +per.toFixed(1),
    server_cpu: st.cpu.from === null || st.cpu.to === null ? null
      : { cores: +((st.cpu.to - st.cpu.from) / opt.duration).toFixed(2), ms_per_move: +((st.cpu.to - st.cpu.from) * 1000 / Math.max(1, st.movesMeasured)).toFixed(2) },
    client_lag_ms: { p99: +(loopDelay.percentile(99) / 1e6).toFixed(1), max: +(loopDelay.max / 1e6).toFixed(1) },
    loadavg: os.loadavg().map((x) => +x.toFixed(2)), cpus: os.cpus().length, wall_s: +wall.toFixed(1),
    samples: { lost: st.lostSamples, duplicated: st.dupSamples, disagreed: st.wrongSamples },
  };
}

function printSummary(s) {
  const row = (k, v) => console.log(`  ${k.padEnd(30)} ${v}`);
  const l = s.latency_ms;
  const a = s.latency_all_streams_ms;
  const failed = Object.entries(s.failed).map(([k, n]) => `${k}: ${n}`).join(', ') || '0';
  console.log('loadtest summary');
  row('date', s.date);
  row('servers', s.servers.join(', '));
  row('games / spectators / streams', `${s.games} / ${s.spectators} / ${s.streams}`);
  row('measured (after warm-up)', `${s.duration_s} s (warm-up ${s.warmup_s} s), a move every ${s.interval_ms} ms per game`);
  row('moves (measured) / per s', `${s.moves} (${s.moves_measured}) / ${s.moves_per_s}`);
  row('latency to opponent p50/p90', `${ms(l.p50)} / ${ms(l.p90)}`);
  row('latency to opponent p99/max', `${ms(l.p99)} / ${ms(l.max)} (${l.n} moves)`);
  row('latency to every stream p50/p99', `${ms(a.p50)} / ${ms(a.p99)}, max ${ms(a.max)} (${a.n} deliveries)`);
  row('move POST answered p50/p99', `${ms(s.answer_ms.p50)} / ${ms(s.answer_ms.p99)}, max ${ms(s.answer_ms.max)}`);
  row('lost moves', `${s.lost}${s.lost ? ` (${s.lost_stream_deliveries} stream deliveries missing)` : ''}`);
  row('duplicated / disagreed', `${s.duplicated} / ${s.disagreed}`);
  row('failed requests', failed);
  row('stream reconnects / stalls', `${s.reconnects}${s.reconnects ? ` (${Object.entries(s.reconnect_why).map(([k, n]) => `${k}: ${n}`).join(', ')})` : ''} / ${s.stalls}`);
  if (Object.keys(s.other_events).length) row('other events', JSON.stringify(s.other_events));
  row('games made / ended', `${s.games_made} / ${s.games_ended}`);
  row('server RSS before / open', `${mb(s.rss_kb.before)} / ${mb(s.rss_kb.open)}`);
  row('server RSS peak / end', `${mb(s.rss_kb.peak)} / ${mb(s.rss_kb.end)}`);
  row('server RSS per stream', s.rss_per_stream_kb === null ? '- (no --pid)' : `${s.rss_per_stream_kb} kB`);
  row('server CPU (measured time)', s.server_cpu === null ? '- (no --pid)' : `${s.server_cpu.cores} cores, ${s.server_cpu.ms_per_move} ms a move`);
  row('tool event-loop lag p99/max', `${ms(s.client_lag_ms.p99)} / ${ms(s.client_lag_ms.max)}`);
  row('load average (1/5/15 min)', `${s.loadavg.join(' ')} on ${s.cpus} CPUs`);
  for (const [k, list] of Object.entries(s.samples)) for (const x of list) console.log(`  ${k}: ${x}`);
}

async function main() {
  const t0 = now();
  const slots = Array.from({ length: opt.games }, (_, i) => new Slot(i));
  const say = (text) => { if (!opt.quiet) console.log(text); };
  say(`loadtest: ${opt.games} games, ${opt.spectators} spectators, ${opt.duration} s after ${opt.warmup} s of warm-up, ` +
    `on ${opt.servers.join(', ')} (load average ${load()})`);

  // Step 1. The games, 20 at a time.
  for (let i = 0; i < slots.length; i += 20) {
    const ok = await Promise.all(slots.slice(i, i + 20).map((s) => s.make()));
    if (ok.includes(false)) {
      console.error(`loadtest: could not make the games: ${JSON.stringify(st.failed)}`);
      process.exit(2);
    }
  }
  say(`  ${slots.length} games made in ${((now() - t0) / 1000).toFixed(1)} s`);

  // Step 2. The streams: the players' and the spectators', 50 at a time.
  await sleep(500);
  st.rss.before = noteRss();
  const spect = slots.map(() => []);
  for (let j = 0; j < opt.spectators; j++) spect[j % slots.length].push(takeServer());
  slots.forEach((s, i) => s.streamsFor(spect[i]));
  const streams = slots.flatMap((s) => s.streams);
  const t1 = now();
  for (let i = 0; i < streams.length; i += 50) {
    const batch = streams.slice(i, i + 50);
    for (const s of batch) s.open();
    await Promise.all(batch.map((s) => s.first));
  }
  for (let tries = 0; st.streamsOpen < streams.length && tries < 50; tries++) await sleep(100);
  await sleep(1000);
  st.rss.open = noteRss();
  say(`  ${st.streamsOpen} of ${streams.length} streams open in ${((now() - t1) / 1000).toFixed(1)} s; server RSS ` +
    `${mb(st.rss.before)} before, ${mb(st.rss.open)} with them`);

  // Step 3. Play: the warm-up, then the measured time; a sweep checks the moves.
  const start = now();
  measureFrom = start + opt.warmup * 1000;
  measureTo = measureFrom + opt.duration * 1000;
  for (const s of slots) s.schedule(opt.interval * random());
  const sweeper = setInterval(() => {
    const t = now();
    for (const s of slots) s.sweep(t, false);
    for (const s of slots)
      for (const x of s.streams)
        if (x.live && t - x.lastData > 45000 && x.req) { // the server pings every 5 s
          st.stalls++;
          x.req.destroy();
        }
  }, 250);
  const measureTimer = setTimeout(() => { st.cpu.from = cpuSeconds(); loopDelay.enable(); }, opt.warmup * 1000);
  let lastMoves = 0;
  let lastAt = start;
  const progress = setInterval(() => {
    const t = now();
    const r = noteRss();
    const recent = Float64Array.from(st.latOpp.slice(-2000)).sort();
    const nfail = Object.values(st.failed).reduce((a, b) => a + b, 0);
    say(`[${String(Math.round((t - start) / 1000)).padStart(4)} s] moves ${st.moves} (${((st.moves - lastMoves) * 1000 / (t - lastAt)).toFixed(1)}/s)` +
      ` latency p50 ${ms(quantile(recent, 0.5))} p99 ${ms(quantile(recent, 0.99))}` +
      ` | streams ${st.streamsOpen} reconnects ${st.reconnects} | failed ${nfail} | lost ${st.lost} dup ${st.dup}` +
      ` | RSS ${mb(r)} | load ${load()}${t < measureFrom ? ' (warm-up)' : ''}`);
    lastMoves = st.moves;
    lastAt = t;
  }, 10000);
  await sleep((opt.warmup + opt.duration) * 1000);

  // Step 4. Stop playing, let the last moves arrive, then the figures.
  playing = false;
  clearTimeout(measureTimer);
  st.cpu.to = cpuSeconds();
  loopDelay.disable();
  for (const s of slots) clearTimeout(s.timer);
  const stopAt = now();
  const inFlight = () => slots.some((s) => s.busy);
  while (inFlight() && now() - stopAt < 35000) await sleep(50);
  const drainTo = now() + opt.lostAfter * 1000;
  while (now() < drainTo && slots.some((s) => s.checked < s.plies() && !s.streams.every((x) => x.hist.length >= s.plies()))) {
    for (const s of slots) s.sweep(now(), false);
    await sleep(100);
  }
  for (const s of slots) s.sweep(now(), true);
  st.rss.end = noteRss();
  running = false;
  clearInterval(sweeper);
  clearInterval(progress);
  for (const s of slots) for (const x of s.streams) x.close();
  for (const srv of servers) srv.agent.destroy();
  const s = summary((now() - t0) / 1000);
  printSummary(s);
  if (opt.json) fs.writeFileSync(opt.json, `${JSON.stringify(s, null, 1)}\n`);
  const bad = s.lost || s.duplicated || s.disagreed || !s.moves;
  process.exit(bad ? 1 : 0);
}

main().catch((e) => {
  console.error(`loadtest: ${e.stack || e}`);
  process.exit(2);
});
