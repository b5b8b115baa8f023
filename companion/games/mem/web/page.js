// MeM on the display page, the overlay and the wall (docs/display.md): its 32 squares, its
// words under the title, its result in stones, and the side panels with each player's
// playing space drawn. Every game's page module has the same exports, described at the top
// of the pages' game-board.js.

import { el, setText, scoreLine, sidePanel } from "../../common.js";
import { PatternView } from "./board.js";

export { MemBoardView as Board } from "./board.js";

export const stylesheet = new URL("page.css", import.meta.url).href;

export function drawable(view) {
  return Array.isArray(view.squares);
}

// The squares an event names (a stone taken, asked about, blocked; a group captured).
export function marks(event) {
  if (!event) return {};
  const named = Array.isArray(event.squares) ? event.squares : [event.square];
  const squares = named.filter((square) => Number.isInteger(square) && square >= 0 && square < 32);
  return squares.length ? { lastSquares: squares } : {};
}

// "Mini-MEM · Turn 7 · 20 stones on the board".
export function meta(view) {
  const words = [];
  if (view.variant_title) words.push(view.variant_title);
  if (view.turn_number && !view.outcome) words.push(`Turn ${view.turn_number}`);
  if (typeof view.stones_on_board === "number") {
    words.push(`${view.stones_on_board} stones on the board`);
  }
  return words;
}

// "Bo wins, 11 to 6" (stones), "A draw, 8 each", "Bo wins on time"; MEM-Solitaire: "Ada wins
// with 16 stones" or "Not won: a pattern of 11 stones".
export function outcomeText(view, names) {
  const { winners = [], scores = [], reason = "" } = view.outcome;
  const name = (i) => names[i] || `Player ${i + 1}`;
  if (reason === "time" && winners.length) return `${winners.map(name).join(" and ")} wins on time`;
  if (scores.length === 1) {
    const stones = `${scores[0]} stone${scores[0] === 1 ? "" : "s"}`;
    return winners.length ? `${name(0)} wins with ${stones}` : `Not won: a pattern of ${stones}`;
  }
  if (!winners.length) {
    return scores.every((s) => s === scores[0]) ? `A draw, ${scores[0]} each` : "A draw";
  }
  const others = scores.filter((_, i) => !winners.includes(i));
  return `${winners.map(name).join(" and ")} wins, ${scores[winners[0]]} to ${others.join(", ")}`;
}

// The stones held (pattern and captured pile) and the playing space, drawn.
export function buildPanel(side, i) {
  const panel = sidePanel(side, i, "side mem-side");
  const score = scoreLine("stones");
  const table = el("dl", "breakdown");
  const rows = {};
  for (const [key, label] of [
    ["pattern", "In the pattern"],
    ["pile", "Captured"],
  ]) {
    table.append(el("dt", "", label));
    rows[key] = table.appendChild(el("dd"));
  }
  const spaceBox = el("div", "space");
  spaceBox.dataset.empty = "no stones yet";
  const svgNode = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  spaceBox.append(svgNode);
  const space = new PatternView(svgNode);
  const pieces = el("div", "pieces");
  panel.root.append(
    panel.head,
    panel.turn,
    score.line,
    panel.clock,
    panel.detail,
    table,
    spaceBox,
    pieces,
  );
  return { ...panel, total: score.total, rows, pieces, space, spaceBox };
}

export function showPanel(panel, side) {
  setText(panel.rows.pattern, side.pattern ? side.pattern.length : "");
  setText(panel.rows.pile, side.pile ?? "");
  panel.space.update(side.pattern);
  panel.spaceBox.classList.toggle("empty", !(side.pattern && side.pattern.length));
  const notes = [];
  if (side.lock) notes.push("locked by a block");
  if (side.dead) notes.push("pattern matches nothing");
  if (side.out) notes.push("out");
  setText(panel.pieces, notes.join(" · "));
}
