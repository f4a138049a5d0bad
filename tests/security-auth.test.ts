import { vi } from "vitest";
import { PIN_ATTEMPTS } from "~/models/pin-entry.server";
import { SIGN_IN_ACCOUNT_ATTEMPTS, SIGN_IN_ATTEMPTS } from "~/auth.server";
import { db } from "~/services/db.server";
import { captureLog } from "./helpers/log";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * Findings 2, 3 and 4 of the second security round: the PIN and sign-in
 * counters an attacker could reset with their own successes, open redirects
 * through characters a browser strips or rewrites, and raw log lines. Finding 4
 * of the third: guessing from many addresses must not lock the admin or a
 * listener out, and must not buy the guesser more than its back-off allows.
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

  /** Moves the last attempt of `key` back by `ms`, as if that much time had passed since. */
  async function elapse(key: string, ms: number) {
    const row = await db().rateLimit.findUniqueOrThrow({ where: { key } });
    await db().rateLimit.update({ where: { key }, data: { resetAt: new Date(row.resetAt.getTime() - ms) } });
  }

  it("never locks the admin out: wrong admin PINs from 10 addresses leave the admin's own address its attempt, and slow the guessers down", async () => {
    const attackers = Array.from({ length: 10 }, newAddress);
    for (const address of attackers) {
      for (let i = 0; i < PIN_ATTEMPTS; i++) expect((await pin(address, "admin", String(300000 + i))).status).toBe(401);
    }
    // The attack is written to the activity log once.
    const logged = await db().activityLog.findMany({ where: { action: "pin.admin.attacked" } });
    expect(logged).toHaveLength(1);
    expect(logged[0].summary).toMatch(/under attack/);
    // The real admin, from an address the guessers do not hold, gets in with the right PIN.
    expect(destination(await pin(newAddress(), "admin", "123456")).pathname).toBe("/dashboard-admin");
    // An admin who mistypes once while the attack lasts waits a minute, not an hour.
    const clumsy = newAddress();
    expect((await pin(clumsy, "admin", "000000")).status).toBe(401);
    const waiting = await pin(clumsy, "admin", "123456");
    expect(waiting.status).toBe(429);
    expect(await waiting.text()).toContain("Too many attempts. Please wait 1 minute and try again.");
    await elapse(`pin:admin:${clumsy}`, 61_000);
    expect((await pin(clumsy, "admin", "123456")).status).toBe(302);
    // Each guessing address is held to its back-off, even with the right PIN (a refusal tells nothing).
    for (const address of attackers) expect((await pin(address, "admin", "123456")).status).toBe(429);
    // A fresh guessing address now gets one free guess, then waits 1, 2, 4, ... minutes between guesses.
    const fresh = newAddress();
    expect((await pin(fresh, "admin", "400000")).status).toBe(401);
    expect((await pin(fresh, "admin", "400001")).status).toBe(429);
    await elapse(`pin:admin:${fresh}`, 61_000);
    expect((await pin(fresh, "admin", "400002")).status).toBe(401);
    const doubled = await pin(fresh, "admin", "400003");
    expect(doubled.status).toBe(429);
    expect(await doubled.text()).toContain("Please wait 2 minutes");
    // Hammering while refused does not count: the attempts stored stay those that were checked.
    for (let i = 0; i < 5; i++) expect((await pin(fresh, "admin", String(400010 + i))).status).toBe(429);
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key: `pin:admin:${fresh}` } })).count).toBe(2);
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

  it("never locks a listener out: ten wrong passwords from each of two addresses leave the owner's own address its sign-in", async () => {
    const attackers = [newAddress(), newAddress()];
    for (const address of attackers) {
      for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
        expect((await signIn(address, i % 2 ? "VICTIM@example.com " : "victim@example.com", `guess ${address} ${i}`)).status).toBe(401);
      }
    }
    expect(SIGN_IN_ATTEMPTS * attackers.length).toBeGreaterThanOrEqual(SIGN_IN_ACCOUNT_ATTEMPTS);
    // The owner signs in from their own address.
    const owner = await signIn(newAddress(), "victim@example.com", PASSWORD);
    expect(owner.status).toBe(302);
    expect(cookieOf(owner)).toMatch(/^__session=/);
    // The guessers' addresses wait, even with the right password.
    for (const address of attackers) expect((await signIn(address, "victim@example.com", PASSWORD)).status).toBe(429);
    // While the account is under attack, a fresh address gets one guess at it, then its back-off starts.
    const fresh = newAddress();
    expect((await signIn(fresh, "victim@example.com", "fresh guess")).status).toBe(401);
    expect((await signIn(fresh, "victim@example.com", "fresh guess 2")).status).toBe(429);
    // ... while that address may still sign in to another account (its own).
    expect((await signIn(fresh, "attacker@example.com", PASSWORD)).status).toBe(302);
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

  it("applies the same check to the theme and language switches (issue 27, finding 5a)", async () => {
    for (const returnTo of [...hostileDestinations, "/\t/evil.example/x", "/\n\\evil.example/x"]) {
      const theme = await post("/theme", newAddress(), { theme: "light", returnTo });
      expect(theme.status, JSON.stringify(returnTo)).toBe(302);
      expect(destination(theme).origin, JSON.stringify(returnTo)).toBe(origin);
      expect(theme.headers.get("Location"), JSON.stringify(returnTo)).not.toMatch(/[\t\n\r\\]/);
      const language = await post("/language", newAddress(), { language: "en", returnTo });
      expect(language.status, JSON.stringify(returnTo)).toBe(302);
      expect(destination(language).origin, JSON.stringify(returnTo)).toBe(origin);
    }
    // A real page to go back to still works.
    expect((await post("/theme", newAddress(), { theme: "light", returnTo: "/schedule?day=2" })).headers.get("Location")).toBe("/schedule?day=2");
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
