import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Icon } from "~/components/Icon";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { canDownload, DOWNLOAD_LIMIT_BYTES, formatBytes, listDownloads, removeDownload, type Download } from "~/utils/offline-downloads";
import { formatDuration } from "~/utils/format";
import { getPlayer } from "~/utils/player";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: metaTranslator(matches).t("podcast.downloadsTitle") }]);

/**
 * The episodes kept on this device (utils/offline-downloads.ts), with their sizes: play one in the
 * bar, remove one. Everything here lives in the browser, so the page has no loader and works
 * offline once the service worker has kept it.
 */
export default function Downloads() {
  const { t, locale } = useT();
  // null until the browser has said what it keeps (the server cannot know).
  const [downloads, setDownloads] = useState<Download[] | null>(null);
  const [supported, setSupported] = useState(true);

  useEffect(() => {
    setSupported(canDownload());
    void listDownloads().then(setDownloads);
  }, []);

  const remove = async (id: number) => {
    await removeDownload(id);
    setDownloads(await listDownloads());
  };
  const used = (downloads ?? []).reduce((sum, download) => sum + download.bytes, 0);

  return (
    <section className="container section" aria-labelledby="downloads-title">
      <div className="section-head">
        <h1 id="downloads-title" className="section-title">
          {t("podcast.downloadsTitle")}
        </h1>
      </div>
      <p className="muted">{t("podcast.downloadsIntro")}</p>
      {!supported ? (
        <p className="muted">{t("podcast.downloadsUnsupported")}</p>
      ) : downloads === null ? null : downloads.length === 0 ? (
        <div className="empty-state">
          <Icon name="download" />
          <p>{t("podcast.downloadsEmpty")}</p>
          <p>
            <Link to="/cardlistmore" className="button button--ghost">
              {t("podcast.browseEpisodes")}
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="downloads-usage">
            {t("podcast.downloadsUsage", { used: formatBytes(used, locale), limit: formatBytes(DOWNLOAD_LIMIT_BYTES, locale) })}
          </p>
          <ul className="downloads-list" aria-label={t("podcast.downloadsTitle")}>
            {downloads.map((download) => (
              <li key={download.id} className="download-item">
                <img src={download.coverUrl} alt="" width={64} height={64} />
                <div>
                  <p className="download-item__title">
                    <Link to={`/play/${download.id}`}>{download.title}</Link>
                  </p>
                  <p className="download-item__meta">
                    {formatDuration(download.durationSeconds)} · {formatBytes(download.bytes, locale)}
                  </p>
                </div>
                <div className="download-item__actions">
                  <button
                    type="button"
                    className="button"
                    onClick={() => getPlayer().playEpisode(download)}
                    aria-label={t("podcast.playEpisode", { title: download.title })}
                  >
                    <Icon name="play" size={20} /> {t("podcast.downloadPlay")}
                  </button>
                  <button
                    type="button"
                    className="button button--ghost"
                    onClick={() => void remove(download.id)}
                    aria-label={t("podcast.downloadRemoveNamed", { title: download.title })}
                  >
                    {t("podcast.downloadRemove")}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
