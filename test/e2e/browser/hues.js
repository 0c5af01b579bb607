/*
 * The colours of the flame graph pages, told apart by hue: what the tests
 * read off the canvas. Run alone, it counts a PNG's pixels of each hue
 * (a screenshot another browser took) and fails unless each hue named
 * has at least MIN pixels:
 *   node hues.js SHOT.png MIN red blue purple
 */
"use strict";
const fs = require("fs");
const { decodePng } = require("./cdp.js");

const hue = {
  red: ([r, g, b]) => r > g + 60 && r > b + 60,
  blue: ([r, g, b]) => b > r + 60 && b > g + 30,
  purple: ([r, g, b]) => r > g + 40 && b > g + 40,
  grey: ([r, g, b]) => Math.abs(r - g) < 12 && Math.abs(g - b) < 12,
  green: ([r, g, b]) => g > r + 60 && g > b + 60,
};

function count(png, names) {
  const shot = decodePng(png);
  const n = Object.fromEntries(names.map((h) => [h, 0]));
  for (let i = 0; i < shot.pixels.length; i += shot.channels) {
    const p = shot.pixels.subarray(i, i + 3);
    for (const h of names) if (hue[h](p)) n[h]++;
  }
  return n;
}

if (require.main === module) {
  const [file, min, ...names] = process.argv.slice(2);
  const n = count(fs.readFileSync(file), names);
  console.log(names.map((h) => `${h} ${n[h]}`).join(", "));
  process.exit(names.every((h) => n[h] >= Number(min)) ? 0 : 1);
}

module.exports = { hue };
