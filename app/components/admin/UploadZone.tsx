import { useEffect, useRef, useState, type DragEvent, type ReactNode } from "react";
import { useT } from "~/i18n/translate";
import { useAdminFormState } from "./AdminForm";

export function formatFileSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export interface UploadZoneProps {
  id: string;
  name: string;
  /** What the file is, for the button's accessible name ("for Poster"). */
  label: string;
  /** The input's accept list (types and extensions). */
  accept: string;
  /** What kind of file: the button says "Choose image" / "Choose another image", "Choose audio file", … */
  kind: "image" | "audio" | "transcript";
  /** e.g. "JPEG, PNG, GIF, WebP or AVIF, up to 10 MB" */
  typesHint: string;
  hint?: string;
  required?: boolean;
  /** Whether something is in use now (the button then offers "another"). */
  hasCurrent: boolean;
  error: string | null;
  compact?: boolean;
  /** Shown above the button: the current file or the chosen one's preview. */
  preview?: ReactNode;
  chosen: File | null;
  onChoose: (file: File | null) => void;
}

/**
 * The one upload control of the admin screens: a drop zone with a "Choose …" button, what is
 * chosen (name and size), the accepted types and size, upload progress, and the error. Without
 * JavaScript it is the browser's own file input. ImagePicker and the episode form's audio and
 * transcript fields are built on it.
 */
export function UploadZone(props: UploadZoneProps) {
  const { id, name, label, accept, kind, typesHint, hint, required, hasCurrent, error, compact, preview, chosen, onChoose } = props;
  const input = useRef<HTMLInputElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [dragging, setDragging] = useState(false);
  const { pending, progress } = useAdminFormState();
  const { t } = useT();

  useEffect(() => {
    setEnhanced(true);
    // A successful upload resets the form: forget the chosen file with it.
    const form = input.current?.form;
    if (!form) return;
    const clear = () => onChoose(null);
    form.addEventListener("reset", clear);
    return () => form.removeEventListener("reset", clear);
    // onChoose is a state setter's wrapper; the listener only needs the first one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const files = event.dataTransfer.files;
    if (!input.current || files.length === 0) return;
    input.current.files = files;
    onChoose(files[0] ?? null);
  }

  const description = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  const uploading = pending && chosen && progress !== null;
  return (
    <>
      <div
        className={`upload-zone${dragging ? " upload-zone--over" : ""}${error ? " upload-zone--error" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        {preview}
        <div className="upload-zone__body">
          {enhanced && (
            <button type="button" className="button button--ghost upload-zone__button" onClick={() => input.current?.click()} aria-describedby={description}>
              {compact ? t("admin.choose") : t(chosen || hasCurrent ? "admin.chooseAnother" : "admin.chooseKind", { kind })}
              <span className="visually-hidden"> {t("admin.chooseFor", { label })}</span>
            </button>
          )}
          <input
            ref={input}
            id={id}
            type="file"
            name={name}
            accept={accept}
            required={required}
            className={enhanced ? "upload-zone__input--hidden" : "image-picker__input"}
            tabIndex={enhanced ? -1 : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={description}
            onChange={(event) => onChoose(event.currentTarget.files?.[0] ?? null)}
          />
          {chosen && <p className="caption upload-zone__file">{`${chosen.name} · ${formatFileSize(chosen.size)}`}</p>}
          <p id={`${id}-hint`} className="caption">
            {enhanced && !compact ? `${t("admin.dropHint", { kind })} ` : ""}
            {hint ? `${hint} ` : ""}
            {`${typesHint}.`}
          </p>
          {uploading && (
            <progress className="admin-progress" max={1} value={progress} aria-label={t("admin.uploadingName", { name: chosen.name })}>
              {Math.round(progress * 100)}%
            </progress>
          )}
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
