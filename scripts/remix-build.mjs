/**
 * `remix build` (the classic compiler), with one change: the empty stand-ins the compiler puts in
 * the browser bundle for `.server` modules are marked free of side effects, so esbuild drops
 * their imports once the loaders and actions that used them are gone.
 *
 * Why: every route imports its `.server` models for its loader. The compiler replaces each with
 * `module.exports = {}`, which esbuild must keep (an import of a module with side effects), and a
 * stand-in imported by several routes becomes its own ~150-byte chunk that every page loads:
 * ten of them on /listen (issue 14's JavaScript budget; remix-run/remix#209 and #5394). A value
 * from a `.server` module that client code really uses still keeps its (empty) module, as before.
 *
 * Arguments are passed on to `remix build`.
 */
import { createRequire } from "node:module";

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

process.argv = [process.argv[0], "remix", "build", ...process.argv.slice(2)];
require("@remix-run/dev/dist/cli.js");
