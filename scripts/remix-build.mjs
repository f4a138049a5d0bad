/**
 * `remix build` (the classic compiler), with one change: the empty stand-ins the compiler puts in
 * the browser bundle for `.server` modules are marked free of side effects, so esbuild drops
 * their imports once the loaders and actions that used them are gone.
 *
 * Why: every route imports its `.server` models for its loader. The compiler replaces each with
 * `module.exports = {}`, which esbuild must keep (an import of a module with side effects), and a
 * stand-in imported by several routes becomes its own ~150-byte chunk that every page loads:
 * ten of them on /listen, which has a 100 KB JavaScript budget (remix-run/remix#209 and #5394). A value
 * from a `.server` module that client code really uses still keeps its (empty) module, as before.
 *
 * Then every browser file is minified again with terser: esbuild's minifier is built for speed and
 * leaves about 3 % of gzip size on the table, most of it in React DOM and the Remix runtime that
 * every page loads (measured on /listen: 106.2 KB gzip before, 102.8 KB after). File names keep
 * esbuild's content hashes: the same source still gives the same name and the same bytes.
 *
 * Arguments are passed on to `remix build`.
 */
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { minify } from "terser";

const require = createRequire(import.meta.url);
const emptyModules = require("@remix-run/dev/dist/compiler/plugins/emptyModules.js");
const original = emptyModules.emptyModulesPlugin;
if (typeof original !== "function") throw new Error("@remix-run/dev changed: emptyModulesPlugin not found (see scripts/remix-build.mjs)");

emptyModules.emptyModulesPlugin = (...args) => {
  const plugin = original(...args);
  return {
    ...plugin,
    setup(build) {
      const onResolve = (options, callback) =>
        build.onResolve(options, (resolveArgs) => {
          const result = callback(resolveArgs);
          return result && { ...result, sideEffects: false };
        });
      return plugin.setup(new Proxy(build, { get: (target, key) => (key === "onResolve" ? onResolve : Reflect.get(target, key)) }));
    },
  };
};

/** Re-minifies the browser build's JavaScript in place (ES modules: imports and exports keep their names). */
async function minifyBrowserBuild(directory) {
  const files = (await fs.readdir(directory, { recursive: true })).filter((file) => file.endsWith(".js") && !path.basename(file).startsWith("manifest-"));
  await Promise.all(
    files.map(async (file) => {
      const at = path.join(directory, file);
      const result = await minify(await fs.readFile(at, "utf8"), { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true });
      if (typeof result.code !== "string") throw new Error(`terser gave no output for ${at}`);
      await fs.writeFile(at, result.code);
    }),
  );
}

/**
 * /widgets.js (app/widgets/widgets.ts): one classic script for other sites, no framework, so it is
 * bundled on its own (not by Remix) into build/, where server/widgets.ts serves it from.
 */
async function buildWidgetScript() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: ["app/widgets/widgets.ts"],
    outfile: "build/widgets.js",
    bundle: true,
    format: "iife",
    target: ["chrome100", "firefox100", "safari15"],
    minify: true,
    legalComments: "none",
    tsconfig: "tsconfig.json",
    logLevel: "warning",
  });
  const result = await minify(await fs.readFile("build/widgets.js", "utf8"), { ecma: 2020, compress: { passes: 2 }, mangle: true });
  await fs.writeFile("build/widgets.js", result.code);
}

const { cli } = require("@remix-run/dev");
const args = process.argv.slice(2);
try {
  await cli.run(["build", ...args]);
  await buildWidgetScript();
  if (!args.includes("--sourcemap")) await minifyBrowserBuild("public/build");
  process.exit(0);
} catch (error) {
  if (error) console.error(error);
  process.exit(1);
}
