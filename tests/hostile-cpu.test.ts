import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { adminCookie } from "./helpers/admin";
import { cpuSeconds, startServerProcess, type ChildServer } from "./helpers/child-server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { multipart, poster, urlencoded, type Poster } from "./helpers/hostile-input-corpus";

// One client alone must not be able to keep the server's CPU busy: bodies over a form's limits are
// refused at the first limit and the rest is read without being parsed. The server runs in its own
// process, so its CPU time is measured apart from this test's. Budgets are generous: each hostile
// request cost the server 2 to 3 s of CPU before (about 25 s for 90 MB to the episode upload).

describe("hostile input: one client against the server's CPU", () => {
  let server: ChildServer;
  let database: TestDatabase;
  let dataDir: string;
  let post: Poster;
  let cookie: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-cpu-"));
    server = await startServerProcess({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SESSION_SECRET: "hostile-cpu-secret-0123456789abcdef",
      ADMIN_PIN: "123456",
      PUBLIC_PIN: "54321",
      SEED_CONTENT: "false",
      REWIND_HOURS: "0",
      REALTIME_MAX_PER_ADDRESS: "5",
    });
    post = poster(server.url);
    cookie = await adminCookie(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** The server's CPU seconds for what `send` asks of it (its answer read to the end). */
  async function serverCpu(send: () => Promise<Response>): Promise<{ status: number; cpu: number }> {
    const before = cpuSeconds(server.child);
    const response = await send();
    await response.arrayBuffer();
    // Anything the request left running (logging, cleanup) is counted too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { status: response.status, cpu: cpuSeconds(server.child) - before };
  }

  // Under the 12 MB every form route reads (Express answers larger declared lengths itself).
  const FORM_BODY_LIMIT = 12 * 1024 * 1024;
  // 200,000 one-byte fields (about 10 MB with a one-letter boundary).
  const manyFields = {
    body: Buffer.from(`${'--b\r\nContent-Disposition: form-data; name="f"\r\n\r\nx\r\n'.repeat(200_000)}--b--\r\n`),
    contentType: "multipart/form-data; boundary=b",
  };
  const manyUrlencoded = { body: "f=x&".repeat(2_500_000), contentType: "application/x-www-form-urlencoded" };
  // One field as large as the body may be.
  const hugeField = multipart([["f", "x".repeat(11 * 1024 * 1024)]]);

  it("sends bodies that the routes read (under the size Express refuses up front)", () => {
    for (const { body } of [manyFields, manyUrlencoded, hugeField]) expect(body.length).toBeLessThan(FORM_BODY_LIMIT);
  });

  it.each([
    ["/login", 413, false],
    ["/pin", 413, false],
    ["/CrewAdmin", 400, true],
    ["/episodes-admin", 400, true],
  ])("%s: a multipart body of 200,000 one-byte fields is refused at the first field too many", async (route, status, asAdmin) => {
    const result = await serverCpu(() => post(route, manyFields, asAdmin ? cookie : ""));
    expect(result.status).toBe(status);
    expect(result.cpu).toBeLessThan(1);
  });

  it.each([
    ["/login", 413, false],
    ["/pin", 413, false],
    ["/CrewAdmin", 400, true],
    ["/episodes-admin", 400, true],
  ])("%s: one 11 MB field and 10 MB urlencoded cost little", async (route, status, asAdmin) => {
    const field = await serverCpu(() => post(route, hugeField, asAdmin ? cookie : ""));
    expect(field.status).toBe(status);
    expect(field.cpu).toBeLessThan(1);
    const encoded = await serverCpu(() => post(route, manyUrlencoded, asAdmin ? cookie : ""));
    expect(encoded.status).toBe(413);
    expect(encoded.cpu).toBeLessThan(1);
  });

  it("a Content-Type padded with spaces is refused without a quadratic search for its boundary", async () => {
    const padded = { body: multipart([["f", "x"]]).body, contentType: `multipart/form-data${" ".repeat(15_000)}; boundary=x` };
    // Remix's split of that header took about 0.7 s each.
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await serverCpu(() => post("/login", padded)));
    expect(results.reduce((sum, result) => sum + result.cpu, 0)).toBeLessThan(1.5);
    expect(results.map((result) => result.status)).toEqual([400, 400, 400, 400, 400]);
  });

  it("/register: an e-mail address built to make a pattern backtrack is refused in linear time", async () => {
    // 100,000 dots between two "@" (a public form takes 2 MB): the pattern it replaced rescanned them for each split.
    const email = `a@${".".repeat(100_000)}@`;
    const result = await serverCpu(() => post("/register", urlencoded({ name: "Rina", email, password: "long enough 1", conPassword: "long enough 1" })));
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(result.cpu).toBeLessThan(1);
  });

  describe("live updates (socket.io)", () => {
    const sockets: Socket[] = [];
    afterEach(() => {
      for (const socket of sockets.splice(0)) socket.close();
    });

    /** A listener's socket from this address: resolves once connected, or with the refusal. */
    function listener(headers: Record<string, string> = {}): Promise<{ socket: Socket; refused: string | null }> {
      const socket = connect(server.url, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: headers });
      sockets.push(socket);
      return new Promise((resolve) => {
        socket.once("connect", () => resolve({ socket, refused: null }));
        socket.once("connect_error", (error) => resolve({ socket, refused: error.message }));
      });
    }

    it("disconnects a client that emits events, before the flood costs the server anything", async () => {
      const { socket, refused } = await listener();
      expect(refused).toBeNull();
      const gone = new Promise<string>((resolve) => socket.once("disconnect", resolve));
      const before = cpuSeconds(server.child);
      // What an attacker sent: events nobody on the server listens to, as fast as the client can
      // (in batches, so this process keeps reading its sockets), until the server lets go.
      for (let i = 0; i < 300_000 && socket.connected; i++) {
        socket.emit("chat", { i, text: "flood" });
        if (i % 2_000 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const still = new Promise<string>((resolve) => setTimeout(() => resolve("still connected after 20 s"), 20_000));
      expect(await Promise.race([gone, still])).toBe("transport close");
      const started = Date.now();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      // Not a timing test: a server still decoding the flood answers seconds later.
      expect(Date.now() - started).toBeLessThan(2_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(cpuSeconds(server.child) - before).toBeLessThan(1);
    });

    it("refuses the sixth socket of one address (REALTIME_MAX_PER_ADDRESS=5), forwarded-for headers or not, and frees a place when one closes", async () => {
      const tabs = await Promise.all(Array.from({ length: 5 }, () => listener()));
      expect(tabs.map((tab) => tab.refused)).toEqual([null, null, null, null, null]);
      // TRUST_PROXY is 0 here: a forwarded-for header is not the client's address.
      // (Refused with 403 during the handshake, which a websocket client sees as an error.)
      expect((await listener()).refused).not.toBeNull();
      expect((await listener({ "X-Forwarded-For": "203.0.113.9" })).refused).not.toBeNull();
      tabs[0].socket.close();
      await expect.poll(async () => (await listener()).refused, { timeout: 10_000 }).toBeNull();
    });
  });
});
