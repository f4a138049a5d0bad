import type { CardImage } from "~/models/episodes.server";
import type { MediaFile } from "~/utils/media";
import { DeleteForm } from "./DeleteForm";
import { ReplaceImageForm } from "./ReplaceImageForm";

type Card = Omit<CardImage, "publishedAt" | "cover"> & { cover: MediaFile };

/** The podcast cards' images, each with "change" and, where offered, "delete" (back to the station artwork). */
export function CardImageTiles({ cards, withDelete }: { cards: Card[]; withDelete: boolean }) {
  return (
    <ol className="admin-tiles">
      {cards.map((card, index) => (
        <li key={card.id} className="admin-tile">
          <p className="admin-tile__title">
            <span className="caption">Card {index + 1} · </span>
            {card.title}
          </p>
          <ReplaceImageForm
            formId={`card-${card.id}`}
            intent="replace-card-image"
            hidden={{ id: card.id }}
            label={`New image for "${card.title}"`}
            current={card.cover}
            currentAlt={`Current image of "${card.title}"`}
            compact
            submitLabel="Change image"
          />
          {withDelete &&
            (card.isStationCover ? (
              <p className="caption">Shows the station artwork.</p>
            ) : (
              <DeleteForm
                formId={`reset-${card.id}`}
                intent="reset-card-image"
                hidden={{ id: card.id }}
                confirm={`Delete the image of "${card.title}"? The card will show the station artwork instead.`}
                label="Delete image"
                readAlso={` of ${card.title}`}
              />
            ))}
        </li>
      ))}
    </ol>
  );
}
