// Page heights of three model pages at a phone's and a desktop's width, in light: the figure the
// issue measured a page's length by. Usage: node tests/browser/heights.js <site-dir>
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");
const siteDir = path.resolve(process.argv[2] || "site");
const MODELS = ["meta-llama/Llama-2-7b-hf", "mistralai/Mixtral-8x7B-v0.1", "FacebookAI/xlm-roberta-base"];
(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"] });
  for (const width of [390, 1366]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    for (const m of MODELS) {
      await page.goto("file://" + path.join(siteDir, "models", m + ".html"));
      const h = await page.evaluate(() => document.documentElement.scrollHeight);
      const tables = await page.$$eval("table", (t) => t.length);
      console.log(`${width}px\t${m}\t${h} px\t${tables} tables`);
    }
    await page.close();
  }
  await browser.close();
})();
