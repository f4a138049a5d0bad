import "~/styles/episodes.css";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminForm, SubmitButton, type AdminResult } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { EpisodeForm } from "~/components/EpisodeForm";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import {
  createEpisode,
  deleteEpisode,
  EpisodeFormRefused,
  listAllEpisodes,
  parseEpisodeId,
  readEpisodeForm,
  updateEpisode,
  validateEpisode,
} from "~/models/episodes.server";
import { listCrewMembers } from "~/models/crew.server";
import { requireAdmin } from "~/services/admin-session.server";
import { artworkNote } from "~/services/images.server";
import { getConfig } from "~/services/config.server";
import { siteOrigin as publicBaseUrl } from "~/models/site-origin.server";
import { formatBytes, oneUploadAtATime } from "~/services/uploads.server";
import { formatDuration } from "~/utils/format";
import { mediaUrl, mediaUrlFor } from "~/utils/media";
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
  }));
  const crew = (await listCrewMembers()).map((member) => ({ id: member.id, name: member.name, jobTitle: member.jobTitle }));
  const editId = parseEpisodeId(new URL(request.url).searchParams.get("edit") ?? undefined);
  return {
    episodes,
    editing: episodes.find((episode) => episode.id === editId) ?? null,
    defaultPublishedAt: toDateTimeLocal(now, timeZone),
    timeZone,
    crew,
    feedUrl: `${await publicBaseUrl(request)}/podcast.xml`,
  };
}

function answer(result: AdminResult) {
  return data(result, { status: result.ok ? 200 : 400 });
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
  const { fields } = post;
  const formId = fields.formId ?? "";
  if (fields.intent === "delete-episode") {
    const deleted = await deleteEpisode(parseEpisodeId(fields.id) ?? 0, actor);
    return answer({ formId, ok: deleted, message: deleted ? `Episode "${fields.title ?? ""}" deleted.` : "That episode was already deleted.", scope: "page" });
  }
  if (fields.intent !== "save-episode") return answer({ formId, ok: false, message: "That action is not known here.", scope: "page" });

  const id = fields.id ? parseEpisodeId(fields.id) : null;
  const check = validateEpisode(post, id !== null);
  if (!check.ok) return answer({ formId, ok: false, message: "Nothing was saved: check the fields marked below.", errors: check.errors });
  const saved = id !== null ? await updateEpisode(id, check.input, actor) : await createEpisode(check.input, actor);
  if (!saved) return answer({ formId, ok: false, message: "That episode was deleted meanwhile; nothing was saved.", scope: "page" });
  if (!saved.ok) return answer({ formId, ok: false, message: "Nothing was saved: check the files marked below.", errors: saved.errors });
  const scheduled = saved.episode.publishedAt > new Date();
  const verb = id !== null ? "saved" : scheduled ? "scheduled" : "published";
  return answer({ formId, ok: true, message: `Episode "${saved.episode.title}" ${verb}.` });
}

export default function EpisodesAdmin() {
  const { episodes, editing: editingFromUrl, defaultPublishedAt, timeZone, feedUrl, crew } = useLoaderData<typeof loader>();
  const actionData = useActionData<AdminResult | undefined>();
  useLiveData("images:changed");
  // Edit mode is left after a successful save, even before the URL changes (no JavaScript).
  const editing = actionData?.formId === "episode-form" && actionData.ok ? null : editingFromUrl;
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
          <EpisodeForm editing={editing} defaultPublishedAt={defaultPublishedAt} timeZone={timeZone} crew={crew} />
        </AdminSection>

        <AdminSection
          id="episode-list-title"
          title="All episodes"
          description={`${episodes.length} episode${episodes.length === 1 ? "" : "s"}${scheduledCount ? `, ${scheduledCount} scheduled` : ""}; newest publish date first.`}
        >
          <p className="admin-note episodes-feed">
            Podcast feed for podcast apps: <a href={feedUrl}>{feedUrl}</a>
          </p>
          {episodes.length === 0 ? (
            <p className="empty-state">
              <Icon name="radio" />
              No episodes yet. Upload the first one with the form.
            </p>
          ) : (
            <ul className="admin-list">
              {episodes.map((episode) => (
                <li key={episode.id} className="admin-list__item">
                  <img className="admin-list__thumb" src={mediaUrlFor(episode.cover, 320)} alt="" width={64} height={64} loading="lazy" />
                  <div className="admin-list__text">
                    <p className="admin-list__title">{episode.title}</p>
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
                  </div>
                  <div className="admin-list__actions">
                    {!episode.scheduled && !episode.listening && (
                      <Link to={`/play/${episode.id}`} className="button button--ghost" aria-label={`Open the play page of ${episode.title}`}>
                        Open
                      </Link>
                    )}
                    <Link to={`?edit=${episode.id}`} className="button button--ghost" aria-label={`Edit ${episode.title}`}>
                      Edit
                    </Link>
                    <AdminForm
                      formId={`delete-${episode.id}`}
                      intent="delete-episode"
                      hidden={{ id: episode.id, title: episode.title }}
                      confirm={`Delete the episode "${episode.title}" with its audio and cover?`}
                    >
                      <SubmitButton pendingLabel="Deleting…" variant="danger">
                        <span aria-hidden="true">Delete</span>
                        <span className="visually-hidden">Delete {episode.title}</span>
                      </SubmitButton>
                    </AdminForm>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </AdminSection>
      </div>
    </AdminPage>
  );
}
