import { connectDb, db, disconnectDb } from "~/services/db.server";
import { applyMigrations } from "~/services/migrations.server";
import { backoffDelayMs, claimAttempt, hitRateLimit, limitedAddress, peekRateLimit, refundAttempt, type BackoffPolicy } from "~/services/rate-limit.server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";

describe("rate-limit counters", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await applyMigrations(database.url, () => {});
    connectDb(database.url, 2);
  });
  afterAll(async () => {
    await disconnectDb();
    await database?.drop();
  });

  it("deletes counters whose window ended when it counts an attempt, and keeps the current ones", async () => {
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60_000);
    await db().rateLimit.createMany({
      data: [
        { key: "sign-in:198.51.100.7", count: 9, resetAt: past },
        { key: "pin:admin:198.51.100.8", count: 3, resetAt: past },
        { key: "pin:admin:198.51.100.9", count: 2, resetAt: future },
      ],
    });
    const hit = await hitRateLimit("plays:203.0.113.5", 60, 600_000);
    expect(hit).toMatchObject({ allowed: true, count: 1 });
    const keys = (await db().rateLimit.findMany({ select: { key: true }, orderBy: { key: "asc" } })).map((row) => row.key);
    expect(keys).toEqual(["pin:admin:198.51.100.9", "plays:203.0.113.5"]);
    // The counter still running keeps counting where it was.
    expect(await peekRateLimit("pin:admin:198.51.100.9", 5)).toMatchObject({ allowed: true, count: 2 });
  });

  const policy: BackoffPolicy = { free: 3, baseMs: 60_000, capMs: 8 * 60_000, forgetMs: 24 * 3600_000 };
  /** Moves the last attempt of `key` back by `ms`, as if that much time had passed since. */
  async function elapse(key: string, ms: number) {
    const row = await db().rateLimit.findUniqueOrThrow({ where: { key } });
    await db().rateLimit.update({ where: { key }, data: { resetAt: new Date(row.resetAt.getTime() - ms) } });
  }

  it("backs off instead of stopping: free attempts, then waits that double up to a cap, refusals not counted", async () => {
    const key = "pin:admin:192.0.2.1";
    for (let i = 1; i <= 3; i++) expect(await claimAttempt(key, policy)).toMatchObject({ allowed: true, count: i });
    const refused = await claimAttempt(key, policy);
    expect(refused).toMatchObject({ allowed: false, count: 3 });
    expect(refused.retryAfterSeconds).toBeGreaterThan(30);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Refusals change nothing, however many.
    for (let i = 0; i < 10; i++) expect((await claimAttempt(key, policy)).allowed).toBe(false);
    // After the wait, one more; the next wait is twice as long; the waits stop growing at the cap.
    const waits = [];
    for (let i = 0; i < 6; i++) {
      const count = 3 + i;
      // 30 s short of the wait, then past it: generous either way on a slow machine.
      await elapse(key, backoffDelayMs(count, policy) - 30_000);
      expect((await claimAttempt(key, policy)).allowed).toBe(false);
      await elapse(key, 31_000);
      expect(await claimAttempt(key, policy)).toMatchObject({ allowed: true, count: count + 1 });
      waits.push(backoffDelayMs(count, policy) / 60_000);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
    // A refund takes one attempt back; a key unused for forgetMs starts again from its free attempts.
    await refundAttempt(key);
    expect((await db().rateLimit.findUniqueOrThrow({ where: { key } })).count).toBe(8);
    await elapse(key, policy.forgetMs);
    expect(await claimAttempt(key, policy)).toMatchObject({ allowed: true, count: 1 });
  });

  it("lets concurrent attempts through no further than the free ones", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => claimAttempt("sign-in:ip:192.0.2.2", policy)));
    expect(results.filter((result) => result.allowed)).toHaveLength(3);
  });

  it("counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4", () => {
    expect(limitedAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(limitedAddress("2001:db8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    expect(limitedAddress("2001:0db8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(limitedAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitedAddress("::1")).toBe("0:0:0:0::/64");
    expect(limitedAddress("::ffff:198.51.100.4")).toBe("198.51.100.4");
    expect(limitedAddress("198.51.100.4")).toBe("198.51.100.4");
  });
});
