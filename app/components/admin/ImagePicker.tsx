import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { mediaUrlFor, type MediaFile } from "~/utils/media";
import { useAdminFormState, useFieldError } from "./AdminForm";

// What the server accepts (app/services/uploads.server.ts); it checks the bytes again.
const MAX_BYTES = 10 * 1024 * 1024;
const ACCEPT = "image/jpeg,image/png,image/gif,image/webp,image/avif";
const TYPES_HINT = "JPEG, PNG, GIF, WebP or AVIF, up to 10 MB";

export interface ImagePickerProps {
  name: string;
  label: string;
  /** The image in use now, shown until another one is chosen. */
  current?: MediaFile | null;
  currentAlt?: string;
  /** Width / height of the preview, e.g. "16 / 9". */
  aspect?: string;
  hint?: string;
  /** Smaller layout for tiles in a grid. */
  compact?: boolean;
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * The one upload control of the admin screens: a drop zone with a "Choose
 * image" button, a preview of the chosen file (or of the current image), the
 * accepted types and size, upload progress, and a clear error. Without
 * JavaScript it is the browser's own file input.
 */
export function ImagePicker({ name, label, current, currentAlt = "", aspect = "1 / 1", hint, compact }: ImagePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [chosen, setChosen] = useState<{ url: string | null; name: string; size: number; type: string } | null>(null);
  const { pending, progress } = useAdminFormState();
  const serverError = useFieldError(name);
  const localError = !chosen
    ? null
    : !ACCEPT.split(",").includes(chosen.type)
      ? `${chosen.name} is not an image this station accepts (${TYPES_HINT}).`
      : chosen.size > MAX_BYTES
        ? `This file is ${formatSize(chosen.size)}; the limit is 10 MB.`
        : null;
  const error = localError ?? serverError;

  useEffect(() => {
    setEnhanced(true);
    // A successful upload resets the form: drop the preview with it.
    const form = input.current?.form;
    if (!form) return;
    const clear = () => setChosen(null);
    form.addEventListener("reset", clear);
    return () => form.removeEventListener("reset", clear);
  }, []);

  function show(file: File | undefined) {
    setChosen(null);
    if (!file) return;
    setChosen({ url: null, name: file.name, size: file.size, type: file.type });
    if (!file.type.startsWith("image/") || file.size > MAX_BYTES) return;
    // A data: URL, because the Content-Security-Policy allows data: images but not blob: ones.
    const reader = new FileReader();
    reader.onload = () => {
      if (input.current?.files?.[0] === file) setChosen({ url: String(reader.result), name: file.name, size: file.size, type: file.type });
    };
    reader.readAsDataURL(file);
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const files = event.dataTransfer.files;
    if (!input.current || files.length === 0) return;
    input.current.files = files;
    show(files[0]);
  }

  const description = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  const preview = chosen?.url ?? (current && !chosen ? mediaUrlFor(current, compact ? 320 : 640) : null);
  const uploading = pending && chosen && progress !== null;
  return (
    <div className={`image-picker${compact ? " image-picker--compact" : ""}`}>
      <label htmlFor={id} className={compact ? "visually-hidden" : "admin-label"}>
        {label}
      </label>
      <div
        className={`upload-zone${dragging ? " upload-zone--over" : ""}${error ? " upload-zone--error" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        {preview && (
          <div className="upload-zone__preview" style={{ aspectRatio: aspect }}>
            <img
              src={preview}
              alt={chosen ? `Preview of ${chosen.name}` : currentAlt}
              width={current?.width ?? undefined}
              height={current?.height ?? undefined}
              decoding="async"
            />
            {chosen && <span className="image-picker__badge">New</span>}
          </div>
        )}
        <div className="upload-zone__body">
          {enhanced && (
            <button type="button" className="button button--ghost upload-zone__button" onClick={() => input.current?.click()} aria-describedby={description}>
              {compact ? "Choose" : chosen || current ? "Choose another image" : "Choose image"}
              <span className="visually-hidden"> for {label}</span>
            </button>
          )}
          <input
            ref={input}
            id={id}
            type="file"
            name={name}
            accept={ACCEPT}
            className={enhanced ? "upload-zone__input--hidden" : "image-picker__input"}
            tabIndex={enhanced ? -1 : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={description}
            onChange={(event) => show(event.currentTarget.files?.[0])}
          />
          {chosen && <p className="caption upload-zone__file">{`${chosen.name} · ${formatSize(chosen.size)}`}</p>}
          <p id={`${id}-hint`} className="caption">
            {enhanced && !compact ? "Drop an image here or choose one. " : ""}
            {hint ? `${hint} ` : ""}
            {compact ? "Image up to 10 MB." : `${TYPES_HINT}.`}
          </p>
          {uploading && (
            <progress className="admin-progress" max={1} value={progress} aria-label={`Uploading ${chosen.name}`}>
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
    </div>
  );
}
