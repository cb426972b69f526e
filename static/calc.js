// The model page's what-if calculator. It evaluates the memory formula the page's JSON exports
// (no second planner): each phase is fixed + batch * (per_sample + seq * per_token + seq^2 *
// per_token_sq + min(seq, window) * windowed_per_token), the peak is the largest phase (the bytes
// torch allocates); on a card, nvidia-smi shows that x (1 + the allocator's reserve) + the cuBLAS
// workspaces (two in training) + the card's CUDA context, and the verdict uses the same bands as
// the fit table on that figure.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("calc-data").textContent);
  var el = function (id) { return document.getElementById(id); };
  var out = el("calc-out");

  function bytes(n) {
    var a = Math.abs(n);
    if (a >= 1e11) return (n / 1e9).toFixed(0) + " GB";
    if (a >= 1e8) return (n / 1e9).toFixed(2) + " GB";
    if (a >= 1e6) return (n / 1e6).toFixed(0) + " MB";
    if (a >= 1e3) return (n / 1e3).toFixed(0) + " kB";
    return n.toFixed(0) + " B";
  }

  function evaluate(modeId, cardId, batch, seq, recipeId) {
    var mode = data.modes.filter(function (m) { return m.id === modeId; })[0];
    // The recipe changes the full fine-tune's phases; LoRA and QLoRA keep the page's default.
    if (modeId === "full" && recipeId && recipeId !== data.default_recipe) {
      mode = data.recipes.filter(function (r) { return r.id === recipeId; })[0] || mode;
    }
    // A card is [id, memory_gb, context_bytes, workspace_bytes]; its name is the form's option.
    var card = data.cards.filter(function (c) { return c[0] === cardId; })[0];
    var option = [].filter.call(el("calc-card").options, function (o) { return o.value === cardId; })[0];
    var allocated = 0, phase = "";
    // A phase is [name, fixed, per_sample, per_token, per_token_sq, windowed_per_token, window].
    mode.phases.forEach(function (p) {
      var windowed = p[6] > 0 ? Math.min(seq, p[6]) * p[5] : 0;
      var b = p[1] + batch * (p[2] + seq * p[3] + seq * seq * p[4] + windowed);
      if (b > allocated) { allocated = b; phase = p[0]; }
    });
    var training = data.modes.filter(function (m) { return m.id === modeId; })[0].training;
    var workspaces = training ? 2 : 1;
    var reserved = allocated * (1 + data.allocator_reserve_fraction) + workspaces * card[3];
    var peak = reserved + card[2];
    var cardBytes = card[1] * 1e9;
    var verdict = peak <= data.comfortable_share * cardBytes ? "comfortable"
      : peak <= data.fit_share * cardBytes ? "tight" : "does_not_fit";
    return { peak_bytes: peak, allocated_bytes: allocated, reserved_bytes: reserved, peak_phase: phase,
      share: peak / cardBytes, verdict: verdict, card: option ? option.textContent : cardId };
  }
  // Exposed for the browser test, which checks a grid of inputs against `modelatlas what-if`.
  window.modelatlasWhatIf = evaluate;

  function update() {
    var batch = Math.max(1, Math.floor(Number(el("calc-batch").value) || 1));
    var seq = Math.max(1, Math.floor(Number(el("calc-seq").value) || 1));
    var recipe = el("calc-recipe") ? el("calc-recipe").value : null;
    var r = evaluate(el("calc-mode").value, el("calc-card").value, batch, seq, recipe);
    out.className = "calc-out " + r.verdict;
    out.setAttribute("data-verdict", r.verdict);
    out.textContent = "Peak " + bytes(r.peak_bytes) + " in nvidia-smi (" + bytes(r.allocated_bytes) +
      " allocated, " + bytes(r.reserved_bytes) + " reserved; set by " + r.peak_phase + "), " +
      (100 * r.share).toFixed(1) + "% of " + r.card + ": " + r.verdict.replace(/_/g, " ") + "." +
      (data.context && seq > data.context ? " Longer than the model's context (" + data.context + " tokens)." : "");
  }
  ["calc-mode", "calc-recipe", "calc-batch", "calc-seq", "calc-card"].forEach(function (id) {
    if (!el(id)) return;
    el(id).addEventListener("input", update);
    el(id).addEventListener("change", update);
  });
  update();
})();
