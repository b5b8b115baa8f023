// The board of whichever game a state payload names: MemWars' 100 places, MeM's 32
// squares, or the shapes any other game sends as its `drawing`. A page keeps one GameBoard
// per <svg>; when the game changes, the <svg> is replaced by a fresh one (same id and label)
// and the other game's drawing built in it.

import { BoardView } from "./board.js";
import { MemBoardView } from "./mem-board.js";
import { ShapesView } from "./shapes-board.js";

// Per engine name: its drawing, and whether a view has what that drawing needs.
const DRAWINGS = {
  memwars: { Drawing: BoardView, drawable: (view) => Array.isArray(view.places) },
  mem: { Drawing: MemBoardView, drawable: (view) => Array.isArray(view.squares) },
};
const SHAPES = { Drawing: ShapesView };
const DEFAULT_GAME = "memwars"; // drawn empty while no state has come

// shapes: the state's `drawing`, for a game without a drawing of its own here.
export function canDraw(game, view, shapes = null) {
  const drawing = DRAWINGS[game];
  if (drawing) return Boolean(view && drawing.drawable(view));
  return Boolean(shapes);
}

function drawingFor(game) {
  return DRAWINGS[game] || SHAPES;
}

export class GameBoard {
  constructor(svgElement, options = {}) {
    this.svg = svgElement;
    this.options = options;
    this.game = null;
    this.drawing = null;
    this._use(DEFAULT_GAME);
  }

  _use(game) {
    if (game === this.game) return;
    if (this.drawing) {
      const fresh = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      for (const name of ["id", "aria-label"]) {
        const value = this.svg.getAttribute(name);
        if (value !== null) fresh.setAttribute(name, value);
      }
      this.svg.replaceWith(fresh);
      this.svg = fresh;
    }
    this.game = game;
    this.drawing = new (drawingFor(game).Drawing)(this.svg, this.options);
  }

  // game: the payload's engine name; view: its view, or null for an empty board;
  // marks: {lastPlace} for MemWars, {lastSquares} for MeM; shapes: the state's `drawing`.
  update(game, view, marks = {}, shapes = null) {
    if (canDraw(game, view, shapes)) {
      this._use(game);
      this.drawing.update(view, marks, shapes);
    } else {
      this.drawing.update(null, marks, null);
    }
  }
}
