import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// The patched Node build (patches/README.md) against the untouched UMD build of the same version.
const require = createRequire(import.meta.url);
type Router = typeof import("@remix-run/router");
const patched = require("@remix-run/router") as Router;
const original = require("@remix-run/router/dist/router.umd.js") as Router;

type RouteInput = import("@remix-run/router").AgnosticRouteObject;

/** What a match says, without the route objects: ids, params and the matched path parts. */
function summary(matches: ReturnType<Router["matchRoutes"]>) {
  return matches?.map((match) => ({ id: match.route.id, params: match.params, pathname: match.pathname, pathnameBase: match.pathnameBase })) ?? null;
}

interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
}

/** This app's route tree, as the Remix build lists it. */
async function appRoutes(): Promise<RouteInput[]> {
  const build = (await import(path.resolve("build/index.js"))) as { routes: Record<string, BuiltRoute> };
  const byParent = new Map<string | undefined, BuiltRoute[]>();
  for (const route of Object.values(build.routes)) byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route]);
  const attach = (routes: BuiltRoute[]): RouteInput[] =>
    routes.map(({ id, path: routePath, index, caseSensitive }) =>
      index
        ? { id, path: routePath, caseSensitive, index: true }
        : { id, path: routePath, caseSensitive, children: byParent.has(id) ? attach(byParent.get(id)!) : undefined },
    );
  return attach(byParent.get(undefined) ?? []);
}

// Every shape React Router 6 supports: index and pathless layout routes, params, optional
// segments and params, splats at two depths, case-sensitive routes, dots and dashes.
const madeUpRoutes: RouteInput[] = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "about", path: "about" },
      { id: "About-exact", path: "About-Exact", caseSensitive: true },
      { id: "feed", path: "podcast.xml" },
      {
        id: "users",
        path: "users/:userId",
        children: [
          { id: "user-index", index: true },
          { id: "user-edit", path: "edit" },
        ],
      },
      { id: "optional", path: "lang?/docs/:page?" },
      {
        id: "layout",
        children: [
          { id: "in-layout", path: "inside" },
          { id: "deep", path: "deep/:a/:b" },
        ],
      },
      { id: "files", path: "files/*" },
      { id: "shows", path: "shows/:slug", children: [{ id: "show-rest", path: "*" }] },
      { id: "user-preferences", path: "user-preferences" },
      { id: "catch-all", path: "*" },
    ],
  },
];

/** Paths built from the routes' own segments, with values for their params, plus hostile variants. */
function pathsFor(routes: RouteInput[]): string[] {
  const segments = new Set<string>(["", "x", "123", "%20", "a%2Fb", "ünïcode", "UPPER", "data", "..", "."]);
  const collect = (list: RouteInput[]) => {
    for (const route of list) {
      for (const part of (route.path ?? "").split("/")) if (part) segments.add(part.replace(/^:/, "").replace(/\?$/, "").replace(/^\*$/, "rest"));
      if (route.children) collect(route.children);
    }
  };
  collect(routes);
  const pool = [...segments];
  const paths = new Set<string>(["/", "", "//", "///", "/?x=1", "/#top"]);
  // Deterministic: a small linear congruential generator, so a failure names a path that repeats.
  let seed = 20261125;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 4_000; i++) {
    const depth = 1 + Math.floor(next() * 4);
    const parts = Array.from({ length: depth }, () => pool[Math.floor(next() * pool.length)]!);
    let candidate = `/${parts.join("/")}`;
    const variant = next();
    if (variant < 0.1) candidate += "/";
    else if (variant < 0.15) candidate = candidate.replace("/", "//");
    else if (variant < 0.25) candidate = candidate.toUpperCase();
    else if (variant < 0.3) candidate += ".data";
    paths.add(candidate);
  }
  return [...paths];
}

describe("route matching (the @remix-run/router patch)", () => {
  it("is the patched build", () => {
    const source = fs.readFileSync(require.resolve("@remix-run/router"), "utf8");
    expect(source).toContain("function rankedBranches(routes)");
  });

  it.each([
    ["this app's routes", appRoutes],
    ["a made-up tree of every route shape", async () => madeUpRoutes],
  ])("matches exactly as the original does on %s", async (_name, routesOf) => {
    const routes = await routesOf();
    const paths = pathsFor(routes);
    expect(paths.length).toBeGreaterThan(1_000);
    let matched = 0;
    for (const pathname of paths) {
      // The same routes array twice: the second call is answered from the cached branches.
      for (let round = 0; round < 2; round++) {
        const expected = summary(original.matchRoutes(routes, pathname));
        expect({ pathname, round, match: summary(patched.matchRoutes(routes, pathname)) }).toEqual({ pathname, round, match: expected });
        if (expected && round === 0) matched += 1;
      }
      // Under a basename too, and for partial matches (lazy route discovery).
      expect(summary(patched.matchRoutes(routes, `/base${pathname}`, "/base"))).toEqual(summary(original.matchRoutes(routes, `/base${pathname}`, "/base")));
    }
    // Not a comparison of two nulls: most of the paths reach a route.
    expect(matched).toBeGreaterThan(paths.length / 2);
  });

  it("matches routes added by lazy route discovery, after the tree was cached", async () => {
    // patchRoutesOnNavigation adds children to the routes array being matched, in place.
    const router = patched.createRouter({
      routes: [{ id: "root", path: "/", children: [{ id: "home", index: true }] }],
      history: patched.createMemoryHistory({ initialEntries: ["/"] }),
      patchRoutesOnNavigation: ({ path: next, patch }) => {
        if (next === "/later") patch("root", [{ id: "later", path: "later" }]);
      },
    });
    router.initialize();
    await router.navigate("/");
    expect(router.state.matches.map((m) => m.route.id)).toEqual(["root", "home"]);
    await router.navigate("/later");
    expect(router.state.errors).toBeNull();
    expect(router.state.matches.map((m) => m.route.id)).toEqual(["root", "later"]);
    router.dispose();
  });
});
