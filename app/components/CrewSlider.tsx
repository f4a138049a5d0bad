import { ImageSlider, type SlideImage } from "./ImageSlider";

const CREW_PAGE_SIZE = 3;

/** The crew portraits, three at a time (on /listen and /cardlistmore). */
export function CrewSlider({ images, stationName }: { images: SlideImage[]; stationName: string }) {
  if (images.length === 0) return null;
  return (
    <section className="section" aria-labelledby="crew-slider-title">
      <div className="section-head">
        <h2 id="crew-slider-title" className="section-title">
          {`${stationName} CREWS`}
        </h2>
      </div>
      <ImageSlider
        images={images}
        pageSize={CREW_PAGE_SIZE}
        label={`${stationName} crew photos`}
        param="crew"
        sizes="(min-width: 1232px) 400px, 33vw"
        altPrefix="Crew photo"
      />
    </section>
  );
}
