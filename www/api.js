// api.js - the JSON API of `menagerie serve` (see src/app/web/api.c).

// the round trips of the last requests, for the network delay a move reports
// (the server gives that much back on the clock, within a quota: clock.h)
const trips = [];
export function pingMs() {
  if (!trips.length) return 0;
  const s = [...trips].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]);
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (method !== 'GET') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const t0 = performance.now();
  const r = await fetch(path, init);
  trips.push(performance.now() - t0);
  if (trips.length > 7) trips.shift();
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = { error: `the server answered ${r.status}` };
  }
  if (!r.ok) {
    const e = new Error(data && data.error ? data.error : `error ${r.status}`);
    e.status = r.status;
    throw e;
  }
  return data;
}

export const api = {
  variants: () => call('GET', '/api/variants'),
  levels: () => call('GET', '/api/levels'),
  games: () => call('GET', '/api/games'),
  me: () => call('GET', '/api/me'),
  register: (name, password) => call('POST', '/api/register', { name, password }),
  login: (name, password) => call('POST', '/api/login', { name, password }),
  logout: () => call('POST', '/api/logout'),
  player: (name) => call('GET', `/api/players/${encodeURIComponent(name)}`),
  create: (opts) => call('POST', '/api/games', opts),
  state: (id) => call('GET', `/api/games/${id}`),
  move: (id, move) => call('POST', `/api/games/${id}/move`, { move, lag_ms: Math.round(pingMs() / 2) }),
  go: (id, opts) => call('POST', `/api/games/${id}/go`, opts || {}),
  stop: (id) => call('POST', `/api/games/${id}/stop`),
  undo: (id, count) => call('POST', `/api/games/${id}/undo`, { count }),
  resign: (id, side) => call('POST', `/api/games/${id}/resign`, side === undefined ? {} : { side }),
  draw: (id) => call('POST', `/api/games/${id}/draw`),
  options: (id, opts) => call('POST', `/api/games/${id}/options`, opts),
  remove: (id) => call('DELETE', `/api/games/${id}`),
  join: (id, name, token) => call('POST', `/api/games/${id}/join`, token ? { name, token } : { name }),
  eventsUrl: (id) => `/api/games/${id}/events`,
  abort: (id) => call('POST', `/api/games/${id}/abort`),
  lobby: () => call('GET', '/api/lobby'),
  lobbyUrl: '/api/lobby/events',
  seek: (opts) => call('POST', '/api/seeks', opts),
  cancelSeek: (id) => call('DELETE', `/api/seeks/${id}`),
  acceptSeek: (id, name) => call('POST', `/api/seeks/${id}/accept`, { name }),
  claim: (id, result) => call('POST', `/api/games/${id}/claim`, { result }),
  exportUrl: (id) => `/api/games/${id}/export`,
  exportText: async (id) => {
    const r = await fetch(`/api/games/${id}/export`);
    if (!r.ok) throw new Error(`the server answered ${r.status}`);
    return r.text();
  },
  importGame: (pgn, opts) => call('POST', '/api/import', { pgn, ...opts }),
  analyse: (id, ply, movetime) => call('POST', `/api/games/${id}/analysis`, { ply, movetime_ms: movetime }),
  analysis: (id) => call('GET', `/api/games/${id}/analysis`),
  positions: (id) => call('GET', `/api/games/${id}/positions`),
  checkPosition: (variant, fen) => call('POST', '/api/position', { variant, fen }),
  diagram: (variant, piece, side, square) => call('POST', '/api/diagram', { variant, piece, side, square }),
};
