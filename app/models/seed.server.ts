import fs from "node:fs/promises";
import path from "node:path";
import { encodeListeningCopy, EncoderUnavailableError, needsListeningCopy } from "~/services/audio.server";
import { db } from "~/services/db.server";
import { logger } from "~/services/log.server";
import { stageExistingFile, withTempDir } from "~/services/temp-files.server";
import { DEMO_EPISODE_EXTRAS, DEMO_EVENTS, emptyRegistry, saveDemoRegistry, stationHasContent, writeDemoProgramme } from "./demo-content.server";
import { recordFile, uploadAudio, uploadImage, uploadTranscript, type UploadedFile } from "./files.server";

export const SEED_DIR = path.resolve("prisma/seed-assets");
const SEED_MARKER = "seed.completedAt";
// Serialises seeding between app instances that start at the same moment.
const SEED_LOCK = 5_417_001;

interface SeedManifest {
  jumbotron: string;
  episodes: { title: string; description: string; cover: string; audio: string; publishedAt: string }[];
  crewImages: { key: string; file: string }[];
  crewMembers: { name: string; age: number; email: string; jobTitle: string; address: string; bio: string; image: string }[];
}

/** True once the station's first content was written (admin changes are never overwritten after that). */
export async function isSeeded(): Promise<boolean> {
  return (await db().setting.findUnique({ where: { key: SEED_MARKER } })) !== null;
}

/**
 * Fills an empty station with the bundled demo content: jumbotron, 10 episodes (with seasons,
 * credits, two with transcripts and chapters), 38 crew slider images, a few crew members, a
 * week of shows, upcoming events and chart players (demo-content.server.ts), all listed as
 * demo content an admin can remove in one step. Runs once per database, and adds nothing to a
 * station that already has content; files are content-addressed, so an interrupted seed simply
 * runs again.
 */
export async function seedStation(dir = SEED_DIR): Promise<boolean> {
  if (await isSeeded()) return false;
  if (await stationHasContent()) {
    await db().setting.upsert({ where: { key: SEED_MARKER }, create: { key: SEED_MARKER, value: new Date().toISOString() }, update: {} });
    return false;
  }
  const seededAt = new Date();
  const manifest = JSON.parse(await fs.readFile(path.join(dir, "manifest.json"), "utf8")) as SeedManifest;
  const uploads = new Map<string, Promise<UploadedFile>>();
  // Episode covers and member portraits also get the square JPEG podcast directories require.
  const artwork = (folder: string) => folder === "covers" || folder === "members";
  const upload = (file: string, folder: string, kind: "image" | "audio") => {
    if (!uploads.has(file)) {
      uploads.set(
        file,
        // Audio streams from the bundled file into storage (stageExistingFile leaves the file where it is).
        kind === "image"
          ? fs.readFile(path.join(dir, file)).then((bytes) => uploadImage(bytes, folder, { artwork: artwork(folder) }))
          : stageExistingFile(path.join(dir, file)).then((staged) => uploadAudio(staged, folder)),
      );
    }
    return uploads.get(file)!;
  };
  // A WAV episode is published with its MP3 listening copy, encoded now (as the queue would for an upload).
  const listeningCopies = new Map<string, Promise<UploadedFile | null>>();
  const listeningCopy = (file: string, original: UploadedFile) => {
    if (!needsListeningCopy(original.contentType)) return Promise.resolve(null);
    if (!listeningCopies.has(file)) {
      listeningCopies.set(
        file,
        withTempDir("seed-listening-copy", async (temp) => {
          const output = path.join(temp, "listening.mp3");
          await encodeListeningCopy(path.join(dir, file), output, original.durationSeconds ?? 0);
          return uploadAudio(await stageExistingFile(output), "audio");
        }).catch((error: unknown) => {
          // Without ffmpeg the demo still starts: the WAV itself is what listeners get.
          if (error instanceof EncoderUnavailableError) {
            logger.warn(`${error.message} The demo's WAV episodes are published as WAV.`);
            return null;
          }
          throw error;
        }),
      );
    }
    return listeningCopies.get(file)!;
  };
  const jumbotron = await upload(manifest.jumbotron, "images", "image");
  const episodes = await Promise.all(
    manifest.episodes.map(async (e) => {
      const audio = await upload(e.audio, "audio", "audio");
      return { ...e, cover: await upload(e.cover, "covers", "image"), audio, listening: await listeningCopy(e.audio, audio) };
    }),
  );
  const crewImages = await Promise.all(manifest.crewImages.map(async (c) => ({ ...c, file: await upload(c.file, "crew", "image") })));
  const members = await Promise.all(manifest.crewMembers.map(async (m) => ({ ...m, image: await upload(m.image, "members", "image") })));
  const posters = await Promise.all(DEMO_EVENTS.map((event) => upload(event.poster, "covers", "image")));
  const transcripts = new Map<number, UploadedFile>();
  for (const [index, extras] of Object.entries(DEMO_EPISODE_EXTRAS)) {
    transcripts.set(Number(index), await uploadTranscript(Buffer.from(extras.transcript, "utf8"), "transcripts"));
  }

  return db().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK})`;
      if (await tx.setting.findUnique({ where: { key: SEED_MARKER } })) return false;
      const file = async (f: UploadedFile) => (await recordFile(tx, f)).id;
      const registry = emptyRegistry();
      const jumbotronId = await file(jumbotron);
      await tx.siteImage.create({ data: { slot: "jumbotron", imageId: jumbotronId } });
      registry.siteImages.push({ slot: "jumbotron", imageId: jumbotronId });
      const seededEpisodes: { id: number; title: string }[] = [];
      for (const episode of episodes) {
        const created = await tx.podcastEpisode.create({
          data: {
            title: episode.title,
            description: episode.description,
            coverId: await file(episode.cover),
            audioId: await file(episode.listening ?? episode.audio),
            originalAudioId: episode.listening ? await file(episode.audio) : null,
            durationSeconds: (episode.listening ?? episode.audio).durationSeconds ?? 0,
            publishedAt: new Date(episode.publishedAt),
          },
          select: { id: true, title: true },
        });
        seededEpisodes.push(created);
        registry.episodes.push(created.id);
      }
      for (const [index, image] of crewImages.entries()) {
        const created = await tx.crewImage.create({ data: { key: image.key, position: index + 1, imageId: await file(image.file) }, select: { id: true } });
        registry.crewImages.push(created.id);
      }
      for (const member of members) {
        const { image, ...fields } = member;
        const created = await tx.crewMember.create({ data: { ...fields, imageId: await file(image) }, select: { id: true } });
        registry.crewMembers.push(created.id);
      }
      const transcriptIds = new Map<number, string>();
      for (const [index, transcript] of transcripts) transcriptIds.set(index, await file(transcript));
      const posterIds: string[] = [];
      for (const poster of posters) posterIds.push(await file(poster));
      await writeDemoProgramme(
        tx,
        { crew: registry.crewMembers, episodes: seededEpisodes, posters: posterIds, transcripts: transcriptIds, seededAt },
        registry,
      );
      await saveDemoRegistry(tx, registry);
      await tx.setting.create({ data: { key: SEED_MARKER, value: new Date().toISOString() } });
      return true;
    },
    { timeout: 60_000 },
  );
}
