// A side's private page (/side/<token>): that side's own view of the game in play, kept up
// to date by asking the display server for the view after each move. It names no game: the
// server sends the board as text, the shapes of the board where the game draws them, and
// what this side alone may see.

import { ShapesView } from "/shapes-board.js";

const base = location.pathname.replace(/\/+$/, "");
const $ = (id) => document.getElementById(id);
const shapes = new ShapesView($("drawing"));
let seq = null;

function status(text, state) {
  $("status").textContent = text;
  $("status").dataset.state = state;
}

function show(page) {
  $("title").textContent = `${page.name} · ${page.game}`;
  document.title = `${page.name} · Tabletop companion`;
  $("prompt").textContent = page.yours ? `Your move: ${page.prompt}` : page.prompt;
  $("prompt").classList.toggle("yours", Boolean(page.yours));
  const secrets = $("secrets");
  secrets.replaceChildren();
  for (const item of page.secrets || []) {
    const term = document.createElement("dt");
    term.textContent = item.what;
    const value = document.createElement("dd");
    value.textContent = item.value;
    secrets.append(term, value);
  }
  $("secrets-box").hidden = !(page.secrets && page.secrets.length);
  $("drawing").hidden = !page.drawing;
  shapes.update(page.view, {}, page.drawing);
  $("board").textContent = (page.board || []).join("\n");
}

async function follow() {
  for (;;) {
    const after = seq === null ? "" : `?after=${seq}`;
    try {
      const answer = await fetch(`${base}/view.json${after}`, { cache: "no-store" });
      if (answer.status === 404) {
        status("this page's game is over or put down", "offline");
        return;
      }
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      const page = await answer.json();
      seq = page.seq;
      show(page);
      status("live", "live");
    } catch (error) {
      status("reconnecting…", "offline");
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
}

follow();
