import { useT } from "~/i18n/translate";
import type { CardImage } from "~/models/episodes.server";
import type { MediaFile } from "~/utils/media";
import { DeleteForm } from "./DeleteForm";
import { ReplaceImageForm } from "./ReplaceImageForm";

type Card = Omit<CardImage, "publishedAt" | "cover"> & { cover: MediaFile };

/** The podcast cards' images, each with "change" and, where offered, "delete" (back to the station artwork). */
export function CardImageTiles({ cards, withDelete }: { cards: Card[]; withDelete: boolean }) {
  const { t } = useT();
  return (
    <ol className="admin-tiles">
      {cards.map((card, index) => (
        <li key={card.id} className="admin-tile">
          <p className="admin-tile__title">
            <span className="caption">{t("admin.cardNumber", { number: index + 1 })} · </span>
            {card.title}
          </p>
          <ReplaceImageForm
            formId={`card-${card.id}`}
            intent="replace-card-image"
            hidden={{ id: card.id }}
            label={t("admin.cardNewImage", { title: card.title })}
            current={card.cover}
            currentAlt={t("admin.cardCurrentImage", { title: card.title })}
            compact
            submitLabel={t("admin.changeImage")}
          />
          {withDelete &&
            (card.isStationCover ? (
              <p className="caption">{t("admin.cardShowsStationArtwork")}</p>
            ) : (
              <DeleteForm
                formId={`reset-${card.id}`}
                intent="reset-card-image"
                hidden={{ id: card.id }}
                confirm={t("admin.cardDeleteImageConfirm", { title: card.title })}
                label={t("admin.deleteImage")}
                readAlso={` ${t("admin.ofTitle", { title: card.title })}`}
              />
            ))}
        </li>
      ))}
    </ol>
  );
}
