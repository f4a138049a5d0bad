import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "./helpers/server";

// A signed-in listener's place in an episode is kept on the server, for every device.
describe("episode progress for signed-in listeners", () => {
  let server: TestServer;
  let cookie = "";
  let episode: { id: number; durationSeconds: number };

  const send = (path: string, init: RequestInit & { asGuest?: boolean } = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { ...(init.asGuest ? {} : { Cookie: cookie }) }, redirect: "manual" });
  const save = (id: number, fields: Record<string, string>, asGuest = false) =>
    send(`/episode-progress/${id}`, { method: "POST", body: new URLSearchParams(fields), asGuest });
  const read = async (id: number) => (await send(`/episode-progress/${id}`)).json();

  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true" });
    const password = "correct horse battery";
    const form = (fields: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(fields), redirect: "manual" as const });
    expect((await fetch(`${server.url}/register`, form({ name: "Resume Rae", email: "rae@example.com", password, conPassword: password }))).status).toBe(302);
    const login = await fetch(`${server.url}/login`, form({ email: "rae@example.com", password }));
    cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    expect(cookie).toContain("__session=");
    episode = await db().podcastEpisode.findFirstOrThrow({ where: { durationSeconds: { gt: 20 } }, select: { id: true, durationSeconds: true } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("stores the place, shares it with the next device, keeps the played mark, and shows it on the play page", async () => {
    expect(await read(episode.id)).toEqual({ positionSeconds: 0, played: false });
    expect((await save(episode.id, { positionSeconds: "17", played: "false" })).status).toBe(204);
    expect(await read(episode.id)).toEqual({ positionSeconds: 17, played: false });
    expect((await save(episode.id, { positionSeconds: String(episode.durationSeconds), played: "true" })).status).toBe(204);
    // Listening again from the start keeps the mark.
    expect((await save(episode.id, { positionSeconds: "3", played: "false" })).status).toBe(204);
    expect(await read(episode.id)).toEqual({ positionSeconds: 3, played: true });
    const page = await (await send(`/play/${episode.id}`)).text();
    // The play page's loader data (turbo-stream encoded in the HTML) carries it for the first render.
    expect(page).toMatch(/\\"positionSeconds\\",3,\\"played\\"/);
  });

  it("refuses bad input with a clear answer and changes nothing", async () => {
    const before = await read(episode.id);
    for (const fields of [
      { positionSeconds: "-1", played: "false" },
      { positionSeconds: "1e3", played: "false" },
      { positionSeconds: "", played: "false" },
      { positionSeconds: "5", played: "yes" },
      { positionSeconds: String(episode.durationSeconds + 60), played: "false" },
      { positionSeconds: '5\'; DROP TABLE "EpisodeProgress";--', played: "false" },
    ]) {
      const response = await save(episode.id, fields);
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/positionSeconds|played/);
    }
    // A flood of fields is refused while it arrives, like every other form.
    const flood = await fetch(`${server.url}/episode-progress/${episode.id}`, {
      method: "POST",
      body: `positionSeconds=5&played=false&${"a=1&".repeat(3_000_000)}`,
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(flood.status).toBe(413);
    expect((await save(999_999, { positionSeconds: "5", played: "false" })).status).toBe(404);
    expect((await send("/episode-progress/abc")).status).toBe(404);
    expect((await save(episode.id, { positionSeconds: "5", played: "false" }, true)).status).toBe(401);
    expect((await send(`/episode-progress/${episode.id}`, { asGuest: true })).status).toBe(401);
    expect(await read(episode.id)).toEqual(before);
  });
});
