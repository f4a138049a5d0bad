import { Link, useRouteLoaderData } from "@remix-run/react";
import type { HTMLAttributeReferrerPolicy } from "react";
import { Message } from "~/i18n/Message";
import { useT } from "~/i18n/translate";
import type { loader as rootLoader } from "~/root";
import { embedSourceLink } from "~/utils/embed-links";
import { Icon } from "./Icon";
import { roleMay } from "~/utils/staff-roles";

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

/** A player with its title above and, beneath, a link to the same content for when the player cannot load. */
function ChartEntry({ frame }: { frame: EmbedFrameData }) {
  const source = embedSourceLink(frame.src);
  const { t } = useT();
  return (
    <figure className="chart-entry">
      <figcaption className="chart-entry__title">{frame.title}</figcaption>
      <EmbedFrame frame={frame} />
      <a className="chart-entry__open" href={source.href} target="_blank" rel="noopener noreferrer">
        {t("chart.openIn", { service: source.name })}
        <span className="visually-hidden">{t("chart.opensInNewTab")}</span>
      </a>
    </figure>
  );
}

/** The chart list used by /chartcontent, /Chart and /play/{id}. */
export function EmbedList({ frames }: { frames: EmbedFrameData[] }) {
  const staffRole = useRouteLoaderData<typeof rootLoader>("root")?.staffRole ?? null;
  // The hint links to the chart's admin page: only for roles that may open it.
  const isAdmin = staffRole !== null && roleMay(staffRole, "content");
  const { t } = useT();
  if (frames.length === 0) {
    return (
      <div className="empty-state">
        <Icon name="radio" />
        <p>{t("chart.comingSoon")}</p>
        {isAdmin && (
          <p>
            <Message id="chart.adminHint" components={{ 0: <Link to="/chartcontentadmin" /> }} />
          </p>
        )}
      </div>
    );
  }
  return (
    <ul className="embed-list" aria-label={t("chart.players")}>
      {frames.map((frame) => (
        <li key={frame.id}>
          <ChartEntry frame={frame} />
        </li>
      ))}
    </ul>
  );
}
