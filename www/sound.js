// sound.js - short move, capture and check sounds made with Web Audio (no files),
// switched on and off by the button in the top bar; the choice is remembered.

const KEY = 'menagerie-sound';
let ctx = null;

export function soundOn() { return localStorage.getItem(KEY) !== 'off'; }

export function setSound(on) { localStorage.setItem(KEY, on ? 'on' : 'off'); }

function tone(freq, start, length, gain) {
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = 'triangle';
  o.frequency.value = freq;
  g.gain.setValueAtTime(gain, ctx.currentTime + start);
  g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + start + length);
  o.connect(g).connect(ctx.destination);
  o.start(ctx.currentTime + start);
  o.stop(ctx.currentTime + start + length);
}

// kind: 'move', 'capture', 'check' or 'end'
export function playSound(kind) {
  if (!soundOn()) return;
  try {
    ctx = ctx || new AudioContext();
    if (ctx.state === 'suspended') ctx.resume();
    if (kind === 'capture') { tone(330, 0, 0.09, 0.25); tone(220, 0.06, 0.12, 0.2); }
    else if (kind === 'check') { tone(660, 0, 0.08, 0.2); tone(880, 0.09, 0.14, 0.2); }
    else if (kind === 'end') { tone(523, 0, 0.15, 0.2); tone(392, 0.14, 0.3, 0.2); }
    else tone(440, 0, 0.07, 0.2);
  } catch { /* no audio here */ }
}
