// Prints how many assertions (expect calls) each test layer ran in the last run (`npm test` or one
// layer), as recorded by tests/helpers/count-assertions.ts in test-output/assertions/.
import fs from "node:fs";
import path from "node:path";

const directory = path.resolve("test-output/assertions");
const entries = fs.existsSync(directory) ? fs.readdirSync(directory).map((name) => JSON.parse(fs.readFileSync(path.join(directory, name), "utf8"))) : [];
if (entries.length === 0) {
  console.log("No assertion counts yet: run `npm test` (or a layer) first.");
  process.exit(1);
}
const byLayer = new Map();
for (const { layer, assertions } of entries) {
  const total = byLayer.get(layer) ?? { files: 0, assertions: 0 };
  byLayer.set(layer, { files: total.files + 1, assertions: total.assertions + assertions });
}
const all = [...byLayer.values()].reduce((sum, layer) => sum + layer.assertions, 0);
for (const [layer, { files, assertions }] of [...byLayer].sort((a, b) => b[1].assertions - a[1].assertions)) {
  console.log(`${layer.padEnd(12)} ${String(assertions).padStart(7)} assertions in ${files} files (${((100 * assertions) / all).toFixed(1)} %)`);
}
console.log(`${"all".padEnd(12)} ${String(all).padStart(7)} assertions`);
