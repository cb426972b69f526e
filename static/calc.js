// The model page's what-if calculator and its per-card table. It evaluates the memory formula the
// page exports in `calc-data` (no second planner; the keys are documented at `calc_data` in
// src/render/mod.rs): each phase is fixed + batch * (per_sample + seq * per_token + seq^2 *
// per_token_sq + min(seq, window) * windowed_per_token), the peak is the largest phase (the bytes
// torch allocates); on a card, nvidia-smi shows that x (1 + the allocator's reserve) + the cuBLAS
// workspaces (two in training) + the card's CUDA context, and the verdict uses the fit table's
// bands on that figure. The largest batch per card is the same bound the fit table's is.
(function () {
  "use strict";
  var me = document.currentScript;
  var out = document.getElementById("calc-out");
  if (!out) return;
  // A site's page names the model's JSON on this script and leaves the form to it (without the
  // script it would be inputs that answer nothing); a page the planner made has both.
  var form = document.getElementById("calc");
  if (!form) {
    form = document.createElement("form");
    form.id = "calc";
    form.className = "calc";
    form.hidden = true;
    out.before(form);
  }
  var json = form.getAttribute("data-json") || (me && me.getAttribute("data-json"));
  var inline = document.getElementById("calc-data");
  // The site's cards (static/cards.js, beside this script): a site's page loads only this script,
  // which loads them first.
  function withCards() {
    return new Promise(function (done) {
      if (window.modelatlasCards || !me) return done();
      var s = document.createElement("script");
      s.src = me.src.replace(/calc\.js([?#].*)?$/, "cards.js");
      s.onload = s.onerror = function () { done(); };
      document.head.appendChild(s);
    });
  }
  // A page the planner made carries its data inline; a site's page leaves it in the model's own
  // JSON (`fit.modes`, `training.recipes`), fetched once, so the page does not weigh it twice.
  if (inline) {
    start(JSON.parse(inline.textContent));
  } else if (json && window.fetch) {
    Promise.all([fetch(json), withCards()])
      .then(function (got) { var r = got[0]; if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (doc) { start(fromModelJson(doc)); })
      .catch(function () {
        document.getElementById("calc-out").textContent +=
          " (It could not read this model's JSON: open the page from the site rather than from disk.)";
      });
  }

  // The model JSON as the calculator reads it (the keys of `calc_data` in src/render/mod.rs):
  // phases as [name index, fixed, per_sample, per_token, ...]; a recipe's phases line up with the
  // full fine-tune's; the constants of the fit come with the cards, in static/cards.js.
  function fromModelJson(doc) {
    var names = [];
    function at(name) {
      var i = names.indexOf(name);
      if (i === -1) { names.push(name); i = names.length - 1; }
      return i;
    }
    var fit = doc.fit || { modes: [] }, k = window.modelatlasFit || {};
    var modes = fit.modes.map(function (m) {
      // Serving is the one mode that is not a training step.
      return [m.id, m.id === "serve" ? 0 : 1, m.phases.map(function (p) { return [at(p[0])].concat(p.slice(1)); })];
    });
    var full = modes.filter(function (m) { return m[0] === "full"; })[0];
    var t = doc.training || {};
    var recipe = t.options ? t.options.recipe : null;
    var recipes = (t.recipes || []).filter(function (r) { return r.id !== recipe; }).map(function (r) {
      return [r.id, r.terms.map(function (terms, i) { return [full ? full[2][i][0] : 0].concat(terms); })];
    });
    return { s: fit.seq_len, x: doc.config ? doc.config.context : null, c: k.c, f: k.f, r: k.r, n: names,
      m: modes, d: recipe, rc: recipes };
  }

  function start(data) {
  // The site lists its cards once, in static/cards.js, which the page loads first.
  data.k = window.modelatlasCards || [];
  var el = function (id) { return document.getElementById(id); };
  var NAMES = { full: "Full fine-tune", lora: "LoRA", qlora: "QLoRA", serve: "Serve" };
  var VERDICT = { comfortable: "✓ comfortable", tight: "tight", does_not_fit: "✗ does not fit" };

  function bytes(n) {
    var a = Math.abs(n);
    if (a >= 1e11) return (n / 1e9).toFixed(0) + " GB";
    if (a >= 1e10) return (n / 1e9).toFixed(1) + " GB";
    if (a >= 1e9) return (n / 1e9).toFixed(2) + " GB";
    if (a >= 1e6) return (n / 1e6).toFixed(0) + " MB";
    if (a >= 1e3) return (n / 1e3).toFixed(0) + " kB";
    return n.toFixed(0) + " B";
  }
  function find(list, id) { return list.filter(function (x) { return x[0] === id; })[0]; }
  // A phase is [name index, fixed, per_sample, per_token, per_token_sq, windowed, window]; trailing
  // zeros are left off.
  function term(p, i) { return p[i] || 0; }
  function perSample(p, seq) {
    var windowed = term(p, 6) > 0 ? Math.min(seq, p[6]) * term(p, 5) : 0;
    return term(p, 2) + seq * term(p, 3) + seq * seq * term(p, 4) + windowed;
  }
  function phasesOf(modeId, recipeId) {
    // The recipe changes the full fine-tune's phases; LoRA and QLoRA keep the page's default.
    if (modeId === "full" && recipeId && recipeId !== data.d) {
      var r = find(data.rc, recipeId), base = find(data.m, "full")[2];
      // A bare number is the default's same phase with other fixed bytes.
      if (r) return r[1].map(function (p, i) { return typeof p === "number" ? [base[i][0], p].concat(base[i].slice(2)) : p; });
    }
    return find(data.m, modeId)[2];
  }

  function evaluate(modeId, cardId, batch, seq, recipeId) {
    var phases = phasesOf(modeId, recipeId);
    // A card is [id, name, memory_gb, context_bytes, workspace_bytes, usd_per_hour].
    var card = find(data.k, cardId);
    var allocated = 0, phase = "";
    phases.forEach(function (p) {
      var b = term(p, 1) + batch * perSample(p, seq);
      if (b > allocated) { allocated = b; phase = data.n[p[0]]; }
    });
    var training = find(data.m, modeId)[1] === 1;
    var reserved = allocated * (1 + data.r) + (training ? 2 : 1) * card[4];
    var peak = reserved + card[3];
    var cardBytes = card[2] * 1e9;
    var verdict = peak <= data.c * cardBytes ? "comfortable" : peak <= data.f * cardBytes ? "tight" : "does_not_fit";
    return { peak_bytes: peak, allocated_bytes: allocated, reserved_bytes: reserved, peak_phase: phase,
      share: peak / cardBytes, verdict: verdict, card: card[1] };
  }
  // Exposed for the browser test, which checks a grid of inputs against `modelatlas what-if`.
  window.modelatlasWhatIf = evaluate;

  // The largest batch within the fit share of the card at `seq`: every phase is linear in the
  // batch, so each gives a bound and the smallest holds (0 when batch 1 does not fit).
  function largest(modeId, card, seq, recipeId) {
    var training = find(data.m, modeId)[1] === 1;
    var k = 1 + data.r, add = (training ? 2 : 1) * card[4] + card[3];
    var budget = data.f * card[2] * 1e9, best = Infinity;
    var phases = phasesOf(modeId, recipeId);
    for (var i = 0; i < phases.length; i++) {
      var room = budget - (term(phases[i], 1) * k + add), per = perSample(phases[i], seq) * k;
      if (room < 0) return 0;
      if (per > 0) best = Math.min(best, Math.floor(room / per));
    }
    return best === Infinity ? 0 : best;
  }

  // The form is built here: without the script it would be inputs that answer nothing.
  function field(label, tag, id, attrs) {
    var l = document.createElement("label"), f = document.createElement(tag);
    f.id = id;
    Object.keys(attrs || {}).forEach(function (k) { f.setAttribute(k, attrs[k]); });
    l.append(label + " ", f);
    el("calc").appendChild(l);
  }
  field("Mode", "select", "calc-mode");
  field("Recipe", "select", "calc-recipe");
  field("Batch", "input", "calc-batch", { type: "number", min: "1", value: "1" });
  field("Tokens", "input", "calc-seq", { type: "number", min: "1", value: String(data.s) });
  field("Card", "select", "calc-card");
  function option(select, value, text, selected) {
    var o = document.createElement("option");
    o.value = value; o.textContent = text; o.selected = !!selected;
    select.appendChild(o);
  }
  data.m.forEach(function (m) { option(el("calc-mode"), m[0], NAMES[m[0]] || m[0], m[0] === "lora"); });
  if (data.d) {
    option(el("calc-recipe"), data.d, data.d, true);
    data.rc.forEach(function (r) { option(el("calc-recipe"), r[0], r[0]); });
  } else {
    el("calc-recipe").parentNode.hidden = true;
  }
  data.k.forEach(function (c) { option(el("calc-card"), c[0], c[1], c[0] === "a100-80gb"); });
  el("calc").hidden = false;
  // The per-card table's place, after the answer (a site's page leaves it out: it holds nothing
  // without this script).
  if (!el("calc-cards")) {
    var cards = document.createElement("div");
    cards.id = "calc-cards";
    el("calc-out").after(cards);
  }

  function cell(row, tag, text, cls) {
    var c = document.createElement(tag);
    c.textContent = text;
    if (cls) c.className = cls;
    row.appendChild(c);
  }
  // Every card at the form's mode, batch, length and recipe: the table the page leaves to this
  // script (the fit table above is the same at the plan's length and batch 1).
  function table(mode, batch, seq, recipe) {
    var box = el("calc-cards");
    var t = document.createElement("table");
    var cap = document.createElement("caption");
    cap.textContent = (NAMES[mode] || mode) + ", batch " + batch + " at " + seq.toLocaleString("en") +
      " tokens, on every card (nvidia-smi)";
    t.appendChild(cap);
    var head = t.createTHead().insertRow();
    ["Card", "Peak", "Share", "Verdict", "Largest batch", "$/h"].forEach(function (h) { cell(head, "th", h); });
    var body = t.createTBody();
    data.k.forEach(function (c) {
      var r = evaluate(mode, c[0], batch, seq, recipe);
      var row = body.insertRow();
      cell(row, "th", c[1]);
      cell(row, "td", bytes(r.peak_bytes), "num");
      cell(row, "td", (100 * r.share).toFixed(0) + "%", "num");
      cell(row, "td", VERDICT[r.verdict], r.verdict);
      var most = evaluate(mode, c[0], 1, seq, recipe).verdict === "does_not_fit" ? 0 : largest(mode, c, seq, recipe);
      cell(row, "td", most ? most.toLocaleString("en") : "–", "num");
      cell(row, "td", "$" + c[5].toFixed(2), "num");
    });
    var scroll = document.createElement("div");
    scroll.className = "scroll";
    scroll.tabIndex = 0;
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", "Every card");
    scroll.appendChild(t);
    box.replaceChildren(scroll);
  }

  function update() {
    var batch = Math.max(1, Math.floor(Number(el("calc-batch").value) || 1));
    var seq = Math.max(1, Math.floor(Number(el("calc-seq").value) || 1));
    var mode = el("calc-mode").value;
    var recipe = el("calc-recipe").value || null;
    el("calc-recipe").disabled = mode !== "full";
    var r = evaluate(mode, el("calc-card").value, batch, seq, recipe);
    var out = el("calc-out");
    out.className = "calc-out " + r.verdict;
    out.setAttribute("data-verdict", r.verdict);
    out.textContent = "Peak " + bytes(r.peak_bytes) + " in nvidia-smi (" + bytes(r.allocated_bytes) +
      " allocated, " + bytes(r.reserved_bytes) + " reserved; set by " + r.peak_phase + "), " +
      (100 * r.share).toFixed(1) + "% of " + r.card + ": " + r.verdict.replace(/_/g, " ") + "." +
      (data.x && seq > data.x ? " Longer than the model's context (" + data.x + " tokens)." : "");
    table(mode, batch, seq, recipe);
  }
  ["calc-mode", "calc-recipe", "calc-batch", "calc-seq", "calc-card"].forEach(function (id) {
    el(id).addEventListener("input", update);
    el(id).addEventListener("change", update);
  });
  update();
  }
})();
