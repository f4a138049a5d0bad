// Counts the assertions (expect calls) each test file ran, per layer, for `npm run test:count`:
// a file per test file in test-output/assertions/, summed by scripts/count-assertions.mjs.
import fs from "node:fs";
import path from "node:path";

let calls = 0;
let testPath: string | undefined;
afterEach(() => {
  const state = expect.getState();
  calls += state.assertionCalls;
  testPath ??= state.testPath;
});
afterAll(() => {
  if (!testPath) return;
  const file = path.relative(process.cwd(), testPath);
  const layer = file.startsWith("app/") ? "unit" : file.startsWith("tests/browser/") ? "browser" : file.startsWith("tests/ops/") ? "ops" : "integration";
  const directory = path.resolve("test-output/assertions");
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(path.join(directory, `${file.replace(/[^A-Za-z0-9.-]+/g, "_")}.json`), JSON.stringify({ file, layer, assertions: calls }));
});
