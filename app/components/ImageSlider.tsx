import { useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { useT } from "~/i18n/translate";
import { mediaSrcSet, mediaUrlFor, type MediaFile } from "~/utils/media";
import { Icon } from "./Icon";

export interface SlideImage {
  id: string;
  key: string;
  image: MediaFile;
}

/** Next page start: past the end wraps to the start. */
export function nextStart(start: number, total: number, pageSize: number): number {
  return start + pageSize >= total ? 0 : start + pageSize;
}

/** Previous page start: before the first page jumps to the last full page, max(0, total - pageSize). */
export function previousStart(start: number, total: number, pageSize: number): number {
  return start - pageSize < 0 ? Math.max(0, total - pageSize) : start - pageSize;
}

/**
 * Shows `pageSize` images at a time with wrap-around previous/next.
 * The controls are links (`?param=N`), so the slider works without JavaScript too.
 * A page may ship only the slides its first render shows (`images` from `offset`, of
 * `total`): the rest come from `loadAll` when the visitor first moves the slider.
 */
export function ImageSlider({
  images: shipped,
  total = shipped.length,
  offset = 0,
  loadAll,
  pageSize,
  label,
  param,
  sizes,
  altPrefix,
}: {
  images: SlideImage[];
  total?: number;
  offset?: number;
  loadAll?: () => Promise<SlideImage[]>;
  pageSize: number;
  label: string;
  /** The search parameter that holds the first visible index. */
  param: string;
  sizes: string;
  altPrefix: string;
}) {
  const { t } = useT();
  const [searchParams] = useSearchParams();
  const requested = Number(searchParams.get(param));
  const initial = Number.isInteger(requested) && requested > 0 && requested < total ? requested : 0;
  const [start, setStart] = useState(initial);
  const [loaded, setLoaded] = useState<SlideImage[] | null>(null);
  const loading = useRef(false);
  // New data from the server (a live update) replaces what was loaded before.
  useEffect(() => setLoaded(null), [shipped]);
  const complete = offset === 0 && shipped.length === total;
  const images = loaded ?? (complete ? shipped : null);
  if (total === 0) return null;

  const visible = images ? images.slice(start, start + pageSize) : shipped.slice(start - offset, start - offset + pageSize);
  const previous = previousStart(start, total, pageSize);
  const next = nextStart(start, total, pageSize);
  const hrefFor = (index: number) => {
    const params = new URLSearchParams(searchParams);
    params.set(param, String(index));
    return `?${params}`;
  };
  const go = (index: number) => (event: MouseEvent) => {
    if (images) {
      event.preventDefault();
      setStart(index);
    } else if (loadAll) {
      event.preventDefault();
      // Clicks while the rest is on its way count once.
      if (loading.current) return;
      loading.current = true;
      loadAll()
        .then(
          (all) => {
            setLoaded(all);
            setStart(Math.min(index, Math.max(0, all.length - 1)));
          },
          // Could not load the rest: the link itself still shows the next page.
          () => window.location.assign(hrefFor(index)),
        )
        .finally(() => (loading.current = false));
    }
  };
  const end = Math.min(start + pageSize, total);

  return (
    <div className={`slider${pageSize === 1 ? " slider--single" : ""}`} role="region" aria-roledescription={t("listen.carousel")} aria-label={label}>
      <ul className="slider__track" style={pageSize > 1 ? { gridTemplateColumns: `repeat(${pageSize}, minmax(0, 1fr))` } : undefined}>
        {visible.map((slide, offset) => (
          <li key={slide.id} className="slider__frame" aria-roledescription={t("listen.slide")}>
            <img
              src={mediaUrlFor(slide.image, 640)}
              srcSet={mediaSrcSet(slide.image)}
              sizes={sizes}
              alt={t("listen.slideAlt", { prefix: altPrefix, number: start + offset + 1, total })}
              width={slide.image.width ?? 600}
              height={slide.image.height ?? 800}
              loading="lazy"
              decoding="async"
            />
          </li>
        ))}
      </ul>
      <div className="slider__controls">
        <a href={hrefFor(previous)} className="icon-button slider__button" aria-label={t("listen.previous")} onClick={go(previous)} rel="nofollow">
          <Icon name="chevronLeft" />
        </a>
        <p className="slider__position" aria-live="polite" data-testid="slider-position">
          {pageSize === 1 ? `${start + 1} / ${total}` : `${start + 1}–${end} / ${total}`}
        </p>
        <a href={hrefFor(next)} className="icon-button slider__button" aria-label={t("listen.next")} onClick={go(next)} rel="nofollow">
          <Icon name="chevronRight" />
        </a>
      </div>
    </div>
  );
}
