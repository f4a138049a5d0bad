import { Link } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { AdminForm, FormStatus, SubmitButton, useFieldError } from "~/components/admin/AdminForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import type { MediaFile } from "~/utils/media";

const MAX_AUDIO_BYTES = 200 * 1024 * 1024;
const AUDIO_TYPES = "audio/mpeg,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,.mp3,.m4a,.wav";

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The episode's audio file: what is in use now, and (with JavaScript) the chosen file's name and size. */
function AudioPicker({ current, required }: { current: { label: string; url: string } | null; required: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const serverError = useFieldError("audio");
  const tooLarge = chosen && chosen.size > MAX_AUDIO_BYTES ? `This file is ${formatSize(chosen.size)}; the limit is 200 MB.` : null;
  const error = tooLarge ?? serverError;

  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const clear = () => setChosen(null);
    form.addEventListener("reset", clear);
    return () => form.removeEventListener("reset", clear);
  }, []);

  const described = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="admin-field episode-audio">
      <label htmlFor={id} className="admin-label">
        {current ? "Audio (leave empty to keep the current file)" : "Audio"}
      </label>
      {current && !chosen && (
        <audio className="episode-audio__current" controls preload="none" src={current.url}>
          <a href={current.url}>{current.label}</a>
        </audio>
      )}
      <input
        ref={input}
        id={id}
        type="file"
        name="audio"
        accept={AUDIO_TYPES}
        required={required}
        className="image-picker__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setChosen(file ? { name: file.name, size: file.size } : null);
        }}
      />
      {chosen && (
        <p className="caption episode-audio__chosen">{`${chosen.name} · ${formatSize(chosen.size)}`}</p>
      )}
      <p id={`${id}-hint`} className="caption">
        {current ? `Now: ${current.label}. ` : ""}MP3, M4A or WAV, up to 200 MB. The length is read from the file.
      </p>
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
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
}: {
  editing: EditableEpisode | null;
  defaultPublishedAt: string;
  timeZone: string;
  /** The screen to show after a successful save (with JavaScript). */
  returnTo?: string;
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
            hint="Square works best: it is shown as the card, on the play page and in podcast apps."
          />
        </div>
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
