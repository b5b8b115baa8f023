// The board page (/) and the OBS overlay (/?overlay=1): one board's live game from MQTT; or,
// with ?replay=ID, a stored game stepped through move by move (/replays/ID.json: the state
// the stream sent after each action), and with ?replay= the list of stored games.
//
// Topics under <prefix>/<board>/: state (retained), event, clock, alert, status (retained,
// "online" / "offline"). Payloads are described in docs/display.md. The board and the side
// panels are drawn for the game the state names, by its own page module (game-board.js).

import {
  LiveClock,
  badTopicLevel,
  compactClockText,
  el,
  loadSettings,
  parseJson,
  scoreLine,
  setText,
  sideColour,
  sidePanel,
} from "./common.js";
import { GameBoard, canDraw, gameMeta, marksOf, outcomeText, pageOf } from "./game-board.js";
import { MqttClient } from "./mqtt-ws.js";

const ALERT_SECONDS = 8;
const MAX_ALERTS = 4;

const settings = await loadSettings();
const overlay = settings.overlay;
document.body.classList.toggle("overlay", overlay);
document.getElementById("screen").hidden = overlay;
document.getElementById("overlay").hidden = !overlay;

const model = {
  state: null,
  gameId: null,
  clock: new LiveClock(),
  lastSeq: -1,
  lastText: "",
  marks: {}, // what the game's events so far mark on its board (marksOf)
  table: null, // "online" | "offline" | null (not heard yet)
  broker: "connecting",
  brokerDetail: "",
  failed: false, // the broker connection failed or was lost at least once
};

const board = new GameBoard(document.getElementById(overlay ? "overlay-board" : "board"), {
  mini: overlay,
});
const ui = {
  title: document.getElementById("title"),
  meta: document.getElementById("meta"),
  status: document.getElementById("status"),
  left: document.getElementById("sides-left"),
  right: document.getElementById("sides-right"),
  outcome: document.getElementById("outcome"),
  waiting: document.getElementById("waiting"),
  banner: document.getElementById("offline-banner"),
  ovStatus: document.getElementById("ov-status"),
  prompt: document.getElementById(overlay ? "ov-prompt" : "prompt"),
  lastEvent: document.getElementById(overlay ? "ov-event" : "last-event"),
  ovSides: document.getElementById("ov-sides"),
  alerts: document.getElementById("alerts"),
};
let panels = []; // per side: the elements to update
let panelsKey = "";
let panelsPage = null; // the page module that built the panels, if one did

setText(ui.waiting, `Waiting for ${settings.board} on ${settings.broker}…`);

// -- MQTT ------------------------------------------------------------------------------------

if (settings.replay !== null) {
  await replay(settings.replay);
} else if (badTopicLevel(settings.board)) {
  setText(ui.waiting, `"${settings.board}" is not a board id (no /, + or #).`);
} else {
  const base = `${settings.prefix}/${settings.board}`;
  const client = new MqttClient(settings.broker, {
    username: settings.username,
    password: settings.password,
    keepalive: settings.keepalive,
  });
  for (const kind of ["state", "event", "alert", "status"]) client.subscribe(`${base}/${kind}`, 1);
  client.subscribe(`${base}/clock`, 0);
  client.on("status", (status, detail) => {
    model.broker = status;
    model.brokerDetail = detail;
    if (status === "offline") model.failed = true;
    if (status !== "connected") model.table = null; // the retained status comes again
    renderStatus();
  });
  client.on("message", (topic, payload) => {
    const kind = topic.slice(base.length + 1);
    if (kind === "status") {
      model.table = payload.trim() === "online" ? "online" : payload.trim() ? "offline" : null;
      renderStatus();
      return;
    }
    const message = parseJson(payload);
    if (kind === "state") onState(message);
    else if (!message) return;
    else if (kind === "event") onEvent(message);
    else if (kind === "clock") model.clock.update(message, message.t);
    else if (kind === "alert") showAlert(message);
    tick();
  });
  client.connect();
  window.companionClient = client; // for the console and the tests
}

// -- replay ----------------------------------------------------------------------------------

async function replay(id) {
  model.table = "replay";
  renderStatus();
  if (!id) {
    await listStoredGames();
    return;
  }
  const frames = await fetchJson(`replays/${encodeURIComponent(id)}.json`);
  if (!Array.isArray(frames) || !frames.length) {
    setText(ui.waiting, `There is no stored game ${id} to step through.`);
    return;
  }
  const bar = document.getElementById("replay-bar");
  const slider = document.getElementById("replay-slider");
  const where = document.getElementById("replay-where");
  bar.hidden = false;
  document.body.classList.add("replaying");
  slider.max = String(frames.length - 1);
  const show = (index) => {
    const at = Math.max(0, Math.min(frames.length - 1, index));
    slider.value = String(at);
    // Each frame stands alone: its marks and sentence are those of its own last event.
    model.gameId = null;
    onState(frames[at]);
    // Steps, not moves: a game's own move number under the title counts differently.
    setText(where, at === 0 ? "Start" : `Step ${at} of ${frames.length - 1}`);
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.getElementById("replay-back").addEventListener("click", () => show(Number(slider.value) - 1));
  document.getElementById("replay-on").addEventListener("click", () => show(Number(slider.value) + 1));
  document.addEventListener("keydown", (key) => {
    const steps = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[key.key];
    if (steps === undefined || key.target === slider) return;
    show(Number.isFinite(steps) ? Number(slider.value) + steps : steps < 0 ? 0 : frames.length - 1);
  });
  show(0);
}

async function listStoredGames() {
  const games = await fetchJson("replays.json");
  const titles = (await fetchJson("games.json")) || {};
  const list = document.getElementById("stored-games");
  if (!Array.isArray(games) || !games.length) {
    setText(ui.waiting, "No stored games to step through yet.");
    return;
  }
  setText(ui.waiting, "Stored games: choose one to step through.");
  document.body.classList.add("listing");
  for (const game of games) {
    const link = el("a", "", game.title || `Game ${game.game_id}`);
    link.href = `?replay=${game.game_id}`;
    const title = (titles[game.game] && titles[game.game].title) || game.game;
    const moves = `${game.actions} step${game.actions === 1 ? "" : "s"}`;
    const item = el("li");
    item.append(link, el("span", "stored-meta", ` · ${title} · ${moves} · ${game.status}`));
    list.append(item);
  }
  list.hidden = false;
}

async function fetchJson(url) {
  try {
    const response = await fetch(url, { cache: "no-store" });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

// -- messages --------------------------------------------------------------------------------

function onState(state) {
  if (!state) {
    // an empty retained message: the table cleared its state
    model.state = null;
    render();
    return;
  }
  if (state.game_id !== model.gameId) {
    model.gameId = state.game_id;
    model.clock.reset();
    model.lastSeq = -1;
    model.lastText = "";
    model.marks = {};
  }
  model.state = state;
  if (typeof state.seq === "number" && state.seq >= model.lastSeq) {
    model.lastSeq = state.seq;
    const last = state.last_event;
    if (last) {
      if (last.text) model.lastText = last.text;
      mark(state.game, last.event);
    }
  }
  model.clock.update(state.clock, state.t);
  render();
}

function onEvent(message) {
  if (typeof message.seq === "number") {
    if (message.seq < model.lastSeq) return;
    model.lastSeq = message.seq;
  }
  if (message.text) model.lastText = message.text;
  const state = model.state;
  if (state) mark(state.game, message.event);
  renderFooter();
  if (state) board.update(state.game, state.view, model.marks, state.drawing);
}

// An event's marks replace those of the same kind; the others stay (a place stays ringed
// until another is named).
function mark(game, event) {
  model.marks = { ...model.marks, ...marksOf(game, event) };
}

// -- drawing ---------------------------------------------------------------------------------

function sidesOf(state) {
  const view = state.view || {};
  if (Array.isArray(view.sides) && view.sides.length) return view.sides;
  return (state.names || []).map((name, i) => ({ name, colour: ["red", "blue", "green", "yellow"][i % 4] }));
}

function render() {
  const state = model.state;
  ui.waiting.hidden = Boolean(state);
  document.body.classList.toggle("no-state", !state);
  if (!state) {
    board.update(null, null);
    renderSides([]);
    renderFooter();
    return;
  }
  const view = state.view || null;
  document.body.classList.toggle("no-board", !canDraw(state.game, view, state.drawing));
  document.body.dataset.game = state.game || "";
  board.update(state.game, view, model.marks, state.drawing);
  setText(ui.title, state.title || `Game ${state.game_id ?? ""}`);
  setText(ui.meta, gameMeta(state).join(" · "));
  renderSides(sidesOf(state));
  const names = sidesOf(state).map((s) => s.name);
  const result = outcomeText(state.game, view, names);
  ui.outcome.hidden = !result;
  setText(ui.outcome, result ? `Game over: ${result}` : "");
  document.body.classList.toggle("game-over", Boolean(result));
  renderFooter();
  tick();
}

function renderFooter() {
  const state = model.state;
  const view = state && state.view;
  const names = state ? sidesOf(state).map((s) => s.name) : [];
  let prompt = (view && view.expected && view.expected.prompt) || "";
  const result = state ? outcomeText(state.game, view, names) : "";
  if (result) prompt = `Game over: ${result}`;
  setText(ui.prompt, prompt);
  setText(ui.lastEvent, sameSentence(model.lastText, prompt) ? "" : model.lastText);
}

function sameSentence(a, b) {
  const bare = (text) => String(text || "").trim().replace(/[.!]$/, "");
  return bare(a) === bare(b);
}

function renderStatus() {
  let state;
  let title = "";
  let banner = "";
  if (model.table === "replay") {
    state = "replay";
    title = "a stored game, stepped through";
  } else if (model.broker !== "connected") {
    state = model.failed ? "offline" : "connecting";
    const why = model.brokerDetail ? ` (${model.brokerDetail})` : "";
    title = `no connection to the broker ${settings.broker}${why}`;
    if (state === "offline") banner = `No connection to the broker${why}: reconnecting…`;
  } else if (model.table === "offline") {
    state = "offline";
    title = `${settings.board} is not streaming`;
    banner = `${settings.board} is offline`;
  } else if (model.table === "online") {
    state = "live";
  } else {
    state = "connected";
    title = `connected; no status from ${settings.board} yet`;
  }
  ui.status.dataset.state = state;
  ui.status.title = title;
  setText(ui.status, { connecting: "connecting…", offline: "offline" }[state] || state);
  setText(ui.banner, banner);
  ui.banner.hidden = !banner;
  ui.ovStatus.hidden = state !== "offline";
  ui.ovStatus.title = title;
  document.body.classList.toggle("is-offline", state === "offline");
}

function renderSides(sides) {
  const game = (model.state && model.state.game) || "";
  const key = JSON.stringify([game, sides.map((s) => [s.name, s.colour])]);
  if (key !== panelsKey) {
    panelsKey = key;
    ui.left.replaceChildren();
    ui.right.replaceChildren();
    ui.ovSides.replaceChildren();
    const page = pageOf(game);
    panelsPage = !overlay && page && page.buildPanel ? page : null;
    panels = sides.map((side, i) => {
      const panel = overlay
        ? buildRow(side, i)
        : panelsPage
          ? panelsPage.buildPanel(side, i)
          : legendOf(model.state)
            ? buildLegendPanel(side, i)
            : buildPanel(side, i);
      if (overlay) ui.ovSides.appendChild(panel.root);
      else (i % 2 === 0 ? ui.left : ui.right).appendChild(panel.root);
      return panel;
    });
  }
  const state = model.state;
  const view = (state && state.view) || {};
  const scores = (view.scores && view.scores.sides) || [];
  const leaders = new Set((view.scores && view.scores.leaders) || []);
  const actor = view.expected ? view.expected.actor : -1;
  panels.forEach((panel, i) => {
    const side = sides[i];
    const score = scores.find((s) => s.side === i) || scores[i] || null;
    panel.root.classList.toggle("to-play", view.turn === i && !view.outcome);
    panel.root.classList.toggle("deciding", actor === i && view.turn !== i && !view.outcome);
    const leading = leaders.has(i) && leaders.size < sides.length && !view.outcome;
    panel.root.classList.toggle("leading", leading);
    panel.root.classList.toggle("winner", Boolean(view.outcome && view.outcome.winners.includes(i)));
    if (panel.total) setText(panel.total, score ? score.total : "");
    if (panel.legend) {
      const entry = (legendOf(state) || [])[i];
      setText(panel.legend, entry ? entry.text : "");
      if (entry && entry.colour) panel.root.style.setProperty("--side", entry.colour);
    }
    if (panel.turn) {
      const turnText = view.outcome
        ? view.outcome.winners.includes(i)
          ? "winner"
          : ""
        : view.turn === i
          ? "to play"
          : actor === i
            ? "to decide"
            : "";
      setText(panel.turn, turnText);
    }
    if (panelsPage && panelsPage.showPanel) panelsPage.showPanel(panel, side, score, view);
  });
}

// A game whose page module has no panels of its own, and that sends no legend: name, turn,
// total and clock.
function buildPanel(side, i) {
  const panel = sidePanel(side, i);
  const score = scoreLine("points");
  panel.root.append(panel.head, panel.turn, score.line, panel.clock, panel.detail);
  return { ...panel, total: score.total };
}

// A game the page draws from the shapes it sends: the side's line of its drawing's legend
// ("4 figures, 5 stones"), in the side's colour.
function legendOf(state) {
  const drawing = state && state.drawing;
  return drawing && Array.isArray(drawing.legend) && drawing.legend.length ? drawing.legend : null;
}

function buildLegendPanel(side, i) {
  const entry = (legendOf(model.state) || [])[i];
  const panel = sidePanel(side, i, "side", (entry && entry.colour) || sideColour(side.colour, i));
  const legend = el("div", "legend");
  panel.root.append(panel.head, panel.turn, legend, panel.clock, panel.detail);
  return { ...panel, legend };
}

function buildRow(side, i) {
  const root = el("div", "ov-side side");
  root.dataset.side = i;
  root.style.setProperty("--side", sideColour(side.colour, i));
  const total = el("span", "total");
  const clock = el("span", "clock");
  root.append(el("span", "swatch"), el("span", "name", side.name), total, clock);
  return { root, total, clock, detail: null, turn: null };
}

// -- clocks ----------------------------------------------------------------------------------

function tick() {
  const players = model.clock.players();
  panels.forEach((panel, i) => {
    const player = players && players[i];
    panel.root.classList.toggle("has-clock", Boolean(player));
    if (!player) {
      setText(panel.clock, "");
      if (panel.detail) setText(panel.detail, "");
      return;
    }
    // The overlay's rows have no line under the time: a running delay goes after it.
    setText(panel.clock, panel.detail ? player.text : compactClockText(player));
    panel.clock.classList.toggle("running", Boolean(player.running));
    panel.clock.classList.toggle("warning", Boolean(player.warning) && !player.flagged);
    panel.clock.classList.toggle("flagged", Boolean(player.flagged));
    panel.clock.classList.toggle("delay", player.delay_ms > 0);
    if (panel.detail) {
      setText(panel.detail, player.flagged ? "flag fell" : player.detail || "");
      panel.detail.classList.toggle("delay", player.delay_ms > 0);
    }
  });
}

setInterval(tick, 100);

// -- alerts ----------------------------------------------------------------------------------

function showAlert(alert) {
  if (!alert.text) return;
  const given = String(alert.level || "").toLowerCase();
  const level = given.startsWith("warn")
    ? "warning"
    : ["error", "critical", "fatal"].includes(given)
      ? "error"
      : "info";
  const node = el("div", `alert level-${level}`);
  node.append(el("span", "alert-text", alert.text));
  if (alert.rule) node.append(el("span", "alert-rule", alert.rule));
  ui.alerts.prepend(node);
  while (ui.alerts.children.length > MAX_ALERTS) ui.alerts.lastElementChild.remove();
  setTimeout(() => node.classList.add("fading"), ALERT_SECONDS * 1000);
  setTimeout(() => node.remove(), ALERT_SECONDS * 1000 + 1000);
}

renderStatus();
render();
