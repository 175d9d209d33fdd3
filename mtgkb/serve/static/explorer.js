// The mtgkb explorer: search a node, draw its neighbourhood with cytoscape, expand nodes by clicking
// them, read their details, ask a verdict (verdict.js), and query with YASGUI. Everything comes from
// this server's JSON API (/api/...) and SPARQL endpoint (/sparql); the libraries are vendored, so it
// works offline. The page opens at its top: nothing below it takes the focus.
"use strict";

const COLOURS = {
  card: "#2f6fb3", mechanic: "#b3542f", step: "#3c8d4f", phase: "#2c6d3c", rule: "#7b4fa8",
  ruling: "#a8843c", ability: "#4f9aa8", requirement: "#a84f7b", zone: "#6b7b2f", concept: "#8a5a44",
  legalities: "#6d7580", face: "#5b8fc7",
};

const RULED = new Set(["mechanic", "step", "phase", "zone", "concept"]);
// Graph labels longer than this are cut (the details pane has the whole label).
const SHORT_LABEL = 64;
// Below this zoom the labels are too small to read: the graph is then centred, not fitted.
const READABLE_ZOOM = 0.7;

const explorer = {
  cy: null,
  expanded: new Set(),
  selected: null,
  requests: 0, // API calls in flight, for tests and the status line
};
window.mtgkbExplorer = explorer;

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Replace a container's children, leaving out the parts a view did not have (no "null" on the page).
function fill(container, children) {
  container.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

async function api(path, options = {}) {
  explorer.requests += 1;
  try {
    const response = await fetch(path, options);
    const body = await response.json();
    if (!response.ok) {
      const error = new Error(body.error || response.statusText);
      error.hint = body.hint;
      error.status = response.status;
      throw error;
    }
    return body;
  } finally {
    explorer.requests -= 1;
  }
}

function showError(container, error) {
  fill(container, [el("p", { class: "error" }, error.message + (error.hint ? "\n" + error.hint : ""))]);
}

function cites(numbers) {
  return (numbers || []).map((number) =>
    el("span", { class: "cite", title: "show rule " + number, onclick: () => show("cr:" + number) }, "CR " + number),
  );
}

function short(label) {
  return label.length <= SHORT_LABEL ? label : label.slice(0, SHORT_LABEL - 1).trimEnd() + "…";
}

// --- the graph -----------------------------------------------------------------------------------

function setUpGraph() {
  explorer.cy = cytoscape({
    container: document.getElementById("graph"),
    wheelSensitivity: 0.3,
    minZoom: 0.2,
    maxZoom: 2.5,
    style: [
      {
        selector: "node",
        style: {
          label: "data(short)", "font-size": 12, "text-wrap": "wrap", "text-max-width": 130,
          "background-color": (node) => COLOURS[node.data("kind")] || "#8a94a0",
          width: 16, height: 16, color: "#1d232a", "text-valign": "bottom", "text-margin-y": 3,
          "text-background-color": "#fff", "text-background-opacity": 0.75, "text-background-padding": 1,
        },
      },
      { selector: "node.expanded", style: { width: 22, height: 22, "border-width": 2, "border-color": "#20303f" } },
      { selector: "node:selected", style: { "border-width": 3, "border-color": "#f0a500" } },
      {
        selector: "edge",
        style: {
          width: 1, "line-color": "#b5bec8", "target-arrow-color": "#b5bec8", "target-arrow-shape": "triangle",
          "curve-style": "bezier", label: "data(label)", "font-size": 9, color: "#778", "text-rotation": "autorotate",
          "min-zoomed-font-size": 8, // an edge's label shows once it can be read
        },
      },
    ],
    layout: { name: "grid" },
  });
  explorer.cy.on("tap", "node", (event) => {
    const iri = event.target.id();
    expand(iri);
    details(event.target.data());
  });
}

function updateStats(extra) {
  const cy = explorer.cy;
  document.getElementById("graph-stats").textContent =
    `${cy.nodes().length} nodes, ${cy.edges().length} edges` + (extra ? ` · ${extra}` : "");
}

// New nodes start on a ring around the node they were reached from, so that the force-directed
// layout untangles them instead of stacking them in a column; the layout then spaces every node
// with its label, and the view is fitted while the labels stay readable.
function layOut(centre, added) {
  const cy = explorer.cy;
  const origin = centre && centre.nonempty() ? centre.position() : { x: 0, y: 0 };
  const fresh = added.filter((node) => node.id() !== (centre && centre.id()));
  const radius = 120 + 6 * fresh.length;
  fresh.forEach((node, index) => {
    const angle = (2 * Math.PI * index) / Math.max(fresh.length, 1);
    node.position({ x: origin.x + radius * Math.cos(angle), y: origin.y + radius * Math.sin(angle) });
  });
  cy.layout({
    name: "cose", animate: false, randomize: false, nodeDimensionsIncludeLabels: true, fit: false,
    idealEdgeLength: () => 100, nodeRepulsion: () => 1500000, nodeOverlap: 40, edgeElasticity: () => 80,
    gravity: 0.8, initialTemp: 200, coolingFactor: 0.95, numIter: 1000, componentSpacing: 80, padding: 30,
  }).run();
  cy.fit(undefined, 30);
  if (cy.zoom() < READABLE_ZOOM) {
    cy.zoom(READABLE_ZOOM);
    cy.center(centre && centre.nonempty() ? centre : undefined);
  }
  explorer.layouts = (explorer.layouts || 0) + 1;
}

async function expand(text) {
  const stats = document.getElementById("graph-stats");
  let graph;
  try {
    graph = await api("/api/graph?" + new URLSearchParams({ node: text, limit: 40 }));
  } catch (error) {
    stats.textContent = error.message + (error.hint ? " — " + error.hint : "");
    return null;
  }
  const cy = explorer.cy;
  const added = [];
  for (const node of [graph.node, ...graph.nodes]) {
    if (cy.getElementById(node.iri).empty()) {
      added.push({ group: "nodes", data: { id: node.iri, label: node.label, short: short(node.label), kind: node.kind } });
    }
  }
  for (const link of graph.links) {
    const id = `${link.source} ${link.predicate} ${link.target}`;
    if (cy.getElementById(id).empty()) {
      added.push({ group: "edges", data: { id, source: link.source, target: link.target, label: link.label } });
    }
  }
  const elements = cy.add(added);
  explorer.expanded.add(graph.node.iri);
  const centre = cy.getElementById(graph.node.iri);
  centre.addClass("expanded");
  layOut(centre, elements.nodes());
  updateStats(graph.left_out ? `${graph.left_out} more links of ${graph.node.label} not drawn` : "");
  return graph;
}

async function show(text) {
  explorer.cy.elements().remove();
  explorer.expanded.clear();
  const graph = await expand(text);
  if (graph) {
    explorer.cy.getElementById(graph.node.iri).select();
    details({ id: graph.node.iri, label: graph.node.label, kind: graph.node.kind });
  }
}
explorer.show = show;

// --- details -------------------------------------------------------------------------------------

async function details(node) {
  const pane = document.getElementById("details");
  const iri = node.id || node.iri;
  fill(pane, [el("p", { class: "muted" }, "Loading " + (node.label || iri) + "…")]);
  try {
    if (node.kind === "card") fill(pane, cardDetails(await api("/api/card/" + encodeURIComponent(node.label))));
    else if (node.kind === "rule") fill(pane, ruleDetails(await api("/api/rule/" + iri.split("/").pop())));
    else {
      const found = await api("/api/node?" + new URLSearchParams({ node: iri }));
      const view = nodeDetails(found);
      if (RULED.has(node.kind)) {
        // Rulings that speak of this mechanic, step, zone or concept, newest first.
        try {
          const report = await api("/api/rulings/" + encodeURIComponent(found.node.label) + "?limit=10");
          view.push(rulings(report.rulings, true), report.total > 10 ? el("p", { class: "muted" }, `${report.total} in all`) : null);
        } catch (error) { /* a name shared with a card, or none: the node's own facts stand */ }
      }
      fill(pane, view);
    }
  } catch (error) {
    showError(pane, error);
  }
}

function rulings(list, withCard = false) {
  if (!list || !list.length) return [];
  return [
    el("h3", {}, `Rulings (${list.length})`),
    ...list.map((ruling) =>
      el("div", { class: "ruling" },
        el("span", { class: "date" }, ruling.date || "undated"), " ",
        withCard && ruling.cards && ruling.cards.length ? el("span", {}, ruling.cards.map((c) => c.label || c.iri).join(", "), " ") : null,
        el("span", { class: "muted" }, ruling.source ? `[${ruling.source}]` : ""),
        el("p", {}, ruling.text || ruling.summary || ""),
        cites(ruling.cites)),
    ),
  ];
}

function cardDetails(card) {
  const stats = card.power !== null && card.power !== undefined ? `   ${card.power}/${card.toughness}` : "";
  return [
    el("div", { class: "kind" }, "card"),
    el("h2", {}, card.name, " ", el("span", { class: "muted" }, card.mana_cost || "")),
    el("p", {}, card.type_line || "", stats),
    card.oracle_text ? el("p", { class: "oracle" }, card.oracle_text) : null,
    card.abilities && card.abilities.length ? el("h3", {}, "Abilities") : null,
    card.abilities && card.abilities.length
      ? el("ul", {}, card.abilities.map((ability) =>
        el("li", {}, ability.label || ability.text || "", " ", cites((ability.rules || []).map((rule) => rule.number)))))
      : null,
    rulings(card.rulings),
    card.cites && card.cites.length ? el("p", {}, "Cites ", cites(card.cites)) : null,
  ];
}

function ruleDetails(rule) {
  const subrules = rule.subrules || [];
  const more = (rule.subrules_total || subrules.length) - subrules.length;
  return [
    el("div", { class: "kind" }, "rule"),
    el("h2", {}, `CR ${rule.number}`, rule.title ? ` ${rule.title}` : ""),
    rule.text || rule.summary ? el("p", {}, rule.text || rule.summary) : el("p", { class: "muted" }, "No text: import the Comprehensive Rules."),
    rule.text && rule.summary ? el("p", { class: "muted" }, "Summary (our words): ", rule.summary) : null,
    subrules.length ? el("h3", {}, `Subrules (${rule.subrules_total || subrules.length})`) : null,
    subrules.length
      ? el("ul", {}, subrules.map((sub) =>
        el("li", {}, el("span", { class: "cite", onclick: () => show("cr:" + sub.number) }, sub.number), " ", sub.text || sub.label || "")))
      : null,
    more > 0 ? el("p", { class: "muted" }, `and ${more} more`) : null,
  ];
}

// Properties the heading already shows.
const SHOWN_AS_HEADING = new Set(["rdfs:label", "mtgkb:name"]);

function nodeDetails(found) {
  const properties = (found.properties || []).filter((property) => !SHOWN_AS_HEADING.has(property.property));
  const links = found.links || [];
  return [
    el("div", { class: "kind" }, found.node.kind),
    el("h2", {}, found.node.label),
    (found.type_labels || []).length ? el("p", { class: "muted" }, "a ", found.type_labels.join(", ")) : null,
    properties.length
      ? el("dl", {}, properties.flatMap((property) => [
        el("dt", { title: property.property }, property.label),
        ...property.values.map((value) => el("dd", {}, value === "true" ? "yes" : value === "false" ? "no" : value)),
      ]))
      : null,
    links.length ? el("h3", {}, "Links") : null,
    links.length
      ? el("ul", { class: "links" }, links.map((link) =>
        el("li", {}, el("span", { class: "muted", title: link.property }, link.label), " ",
          el("a", { href: "?node=" + encodeURIComponent(link.target.iri), onclick: (event) => { event.preventDefault(); show(link.target.iri); } }, link.target.label))))
      : null,
    found.links_left_out ? el("p", { class: "muted" }, `and ${found.links_left_out} more links`) : null,
    el("p", { class: "muted iri" }, found.node.iri),
  ];
}

// --- search --------------------------------------------------------------------------------------

function setUpSearch() {
  const input = document.getElementById("search");
  const list = document.getElementById("suggestions");
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const text = input.value.trim();
      if (!text) { list.hidden = true; return; }
      try {
        const found = await api("/api/names?" + new URLSearchParams({ q: text, limit: 12 }));
        fill(list, found.matches.map((match) =>
          el("li", { role: "option", "data-iri": match.iri, onmousedown: () => pick(match) },
            match.label, el("span", { class: "kind" }, match.kind))));
        list.hidden = !found.matches.length;
      } catch (error) {
        list.hidden = true;
      }
    }, 150);
  });
  input.addEventListener("blur", () => setTimeout(() => { list.hidden = true; }, 150));
  document.getElementById("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    list.hidden = true;
    if (input.value.trim()) show(input.value.trim());
  });
  function pick(match) {
    input.value = match.label;
    list.hidden = true;
    show(match.iri);
  }
}

// --- the SPARQL editor ---------------------------------------------------------------------------

const ENDPOINT = location.origin + "/sparql";
const EXAMPLE_QUERY =
  "PREFIX mtgkb: <https://w3id.org/mtgkb/vocab#>\nPREFIX mechanic: <https://w3id.org/mtgkb/mechanic/>\n\n" +
  "SELECT ?card ?cost WHERE {\n  ?card mtgkb:hasAbility ?ability .\n" +
  "  ?ability mtgkb:instantiates mechanic:ninjutsu ; mtgkb:abilityCost ?cost .\n} ORDER BY ?card LIMIT 20";

// The query a shared link carries (?query=… or #query=…, as YASGUI's share links write it). Only the
// query is taken from a link, and only into the editor: it runs when the user presses run, and on
// this server's endpoint whatever else the link says.
function linkedQuery() {
  for (const part of [location.hash.slice(1), location.search.slice(1)]) {
    const query = new URLSearchParams(part).get("query");
    if (query) return query;
  }
  return null;
}

// Made when its section first comes into view: it takes no focus and keeps the page at its top. It
// talks to this server's /sparql only: the endpoint is a function (YASGUI then sets it on every
// request, over whatever a tab holds), the field that would change it is not drawn (explorer.css),
// YASGUI reads nothing from the URL (it would take the endpoint from there and run the query at
// once) and keeps nothing in localStorage (a stored tab would bring its endpoint back).
function setUpYasgui() {
  if (typeof Yasgui === "undefined" || explorer.yasgui) return;
  Yasgui.Yasqe.defaults.autofocus = false;
  Yasgui.Yasqe.defaults.autocompleters = ["variables"]; // the others fetch vocabularies from the web
  const [x, y] = [window.scrollX, window.scrollY];
  explorer.yasgui = new Yasgui(document.getElementById("yasgui"), {
    autofocus: false,
    requestConfig: { endpoint: () => ENDPOINT, method: "POST" },
    populateFromUrl: false,
    copyEndpointOnNewTab: false,
    persistenceId: null,
    endpointCatalogueOptions: { getData: () => [] },
    yasqe: { autofocus: false, value: linkedQuery() || EXAMPLE_QUERY },
  });
  if (document.activeElement && document.getElementById("yasgui").contains(document.activeElement)) document.activeElement.blur();
  window.scrollTo(x, y);
}

function setUpYasguiWhenSeen() {
  const section = document.getElementById("sparql");
  const start = () => { try { setUpYasgui(); } catch (error) { console.error("YASGUI", error); } };
  if (location.hash === "#sparql" || linkedQuery() || !("IntersectionObserver" in window)) { start(); return; }
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) { observer.disconnect(); start(); }
  }, { rootMargin: "200px" });
  observer.observe(section);
}

// Where to start, on a page with nothing drawn yet.
const STARTS = [
  ["Ninja of the Deep Hours", "card"], ["Yuriko, the Tiger's Shadow", "card"], ["Ninjutsu", "mechanic"],
  ["declare blockers step", "step"], ["702.49", "rule"], ["commander tax", "concept"],
];

function welcome() {
  fill(document.getElementById("details"), [
    el("h2", {}, "Rules, cards and rulings as one graph"),
    el("p", {}, "Search a card, mechanic, step, zone, concept or rule number above, or start from one of these; click a node of the graph to expand it and read its details here."),
    el("ul", { class: "starts" }, STARTS.map(([name, kind]) =>
      el("li", {}, el("a", { href: "?node=" + encodeURIComponent(name), onclick: (event) => { event.preventDefault(); show(name); } }, kind === "rule" ? "CR " + name : name),
        " ", el("span", { class: "muted" }, kind)))),
    el("p", { class: "muted" }, "Below: ask a verdict for a situation at the table, or query the graph with SPARQL."),
  ]);
}

Object.assign(explorer, { el, api, fill, showError, cites, details, expand });
setUpGraph();
setUpSearch();
welcome();
setUpYasguiWhenSeen();
const start = new URLSearchParams(location.search).get("node");
if (start) show(start);
