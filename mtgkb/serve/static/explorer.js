// The mtgkb explorer: search a node, draw its neighbourhood with cytoscape, expand nodes by clicking
// them, read their details, ask a verdict, and query with YASGUI. Everything comes from this server's
// JSON API (/api/...) and SPARQL endpoint (/sparql); the libraries are vendored, so it works offline.
"use strict";

const COLOURS = {
  card: "#2f6fb3", mechanic: "#b3542f", step: "#3c8d4f", phase: "#3c8d4f", rule: "#7b4fa8",
  ruling: "#a8843c", ability: "#4f9aa8", requirement: "#a84f7b", zone: "#6b7b2f", concept: "#8a5a44",
};

const SITUATION_EXAMPLE = {
  turn: "me",
  step: "declare-blockers",
  players: {
    me: {
      hand: ["Ninja of the Deep Hours"],
      battlefield: [{ card: "Grizzly Bears", attacking: "opp", blocked: false }],
      mana: "{1}{U}",
    },
    opp: {},
  },
};

const RULED = new Set(["mechanic", "step", "phase", "zone", "concept"]);

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
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
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
  container.replaceChildren(
    el("p", { class: "error" }, error.message + (error.hint ? "\n" + error.hint : "")),
  );
}

function cites(numbers) {
  return (numbers || []).map((number) =>
    el("span", { class: "cite", title: "show rule " + number, onclick: () => show("cr:" + number) }, "CR " + number),
  );
}

// --- the graph -----------------------------------------------------------------------------------

function setUpGraph() {
  explorer.cy = cytoscape({
    container: document.getElementById("graph"),
    wheelSensitivity: 0.3,
    style: [
      {
        selector: "node",
        style: {
          label: "data(label)", "font-size": 9, "text-wrap": "ellipsis", "text-max-width": 120,
          "background-color": (node) => COLOURS[node.data("kind")] || "#8a94a0",
          width: 16, height: 16, color: "#1d232a", "text-valign": "bottom", "text-margin-y": 3,
        },
      },
      { selector: "node.expanded", style: { width: 22, height: 22, "border-width": 2, "border-color": "#20303f" } },
      { selector: "node:selected", style: { "border-width": 3, "border-color": "#f0a500" } },
      {
        selector: "edge",
        style: {
          width: 1, "line-color": "#b5bec8", "target-arrow-color": "#b5bec8", "target-arrow-shape": "triangle",
          "curve-style": "bezier", label: "data(label)", "font-size": 7, color: "#778", "text-rotation": "autorotate",
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
      added.push({ group: "nodes", data: { id: node.iri, label: node.label, kind: node.kind } });
    }
  }
  for (const link of graph.links) {
    const id = `${link.source} ${link.predicate} ${link.target}`;
    if (cy.getElementById(id).empty()) {
      added.push({ group: "edges", data: { id, source: link.source, target: link.target, label: link.label } });
    }
  }
  cy.add(added);
  explorer.expanded.add(graph.node.iri);
  cy.getElementById(graph.node.iri).addClass("expanded");
  const layout = cy.layout({ name: "cose", animate: false, randomize: false, nodeDimensionsIncludeLabels: true });
  layout.run();
  cy.fit(undefined, 30);
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

// --- details -------------------------------------------------------------------------------------

async function details(node) {
  const pane = document.getElementById("details");
  const iri = node.id || node.iri;
  pane.replaceChildren(el("p", { class: "muted" }, "Loading " + (node.label || iri) + "…"));
  try {
    if (node.kind === "card") pane.replaceChildren(...cardDetails(await api("/api/card/" + encodeURIComponent(node.label))));
    else if (node.kind === "rule") pane.replaceChildren(...ruleDetails(await api("/api/rule/" + iri.split("/").pop())));
    else {
      const found = await api("/api/node?" + new URLSearchParams({ node: iri }));
      const view = nodeDetails(found);
      if (RULED.has(node.kind)) {
        // Rulings that speak of this mechanic, step, zone or concept, newest first.
        try {
          const report = await api("/api/rulings/" + encodeURIComponent(found.node.label) + "?limit=10");
          view.push(...rulings(report.rulings), report.total > 10 ? el("p", { class: "muted" }, `${report.total} in all`) : null);
        } catch (error) { /* a name shared with a card, or none: the node's own facts stand */ }
      }
      pane.replaceChildren(...view.filter(Boolean));
    }
  } catch (error) {
    showError(pane, error);
  }
}

function rulings(list) {
  if (!list || !list.length) return [];
  return [
    el("h3", {}, `Rulings (${list.length})`),
    ...list.map((ruling) =>
      el("div", { class: "ruling" },
        el("span", { class: "date" }, ruling.date || "undated"), " ",
        el("span", { class: "muted" }, ruling.source ? `[${ruling.source}]` : ""),
        el("p", {}, ruling.text || ruling.summary || ""),
        cites(ruling.cites)),
    ),
  ];
}

function cardDetails(card) {
  return [
    el("div", { class: "kind" }, "card"),
    el("h2", {}, card.name, " ", el("span", { class: "muted" }, card.mana_cost || "")),
    el("p", {}, card.type_line || "", card.power !== null && card.power !== undefined ? `   ${card.power}/${card.toughness}` : ""),
    card.oracle_text ? el("p", {}, card.oracle_text) : null,
    el("h3", {}, "Abilities"),
    el("ul", {}, (card.abilities || []).map((ability) =>
      el("li", {}, ability.label || ability.text || "", " ", cites((ability.rules || []).map((rule) => rule.number))))),
    ...rulings(card.rulings),
    el("p", {}, "Cites ", cites(card.cites)),
  ];
}

function ruleDetails(rule) {
  return [
    el("div", { class: "kind" }, "rule"),
    el("h2", {}, `CR ${rule.number}`, rule.title ? ` ${rule.title}` : ""),
    el("p", {}, rule.text || rule.summary || ""),
    rule.subrules && rule.subrules.length ? el("h3", {}, "Subrules") : null,
    el("ul", {}, (rule.subrules || []).map((sub) =>
      el("li", {}, el("span", { class: "cite", onclick: () => show("cr:" + sub.number) }, sub.number), " ", sub.text || ""))),
  ];
}

function nodeDetails(found) {
  const values = Object.entries(found.values || {});
  return [
    el("div", { class: "kind" }, found.node.kind),
    el("h2", {}, found.node.label),
    el("p", { class: "muted" }, found.types.join(", ")),
    el("dl", {}, values.flatMap(([name, list]) => [el("dt", {}, name), ...list.map((value) => el("dd", {}, value))])),
    el("p", { class: "muted" }, found.node.iri),
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
        list.replaceChildren(...found.matches.map((match) =>
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

// --- verdicts ------------------------------------------------------------------------------------

function setUpVerdict() {
  document.getElementById("verdict-situation").value = JSON.stringify(SITUATION_EXAMPLE, null, 2);
  document.getElementById("verdict-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = document.getElementById("verdict-result");
    const question = document.getElementById("verdict-question").value;
    const card = document.getElementById("verdict-card").value;
    result.replaceChildren(el("p", { class: "muted" }, "Asking…"));
    try {
      const verdict = await api(`/api/${question}?` + new URLSearchParams({ card }), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: document.getElementById("verdict-situation").value,
      });
      result.replaceChildren(...verdictView(verdict));
    } catch (error) {
      showError(result, error);
    }
  });
}

function verdictView(verdict) {
  return [
    el("p", { class: "answer " + (verdict.answer ? "yes" : "no") }, verdict.answer ? "YES" : "NO"),
    el("ul", { class: "checks" }, (verdict.checks || []).map((check) =>
      el("li", { class: check.holds ? "holds" : "fails" },
        el("strong", {}, check.check), " ", cites(check.cites), el("br"),
        el("span", { class: "muted" }, check.because || "")))),
    verdict.cost ? el("p", {}, "Cost: ", typeof verdict.cost === "string" ? verdict.cost : JSON.stringify(verdict.cost)) : null,
    el("p", {}, "Cites ", cites(verdict.cites)),
  ];
}

// --- the SPARQL editor ---------------------------------------------------------------------------

function setUpYasgui() {
  if (typeof Yasgui === "undefined") return;
  Yasgui.Yasqe.defaults.autocompleters = ["variables"]; // the others fetch vocabularies from the web
  explorer.yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: { endpoint: location.origin + "/sparql", method: "POST" },
    copyEndpointOnNewTab: false,
    persistenceId: null,
    endpointCatalogueOptions: { getData: () => [] },
    yasqe: {
      value: "PREFIX mtgkb: <https://w3id.org/mtgkb/vocab#>\nPREFIX mechanic: <https://w3id.org/mtgkb/mechanic/>\n\n" +
        "SELECT ?card ?cost WHERE {\n  ?card mtgkb:hasAbility ?ability .\n" +
        "  ?ability mtgkb:instantiates mechanic:ninjutsu ; mtgkb:abilityCost ?cost .\n} ORDER BY ?card LIMIT 20",
    },
  });
}

setUpGraph();
setUpSearch();
setUpVerdict();
try { setUpYasgui(); } catch (error) { console.error("YASGUI", error); }
const start = new URLSearchParams(location.search).get("node");
if (start) show(start);
