import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";

// The two places that depend on a dependency's internals (see patches/README.md). Each check
// fails as soon as an upgrade changes the code they were written against, so the upgrade
// re-reads them instead of breaking silently.
const require = createRequire(import.meta.url);
const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const packageFile = (name: string, file: string) => require.resolve(`${name}/package.json`).replace(/package\.json$/, file);

describe("dependency internals the project relies on", () => {
  it("@remix-run/router is the 1.23.3 the patch was written against (patches/@remix-run+router+1.23.3.patch)", () => {
    expect((require("@remix-run/router/package.json") as { version: string }).version).toBe("1.23.3");
    // The browser build the patch leaves untouched: it identifies the upstream code byte for byte.
    expect(sha256(packageFile("@remix-run/router", "dist/router.umd.js")), "upstream changed: re-check the patch (patches/README.md)").toBe(
      "ba3b56637480d9faaba40124ac6be4a6952b6d90c37655efa586f3f7abfbd1f3",
    );
  });

  it("@remix-run/dev's emptyModulesPlugin is the one scripts/remix-build.mjs wraps (remix-run/remix#5394)", () => {
    expect((require("@remix-run/dev/package.json") as { version: string }).version).toBe("2.17.5");
    expect(sha256(packageFile("@remix-run/dev", "dist/compiler/plugins/emptyModules.js")), "upstream changed: re-check scripts/remix-build.mjs").toBe(
      "a439b87f1c3cc97075a36cf1b7ad8566da7df602cc95f6700d3cc721881269dc",
    );
    // The wrap replaces the module's export, so the compiler must look it up at each build, not keep a copy.
    const compiler = fs.readFileSync(packageFile("@remix-run/dev", "dist/compiler/js/compiler.js"), "utf8");
    expect(compiler).toContain("emptyModules.emptyModulesPlugin(ctx, /\\.server(\\.[jt]sx?)?$/)");
  });
});
