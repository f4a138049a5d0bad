import { Link } from "@remix-run/react";
import { useId, useState } from "react";
import { AdminForm, FormStatus, SubmitButton, useFieldError } from "~/components/admin/AdminForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { formatFileSize, UploadZone } from "~/components/admin/UploadZone";
import type { MediaFile } from "~/utils/media";

const MAX_AUDIO_BYTES = 200 * 1024 * 1024;
const AUDIO_TYPES = "audio/mpeg,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,audio/flac,audio/aiff,audio/x-aiff,.mp3,.m4a,.wav,.flac,.aif,.aiff";
const TRANSCRIPT_TYPES = "text/vtt,application/x-subrip,.vtt,.srt";

/** The episode's audio file: what is in use now (playable), and the shared upload zone. */
function AudioPicker({ current, required }: { current: { label: string; url: string } | null; required: boolean }) {
  const id = useId();
  const [chosen, setChosen] = useState<File | null>(null);
  const serverError = useFieldError("audio");
  const tooLarge = chosen && chosen.size > MAX_AUDIO_BYTES ? `This file is ${formatFileSize(chosen.size)}; the limit is 200 MB.` : null;
  return (
    <div className="admin-field episode-audio">
      <label htmlFor={id} className="admin-label">
        {current ? "Audio (leave empty to keep the current file)" : "Audio"}
      </label>
      <UploadZone
        id={id}
        name="audio"
        label="the episode's audio"
        accept={AUDIO_TYPES}
        noun="audio file"
        typesHint="MP3, M4A, WAV, FLAC or AIFF, up to 200 MB"
        hint={`${current ? `Now: ${current.label}. ` : ""}The length is read from the file. WAV, FLAC and AIFF are kept as the original and encoded to an MP3 at podcast loudness (−16 LUFS); the episode is published once that copy is ready.`}
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
  return (
    <>
      <div className="admin-field episode-transcript-field">
        <label htmlFor={`${id}-transcript`} className="admin-label">
          {editing?.transcript ? "Transcript (leave empty to keep the current file)" : "Transcript (optional)"}
        </label>
        <UploadZone
          id={`${id}-transcript`}
          name="transcript"
          label="the transcript"
          accept={TRANSCRIPT_TYPES}
          noun="transcript"
          typesHint="WebVTT (.vtt) or SRT (.srt), UTF-8, up to 2 MB"
          hint={`${editing?.transcript ? `Now: ${editing.transcript.label}. ` : ""}Shown on the play page and in podcast apps.`}
          hasCurrent={Boolean(editing?.transcript)}
          error={transcriptError ?? null}
          chosen={transcript}
          onChoose={setTranscript}
          preview={
            editing?.transcript && (
              <p className="caption">
                <a href={editing.transcript.url}>Open the current transcript</a>
              </p>
            )
          }
        />
        {editing?.transcript && (
          <label className="caption">
            <input type="checkbox" name="removeTranscript" /> Remove the transcript
          </label>
        )}
      </div>
      <Field
        name="chapters"
        label="Chapters (optional)"
        multiline
        rows={4}
        defaultValue={editing?.chaptersJson ?? ""}
        placeholder={CHAPTERS_EXAMPLE}
        hint="JSON list of chapters: startTime in seconds and a title; img and url (https) are optional. Leave empty for none."
        spellCheck={false}
      />
      <div className="admin-form__row">
        <Field name="seasonNumber" label="Season (optional)" inputMode="numeric" pattern="[0-9]*" defaultValue={editing?.seasonNumber ?? ""} />
        <Field name="episodeNumber" label="Episode number (optional)" inputMode="numeric" pattern="[0-9]*" defaultValue={editing?.episodeNumber ?? ""} />
      </div>
      {crew.length > 0 && (
        <fieldset className="admin-field episode-credits" aria-describedby={creditsError ? `${id}-credits-error` : undefined}>
          <legend className="admin-label">Credited crew (hosts, shown in podcast apps)</legend>
          {crew.map((member) => (
            <label key={member.id} className="caption episode-credits__member">
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
}: {
  editing: EditableEpisode | null;
  defaultPublishedAt: string;
  timeZone: string;
  /** The screen to show after a successful save (with JavaScript). */
  returnTo?: string;
  crew?: CreditableCrewMember[];
}) {
  return (
    <AdminForm
      formId="episode-form"
      intent="save-episode"
      hidden={editing ? { id: editing.id } : undefined}
      // On another screen the form still posts to EPISODES (on EPISODES itself, to the page with its ?edit=).
      action={returnTo === "/episodes-admin" ? undefined : "/episodes-admin"}
      successTo={returnTo}
      className="admin-form"
      aria-label={editing ? `Edit ${editing.title}` : "Upload an episode"}
    >
      <div key={editing?.id ?? "new"} className="admin-form__fields">
        <Field name="title" label="Title" defaultValue={editing?.title} maxLength={200} required autoComplete="off" />
        <Field name="description" label="Description" multiline rows={4} defaultValue={editing?.description} maxLength={4000} required />
        <Field
          name="publishedAt"
          label="Publish date and time"
          type="datetime-local"
          defaultValue={editing?.publishedAtLocal ?? defaultPublishedAt}
          hint={`Station time (${timeZone}). A date in the future schedules the episode: it appears on the site and in the feed from then on.`}
          required
        />
        <AudioPicker current={editing?.audio ?? null} required={!editing} />
        <div className="episode-cover">
          <ImagePicker
            name="cover"
            label={editing ? "Cover (leave empty to keep the current one)" : "Cover"}
            current={editing?.cover}
            currentAlt={editing ? `Current cover of ${editing.title}` : ""}
            hint="Square works best: it is shown as the card, on the play page and in podcast apps. Podcast apps get a square JPEG of 1400 to 3000 px made from it: upload 1400 px or more, or it is upscaled."
          />
          {editing?.artworkNote && <p className="caption episode-artwork-note">{editing.artworkNote}</p>}
        </div>
        <PodcastExtras editing={editing} crew={crew} />
      </div>
      <FormStatus />
      <div className="admin-form__actions">
        <SubmitButton pendingLabel="Checking the files…">{editing ? "Save changes" : "Upload episode"}</SubmitButton>
        {editing && (
          <Link to="/episodes-admin" className="button button--ghost">
            Cancel editing
          </Link>
        )}
      </div>
    </AdminForm>
  );
}
