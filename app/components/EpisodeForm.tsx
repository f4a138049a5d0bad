import { useId, useState } from "react";
import { useFieldError } from "~/components/admin/AdminForm";
import { EditForm, keepCurrentLabel } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { formatFileSize, UploadZone } from "~/components/admin/UploadZone";
import { useT } from "~/i18n/translate";
import { episodeFields } from "~/utils/forms/episode";
import { fieldConstraints } from "~/utils/forms/form";
import { AUDIO_UPLOAD, formatBytes, TRANSCRIPT_UPLOAD } from "~/utils/forms/uploads";
import type { MediaFile } from "~/utils/media";

const limits = fieldConstraints(episodeFields);

/** The episode's audio file: what is in use now (playable), and the shared upload zone. */
function AudioPicker({ current, required }: { current: { label: string; url: string } | null; required: boolean }) {
  const id = useId();
  const [chosen, setChosen] = useState<File | null>(null);
  const serverError = useFieldError("audio");
  const { t } = useT();
  const tooLarge =
    chosen && chosen.size > AUDIO_UPLOAD.maxBytes
      ? t("forms.fileTooLargeChosen", { size: formatFileSize(chosen.size), limit: formatBytes(AUDIO_UPLOAD.maxBytes) })
      : null;
  return (
    <div className="admin-field episode-audio">
      <label htmlFor={id} className="admin-label">
        {keepCurrentLabel(t("admin.episodeAudio"), Boolean(current), { noun: "file", t })}
      </label>
      <UploadZone
        id={id}
        name="audio"
        label={t("admin.episodeAudioFor")}
        accept={AUDIO_UPLOAD.accept}
        kind="audio"
        typesHint={t(AUDIO_UPLOAD.typesHint, { limit: AUDIO_UPLOAD.limit })}
        hint={`${current ? `${t("admin.fileNow", { label: current.label })} ` : ""}${t("admin.episodeAudioHint")}`}
        required={required}
        hasCurrent={Boolean(current)}
        error={tooLarge ?? serverError ?? null}
        chosen={chosen}
        onChoose={setChosen}
        preview={
          current &&
          !chosen && (
            <audio className="episode-audio__current" controls preload="none" src={current.url}>
              <a href={current.url}>{current.label}</a>
            </audio>
          )
        }
      />
    </div>
  );
}

export interface EditableEpisode {
  id: number;
  title: string;
  description: string;
  /** datetime-local value in the station's time zone */
  publishedAtLocal: string;
  cover: MediaFile;
  audio: { url: string; label: string };
  /** What the admin should know about the cover's podcast artwork (upscaled, cropped), or null. */
  artworkNote?: string | null;
  transcript?: { url: string; label: string } | null;
  /** The chapters as JSON text, or "" for none. */
  chaptersJson?: string;
  seasonNumber?: number | null;
  episodeNumber?: number | null;
  /** Ids of the credited crew members. */
  credits?: string[];
  /** The show it belongs to, or null. */
  showId?: string | null;
}

export interface ShowChoice {
  id: string;
  name: string;
}

/** Which show the episode belongs to (listed on the show's page); "No show" leaves it on its own (not for a Host: their episodes belong to their shows). */
function ShowPicker({ shows, current, showRequired }: { shows: ShowChoice[]; current: string | null; showRequired: boolean }) {
  const id = useId();
  const error = useFieldError("showId");
  const { t } = useT();
  return (
    <div className="admin-field">
      <label htmlFor={`${id}-show`} className="admin-label">
        {t("admin.episodeShow")}
      </label>
      <select
        id={`${id}-show`}
        name="showId"
        className="admin-input"
        defaultValue={current ?? (showRequired ? shows[0]?.id : "")}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-show-error` : undefined}
      >
        {!showRequired && <option value="">{t("admin.episodeNoShow")}</option>}
        {shows.map((show) => (
          <option key={show.id} value={show.id}>
            {show.name}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-show-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}

export interface CreditableCrewMember {
  id: string;
  name: string;
  jobTitle: string;
}

const CHAPTERS_EXAMPLE = '[{"startTime": 0, "title": "Intro"}, {"startTime": 95, "title": "Interview", "url": "https://example.org"}]';

/** Transcript file, chapters, credited crew and numbering: what podcast apps show beside the audio. */
function PodcastExtras({ editing, crew }: { editing: EditableEpisode | null; crew: CreditableCrewMember[] }) {
  const id = useId();
  const transcriptError = useFieldError("transcript");
  const [transcript, setTranscript] = useState<File | null>(null);
  const creditsError = useFieldError("credits");
  const credited = new Set(editing?.credits ?? []);
  const { t } = useT();
  return (
    <>
      <div className="admin-field episode-transcript-field">
        <label htmlFor={`${id}-transcript`} className="admin-label">
          {keepCurrentLabel(t("admin.episodeTranscript"), Boolean(editing?.transcript), { noun: "file", optional: true, t })}
        </label>
        <UploadZone
          id={`${id}-transcript`}
          name="transcript"
          label={t("admin.episodeTranscriptFor")}
          accept={TRANSCRIPT_UPLOAD.accept}
          kind="transcript"
          typesHint={t(TRANSCRIPT_UPLOAD.typesHint, { limit: TRANSCRIPT_UPLOAD.limit })}
          hint={`${editing?.transcript ? `${t("admin.fileNow", { label: editing.transcript.label })} ` : ""}${t("admin.episodeTranscriptHint")}`}
          hasCurrent={Boolean(editing?.transcript)}
          error={transcriptError ?? null}
          chosen={transcript}
          onChoose={setTranscript}
          preview={
            editing?.transcript && (
              <p className="caption">
                <a href={editing.transcript.url}>{t("admin.episodeTranscriptOpen")}</a>
              </p>
            )
          }
        />
        {editing?.transcript && (
          <label className="caption">
            <input type="checkbox" name="removeTranscript" /> {t("admin.episodeTranscriptRemove")}
          </label>
        )}
      </div>
      <Field
        name="chapters"
        label={t("admin.episodeChapters")}
        multiline
        rows={4}
        defaultValue={editing?.chaptersJson ?? ""}
        placeholder={CHAPTERS_EXAMPLE}
        hint={t("admin.episodeChaptersHint")}
        spellCheck={false}
      />
      <div className="admin-form__row">
        <Field name="seasonNumber" label={t("admin.episodeSeason")} inputMode="numeric" pattern="[0-9]*" defaultValue={editing?.seasonNumber ?? ""} />
        <Field name="episodeNumber" label={t("admin.episodeNumber")} inputMode="numeric" pattern="[0-9]*" defaultValue={editing?.episodeNumber ?? ""} />
      </div>
      {crew.length > 0 && (
        <fieldset className="form-group" aria-describedby={creditsError ? `${id}-credits-error` : undefined}>
          <legend className="admin-label">{t("admin.episodeCredits")}</legend>
          {crew.map((member) => (
            <label key={member.id} className="caption check-chip">
              <input type="checkbox" name="credits" value={member.id} defaultChecked={credited.has(member.id)} /> {member.name}
              {member.jobTitle ? ` · ${member.jobTitle}` : ""}
            </label>
          ))}
          {creditsError && (
            <p id={`${id}-credits-error`} className="form-error">
              {creditsError}
            </p>
          )}
        </fieldset>
      )}
    </>
  );
}

/**
 * Create or edit one episode; posts to the EPISODES screen's action (works without JavaScript).
 * The podcast cards screen uses the same form: a new card is a new episode with its own audio.
 */
export function EpisodeForm({
  editing,
  defaultPublishedAt,
  timeZone,
  returnTo = "/episodes-admin",
  crew = [],
  shows = [],
  showRequired = false,
}: {
  editing: EditableEpisode | null;
  defaultPublishedAt: string;
  timeZone: string;
  /** The screen to show after a successful save (with JavaScript). */
  returnTo?: string;
  crew?: CreditableCrewMember[];
  /** The shows an episode can belong to; without any the picker is left out. */
  shows?: ShowChoice[];
  /** A Host's form: an episode belongs to one of their shows. */
  showRequired?: boolean;
}) {
  const { t } = useT();
  return (
    <EditForm
      formId="episode-form"
      intent="save-episode"
      editing={editing && { id: editing.id, name: editing.title }}
      // On another screen the form still posts to EPISODES (on EPISODES itself, to the page with its ?edit=).
      action={returnTo === "/episodes-admin" ? undefined : "/episodes-admin"}
      // Audio goes to a resource route answering JSON, so the form can show how far the upload is.
      uploadTo="/episodes-admin/upload"
      successTo={returnTo}
      cancelTo="/episodes-admin"
      addLabel={t("admin.episodeUploadTitle")}
      addButton={t("admin.episodeUploadButton")}
      pendingLabel={t("admin.episodeChecking")}
    >
      <Field name="title" label={t("admin.episodeTitle")} defaultValue={editing?.title} {...limits.title} autoComplete="off" />
      <Field name="description" label={t("admin.episodeDescription")} multiline rows={4} defaultValue={editing?.description} {...limits.description} />
      <Field
        name="publishedAt"
        label={t("admin.episodePublishedAt")}
        type="datetime-local"
        defaultValue={editing?.publishedAtLocal ?? defaultPublishedAt}
        hint={t("admin.episodePublishedAtHint", { timeZone })}
        {...limits.publishedAt}
      />
      <AudioPicker current={editing?.audio ?? null} required={!editing} />
      <div className="episode-cover">
        <ImagePicker
          name="cover"
          label={keepCurrentLabel(t("admin.episodeCover"), Boolean(editing), { t })}
          current={editing?.cover}
          currentAlt={editing ? t("admin.episodeCurrentCover", { title: editing.title }) : ""}
          hint={t("admin.episodeCoverHint")}
        />
        {editing?.artworkNote && <p className="caption episode-artwork-note">{editing.artworkNote}</p>}
      </div>
      {shows.length > 0 && <ShowPicker shows={shows} current={editing?.showId ?? null} showRequired={showRequired} />}
      <PodcastExtras editing={editing} crew={crew} />
    </EditForm>
  );
}
