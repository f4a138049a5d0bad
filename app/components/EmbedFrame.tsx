import type { HTMLAttributeReferrerPolicy } from "react";
import { Icon } from "./Icon";

export interface EmbedFrameData {
  id: string;
  src: string;
  title: string;
  height: string | null;
  allow: string | null;
  allowFullScreen: boolean;
  sandbox: string;
  referrerPolicy: string;
}

// Spotify's episode player height: what the chart embeds usually are.
const DEFAULT_HEIGHT = 352;

function frameHeight(height: string | null): number {
  const pixels = height && /^\d+(px)?$/.test(height) ? Number.parseInt(height, 10) : NaN;
  return Number.isFinite(pixels) && pixels >= 80 ? pixels : DEFAULT_HEIGHT;
}

/** One chart embed: a sandboxed, lazily loaded iframe built from parsed attributes. */
export function EmbedFrame({ frame }: { frame: EmbedFrameData }) {
  return (
    <iframe
      className="embed-frame"
      src={frame.src}
      title={frame.title}
      height={frameHeight(frame.height)}
      allow={frame.allow ?? undefined}
      allowFullScreen={frame.allowFullScreen}
      sandbox={frame.sandbox}
      referrerPolicy={frame.referrerPolicy as HTMLAttributeReferrerPolicy}
      loading="lazy"
    />
  );
}

/** The chart list used by /chartcontent, /Chart and /play/{id}. */
export function EmbedList({ frames }: { frames: EmbedFrameData[] }) {
  if (frames.length === 0) {
    return (
      <p className="empty-state">
        <Icon name="radio" />
        The chart is being prepared. Check back soon.
      </p>
    );
  }
  return (
    <ul className="embed-list" aria-label="Chart players">
      {frames.map((frame) => (
        <li key={frame.id}>
          <EmbedFrame frame={frame} />
        </li>
      ))}
    </ul>
  );
}
