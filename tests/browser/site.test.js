// The built site in headless Chromium, as a user would use it: served from a local static server,
// the index filtered and sorted, a model page opened, in light and dark, with no console error and
// no request leaving the local server; axe-core (injected from node_modules) on every page kind at
// a desktop's and a phone's width, light and dark, with no serious or critical violation.
// Screenshots go to target/test-output/screenshots/.
//
// Usage: node tests/browser/site.test.js <site-dir> <out-dir>   (Chromium at /usr/bin/chromium)
"use strict";
const http = require("http");
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const siteDir = path.resolve(process.argv[2] || "site");
const outDir = path.resolve(process.argv[3] || "target/test-output/screenshots");
const binary = path.resolve(process.argv[4] || "target/debug/modelatlas");
const { execFileSync } = require("child_process");
const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
// One page of each kind: the index, three model pages (dense decoder, mixture of experts,
// encoder), a family page, the method page and the 404 page.
const KINDS = ["/index.html", "/models/meta-llama/Llama-2-7b-hf.html", "/models/mistralai/Mixtral-8x7B-v0.1.html",
  "/models/FacebookAI/xlm-roberta-base.html", "/families/llama.html", "/method.html", "/404.html"];
const TYPES = { ".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".json": "application/json",
  ".svg": "image/svg+xml", ".md": "text/markdown", ".txt": "text/plain", ".xml": "application/xml" };

function serve() {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.join(siteDir, rel.endsWith("/") ? rel + "index.html" : rel);
    if (!file.startsWith(siteDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

let passed = 0, failed = 0;

// Models whose layers are not all alike (a dense prefix before the experts; Jamba's attention,
// Mamba and expert layers) list each kind of layer once under "By part", with the indices it
// takes, readable at a phone's and a desktop's width. `ONLY=structure` runs just this case.
const FOLDED = [["/models/zai-org/GLM-5.1.html", 2], ["/models/ai21labs/AI21-Jamba-1.5-Mini.html", 3]];
async function foldedStructure(browser, origin) {
  for (const width of [390, 1366]) {
    const page = await browser.newPage({ viewport: { width, height: 844 } });
    for (const [rel, kinds] of FOLDED) {
      await page.goto(origin + rel);
      const details = page.locator("details", { has: page.locator("summary", { hasText: /^By part$/ }) });
      await details.locator("summary").click();
      const items = await details.locator("li").allTextContents();
      const layers = items.filter((t) => t.startsWith("model.layers.{i}"));
      check(`${width}px: ${rel} lists ${kinds} kinds of layer, each with its indices`,
        layers.length === kinds && layers.every((t) => /, i = [0-9]/.test(t)) && !items.some((t) => /model\.layers\.[0-9]/.test(t)),
        JSON.stringify(items));
      const over = await details.evaluate((d, w) => [...d.querySelectorAll("li")].filter((li) => li.getBoundingClientRect().right > w).length, width);
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      check(`${width}px: ${rel}'s parts fit the screen`, over === 0 && pageWidth <= width, `${over} items past the edge, page ${pageWidth}px`);
      await details.screenshot({ path: path.join(outDir, `${rel.split("/").pop().replace(".html", "")}-${width}-structure.png`) });
    }
    await page.close();
  }
}
function check(name, cond, detail) {
  if (cond) { passed += 1; console.log("ok   " + name); }
  else { failed += 1; console.log("FAIL " + name + (detail ? ": " + detail : "")); }
}

(async () => {
  fs.mkdirSync(outDir, { recursive: true });
  const server = await serve();
  const origin = "http://127.0.0.1:" + server.address().port;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  try {
    await foldedStructure(browser, origin);
    if (process.env.ONLY === "structure") {
      console.log(`browser: ${passed} passed, ${failed} failed`);
      process.exitCode = failed ? 1 : 0;
      return;
    }
    for (const scheme of ["light", "dark"]) {
      const page = await browser.newPage({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
      const errors = [], outside = [];
      page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("request", (r) => { if (!r.url().startsWith(origin)) outside.push(r.url()); });

      await page.goto(origin + "/index.html");
      const total = await page.$$eval("#models tbody tr", (rs) => rs.length);
      await page.fill("#models-search", "llama 7b");
      const shown = await page.$$eval("#models tbody tr", (rs) => rs.filter((r) => !r.hidden).map((r) => r.cells[0].textContent.trim()));
      check(`${scheme}: typing filters the table`, shown.length > 0 && shown.length < total && shown.every((s) => /llama-2-7b/i.test(s)), JSON.stringify(shown));
      await page.fill("#models-search", "");
      const all = await page.$$eval("#models tbody tr", (rs) => rs.filter((r) => !r.hidden).length);
      check(`${scheme}: clearing the box shows every model`, all === total, `${all} of ${total}`);
      for (const [q, want] of [["t4", /./], ["6.74b", /llama-2-7b/i], ["moe", /\bmoe\b/], ["encoder", /\bencoder\b/]]) {
        await page.fill("#models-search", q);
        const hits = await page.$$eval("#models tbody tr", (rs) => rs.filter((r) => !r.hidden).map((r) => r.cells[0].textContent.trim()));
        check(`${scheme}: searching "${q}" finds models`, hits.length > 0 && hits.length < total && hits.every((h) => want.test(h)), JSON.stringify(hits));
      }
      await page.fill("#models-search", "");
      // A card column sorts by the card's memory, not its name ("H200 141 GB" after "L40S 48 GB").
      await page.click("#models thead th:nth-child(5) button");
      const gbs = await page.$$eval("#models tbody tr td:nth-child(5)", (cs) => cs.map((c) => parseFloat((/ ([0-9.]+) GB$/.exec(c.textContent.trim()) || [])[1])).filter((v) => !isNaN(v)));
      const names = await page.$$eval("#models tbody tr td:nth-child(5)", (cs) => cs.map((c) => c.textContent.trim()));
      check(`${scheme}: a card column sorts by card memory`, gbs.length > 2 && gbs.every((v, i) => i === 0 || gbs[i - 1] <= v)
        && names.lastIndexOf("T4 16 GB") < names.indexOf("A100 40 GB") && names.lastIndexOf("A100 80 GB") < names.indexOf("B200 180 GB"), names.join(", "));
      const params = "#models thead th:nth-child(3) button";
      await page.click(params);
      await page.click(params);
      const values = await page.$$eval("#models tbody tr td:nth-child(3) span[title]", (cs) => cs.map((c) => parseFloat(c.getAttribute("title").replace(/,/g, ""))).filter((v) => !isNaN(v)));
      check(`${scheme}: a column sorts descending on the second click`, values.length > 2 && values.every((v, i) => i === 0 || values[i - 1] >= v));
      await page.keyboard.press("Tab");
      await page.screenshot({ path: path.join(outDir, `index-${scheme}.png`), fullPage: true });

      await page.click("text=FacebookAI/xlm-roberta-base");
      await page.waitForLoadState("load");
      check(`${scheme}: the model page opens from the index`, page.url().endsWith("/models/FacebookAI/xlm-roberta-base.html"), page.url());
      const h1 = await page.textContent("h1");
      check(`${scheme}: the model page names its model`, h1.trim() === "FacebookAI/xlm-roberta-base", h1);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      check(`${scheme}: the colour scheme follows the system`, scheme === "dark" ? bg !== "rgb(255, 255, 255)" : bg === "rgb(255, 255, 255)", bg);
      await page.screenshot({ path: path.join(outDir, `model-${scheme}.png`), fullPage: false });

      // The calculator: a bigger batch on a small card changes the verdict at once (its data is
      // the model's JSON, fetched).
      await page.waitForFunction(() => typeof window.modelatlasWhatIf === "function");
      await page.selectOption("#calc-mode", "full");
      await page.selectOption("#calc-card", "t4-16gb");
      await page.fill("#calc-batch", "1");
      const before = await page.getAttribute("#calc-out", "data-verdict");
      await page.fill("#calc-batch", "4096");
      const after = await page.getAttribute("#calc-out", "data-verdict");
      check(`${scheme}: changing the calculator's batch changes the verdict`, before !== "does_not_fit" && after === "does_not_fit", `${before} -> ${after}`);
      // The per-card table the page leaves to the script: one row per card, and it follows the form.
      const cards = await page.$$eval("#calc-cards tbody tr", (rs) => rs.length);
      const cardOptions = await page.$$eval("#calc-card option", (os) => os.length);
      check(`${scheme}: the calculator tabulates every card`, cards > 5 && cards === cardOptions, `${cards} rows, ${cardOptions} cards`);
      await page.fill("#calc-batch", "1");
      await page.fill("#calc-seq", "256");
      const t4 = await page.$eval("#calc-cards tbody tr", (r) => r.textContent);
      check(`${scheme}: the per-card table follows the tokens`, /T4 16 GB/.test(t4) && /✓|tight/.test(t4), t4);
      const calc = await page.$("section[aria-labelledby=calculator]");
      await calc.screenshot({ path: path.join(outDir, `calculator-${scheme}.png`) });
      check(`${scheme}: no console error`, errors.length === 0, errors.join("; "));
      check(`${scheme}: no request outside the local server`, outside.length === 0, outside.join(", "));
      await page.close();
    }
    // axe-core on every page kind, desktop and phone, light and dark; screenshots of the three
    // model pages' first screen at both widths.
    for (const [label, width] of [["desktop", 1366], ["phone", 390]]) {
      for (const scheme of ["light", "dark"]) {
        const page = await browser.newPage({ colorScheme: scheme, viewport: { width, height: 844 } });
        for (const rel of KINDS) {
          await page.goto(origin + rel);
          await page.addScriptTag({ content: AXE });
          const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ["violations"] }));
          const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
          check(`axe ${label} ${scheme}: ${rel} has no serious or critical violation`, bad.length === 0,
            bad.map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join("; ")}`).join(" | "));
          if (rel.startsWith("/models/")) {
            const name = rel.split("/").pop().replace(".html", "");
            await page.screenshot({ path: path.join(outDir, `${name}-${width}-${scheme}.png`) });
          }
        }
        await page.close();
      }
    }
    // The answer is on the phone's first screen: every mode's peak and smallest card above 844 px.
    {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(origin + "/models/meta-llama/Llama-2-7b-hf.html");
      const bottom = await page.$eval("table.glance-modes", (t) => t.getBoundingClientRect().bottom);
      const rows = await page.$$eval("table.glance-modes tbody tr", (rs) => rs.map((r) => r.textContent));
      check("phone: the per-mode answer ends within the first screen", bottom <= 844 && rows.length === 4, `${bottom}px, ${rows.length} rows`);
      const closed = await page.$$eval("section details", (ds) => ds.length >= 3 && ds.every((d) => !d.open));
      check("what makes up the peaks, parameters by part and sources are collapsed by default", closed);
      const toc = await page.$$eval("nav.toc a", (as) => as.map((a) => a.getAttribute("href")));
      const missing = [];
      for (const href of toc) { if (!(await page.$(href))) missing.push(href); }
      check("every table-of-contents entry leads to a section", toc.length >= 5 && missing.length === 0, missing.join(", "));
      await page.close();
    }
    // Without JavaScript the page still answers: the per-mode answer, the fit table, and a line
    // that says what the calculator would need; the form stays hidden.
    {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(origin + "/models/mistralai/Mixtral-8x7B-v0.1.html");
      const modes = await page.$$eval("table.glance-modes tbody tr", (rs) => rs.length);
      const fitRows = await page.$$eval("table.fit tbody tr", (rs) => rs.length);
      // The script builds the form; without it there is none (or, on a planned page, a hidden one).
      const formShown = await page.$$eval("#calc", (fs) => fs.some((f) => getComputedStyle(f).display !== "none"));
      const said = await page.textContent("#calc-out");
      check("without JavaScript: the answer and the fit table show, the form does not", modes === 4 && fitRows > 2 && !formShown && /JavaScript/.test(said),
        `${modes} modes, ${fitRows} fit rows, form ${formShown}, "${said}"`);
      await page.screenshot({ path: path.join(outDir, "Mixtral-8x7B-v0.1-390-nojs.png"), fullPage: true });
      await context.close();
    }
    // Page heights of the three model pages at both widths, full-page screenshots beside them.
    {
      const lines = [];
      for (const width of [390, 1366]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        for (const rel of KINDS.filter((k) => k.startsWith("/models/"))) {
          await page.goto(origin + rel);
          // Measured with the calculator built (it fetches the model's JSON first).
          await page.waitForFunction(() => typeof window.modelatlasWhatIf === "function");
          const h = await page.evaluate(() => document.documentElement.scrollHeight);
          const tables = await page.$$eval("table", (t) => t.length);
          lines.push(`${width}px\t${rel}\t${h} px\t${tables} tables`);
          await page.screenshot({ path: path.join(outDir, `${rel.split("/").pop().replace(".html", "")}-${width}-full.png`), fullPage: true });
        }
        await page.close();
      }
      fs.writeFileSync(path.join(outDir, "heights.txt"), lines.join("\n") + "\n");
      console.log(lines.join("\n"));
    }
    // Readable on a phone: no page is wider than a 390-pixel screen (wide tables scroll inside
    // their own box).
    const phone = await browser.newPage({ viewport: { width: 390, height: 800 } });
    for (const rel of ["/index.html", "/models/FacebookAI/xlm-roberta-base.html", "/models/mistralai/Mixtral-8x7B-v0.1.html", "/families/llama.html", "/method.html"]) {
      await phone.goto(origin + rel);
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      check(`phone: ${rel} fits a 390-pixel screen`, width <= 390, `${width}px wide`);
    }
    await phone.screenshot({ path: path.join(outDir, "method-phone.png") });
    await phone.close();

    // The calculator's formula against the CLI, on a grid of inputs.
    const page = await browser.newPage();
    let compared = 0, mismatches = [];
    for (const model of ["FacebookAI/xlm-roberta-base", "meta-llama/Llama-2-7b-hf"]) {
      await page.goto(origin + "/models/" + model + ".html");
      await page.waitForFunction(() => typeof window.modelatlasWhatIf === "function");
      for (const mode of ["full", "lora", "qlora", "serve"]) {
        for (const card of ["t4-16gb", "a100-80gb"]) {
          for (const [batch, seq] of [[1, 256], [8, 512], [64, 2048]]) {
            const web = await page.evaluate(([m, c, b, s]) => window.modelatlasWhatIf(m, c, b, s), [mode, card, batch, seq]);
            const cli = JSON.parse(execFileSync(binary, ["what-if", model, "--hub", "hub", "--mode", mode, "--card", card,
              "--batch", String(batch), "--seq", String(seq)]).toString());
            compared += 1;
            const close = Math.abs(web.peak_bytes - cli.peak_bytes) <= 1e-9 * Math.max(1, cli.peak_bytes);
            if (!close || web.verdict !== cli.verdict || web.peak_phase !== cli.peak_phase) {
              mismatches.push(`${model} ${mode} ${card} b=${batch} s=${seq}: page ${web.peak_bytes} ${web.verdict}, cli ${cli.peak_bytes} ${cli.verdict}`);
            }
          }
        }
      }
    }
    // Each recipe of the full fine-tune, on one model.
    for (const recipe of ["amp-adamw", "bf16-adamw-fp32-states", "bf16-adamw-bf16-states", "amp-adamw-8bit", "amp-sgd-momentum", "amp-adafactor", "fp32-adamw", "fp32-adamw-8bit", "fp32-adafactor"]) {
      const model = "meta-llama/Llama-2-7b-hf", card = "h200-141gb", batch = 2, seq = 1024;
      const web = await page.evaluate(([c, b, s, r]) => window.modelatlasWhatIf("full", c, b, s, r), [card, batch, seq, recipe]);
      const cli = JSON.parse(execFileSync(binary, ["what-if", model, "--hub", "hub", "--mode", "full", "--card", card,
        "--batch", String(batch), "--seq", String(seq), "--recipe", recipe]).toString());
      compared += 1;
      if (Math.abs(web.peak_bytes - cli.peak_bytes) > 1e-9 * cli.peak_bytes || web.verdict !== cli.verdict) {
        mismatches.push(`${recipe}: page ${web.peak_bytes} ${web.verdict}, cli ${cli.peak_bytes} ${cli.verdict}`);
      }
    }
    check(`the calculator matches \`modelatlas what-if\` on ${compared} inputs`, compared === 57 && mismatches.length === 0, mismatches.join("; "));
    await page.close();
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`browser: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.error(e); console.log(`browser: ${passed} passed, ${failed + 1} failed`); process.exit(1); });
