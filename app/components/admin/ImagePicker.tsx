import { useEffect, useId, useRef, useState } from "react";
import { mediaUrlFor, type MediaFile } from "~/utils/media";
import { useFieldError } from "./AdminForm";

const MAX_BYTES = 10 * 1024 * 1024;

export interface ImagePickerProps {
  name: string;
  label: string;
  /** The image in use now, shown until another one is chosen. */
  current?: MediaFile | null;
  currentAlt?: string;
  /** Width / height of the preview box, e.g. "16 / 9". */
  aspect?: string;
  hint?: string;
  /** Smaller layout for tiles in a grid. */
  compact?: boolean;
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * A file input for one image with a preview of the chosen file (with
 * JavaScript) or of the current image. The server checks the file again.
 */
export function ImagePicker({ name, label, current, currentAlt = "", aspect = "1 / 1", hint, compact }: ImagePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ url: string; name: string; size: number } | null>(null);
  const serverError = useFieldError(name);
  const tooLarge = chosen && chosen.size > MAX_BYTES ? `This file is ${formatSize(chosen.size)}; the limit is 10 MB.` : null;
  const error = tooLarge ?? serverError;

  // A successful upload resets the form: drop the preview with it.
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const clear = () => setChosen(null);
    form.addEventListener("reset", clear);
    return () => form.removeEventListener("reset", clear);
  }, []);

  const description = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`image-picker${compact ? " image-picker--compact" : ""}`}>
      <div className="image-picker__preview" style={{ aspectRatio: aspect }}>
        {chosen ? (
          <img src={chosen.url} alt={`Preview of ${chosen.name}`} />
        ) : current ? (
          <img src={mediaUrlFor(current, compact ? 320 : 640)} alt={currentAlt} loading="lazy" decoding="async" width={current.width ?? undefined} height={current.height ?? undefined} />
        ) : (
          <span className="image-picker__empty">No image yet</span>
        )}
        {chosen && <span className="image-picker__badge">New</span>}
      </div>
      <label htmlFor={id} className={compact ? "visually-hidden" : "admin-label"}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name={name}
        accept="image/jpeg,image/png,image/gif,image/webp,image/avif"
        className="image-picker__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={description}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setChosen(null);
          if (!file) return;
          // A data: URL, because the Content-Security-Policy allows data: images but not blob: ones.
          const reader = new FileReader();
          reader.onload = () => {
            if (input.current?.files?.[0] === file) setChosen({ url: String(reader.result), name: file.name, size: file.size });
          };
          reader.readAsDataURL(file);
        }}
      />
      {chosen && <p className="caption image-picker__file">{`${chosen.name} · ${formatSize(chosen.size)}`}</p>}
      {hint && (
        <p id={`${id}-hint`} className="caption">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
