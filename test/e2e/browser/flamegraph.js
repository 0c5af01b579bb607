/*
 * Drives the pages of test/e2e/flamegraph.sh in headless Chromium and
 * says what it found, one line a check: "ok TEXT" or "not ok TEXT".
 *   node flamegraph.js DIR
 * DIR holds truth.json (each metric's total, from mipdata show --heap)
 * and the pages: diff.html (v2 against v1), single.html (v2 alone),
 * same.html (v2 against itself), reverse.html (v1 against v2), runs.html
 * (v2 against v1 merged twice), empty.html (a profile with no context
 * against v2), onto-empty.html (v2 against it); shot.png is written there.
 * The page is read as it is drawn: boxes through window.mipFlame, their
 * colours from the canvas's pixels, input through real mouse and key
 * events.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const cdp = require("./cdp.js");
const { hue } = require("./hues.js");

const dir = process.argv[2];
const truth = JSON.parse(fs.readFileSync(path.join(dir, "truth.json"), "utf8"));
let failed = 0;

function check(ok, text) {
  console.log((ok ? "ok " : "not ok ") + text);
  if (!ok) failed++;
}

function close(a, b) {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

const boxes = (page) => page.evaluate("mipFlame.boxes()");
const names = async (page) => (await boxes(page)).map((b) => b.name);
const box = async (page, name) => (await boxes(page)).find((b) => b.name === name);

/* The canvas's pixel at the centre of the box named name: [r, g, b]. */
async function pixel(page, name) {
  const b = await box(page, name);
  if (!b) return null;
  return page.evaluate(`(() => {
    const c = document.getElementById("graph"), d = devicePixelRatio;
    return Array.from(c.getContext("2d").getImageData(
      Math.round(${b.x + Math.min(b.w / 2, 8)} * d),
      Math.round(${b.y + 3} * d), 1, 1).data).slice(0, 3);
  })()`);
}


async function colourIs(page, name, kind, colour) {
  const b = await box(page, name);
  const p = await pixel(page, name);
  check(b && b.kind === kind && p && hue[colour](p),
    `${name} is ${kind}, drawn ${colour} (${b ? b.kind : "not drawn"}, rgb ${p})`);
}

/* A canvas point of a box, in page coordinates, for the mouse. */
async function where(page, name) {
  const b = await box(page, name);
  const r = await page.evaluate(`(() => { const r = document.getElementById("graph")
    .getBoundingClientRect(); return [r.left, r.top]; })()`);
  return [r[0] + b.x + Math.min(b.w / 2, 10), r[1] + b.y + b.h / 2];
}

async function element(page, id) {
  return page.evaluate(`(() => { const e = document.getElementById(${JSON.stringify(id)});
    const r = e.getBoundingClientRect();
    return {hidden: e.closest("[hidden]") !== null, x: r.left + r.width / 2,
            y: r.top + r.height / 2, text: e.textContent}; })()`);
}

async function onPage(file, run) {
  const page = await cdp.open(path.join(dir, file));
  try {
    await run(page);
    check(page.errors.length === 0,
      `${file}: no console errors${page.errors.length ? ": " + page.errors.join("; ") : ""}`);
  } finally {
    await page.close();
  }
}

async function totals(page, file) {
  for (const key of Object.keys(truth.totals)) {
    const v = await page.evaluate(`mipFlame.rootValue(${JSON.stringify(key)})`);
    const want = truth.totals[key];
    check(close(v, want), `${file}: the root's ${key} is the profile's total (${v}, show says ${want})`);
  }
}

async function diffPage(page) {
  await totals(page, "diff.html");
  await colourIs(page, "grow_index", "worse", "red");
  await colourIs(page, "fill_cache", "better", "blue");
  await colourIs(page, "compress_block", "added", "purple");
  await colourIs(page, "parse_config", "same", "grey");
  const js = await page.evaluate("mipFlame.changes()");
  const c = await page.evaluate("mipFlame.data.views.flame.changes[1]");
  check(js.worse === c[0] && js.better === c[1] && js.added === c[2],
    `the page's counts of changes are mipdata's (${JSON.stringify(js)}, [${c}])`);

  /* The band, widened on the page past grow_index's +200 %. */
  await page.evaluate(`(() => { const b = document.getElementById("band");
    b.value = "250"; b.dispatchEvent(new Event("input")); })()`);
  await colourIs(page, "grow_index", "same", "grey");
  await page.evaluate(`(() => { const b = document.getElementById("band");
    b.value = "15"; b.dispatchEvent(new Event("input")); })()`);

  /* Search, typed: the frames whose names match, green, and their share. */
  const s = await element(page, "search");
  await page.click(s.x, s.y);
  await page.type("grow|fill");
  const matched = (await boxes(page)).filter((b) => b.kind === "matched").map((b) => b.name).sort();
  check(JSON.stringify(matched) === '["fill_cache","grow_index"]',
    `search highlights grow_index and fill_cache (${matched})`);
  await colourIs(page, "grow_index", "matched", "green");
  const share = (100 * (truth.bytes_grow + truth.bytes_fill) / truth.totals.bytes).toFixed(1);
  const said = (await element(page, "matched")).text;
  check(said.startsWith(`Matched: ${share} %`), `the matched share is ${share} % ("${said}")`);
  await page.evaluate(`(() => { const s = document.getElementById("search");
    s.value = ""; s.dispatchEvent(new Event("input")); })()`);

  /* Zoom by a click on build: its callees fill the width, the rest goes. */
  const before = await names(page);
  const [x, y] = await where(page, "build");
  await page.click(x, y);
  const after = await names(page);
  const grow = await box(page, "grow_index");
  const width = await page.evaluate("document.getElementById('graph').clientWidth");
  check(before.includes("parse_config") && !after.includes("parse_config") &&
    after.includes("grow_index") && close(grow.w + (await box(page, "fill_cache")).w, width),
    `a click on build zooms: ${before.length} frames, then ${after.length}`);
  const crumbs = (await element(page, "breadcrumb")).text;
  check(/build$/.test(crumbs), `the breadcrumb ends at build ("${crumbs}")`);
  const reset = await element(page, "reset");
  await page.click(reset.x, reset.y);
  check((await names(page)).length === before.length, "Reset zoom draws every frame again");

  /* The keyboard: up from the root walks into the widest callee. */
  const [gx, gy] = await where(page, "all");
  await page.click(gx, gy); /* focus, zoom to the root */
  for (let k = 0; k < 3; k++) await page.key("ArrowUp", "ArrowUp", 38);
  await page.key("Enter", "Enter", 13);
  const zoomed = await page.evaluate("mipFlame.state.zoom");
  const zname = (await boxes(page)).find((b) => b.i === zoomed);
  check(zname && zname.name === "build", `arrow keys and Enter zoom into build (${zname && zname.name})`);
  await page.key("Escape", "Escape", 27);

  /* The metric switch redraws: in allocations grow_index is 100 of 351. */
  await page.evaluate(`(() => { const m = document.getElementById("metric");
    m.value = "allocs"; m.dispatchEvent(new Event("change")); })()`);
  const g = await box(page, "grow_index");
  check(close(g.w / width, 100 / truth.totals.allocs), `in allocations grow_index is ${(g.w / width).toFixed(4)} of the width`);
  await page.evaluate(`(() => { const m = document.getElementById("metric");
    m.value = "bytes"; m.dispatchEvent(new Event("change")); })()`);

  /* The elided toggle: there, and it shows the vanished stack. */
  const el = await element(page, "elided");
  check(!el.hidden, "the elided toggle is there when a stack vanished");
  check(!(await names(page)).includes("legacy_scratch"), "legacy_scratch is not drawn in the new profile");
  await page.click(el.x, el.y);
  const gone = await names(page);
  check(gone.includes("legacy_scratch") && !gone.includes("grow_index"),
    `elided shows the vanished stack (${gone})`);
  await page.click(el.x, el.y);

  /* The inverted view: the allocating functions at the root. */
  await page.evaluate(`(() => { const v = document.getElementById("view");
    v.value = "icicle"; v.dispatchEvent(new Event("change")); })()`);
  const inv = await boxes(page);
  const top = inv.filter((b) => b.y === 0).map((b) => b.name);
  const rowOne = inv.filter((b) => b.y === 18).map((b) => b.name).sort();
  check(JSON.stringify(rowOne) === '["compress_block","fill_cache","grow_index","parse_config"]',
    `inverted: the allocating functions under the root (${rowOne}; root ${top})`);
  await colourIs(page, "grow_index", "worse", "red");
  await page.evaluate(`(() => { const v = document.getElementById("view");
    v.value = "flame"; v.dispatchEvent(new Event("change")); })()`);

  /* The dark theme, and a screenshot that is not blank. */
  const t = await element(page, "theme");
  await page.click(t.x, t.y);
  const dark = await page.evaluate("document.documentElement.dataset.theme");
  /* A point of the top row right of every frame drawn there. */
  const bg = await page.evaluate(`(() => { const c = document.getElementById("graph");
    const x = Math.max(...mipFlame.boxes().filter((b) => b.y === 0).map((b) => b.x + b.w)) + 2;
    return Array.from(c.getContext("2d").getImageData(Math.round(x * devicePixelRatio), 2, 1, 1)
      .data).slice(0, 3); })()`);
  check(dark === "dark" && bg.every((v) => v < 60), `the dark theme (${dark}, background rgb ${bg})`);
  await page.click(t.x, t.y);
  const shot = await page.screenshot(path.join(dir, "shot.png"));
  const colours = new Set();
  let ink = 0;
  for (let i = 0; i < shot.pixels.length; i += shot.channels) {
    const p = shot.pixels.subarray(i, i + 3);
    colours.add(p.join(","));
    if (!(p[0] === 255 && p[1] === 255 && p[2] === 255)) ink++;
  }
  const inked = ink / (shot.width * shot.height);
  check(colours.size >= 20 && inked > 0.03,
    `the screenshot is not blank: ${shot.width}x${shot.height}, ${colours.size} colours, ${(100 * inked).toFixed(1)} % not white`);
}

async function main() {
  await onPage("diff.html", diffPage);
  await onPage("single.html", async (page) => {
    await totals(page, "single.html");
    check((await element(page, "elided")).hidden, "single.html: no elided toggle without a base");
    check((await element(page, "band")).hidden, "single.html: no band without a base");
    const kinds = new Set((await boxes(page)).map((b) => b.kind));
    check(kinds.size === 1 && kinds.has("plain"), `single.html: no differential colours (${[...kinds]})`);
  });
  await onPage("same.html", async (page) => {
    check((await element(page, "elided")).hidden, "same.html: no elided toggle when no stack vanished");
    const kinds = new Set((await boxes(page)).map((b) => b.kind));
    check(kinds.size === 1 && kinds.has("same"), `same.html: every frame neutral (${[...kinds]})`);
  });
  await onPage("reverse.html", async (page) => {
    await colourIs(page, "grow_index", "better", "blue");
    await colourIs(page, "legacy_scratch", "added", "purple");
    const el = await element(page, "elided");
    check(!el.hidden, "reverse.html: the elided toggle is there");
    await page.click(el.x, el.y);
    check((await names(page)).includes("compress_block"), "reverse.html: elided shows compress_block");
  });
  await onPage("runs.html", async (page) => {
    const f = await page.evaluate("mipFlame.data.metrics[1].factor");
    const said = (await element(page, "scale")).text;
    check(f === 0.5 && said.includes("\u00d70.5000"), `runs.html: base scaled by 0.5 per run ("${said}")`);
    await colourIs(page, "grow_index", "worse", "red");
    await colourIs(page, "fill_cache", "better", "blue");
    await colourIs(page, "parse_config", "same", "grey");
  });
  /* Empty sides: nothing drawn but the root, no NaN, every stack of the
   * base vanished; or everything new. */
  await onPage("empty.html", async (page) => {
    const all = await boxes(page);
    const v = await page.evaluate(`[mipFlame.rootValue("bytes"), mipFlame.rootValue("lifetime")]`);
    check(all.length === 1 && v[0] === 0 && v[1] === 0, `empty.html: the root alone, 0 (${all.length} frames, ${v})`);
    const text = await page.evaluate("document.body.textContent");
    check(!/NaN|Infinity/.test(text), "empty.html: no NaN or Infinity on the page");
    const el = await element(page, "elided");
    check(!el.hidden, "empty.html: the elided toggle is there");
    await page.click(el.x, el.y);
    check((await names(page)).includes("grow_index"), "empty.html: elided shows every stack of the base");
  });
  await onPage("onto-empty.html", async (page) => {
    const kinds = new Set((await boxes(page)).filter((b) => b.name !== "all").map((b) => b.kind));
    check(kinds.size === 1 && kinds.has("added"), `onto-empty.html: every frame new (${[...kinds]})`);
    check((await element(page, "elided")).hidden, "onto-empty.html: no elided toggle");
    await totals(page, "onto-empty.html");
  });
}

/* A browser that hangs fails the suite rather than stopping it. */
setTimeout(() => {
  console.log("not ok the browser run finished within 300 s");
  process.exit(1);
}, 300000).unref();

main().then(() => process.exit(failed ? 1 : 0), (e) => {
  console.log("not ok the browser run: " + e.stack.replace(/\s*\n\s*/g, " | "));
  process.exit(1);
});
