import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { AdminResult } from "~/components/admin/AdminForm";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { useEditing } from "~/components/admin/EditForm";
import { EpisodeForm } from "~/components/EpisodeForm";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import { Message } from "~/i18n/Message";
import { metaTranslator } from "~/i18n/meta";
import { useT, type Translator } from "~/i18n/translate";
import { createEpisode, deleteEpisode, listAllEpisodes, parseEpisodeId, updateEpisode, validateEpisode } from "~/models/episodes.server";
import { listCrewMembers } from "~/models/crew.server";
import { listShowChoices } from "~/models/shows.server";
import { forbidden, requireStaff, type StaffActor } from "~/services/admin-session.server";
import { inScope, showOfEpisode, showScope } from "~/models/staff.server";
import { discardEpisodeForm, EpisodeFormRefused, readEpisodeForm, type EpisodeFormPost } from "~/services/episode-form.server";
import { artworkNote } from "~/services/images.server";
import { getConfig } from "~/services/config.server";
import { siteOrigin } from "~/models/site-origin.server";
import { formatBytes, oneUploadAtATime } from "~/services/uploads.server";
import { formatDuration } from "~/utils/format";
import { translateFormResult, translateMessage } from "~/utils/forms/form";
import { mediaUrl } from "~/utils/media";
import { toDateTimeLocal } from "~/utils/time-zone";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.episodesMetaTitle") }, { name: "robots", content: "noindex" }];

const FORMATS: Record<string, string> = { "audio/mpeg": "MP3", "audio/mp4": "M4A", "audio/wav": "WAV", "audio/flac": "FLAC", "audio/aiff": "AIFF" };

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  // A Host sees and changes only the episodes of the shows they host.
  const scope = await showScope(actor);
  // The labels below are made of the episodes' own data (format, size, stored messages), so they are written here.
  const { t, locale } = await requestTranslator(request);
  const timeZone = getConfig().stationTimezone;
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
  const format = (contentType: string) => FORMATS[contentType] ?? t("admin.audioFormatUnknown");
  const now = new Date();
  const episodes = (await listAllEpisodes())
    .filter((episode) => inScope(scope, episode.show?.id))
    .map((episode) => ({
      id: episode.id,
      title: episode.title,
      description: episode.description,
      scheduled: episode.publishedAt > now,
      when: when.format(episode.publishedAt),
      publishedAtLocal: toDateTimeLocal(episode.publishedAt, timeZone),
      details: `${formatDuration(episode.durationSeconds)} · ${format(episode.audio.contentType)} · ${formatBytes(episode.audio.size)}`,
      cover: episode.cover,
      audio: { url: mediaUrl(episode.audio), label: `${format(episode.audio.contentType)}, ${formatDuration(episode.durationSeconds)}` },
      // The listening copy: encoding progress or why it failed, while the episode waits unpublished.
      listening: episode.listeningReady
        ? null
        : episode.encodeError
          ? { error: translateMessage(episode.encodeError, t) }
          : { progress: episode.encodeProgress },
      original: episode.originalAudio
        ? {
            url: mediaUrl(episode.originalAudio),
            label: t("admin.episodeOriginal", { format: format(episode.originalAudio.contentType), size: formatBytes(episode.originalAudio.size) }),
          }
        : null,
      artworkNote: artworkNote(episode.cover, t),
      transcript: episode.transcript
        ? { url: mediaUrl(episode.transcript), label: t(episode.transcript.contentType === "text/vtt" ? "admin.transcriptVtt" : "admin.transcriptSrt") }
        : null,
      chaptersJson: episode.chapters ? JSON.stringify(episode.chapters, null, 1) : "",
      seasonNumber: episode.seasonNumber,
      episodeNumber: episode.episodeNumber,
      credits: episode.credits.map((credit) => credit.crewMember.id),
      showId: episode.show?.id ?? null,
      showName: episode.show?.name ?? null,
    }));
  const [crewMembers, showChoices] = await Promise.all([listCrewMembers(), listShowChoices()]);
  const shows = showChoices.filter((show) => inScope(scope, show.id));
  const crew = crewMembers.map((member) => ({ id: member.id, name: member.name, jobTitle: member.jobTitle }));
  const editId = parseEpisodeId(new URL(request.url).searchParams.get("edit") ?? undefined);
  return {
    episodes,
    editing: episodes.find((episode) => episode.id === editId) ?? null,
    defaultPublishedAt: toDateTimeLocal(now, timeZone),
    timeZone,
    crew,
    shows,
    feedUrl: `${await siteOrigin(request.url)}/podcast.xml`,
    showRequired: scope !== null,
  };
}

/** The answer in the admin's language: the messages below and the model's are keyed (see keyedMessage). */
function answer(t: Translator["t"], result: AdminResult, refusedStatus: 400 | 413 = 400): EpisodeFormAnswer {
  return { result: translateFormResult(result, t), status: result.ok ? 200 : refusedStatus };
}

export interface EpisodeFormAnswer {
  result: AdminResult;
  status: number;
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const { result, status } = await answerEpisodeForm(request, actor);
  return data(result, { status });
}

/** The page's action after its guard, also answered as JSON by episodes-admin.upload.ts (the browser's upload with progress). */
export async function answerEpisodeForm(request: Request, actor: StaffActor): Promise<EpisodeFormAnswer> {
  // Uploads carry audio: one at a time, so parallel ones never add up in memory.
  const isUpload = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const { t } = await requestTranslator(request);
  return isUpload ? oneUploadAtATime(() => saveEpisodePost(request, actor, t)) : saveEpisodePost(request, actor, t);
}

async function saveEpisodePost(request: Request, actor: StaffActor, t: Translator["t"]): Promise<EpisodeFormAnswer> {
  let post;
  try {
    post = await readEpisodeForm(request);
  } catch (error) {
    if (!(error instanceof EpisodeFormRefused)) throw error;
    return answer(t, { formId: "episode-form", ok: false, message: error.message, scope: "page" });
  }
  try {
    await requireEpisodeInScope(request, post, actor);
    return await handleEpisodePost(post, actor, t);
  } finally {
    // The staged audio is in storage now, or refused: either way its temp file goes.
    await discardEpisodeForm(post);
  }
}

/**
 * A Host may change only their shows' episodes, and a new one must belong to one of their shows:
 * any other post (a crafted id or show) is refused whole with 403.
 */
async function requireEpisodeInScope(request: Request, post: EpisodeFormPost, actor: StaffActor): Promise<void> {
  const scope = await showScope(actor);
  const { fields } = post;
  if (scope === null || (fields.intent !== "save-episode" && fields.intent !== "delete-episode")) return;
  const id = fields.id ? parseEpisodeId(fields.id) : null;
  const existingShow = id !== null ? await showOfEpisode(id) : null;
  const allowed =
    fields.intent === "delete-episode"
      ? inScope(scope, existingShow)
      : (id === null || inScope(scope, existingShow)) && (fields.showId === undefined ? id !== null : inScope(scope, fields.showId));
  if (!allowed) throw await forbidden(request);
}

async function handleEpisodePost(post: EpisodeFormPost, actor: StaffActor, t: Translator["t"]): Promise<EpisodeFormAnswer> {
  const { fields } = post;
  const formId = fields.formId ?? "";
  if (fields.intent === "delete-episode") {
    const deleted = await deleteEpisode(parseEpisodeId(fields.id) ?? 0, actor);
    const message = deleted ? t("admin.episodeDeleted", { title: fields.title ?? "" }) : t("admin.episodeAlreadyDeleted");
    return answer(t, { formId, ok: deleted, message, scope: "page" });
  }
  if (fields.intent !== "save-episode") return answer(t, { formId, ok: false, message: t("forms.actionUnknown"), scope: "page" });

  const id = fields.id ? parseEpisodeId(fields.id) : null;
  const check = validateEpisode(post, id !== null);
  if (!check.ok) return answer(t, { formId, ...check }, post.tooLarge ? 413 : 400);
  const saved = id !== null ? await updateEpisode(id, check.value, actor) : await createEpisode(check.value, actor);
  if (!saved) return answer(t, { formId, ok: false, message: t("admin.episodeGoneNothingSaved"), scope: "page" });
  if (!saved.ok) return answer(t, { formId, ok: false, message: t("admin.episodeFilesRefused"), errors: saved.errors });
  const outcome = id !== null ? "saved" : saved.episode.publishedAt > new Date() ? "scheduled" : "published";
  return answer(t, { formId, ok: true, message: t("admin.episodeSavedAs", { title: saved.episode.title, outcome }) });
}

export default function EpisodesAdmin() {
  const { episodes, editing: editingFromUrl, defaultPublishedAt, timeZone, feedUrl, crew, shows, showRequired } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  const editing = useEditing("episode-form", editingFromUrl);
  const { t } = useT();
  const scheduledCount = episodes.filter((episode) => episode.scheduled).length;

  return (
    <AdminPage title={t("admin.episodesTitle")} intro={t("admin.episodesIntro")}>
      <p className="admin-note">
        <Message id="admin.episodesCardsNote" components={{ 0: <Link to="/cardlistmoreadmin" /> }} />
      </p>
      <div className="admin-columns">
        <AdminSection id="episode-form-title" title={editing ? t("admin.episodeEditTitle") : t("admin.episodeUploadTitle")}>
          <EpisodeForm editing={editing} defaultPublishedAt={defaultPublishedAt} timeZone={timeZone} crew={crew} shows={shows} showRequired={showRequired} />
        </AdminSection>

        <AdminSection
          id="episode-list-title"
          title={t("admin.episodesAll")}
          description={t(scheduledCount ? "admin.episodesCountScheduled" : "admin.episodesCount", { count: episodes.length, scheduled: scheduledCount })}
        >
          <p className="admin-note episodes-feed">
            {t("admin.episodesFeed")} <a href={feedUrl}>{feedUrl}</a>
          </p>
          <AdminList items={episodes} emptyIcon="radio" empty={t("admin.episodesEmpty")}>
            {(episode) => (
              <AdminListItem
                key={episode.id}
                title={episode.title}
                thumb={{ image: episode.cover, alt: "" }}
                actions={
                  <>
                    {!episode.scheduled && !episode.listening && (
                      <Link to={`/play/${episode.id}`} className="button button--ghost" aria-label={t("admin.episodeOpenLabel", { title: episode.title })}>
                        {t("admin.episodeOpen")}
                      </Link>
                    )}
                    <EditLink to={`?edit=${episode.id}`} aria-label={t("admin.editName", { name: episode.title })} />
                    <DeleteForm
                      formId={`delete-${episode.id}`}
                      intent="delete-episode"
                      hidden={{ id: episode.id, title: episode.title }}
                      confirm={t("admin.episodeDeleteConfirm", { title: episode.title })}
                      readAs={t("admin.deleteName", { name: episode.title })}
                    />
                  </>
                }
              >
                {episode.showName && <p className="caption">{episode.showName}</p>}
                <p className="caption">
                  {episode.listening ? (
                    "error" in episode.listening ? (
                      <span className="episode-badge episode-badge--error">{t("admin.episodeEncodingFailed")}</span>
                    ) : (
                      <span className="episode-badge" role="status">
                        {t("admin.episodeEncoding", { percent: String(episode.listening.progress) })}
                      </span>
                    )
                  ) : episode.scheduled ? (
                    <span className="episode-badge">{t("admin.episodeScheduled")}</span>
                  ) : (
                    <span className="episode-badge episode-badge--live">{t("admin.episodePublished")}</span>
                  )}{" "}
                  {episode.when} · {episode.details}
                </p>
                {episode.listening && "error" in episode.listening && <p className="caption form-error">{episode.listening.error}</p>}
                {episode.listening && !("error" in episode.listening) && (
                  <progress
                    className="episode-encode-progress"
                    max={100}
                    value={episode.listening.progress}
                    aria-label={t("admin.episodeEncodingLabel", { title: episode.title })}
                  />
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
