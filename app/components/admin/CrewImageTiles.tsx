import { Link } from "@remix-run/react";
import { useRef, useState, type DragEvent } from "react";
import { useT } from "~/i18n/translate";
import type { CrewImageListItem } from "~/models/crew.server";
import { mediaUrlFor } from "~/utils/media";
import { ActionLabel } from "./ActionLabel";
import { AdminForm, SubmitButton } from "./AdminForm";
import { DeleteForm } from "./DeleteForm";
import { ReplaceImageForm } from "./ReplaceImageForm";

/**
 * The crew slider's images as a compact grid in slider order. Drag a picture
 * onto another to move it there; each picture's "Edit" opens replace, move
 * up/down (the keyboard and no-JavaScript way to reorder) and delete.
 * "Edit" is a link (?edit=Crew7) and only that picture's controls are rendered: with dozens of
 * pictures, every picture's four forms made the dashboard five times the size and render time.
 */
export function CrewImageTiles({ images, editing }: { images: CrewImageListItem[]; editing: string | null }) {
  const { t } = useT();
  const moveForm = useRef<HTMLFormElement>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);

  function drop(event: DragEvent, targetIndex: number) {
    event.preventDefault();
    const form = moveForm.current;
    const key = dragged;
    setDragged(null);
    setOver(null);
    if (!form || !key || images[targetIndex]?.key === key) return;
    (form.elements.namedItem("key") as HTMLInputElement).value = key;
    (form.elements.namedItem("position") as HTMLInputElement).value = String(targetIndex + 1);
    form.requestSubmit();
  }

  return (
    <>
      <div hidden>
        <AdminForm formId="crew-move-to" intent="move-crew-image-to" aria-label={t("admin.crewMoveForm")} formRef={moveForm}>
          <input type="hidden" name="key" defaultValue="" />
          <input type="hidden" name="position" defaultValue="" />
        </AdminForm>
      </div>
      <p className="caption crew-tiles__hint">{t("admin.crewDragHint")}</p>
      <ol className="crew-tiles">
        {images.map((image, index) => (
          <li
            key={image.key}
            id={`crew-tile-${image.key}`}
            className={`crew-tile${dragged === image.key ? " crew-tile--dragged" : ""}${over === image.key && dragged !== image.key ? " crew-tile--target" : ""}`}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = "move";
              event.dataTransfer.setData("text/plain", image.key);
              setDragged(image.key);
            }}
            onDragEnd={() => {
              setDragged(null);
              setOver(null);
            }}
            onDragOver={(event) => {
              if (!dragged) return;
              event.preventDefault();
              setOver(image.key);
            }}
            onDrop={(event) => drop(event, index)}
          >
            <img
              className="crew-tile__image"
              src={mediaUrlFor(image.image, 320)}
              alt={t("admin.crewSliderAlt", { key: image.key })}
              width={120}
              height={160}
              loading="lazy"
              decoding="async"
              draggable={false}
            />
            <p className="crew-tile__label">
              <span className="crew-tile__position">#{index + 1}</span> {image.key}
            </p>
            {image.key !== editing ? (
              <Link
                className="crew-tile__summary"
                to={{ search: `?${new URLSearchParams({ edit: image.key })}`, hash: `crew-tile-${image.key}` }}
                preventScrollReset
                replace
              >
                <ActionLabel label={t("admin.edit")} readAlso={` ${image.key}`} />
              </Link>
            ) : (
              <details className="crew-tile__more" open>
                <summary className="crew-tile__summary">
                  <ActionLabel label={t("admin.edit")} readAlso={` ${image.key}`} />
                </summary>
                <div className="crew-tile__panel">
                  <ReplaceImageForm
                    formId={`crew-${image.key}`}
                    intent="replace-crew-image"
                    hidden={{ key: image.key }}
                    label={t("admin.crewReplacement", { key: image.key })}
                    current={image.image}
                    currentAlt={t("admin.crewImageAlt", { key: image.key })}
                    aspect="3 / 4"
                    compact
                    submitLabel={t("admin.replace")}
                  />
                  <div className="admin-tile__actions">
                    <AdminForm formId={`up-${image.key}`} intent="move-crew-image" hidden={{ key: image.key, direction: "up" }}>
                      <SubmitButton pendingLabel="…" variant="ghost">
                        <ActionLabel label="↑" readAs={t("admin.moveUp", { name: image.key })} />
                      </SubmitButton>
                    </AdminForm>
                    <AdminForm formId={`down-${image.key}`} intent="move-crew-image" hidden={{ key: image.key, direction: "down" }}>
                      <SubmitButton pendingLabel="…" variant="ghost">
                        <ActionLabel label="↓" readAs={t("admin.moveDown", { name: image.key })} />
                      </SubmitButton>
                    </AdminForm>
                    <DeleteForm
                      formId={`delete-${image.key}`}
                      intent="delete-crew-image"
                      hidden={{ key: image.key }}
                      confirm={t("admin.crewDeleteConfirm", { key: image.key })}
                      pendingLabel="…"
                      readAlso={` ${image.key}`}
                    />
                  </div>
                </div>
              </details>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
