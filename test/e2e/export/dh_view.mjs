// Loads a DHAT file in valgrind's own viewer (dh_view.html) in headless
// Chromium, through its file input as a user does, and prints what the
// viewer shows of the whole tree: the root PP's "Total:" line. Fails on
// any error the page shows or throws.
//   node dh_view.mjs NODE_MODULES DH_VIEW_HTML FILE.json
import { createRequire } from "node:module";
import path from "node:path";

const [modules, viewer, file] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const puppeteer = require("puppeteer-core");

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--lang=en-US", "--allow-file-access-from-files"],
});
let failed = null;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => { failed = failed || `page error: ${e.message}`; });
  await page.goto(`file://${viewer}`);
  const input = await page.$("input[type=file]");
  await input.uploadFile(file);
  await page.waitForFunction(
    () => /PP 1\/1|error/i.test(document.body.innerText) &&
          !/Loading\.\.\./.test(document.body.innerText),
    { timeout: 60000 });
  const shown = await page.evaluate(() => ({
    errors: [...document.querySelectorAll(".error")].map((e) => e.textContent),
    text: document.body.innerText,
  }));
  if (shown.errors.length) failed = failed || `viewer: ${shown.errors.join("; ")}`;
  const total = shown.text.split("\n").find((l) => /^\s*Total:/.test(l));
  if (!total) failed = failed || "viewer shows no Total line";
  else console.log(total.trim());
} finally {
  await browser.close();
}
if (failed) {
  console.error(failed);
  process.exit(1);
}
