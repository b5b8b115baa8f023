// The tournament wall (/wall): every board under the prefix as a card, and standings.
//
// Subscribes to <prefix>/+/state (retained), <prefix>/+/status and <prefix>/+/clock.
// Standings count every game the wall has seen, keyed by board and game id, by side name:
// games, wins (finished games only; a shared win counts for each winner) and points (the
// score totals of those games, summed). Sorted by wins, then points, then name. A board's
// retained state is only its current game, so the games seen are kept in this browser's
// storage (one record per broker and prefix): a reload, or a wall PC restarted mid-event,
// keeps the standings. "Start afresh" forgets them.
//
// When a tournament hub runs (companion tournament run, docs/tournament.md), its retained
// standings and pairings (<prefix>/<hub>/standings/<division>, .../pairings/<division>) are
// shown instead: the event's own, with tie-breaks and ratings, whatever this browser saw.

import {
  LiveClock,
  badTopicLevel,
  compactClockText,
  el,
  loadSettings,
  parseJson,
  setText,
  sideColour,
  winnersOf,
} from "./common.js";
import { GameBoard, canDraw, gameMeta, marksOf, outcomeText } from "./game-board.js";
import { MqttClient } from "./mqtt-ws.js";

const settings = await loadSettings();
const boards = new Map(); // board id -> {state, status, clock, card}
const games = loadGames(); // "board#game_id" -> {names, totals, winners, over}
const ui = {
  cards: document.getElementById("cards"),
  waiting: document.getElementById("waiting"),
  standings: document.querySelector("#standings tbody"),
  status: document.getElementById("status"),
  meta: document.getElementById("meta"),
  afresh: document.getElementById("afresh"),
  event: document.getElementById("event"),
  local: document.getElementById("local-standings"),
};
const hub = { standings: new Map(), pairings: new Map() }; // division -> payload
renderStandings();
ui.afresh.addEventListener("click", () => {
  if (!window.confirm("Forget every game on these standings? The boards' current games stay.")) {
    return;
  }
  games.clear();
  for (const entry of boards.values()) if (entry.state) recordGame(entry.id, entry.state);
  saveGames();
  renderStandings();
});
let broker = "connecting";
let failed = false;

setText(ui.waiting, `Waiting for boards under ${settings.prefix}/ on ${settings.broker}…`);

const client = new MqttClient(settings.broker, {
  username: settings.username,
  password: settings.password,
  keepalive: settings.keepalive,
});
client.subscribe(`${settings.prefix}/+/state`, 1);
client.subscribe(`${settings.prefix}/+/status`, 1);
client.subscribe(`${settings.prefix}/+/clock`, 0);
client.subscribe(`${settings.prefix}/+/standings/+`, 1);
client.subscribe(`${settings.prefix}/+/pairings/+`, 1);
client.on("status", (status, detail) => {
  broker = status;
  if (status === "offline") failed = true;
  const state = status === "connected" ? "live" : failed ? "offline" : "connecting";
  ui.status.dataset.state = state;
  ui.status.title = status === "connected" ? "" : `no connection to ${settings.broker} ${detail}`;
  setText(ui.status, { connecting: "connecting…" }[state] || state);
  document.body.classList.toggle("is-offline", state === "offline");
});
client.on("message", (topic, payload) => {
  if (!topic.startsWith(`${settings.prefix}/`)) return;
  const rest = topic.slice(settings.prefix.length + 1);
  const levels = rest.split("/");
  if (levels.length === 3 && (levels[1] === "standings" || levels[1] === "pairings")) {
    onHub(levels[1], levels[2], parseJson(payload));
    return;
  }
  const cut = rest.lastIndexOf("/");
  const id = rest.slice(0, cut);
  const kind = rest.slice(cut + 1);
  if (badTopicLevel(id)) return;
  if (kind === "state") onState(id, parseJson(payload));
  else if (kind === "status") onStatus(id, payload.trim());
  else if (kind === "clock") {
    const message = parseJson(payload);
    const entry = boards.get(id);
    if (message && entry) entry.clock.update(message, message.t);
  }
});
client.connect();
window.companionClient = client;

function entryFor(id) {
  let entry = boards.get(id);
  if (!entry) {
    entry = {
      id,
      state: null,
      status: null,
      gameId: undefined,
      clock: new LiveClock(),
      card: buildCard(id),
    };
    boards.set(id, entry);
    placeCards();
  }
  return entry;
}

function onState(id, state) {
  if (!state) {
    // an empty retained state: the board is gone
    const entry = boards.get(id);
    if (entry) {
      entry.card.root.remove();
      boards.delete(id);
      placeCards();
    }
    return;
  }
  const entry = entryFor(id);
  if (state.game_id !== entry.gameId) {
    entry.gameId = state.game_id;
    entry.clock.reset();
  }
  entry.state = state;
  entry.clock.update(state.clock, state.t);
  recordGame(id, state);
  renderCard(entry);
  renderStandings();
}

function onStatus(id, status) {
  if (!status && !boards.has(id)) return;
  const entry = entryFor(id);
  entry.status = status === "online" ? "online" : status ? "offline" : null;
  renderCard(entry);
}

// -- cards -----------------------------------------------------------------------------------

function buildCard(id) {
  const root = el("article", "card");
  root.dataset.board = id;
  const head = el("header", "card-head");
  const dot = el("span", "dot");
  const title = el("span", "card-title");
  head.append(dot, el("span", "board-id", id), title);
  const body = el("div", "card-body");
  const svgNode = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  const view = new GameBoard(svgNode, { mini: true });
  const sides = el("div", "card-sides");
  body.append(svgNode, sides);
  const meta = el("div", "card-meta");
  const prompt = el("div", "card-prompt");
  const event = el("div", "card-event");
  root.append(head, body, meta, prompt, event);
  return { root, dot, title, view, sides, meta, prompt, event, rows: [], rowsKey: "" };
}

function placeCards() {
  const ids = [...boards.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  for (const id of ids) ui.cards.appendChild(boards.get(id).card.root);
  ui.waiting.hidden = boards.size > 0;
  setText(ui.meta, boards.size ? `${boards.size} board${boards.size === 1 ? "" : "s"}` : "");
}

function sidesOf(state) {
  const view = state.view || {};
  if (Array.isArray(view.sides) && view.sides.length) return view.sides;
  return (state.names || []).map((name) => ({ name }));
}

function renderCard(entry) {
  const card = entry.card;
  const state = entry.state;
  card.dot.dataset.state = entry.status || "unknown";
  card.root.classList.toggle("offline", entry.status === "offline");
  card.dot.title = entry.status || "no status yet";
  if (!state) return;
  const view = state.view || {};
  const sides = sidesOf(state);
  setText(card.title, state.title || "");
  card.root.classList.toggle("no-board", !canDraw(state.game, view, state.drawing));
  card.root.dataset.game = state.game || "";
  const last = state.last_event;
  card.view.update(state.game, view, last ? marksOf(state.game, last.event) : {}, state.drawing);
  const key = JSON.stringify(sides.map((s) => [s.name, s.colour]));
  if (key !== card.rowsKey) {
    card.rowsKey = key;
    card.sides.replaceChildren();
    card.rows = sides.map((side, i) => {
      const root = el("div", "card-side side");
      root.dataset.side = i;
      root.style.setProperty("--side", sideColour(side.colour, i));
      const total = el("span", "total");
      const clock = el("span", "clock");
      root.append(el("span", "swatch"), el("span", "name", side.name), total, clock);
      card.sides.appendChild(root);
      return { root, total, clock };
    });
  }
  const scores = (view.scores && view.scores.sides) || [];
  const winners = winnersOf(view);
  card.rows.forEach((row, i) => {
    const score = scores.find((s) => s.side === i) || scores[i];
    setText(row.total, score ? score.total : "");
    row.root.classList.toggle("to-play", view.turn === i && !view.outcome);
    row.root.classList.toggle("winner", winners.includes(i));
  });
  setText(card.meta, gameMeta(state).join(" · "));
  const result = outcomeText(state.game, view, sides.map((s) => s.name));
  card.root.classList.toggle("over", Boolean(result));
  const prompt = result ? `Game over: ${result}` : (view.expected && view.expected.prompt) || "";
  const event = (last && last.text) || "";
  setText(card.prompt, prompt);
  setText(card.event, event.replace(/[.!]$/, "") === prompt ? "" : event);
  tickCard(entry);
}

function tickCard(entry) {
  const players = entry.clock.players();
  entry.card.rows.forEach((row, i) => {
    const player = players && players[i];
    setText(row.clock, compactClockText(player));
    row.clock.classList.toggle("running", Boolean(player && player.running));
    row.clock.classList.toggle("delay", Boolean(player && player.delay_ms > 0));
    row.clock.classList.toggle("warning", Boolean(player && player.warning && !player.flagged));
    row.clock.classList.toggle("flagged", Boolean(player && player.flagged));
  });
}

setInterval(() => {
  for (const entry of boards.values()) tickCard(entry);
}, 100);

// -- standings -------------------------------------------------------------------------------

function storageKey() {
  return `companion.wall.standings:${settings.broker}|${settings.prefix}`;
}

function loadGames() {
  const found = new Map();
  let saved = null;
  try {
    saved = JSON.parse(window.localStorage.getItem(storageKey()) || "null");
  } catch {
    saved = null; // storage refused (a private window) or damaged: start empty
  }
  if (!saved || typeof saved !== "object") return found;
  for (const [key, game] of Object.entries(saved)) {
    if (!game || !Array.isArray(game.names) || !Array.isArray(game.totals)) continue;
    found.set(key, {
      names: game.names.map((name) => String(name)),
      totals: game.totals.map((total) => (typeof total === "number" ? total : 0)),
      winners: new Set(Array.isArray(game.winners) ? game.winners : []),
      over: Boolean(game.over),
    });
  }
  return found;
}

function saveGames() {
  const plain = {};
  for (const [key, game] of games) plain[key] = { ...game, winners: [...game.winners] };
  try {
    window.localStorage.setItem(storageKey(), JSON.stringify(plain));
  } catch {
    // storage full or refused: the standings still hold until the page closes
  }
}

function recordGame(id, state) {
  const view = state.view || {};
  const sides = sidesOf(state);
  const scores = (view.scores && view.scores.sides) || [];
  const winners = winnersOf(view);
  games.set(`${id}#${state.game_id ?? state.title ?? ""}`, {
    names: sides.map((s) => String(s.name || "").trim()),
    totals: sides.map((_, i) => {
      const score = scores.find((s) => s.side === i) || scores[i];
      return score && typeof score.total === "number" ? score.total : 0;
    }),
    winners: new Set(winners),
    over: Boolean(view.outcome),
  });
  saveGames();
}

// -- the event's own standings, from the hub ------------------------------------------------

function onHub(kind, division, payload) {
  const store = hub[kind];
  if (payload && typeof payload === "object") store.set(division, payload);
  else store.delete(division); // an empty retained message: the division is gone
  renderEvent();
}

function renderEvent() {
  const divisions = [...new Set([...hub.standings.keys(), ...hub.pairings.keys()])].sort();
  ui.event.hidden = divisions.length === 0;
  ui.local.hidden = divisions.length > 0;
  const parts = [];
  for (const division of divisions) {
    const standing = hub.standings.get(division);
    const pairing = hub.pairings.get(division);
    const about = standing || pairing;
    const section = el("section", "event-division");
    section.dataset.division = division;
    const round = about.round ? `round ${about.round}${about.rounds ? ` of ${about.rounds}` : ""}` : "";
    section.append(
      el("h3", "", [division, about.game_title, about.setup, round].filter(Boolean).join(" · ")),
    );
    if (standing) {
      const table = el("table", "event-standings");
      const head = el("tr");
      for (const [label, title] of [
        ["#", ""],
        ["Name", ""],
        ["Pts", "match points"],
        ["Bh", "Buchholz: the opponents' points"],
        ["SB", "Sonneborn-Berger"],
        ["Rating", "ordinal rating: μ − 3σ"],
      ]) {
        const th = el("th", "", label);
        if (title) th.title = title;
        head.append(th);
      }
      const thead = el("thead");
      thead.append(head);
      table.append(thead);
      const body = el("tbody");
      for (const row of standing.standings || []) {
        const tr = el("tr");
        tr.dataset.name = row.name;
        tr.append(
          el("td", "rank", row.rank),
          el("td", "who", row.withdrawn ? `${row.name} (withdrawn)` : row.name),
          el("td", "num points", row.points),
          el("td", "num", row.buchholz),
          el("td", "num", row.sonneborn_berger),
          el("td", "num rating", row.rating ? row.rating.ordinal.toFixed(1) : ""),
        );
        body.append(tr);
      }
      table.append(body);
      section.append(table);
    }
    if (pairing) {
      const list = el("ul", "event-pairings");
      for (const game of pairing.tables || []) {
        const li = el("li");
        li.dataset.board = game.board;
        const done = game.result ? " ✓" : "";
        li.append(el("span", "board", game.board), el("span", "who", game.names.join(" vs ") + done));
        list.append(li);
      }
      for (const name of pairing.byes || []) list.append(el("li", "bye", `${name}: bye`));
      section.append(list);
    }
    parts.push(section);
  }
  ui.event.replaceChildren(el("h2", "", "Standings"), ...parts);
}

function renderStandings() {
  const table = new Map();
  for (const game of games.values()) {
    game.names.forEach((name, i) => {
      if (!name) return;
      const row = table.get(name) || { name, games: 0, wins: 0, points: 0 };
      row.games += 1;
      if (game.over && game.winners.has(i)) row.wins += 1;
      row.points += game.totals[i];
      table.set(name, row);
    });
  }
  const rows = [...table.values()].sort(
    (a, b) => b.wins - a.wins || b.points - a.points || a.name.localeCompare(b.name),
  );
  const body = rows.map((row, i) => {
    const tr = el("tr");
    tr.dataset.name = row.name;
    tr.append(
      el("td", "rank", i + 1),
      el("td", "who", row.name),
      el("td", "num games", row.games),
      el("td", "num wins", row.wins),
      el("td", "num points", row.points),
    );
    return tr;
  });
  ui.standings.replaceChildren(...body);
}
