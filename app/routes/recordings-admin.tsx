import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { EmptyState } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { useLiveData } from "~/hooks/useRealtime";
import { rewindUsage } from "~/models/rewind.server";
import {
  discardDraft,
  isArchiveMode,
  listShowArchiveSettings,
  listShowRecordings,
  MAX_ROLL_SECONDS,
  parseRollSeconds,
  publishDraft,
  RecordingError,
  setShowArchive,
} from "~/models/show-archive.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { formatBytes } from "~/services/uploads.server";
import { formatDuration } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Recordings · Admin" }, { name: "robots", content: "noindex" }];

const STATUS: Record<string, string> = {
  pending: "Waiting to be built",
  building: "Being built",
  draft: "Draft: trim and publish",
  published: "Published",
  failed: "Could not be built",
  discarded: "Discarded",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { stationTimezone: timeZone, rewindHours, streamUrl } = getConfig();
  const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const [usage, recordings, shows] = await Promise.all([rewindUsage(), listShowRecordings(), listShowArchiveSettings()]);
  return {
    shows,
    rewindHours,
    recording: Boolean(streamUrl) && rewindHours > 0,
    usage: { bytes: formatBytes(usage.bytes), segments: usage.segments, oldest: usage.oldest ? when.format(usage.oldest) : null },
    recordings: recordings.map((recording) => ({
      id: recording.id,
      show: recording.show.name,
      when: `${when.format(recording.airingStart)} – ${when.format(recording.airingEnd)}`,
      status: STATUS[recording.status] ?? recording.status,
      isDraft: recording.status === "draft",
      duration: recording.durationMs > 0 ? formatDuration(Math.round(recording.durationMs / 1000)) : null,
      missingSeconds: recording.missingSeconds,
      audioUrl: recording.audioKey ? `/media/${recording.audioKey}` : null,
      episodeId: recording.episodeId,
      error: recording.error,
    })),
  };
}

function seconds(value: string | undefined): number | null {
  const text = (value ?? "").trim();
  if (text === "") return 0;
  return /^\d{1,5}$/.test(text) ? Number(text) : null;
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  return answerAdminForm(request, {
    "publish-draft": async ({ fields }) => {
      const start = seconds(fields.trimStart);
      const end = seconds(fields.trimEnd);
      if (start === null || end === null) return { ok: false, message: "Trim by a whole number of seconds.", errors: { trimStart: "Whole seconds" } };
      try {
        const episodeId = await publishDraft(fields.id ?? "", { start, end }, actor);
        return { ok: true, message: `Published as episode ${episodeId}.` };
      } catch (error) {
        if (!(error instanceof RecordingError)) throw error;
        return { ok: false, message: error.message };
      }
    },
    "show-archive": async ({ fields }) => {
      const archive = fields.archive ?? "";
      const prerollSeconds = parseRollSeconds(fields.preroll);
      const postrollSeconds = parseRollSeconds(fields.postroll);
      if (!isArchiveMode(archive)) return { ok: false, message: "Choose off, draft or publish." };
      if (prerollSeconds === null || postrollSeconds === null) {
        const message = `Pre- and post-roll are whole seconds, at most ${MAX_ROLL_SECONDS}.`;
        return { ok: false, message, errors: { [prerollSeconds === null ? "preroll" : "postroll"]: message } };
      }
      const saved = await setShowArchive(fields.id ?? "", { archive, prerollSeconds, postrollSeconds }, actor);
      return saved ? { ok: true, message: "Saved." } : { ok: false, message: "That show no longer exists." };
    },
    "discard-draft": async ({ fields }) => {
      await discardDraft(fields.id ?? "");
      return { ok: true, message: "Draft discarded." };
    },
  });
}

export default function RecordingsAdmin() {
  const { rewindHours, recording, usage, recordings, shows } = useLoaderData<typeof loader>();
  useLiveData("images:changed", "schedule:changed");
  return (
    <AdminPage
      title="Recordings"
      intro="The live stream is recorded for rewinding; shows whose archive is on become episodes when they end. Drafts wait here to be trimmed and published."
    >
      <AdminSection id="rewind-storage-title" title="Rewind buffer">
        <p>
          {recording
            ? `Keeping the last ${rewindHours} hours of the live stream: ${usage.bytes} in ${usage.segments} segments${usage.oldest ? `, from ${usage.oldest}` : ""}.`
            : "Not recording: set STREAM_URL (and REWIND_HOURS above 0) to record the live stream."}
        </p>
      </AdminSection>
      <AdminSection
        id="show-archive-title"
        title="Archive per show"
        description="When an airing ends: off, keep it as a draft to trim and publish, or publish it as an episode at once. Pre- and post-roll widen the recording."
      >
        {shows.length === 0 ? (
          <EmptyState icon="calendar">
            No shows yet: add them on the <Link to="/schedule-admin">SCHEDULE</Link> screen.
          </EmptyState>
        ) : (
          shows.map((show) => (
            <AdminForm
              key={show.id}
              formId={`archive-${show.id}`}
              intent="show-archive"
              hidden={{ id: show.id }}
              className="admin-form admin-form--inline"
              aria-label={`Archive of ${show.name}`}
            >
              <label className="admin-field">
                <span className="admin-field__label">{show.name}</span>
                <select name="archive" defaultValue={show.archive} className="admin-input">
                  <option value="off">Off</option>
                  <option value="draft">As draft</option>
                  <option value="publish">Publish</option>
                </select>
              </label>
              <Field name="preroll" label="Pre-roll (s)" inputMode="numeric" defaultValue={String(show.archivePrerollSeconds)} />
              <Field name="postroll" label="Post-roll (s)" inputMode="numeric" defaultValue={String(show.archivePostrollSeconds)} />
              <FormStatus />
              <SubmitButton pendingLabel="Saving…">Save</SubmitButton>
            </AdminForm>
          ))
        )}
      </AdminSection>
      <AdminSection id="recordings-title" title="Show recordings" description="The newest airings of archived shows.">
        {recordings.length === 0 ? (
          <EmptyState icon="radio">
            No show has been recorded yet. Turn on a show&apos;s archive above, or add shows on the <Link to="/schedule-admin">SCHEDULE</Link> screen.
          </EmptyState>
        ) : (
          <ul className="admin-list">
            {recordings.map((item) => (
              <li key={item.id} className="admin-list__item">
                <p>
                  <strong>{item.show}</strong> · {item.when} · {item.status}
                  {item.duration ? ` · ${item.duration}` : ""}
                  {item.missingSeconds >= 5 ? ` · ${item.missingSeconds} s not recorded` : ""}
                </p>
                {item.error && <p role="alert">{item.error}</p>}
                {item.episodeId !== null && <Link to={`/play/${item.episodeId}`}>Open the episode</Link>}
                {item.isDraft && item.audioUrl && (
                  <>
                    <audio controls preload="none" src={item.audioUrl} aria-label={`Draft recording of ${item.show}`} />
                    <AdminForm
                      formId={`publish-${item.id}`}
                      intent="publish-draft"
                      hidden={{ id: item.id }}
                      className="admin-form admin-form--inline"
                      aria-label={`Publish ${item.show}`}
                    >
                      <Field name="trimStart" label="Cut from the start (seconds)" inputMode="numeric" defaultValue="0" />
                      <Field name="trimEnd" label="Cut from the end (seconds)" inputMode="numeric" defaultValue="0" />
                      <FormStatus />
                      <SubmitButton pendingLabel="Publishing…">Publish episode</SubmitButton>
                    </AdminForm>
                    <AdminForm
                      formId={`discard-${item.id}`}
                      intent="discard-draft"
                      hidden={{ id: item.id }}
                      confirm="Discard this recording?"
                      aria-label={`Discard ${item.show}`}
                    >
                      <SubmitButton pendingLabel="Discarding…">Discard</SubmitButton>
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
