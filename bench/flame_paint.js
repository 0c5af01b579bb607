/*
 * The first paint of a flame graph page in headless Chromium, for
 * bench/flame.sh: prints "first paint N ms (graph drawn at N ms, N frames
 * drawn), zoom N ms". Times are from the start of navigation (the page's
 * performance clock); zoom is a click on the widest frame of the second
 * row until the graph is drawn again.
 *   node flame_paint.js PAGE
 */
"use strict";
const cdp = require("../test/e2e/browser/cdp.js");

(async () => {
  const page = await cdp.open(process.argv[2]);
  /* Two frames after the load, so that the first paint is recorded. */
  await page.evaluate(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`);
  const t = await page.evaluate(`(() => {
    const fcp = performance.getEntriesByType("paint")
      .find((e) => e.name === "first-contentful-paint");
    return {fcp: fcp ? fcp.startTime : null, drawn: mipFlame.firstDraw(),
            frames: mipFlame.boxes().length};
  })()`);
  const zoom = await page.evaluate(`(() => {
    const b = mipFlame.boxes().filter((x) => x.y > 0).sort((a, c) => c.w - a.w)[0];
    const r = document.getElementById("graph").getBoundingClientRect();
    const start = performance.now();
    document.getElementById("graph").dispatchEvent(new MouseEvent("click",
      {clientX: r.left + b.x + b.w / 2, clientY: r.top + b.y + 2, bubbles: true}));
    return performance.now() - start;
  })()`);
  const errors = page.errors.length ? `, ${page.errors.length} console errors` : "";
  await page.close();
  const fcp = t.fcp === null ? "not reported" : Math.round(t.fcp) + " ms";
  console.log(`first paint ${fcp} (graph drawn at ${Math.round(t.drawn)} ms,` +
    ` ${t.frames} frames drawn), zoom ${Math.round(zoom)} ms${errors}`);
})().catch((e) => { console.error(e); process.exit(1); });
