import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { EmptyState } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import type { MessageKey } from "~/i18n/keys";
import { metaTranslator } from "~/i18n/meta";
import { Message } from "~/i18n/Message";
import { useT } from "~/i18n/translate";
import { rewindUsage } from "~/models/rewind.server";
import {
  discardDraft,
  listShowArchiveSettings,
  listShowRecordings,
  NOTHING_RECORDED,
  publishDraft,
  RecordingError,
  setShowArchive,
} from "~/models/show-archive.server";
import { forbidden, requireStaff } from "~/services/admin-session.server";
import { inScope, showOfRecording, showScope } from "~/models/staff.server";
import { answerAdminForm } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { formatBytes } from "~/services/uploads.server";
import { formatDuration } from "~/utils/format";
import { fieldConstraints, parseForm } from "~/utils/forms/form";
import { showArchiveProblem, showArchiveSchema, TRIM_WHOLE_SECONDS, trimSchema } from "~/utils/forms/recordings";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("schedule.recordingsTitle") }, { name: "robots", content: "noindex" }];

const STATUS: Record<string, MessageKey> = {
  pending: "schedule.statusPending",
  building: "schedule.statusBuilding",
  draft: "schedule.statusDraft",
  published: "schedule.statusPublished",
  failed: "schedule.statusFailed",
  discarded: "schedule.statusDiscarded",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const { stationTimezone: timeZone, rewindHours } = getConfig();
  const { locale } = await requestTranslator(request);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
  // A Host sees and archives only the shows they host.
  const scope = await showScope(actor);
  const [usage, allRecordings, allShows] = await Promise.all([rewindUsage(), listShowRecordings(), listShowArchiveSettings()]);
  const shows = allShows.filter((show) => inScope(scope, show.id));
  const recordings = allRecordings.filter((recording) => inScope(scope, recording.showId));
  return {
    shows,
    rewindHours,
    // The station's stream, or the built-in demo stream when STREAM_URL is unset, is recorded.
    recording: rewindHours > 0,
    usage: { bytes: formatBytes(usage.bytes), segments: usage.segments, oldest: usage.oldest ? when.format(usage.oldest) : null },
    recordings: recordings.map((recording) => ({
      id: recording.id,
      show: recording.show.name,
      when: `${when.format(recording.airingStart)} – ${when.format(recording.airingEnd)}`,
      status: recording.status,
      isDraft: recording.status === "draft",
      duration: recording.durationMs > 0 ? formatDuration(Math.round(recording.durationMs / 1000)) : null,
      missingSeconds: recording.missingSeconds,
      audioUrl: recording.audioKey ? `/media/${recording.audioKey}` : null,
      episodeId: recording.episodeId,
      // The archiver's one expected failure is translated on the page; others are technical messages.
      error: recording.error,
      nothingRecorded: recording.error === NOTHING_RECORDED,
    })),
  };
}

const archiveLimits = fieldConstraints(showArchiveSchema);
const trimLimits = fieldConstraints(trimSchema);

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const scope = await showScope(actor);
  // A Host's post naming another show or its recording is refused whole (403), also with crafted fields.
  const requireShow = async (showId: string | null) => {
    if (!inScope(scope, showId)) throw await forbidden(request);
  };
  const { t } = await requestTranslator(request);
  return answerAdminForm(request, {
    "publish-draft": async ({ fields }) => {
      await requireShow(await showOfRecording(fields.id ?? ""));
      const trim = parseForm(trimSchema, fields, TRIM_WHOLE_SECONDS);
      if (!trim.ok) return trim;
      try {
        const episodeId = await publishDraft(fields.id ?? "", { start: trim.value.trimStart, end: trim.value.trimEnd }, actor);
        return { ok: true, message: t("schedule.publishedAsEpisode", { id: episodeId }) };
      } catch (error) {
        if (!(error instanceof RecordingError)) throw error;
        return { ok: false, message: t(error.key) };
      }
    },
    "show-archive": async ({ fields }) => {
      await requireShow(fields.id ?? "");
      const setting = parseForm(showArchiveSchema, fields, "");
      if (!setting.ok) return { ...setting, message: showArchiveProblem(setting.errors) };
      const { archive, preroll: prerollSeconds, postroll: postrollSeconds } = setting.value;
      const saved = await setShowArchive(fields.id ?? "", { archive, prerollSeconds, postrollSeconds }, actor);
      return saved ? { ok: true, message: t("schedule.saved") } : { ok: false, message: t("schedule.showGone") };
    },
    "discard-draft": async ({ fields }) => {
      await requireShow(await showOfRecording(fields.id ?? ""));
      await discardDraft(fields.id ?? "");
      return { ok: true, message: t("schedule.draftDiscarded") };
    },
  });
}

export default function RecordingsAdmin() {
  const { rewindHours, recording, usage, recordings, shows } = useLoaderData<typeof loader>();
  useLiveData("images:changed", "schedule:changed");
  const { t } = useT();
  return (
    <AdminPage title={t("schedule.recordingsHeading")} intro={t("schedule.recordingsIntro")}>
      <AdminSection id="rewind-storage-title" title={t("schedule.rewindBuffer")}>
        <p>
          {recording
            ? usage.oldest
              ? t("schedule.rewindKeepingFrom", { hours: rewindHours, bytes: usage.bytes, segments: usage.segments, oldest: usage.oldest })
              : t("schedule.rewindKeeping", { hours: rewindHours, bytes: usage.bytes, segments: usage.segments })
            : t("schedule.notRecording")}
        </p>
      </AdminSection>
      <AdminSection id="show-archive-title" title={t("schedule.archivePerShow")} description={t("schedule.archivePerShowIntro")}>
        {shows.length === 0 ? (
          <EmptyState icon="calendar">
            <Message id="schedule.noShowsAddThem" components={{ 0: <Link to="/schedule-admin" /> }} />
          </EmptyState>
        ) : (
          shows.map((show) => (
            <AdminForm
              key={show.id}
              formId={`archive-${show.id}`}
              intent="show-archive"
              hidden={{ id: show.id }}
              className="admin-form admin-form--inline"
              aria-label={t("schedule.archiveOf", { show: show.name })}
            >
              <label className="admin-field">
                <span className="admin-field__label">{show.name}</span>
                <select name="archive" defaultValue={show.archive} className="admin-input">
                  <option value="off">{t("schedule.archiveOff")}</option>
                  <option value="draft">{t("schedule.archiveDraft")}</option>
                  <option value="publish">{t("schedule.archivePublish")}</option>
                </select>
              </label>
              <Field
                name="preroll"
                maxLength={archiveLimits.preroll.maxLength}
                label={t("schedule.preroll")}
                inputMode="numeric"
                defaultValue={String(show.archivePrerollSeconds)}
              />
              <Field
                name="postroll"
                maxLength={archiveLimits.postroll.maxLength}
                label={t("schedule.postroll")}
                inputMode="numeric"
                defaultValue={String(show.archivePostrollSeconds)}
              />
              <FormStatus />
              <SubmitButton pendingLabel={t("schedule.saving")}>{t("schedule.save")}</SubmitButton>
            </AdminForm>
          ))
        )}
      </AdminSection>
      <AdminSection id="recordings-title" title={t("schedule.showRecordings")} description={t("schedule.showRecordingsIntro")}>
        {recordings.length === 0 ? (
          <EmptyState icon="radio">
            <Message id="schedule.noRecordings" components={{ 0: <Link to="/schedule-admin" /> }} />
          </EmptyState>
        ) : (
          <ul className="admin-list">
            {recordings.map((item) => (
              <li key={item.id} className="admin-list__item">
                <p>
                  <strong>{item.show}</strong> · {item.when} · {Object.hasOwn(STATUS, item.status) ? t(STATUS[item.status]) : item.status}
                  {item.duration ? ` · ${item.duration}` : ""}
                  {item.missingSeconds >= 5 ? ` · ${t("schedule.secondsNotRecorded", { seconds: item.missingSeconds })}` : ""}
                </p>
                {item.error && <p role="alert">{item.nothingRecorded ? t("schedule.nothingRecorded") : item.error}</p>}
                {item.episodeId !== null && <Link to={`/play/${item.episodeId}`}>{t("schedule.openEpisode")}</Link>}
                {item.isDraft && item.audioUrl && (
                  <>
                    <audio controls preload="none" src={item.audioUrl} aria-label={t("schedule.draftRecordingOf", { show: item.show })} />
                    <AdminForm
                      formId={`publish-${item.id}`}
                      intent="publish-draft"
                      hidden={{ id: item.id }}
                      className="admin-form admin-form--inline"
                      aria-label={t("schedule.publishNamed", { show: item.show })}
                    >
                      <Field
                        name="trimStart"
                        maxLength={trimLimits.trimStart.maxLength}
                        label={t("schedule.cutFromStart")}
                        inputMode="numeric"
                        defaultValue="0"
                      />
                      <Field name="trimEnd" maxLength={trimLimits.trimEnd.maxLength} label={t("schedule.cutFromEnd")} inputMode="numeric" defaultValue="0" />
                      <FormStatus />
                      <SubmitButton pendingLabel={t("schedule.publishing")}>{t("schedule.publishEpisode")}</SubmitButton>
                    </AdminForm>
                    <AdminForm
                      formId={`discard-${item.id}`}
                      intent="discard-draft"
                      hidden={{ id: item.id }}
                      confirm={t("schedule.confirmDiscard")}
                      aria-label={t("schedule.discardNamed", { show: item.show })}
                    >
                      <SubmitButton pendingLabel={t("schedule.discarding")}>{t("schedule.discard")}</SubmitButton>
                    </AdminForm>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </AdminSection>
    </AdminPage>
  );
}
