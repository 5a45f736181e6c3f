// pieces.js - the piece images: one SVG per piece name under pieces/, drawn in a
// 100x100 box with classes b (body), l (outline), d (detail fill), s (detail line),
// coloured for each side by style.css. A name without an image gets a lettered disc.

const SVGNS = 'http://www.w3.org/2000/svg';
export const PIECE_NAMES = [
  'pawn', 'knight', 'bishop', 'rook', 'queen', 'king', 'guard', 'mongoose', 'snake',
  'unicorn', 'phoenix', 'elephant', 'acromantula', 'mortar', 'cobra', 'adjutant',
  'manticore', 'falcon',
];
const images = new Map(); // name -> <svg> element, or null

export async function loadPieces(names) {
  const todo = [...new Set(names)].filter((n) => !images.has(n));
  await Promise.all(todo.map(async (name) => {
    if (!PIECE_NAMES.includes(name)) {
      images.set(name, null);
      return;
    }
    try {
      const r = await fetch(`pieces/${name}.svg`);
      const doc = new DOMParser().parseFromString(await r.text(), 'image/svg+xml');
      const svg = doc.documentElement;
      svg.querySelectorAll('style').forEach((s) => s.remove());
      images.set(name, svg);
    } catch {
      images.set(name, null);
    }
  }));
}

export function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// A <g class="pc first|second"> holding the piece in a 100x100 box.
export function pieceGroup(name, letter, side) {
  const g = svgEl('g', { class: `pc ${side ? 'second' : 'first'}` });
  const img = images.get(name);
  if (img) {
    for (const child of img.childNodes) g.appendChild(document.importNode(child, true));
  } else {
    const f = svgEl('g', { class: 'pc-fallback' });
    f.appendChild(svgEl('circle', { cx: 50, cy: 50, r: 36 }));
    const t = svgEl('text', { x: 50, y: 52 });
    t.textContent = (letter || '?').toUpperCase();
    f.appendChild(t);
    g.appendChild(f);
  }
  const title = svgEl('title');
  title.textContent = `${side ? 'Black' : 'White'} ${name}`;
  g.appendChild(title);
  return g;
}

// A stand-alone <svg> of a piece, for buttons and lists.
export function pieceIcon(name, letter, side, size = 40) {
  const svg = svgEl('svg', { viewBox: '0 0 100 100', width: size, height: size });
  svg.appendChild(pieceGroup(name, letter, side));
  return svg;
}
