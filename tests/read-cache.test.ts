import { db } from "~/services/db.server";
import { announceContentChanged } from "~/services/realtime.server";
import { cachedRead } from "~/services/read-cache.server";
import { startTestServer, type TestServer } from "./helpers/server";

// Shared reads are kept per process (app/services/read-cache.server.ts): never past a write.
describe("kept reads", () => {
  let server: TestServer;
  let loads = 0;
  const read = () =>
    cachedRead("test:setting", async () => {
      loads += 1;
      return (await db().setting.findUnique({ where: { key: "read-cache-test" } }))?.value ?? null;
    });
  const write = (value: string) => db().setting.upsert({ where: { key: "read-cache-test" }, create: { key: "read-cache-test", value }, update: { value } });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answer repeat reads from memory, and read again after any write, transaction or announced change", async () => {
    await write("one");
    loads = 0;
    expect(await read()).toBe("one");
    expect(await read()).toBe("one");
    expect(loads).toBe(1);

    await write("two");
    expect(await read()).toBe("two");
    expect(loads).toBe(2);

    await db().$transaction(async (tx) => {
      await tx.setting.update({ where: { key: "read-cache-test" }, data: { value: "three" } });
    });
    expect(await read()).toBe("three");

    await db().$executeRaw`UPDATE "Setting" SET "value" = 'four' WHERE "key" = 'read-cache-test'`;
    expect(await read()).toBe("four");
    expect(loads).toBe(4);

    announceContentChanged();
    await read();
    expect(loads).toBe(5);
  });

  it("keep reads through writes to tables no kept read reads, and through transactions that only read", async () => {
    await write("kept");
    loads = 0;
    expect(await read()).toBe("kept");
    // Audience housekeeping and rate limits write on every request; no kept read reads them.
    await db().audienceSalt.deleteMany({ where: { day: { lt: "2000-01-01" } } });
    await db().rateLimit.deleteMany({ where: { key: "read-cache-test" } });
    await db().$transaction(async (tx) => {
      await tx.setting.findUnique({ where: { key: "read-cache-test" } });
    });
    expect(await read()).toBe("kept");
    expect(loads).toBe(1);

    // A transaction that wrote a kept table forgets them when it commits, and also when it rolls back.
    await db()
      .$transaction(async (tx) => {
        await tx.setting.update({ where: { key: "read-cache-test" }, data: { value: "rolled back" } });
        throw new Error("changed my mind");
      })
      .catch(() => {});
    expect(await read()).toBe("kept");
    expect(loads).toBe(2);
  });

  it("never keeps a read that was running while a write went through", async () => {
    await write("before");
    let release: () => void = () => {};
    let queried: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = new Promise<void>((resolve) => (queried = resolve));
    const slow = cachedRead("test:racing", async () => {
      const value = (await db().setting.findUnique({ where: { key: "read-cache-test" } }))?.value ?? null;
      queried();
      await gate;
      return value;
    });
    await read;
    await write("after");
    release();
    expect(await slow).toBe("before");
    expect(await cachedRead("test:racing", async () => (await db().setting.findUnique({ where: { key: "read-cache-test" } }))?.value ?? null)).toBe("after");
  });
});
