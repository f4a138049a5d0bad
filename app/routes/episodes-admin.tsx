import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { AdminResult } from "~/components/admin/AdminForm";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { useEditing } from "~/components/admin/EditForm";
import { EpisodeForm } from "~/components/EpisodeForm";
import { useLiveData } from "~/hooks/useRealtime";
import {
  createEpisode,
  deleteEpisode,
  discardEpisodeForm,
  EpisodeFormRefused,
  type EpisodeFormPost,
  listAllEpisodes,
  parseEpisodeId,
  readEpisodeForm,
  updateEpisode,
  validateEpisode,
} from "~/models/episodes.server";
import { listCrewMembers } from "~/models/crew.server";
import { listShowChoices } from "~/models/shows.server";
import { requireAdmin } from "~/services/admin-session.server";
import { artworkNote } from "~/services/images.server";
import { getConfig } from "~/services/config.server";
import { siteOrigin as publicBaseUrl } from "~/models/site-origin.server";
import { formatBytes, oneUploadAtATime } from "~/services/uploads.server";
import { formatDuration } from "~/utils/format";
import { mediaUrl } from "~/utils/media";
import { toDateTimeLocal } from "~/utils/time-zone";

export const meta: MetaFunction = () => [{ title: "Episodes · Admin" }, { name: "robots", content: "noindex" }];

const FORMATS: Record<string, string> = { "audio/mpeg": "MP3", "audio/mp4": "M4A", "audio/wav": "WAV", "audio/flac": "FLAC", "audio/aiff": "AIFF" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const timeZone = getConfig().stationTimezone;
  const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const now = new Date();
  const episodes = (await listAllEpisodes()).map((episode) => ({
    id: episode.id,
    title: episode.title,
    description: episode.description,
    scheduled: episode.publishedAt > now,
    when: when.format(episode.publishedAt),
    publishedAtLocal: toDateTimeLocal(episode.publishedAt, timeZone),
    details: `${formatDuration(episode.durationSeconds)} · ${FORMATS[episode.audio.contentType] ?? "audio"} · ${formatBytes(episode.audio.size)}`,
    cover: episode.cover,
    audio: { url: mediaUrl(episode.audio), label: `${FORMATS[episode.audio.contentType] ?? "audio"}, ${formatDuration(episode.durationSeconds)}` },
    // The listening copy: encoding progress or why it failed, while the episode waits unpublished.
    listening: episode.listeningReady ? null : episode.encodeError ? { error: episode.encodeError } : { progress: episode.encodeProgress },
    original: episode.originalAudio
      ? {
          url: mediaUrl(episode.originalAudio),
          label: `Original ${FORMATS[episode.originalAudio.contentType] ?? "audio"} · ${formatBytes(episode.originalAudio.size)}`,
        }
      : null,
    artworkNote: artworkNote(episode.cover),
    transcript: episode.transcript
      ? { url: mediaUrl(episode.transcript), label: episode.transcript.contentType === "text/vtt" ? "WebVTT transcript" : "SRT transcript" }
      : null,
    chaptersJson: episode.chapters ? JSON.stringify(episode.chapters, null, 1) : "",
    seasonNumber: episode.seasonNumber,
    episodeNumber: episode.episodeNumber,
    credits: episode.credits.map((credit) => credit.crewMember.id),
    showId: episode.show?.id ?? null,
    showName: episode.show?.name ?? null,
  }));
  const [crewMembers, shows] = await Promise.all([listCrewMembers(), listShowChoices()]);
  const crew = crewMembers.map((member) => ({ id: member.id, name: member.name, jobTitle: member.jobTitle }));
  const editId = parseEpisodeId(new URL(request.url).searchParams.get("edit") ?? undefined);
  return {
    episodes,
    editing: episodes.find((episode) => episode.id === editId) ?? null,
    defaultPublishedAt: toDateTimeLocal(now, timeZone),
    timeZone,
    crew,
    shows,
    feedUrl: `${await publicBaseUrl(request)}/podcast.xml`,
  };
}

function answer(result: AdminResult, refusedStatus: 400 | 413 = 400) {
  return data(result, { status: result.ok ? 200 : refusedStatus });
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  // Uploads carry audio: one at a time, so parallel ones never add up in memory.
  const isUpload = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  return isUpload ? oneUploadAtATime(() => saveEpisodePost(request, actor)) : saveEpisodePost(request, actor);
}

async function saveEpisodePost(request: Request, actor: { adminSessionId: string }) {
  let post;
  try {
    post = await readEpisodeForm(request);
  } catch (error) {
    if (!(error instanceof EpisodeFormRefused)) throw error;
    return answer({ formId: "episode-form", ok: false, message: error.message, scope: "page" });
  }
  try {
    return await handleEpisodePost(post, actor);
  } finally {
    // The staged audio is in storage now, or refused: either way its temp file goes.
    await discardEpisodeForm(post);
  }
}

async function handleEpisodePost(post: EpisodeFormPost, actor: { adminSessionId: string }) {
  const { fields } = post;
  const formId = fields.formId ?? "";
  if (fields.intent === "delete-episode") {
    const deleted = await deleteEpisode(parseEpisodeId(fields.id) ?? 0, actor);
    return answer({ formId, ok: deleted, message: deleted ? `Episode "${fields.title ?? ""}" deleted.` : "That episode was already deleted.", scope: "page" });
  }
  if (fields.intent !== "save-episode") return answer({ formId, ok: false, message: "That action is not known here.", scope: "page" });

  const id = fields.id ? parseEpisodeId(fields.id) : null;
  const check = validateEpisode(post, id !== null);
  if (!check.ok) return answer({ formId, ...check }, post.tooLarge ? 413 : 400);
  const saved = id !== null ? await updateEpisode(id, check.value, actor) : await createEpisode(check.value, actor);
  if (!saved) return answer({ formId, ok: false, message: "That episode was deleted meanwhile; nothing was saved.", scope: "page" });
  if (!saved.ok) return answer({ formId, ok: false, message: "Nothing was saved: check the files marked below.", errors: saved.errors });
  const scheduled = saved.episode.publishedAt > new Date();
  const verb = id !== null ? "saved" : scheduled ? "scheduled" : "published";
  return answer({ formId, ok: true, message: `Episode "${saved.episode.title}" ${verb}.` });
}

export default function EpisodesAdmin() {
  const { episodes, editing: editingFromUrl, defaultPublishedAt, timeZone, feedUrl, crew, shows } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  const editing = useEditing("episode-form", editingFromUrl);
  const scheduledCount = episodes.filter((episode) => episode.scheduled).length;

  return (
    <AdminPage
      title="EPISODES"
      intro="Publish podcast episodes: audio, cover, title, description and the date they go out. Every published one is in the podcast feed."
    >
      <p className="admin-note">
        An episode is a podcast card: the newest published ones are the cards on LISTEN and VIEW MORE. Change or delete their images on{" "}
        <Link to="/cardlistmoreadmin">PODCAST CARDS</Link>.
      </p>
      <div className="admin-columns">
        <AdminSection id="episode-form-title" title={editing ? "Edit episode" : "Upload an episode"}>
          <EpisodeForm editing={editing} defaultPublishedAt={defaultPublishedAt} timeZone={timeZone} crew={crew} shows={shows} />
        </AdminSection>

        <AdminSection
          id="episode-list-title"
          title="All episodes"
          description={`${episodes.length} episode${episodes.length === 1 ? "" : "s"}${scheduledCount ? `, ${scheduledCount} scheduled` : ""}; newest publish date first.`}
        >
          <p className="admin-note episodes-feed">
            Podcast feed for podcast apps: <a href={feedUrl}>{feedUrl}</a>
          </p>
          <AdminList items={episodes} emptyIcon="radio" empty="No episodes yet. Upload the first one with the form.">
            {(episode) => (
              <AdminListItem
                key={episode.id}
                title={episode.title}
                thumb={{ image: episode.cover, alt: "" }}
                actions={
                  <>
                    {!episode.scheduled && !episode.listening && (
                      <Link to={`/play/${episode.id}`} className="button button--ghost" aria-label={`Open the play page of ${episode.title}`}>
                        Open
                      </Link>
                    )}
                    <EditLink to={`?edit=${episode.id}`} aria-label={`Edit ${episode.title}`} />
                    <DeleteForm
                      formId={`delete-${episode.id}`}
                      intent="delete-episode"
                      hidden={{ id: episode.id, title: episode.title }}
                      confirm={`Delete the episode "${episode.title}" with its audio and cover?`}
                      readAs={`Delete ${episode.title}`}
                    />
                  </>
                }
              >
                {episode.showName && <p className="caption">{episode.showName}</p>}
                <p className="caption">
                  {episode.listening ? (
                    "error" in episode.listening ? (
                      <span className="episode-badge episode-badge--error">Not published: encoding failed</span>
                    ) : (
                      <span className="episode-badge" role="status">{`Encoding the listening copy… ${episode.listening.progress}%`}</span>
                    )
                  ) : episode.scheduled ? (
                    <span className="episode-badge">Scheduled</span>
                  ) : (
                    <span className="episode-badge episode-badge--live">Published</span>
                  )}{" "}
                  {episode.when} · {episode.details}
                </p>
                {episode.listening && "error" in episode.listening && <p className="caption form-error">{episode.listening.error}</p>}
                {episode.listening && !("error" in episode.listening) && (
                  <progress className="episode-encode-progress" max={100} value={episode.listening.progress} aria-label={`Encoding ${episode.title}`} />
                )}
                {episode.original && (
                  <p className="caption">
                    <a href={episode.original.url} download>
                      {episode.original.label}
                    </a>
                  </p>
                )}
                {episode.artworkNote && <p className="caption">{episode.artworkNote}</p>}
              </AdminListItem>
            )}
          </AdminList>
        </AdminSection>
      </div>
    </AdminPage>
  );
}
