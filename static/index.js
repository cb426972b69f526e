// The index table, sortable by column and filtered as you type. Progressive enhancement: without
// JavaScript the page is the full table. Works from file:// (it reads the table, not a fetch).
(function () {
  "use strict";
  var table = document.getElementById("models");
  if (!table) return;
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var status = document.getElementById("models-status");

  // Search: every whitespace-separated term must start a word of the row's text (after its start
  // or a character that is not a letter or digit), so "7b" finds Llama-2-7b, not a 17B model.
  var box = document.getElementById("models-search");
  box.hidden = false;
  document.getElementById("models-search-label").hidden = false;
  // What a row is found by: its cells as shown (model, tags, family, the rounded count, context,
  // the cards), the exact count under the rounded one, and what `data-s` adds (the class, the
  // active count of a mixture of experts).
  var texts = new Map();
  function searchText(row) {
    var text = texts.get(row);
    if (text === undefined) {
      var parts = Array.prototype.map.call(row.cells, function (c) { return c.textContent; });
      var exact = row.querySelector("span[title]");
      if (exact) parts.push(exact.getAttribute("title").replace(/,/g, ""));
      parts.push(row.getAttribute("data-s") || "");
      text = parts.join(" ").toLowerCase();
      texts.set(row, text);
    }
    return text;
  }
  function found(text, t) {
    if (!/^[a-z0-9]/.test(t)) return text.indexOf(t) !== -1;
    for (var i = text.indexOf(t); i !== -1; i = text.indexOf(t, i + 1)) {
      if (i === 0 || !/[a-z0-9]/.test(text.charAt(i - 1))) return true;
    }
    return false;
  }
  function filter() {
    var terms = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var text = searchText(row);
      var keep = terms.every(function (t) { return found(text, t); });
      row.hidden = !keep;
      if (keep) shown += 1;
    });
    status.textContent = shown + " of " + rows.length + " models shown";
  }
  box.addEventListener("input", filter);

  // Sort: a button in each header; the header's data-sort says how (see the key below).
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  headers.forEach(function (th, col) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    button.addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      // Numbers by their value (the exact count under a rounded one), cards by their memory
      // ("T4 16 GB" before "H200 141 GB"), the rest by its text; "–" is NaN and sorts last.
      var kind = th.getAttribute("data-sort");
      var key = function (row) {
        var cell = row.cells[col];
        var text = cell.textContent.trim();
        if (kind === "n") {
          var exact = cell.querySelector("span[title]");
          return parseFloat((exact ? exact.getAttribute("title") : text).replace(/,/g, ""));
        }
        if (kind === "gb") {
          var m = / ([0-9.]+) GB$/.exec(text);
          return m ? parseFloat(m[1]) : NaN;
        }
        return text.toLowerCase();
      };
      rows.sort(function (a, b) {
        var ka = key(a), kb = key(b);
        // Missing numbers (NaN) sort last either way.
        if (typeof ka === "number" && isNaN(ka)) return 1;
        if (typeof kb === "number" && isNaN(kb)) return -1;
        var c = ka < kb ? -1 : ka > kb ? 1 : 0;
        return ascending ? c : -c;
      });
      rows.forEach(function (row) { tbody.appendChild(row); });
      status.textContent = "sorted by " + button.textContent + (ascending ? ", ascending" : ", descending");
    });
  });
})();
