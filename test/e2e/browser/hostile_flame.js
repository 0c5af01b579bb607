/*
 * Opens a flame graph page of test/e2e/hostile_names.sh in headless
 * Chromium and says whether its script ran and drew the frames: function
 * names holding "<!--<script>" and "</script>" must stay inside the
 * page's JSON, not end or change its script element.
 *   node hostile_flame.js PAGE.html WANT.json
 * WANT.json: {"frames": N, "names": [...]}, the frames the page's flame
 * view must draw (N boxes at least) and names that must be among them,
 * byte for byte as the profile has them. Prints one line, "ok TEXT" or
 * "not ok TEXT"; exits 1 when not ok.
 */
"use strict";
const fs = require("fs");
const cdp = require("./cdp.js");

async function main() {
  const [file, wantFile] = process.argv.slice(2);
  const want = JSON.parse(fs.readFileSync(wantFile, "utf8"));
  const page = await cdp.open(file);
  let problem = null, drawn = 0;
  try {
    const ran = await page.evaluate("typeof mipFlame === 'object'");
    if (!ran) {
      problem = "the page's script did not run (no mipFlame)";
    } else {
      const names = (await page.evaluate("mipFlame.boxes()")).map((b) => b.name);
      drawn = names.length;
      const missing = want.names.filter((n) => !names.includes(n));
      if (drawn < want.frames)
        problem = `${drawn} frames drawn, want ${want.frames}`;
      else if (missing.length)
        problem = `not drawn: ${JSON.stringify(missing)}`;
    }
    if (!problem && page.errors.length)
      problem = "console errors: " + page.errors.join("; ");
  } finally {
    await page.close();
  }
  console.log(problem ? `not ok ${problem}`
    : `ok the page draws its ${drawn} frames, the hostile names among them`);
  process.exit(problem ? 1 : 0);
}

main().catch((e) => { console.log(`not ok ${e.message}`); process.exit(1); });
