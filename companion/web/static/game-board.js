// Whatever a page shows of a game beyond names, scores and clocks: the board, the words under
// the title, the result and the side panels of the game a state payload names (`game`). The
// pages name no game: the server lists them in /games.json, each with the module it brings
// for the pages (a file of its own package, served under games/<name>/), and every module is
// loaded here before a page starts. A game without one, or whose module did not load, is
// drawn from the shapes its state sends (`drawing`, shapes-board.js), with the pages' own
// panels and wording.
//
// A game's page module exports:
//
//   class Board            constructor(svgElement, {mini}): its board in an empty <svg>
//                          (mini: the small board of the overlay and the wall, no numbers);
//                          update(view, marks, shapes): the spectator view, or null for an
//                          empty board, and the marks of the events so far.
//   drawable(view)         whether a view has what Board needs.
//   marks(event)           what a game event marks on the board ({lastPlace: 12}), {} for
//                          nothing. The board page keeps a mark until an event gives it
//                          anew, and forgets them all when a new game starts; the wall marks
//                          the last event's only.
//   meta(view)             the game's words under the title, after "Game 3":
//                          ["Move 12", "Play"].
//   outcomeText(view, names)  the result, once view.outcome is set: "Basil wins (a flag
//                          fell)"; names are the sides' names in seating order.
//   buildPanel(side, i)    side i's panel on the board page (not the overlay's row):
//                          {root, total, turn, clock, detail, ...its own parts}. The page
//                          fills in the total, the turn and the clock, and sets the classes
//                          to-play, deciding, leading and winner on root.
//   showPanel(panel, side, score, view)  fills in the panel's own parts: side is
//                          view.sides[i], score its entry in view.scores.sides or null.
//   stylesheet             the URL of its CSS, put in the page before anything is drawn.
//
// Board and drawable are needed; without the others a game gets the pages' own: no marks,
// no words but the game's number, "Basil wins", and a panel with the total or the drawing's
// legend. A module imports the pages' helpers (el, setText, sideColour, sidePanel, ...) from
// common.js, which is "../../common.js" from games/<name>/.
//
// A page keeps one GameBoard per <svg>; when the game changes, the <svg> is replaced by a
// fresh one (same id and label) and the other game's board built in it.

import { winText } from "./common.js";
import { ShapesView } from "./shapes-board.js";

const PAGES = await loadPages(); // game name -> its page module, in the server's order

// The first game with a module (the server lists the flagship first) is drawn empty while
// no state has come.
const DEFAULT_GAME = PAGES.keys().next().value ?? null;

async function loadPages() {
  let games;
  try {
    // Beside this file, wherever the pages are served from.
    const response = await fetch(new URL("games.json", import.meta.url), { cache: "no-store" });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    games = await response.json();
  } catch (error) {
    console.error("No list of games (games.json): every game is drawn from its shapes.", error);
    return new Map();
  }
  const loaded = await Promise.all(
    Object.entries(games).map(async ([name, game]) => {
      if (!game || !game.page) return null;
      try {
        return [name, await loadPage(new URL(game.page, import.meta.url).href)];
      } catch (error) {
        console.error(`The page module of ${name} did not load: drawn from its shapes.`, error);
        return null;
      }
    }),
  );
  const pages = new Map(loaded.filter(Boolean));
  // In the server's order, whichever module loaded first: the same rules win every time.
  const sheets = [...pages.values()].filter((page) => page.stylesheet).map(addStylesheet);
  await Promise.all(sheets);
  return pages;
}

async function loadPage(url) {
  const page = await import(url);
  if (typeof page.Board !== "function" || typeof page.drawable !== "function") {
    throw new Error(`${url} exports no Board and drawable`);
  }
  return page;
}

// Resolves once the page's stylesheet is in, or could not be had (the game is then drawn
// unstyled rather than not at all).
function addStylesheet(page) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = page.stylesheet;
    link.onload = () => resolve();
    link.onerror = () => {
      console.error(`The stylesheet ${page.stylesheet} did not load.`);
      resolve();
    };
    document.head.appendChild(link);
  });
}

// The page module of a game, or null for one drawn from its shapes.
export function pageOf(game) {
  return PAGES.get(game) || null;
}

// shapes: the state's `drawing`, for a game without a module of its own.
export function canDraw(game, view, shapes = null) {
  const page = pageOf(game);
  if (page) return Boolean(view && page.drawable(view));
  return Boolean(shapes);
}

// What an event marks on the game's board; {} for nothing.
export function marksOf(game, event) {
  const page = pageOf(game);
  return page && page.marks && event ? page.marks(event) : {};
}

// The line under a game's title, as words: "Game 3", then the game's own ("Move 12", "Play").
export function gameMeta(state) {
  const view = state.view || {};
  const meta = [];
  if (state.game_id !== undefined && state.game_id !== null) meta.push(`Game ${state.game_id}`);
  const page = pageOf(state.game);
  if (page && page.meta) meta.push(...page.meta(view));
  return meta;
}

// The result of a finished game ("Basil wins", "Ada and Basil share the win"); "" while it
// is not over.
export function outcomeText(game, view, names) {
  if (!view || !view.outcome) return "";
  const page = pageOf(game);
  if (page && page.outcomeText) return page.outcomeText(view, names);
  return winText((view.outcome.winners || []).map((w) => names[w] || `Side ${w + 1}`));
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
    if (this.drawing && game === this.game) return;
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
    const page = pageOf(game);
    this.drawing = new (page ? page.Board : ShapesView)(this.svg, this.options);
  }

  // game: the payload's engine name; view: its view, or null for an empty board; marks:
  // what the events so far mark (marksOf); shapes: the state's `drawing`.
  update(game, view, marks = {}, shapes = null) {
    if (canDraw(game, view, shapes)) {
      this._use(game);
      this.drawing.update(view, marks, shapes);
    } else {
      this.drawing.update(null, marks, null);
    }
  }
}
