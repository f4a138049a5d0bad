import type { CrewImageListItem } from "~/models/crew.server";
import { AdminForm, SubmitButton } from "./AdminForm";
import { ReplaceImageForm } from "./ReplaceImageForm";

/** The crew slider's images in slider order: move up/down, replace, delete (all plain forms). */
export function CrewImageTiles({ images }: { images: CrewImageListItem[] }) {
  return (
    <ol className="admin-tiles admin-tiles--small">
      {images.map((image, index) => (
        <li key={image.key} className="admin-tile">
          <p className="admin-tile__title">
            {image.key} <span className="caption">· #{index + 1}</span>
          </p>
          <ReplaceImageForm
            formId={`crew-${image.key}`}
            intent="replace-crew-image"
            hidden={{ key: image.key }}
            label={`Replacement for ${image.key}`}
            current={image.image}
            currentAlt={`Crew image ${image.key}`}
            aspect="3 / 4"
            compact
            submitLabel="Replace"
          />
          <div className="admin-tile__actions">
            <AdminForm formId={`up-${image.key}`} intent="move-crew-image" hidden={{ key: image.key, direction: "up" }}>
              <SubmitButton pendingLabel="…" variant="ghost">
                <span aria-hidden="true">↑</span>
                <span className="visually-hidden">Move {image.key} up</span>
              </SubmitButton>
            </AdminForm>
            <AdminForm formId={`down-${image.key}`} intent="move-crew-image" hidden={{ key: image.key, direction: "down" }}>
              <SubmitButton pendingLabel="…" variant="ghost">
                <span aria-hidden="true">↓</span>
                <span className="visually-hidden">Move {image.key} down</span>
              </SubmitButton>
            </AdminForm>
            <AdminForm formId={`delete-${image.key}`} intent="delete-crew-image" hidden={{ key: image.key }} confirm={`Delete ${image.key} from the crew slider?`}>
              <SubmitButton pendingLabel="…" variant="danger">
                Delete<span className="visually-hidden"> {image.key}</span>
              </SubmitButton>
            </AdminForm>
          </div>
        </li>
      ))}
    </ol>
  );
}
