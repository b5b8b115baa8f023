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
  showInputs(page);
  $("drawing").hidden = !page.drawing;
  shapes.update(page.view, {}, page.drawing);
  $("board").textContent = (page.board || []).join("\n");
}

// The moves this side makes in secret: a form each, sent to the table as this side's.
function showInputs(page) {
  const box = $("inputs");
  const key = JSON.stringify(page.inputs || []);
  if (box.dataset.key === key) return; // unchanged: keep what the player is choosing
  box.dataset.key = key;
  box.replaceChildren();
  for (const input of page.inputs || []) {
    const form = document.createElement("form");
    form.className = "side-input";
    const fields = [];
    for (const field of input.fields) {
      const label = document.createElement("label");
      label.textContent = field.label;
      let control;
      if (field.choices.length) {
        control = document.createElement("select");
        field.choices.forEach((choice, index) => {
          const option = document.createElement("option");
          option.value = String(index);
          option.textContent = choice.text;
          control.append(option);
        });
      } else {
        control = document.createElement("input");
        control.type = "text";
        control.autocomplete = "off";
      }
      control.name = field.name;
      label.append(control);
      form.append(label);
      fields.push([field, control]);
    }
    const send = document.createElement("button");
    send.type = "submit";
    send.textContent = input.label;
    form.append(send);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const action = { type: input.action, side: page.side };
      for (const [field, control] of fields) {
        action[field.name] = field.choices.length
          ? field.choices[Number(control.value)].value
          : control.value;
      }
      send.disabled = true;
      try {
        const answer = await fetch(`${base}/action`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(action),
        });
        const said = await answer.json();
        $("problem").textContent = said.ok ? "" : said.problem;
      } catch (error) {
        $("problem").textContent = "not sent: the table did not answer";
      } finally {
        send.disabled = false;
      }
    });
    box.append(form);
  }
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
