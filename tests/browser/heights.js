// Page heights of three model pages at a phone's and a desktop's width, in light: the figure the
// issue measured a page's length by. Served over HTTP as a published site is (the calculator
// fetches the model's JSON, which a browser refuses from file://), after the calculator has built
// its form and table. With a screenshot folder, the first screen of each page, light and dark.
// Usage: node tests/browser/heights.js <site-dir> [<screenshot-dir>]
"use strict";
const fs = require("fs");
const http = require("http");
const path = require("path");
const { chromium } = require("playwright-core");
const siteDir = path.resolve(process.argv[2] || "site");
const shots = process.argv[3] ? path.resolve(process.argv[3]) : null;
const MODELS = ["meta-llama/Llama-2-7b-hf", "mistralai/Mixtral-8x7B-v0.1", "FacebookAI/xlm-roberta-base"];
const TYPES = { ".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".json": "application/json",
  ".svg": "image/svg+xml" };
(async () => {
  const server = http.createServer((req, res) => {
    const file = path.join(siteDir, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!file.startsWith(siteDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end(); return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const origin = "http://127.0.0.1:" + server.address().port;
  if (shots) fs.mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"] });
  for (const width of [390, 1366]) {
    for (const scheme of shots ? ["light", "dark"] : ["light"]) {
      const page = await browser.newPage({ viewport: { width, height: width === 390 ? 844 : 900 }, colorScheme: scheme });
      for (const m of MODELS) {
        await page.goto(origin + "/models/" + m + ".html");
        await page.waitForFunction(() => typeof window.modelatlasWhatIf === "function", null, { timeout: 5000 }).catch(() => {});
        if (scheme === "light") {
          const h = await page.evaluate(() => document.documentElement.scrollHeight);
          const tables = await page.$$eval("table", (t) => t.length);
          console.log(`${width}px\t${m}\t${h} px\t${tables} tables`);
        }
        if (shots) await page.screenshot({ path: path.join(shots, `${m.split("/")[1]}-${width}-${scheme}.png`) });
      }
      await page.close();
    }
  }
  await browser.close();
  server.close();
})();
