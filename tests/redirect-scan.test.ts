import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/*
 * Issue 27, finding 5a: /theme had a redirect check of its own that let `/\t/evil.example` through.
 * Every place the server or the browser code sends someone somewhere must either name a constant
 * path on this site or go through the one check (app/utils/safe-redirect.ts). This reads the source
 * of app/ and server/ and finds each redirect(, Location header, location.replace/assign/href and
 * navigate(; what it cannot prove safe must be on the allowlist below, with the reason.
 */

const ROOT = path.resolve(__dirname, "..");

/** Targets that are neither a constant path nor checked here, and why each is safe. Every entry must still occur. */
const ALLOWED: { file: string; target: string; why: string }[] = [
  { file: "app/auth.server.ts", target: "redirectTo", why: "signedIn(): every caller passes checkedRedirect(...) (safeRedirect) or SIGNED_IN_HOME" },
  { file: "app/routes/pin.tsx", target: "result.redirectTo", why: "submitPin(): adminDestination() (safeRedirect, then admin pages only) or PUBLIC_HOME" },
  {
    file: "app/routes/podcast[.]xml.ts",
    target: "feed.redirectTo",
    why: "the station's own canonical feed URL (SITE_URL / first origin seen), never request input",
  },
  { file: "server/app.ts", target: "streamUrl", why: "STREAM_URL from the configuration" },
  { file: "app/components/admin/AdminForm.tsx", target: "successTo", why: "a prop the admin page passes as a constant" },
  { file: "app/components/SiteHeader.tsx", target: "closeHref", why: "sameSitePath(location.pathname): this page's own path with leading slashes collapsed" },
  {
    file: "app/components/SiteHeader.tsx",
    target: "`${sameSitePath(location.pathname)}?${params}`",
    why: "this page's own path with leading slashes collapsed, and a query",
  },
  { file: "app/components/ImageSlider.tsx", target: "hrefFor(index)", why: "a query on this page (`?...`), nothing before it" },
];

/** Where a redirect target starts: the call or header, and the index right after its opening. */
const SINKS: RegExp[] = [
  /\bredirect\(/g, // Remix redirect(), Express res.redirect()
  /\bnavigate\(/g, // Remix client-side navigation
  /\blocation\.(?:replace|assign)\(/g,
  /\blocation\.href\s*=(?!=)/g,
  /\bwindow\.open\(/g,
  /["']?\blocation["']?\s*:\s*(?=[^\s])/gi, // a Location entry in a headers object
  /\.(?:setHeader|set|append)\(\s*["']location["']\s*,/gi,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/** The first argument (or header value) starting at `start`: up to the first top-level `,` `)` `;` `}` or newline outside brackets. */
function argumentAt(source: string, start: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) return source.slice(start, i).trim();
      depth--;
    } else if (depth === 0 && (c === "," || c === ";" || c === "\n")) return source.slice(start, i).trim();
  }
  return source.slice(start).trim();
}

/** A path on this site written out in the source: "/x", '/x' or `/x...` (a template whose start is constant). */
function isConstantPath(target: string): boolean {
  return /^(["'])\/(?![/\\])[^"'\\]*\1$/.test(target) || /^`\/[A-Za-z0-9_-][^`]*`$/.test(target) || target === '"/"' || target === "'/'";
}

/** String constants (SCREAMING_CASE) declared anywhere in app/ and server/, by name. */
function constants(files: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    for (const match of readFileSync(path.join(ROOT, file), "utf8").matchAll(/\bconst ([A-Z][A-Z0-9_]*)(?:: string)? = ("[^"\n]*"|'[^'\n]*'|`[^`\n]*`);/g)) {
      found.set(match[1], match[2]);
    }
  }
  return found;
}

/** The names the file calls the one check by (safeRedirect, or an alias it is imported as). */
function checkNames(source: string): string[] {
  const names = ["safeRedirect"];
  const imported = /import \{([^}]*)\} from "~\/utils\/safe-redirect"/.exec(source);
  for (const part of imported?.[1].split(",") ?? []) {
    const alias = /safeRedirect as (\w+)/.exec(part);
    if (alias) names.push(alias[1]);
  }
  return names;
}

/** Whether `target` is a call to a function of this file whose body runs the check. */
function callsCheckingHelper(source: string, target: string, names: string[]): boolean {
  const call = /^(\w+)\(/.exec(target);
  if (!call) return false;
  const declaration = new RegExp(`function ${call[1]}\\(|const ${call[1]} = `).exec(source);
  if (!declaration) return false;
  const body = source.slice(declaration.index, declaration.index + 2000);
  const end = body.indexOf("\n}");
  return names.some((name) => body.slice(0, end < 0 ? undefined : end).includes(`${name}(`));
}

interface Finding {
  file: string;
  line: number;
  target: string;
}

function unchecked(files: string[]): { bad: Finding[]; allowedSeen: Set<number> } {
  const known = constants(files);
  const bad: Finding[] = [];
  const allowedSeen = new Set<number>();
  for (const file of files) {
    const source = readFileSync(path.join(ROOT, file), "utf8");
    const names = checkNames(source);
    for (const sink of SINKS) {
      for (const match of source.matchAll(sink)) {
        const before = source.slice(source.lastIndexOf("\n", match.index) + 1, match.index);
        if (/^\s*(\/\/|\*|\/\*)/.test(before)) continue; // a comment
        if (/function\s+$|import[^;]*$/.test(before)) continue; // a declaration, not a call
        let target = argumentAt(source, match.index + match[0].length);
        // Express's res.redirect(status, url): the place is the second argument.
        if (/^\d{3}$/.test(target)) target = argumentAt(source, source.indexOf(",", match.index + match[0].length) + 1);
        if (target === "" || target.startsWith("{")) continue; // an options object, not a place
        const constant = known.get(target);
        if (isConstantPath(target) || (constant !== undefined && isConstantPath(constant))) continue;
        if (names.some((name) => target.includes(`${name}(`)) || callsCheckingHelper(source, target, names)) continue;
        const allowed = ALLOWED.findIndex((entry) => entry.file === file && entry.target === target);
        if (allowed >= 0) {
          allowedSeen.add(allowed);
          continue;
        }
        bad.push({ file, line: source.slice(0, match.index).split("\n").length, target });
      }
    }
  }
  return { bad, allowedSeen };
}

describe("every redirect goes through the one check", () => {
  const files = [...sourceFiles("app"), ...sourceFiles("server")];

  it("finds no redirect, Location header or navigation to a target that is neither a constant path nor checked", () => {
    expect(files.length).toBeGreaterThan(100);
    const { bad, allowedSeen } = unchecked(files);
    expect(bad).toEqual([]);
    // An allowlist entry whose code went away is dropped, not kept as a blank cheque.
    expect(ALLOWED.filter((_, index) => !allowedSeen.has(index))).toEqual([]);
  });

  it("catches a check of its own, an unchecked variable, and a header set by hand", () => {
    const check = (source: string) => {
      const names = checkNames(source);
      const target = argumentAt(source, source.indexOf("redirect(") + "redirect(".length);
      return isConstantPath(target) || names.some((name) => target.includes(`${name}(`)) || callsCheckingHelper(source, target, names);
    };
    // The old /theme: a helper of its own that never calls the check.
    expect(check('function backTo(v) {\n  return v.startsWith("/") ? v : "/listen";\n}\nreturn redirect(backTo(form.get("returnTo")));')).toBe(false);
    expect(check('import { safeRedirect } from "~/utils/safe-redirect";\nreturn redirect(safeRedirect(form.get("returnTo"), "/listen"));')).toBe(true);
    expect(check('import { safeRedirect as checked } from "~/utils/safe-redirect";\nreturn redirect(checked(to));')).toBe(true);
    expect(check("return redirect(url.searchParams.get('next'));")).toBe(false);
    expect(check('return redirect("//evil.example");')).toBe(false);
    expect(check("return redirect(`/listen?${params}`);")).toBe(true);
    expect(check("return redirect(`${origin}/listen`);")).toBe(false);
    const header = "return new Response(null, { status: 302, headers: { Location: req.query.to } });";
    const match = /["']?\blocation["']?\s*:\s*(?=[^\s])/gi.exec(header);
    expect(match && argumentAt(header, match.index + match[0].length)).toBe("req.query.to");
  });
});
