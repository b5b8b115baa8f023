// Drawing a MemWars board (the Macunx) as SVG, from the spectator view of the stream: the
// board of its page module (page.js).
//
// Places sit on an 18 x 18 lattice, x east and y south from the north-west corner, as in
// companion/games/memwars/board.py (rules MW-B5..B7):
//
//   place n (1..100) -> quadrant Q = floor((n-1)/25)+1, quincunx q = floor(((n-1)%25)/5)+1,
//                       spot p = (n-1)%5+1
//   x = 9*col(Q) + 3*zx(q) + zx(p),   y = 9*row(Q) + 3*zy(q) + zy(p)
//   Z offsets z(1)=(0,0) z(2)=(2,0) z(3)=(1,1) z(4)=(0,2) z(5)=(2,2) (a "Z" through a 3x3 grid)
//   quadrant cells Q1 (0,0) Q2 (1,0) Q3 (0,1) Q4 (1,1)
//
// The drawing adds a gap between the quadrants (after lattice column and row 8) so that
// they read as four boards; it does not move any place relative to its quadrant.

import { sideColour } from "../../common.js";

const CHALLENGE_COLOUR = "#e8e8e8";
const BOARD_COLOUR = "#9aa3b5"; // the board as a holder, and a side without a colour

const Z = { 1: [0, 0], 2: [2, 0], 3: [1, 1], 4: [0, 2], 5: [2, 2] };
const QUADRANT_CELL = { 1: [0, 0], 2: [1, 0], 3: [0, 1], 4: [1, 1] };
const CHALLENGE = -1;
const NOBODY = -3;
const BOARD = -2;

export function address(place) {
  const n = place - 1;
  return [Math.floor(n / 25) + 1, Math.floor((n % 25) / 5) + 1, (n % 5) + 1];
}

export function lattice(place) {
  const [quadrant, quincunx, spot] = address(place);
  const [qx, qy] = QUADRANT_CELL[quadrant];
  const [kx, ky] = Z[quincunx];
  const [px, py] = Z[spot];
  return [9 * qx + 3 * kx + px, 9 * qy + 3 * ky + py];
}

const UNIT = 10; // one lattice step, in SVG units
const GAP = 6; // between quadrants
const MARGIN = 3;
const LABEL = 10; // the band above and below the board for quadrant names
const SVG = "http://www.w3.org/2000/svg";
const TARGETED_PLACES = 12; // more expected places than this are "anywhere free"

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class BoardView {
  // svgElement: an empty <svg>; mini: no numbers and no quadrant names (wall, overlay).
  constructor(svgElement, { mini = false } = {}) {
    this.svg = svgElement;
    this.mini = mini;
    this.label = mini ? 0 : LABEL;
    const size = 2 * MARGIN + 18 * UNIT + GAP;
    this.svg.setAttribute("viewBox", `0 0 ${size} ${size + 2 * this.label}`);
    this.svg.setAttribute("role", "img");
    this.svg.classList.add("board", mini ? "mini" : "full");
    this.places = new Map(); // place -> {group, tile, pieces, signature}
    this.quadrants = new Map(); // quadrant -> {group, name}
    this._build(size);
  }

  _x(x) {
    return MARGIN + x * UNIT + (x >= 9 ? GAP : 0) + UNIT / 2;
  }

  _y(y) {
    return this.label + MARGIN + y * UNIT + (y >= 9 ? GAP : 0) + UNIT / 2;
  }

  _build(size) {
    svg("rect", { class: "board-bg", x: 0, y: 0, width: size, height: size + 2 * this.label, rx: 4 }, this.svg);
    for (const quadrant of [1, 2, 3, 4]) {
      const [qx, qy] = QUADRANT_CELL[quadrant];
      const group = svg("g", { class: "quadrant", "data-quadrant": quadrant }, this.svg);
      const left = MARGIN + qx * (9 * UNIT + GAP);
      const top = this.label + MARGIN + qy * (9 * UNIT + GAP);
      svg("rect", { class: "quadrant-bg", x: left + 0.5, y: top + 0.5, width: 9 * UNIT - 1, height: 9 * UNIT - 1, rx: 3 }, group);
      let name = null;
      if (!this.mini) {
        const north = qy === 0;
        name = svg(
          "text",
          {
            class: "quadrant-name",
            "data-quadrant-name": quadrant,
            x: left + 4.5 * UNIT,
            y: north ? this.label * 0.72 : top + 9 * UNIT + MARGIN + this.label * 0.62,
            "text-anchor": "middle",
          },
          this.svg,
        );
        name.textContent = `Quadrant ${quadrant}`;
      }
      for (const quincunx of [1, 2, 3, 4, 5]) {
        const [kx, ky] = Z[quincunx];
        const kl = left + 3 * kx * UNIT;
        const kt = top + 3 * ky * UNIT;
        const k = svg("g", { class: "quincunx", "data-quincunx": `${quadrant}.${quincunx}` }, group);
        svg("rect", { class: "quincunx-bg", x: kl + 0.7, y: kt + 0.7, width: 3 * UNIT - 1.4, height: 3 * UNIT - 1.4, rx: 2.5 }, k);
        const c = (i) => i * UNIT + UNIT / 2;
        svg("line", { class: "quincunx-line", x1: kl + c(0), y1: kt + c(0), x2: kl + c(2), y2: kt + c(2) }, k);
        svg("line", { class: "quincunx-line", x1: kl + c(2), y1: kt + c(0), x2: kl + c(0), y2: kt + c(2) }, k);
      }
      this.quadrants.set(quadrant, { group, name });
    }
    const placesLayer = svg("g", { class: "places" }, this.svg);
    for (let place = 1; place <= 100; place++) {
      const [x, y] = lattice(place);
      const group = svg("g", { class: "place", "data-place": place, transform: `translate(${this._x(x)} ${this._y(y)})` }, placesLayer);
      svg("circle", { class: "ring-last", r: 4.9 }, group);
      const tile = svg("circle", { class: "tile", r: this.mini ? 4.0 : 4.25 }, group);
      if (!this.mini) {
        const number = svg("text", { class: "number", y: 1.0, "text-anchor": "middle" }, group);
        number.textContent = place;
      }
      const pieces = svg("g", { class: "pieces" }, group);
      this.places.set(place, { group, tile, pieces, signature: "", count: 0 });
    }
  }

  // view: the spectator view (or null); lastPlace: the place the last event named (or 0).
  update(view, { lastPlace = 0 } = {}) {
    const sides = (view && view.sides) || [];
    const colours = sides.map((side, i) => sideColour(side.colour, i));
    const inPlay = new Map(((view && view.places) || []).map((p) => [p.place, p]));
    const quadrantsInPlay = new Set((view && view.quadrants) || []);
    const names = (view && view.quadrant_names) || [];
    for (const [quadrant, { group, name }] of this.quadrants) {
      group.classList.toggle("out", Boolean(view) && !quadrantsInPlay.has(quadrant));
      if (name) {
        let text = names[quadrant - 1] || `Quadrant ${quadrant}`;
        if (text.length > 24) text = `${text.slice(0, 23)}…`;
        if (view && !quadrantsInPlay.has(quadrant)) text += " (not in play)";
        if (name.textContent !== text) name.textContent = text;
      }
    }
    // A few expected places (a challenge, a forced place) are marked; a whole board of
    // them (claim anywhere free) is only tinted, and not at all on a mini board.
    const wanted = (view && view.expected && view.expected.places) || [];
    const targeted = wanted.length <= TARGETED_PLACES;
    const expected = new Set(targeted || !this.mini ? wanted : []);
    for (const [place, entry] of this.places) {
      const info = inPlay.get(place) || null;
      const group = entry.group;
      group.classList.toggle("in-play", info !== null);
      group.classList.toggle("expected", targeted && expected.has(place));
      group.classList.toggle("open", !targeted && expected.has(place));
      group.classList.toggle("last", place === lastPlace);
      const holder = info ? info.holder : NOBODY;
      group.classList.toggle("held", holder >= 0 || holder === BOARD);
      const ring = holder >= 0 ? colours[holder] || BOARD_COLOUR : holder === BOARD ? BOARD_COLOUR : "";
      if (ring) entry.tile.style.setProperty("--holder", ring);
      else entry.tile.style.removeProperty("--holder");
      const crystals = info ? info.crystals || [] : [];
      const counters = info ? info.counters || [] : [];
      group.classList.toggle("has-pieces", crystals.length > 0);
      const signature = JSON.stringify([crystals, counters, colours]);
      if (signature === entry.signature) continue;
      entry.signature = signature;
      if (crystals.length > entry.count && this.drawn && view) {
        // A new piece: pulse the place (removed now, added next frame to restart it).
        group.classList.remove("fresh");
        requestAnimationFrame(() => group.classList.add("fresh"));
      }
      entry.count = crystals.length;
      this._drawPieces(entry.pieces, crystals, counters, colours);
    }
    this.drawn = Boolean(view); // pulse new pieces only from the second view on
  }

  _drawPieces(layer, crystals, counters, colours) {
    layer.replaceChildren();
    const mini = this.mini;
    const shown = crystals.length > 6 ? crystals.slice(0, 5) : crystals;
    const perRow = 3;
    const r = mini ? 1.55 : 1.25;
    const spacing = mini ? 3.0 : 2.65;
    const rows = Math.ceil(shown.length / perRow);
    shown.forEach((side, i) => {
      const row = Math.floor(i / perRow);
      const inRow = Math.min(perRow, shown.length - row * perRow);
      const col = i % perRow;
      const cx = (col - (inRow - 1) / 2) * spacing;
      const baseY = mini ? -((rows - 1) * spacing) / 2 : 1.55;
      const cy = baseY + row * (mini ? spacing : 1.9);
      const challenge = side === CHALLENGE;
      const dot = svg(
        "circle",
        {
          class: challenge ? "crystal challenge" : "crystal",
          "data-side": side,
          cx: cx.toFixed(2),
          cy: cy.toFixed(2),
          r,
          fill: challenge ? CHALLENGE_COLOUR : colours[side] || BOARD_COLOUR,
        },
        layer,
      );
      dot.appendChild(document.createElementNS(SVG, "title")).textContent = challenge
        ? "challenge piece"
        : `crystal of side ${side + 1}`;
    });
    if (crystals.length > shown.length) {
      const more = svg("text", { class: "more", x: 0, y: 4.1, "text-anchor": "middle" }, layer);
      more.textContent = `+${crystals.length - shown.length}`;
    }
    const corners = [
      [3.6, -3.4],
      [-3.6, -3.4],
      [3.6, 3.4],
      [-3.6, 3.4],
    ];
    counters.forEach((counter, i) => {
      // top right, top left, bottom right, bottom left; a fifth and more overlap a little
      const [x, y] = corners[i % 4].map((v, axis) => v + Math.floor(i / 4) * (axis ? 0.8 : -1.2));
      const owner = counter.owner >= 0 ? colours[counter.owner] || BOARD_COLOUR : BOARD_COLOUR;
      const visible = counter.face_up && counter.value !== null && counter.value !== undefined;
      const g = svg(
        "g",
        {
          class: visible ? "counter face-up" : "counter face-down",
          "data-owner": counter.owner,
          transform: `translate(${x} ${y})`,
        },
        layer,
      );
      if (visible) {
        svg("circle", { r: mini ? 1.7 : 1.95, stroke: owner }, g);
        if (!mini) {
          const value = svg("text", { y: 0.85, "text-anchor": "middle" }, g);
          value.textContent = counter.value;
        }
      } else {
        const s = mini ? 1.5 : 1.7;
        svg("rect", { x: -s, y: -s, width: 2 * s, height: 2 * s, rx: 0.4, transform: "rotate(45)", stroke: owner }, g);
        if (!mini) {
          const mark = svg("text", { y: 0.8, "text-anchor": "middle" }, g);
          mark.textContent = "?";
        }
      }
      const title = document.createElementNS(SVG, "title");
      title.textContent = visible
        ? `topology counter, value ${counter.value}`
        : counter.owner === NOBODY
          ? "topology counter, face down"
          : `topology counter of side ${counter.owner + 1}, face down`;
      g.appendChild(title);
    });
  }
}
