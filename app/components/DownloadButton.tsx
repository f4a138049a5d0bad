import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { MessageKey } from "~/i18n/keys";
import { useT } from "~/i18n/translate";
import {
  canDownload,
  DOWNLOAD_LIMIT_BYTES,
  DownloadError,
  downloadEpisode,
  formatBytes,
  isDownloaded,
  removeDownload,
  type DownloadableEpisode,
} from "~/utils/offline-downloads";
import { Icon } from "./Icon";

type Status = "unknown" | "absent" | "downloading" | "stored";

const REFUSALS: Record<DownloadError["reason"], MessageKey> = {
  unsupported: "podcast.downloadsUnsupported",
  tooBig: "podcast.downloadTooBig",
  failed: "podcast.downloadFailed",
};

/**
 * "Download for offline" on the play page: keeps the episode on this device (utils/offline-downloads.ts)
 * for the same player to play without a connection. It needs JavaScript and Cache Storage, so it
 * shows only once the page knows it has them.
 */
export function DownloadButton({ episode }: { episode: DownloadableEpisode }) {
  const { t, locale } = useT();
  const [status, setStatus] = useState<Status>("unknown");
  const [refusal, setRefusal] = useState<MessageKey | null>(null);

  useEffect(() => {
    if (!canDownload()) return;
    let current = true;
    void isDownloaded(episode.id).then((stored) => current && setStatus(stored ? "stored" : "absent"));
    return () => {
      current = false;
    };
  }, [episode.id]);

  if (status === "unknown") return null;

  const download = async () => {
    setRefusal(null);
    setStatus("downloading");
    try {
      await downloadEpisode(episode);
      setStatus("stored");
    } catch (error) {
      setRefusal(REFUSALS[error instanceof DownloadError ? error.reason : "failed"]);
      setStatus("absent");
    }
  };
  const remove = async () => {
    await removeDownload(episode.id);
    setStatus("absent");
  };

  return (
    <div className="download-action">
      {status === "stored" ? (
        <>
          <p className="download-action__done">
            <Icon name="download" size={20} /> <span>{t("podcast.downloaded")}</span> · <Link to="/downloads">{t("common.navDownloads")}</Link>
          </p>
          <button type="button" className="button button--ghost" onClick={remove}>
            {t("podcast.downloadRemove")}
          </button>
        </>
      ) : (
        <button type="button" className="button button--ghost" onClick={download} disabled={status === "downloading"} aria-busy={status === "downloading"}>
          <Icon name="download" size={20} /> {t(status === "downloading" ? "podcast.downloading" : "podcast.downloadForOffline")}
        </button>
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {t(refusal, { limit: formatBytes(DOWNLOAD_LIMIT_BYTES, locale) })}
        </p>
      )}
    </div>
  );
}
