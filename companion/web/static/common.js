// What the display page, the overlay, the wall and the games' page modules share: settings,
// clocks, colours, text.

// -- settings ------------------------------------------------------------------------------

// The server's /config.json, then the page's query (?broker= ?prefix= ?board= ?overlay=1,
// ?replay=ID to step through a stored game, ?replay= for the list of them).
export async function loadSettings() {
  const query = new URLSearchParams(location.search);
  let served = {};
  try {
    const response = await fetch("config.json", { cache: "no-store" });
    if (response.ok) served = await response.json();
  } catch {
    // a page opened without the server: the query and the defaults will do
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const host = location.hostname || "127.0.0.1";
  const keepalive = Number(query.get("keepalive"));
  // The served login is for the served broker only: a ?broker= of someone else's choosing
  // (a link sent round, say) connects without it.
  const override = query.get("broker");
  const ownBroker = !override || override === served.broker;
  return {
    broker: reachable(override || served.broker || `${scheme}://${host}:9001`),
    prefix: trimSlashes(query.get("prefix") || served.prefix || "tabletop"),
    board: query.get("board") || served.board || "table-1",
    username: ownBroker ? (served.username ?? null) : null,
    password: ownBroker ? (served.password ?? null) : null,
    overlay: ["1", "true", "yes"].includes((query.get("overlay") || "").toLowerCase()),
    keepalive: keepalive > 0 ? keepalive : 30,
    replay: query.get("replay"), // null: the live game
  };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

// A broker on "127.0.0.1" is the page server's own machine: a browser elsewhere (a second
// screen opening http://pi.local:8080/) reaches it by the name it reached the page by.
function reachable(url) {
  try {
    const broker = new URL(url);
    if (LOOPBACK.has(broker.hostname) && location.hostname && !LOOPBACK.has(location.hostname)) {
      broker.hostname = location.hostname;
      return broker.href;
    }
  } catch {
    // not a URL: the client will say so when it cannot connect
  }
  return url;
}

function trimSlashes(text) {
  return text.replace(/^\/+|\/+$/g, "");
}

// A topic level may not hold the MQTT wildcards or a separator.
export function badTopicLevel(text) {
  return text === "" || /[+#/]/.test(text);
}

// -- clocks --------------------------------------------------------------------------------

export const TENTHS_BELOW_MS = 20000;
export const WARNING_MS = 10000;

// The rules of companion/clock/display.py format_time: h:mm:ss from an hour up, m:ss below,
// s.t (tenths) below 20 s; rounded down, never negative.
export function formatTime(ms, tenthsBelowMs = TENTHS_BELOW_MS) {
  ms = Math.max(0, Math.floor(ms));
  if (ms < tenthsBelowMs && ms < 60000) {
    const tenths = Math.floor(ms / 100);
    return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const seconds = Math.floor(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = String(seconds % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  return `${minutes}:${secs}`;
}

// One board's game clock as last read, counted down locally between readings.
//
// A reading (CLOCK in docs/display.md) says each player's remaining_ms at game second `at`.
// The running player's time is interpolated from the local time the reading arrived; a
// reading inside a message published later than `at` (a retained state) is first aged by
// the message's `t - at`. A simple delay (the reading's delay_ms) runs out first, shown as
// `delay 2.4` while the time stands still; then the time counts down. A player whose
// remaining time went up while running is on an upcount clock: their time is shown as the
// text of each reading, not interpolated.
export class LiveClock {
  constructor() {
    this.reset();
  }

  reset() {
    this.reading = null;
    this.receivedAt = 0;
    this.age = 0;
    this.upcount = new Set();
  }

  update(clock, t) {
    if (!clock || !Array.isArray(clock.players)) return;
    const previous = this.reading;
    if (previous && typeof clock.at === "number" && clock.at < previous.at) return; // older
    if (previous) {
      clock.players.forEach((player, i) => {
        const before = previous.players[i];
        if (
          before &&
          previous.running === i &&
          clock.running === i &&
          player.remaining_ms > before.remaining_ms
        ) {
          this.upcount.add(i);
        }
      });
    }
    this.reading = clock;
    this.receivedAt = performance.now();
    const at = typeof clock.at === "number" ? clock.at : t;
    this.age = typeof t === "number" && typeof at === "number" ? Math.max(0, t - at) * 1000 : 0;
  }

  // [{text, running, flagged, warning, moves, detail, delay_ms}] now, or null without a
  // reading; delay_ms is what is left of a simple delay (0 for none).
  players(now = performance.now()) {
    const reading = this.reading;
    if (!reading) return null;
    return reading.players.map((player, i) => {
      const running = reading.running === i || Boolean(player.running);
      const ticking = running && !reading.paused && !player.flagged && !this.upcount.has(i);
      const delay = Math.max(0, Number(player.delay_ms) || 0); // absent from older readings
      if (!ticking) {
        return { ...player, running: running && !reading.paused, delay_ms: delay };
      }
      const elapsed = this.age + (now - this.receivedAt);
      const delayLeft = Math.max(0, delay - elapsed);
      const ms = Math.max(0, player.remaining_ms - Math.max(0, elapsed - delay));
      return {
        ...player,
        running: true,
        text: formatTime(ms),
        warning: Boolean(player.warning) || ms < WARNING_MS,
        delay_ms: delayLeft,
        // The reading's own `delay 3.5` is stale by now: the delay is counted here.
        detail: delay > 0 ? (delayLeft > 0 ? `delay ${formatTime(delayLeft)}` : "") : player.detail,
      };
    });
  }
}

// What a compact clock (the overlay's rows, the wall's cards) shows: the time, and while a
// simple delay runs, what is left of it: `1:05 d2.4`.
export function compactClockText(player) {
  if (!player) return "";
  return player.delay_ms > 0 ? `${player.text} d${formatTime(player.delay_ms)}` : player.text;
}

// -- colours -------------------------------------------------------------------------------

const PALETTE = {
  red: "#e0474c",
  blue: "#3d7be0",
  green: "#2fae62",
  yellow: "#f0c230",
  orange: "#ef8a2b",
  purple: "#9b5de5",
  pink: "#ec6fb0",
  black: "#30343b",
  white: "#f4f4f4",
  brown: "#9a6a3f",
  teal: "#1fb5a8",
  cyan: "#2bc4e0",
};
const FALLBACK = ["#e0474c", "#3d7be0", "#2fae62", "#f0c230"];

// A side's colour name as a colour to draw with: our palette, else any CSS colour name.
export function sideColour(name, index = 0) {
  const key = String(name || "").trim().toLowerCase();
  if (PALETTE[key]) return PALETTE[key];
  if (key && globalThis.CSS && CSS.supports("color", key)) return key;
  return FALLBACK[index % FALLBACK.length];
}

// -- text ----------------------------------------------------------------------------------

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function setText(node, text) {
  const value = text === undefined || text === null ? "" : String(text);
  if (node.textContent !== value) node.textContent = value;
}

// What every side panel of the board page starts from, for a panel to put in order with its
// own parts: the panel in the side's colour, its header (swatch and name), the line that
// says "to play" or "winner", the clock and the line under it.
export function sidePanel(side, i, className = "side", colour = sideColour(side.colour, i)) {
  const root = el("section", className);
  root.dataset.side = i;
  root.style.setProperty("--side", colour);
  const head = el("header", "side-head");
  head.append(el("span", "swatch"), el("span", "name", side.name));
  const turn = el("div", "turn");
  const clock = el("div", "clock");
  const detail = el("div", "clock-detail");
  return { root, head, turn, clock, detail };
}

// A panel's score: the line, and its total to fill in ("12 points").
export function scoreLine(unit) {
  const line = el("div", "score");
  const total = el("span", "total");
  line.append(total, el("span", "unit", unit));
  return { line, total };
}

// The result by the winners' names: "Basil wins", "Ada, Basil and Chen share the win", or
// "Game over" with nobody named.
export function winText(winners) {
  if (winners.length === 0) return "Game over";
  if (winners.length === 1) return `${winners[0]} wins`;
  return `${winners.slice(0, -1).join(", ")} and ${winners.at(-1)} share the win`;
}

export function winnersOf(view) {
  return (view && view.outcome && view.outcome.winners) || [];
}

export function parseJson(payload) {
  if (!payload) return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}
