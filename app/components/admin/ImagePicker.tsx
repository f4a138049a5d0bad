import { useId, useRef, useState } from "react";
import { useT } from "~/i18n/translate";
import { formatBytes, IMAGE_UPLOAD } from "~/utils/forms/uploads";
import { mediaUrlFor, type MediaFile } from "~/utils/media";
import { useFieldError } from "./AdminForm";
import { formatFileSize, UploadZone } from "./UploadZone";

// What the server accepts (the same rule limits its reader); it checks the bytes again.
const { maxBytes: MAX_BYTES, accept: ACCEPT, typesHint: TYPES_HINT, limit: LIMIT } = IMAGE_UPLOAD;

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

/**
 * An image field of the admin screens: the shared upload zone with a preview of the chosen file
 * (or of the image in use now). Without JavaScript it is the browser's own file input.
 */
export function ImagePicker({ name, label, current, currentAlt = "", aspect = "1 / 1", hint, compact }: ImagePickerProps) {
  const id = useId();
  const [chosen, setChosen] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const latest = useRef<File | null>(null);
  const serverError = useFieldError(name);
  const { t } = useT();
  const types = t(TYPES_HINT, { limit: LIMIT });
  const localError = !chosen
    ? null
    : !ACCEPT.split(",").includes(chosen.type)
      ? t("forms.imageNotAcceptedChosen", { name: chosen.name, types })
      : chosen.size > MAX_BYTES
        ? t("forms.fileTooLargeChosen", { size: formatFileSize(chosen.size), limit: formatBytes(MAX_BYTES) })
        : null;
  const error = localError ?? serverError;

  function choose(file: File | null) {
    setChosen(file);
    setPreviewUrl(null);
    latest.current = file;
    if (!file || !file.type.startsWith("image/") || file.size > MAX_BYTES) return;
    // A data: URL, because the Content-Security-Policy allows data: images but not blob: ones.
    const reader = new FileReader();
    reader.onload = () => {
      if (latest.current === file) setPreviewUrl(String(reader.result));
    };
    reader.readAsDataURL(file);
  }

  const preview = previewUrl ?? (current && !chosen ? mediaUrlFor(current, compact ? 320 : 640) : null);
  return (
    <div className={`image-picker${compact ? " image-picker--compact" : ""}`}>
      <label htmlFor={id} className={compact ? "visually-hidden" : "admin-label"}>
        {label}
      </label>
      <UploadZone
        id={id}
        name={name}
        label={label}
        accept={ACCEPT}
        kind="image"
        typesHint={compact ? t("admin.imageUpTo", { limit: LIMIT }) : types}
        hint={hint}
        hasCurrent={Boolean(current)}
        error={error ?? null}
        compact={compact}
        chosen={chosen}
        onChoose={choose}
        preview={
          preview && (
            <div className="upload-zone__preview" style={{ aspectRatio: aspect }}>
              <img
                src={preview}
                alt={chosen ? t("admin.previewOf", { name: chosen.name }) : currentAlt}
                width={current?.width ?? undefined}
                height={current?.height ?? undefined}
                decoding="async"
              />
              {chosen && <span className="image-picker__badge">{t("admin.newBadge")}</span>}
            </div>
          )
        }
      />
    </div>
  );
}
