import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Icon } from "~/components/Icon";
import { MemoryGame } from "~/components/MemoryGame";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listCrewImages } from "~/models/crew.server";
import { getStationIdentity } from "~/models/station.server";
import { withSiteMeta } from "~/utils/meta";

const PAIRS = 8;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("chart.gameMetaTitle", { station: data.stationName }) : t("chart.gameFallbackTitle") }]);
};

export async function loader() {
  const images = await listCrewImages();
  // A fresh pick of crew photos each visit; the seed makes the browser deal the same deck the server rendered.
  const seed = Math.floor(Math.random() * 2 ** 31);
  const picked = [...images]
    .map((image) => ({ image, order: Math.random() }))
    .sort((a, b) => a.order - b.order)
    .slice(0, PAIRS)
    .map(({ image }) => ({ id: image.id, image: image.image }));
  return { images: picked, seed, stationName: getStationIdentity().name };
}

export default function Game() {
  const { images, seed, stationName } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <div className="container">
      <header className="page-head">
        <h1 className="page-title">{t("chart.gameTitle")}</h1>
        <p className="muted">{t("chart.gameIntro", { station: stationName })}</p>
      </header>
      <section className="section" aria-label={t("chart.gameBoard")}>
        {images.length < 2 ? (
          <p className="empty-state">
            <Icon name="user" />
            {t("chart.gameNeedsPhotos")}
          </p>
        ) : (
          <MemoryGame key={seed} images={images} seed={seed} />
        )}
      </section>
    </div>
  );
}
