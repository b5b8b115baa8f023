// Drawing a board the game sends as plain shapes (the state's `drawing`, docs/mqtt.md):
// lines, spots with the pieces on them, and texts, in the board's own units. Any game whose
// plugin draws its board this way is shown with no code of its own here.

const SVG = "http://www.w3.org/2000/svg";
const MARGIN = 0.04; // of the board's larger side, around it

function svg(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class ShapesView {
  constructor(svgElement, options = {}) {
    this.svg = svgElement;
    this.mini = Boolean(options.mini);
    this.svg.setAttribute("viewBox", "0 0 100 100");
    this.svg.classList.add("shapes-board");
  }

  // view: unused (the drawing is made from it already); marks: unused; drawing: the shapes,
  // or null for an empty board.
  update(view, marks = {}, drawing = null) {
    while (this.svg.firstChild) this.svg.removeChild(this.svg.firstChild);
    if (!drawing) return;
    const margin = MARGIN * Math.max(drawing.width, drawing.height);
    this.svg.setAttribute(
      "viewBox",
      `${-margin} ${-margin} ${drawing.width + 2 * margin} ${drawing.height + 2 * margin}`,
    );
    if (drawing.background) {
      svg(
        "rect",
        {
          x: -margin,
          y: -margin,
          width: drawing.width + 2 * margin,
          height: drawing.height + 2 * margin,
          rx: margin,
          fill: drawing.background,
        },
        this.svg,
      );
    }
    for (const line of drawing.lines || []) {
      svg(
        "polyline",
        {
          points: line.points.map(([x, y]) => `${x},${y}`).join(" "),
          fill: "none",
          stroke: line.colour,
          "stroke-width": line.width,
          "stroke-linecap": "round",
          "stroke-linejoin": "round",
        },
        this.svg,
      );
    }
    for (const spot of drawing.spots || []) this._spot(spot);
    if (this.mini) return;
    for (const text of drawing.texts || []) {
      const node = svg(
        "text",
        {
          x: text.at[0],
          y: text.at[1],
          "font-size": text.size,
          fill: text.colour,
          "text-anchor": "middle",
          "dominant-baseline": "middle",
        },
        this.svg,
      );
      node.textContent = text.text;
    }
  }

  _spot(spot) {
    const [x, y] = spot.at;
    const group = svg("g", { class: spot.marked ? "spot marked" : "spot" }, this.svg);
    if (spot.key) group.dataset.key = spot.key;
    for (let ring = spot.rings; ring >= 1; ring -= 1) {
      svg(
        "circle",
        {
          cx: x,
          cy: y,
          r: spot.radius * (1 + 0.28 * ring),
          fill: "none",
          stroke: spot.fill || spot.outline,
          "stroke-width": spot.radius * 0.14,
        },
        group,
      );
    }
    svg(
      "circle",
      {
        cx: x,
        cy: y,
        r: spot.radius,
        fill: spot.fill || "#ffffff",
        stroke: spot.marked ? "#f0b400" : spot.outline,
        "stroke-width": spot.marked ? spot.radius * 0.35 : spot.radius * 0.18,
      },
      group,
    );
    if (spot.label) {
      const label = svg(
        "text",
        {
          x,
          y,
          "font-size": spot.radius * 1.2,
          fill: "#ffffff",
          "text-anchor": "middle",
          "dominant-baseline": "central",
          "font-weight": "bold",
        },
        group,
      );
      label.textContent = spot.label;
    }
  }
}
