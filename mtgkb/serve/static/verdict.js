// The verdict panel: a form a judge fills at a table (the question, the step, the creatures and their
// combat state, the spells on the stack, the mana), the situation it makes as JSON (editable, posted
// as is), and the answer: the checks with their rules beside a small graph of the situation and of
// the requirement each check evaluated. The form writes the very situation `mtgkb can-activate CARD
// --step … --unblocked …` makes from the same options (mtgkb/reasoning/situation_options.py), and
// posts it to /api/<question> as `--situation FILE` would read it, so both answer alike.
"use strict";

(() => {
  const explorer = window.mtgkbExplorer;
  const { el, api, fill, showError, cites } = explorer;
  const $ = (id) => document.getElementById(id);

  // How a creature or permanent of the table stands, and the CLI option that says the same.
  const STATES = [
    ["unblocked", "attacking, unblocked"],
    ["blocked", "attacking, blocked"],
    ["attacking", "attacking, blockers not declared yet"],
    ["tapped", "tapped, not attacking (mine)"],
    ["battlefield", "untapped, not attacking (mine)"],
  ];
  const ME = "me", OPPONENT = "opp";
  let jsonEdited = false;

  // --- the form's rows ---------------------------------------------------------------------------

  function nameInput(value, label) {
    const input = el("input", { list: "card-names", "aria-label": label, placeholder: "card name, or token:Goblin" });
    input.value = value || "";
    input.addEventListener("input", () => { suggestCards(input.value); changed(); });
    return input;
  }

  function addCreature(name = "", state = "unblocked") {
    const select = el("select", { "aria-label": "how it stands", onchange: changed },
      STATES.map(([value, label]) => el("option", { value }, label)));
    select.value = state;
    const row = el("div", { class: "row creature" }, nameInput(name, "creature or permanent"), select,
      el("button", { type: "button", title: "remove", onclick: () => { row.remove(); changed(); } }, "×"));
    $("verdict-creatures").append(row);
    changed();
    return row;
  }

  function addSpell(name = "") {
    const row = el("div", { class: "row spell" }, nameInput(name, "spell on the stack"),
      el("button", { type: "button", title: "remove", onclick: () => { row.remove(); changed(); } }, "×"));
    $("verdict-stack").append(row);
    changed();
    return row;
  }

  let suggestTimer = null;
  function suggestCards(text) {
    clearTimeout(suggestTimer);
    const wanted = text.trim();
    if (wanted.length < 2 || wanted.toLowerCase().startsWith("token:")) return;
    suggestTimer = setTimeout(async () => {
      try {
        const found = await api("/api/names?" + new URLSearchParams({ q: wanted, limit: 12 }));
        fill($("card-names"), found.matches.filter((m) => m.kind === "card").map((m) => el("option", { value: m.label })));
      } catch (error) { /* completion is a help, not a need */ }
    }, 120);
  }

  // --- the form as the CLI's options, and the situation they make ----------------------------------

  // The form's values under the names of the CLI's options (mtgkb can-activate --help).
  function tableOptions() {
    const options = {
      step: $("verdict-step").value,
      turn: $("verdict-turn").value,
      priority: $("verdict-priority").value || null,
      zone: $("verdict-zone").value,
      unblocked: [], blocked: [], attacking: [], tapped: [], battlefield: [], stack: [],
      mana: $("verdict-mana").value.trim() || null,
      commander_casts: $("verdict-casts").value === "" ? null : Number($("verdict-casts").value),
    };
    for (const row of $("verdict-creatures").querySelectorAll(".row")) {
      const name = row.querySelector("input").value.trim();
      if (name) options[row.querySelector("select").value].push(name);
    }
    for (const row of $("verdict-stack").querySelectorAll(".row")) {
      const name = row.querySelector("input").value.trim();
      if (name) options.stack.push(name);
    }
    return options;
  }

  function permanent(name, status) {
    const entry = name.toLowerCase().startsWith("token:") ? { token: name.slice(6).trim() } : { card: name };
    for (const [key, value] of Object.entries(status)) if (value !== null) entry[key] = value;
    return entry;
  }

  // situation_from_options of mtgkb/reasoning/situation_options.py, line for line.
  function situationFromOptions(card, options) {
    const attackerSide = options.turn;
    const defender = attackerSide === ME ? OPPONENT : ME;
    const players = { [ME]: {}, [OPPONENT]: {} };
    const mine = players[ME];
    if (card !== null) {
      const zone = options.zone === "library" ? "library_top" : options.zone;
      mine[zone] = [card];
      if (options.commander_casts !== null) {
        if (options.zone !== "command") mine.commanders = [card];
        mine.commander_casts = { [card]: options.commander_casts };
      }
    }
    const attackers = [];
    for (const [names, blocked] of [[options.unblocked, false], [options.blocked, true], [options.attacking, null]]) {
      for (const name of names) attackers.push(permanent(name, { attacking: defender, tapped: true, blocked }));
    }
    players[attackerSide].battlefield = attackers;
    mine.battlefield = mine.battlefield || [];
    for (const name of options.tapped) mine.battlefield.push(permanent(name, { tapped: true }));
    for (const name of options.battlefield) mine.battlefield.push(permanent(name, {}));
    if (options.mana !== null) mine.mana = options.mana;
    const situation = { turn: options.turn, step: options.step, players };
    if (options.priority !== null) situation.priority = options.priority;
    if (options.stack.length) situation.stack = options.stack.map((name) => ({ card: name, controller: OPPONENT }));
    return situation;
  }

  function question() { return $("verdict-question").value; }
  function card() { return question() === "options" ? null : $("verdict-card").value.trim(); }

  function changed() {
    const asksCard = question() !== "options";
    for (const label of document.querySelectorAll("#verdict-form .for-card")) label.hidden = !asksCard;
    for (const label of document.querySelectorAll("#verdict-form .for-cast")) label.hidden = question() !== "can-cast";
    if (!jsonEdited) $("verdict-situation").value = JSON.stringify(situationFromOptions(card(), tableOptions()), null, 2);
  }

  function jsonEditedByHand(edited) {
    jsonEdited = edited;
    $("verdict-json-state").textContent = edited
      ? "Edited by hand: this is what is posted, whatever the form says."
      : "Written from the form. Edit it to ask about anything else (graveyards, exile, commanders elsewhere); the form then no longer writes it.";
    if (!edited) changed();
  }

  // --- the steps, from the turn graph ------------------------------------------------------------

  async function loadSteps() {
    const query = "SELECT ?step ?label ?order WHERE { ?step a mtgkb:Step ; rdfs:label ?label ; mtgkb:stepOrder ?order } ORDER BY ?order";
    try {
      const response = await fetch("/sparql", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/sparql-results+json" },
        body: new URLSearchParams({ query }),
      });
      const rows = (await response.json()).results.bindings;
      const select = $("verdict-step");
      const chosen = select.value;
      fill(select, rows.map((row) => el("option", { value: row.step.value.split("/").pop() }, row.label.value)));
      select.value = chosen;
      changed();
    } catch (error) { /* the one step written in the page stays */ }
  }

  // --- asking, and the answer ----------------------------------------------------------------------

  async function ask(event) {
    event.preventDefault();
    const result = $("verdict-checks");
    const params = {};
    if (card() !== null) params.card = card();
    if (question() === "can-cast" && $("verdict-via").value) params.via = $("verdict-via").value;
    const body = $("verdict-situation").value;
    const path = `/api/${question()}?` + new URLSearchParams(params);
    explorer.lastRequest = { path, question: question(), params, body };
    explorer.lastVerdict = null;
    fill(result, [el("p", { class: "muted" }, "Asking…")]);
    $("verdict-graph-panel").hidden = true;
    try {
      const verdict = await api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      explorer.lastVerdict = verdict;
      fill(result, verdictView(verdict));
      let situation = null;
      try { situation = JSON.parse(body); } catch (error) { /* YAML: the checks are drawn without it */ }
      await drawVerdictGraph(verdict, situation);
    } catch (error) {
      showError(result, error);
    }
  }

  function verdictView(verdict) {
    const question = verdict.question || (verdict.answer ? "Possible" : "Not possible");
    return [
      el("p", { class: "answer " + (verdict.answer ? "yes" : "no") }, (verdict.answer ? "YES" : "NO") + " — " + question),
      el("ul", { class: "checks" }, (verdict.checks || []).map((check) =>
        el("li", { class: check.holds ? "holds" : "fails" },
          el("strong", {}, check.check), " ", cites(check.cites), el("br"),
          el("span", { class: "muted" }, check.because || "")))),
      verdict.cost ? el("p", {}, "Cost: ", typeof verdict.cost === "string" ? verdict.cost : JSON.stringify(verdict.cost)) : null,
      verdict.options && verdict.options.length
        ? el("ul", { class: "options" }, verdict.options.map((option) =>
          el("li", {}, `${option.card}: ${option.ability}` + (option.cost ? ` for ${option.cost}` : ""))))
        : null,
      el("p", {}, "Cites ", cites(verdict.cites)),
    ];
  }

  // --- the graph of the situation and the checks ---------------------------------------------------

  const VERDICT_COLOURS = {
    verdict: "#20303f", player: "#556070", step: "#3c8d4f", card: "#2f6fb3", holds: "#17692f", fails: "#a3231b",
    requirement: "#a84f7b", rule: "#7b4fa8",
  };

  function situationElements(situation, verdict) {
    const nodes = [], edges = [];
    const add = (id, label, kind, extra = {}) => nodes.push({ group: "nodes", data: { id, label, kind, ...extra } });
    const link = (source, target, label) => edges.push({ group: "edges", data: { id: `${source}|${label}|${target}`, source, target, label } });
    if (!situation || typeof situation !== "object") return { nodes, edges };
    const players = situation.players || {};
    const whose = (player) => (player === ME ? "you" : player === OPPONENT ? "your opponent" : player);
    for (const player of Object.keys(players)) add(`player:${player}`, whose(player), "player");
    if (situation.step) {
      const option = [...$("verdict-step").options].find((item) => item.value === situation.step);
      const turn = (situation.turn || ME) === ME ? "your turn" : `${whose(situation.turn)}'s turn`;
      add("situation:step", `${option ? option.textContent : situation.step}, ${turn}`, "step");
      link("verdict", "situation:step", "during");
    }
    let count = 0;
    const object = (player, entry, zone) => {
      const name = typeof entry === "string" ? entry : entry.card || (entry.token ? `${entry.token} token` : "object");
      const id = `object:${count++}`;
      const status = [];
      if (typeof entry === "object") {
        if (entry.attacking) status.push(entry.blocked === true ? "blocked" : entry.blocked === false ? "unblocked" : "attacking");
        if (entry.tapped) status.push("tapped");
      }
      status.unshift(zone.replace("_", " "));
      add(id, `${name} (${status.join(", ")})`, "card", { owner: `player:${player}` });
      link(`player:${player}`, id, "");
      if (typeof entry === "object" && typeof entry.attacking === "string" && players[entry.attacking]) {
        link(id, `player:${entry.attacking}`, "attacks");
      }
      if (name === verdict.card) link("verdict", id, "about");
    };
    for (const [player, zones] of Object.entries(players)) {
      for (const [zone, entries] of Object.entries(zones || {})) {
        if (Array.isArray(entries)) for (const entry of entries) object(player, entry, zone);
      }
    }
    for (const spell of situation.stack || []) object(spell.controller || OPPONENT, spell, "stack");
    return { nodes, edges };
  }

  // Left to right: the situation, the verdict, its checks, the requirement each evaluated, their rules;
  // one row per node in its column, so every label can be read.
  const COLUMN = { player: 0, card: 0, step: 0, verdict: 1, holds: 2, fails: 2, requirement: 3, rule: 4 };
  const COLUMN_X = [0, 250, 330, 600, 860];
  const ROW = { 0: 42, 1: 0, 2: 64, 3: 64, 4: 26 };

  function columns(elements) {
    const nodes = elements.filter((item) => item.group === "nodes");
    const byColumn = [[], [], [], [], []];
    for (const node of nodes) {
      const column = COLUMN[node.data.kind] ?? 0;
      if (column === 0 && node.data.kind !== "player" && node.data.owner) continue; // placed under its player
      byColumn[column].push(node);
    }
    // The situation: each player, then what it has, a step indented under its player.
    const situation = [];
    for (const node of byColumn[0]) {
      situation.push(node);
      if (node.data.kind === "player") situation.push(...nodes.filter((other) => other.data.owner === node.data.id));
    }
    byColumn[0] = situation;
    const heights = byColumn.map((column, index) => (column.length - 1) * (ROW[index] || 40));
    const tallest = Math.max(...heights, 1);
    const positions = {};
    byColumn.forEach((column, index) => {
      const top = (tallest - heights[index]) / 2;
      column.forEach((node, row) => {
        const indent = index === 0 && node.data.kind !== "player" ? 24 : 0;
        positions[node.data.id] = { x: COLUMN_X[index] + indent, y: top + row * (ROW[index] || 40) };
      });
    });
    return positions;
  }

  async function drawVerdictGraph(verdict, situation) {
    const panel = $("verdict-graph-panel");
    panel.hidden = false;
    const elements = [{ group: "nodes", data: { id: "verdict", label: verdict.answer ? "YES" : "NO", kind: "verdict" } }];
    const { nodes, edges } = situationElements(situation, verdict);
    elements.push(...nodes, ...edges);
    const requirements = [...new Set((verdict.checks || []).map((check) => check.evaluates).filter(Boolean))];
    const labels = {};
    await Promise.all(requirements.map(async (iri) => {
      try { labels[iri] = (await api("/api/node?" + new URLSearchParams({ node: iri }))).node.label; } catch (error) { labels[iri] = null; }
    }));
    const seen = new Set(elements.map((item) => item.data.id));
    const node = (id, label, kind, extra = {}) => {
      if (!seen.has(id)) { seen.add(id); elements.push({ group: "nodes", data: { id, label, kind, ...extra } }); }
    };
    const edge = (source, target, label) => {
      const id = `${source}|${label}|${target}`;
      if (!seen.has(id)) { seen.add(id); elements.push({ group: "edges", data: { id, source, target, label } }); }
    };
    (verdict.checks || []).forEach((check, index) => {
      const id = `check:${index}`;
      node(id, (check.holds ? "✓ " : "✗ ") + check.check, check.holds ? "holds" : "fails");
      edge("verdict", id, "check");
      if (check.evaluates) {
        node(check.evaluates, labels[check.evaluates] || check.check, "requirement", { iri: check.evaluates });
        edge(id, check.evaluates, "evaluates");
      }
      for (const number of check.cites || []) {
        node(`cr:${number}`, `CR ${number}`, "rule", { rule: number });
        edge(check.evaluates || id, `cr:${number}`, "");
      }
    });
    if (explorer.verdictGraph) explorer.verdictGraph.destroy();
    const cy = cytoscape({
      container: $("verdict-graph"),
      elements,
      wheelSensitivity: 0.3,
      style: [
        {
          selector: "node",
          style: {
            label: "data(label)", "font-size": 11, "text-wrap": "wrap", "text-max-width": 190, color: "#1d232a",
            "background-color": (n) => VERDICT_COLOURS[n.data("kind")] || "#8a94a0",
            width: 14, height: 14, "text-valign": "center", "text-halign": "right", "text-margin-x": 5,
          },
        },
        { selector: "node[kind = 'verdict']", style: { width: 34, height: 34, "font-size": 12, "font-weight": "bold", "text-halign": "center", color: "#fff", "text-margin-x": 0 } },
        { selector: "node[kind = 'holds'], node[kind = 'fails']", style: { "font-weight": "bold" } },
        { selector: "node[kind = 'rule']", style: { shape: "round-rectangle", width: 10, height: 10, "font-size": 10, color: "#4b2d72" } },
        {
          selector: "edge",
          style: {
            width: 1, "line-color": "#c2c9d1", "target-arrow-color": "#c2c9d1", "target-arrow-shape": "triangle",
            "curve-style": "bezier", label: "data(label)", "font-size": 9, color: "#778", "text-rotation": "autorotate",
            "min-zoomed-font-size": 7,
          },
        },
      ],
      layout: { name: "preset", positions: columns(elements), fit: true, padding: 20 },
    });
    cy.on("tap", "node[kind = 'rule']", (event) => explorer.show("cr:" + event.target.data("rule")));
    cy.on("tap", "node[kind = 'requirement']", (event) => explorer.show(event.target.data("iri")));
    explorer.verdictGraph = cy;
  }

  // --- set up --------------------------------------------------------------------------------------

  function setUp() {
    $("verdict-add-creature").addEventListener("click", () => addCreature("", "unblocked").querySelector("input").focus());
    $("verdict-add-spell").addEventListener("click", () => addSpell("").querySelector("input").focus());
    for (const id of ["verdict-question", "verdict-zone", "verdict-via", "verdict-step", "verdict-turn", "verdict-priority"]) {
      $(id).addEventListener("change", changed);
    }
    for (const id of ["verdict-card", "verdict-mana", "verdict-casts"]) $(id).addEventListener("input", changed);
    $("verdict-card").addEventListener("input", () => suggestCards($("verdict-card").value));
    $("verdict-situation").addEventListener("input", () => jsonEditedByHand(true));
    $("verdict-from-form").addEventListener("click", () => jsonEditedByHand(false));
    $("verdict-form").addEventListener("submit", ask);
    addCreature("Grizzly Bears", "unblocked");
    changed();
    loadSteps();
  }

  Object.assign(explorer, { situationFromOptions, tableOptions, addCreature, addSpell, verdictFormChanged: changed });
  explorer.lastVerdict = null;
  explorer.lastRequest = null;
  setUp();
})();
