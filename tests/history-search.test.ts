import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Issue 27, finding 5e: the history search handed `%` and `_` to ILIKE as wildcards (and `\` as
 * its escape), so `%` matched every song. The text is now a literal, and every LIKE-style filter
 * in app/ goes through likeLiteral().
 */

const TITLES = ["100% Pure", "A_B Side", "Back\\Slash", "Plain Song", "AxB Side", "100 Pure"];

describe("history search takes the text literally", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    await db().songPlay.deleteMany();
    const start = Date.parse("2026-11-20T10:00:00Z");
    await db().songPlay.createMany({
      data: TITLES.map((title, i) => ({ playedAt: new Date(start + i * 60_000), raw: title, title })),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function found(q: string): Promise<string[]> {
    const response = await fetch(`${server.url}/history.json?from=2026-11-20T09:00:00Z&to=2026-11-20T11:00:00Z&q=${encodeURIComponent(q)}`);
    expect(response.status, q).toBe(200);
    const body = (await response.json()) as { songs: { title: string }[] };
    return body.songs.map((song) => song.title).sort();
  }

  it("matches %, _ and \\ as themselves", async () => {
    expect(await found("%")).toEqual(["100% Pure"]);
    expect(await found("0%")).toEqual(["100% Pure"]);
    expect(await found("%%")).toEqual([]);
    expect(await found("_")).toEqual(["A_B Side"]);
    expect(await found("A_B")).toEqual(["A_B Side"]);
    expect(await found("\\")).toEqual(["Back\\Slash"]);
    expect(await found("k\\S")).toEqual(["Back\\Slash"]);
    expect(await found("\\%")).toEqual([]);
    // Ordinary searches are unchanged (case-insensitive, anywhere in the title).
    expect(await found("pure")).toEqual(["100 Pure", "100% Pure"]);
    expect(await found("")).toHaveLength(TITLES.length);
  });

  it("finds no LIKE-style filter in app/ that does not go through likeLiteral()", () => {
    const root = path.resolve(__dirname, "../app");
    const files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.parentPath.includes("generated"))
      .map((entry) => path.join(entry.parentPath, entry.name));
    const unescaped: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/\b(contains|startsWith|endsWith):\s*([^,}\n]+)/g)) {
        if (!match[2].includes("likeLiteral(")) unescaped.push(`${path.relative(root, file)}: ${match[0]}`);
      }
      // Raw SQL LIKE with a bound value: the value must be escaped too.
      for (const match of source.matchAll(/I?LIKE\s+\$\{([^}]+)\}/g)) {
        if (!match[1].includes("likeLiteral(")) unescaped.push(`${path.relative(root, file)}: ${match[0]}`);
      }
    }
    expect(unescaped).toEqual([]);
  });
});
