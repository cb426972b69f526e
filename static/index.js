// The index table, sortable by column and filtered as you type. Progressive enhancement: without
// JavaScript the page is the full table. Works from file:// (it reads the table, not a fetch).
(function () {
  "use strict";
  var table = document.getElementById("models");
  if (!table) return;
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var status = document.getElementById("models-status");

  // Search: every whitespace-separated term must appear in the row's text.
  var box = document.getElementById("models-search");
  box.hidden = false;
  document.getElementById("models-search-label").hidden = false;
  function filter() {
    var terms = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute("data-search");
      var keep = terms.every(function (t) { return text.indexOf(t) !== -1; });
      row.hidden = !keep;
      if (keep) shown += 1;
    });
    status.textContent = shown + " of " + rows.length + " models shown";
  }
  box.addEventListener("input", filter);

  // Sort: a button in each header; numbers sort by data-value, text by its content.
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
      var key = function (row) {
        var cell = row.cells[col];
        var v = cell.getAttribute("data-value");
        return v === null ? cell.textContent.trim().toLowerCase() : parseFloat(v);
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
