import { useT } from "~/i18n/translate";
import type { CrewSliderPage } from "~/models/crew.server";
import { ImageSlider, type SlideImage } from "./ImageSlider";

export const CREW_PAGE_SIZE = 3;

// The whole slider, fetched once when the visitor first moves it (see routes/crew-images.ts).
async function loadAllCrewImages(): Promise<SlideImage[]> {
  const response = await fetch("/crew-images");
  if (!response.ok) throw new Error(`GET /crew-images answered ${response.status}`);
  return ((await response.json()) as { images: SlideImage[] }).images;
}

/**
 * The crew portraits, three at a time (on /listen and /cardlistmore). The page ships only
 * the three its first render shows; the others load when the slider moves.
 */
export function CrewSlider({ page, stationName }: { page: CrewSliderPage; stationName: string }) {
  const { t } = useT();
  if (page.total === 0) return null;
  return (
    <section className="section" aria-labelledby="crew-slider-title">
      <div className="section-head">
        <h2 id="crew-slider-title" className="section-title">
          {t("listen.crews", { station: stationName })}
        </h2>
      </div>
      <ImageSlider
        images={page.images}
        total={page.total}
        offset={page.start}
        loadAll={loadAllCrewImages}
        pageSize={CREW_PAGE_SIZE}
        label={t("listen.crewPhotos", { station: stationName })}
        param="crew"
        sizes="(min-width: 1232px) 400px, 33vw"
        altPrefix={t("listen.crewPhoto")}
      />
    </section>
  );
}
