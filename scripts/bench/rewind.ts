// The rewind figures (README "Benchmark"): a real Icecast 2 with ffmpeg as the source, recorded by a
// server in this process on its own embedded database: storage per recorded hour, the CPU the
// server spends following and recording the stream, how long a seek takes to bring audio bytes
// (playlist + the segment at the target, on loopback), and how long after a show ends its episode
// is published (a one-off airing of one to two minutes around now).
import { startServer } from "../../server/app";
import { icecastAvailable, startIcecast } from "../../tests/helpers/icecast";
import { loadConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { startPostgresCluster } from "~/services/embedded-postgres.server";
import { makeTempDir } from "./processes";
import { percentile } from "./realtime";
import { figure, formatNumber, heading, unmeasured } from "./report";

const RECORD_SECONDS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => `${formatNumber(value, value < 10 ? 1 : 0)} ms`;

export async function benchRewind(log: (line: string) => void): Promise<void> {
  heading("Rewind and show archives (real Icecast + ffmpeg source)");
  if (!icecastAvailable) {
    unmeasured("rewind figures", "icecast2 or ffmpeg is not installed", "episode ≤ 5 min after the show");
    return;
  }
  const dataDir = await makeTempDir("spin-bench-rewind-");
  const icecast = await startIcecast();
  const embedded = await startPostgresCluster({ dir: `${dataDir}/postgres`, passwordFile: `${dataDir}/postgres-password`, database: "rewind" });
  const config = loadConfig({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: embedded.url,
    ADMIN_PIN: "135790",
    PUBLIC_PIN: "bench",
    SEED_CONTENT: "false",
    STATION_TIMEZONE: "UTC",
    STREAM_URL: icecast.streamUrl,
    REWIND_HOURS: "1",
    LOG_LEVEL: "warn",
  });
  const server = await startServer(config);
  try {
    // A show on air now, ending 60 to 120 s from now, published as an episode when it ends.
    const now = Date.now();
    const minute = Math.floor(now / 60_000) * 60_000;
    const start = new Date(minute);
    const end = new Date(minute + 120_000);
    await db().show.create({
      data: {
        slug: "bench-show",
        name: "Bench Show",
        archive: "publish",
        slots: { create: { startDate: start.toISOString().slice(0, 10), startTime: start.toISOString().slice(11, 16), durationMinutes: 2 } },
      },
    });
    log(`rewind: recording for ${RECORD_SECONDS} s`);
    await sleep(5_000);
    const cpu = process.cpuUsage();
    const wallStarted = performance.now();
    for (let second = 0; second < RECORD_SECONDS; second += 10) {
      await icecast.setTitle(`Bench Artist - Song ${second / 10 + 1}`);
      await sleep(10_000);
    }
    const used = process.cpuUsage(cpu);
    const cpuPercent = ((used.user + used.system) / 1000 / (performance.now() - wallStarted)) * 100;
    const totals = await db().rewindSegment.aggregate({ _sum: { size: true, durationMs: true }, _count: true });
    const bytesPerHour = ((totals._sum.size ?? 0) / Math.max(1, totals._sum.durationMs ?? 0)) * 3_600_000;
    figure(`storage per recorded hour (64 kb/s source)`, `${formatNumber(bytesPerHour / 1024 / 1024, 1)} MB`, {
      text: "≤ 30 MB",
      met: bytesPerHour <= 30 * 1024 * 1024,
    });
    figure("CPU of following + recording (one core)", `${formatNumber(cpuPercent, 1)} %`, { text: "< 5 %", met: cpuPercent < 5 });

    // A seek: the playlist, then the segment holding the target moment, as a player fetches them.
    const seeks: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const playlist = await (await fetch(`${server.url}/live.m3u8`)).text();
      const uris = playlist.split("\n").filter((line) => line.startsWith("/live/segment/"));
      const segment = await fetch(`${server.url}${uris[i % uris.length]}`);
      await segment.arrayBuffer();
      seeks.push(performance.now() - started);
    }
    seeks.sort((a, b) => a - b);
    figure("seek: playlist + segment at target, p50", ms(percentile(seeks, 50)));
    figure("seek: playlist + segment at target, p99", ms(percentile(seeks, 99)), { text: "< 1,000 ms", met: percentile(seeks, 99) < 1_000 });

    // Show end to published episode.
    while (Date.now() < end.getTime()) await sleep(500);
    let published: Date | null = null;
    while (Date.now() < end.getTime() + 5 * 60_000) {
      const recording = await db().showRecording.findFirst({ where: { status: { in: ["published", "failed"] } } });
      if (recording?.status === "published") {
        published = recording.updatedAt;
        break;
      }
      if (recording?.status === "failed") break;
      await sleep(250);
    }
    if (published) {
      const seconds = (published.getTime() - end.getTime()) / 1000;
      figure("show end to published episode", `${formatNumber(seconds, 1)} s`, { text: "≤ 300 s", met: seconds <= 300 });
    } else {
      unmeasured("show end to published episode", "the episode was not published within 5 minutes", "≤ 300 s");
    }
  } finally {
    await server.close();
    await icecast.stop();
    await embedded.stop();
  }
}
