// Reads a Cobertura file with the cobertura-parse package (npm) and
// prints its totals over every class: "FUNCTIONS_HIT FUNCTIONS LINES_HIT
// LINES". A method counts as hit when its first line is, as the package
// (and the CI services) read it.
//   node cobertura.mjs NODE_MODULES FILE.xml
import { createRequire } from "node:module";
import path from "node:path";

const [modules, file] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const parse = require("cobertura-parse");

parse.parseFile(file, (err, classes) => {
  if (err) {
    console.error(String(err));
    process.exit(1);
  }
  const t = [0, 0, 0, 0];
  for (const c of classes) {
    t[0] += c.functions.hit;
    t[1] += c.functions.found;
    t[2] += c.lines.hit;
    t[3] += c.lines.found;
  }
  console.log(t.join(" "));
});
