// MemWars on the display page, the overlay and the wall (docs/display.md): its board, its
// words under the title, its result, and the side panels with the score breakdown. Every
// game's page module has the same exports, described at the top of the pages'
// game-board.js.

import { el, setText, scoreLine, sidePanel, winText } from "../../common.js";

export { BoardView as Board } from "./board.js";

export const stylesheet = new URL("page.css", import.meta.url).href;

export function drawable(view) {
  return Array.isArray(view.places);
}

// The place an event names (a claim, a challenge, a counter turned), ringed on the board.
export function marks(event) {
  const place = event && Number(event.place);
  return Number.isInteger(place) && place >= 1 && place <= 100 ? { lastPlace: place } : {};
}

const PHASES = {
  roll_first: "Rolling for first player",
  orient: "Orienting the board",
  roll_depth: "Rolling for depth",
  shuffle: "Shuffling",
  place_counters: "Placing counters",
  play: "Play",
  lightning: "Lightning round",
  over: "Game over",
};

function phaseText(phase) {
  return PHASES[phase] || String(phase || "").replace(/_/g, " ");
}

// "Move 12 · Play".
export function meta(view) {
  const words = [];
  if (view.move) words.push(`Move ${view.move}`);
  if (view.phase) words.push(phaseText(view.phase));
  return words;
}

// The board itself can win: it is the side numbered -2.
const BOARD_SIDE = -2;
const REASONS = {
  flag: "a flag fell",
  no_player_can_move: "no player can move",
  complete: "",
};

// "Basil wins", "Ada and Basil share the win", "The board wins", with the reason for a flag
// or a blocked game: "Ada wins (a flag fell)".
export function outcomeText(view, names) {
  const winners = (view.outcome.winners || []).map((w) =>
    w === BOARD_SIDE ? "The board" : names[w] || `Side ${w + 1}`,
  );
  const reason = REASONS[view.outcome.reason];
  return reason ? `${winText(winners)} (${reason})` : winText(winners);
}

const BREAKDOWN = [
  ["places", "Places"],
  ["counters", "Counters"],
  ["captures", "Captures"],
  ["quadrants", "Quadrants"],
  ["patterns", "Patterns"],
  ["board", "Board"],
];

// Name, turn, total, clock, the score's breakdown and the pieces the side has left.
export function buildPanel(side, i) {
  const panel = sidePanel(side, i);
  const score = scoreLine("points");
  const table = el("dl", "breakdown");
  const rows = {};
  for (const [key, label] of BREAKDOWN) {
    table.append(el("dt", "", label));
    rows[key] = table.appendChild(el("dd"));
  }
  const pieces = el("div", "pieces");
  panel.root.append(panel.head, panel.turn, score.line, panel.clock, panel.detail, table, pieces);
  return { ...panel, total: score.total, rows, pieces };
}

export function showPanel(panel, side, score) {
  if (score) {
    setText(panel.rows.places, `${score.places} · ${score.place_points}`);
    setText(panel.rows.counters, score.counter_points);
    setText(panel.rows.captures, `${score.captures} · ${signed(score.capture_points)}`);
    setText(panel.rows.quadrants, signed(score.quadrant_bonus));
    setText(panel.rows.patterns, signed(score.pattern_points));
    setText(panel.rows.board, signed(score.board_penalty));
  }
  const bits = [];
  if (typeof side.supply === "number") bits.push(`supply ${side.supply}`);
  if (typeof side.challenge_pieces === "number") bits.push(`challenge ${side.challenge_pieces}`);
  if (side.sitting_out) bits.push("sits out");
  setText(panel.pieces, bits.join(" · "));
}

function signed(n) {
  if (typeof n !== "number") return "";
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}
