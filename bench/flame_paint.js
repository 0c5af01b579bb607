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
  /* The first contentful paint, once the browser has recorded it (at
   * most 5 s after the load). */
  const t = await page.evaluate(`new Promise((resolve) => {
    const done = (fcp) => resolve({fcp: fcp, drawn: mipFlame.firstDraw(),
                                   frames: mipFlame.boxes().length});
    new PerformanceObserver((list) => {
      const e = list.getEntries().find((x) => x.name === "first-contentful-paint");
      if (e) done(e.startTime);
    }).observe({type: "paint", buffered: true});
    setTimeout(() => done(null), 5000);
  })`);
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
