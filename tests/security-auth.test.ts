import { createHash } from "node:crypto";
import { vi } from "vitest";
import { ADMIN_PIN_STATION_CEILING, PIN_ATTEMPTS } from "~/models/pin-entry.server";
import { SIGN_IN_ACCOUNT_ATTEMPTS, SIGN_IN_ATTEMPTS } from "~/auth.server";
import { db } from "~/services/db.server";
import { captureLog } from "./helpers/log";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Findings 2, 3 and 4 of the second security round: the PIN and sign-in
 * counters an attacker could reset with their own successes, open redirects
 * through characters a browser strips or rewrites, and raw log lines.
 */

const PASSWORD = "correct horse battery";
let nextAddress = 1;
const newAddress = () => `198.51.100.${nextAddress++}`;

describe("PIN, sign-in and redirect attacks", () => {
  let server: TestServer;
  let origin: string;
  let episodeId: number;

  const post = (path: string, address: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "X-Forwarded-For": address, ...(cookie ? { Cookie: cookie } : {}) },
      redirect: "manual",
    });
  const pin = (address: string, kind: "admin" | "public", value: string, extra: Record<string, string> = {}) =>
    post("/pin", address, { kind, pin: value, ...extra });
  const signIn = (address: string, email: string, password: string, extra: Record<string, string> = {}) =>
    post("/login", address, { email, password, ...extra });
  const cookieOf = (response: Response) => response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  /** Where a browser goes after this answer (it resolves Location the WHATWG way, stripping tabs and newlines). */
  const destination = (response: Response) => new URL(response.headers.get("Location") ?? "", server.url);

  async function register(email: string) {
    const response = await post("/register", newAddress(), { name: "Listener", email, password: PASSWORD, conPassword: PASSWORD });
    expect(response.status).toBe(302);
  }

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "1", SEED_CONTENT: "true" });
    origin = new URL(server.url).origin;
    episodeId = (await db().podcastEpisode.findFirstOrThrow({ where: { publishedAt: { lte: new Date() } }, select: { id: true } })).id;
    await register("victim@example.com");
    await register("attacker@example.com");
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await db().rateLimit.deleteMany({});
  });

  it("keeps one PIN counter per kind: a correct public PIN does not clear wrong admin guesses", async () => {
    const address = newAddress();
    const adminStatuses: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < PIN_ATTEMPTS - 1; i++) adminStatuses.push((await pin(address, "admin", String(100000 + round * 10 + i))).status);
      expect((await pin(address, "public", "54321")).status).toBe(302);
    }
    expect(adminStatuses.slice(0, PIN_ATTEMPTS)).toEqual(Array(PIN_ATTEMPTS).fill(401));
    expect(adminStatuses.slice(PIN_ATTEMPTS)).toEqual(Array(adminStatuses.length - PIN_ATTEMPTS).fill(429));
    // The other way round as well: a correct admin PIN does not clear wrong public guesses.
    const other = newAddress();
    for (let i = 0; i < PIN_ATTEMPTS; i++) expect((await pin(other, "public", `ZZZZ${i}`)).status).toBe(401);
    expect((await pin(other, "admin", "123456")).status).toBe(302);
    expect((await pin(other, "public", "54321")).status).toBe(429);
  });

  it("pauses admin PIN entry station-wide after too many wrong admin PINs from many addresses, and logs it", async () => {
    // The first wrong PINs are written straight into the counter (each real one costs two scrypt hashes); the last ones are real, from other addresses.
    const real = 4;
    await db().rateLimit.create({ data: { key: "pin:admin:station", count: ADMIN_PIN_STATION_CEILING - real, resetAt: new Date(Date.now() + 3600_000) } });
    for (let i = 0; i < real; i++) expect((await pin(newAddress(), "admin", String(200000 + i))).status).toBe(401);
    // Even the right PIN from a fresh address now waits.
    const paused = await pin(newAddress(), "admin", "123456");
    expect(paused.status).toBe(429);
    expect(await paused.text()).toContain("Admin PIN entry is paused after too many wrong PINs. Please try again later.");
    const logged = await db().activityLog.findMany({ where: { action: "pin.admin.paused" } });
    expect(logged).toHaveLength(1);
    expect(logged[0].summary).toMatch(/paused/);
    // The public PIN is not affected.
    expect((await pin(newAddress(), "public", "54321")).status).toBe(302);
  });

  it("counts sign-in failures per address: signing in as oneself does not reset them", async () => {
    const address = newAddress();
    const statuses: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < SIGN_IN_ATTEMPTS - 1; i++) statuses.push((await signIn(address, "victim@example.com", `guess ${round} ${i}`)).status);
      const own = await signIn(address, "attacker@example.com", PASSWORD);
      if (round === 0) expect(own.status).toBe(302);
    }
    expect(statuses.slice(0, SIGN_IN_ATTEMPTS)).toEqual(Array(SIGN_IN_ATTEMPTS).fill(401));
    expect(statuses.slice(SIGN_IN_ATTEMPTS)).toEqual(Array(statuses.length - SIGN_IN_ATTEMPTS).fill(429));
  });

  it("counts sign-in failures per account across addresses; a success clears only that account", async () => {
    // Most of the failures are written straight into the account's counter; the last ones are real, each from another address.
    const real = 4;
    const accountKey = `sign-in:account:${createHash("sha256").update("victim@example.com").digest("hex")}`;
    await db().rateLimit.create({ data: { key: accountKey, count: SIGN_IN_ACCOUNT_ATTEMPTS - real, resetAt: new Date(Date.now() + 900_000) } });
    for (let i = 0; i < real; i++) expect((await signIn(newAddress(), i % 2 ? "VICTIM@example.com " : "victim@example.com", `guess ${i}`)).status).toBe(401);
    expect((await signIn(newAddress(), "victim@example.com", `one more`)).status).toBe(429);
    // The attacker's own account, from the same addresses, is unaffected and its success clears nothing of the victim's.
    expect((await signIn(newAddress(), "attacker@example.com", PASSWORD)).status).toBe(302);
    expect((await signIn(newAddress(), "victim@example.com", PASSWORD)).status).toBe(429);
  });

  const hostileDestinations = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/\t\\evil.example",
    "/\\evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "//evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
    "/\u0000/evil.example",
    "/\u000b/evil.example",
    "/\u001f/evil.example",
    "/\u007f/evil.example",
    "/\u0085/evil.example",
    "/caf\u00e9\n",
    "/\u2028/evil.example",
    "/\u{1F4FB}\r\nX-Injected: 1",
    // Dot segments the URL parser resolves into a leading "//".
    "/.//evil.example",
    "/%2e//evil.example",
    "/%2e%2e//evil.example",
    "/x/..//evil.example",
    "/x/%2E%2E/\\evil.example",
    "/./\t/evil.example",
    "/.%2f/evil.example",
  ];

  it("sends a signed-in listener only to paths on this site, whatever redirectTo holds, and never answers 500", async () => {
    const errors = vi.spyOn(console, "error");
    const log = captureLog();
    try {
      for (const redirectTo of hostileDestinations) {
        const response = await signIn(newAddress(), "attacker@example.com", PASSWORD, { redirectTo });
        expect(response.status, JSON.stringify(redirectTo)).toBe(302);
        expect(destination(response).origin, JSON.stringify(redirectTo)).toBe(origin);
        expect(response.headers.get("X-Injected")).toBeNull();
      }
      // A real destination still works, query included.
      const ok = await signIn(newAddress(), "attacker@example.com", PASSWORD, { redirectTo: "/favorites?sort=new" });
      expect(ok.headers.get("Location")).toBe("/favorites?sort=new");
      // Whatever was logged on the way is one JSON object per line.
      for (const call of errors.mock.calls) {
        expect(call).toHaveLength(1);
        expect(String(call[0])).not.toMatch(/[\r\n]/);
        expect(() => JSON.parse(String(call[0]))).not.toThrow();
      }
      for (const line of log.writes) {
        expect(line).toMatch(/^[^\r\n]*\n$/);
        expect(() => JSON.parse(line)).not.toThrow();
      }
    } finally {
      log.restore();
      errors.mockRestore();
    }
  });

  it("applies the same check to favourites and to the admin PIN", async () => {
    const session = cookieOf(await signIn(newAddress(), "attacker@example.com", PASSWORD));
    for (const redirectTo of hostileDestinations) {
      const favorite = await post(`/favorites/${episodeId}`, newAddress(), { favorite: "true", redirectTo }, session);
      expect(favorite.status, JSON.stringify(redirectTo)).toBe(302);
      expect(destination(favorite).origin, JSON.stringify(redirectTo)).toBe(origin);
      const guest = await post(`/favorites/${episodeId}`, newAddress(), { favorite: "true", redirectTo });
      expect(destination(guest).origin).toBe(origin);
      expect(destination(guest).searchParams.get("redirectTo") ?? "").toMatch(/^\/(?!\/)/);
    }
    for (const redirectTo of hostileDestinations.filter((_, i) => i % 4 === 0)) {
      const admin = await pin(newAddress(), "admin", "123456", { redirectTo: `/episodes-admin${redirectTo}` });
      expect(admin.status, JSON.stringify(redirectTo)).toBe(302);
      expect(destination(admin).origin).toBe(origin);
    }
  });
});
