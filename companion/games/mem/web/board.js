// Drawing a MeM board and a player's playing space as SVG, from the spectator view: for its
// page module (page.js).
//
// The board is 32 squares in rows of 4, 6, 6, 6, 6, 4 on a 6 x 6 grid (MEM-C1); the view
// gives each square's row and column (companion/games/mem/board.py decides them, under
// house rule mem.board.align), so nothing of the layout is worked out here. Stones are
// drawn in their colours (`colour_name`, one of the eleven of companion/games/mem/colours.py),
// each with a rim, so white, grey and black all stand out from the slate squares.
//
// A playing space is the pattern's stones at their cells (row, column from the first stone,
// in the board's frame, possibly negative), on a grid just large enough to hold them.

import { sideColour } from "../../common.js";

export const STONE_COLOURS = {
  white: "#f3f1ea",
  black: "#17181c",
  red: "#dd3138",
  blue: "#2f6fe4",
  green: "#27a356",
  yellow: "#f5cc1b",
  orange: "#f07c1e",
  purple: "#9150d8",
  brown: "#8d5a2b",
  pink: "#f27fbf",
  grey: "#8e949d",
};
// Rims: light for the dark stones, dark for the rest.
const LIGHT_RIM = new Set(["black", "brown", "purple", "blue"]);

const UNIT = 10; // one square, in SVG units
const MARGIN = 2;
const STONE_R = 3.1;
const TARGETED_SQUARES = 12; // more expected squares than this are not marked
const NARROW_MATCHES = 3; // a pattern matching more groups than this is not marked
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function stoneColour(name) {
  return STONE_COLOURS[name] || "#777";
}

function drawStone(parent, name, r) {
  const stone = svg(
    "circle",
    {
      class: `stone${LIGHT_RIM.has(name) ? " light-rim" : ""}`,
      "data-colour": name,
      r,
      fill: stoneColour(name),
    },
    parent,
  );
  svg("title", {}, stone).textContent = `${name} stone`;
  return stone;
}

export class MemBoardView {
  // svgElement: an empty <svg>; mini: no square numbers and no match marks (wall, overlay).
  constructor(svgElement, { mini = false } = {}) {
    this.svg = svgElement;
    this.mini = mini;
    const size = 2 * MARGIN + 6 * UNIT;
    this.svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    this.svg.setAttribute("role", "img");
    this.svg.classList.add("board", "mem-board", mini ? "mini" : "full");
    svg("rect", { class: "board-bg", x: 0, y: 0, width: size, height: size, rx: 2.5 }, this.svg);
    this.layer = svg("g", { class: "squares" }, this.svg);
    this.squares = new Map(); // square -> {group, stone, signature}
  }

  _build(squares) {
    this.layer.replaceChildren();
    this.squares.clear();
    for (const { square, row, col } of squares) {
      const x = MARGIN + col * UNIT;
      const y = MARGIN + row * UNIT;
      const group = svg(
        "g",
        { class: "square", "data-square": square, transform: `translate(${x} ${y})` },
        this.layer,
      );
      svg("rect", { class: "cell", x: 0.45, y: 0.45, width: UNIT - 0.9, height: UNIT - 0.9, rx: 1.2 }, group);
      const marks = svg("g", { class: "match-marks" }, group);
      const stone = svg("g", { class: "stone-slot", transform: `translate(${UNIT / 2} ${UNIT / 2})` }, group);
      if (!this.mini) {
        const number = svg("text", { class: "number", x: 1.05, y: 2.25 }, group);
        number.textContent = square;
      }
      svg("rect", { class: "ring", x: 0.45, y: 0.45, width: UNIT - 0.9, height: UNIT - 0.9, rx: 1.2 }, group);
      this.squares.set(square, { group, stone, marks, signature: "" });
    }
    this.layout = squares.map((s) => `${s.row},${s.col}`).join(" ");
  }

  // view: MeM's spectator view (or null); lastSquares: the squares the last event named.
  update(view, { lastSquares = [] } = {}) {
    const squares = (view && view.squares) || [];
    const layout = squares.map((s) => `${s.row},${s.col}`).join(" ");
    if (layout !== this.layout) this._build(squares);
    const expected = (view && view.expected && view.expected.places) || [];
    const marked = new Set(expected.length <= TARGETED_SQUARES ? expected : []);
    const last = new Set(lastSquares);
    const barred = new Set((view && view.barred) || []);
    const pending = view && view.pending ? view.pending.square : null;
    const pledged = view ? view.pledged : null;
    const matched = this._matched(view);
    for (const { square, colour_name: name } of squares) {
      const entry = this.squares.get(square);
      const group = entry.group;
      group.classList.toggle("empty", !name);
      group.classList.toggle("last", last.has(square));
      group.classList.toggle("expected", marked.has(square));
      group.classList.toggle("barred", barred.has(square));
      group.classList.toggle("held", square === pending);
      group.classList.toggle("pledged", square === pledged);
      const sides = matched.get(square) || [];
      const signature = JSON.stringify([name, sides]);
      if (signature === entry.signature) continue;
      entry.signature = signature;
      entry.stone.replaceChildren();
      if (name) drawStone(entry.stone, name, this.mini ? 3.9 : STONE_R);
      entry.marks.replaceChildren();
      // A small corner per side whose pattern matches a group through this square: side 0
      // bottom left, side 1 bottom right.
      for (const side of sides) {
        const left = side === 0;
        const x = left ? 0.45 : UNIT - 0.45;
        const dx = left ? 2.2 : -2.2;
        svg(
          "path",
          {
            class: "match",
            "data-side": side,
            d: `M ${x} ${UNIT - 0.45} h ${dx} L ${x} ${UNIT - 0.45 - 2.2} Z`,
            fill: sideColour(undefined, side),
          },
          entry.marks,
        );
      }
    }
  }

  // square -> the sides whose pattern matches a group holding it (full board only). Only
  // a pattern down to a few groups is marked: a short one matches half the board, and
  // marking all of that would say nothing.
  _matched(view) {
    const found = new Map();
    if (this.mini || !view) return found;
    (view.sides || []).forEach((side, i) => {
      const matches = side.matches || [];
      if (matches.length > NARROW_MATCHES) return;
      for (const match of matches) {
        for (const square of match.squares || []) {
          const sides = found.get(square) || [];
          if (!sides.includes(i)) sides.push(i);
          found.set(square, sides);
        }
      }
    });
    return found;
  }
}

// A player's playing space: the pattern's stones at their cells.
export class PatternView {
  constructor(svgElement) {
    this.svg = svgElement;
    this.svg.setAttribute("role", "img");
    this.svg.classList.add("playing-space");
    this.signature = null;
  }

  // pattern: [{row, col, colour_name}] as in the view's sides[i].pattern.
  update(pattern) {
    const stones = pattern || [];
    const signature = JSON.stringify(stones.map((s) => [s.row, s.col, s.colour_name]));
    if (signature === this.signature) return;
    this.signature = signature;
    this.svg.replaceChildren();
    const rows = stones.map((s) => s.row).concat(0);
    const cols = stones.map((s) => s.col).concat(0);
    const top = Math.min(...rows);
    const left = Math.min(...cols);
    const height = Math.max(...rows) - top + 1;
    const width = Math.max(...cols) - left + 1;
    const pad = 0.8;
    this.svg.setAttribute(
      "viewBox",
      `${-pad} ${-pad} ${width * UNIT + 2 * pad} ${height * UNIT + 2 * pad}`,
    );
    this.svg.setAttribute("aria-label", `a pattern of ${stones.length} stone${stones.length === 1 ? "" : "s"}`);
    svg("rect", { class: "space-bg", x: -pad, y: -pad, width: width * UNIT + 2 * pad, height: height * UNIT + 2 * pad, rx: 1.5 }, this.svg);
    for (const stone of stones) {
      const x = (stone.col - left) * UNIT;
      const y = (stone.row - top) * UNIT;
      const group = svg(
        "g",
        { class: "pattern-cell", "data-cell": `${stone.row},${stone.col}`, transform: `translate(${x} ${y})` },
        this.svg,
      );
      svg("rect", { class: "cell", x: 0.45, y: 0.45, width: UNIT - 0.9, height: UNIT - 0.9, rx: 1.2 }, group);
      const slot = svg("g", { transform: `translate(${UNIT / 2} ${UNIT / 2})` }, group);
      drawStone(slot, stone.colour_name, STONE_R + 0.3);
    }
  }
}
