import { db } from "~/services/db.server";
import { formatBytes } from "~/services/uploads.server";
import { adminCookie } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

// The admin dashboard says what the rewind buffer costs: its size, its window and its segments.
describe("rewind storage on the admin dashboard", () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer({ REWIND_HOURS: "3" });
    admin = await adminCookie(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("says it is not recording yet, then shows the bytes, the hours and the number of segments the buffer holds", async () => {
    const dashboard = async () => (await fetch(`${server.url}/dashboard-admin`, { headers: { Cookie: admin } })).text();
    // Nothing kept yet: it says so and why, not "0 KB (0 segments)".
    const empty = await dashboard();
    expect(empty).toContain("Not recording yet: nothing of the live stream has been kept (it keeps the last 3 hours).");
    expect(empty).not.toContain("(0 segments)");
    const now = Date.now();
    for (const sequence of [1, 2, 3]) {
      await db().rewindSegment.create({
        data: { sequence, startedAt: new Date(now - (4 - sequence) * 6000), durationMs: 6000, size: 1_500_000, key: `rewind/test-${sequence}.mp3` },
      });
    }
    expect(await dashboard()).toContain(`${formatBytes(4_500_000)} of storage for the last 3 hours of the live stream (3 segments).`);
  });
});
