// "Plan your own model": runs the site's planner on a pasted config. The planner is three
// WebAssembly modules, each holding some of the families (`family::TABLES` in src/family.rs),
// embedded base64 in planner-wasm.js (part A, loaded with the page), planner-b-wasm.js and
// planner-c-wasm.js (parts B and C, each loaded on first need), so that the page also works from file://, where fetch() is refused. A
// module's C ABI: ma_alloc(len) -> ptr, ma_plan(ptr, len) -> out (4-byte LE length, then UTF-8
// JSON), ma_free(ptr, len). The numbers are those of `modelatlas plan --format json`.
//
// Routing (see route() and pick()): every config is planned by part A first. Part B plans it
// again when A's answer (and part C when the answer picked so far, in the same way) is a plan whose unsupported_reason says the model_type "is not a family
// the planner supports", or an error on a sub-config's `model_type` (field or message naming
// `text_config.model_type`, `encoder.model_type` or `decoder.model_type`) that "is not planned
// yet". B's answer is shown, except when B does not know the family either: then the answer of the
// module that files the model under "<slug>-unsupported" (a slug that is some family's key, in A
// or in B), which is the CLI's, holding every family; else A's. Each module holds the families its
// own families plan inside them (src/family.rs), so the shown answer is the CLI's, but for one
// case: an `encoder-decoder` (part B) whose encoder is of a type only part A holds.
(function () {
  "use strict";
  var el = function (id) { return document.getElementById(id); };
  var status = el("pl-status"), errorBox = el("pl-error"), out = el("pl-out"), links = el("pl-links");
  var wasm = null, urls = [], planned = 0;
  var FIELDS = ["recipe", "attention", "lora-rank", "lora-targets", "epochs", "samples", "batch"];

  // The site ships each module gzipped in base64 (src/planner_assets.rs): the browser's own
  // DecompressionStream restores it, from file:// too (no fetch).
  function instantiate(b64) {
    var bin = atob(b64 || ""), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var gunzipped = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")));
    return gunzipped.arrayBuffer().then(function (module) {
      return WebAssembly.instantiate(module, {});
    }).then(function (r) {
      var m = r.instance.exports;
      m.ma_init();
      return m;
    });
  }

  function load() {
    return instantiate(self.MODELATLAS_PLANNER_WASM).then(function (m) { wasm = m; });
  }

  // Parts B and C: each script is added to the page once, on the first config that needs it.
  var PARTS = [
    { name: "b", script: "planner-b-wasm.js", global: "MODELATLAS_PLANNER_B_WASM", module: null, loading: null },
    { name: "c", script: "planner-c-wasm.js", global: "MODELATLAS_PLANNER_C_WASM", module: null, loading: null },
  ];
  function loadPart(p) {
    if (!p.loading) {
      p.loading = new Promise(function (ok, fail) {
        var s = document.createElement("script");
        s.src = (document.querySelector('script[src$="planner.js"]').getAttribute("src")).replace("planner.js", p.script);
        s.onload = ok;
        s.onerror = function () { fail(new Error("could not load " + s.src)); };
        document.head.appendChild(s);
      }).then(function () {
        return instantiate(self[p.global]);
      }).then(function (m) { p.module = m; });
      p.loading.catch(function () { p.loading = null; });
    }
    return p.loading;
  }

  function unknownFamily(r) {
    if (!r.ok) return false;
    var why = JSON.parse(r.json).unsupported_reason;
    return typeof why === "string" && why.indexOf("is not a family the planner supports") >= 0;
  }

  // Whether part B is to plan a config part A answered `r` for.
  function route(r) {
    if (unknownFamily(r)) return true;
    if (r.ok || typeof r.error !== "string" || r.error.indexOf("is not planned yet") < 0) return false;
    return /\b(text_config|encoder|decoder)\.model_type\b/.test(r.error + " " + (r.field || ""));
  }

  function family(r) {
    return r.ok ? JSON.parse(r.json).family : "";
  }

  // The answer shown, of A's `a` and B's `b`.
  function pick(a, b) {
    if (!unknownFamily(b)) return b;
    if (unknownFamily(a) && /-unsupported$/.test(family(b)) && !/-unsupported$/.test(family(a))) return b;
    return a;
  }

  function call(wasm, request) {
    var input = new TextEncoder().encode(JSON.stringify(request));
    var p = wasm.ma_alloc(input.length);
    new Uint8Array(wasm.memory.buffer, p, input.length).set(input);
    var o = wasm.ma_plan(p, input.length);
    var len = new DataView(wasm.memory.buffer).getUint32(o, true);
    var text = new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, o + 4, len));
    wasm.ma_free(o, 4 + len);
    return JSON.parse(text);
  }

  function num(id) {
    var v = el(id).value.trim();
    return v === "" ? null : Number(v);
  }

  function request() {
    return {
      name: el("pl-name").value.trim(),
      config: el("pl-config").value,
      index: el("pl-index").value.trim() || null,
      safetensors_header: el("pl-header").value.trim() || null,
      inputs: {
        recipe: el("pl-recipe").value,
        attention: el("pl-attention").value,
        checkpointing: el("pl-checkpointing").checked,
        lora_rank: num("pl-lora-rank"),
        lora_targets: el("pl-lora-targets").value,
        epochs: num("pl-epochs"),
        samples: num("pl-samples"),
        batch: num("pl-batch"),
      },
    };
  }

  function b64url(text) {
    var bytes = new TextEncoder().encode(text), s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unb64url(text) {
    var bin = atob(text.replace(/-/g, "+").replace(/_/g, "/")), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  }

  // The share link: the config (compacted when it parses) and the inputs, after the `#`.
  function shareHash() {
    var text = el("pl-config").value, compact = text;
    try { compact = JSON.stringify(JSON.parse(text)); } catch (e) { /* shared as written */ }
    var parts = ["config=" + b64url(compact), "name=" + encodeURIComponent(el("pl-name").value)];
    FIELDS.forEach(function (f) { parts.push(f + "=" + encodeURIComponent(el("pl-" + f).value)); });
    if (el("pl-checkpointing").checked) parts.push("checkpointing=1");
    return "#" + parts.join("&");
  }

  function fromHash() {
    var h = location.hash.replace(/^#/, "");
    if (!h) return false;
    var got = {};
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) got[kv.slice(0, i)] = kv.slice(i + 1);
    });
    if (!got.config) return false;
    try { el("pl-config").value = unb64url(got.config); } catch (e) { return false; }
    if (got.name !== undefined) el("pl-name").value = decodeURIComponent(got.name);
    FIELDS.forEach(function (f) { if (got[f] !== undefined) el("pl-" + f).value = decodeURIComponent(got[f]); });
    el("pl-checkpointing").checked = got.checkpointing === "1";
    return true;
  }

  function blobUrl(text, type) {
    var u = URL.createObjectURL(new Blob([text], { type: type }));
    urls.push(u);
    return u;
  }

  function show(html) {
    // The model page's <main>, without its breadcrumbs (this page has no family to go back to)
    // and with its calculator re-run on the new data.
    var doc = new DOMParser().parseFromString(html, "text/html");
    var main = doc.querySelector("main");
    var crumbs = main.querySelector("nav.crumbs");
    if (crumbs) crumbs.remove();
    var scripts = main.querySelectorAll("script[src]");
    for (var i = 0; i < scripts.length; i++) scripts[i].remove();
    var h1 = main.querySelector("h1");
    if (h1) {
      var h2 = document.createElement("h2");
      h2.id = "pl-title";
      h2.textContent = h1.textContent;
      h1.replaceWith(h2);
    }
    out.replaceChildren.apply(out, Array.prototype.slice.call(main.childNodes).map(function (n) { return document.adoptNode(n); }));
    if (el("calc-data")) {
      var s = document.createElement("script");
      s.src = (document.querySelector('script[src$="planner.js"]').getAttribute("src")).replace("planner.js", "calc.js");
      out.appendChild(s);
    }
  }

  function attempt(module, req) {
    try {
      return call(module, req);
    } catch (e) {
      return { ok: false, error: "the planner stopped: " + e };
    }
  }

  // Plans with part A, then with part B, then part C, while route() says so. `ms` counts the
  // planning only, not the loading of a part.
  function plan() {
    errorBox.hidden = true;
    if (!wasm) return;
    var req = request(), mine = ++planned;
    var t0 = performance.now();
    var a = attempt(wasm, req);
    var ms = performance.now() - t0;
    (function next(r, from, i) {
      if (i >= PARTS.length || !route(r)) { done(r, ms, from); return; }
      var p = PARTS[i];
      status.textContent = "Loading another part of the planner…";
      loadPart(p).then(function () {
        if (mine !== planned) return; // a newer plan was asked for meanwhile
        var t1 = performance.now();
        var b = attempt(p.module, req);
        ms += performance.now() - t1;
        var picked = pick(r, b);
        next(picked, picked === r ? from : p.name, i + 1);
      }, function (e) {
        if (mine === planned) done({ ok: false, error: "this browser could not start a part of the planner (WebAssembly): " + e }, ms, p.name);
      });
    })(a, "a", 0);
  }

  function done(r, ms, part) {
    out.setAttribute("data-module", part);
    urls.forEach(function (u) { URL.revokeObjectURL(u); });
    urls = [];
    if (!r.ok) {
      out.replaceChildren();
      links.hidden = true;
      errorBox.textContent = "error: " + r.error;
      errorBox.hidden = false;
      status.textContent = "Not planned.";
      document.body.setAttribute("data-planned", "error");
      return;
    }
    show(r.html);
    el("pl-json").href = blobUrl(r.json, "application/json");
    el("pl-md").href = blobUrl(r.markdown, "text/markdown");
    el("pl-share").href = shareHash();
    links.hidden = false;
    out.setAttribute("data-json", r.json);
    status.textContent = "Planned in " + ms.toFixed(1) + " ms, in this browser.";
    status.setAttribute("data-ms", String(ms));
    document.body.setAttribute("data-planned", "ok");
  }

  // A dropped or chosen file goes to the box its content belongs in.
  function take(files) {
    Array.prototype.forEach.call(files, function (f) {
      f.text().then(function (text) {
        var target = "pl-config";
        try {
          var j = JSON.parse(text);
          if (j && j.weight_map) target = "pl-index";
          else if (j && !j.model_type && !j.architectures && Object.keys(j).some(function (k) { return j[k] && j[k].dtype && j[k].shape; })) target = "pl-header";
        } catch (e) { /* a malformed config.json: the planner names the error */ }
        el(target).value = text;
        if (target === "pl-config" && /\/?config\.json$/.test(f.name) === false && el("pl-name").value === "my-model") {
          el("pl-name").value = f.name.replace(/\.json$/, "");
        }
        if (target !== "pl-config") el(target).closest("details").open = true;
        plan();
      });
    });
  }

  el("planner").addEventListener("submit", function (e) { e.preventDefault(); plan(); });
  el("pl-files").addEventListener("change", function (e) { take(e.target.files); });
  el("pl-config").addEventListener("dragover", function (e) { e.preventDefault(); });
  el("pl-config").addEventListener("drop", function (e) {
    if (e.dataTransfer && e.dataTransfer.files.length) { e.preventDefault(); take(e.dataTransfer.files); }
  });
  window.addEventListener("hashchange", function () { if (fromHash()) plan(); });

  status.textContent = "Loading the planner…";
  load().then(function () {
    status.textContent = "Ready: paste a config.json and press Plan.";
    document.body.setAttribute("data-planner", "ready");
    if (fromHash()) plan();
  }, function (e) {
    status.textContent = "";
    errorBox.textContent = "error: this browser could not start the planner (WebAssembly): " + e;
    errorBox.hidden = false;
  });
})();
