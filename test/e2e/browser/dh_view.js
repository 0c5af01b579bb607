/*
 * Loads a DHAT file in valgrind's own viewer (dh_view.html) in headless
 * Chromium, through its file input as a user does, and prints what the
 * viewer shows of the whole tree: the root PP's "Total:" line. Fails on
 * any error the page shows or throws.
 *   node dh_view.js DH_VIEW_HTML FILE.json
 */
"use strict";
const path = require("path");
const cdp = require("./cdp.js");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function loadFile(page, file) {
  const { root } = await page.send("DOM.getDocument", {});
  const { nodeId } = await page.send("DOM.querySelector",
    { nodeId: root.nodeId, selector: "input[type=file]" });
  if (!nodeId) throw new Error("the viewer has no file input");
  await page.send("DOM.setFileInputFiles", { nodeId, files: [path.resolve(file)] });
}

/* The page's text once the viewer has drawn the tree or an error. */
async function shown(page) {
  for (let waited = 0; waited < 60000; waited += 100) {
    const s = await page.evaluate(`({
      errors: [...document.querySelectorAll(".error")].map((e) => e.textContent),
      text: document.body.innerText })`);
    if ((/PP 1\/1|error/i.test(s.text) && !/Loading\.\.\./.test(s.text)) || s.errors.length)
      return s;
    await sleep(100);
  }
  throw new Error("the viewer showed nothing in 60 s");
}

async function main() {
  const [viewer, file] = process.argv.slice(2);
  const page = await cdp.open(viewer);
  let failed = null;
  try {
    await loadFile(page, file);
    const s = await shown(page);
    if (s.errors.length) failed = "viewer: " + s.errors.join("; ");
    const total = s.text.split("\n").find((l) => /^\s*Total:/.test(l));
    if (!total) failed = failed || "viewer shows no Total line";
    else console.log(total.trim());
    if (page.errors.length) failed = failed || page.errors.join("; ");
  } finally {
    await page.close();
  }
  if (failed) {
    console.error(failed);
    process.exit(1);
  }
}

main().catch((e) => { console.error(e.message); process.exit(1); });
