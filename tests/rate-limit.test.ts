import { connectDb, db, disconnectDb } from "~/services/db.server";
import { applyMigrations } from "~/services/migrations.server";
import { hitRateLimit, peekRateLimit } from "~/services/rate-limit.server";
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
});
