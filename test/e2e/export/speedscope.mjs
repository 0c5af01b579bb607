// Validates a speedscope file against the schema the speedscope package
// ships (dist/release/file-format-schema.json), then prints each
// profile's name, unit and total weight, tab-separated.
//   node speedscope.mjs NODE_MODULES FILE.json
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [modules, file] = process.argv.slice(2);
const require = createRequire(path.join(modules, "noop.js"));
const Ajv = require("ajv");
const schemaPath = path.join(modules, "speedscope/dist/release/file-format-schema.json");
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8"));
const data = JSON.parse(fs.readFileSync(file, "utf8"));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
if (!validate(data)) {
  console.error(JSON.stringify(validate.errors.slice(0, 5)));
  process.exit(1);
}
for (const p of data.profiles) {
  if (p.samples.length !== p.weights.length) {
    console.error(`${p.name}: ${p.samples.length} samples, ${p.weights.length} weights`);
    process.exit(1);
  }
  if (p.samples.some((s) => s.some((i) => !(i >= 0 && i < data.shared.frames.length)))) {
    console.error(`${p.name}: a sample names a frame that is not there`);
    process.exit(1);
  }
  const total = p.weights.reduce((a, b) => a + b, 0);
  console.log(`${p.name}\t${p.unit}\t${total}`);
}
